//! Accessibility audit of the release build in headless Chromium: axe-core (npm, pinned in package.json)
//! injected into the same browser over WebDriver, run over the page at rest and with each figure target
//! focused, in the light and the dark theme — zero violations — and a keyboard walk-through that Tabs
//! through every interactive element in order, checking each gets a visible focus indicator and that
//! focusing a figure target updates its readout. Run by ./scripts/test.sh with `LOCKDIVE_DIST` (see
//! the harness, `e2e/src/lib.rs`).

use std::time::{Duration, Instant};

use fantoccini::key::Key;
use lockdive_e2e::hooks::{script, CHOICE_TARGETS as TARGETS};
use lockdive_e2e::{repo_path, with_page, E2eResult, Page};
use redis_oracle::required;
use serde_json::{json, Value};

/// axe.min.js from node_modules (scripts/tools.sh runs `npm ci`, which installs it); `Err` says
/// how to get it.
fn axe_source() -> Result<String, String> {
    let file = repo_path("node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(&file).map_err(|e| {
        format!(
            "{} is missing ({e}): run `npm ci` (./scripts/test.sh does it)",
            file.display()
        )
    })
}

/// Runs axe over the whole document and returns one line per violating node.
async fn axe_violations(page: &Page, axe: &str) -> E2eResult<Vec<String>> {
    let loaded = page
        .client
        .execute("return typeof window.axe !== 'undefined';", vec![])
        .await?;
    if loaded.as_bool() != Some(true) {
        page.client.execute(axe, vec![]).await?;
    }
    let report = page
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] })
                .then(r => done(r.violations.flatMap(v => v.nodes.map(n =>
                    `${v.id} (${v.impact}): ${v.help} — ${n.target.join(' ')}: ${n.failureSummary}`))))
                .catch(e => done(['axe failed: ' + e]));",
            vec![],
        )
        .await?;
    Ok(report
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_else(|| vec![format!("axe gave no list: {report}")]))
}

/// axe over the page in the light and then the dark theme (picked with the page's switch, its
/// colour transition let settle), one line per violation labelled `[theme, state]`.
async fn audit_in_both_themes(page: &Page, axe: &str, state: &str) -> E2eResult<Vec<String>> {
    let mut found = Vec::new();
    for theme in ["light", "dark"] {
        page.find(&format!("[data-theme-choice=\"{theme}\"]"))
            .await?
            .click()
            .await?;
        tokio::time::sleep(Duration::from_millis(400)).await;
        for line in axe_violations(page, axe).await? {
            found.push(format!("[{theme}, {state}] {line}"));
        }
    }
    Ok(found)
}

/// The text of the readout in the figure holding the element at `index` in `TARGETS` order.
async fn readout_of_target(page: &Page, index: usize) -> E2eResult<String> {
    let text = page
        .client
        .execute(
            &script(
                "const t = document.querySelectorAll(arguments[0])[arguments[1]];
             return t.closest('figure').querySelector('@READOUT@').textContent;",
            ),
            vec![json!(TARGETS), json!(index)],
        )
        .await?;
    Ok(text.as_str().unwrap_or_default().to_string())
}

async fn wait_for_readout_change(page: &Page, index: usize, idle: &str) -> E2eResult<String> {
    let started = Instant::now();
    loop {
        let now = readout_of_target(page, index).await?;
        if now != idle {
            return Ok(now);
        }
        if started.elapsed() > Duration::from_secs(5) {
            return Err(
                format!("focusing target {index} never changed its readout ({idle:?})").into(),
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Fails with every violation axe-core found, one per line.
fn assert_no_violations(found: &[String]) {
    assert!(
        found.is_empty(),
        "axe-core found {} violation(s):\n  {}",
        found.len(),
        found.join("\n  ")
    );
}

#[test]
fn axe_finds_no_violations_at_rest_or_with_any_figure_target_focused_in_either_theme() {
    let Some(axe) = required(axe_source()) else {
        return;
    };
    with_page(|page| async move {
        let mut found = Vec::new();
        let targets = page.count(TARGETS).await?;
        assert!(
            targets >= 5,
            "expected every figure target, found {targets}"
        );
        for theme in ["light", "dark"] {
            page.find(&format!("[data-theme-choice=\"{theme}\"]"))
                .await?
                .click()
                .await?;
            page.press(Key::Escape).await?;
            // Colours change with a transition: let them settle before axe judges them.
            tokio::time::sleep(Duration::from_millis(400)).await;
            for line in axe_violations(&page, &axe).await? {
                found.push(format!("[{theme}, at rest] {line}"));
            }
            for index in 0..targets {
                let idle = readout_of_target(&page, index).await?;
                page.client
                    .execute(
                        "const t = document.querySelectorAll(arguments[0])[arguments[1]];
                         t.scrollIntoView({ block: 'center' }); t.focus();",
                        vec![json!(TARGETS), json!(index)],
                    )
                    .await?;
                wait_for_readout_change(&page, index, &idle).await?;
                // Let the lit path's transitions (160 ms) finish: axe must judge the settled colours.
                tokio::time::sleep(Duration::from_millis(400)).await;
                for line in axe_violations(&page, &axe).await? {
                    found.push(format!("[{theme}, target {index} focused] {line}"));
                }
                page.press(Key::Escape).await?;
            }
        }
        assert_no_violations(&found);
        Ok(())
    });
}

/// A readable name for an element: its tag, id, data attributes and href (JS function body).
const NAME_OF: &str = "return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + \
    [...e.attributes].filter(a => a.name.startsWith('data-') || a.name === 'href') \
        .map(a => `[${a.name}=${a.value}]`).join('');";

/// What the walk reads off the focused element (NAME_OF is spliced in): who it is, whether focus shows, and (for a figure
/// target) its figure's readout.
const FOCUS_PROBE: &str = "
    const e = document.activeElement;
    if (!e || e === document.body) return null;
    const s = getComputedStyle(e);
    const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
    const ring = s.boxShadow && s.boxShadow !== 'none';
    const figure = e.closest('figure@FIGURE@');
    return {
        name: (e => { NAME_OF })(e),
        visible: outline || !!ring,
        target: e.matches(arguments[0]),
        figure: figure ? figure.dataset.figure : null,
        readout: figure ? figure.querySelector('@READOUT@')?.textContent ?? null : null,
    };";

#[test]
fn tab_walks_every_interactive_element_in_order_with_a_visible_focus_and_live_readouts() {
    with_page(|page| async move {
        // In document order, what should take focus: links, buttons, inputs, summaries, focusable code (not
        // what a closed <details> hides);
        // of a radio group only the checked radio is a Tab stop.
        let expected: Vec<String> = page
            .client
            .execute(
                &format!(
                    "const nameOf = e => {{ {NAME_OF} }};
                     return [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
                        .filter(e => e.tabIndex >= 0 && !e.disabled && e.checkVisibility({{ visibilityProperty: true }}))
                        .filter(e => !(e.type === 'radio' && !e.checked && document.querySelector(`input[type=radio][name=\"${{e.name}}\"]:checked`)))
                        .map(nameOf);"
                ),
                vec![],
            )
            .await?
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
            .unwrap_or_default();
        let expected_count = expected.len();
        assert!(
            expected_count > 10,
            "the page has {expected_count} focusable elements"
        );

        // Each figure's readout at rest: a focused target must change it.
        let idle = page
            .client
            .execute(
                &script(
                    "return Object.fromEntries([...document.querySelectorAll('figure@FIGURE@')]
                    .map(f => [f.dataset.figure, f.querySelector('@READOUT@')?.textContent]));",
                ),
                vec![],
            )
            .await?;
        let focus_probe = script(&FOCUS_PROBE.replace("NAME_OF", NAME_OF));
        let mut seen: Vec<String> = Vec::new();
        let mut invisible = Vec::new();
        let mut silent_targets = Vec::new();
        let mut targets_seen = 0;
        for _ in 0..expected_count + 5 {
            page.press(Key::Tab).await?;
            // Leptos updates the readout asynchronously; a short settle before reading it.
            tokio::time::sleep(Duration::from_millis(30)).await;
            let probe = page
                .client
                .execute(&focus_probe, vec![json!(TARGETS)])
                .await?;
            let Some(name) = probe["name"].as_str() else {
                break; // focus left the document: the walk is complete
            };
            if seen.first().map(String::as_str) == Some(name) {
                break; // wrapped around to the first element
            }
            seen.push(name.to_string());
            if probe["visible"] != json!(true) {
                invisible.push(name.to_string());
            }
            if probe["target"] == json!(true) {
                targets_seen += 1;
                let readout = probe["readout"].as_str().unwrap_or_default();
                let figure = probe["figure"].as_str().unwrap_or_default();
                if readout.is_empty() || idle[figure].as_str() == Some(readout) {
                    silent_targets.push(format!("{name}: {readout:?}"));
                }
            }
        }
        assert!(
            invisible.is_empty(),
            "no visible focus on: {invisible:?}\n(walk: {seen:?})"
        );
        assert!(
            silent_targets.is_empty(),
            "focus did not update the readout: {silent_targets:?}"
        );
        let all_targets = page.count(TARGETS).await?;
        assert_eq!(
            targets_seen, all_targets,
            "Tab reached every figure target (walk: {seen:?})"
        );
        assert_eq!(
            seen, expected,
            "Tab order differs from the focusable elements in document order"
        );
        Ok(())
    });
}

/// The lock checker's live states — a lock picked and checked, a counterexample open, the
/// reader's own lock refused with an inline error — in both themes: zero violations.
#[test]
fn axe_finds_no_violations_in_the_lock_checkers_live_states() {
    use lockdive::components::figures::check_lock::hooks;

    let Some(axe) = required(axe_source()) else {
        return;
    };
    with_page(|page| async move {
        let within = |t: &str| format!("{} {t}", hooks::FIGURE);
        let until = |css: String| {
            let page = page.clone();
            async move {
                let started = Instant::now();
                while page.count(&css).await? == 0 {
                    if started.elapsed() > Duration::from_secs(60) {
                        return Err(format!("never saw {css}").into());
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                E2eResult::Ok(())
            }
        };
        let mut found = Vec::new();
        page.click(&within(&hooks::lock("blind-del"))).await?;
        page.wait_for_lab().await?;
        until(within("[data-check-progress][data-state=\"done\"]")).await?;
        page.click(&within("[data-open-counterexample]")).await?;
        until(within(hooks::COUNTEREXAMPLE)).await?;
        found.extend(audit_in_both_themes(&page, &axe, "counterexample open").await?);
        page.click(&within(&hooks::lock("custom"))).await?;
        let release = within(&hooks::script("release"));
        page.find(&release)
            .await?
            .send_keys("return redis.call(")
            .await?;
        page.click(&within(hooks::CHECK_BUTTON)).await?;
        until(within(hooks::ERROR)).await?;
        found.extend(audit_in_both_themes(&page, &axe, "custom error").await?);
        assert_no_violations(&found);
        Ok(())
    });
}
