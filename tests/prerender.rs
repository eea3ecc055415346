//! The prerendered page: the `prerender` binary Trunk's post_build hook runs, run here on a copy of
//! the real index.html. The HTML it writes must already hold every section, every code block and
//! every figure's static verdicts — the ones the scenarios compute in ministore — with no script
//! needed to see them, and each figure's readout for every choice, which the first wasm shows.

#![cfg(not(target_arch = "wasm32"))]

use lockdive_contract::lab::LabChunk;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use lockdive::content::model::Block;
use lockdive::content::DIVE;
use lockdive::links::CoursePage;
use lockdive::scenarios::attempts::{AttemptsRun, FrameKind, Lane};
use lockdive::scenarios::fence::{
    idle_readout as fence_idle_readout, max_seen_in_setup, FenceOutcome,
};
use lockdive::scenarios::lost_lock::{idle_readout, LostLockOutcome, ReleaseChoice};
use lockdive_contract::course_base::{join_base, DEFAULT as DEFAULT_COURSE_BASE};
use lockdive_contract::hooks::{
    CHECK_LOCK_SLOT, FIGURE, PATH, READOUT, READOUT_FOR, SLOT, STATIC_VERDICTS,
};
use lockdive_contract::Figure;

const START: &str = "<!--lockdive:prerendered-->";
const END: &str = "<!--/lockdive:prerendered-->";

/// A copy of the project's index.html in a fresh temporary folder, removed on drop.
struct ScratchPage {
    folder: PathBuf,
    file: PathBuf,
}

impl ScratchPage {
    fn new(name: &str) -> ScratchPage {
        ScratchPage::edited(name, |html| html)
    }

    /// A copy of index.html changed by `edit` before the prerender runs.
    fn edited(name: &str, edit: impl FnOnce(String) -> String) -> ScratchPage {
        let folder =
            std::env::temp_dir().join(format!("lockdive-prerender-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&folder).expect("create a scratch folder");
        let file = folder.join("index.html");
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("index.html");
        let html = std::fs::read_to_string(source).expect("read index.html");
        std::fs::write(&file, edit(html)).expect("write the copy of index.html");
        ScratchPage { folder, file }
    }

    /// Runs the prerender binary on the copy, as Trunk's hook does, and returns the file's text.
    fn prerender(&self) -> String {
        let output = Command::new(env!("CARGO_BIN_EXE_prerender"))
            .arg(&self.file)
            .output()
            .expect("run the prerender binary");
        assert!(
            output.status.success(),
            "prerender failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        std::fs::read_to_string(&self.file).expect("read the prerendered page")
    }
}

impl Drop for ScratchPage {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// The project's index.html as the build prerenders it, run once for every test that only reads
/// it: the prerender computes every figure's verdicts and the lock checker's whole catalogue.
fn plain_page() -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| ScratchPage::new("plain").prerender())
}

/// The prerendered nodes: what sits between the marks in `<body>`.
fn prerendered(page: &str) -> &str {
    let body = page.find("<body").expect("the page has a <body>");
    let start = page[body..]
        .find(START)
        .map(|at| body + at + START.len())
        .expect("the body holds the opening mark");
    let end = page[start..]
        .find(END)
        .map(|at| start + at)
        .expect("the body holds the closing mark");
    &page[start..end]
}

/// Text as a reader sees it: tags and comments dropped, the entities the renderer writes decoded.
fn visible_text(html: &str) -> String {
    let mut text = String::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        text.push_str(&rest[..at]);
        let close = if rest[at..].starts_with("<!--") {
            rest[at..].find("-->").map(|e| at + e + 3)
        } else {
            rest[at..].find('>').map(|e| at + e + 1)
        };
        rest = close.map_or("", |c| &rest[c..]);
    }
    text.push_str(rest);
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Each complete `<tag …>…</tag>` element whose start tag contains `marker`, nesting respected.
fn elements<'a>(html: &'a str, tag: &str, marker: &str) -> Vec<&'a str> {
    let open = format!("<{tag}");
    let close = format!("</{tag}>");
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = html[from..].find(&open).map(|a| from + a) {
        from = at + open.len();
        let start_tag_end = html[at..].find('>').map_or(html.len(), |e| at + e + 1);
        let name_ends = html[from..].starts_with([' ', '>', '/']);
        if !name_ends || !html[at..start_tag_end].contains(marker) {
            continue;
        }
        let mut depth = 0usize;
        let mut cursor = at;
        let end = loop {
            let next_open = html[cursor..].find(&open).map(|o| cursor + o);
            let next_close = html[cursor..].find(&close).map(|c| cursor + c);
            match (next_open, next_close) {
                (Some(o), Some(c)) if o < c => {
                    depth += 1;
                    cursor = o + open.len();
                }
                (_, Some(c)) => {
                    depth -= 1;
                    cursor = c + close.len();
                    if depth == 0 {
                        break cursor;
                    }
                }
                (_, None) => panic!("<{tag}> at byte {at} is never closed"),
            }
        };
        found.push(&html[at..end]);
    }
    found
}

/// The one figure `data-figure=name` in the page.
fn figure<'a>(html: &'a str, name: &str) -> &'a str {
    let figures = elements(html, "figure", &format!("{FIGURE}=\"{name}\""));
    assert_eq!(figures.len(), 1, "exactly one figure[data-figure={name}]");
    figures[0]
}

/// The lines of a figure's `[data-static-verdicts]` list, as read.
fn static_verdicts(figure: &str) -> Vec<String> {
    let lists = elements(figure, "div", STATIC_VERDICTS);
    assert_eq!(lists.len(), 1, "one [data-static-verdicts] in {figure:.80}");
    elements(lists[0], "li", "")
        .into_iter()
        .map(|li| visible_text(li).trim().to_string())
        .collect()
}

/// Every verdict line ends with the scenario's sentence, in the scenario's order.
fn assert_verdicts(figure_name: &str, page: &str, expected: Vec<String>) {
    let lines = static_verdicts(figure(page, figure_name));
    assert_eq!(
        lines.len(),
        expected.len(),
        "{figure_name}: {lines:?} vs the scenario's {expected:?}"
    );
    for (line, sentence) in lines.iter().zip(&expected) {
        assert!(
            line.ends_with(sentence.as_str()),
            "{figure_name}: the prerendered line {line:?} does not say the scenario's {sentence:?}"
        );
    }
}

#[test]
fn the_prerendered_page_holds_every_section_in_the_briefs_order() {
    let page = plain_page();
    let body = prerendered(page);
    let mut last = 0;
    for section in DIVE.sections {
        let anchor = format!("<section id=\"{}\"", section.id);
        let at = body
            .find(&anchor)
            .unwrap_or_else(|| panic!("no {anchor} in the prerendered page"));
        assert!(at > last, "{} is out of order", section.id);
        last = at;
    }
}

#[test]
fn the_prerendered_page_holds_every_code_block_as_written() {
    let page = plain_page();
    let blocks: Vec<String> = elements(prerendered(page), "pre", "")
        .into_iter()
        .map(visible_text)
        .collect();
    let samples: Vec<_> = DIVE
        .sections
        .iter()
        .flat_map(|s| s.blocks)
        .filter_map(|b| match b {
            Block::Code(sample) => Some(sample),
            _ => None,
        })
        .collect();
    assert!(!samples.is_empty(), "the dive has code samples");
    for sample in samples {
        let want = sample.text.trim_end();
        assert!(
            blocks.iter().any(|b| b == want),
            "no <pre> block reads:\n{want}"
        );
    }
}

#[test]
fn the_prerendered_figures_show_the_verdicts_ministore_computes() {
    let page = plain_page();
    let body = prerendered(page);
    assert_verdicts(
        "lost-lock",
        body,
        ReleaseChoice::ALL
            .into_iter()
            .map(|c| LostLockOutcome::run(c).verdict())
            .collect(),
    );
    assert_verdicts(
        "fence",
        body,
        FenceOutcome::run_all()
            .iter()
            .map(|o| o.verdict())
            .collect(),
    );
    assert_verdicts(
        "attempts",
        body,
        AttemptsRun::run()
            .outcomes
            .iter()
            .map(|o| o.verdict())
            .collect(),
    );
}

#[test]
fn nothing_in_the_prerendered_page_waits_for_a_script() {
    let page = plain_page();
    let prerendered_body = prerendered(page);
    // The one kind of inert markup allowed: each choice's readout, shown on hover. What a reader
    // needs without a script — the idle readout, the static verdicts — is outside them.
    let templates = elements(prerendered_body, "template", "");
    assert_eq!(
        templates.len(),
        elements(prerendered_body, "template", READOUT_FOR).len(),
        "a <template> that is not a readout's"
    );
    let mut body = prerendered_body.to_string();
    for template in templates {
        body = body.replacen(template, "", 1);
    }
    let body = body.as_str();
    for hiding in [
        "<script",
        "<template",
        "<noscript",
        " hidden",
        "display:none",
    ] {
        assert!(
            !body.contains(hiding),
            "the prerendered page contains {hiding:?}: part of it would need a script to be seen"
        );
    }
    // The readouts already say something before any hover: the idle sentence.
    for name in ["lost-lock", "fence", "attempts"] {
        let readouts = elements(figure(body, name), "div", READOUT);
        assert_eq!(readouts.len(), 1, "{name}: one [data-readout]");
        assert!(
            !visible_text(readouts[0]).trim().is_empty(),
            "{name}: the readout is empty before the wasm"
        );
    }
}

#[test]
fn prerendering_is_repeatable_and_keeps_the_trunk_page_around_it() {
    let scratch = ScratchPage::new("repeat");
    let once = scratch.prerender();
    let twice = scratch.prerender();
    assert_eq!(once, twice, "a second run must change nothing");
    let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("index.html"))
        .expect("read index.html");
    let without = once.replacen(&format!("{START}{}{END}", prerendered(&once)), "", 1);
    assert_eq!(
        without, source,
        "outside the marks the page is index.html untouched"
    );
}

#[test]
fn course_links_follow_the_meta_tag_of_the_page_they_are_prerendered_into() {
    let base = "https://learn.example.org/distributed-locking/";
    let scratch = ScratchPage::edited("course-base", |html| {
        let meta = format!("content=\"{DEFAULT_COURSE_BASE}\"");
        assert!(
            html.contains(&meta),
            "index.html sets the default course base"
        );
        html.replacen(&meta, &format!("content=\"{base}\""), 1)
    });
    let page = scratch.prerender();
    let body = prerendered(&page);
    for course_page in CoursePage::ALL {
        let href = format!("href=\"{}\"", join_base(base, course_page.slug()));
        assert!(
            body.contains(&href),
            "no link {href} in the prerendered page"
        );
    }
    assert!(
        !body.contains(&format!("href=\"/{}\"", CoursePage::LeaseRenewal.slug())),
        "a link still points at the default base"
    );
}

/// The text of the figure's `<template data-readout-for="key">`, as read.
fn readout_template(figure: &str, key: &str) -> String {
    let mut templates = elements(figure, "template", &format!("{READOUT_FOR}=\"{key}\""));
    if key.is_empty() {
        // A live part's markup writes an empty value as the bare attribute.
        templates.extend(elements(figure, "template", &format!("{READOUT_FOR} ")));
    }
    assert_eq!(templates.len(), 1, "one readout template for {key:?}");
    visible_text(templates[0])
}

/// The template says the scenario's sentence and every line of its evidence.
fn assert_template_says(figure: &str, key: &str, sentence: &str, evidence: &[String]) {
    let text = readout_template(figure, key);
    assert!(
        text.contains(sentence),
        "{key:?}: {text:?} lacks {sentence:?}"
    );
    for line in evidence {
        assert!(
            text.contains(line.as_str()),
            "{key:?}: {text:?} lacks {line:?}"
        );
    }
}

#[test]
fn each_figure_carries_every_choices_readout_as_ministore_computed_it() {
    let page = plain_page();
    let body = prerendered(page);

    let lost_lock = figure(body, "lost-lock");
    let runs: Vec<LostLockOutcome> = ReleaseChoice::ALL
        .into_iter()
        .map(LostLockOutcome::run)
        .collect();
    for run in &runs {
        assert_template_says(
            lost_lock,
            run.choice.hook(),
            &run.readout(),
            &run.evidence(),
        );
    }
    assert_template_says(lost_lock, "", &idle_readout(&runs[0], &runs[1]), &[]);

    // The hover what-ifs before any commit: each writer against a resource that has seen 34.
    let fence = figure(body, "fence");
    for run in FenceOutcome::run_all() {
        assert_template_says(
            fence,
            &run.token.to_string(),
            &run.readout(),
            &run.evidence(),
        );
    }
    assert_template_says(fence, "", &fence_idle_readout(max_seen_in_setup()), &[]);

    let attempts = figure(body, "attempts");
    let run = AttemptsRun::run();
    for outcome in &run.outcomes {
        assert_template_says(
            attempts,
            &outcome.transition.hook(),
            &outcome.readout(),
            &outcome.evidence(),
        );
    }
    assert_template_says(attempts, "", &run.idle_readout(), &[]);
}

#[test]
fn the_build_names_each_lab_chunks_files_after_their_content_and_the_page_finds_its_loader() {
    let scratch = ScratchPage::new("lab-files");
    for chunk in LabChunk::ALL {
        let bin = chunk.bin();
        std::fs::write(scratch.folder.join(format!("{bin}_bg.wasm")), b"\0asm").expect("wasm");
        std::fs::write(
            scratch.folder.join(format!("{bin}.js")),
            format!("module_or_path = new URL('{bin}_bg.wasm', import.meta.url);"),
        )
        .expect("glue");
        std::fs::write(
            scratch.folder.join(chunk.loader()),
            format!("import init from './{bin}.js';await init();"),
        )
        .expect("loader");
    }
    let page = scratch.prerender();
    let mut loaders = Vec::new();
    for chunk in LabChunk::ALL {
        let loader = page
            .split(&format!(
                "<meta name=\"{}\" content=\"",
                chunk.loader_meta()
            ))
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .expect("the page names the chunk's loader");
        assert!(
            loader.starts_with(&format!("{}-", chunk.bin())) && loader.ends_with("_loader.js"),
            "{loader}"
        );
        assert!(scratch.folder.join(loader).is_file(), "{loader} exists");
        assert!(!scratch.folder.join(chunk.loader()).exists());
        assert!(!scratch
            .folder
            .join(format!("{}_bg.wasm", chunk.bin()))
            .exists());
        loaders.push(loader);
    }
    // A second run finds nothing left to rename: the page and the renamed loaders stay as they
    // were.
    assert_eq!(scratch.prerender(), page);
    for loader in loaders {
        assert!(
            scratch.folder.join(loader).is_file(),
            "{loader} is still there"
        );
    }
}

/// The text of each `<span class="{class}">` in `html`, as read.
fn span_texts(html: &str, class: &str) -> Vec<String> {
    elements(html, "span", &format!("class=\"{class}\""))
        .into_iter()
        .map(|span| visible_text(span).trim().to_string())
        .collect()
}

/// (number, name, time) of each step label in `html`.
fn figure_steps(html: &str) -> Vec<(String, String, String)> {
    elements(html, "div", "data-step-label")
        .into_iter()
        .map(|label| {
            let one = |class: &str| span_texts(label, class).concat();
            (one("ll-no"), one("ll-name"), one("ll-clock"))
        })
        .collect()
}

#[test]
fn every_step_of_figure_1_is_in_the_players_default_timeline() {
    let page = plain_page();
    let figure = figure(prerendered(page), "lost-lock");
    let drawing = elements(figure, "div", "class=\"ll-drawing\"")[0];
    // Steps 1–3, then steps 4–5 of the blind DEL, the player's default release.
    let mut shown: Vec<(String, String, String)> = (1..=3)
        .flat_map(|n| figure_steps(elements(drawing, "div", &format!("data-step=\"{n}\""))[0]))
        .collect();
    shown.extend(figure_steps(
        elements(drawing, "div", &format!("{PATH}=\"blind-del\""))[0],
    ));
    assert_eq!(shown.len(), 5, "{shown:?}");

    let timeline = elements(figure, "ol", "data-player-timeline");
    assert_eq!(timeline.len(), 1);
    let played: Vec<(String, String, String)> = elements(timeline[0], "li", "")
        .into_iter()
        .map(|li| {
            let one = |class: &str| span_texts(li, class).concat();
            (one("pl-no"), one("pl-step-title"), one("pl-t"))
        })
        .collect();
    for step in &shown {
        assert!(
            played.contains(step),
            "figure 1's {step:?} is not in the player's {played:?}"
        );
    }
    assert_eq!(shown, played);
    let names: Vec<&str> = shown.iter().map(|(_, name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "A acquires",
            "A stalls",
            "B acquires",
            "A releases",
            "wrong lock"
        ],
        "§1's names"
    );
    // The token-checked alternative's steps 4–5 are the player's with that release.
    let token_row = figure_steps(elements(drawing, "div", &format!("{PATH}=\"token-checked\""))[0]);
    let run = LostLockOutcome::run(ReleaseChoice::TokenChecked);
    let expected: Vec<(String, String, String)> = run.steps[3..]
        .iter()
        .map(|s| (s.number.to_string(), run.title_of(s), s.time_label()))
        .collect();
    assert_eq!(token_row, expected);
    // The expiry sits in step 2's row at the millisecond the store dropped the key.
    let run = LostLockOutcome::run(ReleaseChoice::BlindDel);
    let expiry = run.expiry().expect("the lock expired inside A's stall");
    let row_2 = visible_text(elements(drawing, "div", "data-step=\"2\"")[0]);
    assert!(
        row_2.contains(&format!(
            "t = {} ms: the store expires A's lock \"{}\"",
            expiry.at_ms, expiry.lock.value
        )),
        "{row_2}"
    );
    // An expired lock has no time left to show.
    assert!(!row_2.contains("ms left"), "{row_2}");
    // B takes the key inside A's stall, and A's lane says A is still stalled then.
    let b = &run.steps[2];
    assert!(b.clock_ms < run.steps[1].until_ms);
    let row_3 = visible_text(elements(drawing, "div", "data-step=\"3\"")[0]);
    assert!(
        row_3.contains(&format!(
            "still stalled, until t = {} ms",
            run.steps[1].until_ms
        )),
        "{row_3}"
    );
}

#[test]
fn figure_1_calls_no_choice_safe_and_defines_broken_exclusion_once() {
    let page = plain_page();
    let body = prerendered(page);
    let figure_text = visible_text(figure(body, "lost-lock"));
    assert!(
        !figure_text.to_lowercase().contains("safe"),
        "{figure_text}"
    );
    let definition = format!(
        "Mutual exclusion breaks when {}.",
        lockdive::scenarios::lost_lock::EXCLUSION_BROKEN_MEANS
    );
    assert_eq!(visible_text(body).matches(&definition).count(), 1);
    // The token-checked readout says what the release does not fix in short; the caveat under
    // the static verdicts, visible beside it, says all of it once and links §3.
    let lost_lock = figure(body, "lost-lock");
    let template = elements(
        lost_lock,
        "template",
        &format!("{READOUT_FOR}=\"token-checked\""),
    )[0];
    assert!(visible_text(template).contains(
        "What it does not fix: B took the lock at t = 10001 ms, so two clients believed they held \
         the lock at once before A's release ran. More under the static verdicts."
    ));
    let caveat = elements(lost_lock, "p", "data-caveat");
    assert_eq!(caveat.len(), 1);
    assert!(caveat[0].contains("href=\"#s3\""), "{}", caveat[0]);
    let whole = "What it does not fix: A ran past its lease, and B took the lock";
    assert!(visible_text(caveat[0]).contains(whole));
    assert_eq!(
        lost_lock.matches(whole).count(),
        1,
        "the whole caveat is said once"
    );
    let attempts = figure(body, "attempts");
    let attempts_caveat = elements(attempts, "p", "data-caveat");
    assert!(attempts_caveat[0].contains("href=\"#s3\""));
    assert!(visible_text(attempts_caveat[0]).contains("not what W1 did before this call"));
    let whole = "Only a resource that checks the token itself";
    assert_eq!(
        attempts.matches(whole).count(),
        1,
        "the whole caveat is said once"
    );
}

#[test]
fn figure_2_shows_the_script_it_runs() {
    let page = plain_page();
    let fence = figure(prerendered(page), "fence");
    let disclosure = elements(fence, "details", "data-scripts");
    assert_eq!(disclosure.len(), 1);
    let code = elements(disclosure[0], "code", "")
        .into_iter()
        .map(visible_text)
        .find(|text| text.contains("redis.call"))
        .expect("the script's code block");
    assert_eq!(code, lockdive::scenarios::FENCED_WRITE_SCRIPT.trim_end());
    assert!(
        visible_text(disclosure[0]).contains(&lockdive::scenarios::fence::not_plain_integer_note())
    );
}

#[test]
fn figure_3_labels_its_scripts_a_model_and_offers_alternatives_not_steps() {
    let page = plain_page();
    let attempts = figure(prerendered(page), "attempts");
    let disclosure = visible_text(elements(attempts, "details", "data-scripts")[0]);
    assert!(disclosure.contains(
        "a model of EchoMQ's @claim / @complete / @retry: the lines quoted in §4 are from jobs.ex, \
         the rest is this page's"
    ));
    let run = AttemptsRun::run();
    assert!(disclosure.contains(&run.lease_check_note()));
    for path in ["w1-complete", "w1-retry", "w2-complete"] {
        let row = visible_text(elements(attempts, "div", &format!("{PATH}=\"{path}\""))[0]);
        assert!(row.contains("what if"), "{path}: {row}");
    }
    assert!(visible_text(attempts).contains(&run.caption()));
    // The reaper's pass and W2's re-claim happen while W1 is stalled, and W1's lane says so.
    let stall = run.frame(Lane::W1, FrameKind::Stall).expect("W1 stalls");
    assert!(visible_text(attempts).contains(&format!("t = 0 → {} ms", stall.until_ms)));
    for frame in [FrameKind::Reap, FrameKind::Claim] {
        let lane = if frame == FrameKind::Reap {
            Lane::Reaper
        } else {
            Lane::W2
        };
        let number = run.frame(lane, frame).expect("the frame ran").number;
        let row = visible_text(elements(attempts, "div", &format!("data-step=\"{number}\""))[0]);
        assert!(
            row.contains(&format!("still stalled, until t = {} ms", stall.until_ms)),
            "{row}"
        );
    }
}

// ---- The lock checker's section (#check): after §5, its table computed by the same explorer. ----

#[test]
fn the_lock_checkers_section_sits_after_s5_and_its_table_is_the_explorers_verdicts() {
    use lockdive::scenarios::lockcheck::{catalogue, check, Bound, Property, Verdict};

    let page = plain_page();
    let body = prerendered(page);

    // The anchors in page order: §1–§5, the checker, §6 — and §6 still says §6.
    let at = |id: &str| {
        body.find(&format!("<section id=\"{id}\""))
            .unwrap_or_else(|| panic!("no section #{id}"))
    };
    assert!(at("s5") < at("check") && at("check") < at("s6"));
    let s6 = elements(body, "section", "id=\"s6\"")[0];
    assert!(
        visible_text(s6).trim_start().starts_with("§6"),
        "§6 keeps its number: {:.60}",
        visible_text(s6).trim_start()
    );
    let section = elements(body, "section", "id=\"check\"")[0];
    assert!(section.contains(&format!("data-figure=\"{}\"", Figure::CheckLock.hook())));
    assert!(
        section.contains("href=\"#s3\""),
        "the section points to §3's fence"
    );

    // The static table: a row per catalogue lock, a cell per property, each the explorer's verdict.
    let figure = figure(body, Figure::CheckLock.hook());
    let tables = elements(figure, "div", STATIC_VERDICTS);
    assert_eq!(tables.len(), 1, "one [data-static-verdicts] in the checker");
    let locks = catalogue::all();
    assert!(locks.len() >= 10, "the catalogue has its entries");
    for spec in &locks {
        let report = check(spec, Bound::default()).expect("every catalogue lock checks");
        let rows = elements(
            tables[0],
            "tr",
            &format!("data-static-lock=\"{}\"", spec.id),
        );
        assert_eq!(rows.len(), 1, "one row for {}", spec.id);
        let cells = elements(rows[0], "td", "data-verdict");
        assert_eq!(
            cells.len(),
            Property::ALL.len(),
            "{}: a cell per property",
            spec.id
        );
        for (cell, property) in cells.iter().zip(Property::ALL) {
            let verdict = report.verdict(property).hook();
            assert!(
                cell.contains(&format!("data-verdict=\"{verdict}\""))
                    && cell.contains(&format!("data-column=\"{}\"", property.hook()))
                    && visible_text(cell).contains(verdict),
                "{} / {}: the page says {cell:?}, the explorer {verdict}",
                spec.id,
                property.hook()
            );
            // A holds that judged nothing (a lock without an extend) says why, from the report.
            let judged = report.property(property);
            if judged.verdict == Verdict::Holds {
                if let Some(note) = &judged.note {
                    assert!(
                        visible_text(cell).contains(note.as_str()),
                        "{}: {cell:?}",
                        spec.id
                    );
                }
            }
        }
    }

    // The live part's slot, with a picker button per lock and the custom one, nothing picked.
    let slot = elements(figure, "div", &format!("{SLOT}=\"{CHECK_LOCK_SLOT}\""));
    assert_eq!(
        slot.len(),
        1,
        "the live part has its slot inside the figure"
    );
    assert!(
        !slot[0].contains("data-static-verdicts"),
        "the build's table stays outside the slot the lab makes live"
    );
    for id in locks.iter().map(|s| s.id.as_str()).chain(["custom"]) {
        let buttons = elements(slot[0], "button", &format!("data-lock=\"{id}\""));
        assert_eq!(buttons.len(), 1, "one picker button for {id}");
        assert!(
            buttons[0].contains("aria-pressed=\"false\""),
            "{id} starts unpicked"
        );
    }
    let readouts = elements(slot[0], "p", READOUT);
    assert_eq!(readouts.len(), 1, "one readout");
    assert!(readouts[0].contains("aria-live=\"polite\""));
}
