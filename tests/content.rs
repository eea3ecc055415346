//! The page's text against the author's brief: every line of `dive-r2.02.2.txt` must appear in
//! the content modules, in the brief's order, with the figures where the brief puts them.
//!
//! The brief is checked in as `tests/brief/dive-r2.02.2.txt` (a copy, compared with the shared
//! original whenever that is present) so this test runs on any checkout.

#![cfg(not(target_arch = "wasm32"))]

use lockdive::components::highlight::Lang;
use lockdive::content::inline::{parse, visible_text, Inline};
use lockdive::content::model::{Block, Figure, Section};
use lockdive::content::{s4_attempts, DIVE};
use lockdive::links::{CoursePage, COURSE_SCHEME};
use lockdive::scenarios::RELEASE_SCRIPT;

const BRIEF: &str = include_str!("brief/dive-r2.02.2.txt");

/// Brief lines that belong to a figure (its prompt, `readout ·` line and `Static verdicts —`
/// line): the figure component renders them from the scenario run, so the content modules hold
/// only the figure's slot, which must sit exactly where these lines are.
const FIGURE_LINES: &[(&str, Figure)] = &[
    (
        "The lost-lock deletion — blind DEL vs a token check.",
        Figure::LostLock,
    ),
    ("readout · A stalled past its lease", Figure::LostLock),
    ("Static verdicts — blind DEL →", Figure::LostLock),
    (
        "Run a fenced write — the resource has seen token 34.",
        Figure::Fence,
    ),
    (
        "readout · The resource has accepted token 34.",
        Figure::Fence,
    ),
    ("Static verdicts — 33 (paused) →", Figure::Fence),
];

/// Brief lines inside Lua code blocks that write comments with `#`; the page shows real Lua, so
/// the `#` that starts each comment becomes `--`.
const LUA_COMMENT_LINES: &[&str] = &[
    "# safe release: DEL only if the stored token is still ours",
    "# echo/apps/echo_mq/lib/echo_mq/jobs.ex:131 — the fence is set in @claim.",
    "local att = redis.call('HINCRBY', jk, 'attempts', 1)   # the fence",
    "# ... ZADD the job into emq:{q}:active",
    "return {id, redis.call('HGET', jk, 'payload'), att}     # the worker carries att",
    "# echo/apps/echo_mq/lib/echo_mq/jobs.ex:139 — @complete refuses a stale token.",
];

fn figure_marker(slot: Figure) -> String {
    format!("⟦figure:{slot:?}⟧")
}

/// What a reader sees of a section, in order, one string per rendered element (lists render
/// their numbers, as the `<ol>` does). Figure slots appear as markers.
fn section_text(section: &Section, out: &mut Vec<String>) {
    out.push(section.number.to_string());
    out.push(visible_text(section.heading));
    out.push(visible_text(section.source));
    for block in section.blocks {
        match block {
            Block::Para(markup) => out.push(visible_text(markup)),
            Block::Code(sample) => out.push(sample.text.to_string()),
            Block::Steps(steps) => {
                for (n, step) in steps.iter().enumerate() {
                    out.push(format!(
                        "{}. {}: {}",
                        n + 1,
                        step.label,
                        visible_text(step.text)
                    ));
                }
            }
            Block::Aside(aside) => {
                out.push(aside.label.to_string());
                out.push(visible_text(aside.body));
            }
            Block::PullQuote(text) => out.push(text.to_string()),
            Block::Figure(slot) => out.push(figure_marker(*slot)),
            Block::Callout(callout) => {
                out.push(visible_text(callout.title));
                out.push(visible_text(callout.body));
            }
            Block::Door(door) => {
                out.push(door.kicker.to_string());
                out.push(door.title.to_string());
                out.push(visible_text(door.body));
            }
            Block::Sources(list) => {
                out.push(list.heading.to_string());
                for source in list.items {
                    out.push(format!("{} — {}", source.title, source.note));
                }
            }
            Block::Related(list) => {
                out.push(list.heading.to_string());
                for item in list.items {
                    out.push(item.title.to_string());
                    out.push(item.note.to_string());
                }
            }
        }
    }
}

fn page_text() -> Vec<String> {
    let header = DIVE.header;
    let mut out = vec![
        header.kicker.to_string(),
        header.title.to_string(),
        visible_text(header.lede),
        visible_text(header.grounding),
        figure_marker(DIVE.lead_figure),
    ];
    for section in DIVE.sections {
        section_text(section, &mut out);
    }
    out
}

/// Every inline-markup string in the content, for link and markup checks.
fn all_markup() -> Vec<&'static str> {
    let header = DIVE.header;
    let mut out = vec![header.lede, header.grounding];
    for section in DIVE.sections {
        out.push(section.heading);
        out.push(section.source);
        for block in section.blocks {
            match block {
                Block::Para(markup) => out.push(markup),
                Block::Steps(steps) => out.extend(steps.iter().map(|s| s.text)),
                Block::Aside(aside) => out.push(aside.body),
                Block::Callout(callout) => out.extend([callout.title, callout.body]),
                Block::Door(door) => out.push(door.body),
                _ => {}
            }
        }
    }
    out
}

/// Whitespace differs between a text file and rendered HTML; words and punctuation may not.
fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// A brief line as the page must show it: the brief's Markdown backticks dropped, Lua comments
/// written as Lua.
fn as_on_page(line: &str) -> String {
    let line = line.replace('`', "");
    if LUA_COMMENT_LINES
        .iter()
        .any(|prefix| line.starts_with(prefix))
    {
        line.replacen('#', "--", 1)
    } else {
        line
    }
}

fn figure_of(line: &str) -> Option<Figure> {
    FIGURE_LINES
        .iter()
        .find(|(prefix, _)| line.starts_with(prefix))
        .map(|(_, slot)| *slot)
}

#[test]
fn the_checked_in_brief_is_the_authors_current_draft() {
    let shared = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/brief/dive-r2.02.2.txt"
    );
    match std::fs::read_to_string(shared) {
        Ok(original) => assert_eq!(
            BRIEF, original,
            "tests/brief/dive-r2.02.2.txt is out of date: copy the shared brief again"
        ),
        // On a checkout without the shared folder the copy is the only brief there is.
        Err(_) => assert!(BRIEF.contains("The token makes release safe.")),
    }
}

/// Walks the brief line by line through the page text; the first line that is missing or out of
/// order is the error.
fn check_brief_against(page: &[String]) -> Result<(), String> {
    let page = squeeze(&page.concat());
    let mut cursor = 0;
    let mut last_figure = None;
    for line in BRIEF.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(slot) = figure_of(line) {
            if last_figure != Some(slot) {
                let marker = squeeze(&figure_marker(slot));
                let found = page[cursor..].find(&marker).ok_or_else(|| {
                    format!(
                        "the {slot:?} figure is not placed where the brief prompts it: {line:?}"
                    )
                })?;
                cursor += found + marker.len();
                last_figure = Some(slot);
            }
            continue;
        }
        last_figure = None;
        let wanted = squeeze(&as_on_page(line));
        match page[cursor..].find(&wanted) {
            Some(found) => cursor += found + wanted.len(),
            None if page.contains(&wanted) => {
                return Err(format!(
                    "brief line is on the page but out of order: {line:?}"
                ))
            }
            None => return Err(format!("brief line is missing from the page: {line:?}")),
        }
    }
    Ok(())
}

#[test]
fn every_line_of_the_brief_is_on_the_page_in_order() {
    if let Err(problem) = check_brief_against(&page_text()) {
        panic!("{problem}");
    }
}

#[test]
fn a_dropped_paragraph_is_reported_missing() {
    let mut page = page_text();
    let at = page
        .iter()
        .position(|text| text.starts_with("Now two clients hold the lock at once."))
        .expect("§1's closing paragraph is in the content");
    page.remove(at);
    let problem = check_brief_against(&page).expect_err("a dropped paragraph must be caught");
    assert!(
        problem.contains("missing") && problem.contains("Now two clients"),
        "{problem}"
    );
}

#[test]
fn a_misplaced_figure_or_paragraph_is_reported() {
    let mut page = page_text();
    let fence = figure_marker(Figure::Fence);
    let at = page
        .iter()
        .position(|t| *t == fence)
        .expect("the fence slot is in §3");
    let slot = page.remove(at);
    page.push(slot);
    let problem = check_brief_against(&page).expect_err("a figure at the end must be caught");
    assert!(problem.contains("out of order"), "{problem}");

    let mut page = page_text();
    let first = page.remove(0);
    page.push(first);
    let problem = check_brief_against(&page).expect_err("a kicker at the end must be caught");
    assert!(problem.contains("out of order"), "{problem}");
}

#[test]
fn the_brief_line_tables_match_real_brief_lines() {
    let lines: Vec<&str> = BRIEF.lines().map(str::trim).collect();
    for prefix in LUA_COMMENT_LINES {
        let matches = lines.iter().filter(|l| l.starts_with(prefix)).count();
        assert_eq!(
            matches, 1,
            "Lua comment line {prefix:?} should match one brief line"
        );
    }
    for (prefix, _) in FIGURE_LINES {
        let matches = lines.iter().filter(|l| l.starts_with(prefix)).count();
        assert_eq!(
            matches, 1,
            "figure line {prefix:?} should match one brief line"
        );
    }
}

#[test]
fn sections_are_numbered_s1_to_s6_in_order() {
    let ids: Vec<&str> = DIVE.sections.iter().map(|s| s.id).collect();
    let numbers: Vec<&str> = DIVE.sections.iter().map(|s| s.number).collect();
    assert_eq!(ids, ["s1", "s2", "s3", "s4", "s5", "s6"]);
    assert_eq!(numbers, ["§1", "§2", "§3", "§4", "§5", "§6"]);
}

#[test]
fn the_release_script_shown_in_s2_is_the_one_the_figure_runs() {
    let codes: Vec<(Lang, &str)> = DIVE.sections[1]
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Code(sample) => Some((sample.lang, sample.text)),
            _ => None,
        })
        .collect();
    assert_eq!(codes.len(), 1);
    assert_eq!(codes[0].0, Lang::Lua);
    // s2_token_release names `scenarios::RELEASE_SCRIPT` (include_str! of release.lua), so the
    // page cannot drift from what the figure executes.
    assert_eq!(codes[0].1, RELEASE_SCRIPT);
}

#[test]
fn the_echomq_excerpts_are_real_lua_with_lua_comments() {
    for excerpt in [s4_attempts::CLAIM_EXCERPT, s4_attempts::COMPLETE_EXCERPT] {
        assert!(
            !excerpt.contains('#'),
            "a `#` comment is not Lua: {excerpt}"
        );
        if let Err(err) = ministore::lua::Script::compile(excerpt.as_bytes()) {
            panic!("excerpt does not compile as Lua ({err:?}):\n{excerpt}");
        }
    }
}

#[test]
fn no_markup_is_left_visible() {
    for markup in all_markup() {
        let seen = visible_text(markup);
        assert!(!seen.contains('`'), "stray backtick in {markup:?}");
        assert!(!seen.contains("]("), "unparsed link in {markup:?}");
    }
}

#[test]
fn links_go_to_the_cited_sources_and_known_course_pages() {
    let mut hrefs: Vec<String> = all_markup()
        .into_iter()
        .flat_map(parse)
        .filter_map(|run| match run {
            Inline::Link { href, .. } => Some(href.to_string()),
            _ => None,
        })
        .collect();
    for section in DIVE.sections {
        for block in section.blocks {
            match block {
                Block::Sources(list) => hrefs.extend(list.items.iter().map(|s| s.href.to_string())),
                Block::Related(list) => {
                    hrefs.extend(list.items.iter().map(|r| r.page.markup_href()))
                }
                _ => {}
            }
        }
    }
    for required in [
        "https://valkey.io/topics/programmability/",
        "https://valkey.io/commands/hincrby/",
        "http://antirez.com/news/101",
        "https://martin.kleppmann.com/2016/02/08/how-to-do-distributed-locking.html",
        "https://redis.io/docs/latest/develop/use/patterns/distributed-locks/",
    ] {
        assert!(hrefs.iter().any(|h| h == required), "no link to {required}");
    }
    let course_slugs: Vec<&str> = CoursePage::ALL.iter().map(|p| p.slug()).collect();
    for href in &hrefs {
        match href.strip_prefix(COURSE_SCHEME) {
            Some(slug) => assert!(course_slugs.contains(&slug), "unknown course page {href}"),
            None => assert!(
                href.starts_with("https://") || href.starts_with("http://antirez.com/"),
                "unexpected href {href}"
            ),
        }
    }
    for page in CoursePage::ALL {
        assert!(hrefs.contains(&page.markup_href()), "no link to {page:?}");
    }
}

#[test]
fn the_recap_points_to_the_next_dive() {
    let recap = DIVE.sections[4];
    assert_eq!(
        parse(recap.source),
        [Inline::Link {
            label: "next → R2.02.3",
            href: "course:r2.02.3/"
        }]
    );
}
