//! End-to-end test of the real release build: `trunk build --release` output served from a sub-folder on
//! 127.0.0.1, opened in headless Chromium over WebDriver, and driven the way a reader does — the real
//! pointer onto each figure target, Tab and Esc on the keyboard, a finger tap. Run by ./scripts/test.sh,
//! which builds the page and passes its folder in `LOCKDIVE_DIST`.

use std::time::Duration;

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::key::Key;
use lockdive_contract::hooks::{with_value, FIGURE, READOUT_SELECTOR, STATIC_VERDICTS_SELECTOR};
use lockdive_contract::lab::LabChunk;
use lockdive_e2e::hooks::{
    script, within, writer, BLIND_DEL, BLIND_DEL_OUTCOME, FENCE, FENCE_IDLE, LOST_LOCK,
    LOST_LOCK_IDLE, TOKEN_CHECKED, TOKEN_CHECKED_OUTCOME, WRITER_33_OUTCOME, WRITER_34_OUTCOME,
    WRITER_35_OUTCOME,
};
use lockdive_e2e::{
    normalize, reach_target, with_page, with_page_loaded, E2eResult, Expect, Loading, Page,
};

/// (target inside its figure, the figure, what the readout must say, screenshot name)
fn every_target() -> Vec<(String, &'static str, &'static Expect, &'static str)> {
    vec![
        (
            within(LOST_LOCK, BLIND_DEL),
            LOST_LOCK,
            &BLIND_DEL_OUTCOME,
            "lost-lock-blind-del",
        ),
        (
            within(LOST_LOCK, TOKEN_CHECKED),
            LOST_LOCK,
            &TOKEN_CHECKED_OUTCOME,
            "lost-lock-token-checked",
        ),
        (
            within(FENCE, &writer(33)),
            FENCE,
            &WRITER_33_OUTCOME,
            "fence-writer-33",
        ),
        (
            within(FENCE, &writer(34)),
            FENCE,
            &WRITER_34_OUTCOME,
            "fence-writer-34",
        ),
        (
            within(FENCE, &writer(35)),
            FENCE,
            &WRITER_35_OUTCOME,
            "fence-writer-35",
        ),
    ]
}

#[test]
fn the_page_mounts_with_its_title_figures_hooks_and_idle_readouts() {
    with_page(|page| async move {
        let title = page.client.title().await?;
        assert_eq!(title, "The token makes release safe · R2.02.2");
        for figure in [LOST_LOCK, FENCE] {
            assert_eq!(page.count(figure).await?, 1, "exactly one {figure}");
            assert_eq!(
                page.count(&format!("{figure} {READOUT_SELECTOR}")).await?,
                1,
                "one readout in {figure}"
            );
            assert_eq!(
                page.count(&format!("{figure} {STATIC_VERDICTS_SELECTOR}"))
                    .await?,
                1,
                "one static verdict list in {figure}"
            );
            let live = page
                .find(&format!("{figure} {READOUT_SELECTOR}"))
                .await?
                .attr("aria-live")
                .await?;
            assert_eq!(
                live.as_deref(),
                Some("polite"),
                "{figure} readout is an aria-live=polite region"
            );
        }
        for (target, _, _, _) in every_target() {
            assert_eq!(page.count(&target).await?, 1, "exactly one {target}");
        }
        page.wait_for_readout(LOST_LOCK, &LOST_LOCK_IDLE).await?;
        page.wait_for_readout(FENCE, &FENCE_IDLE).await?;
        Ok(())
    });
}

#[test]
fn moving_the_pointer_from_one_release_to_the_other_never_passes_through_the_idle_readout() {
    with_page(|page| async move {
        let readout = format!("{LOST_LOCK} {READOUT_SELECTOR}");
        page.hover(&within(LOST_LOCK, BLIND_DEL)).await?;
        page.wait_for_readout(LOST_LOCK, &BLIND_DEL_OUTCOME).await?;
        // From here on, every text the aria-live readout takes is recorded.
        page.client
            .execute(
                "const r = document.querySelector(arguments[0]); window.__readouts = []; \
                 new MutationObserver(() => window.__readouts.push(r.innerText)) \
                   .observe(r, { childList: true, subtree: true, characterData: true });",
                vec![serde_json::json!(readout)],
            )
            .await?;
        // The real pointer crosses the gap between the two buttons, lingering there a moment as a
        // hand does, then lands on the token-checked release.
        let gap = page
            .client
            .execute(
                &script("const [a, b] = [document.querySelector(arguments[0]), document.querySelector(arguments[1])] \
                   .map(e => e.getBoundingClientRect()); \
                 const x = (a.left + a.right) / 2, y = (a.bottom + b.top) / 2; \
                 const under = document.elementFromPoint(x, y); \
                 return { x, y, onChoice: !!(under && under.closest('@CHOICE@')), \
                          inView: b.bottom <= innerHeight && a.top >= 0 };"),
                vec![
                    serde_json::json!(within(LOST_LOCK, BLIND_DEL)),
                    serde_json::json!(within(LOST_LOCK, TOKEN_CHECKED)),
                ],
            )
            .await?;
        assert_eq!(
            gap["onChoice"],
            serde_json::json!(false),
            "the gap lies on a choice: {gap}"
        );
        assert_eq!(
            gap["inView"],
            serde_json::json!(true),
            "both releases in view: {gap}"
        );
        let to = page.find(&within(LOST_LOCK, TOKEN_CHECKED)).await?;
        let sweep = MouseActions::new("mouse".into())
            .then(PointerAction::MoveTo {
                duration: Some(Duration::from_millis(20)),
                x: gap["x"].as_f64().unwrap_or_default(),
                y: gap["y"].as_f64().unwrap_or_default(),
            })
            .pause(Duration::from_millis(60))
            .then(PointerAction::MoveToElement {
                element: to,
                duration: Some(Duration::from_millis(20)),
                x: 0.0,
                y: 0.0,
            });
        page.client.perform_actions(sweep).await?;
        page.wait_for_readout(LOST_LOCK, &TOKEN_CHECKED_OUTCOME)
            .await?;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let seen = page
            .client
            .execute("return window.__readouts;", vec![])
            .await?;
        let seen: Vec<String> = seen
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|t| t.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        assert!(!seen.is_empty(), "the readout never changed");
        assert!(
            !seen.iter().any(|text| LOST_LOCK_IDLE.is_met_by(text)),
            "the readout passed through the idle text on the way: {seen:?}"
        );
        assert!(
            seen.last()
                .is_some_and(|text| TOKEN_CHECKED_OUTCOME.is_met_by(text)),
            "{seen:?}"
        );
        Ok(())
    });
}

#[test]
fn when_the_lab_cannot_load_the_figures_still_answer_and_the_store_parts_say_so() {
    with_page(|page| async move {
        page.cdp("Network.enable", serde_json::json!({})).await?;
        // Two ways a chunk fails: the store's loader never arrives; the figures' and the
        // checker's loaders and JS do, but their wasm does not.
        page.cdp(
            "Network.setBlockedURLs",
            serde_json::json!({ "urls": [
                format!("*{}-*_loader.js", LabChunk::Store.bin()),
                format!("*{}-*_bg.wasm", LabChunk::Figures.bin()),
                format!("*{}-*_bg.wasm", LabChunk::Check.bin()),
            ] }),
        )
        .await?;
        page.client.goto("about:blank").await?;
        page.goto("").await?;
        // A reach for a console asks for the store's chunk, one for the player the figures', one
        // for a lock the checker's.
        for chunk in LabChunk::ALL {
            page.hover(&reach_target(chunk)).await?;
        }
        let started = std::time::Instant::now();
        let all_failed = vec![Some("failed".to_string()); LabChunk::ALL.len()];
        while page.lab_states().await? != all_failed {
            if started.elapsed() > Duration::from_secs(10) {
                return Err(format!(
                    "the lab chunks' states are {:?}, not failed",
                    page.lab_states().await?
                )
                .into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let notes = page
            .client
            .execute(
                "return [...document.querySelectorAll('.console, .pl, .fw-ledger, .ck-picker')] \
                   .map(e => getComputedStyle(e, '::after').content);",
                vec![],
            )
            .await?;
        let notes: Vec<&str> = notes
            .as_array()
            .map(|a| a.iter().filter_map(|n| n.as_str()).collect())
            .unwrap_or_default();
        assert_eq!(
            notes.len(),
            6,
            "three consoles, the player, the fence's log and the lock picker: {notes:?}"
        );
        assert!(
            notes.iter().all(|n| n.contains("did not load")),
            "every store part says the store did not load: {notes:?}"
        );
        // The figures answer from the build's readouts all the same.
        page.hover(&within(LOST_LOCK, BLIND_DEL)).await?;
        page.wait_for_readout(LOST_LOCK, &BLIND_DEL_OUTCOME).await?;
        page.screenshot(LOST_LOCK, "lab-failed-lost-lock").await?;
        // Chromium may log the blocked requests; those errors are provoked here, not the page's.
        page.forgive_console_errors("_loader.js").await?;
        page.forgive_console_errors("_bg.wasm").await?;
        Ok(())
    });
}

#[test]
fn moving_the_pointer_onto_blind_del_shows_a_deleting_bs_lock() {
    with_page(|page| async move {
        page.hover(&within(LOST_LOCK, BLIND_DEL)).await?;
        page.wait_for_readout(LOST_LOCK, &BLIND_DEL_OUTCOME).await?;
        page.screenshot(LOST_LOCK, "lost-lock-blind-del").await?;
        page.move_pointer_away().await?;
        page.wait_for_readout(LOST_LOCK, &LOST_LOCK_IDLE).await?;
        Ok(())
    });
}

#[test]
fn moving_the_pointer_onto_the_token_checked_release_shows_it_returns_0_and_bs_lock_stands() {
    with_page(|page| async move {
        page.hover(&within(LOST_LOCK, TOKEN_CHECKED)).await?;
        page.wait_for_readout(LOST_LOCK, &TOKEN_CHECKED_OUTCOME)
            .await?;
        page.screenshot(LOST_LOCK, "lost-lock-token-checked")
            .await?;
        page.move_pointer_away().await?;
        page.wait_for_readout(LOST_LOCK, &LOST_LOCK_IDLE).await?;
        Ok(())
    });
}

#[test]
fn moving_the_pointer_onto_each_writer_runs_the_fence_against_seen_34() {
    with_page(|page| async move {
        for (token, expected) in [
            (33, &WRITER_33_OUTCOME),
            (34, &WRITER_34_OUTCOME),
            (35, &WRITER_35_OUTCOME),
        ] {
            page.hover(&within(FENCE, &writer(token))).await?;
            page.wait_for_readout(FENCE, expected).await?;
            page.screenshot(FENCE, &format!("fence-writer-{token}"))
                .await?;
        }
        // Each hover is a what-if against "seen 34": 35 raised nothing for the next one.
        page.hover(&within(FENCE, &writer(33))).await?;
        page.wait_for_readout(FENCE, &WRITER_33_OUTCOME).await?;
        page.move_pointer_away().await?;
        page.wait_for_readout(FENCE, &FENCE_IDLE).await?;
        Ok(())
    });
}

#[test]
fn tabbing_to_each_target_shows_its_readout_and_esc_clears_it() {
    with_page(|page| async move {
        for (target, figure, expected, _) in every_target() {
            page.tab_to(&target, 200).await?;
            page.wait_for_readout(figure, expected).await?;
            page.press(Key::Escape).await?;
            let idle = if figure == LOST_LOCK {
                &LOST_LOCK_IDLE
            } else {
                &FENCE_IDLE
            };
            page.wait_for_readout(figure, idle).await?;
        }
        Ok(())
    });
}

#[test]
fn tapping_a_target_selects_it_and_tapping_elsewhere_clears() {
    with_page(|page| async move {
        page.tap(&within(LOST_LOCK, BLIND_DEL)).await?;
        page.wait_for_readout(LOST_LOCK, &BLIND_DEL_OUTCOME).await?;
        page.tap(&format!("{LOST_LOCK} {STATIC_VERDICTS_SELECTOR}"))
            .await?;
        page.wait_for_readout(LOST_LOCK, &LOST_LOCK_IDLE).await?;
        page.tap(&within(FENCE, &writer(35))).await?;
        page.wait_for_readout(FENCE, &WRITER_35_OUTCOME).await?;
        page.tap(&format!("{FENCE} {STATIC_VERDICTS_SELECTOR}"))
            .await?;
        page.wait_for_readout(FENCE, &FENCE_IDLE).await?;
        Ok(())
    });
}

#[test]
fn static_verdicts_list_every_choice_outcome() {
    with_page(|page| async move {
        let lost_lock = page
            .find(&format!("{LOST_LOCK} {STATIC_VERDICTS_SELECTOR}"))
            .await?
            .text()
            .await?;
        let lost_lock_says = Expect {
            says: &[
                "blind DEL",
                "A deletes B's lock",
                "two clients now proceed",
                "exclusion broken",
                "token-checked release",
                r#"A reads "xyz" ≠ "abc""#,
                "returns 0",
                "B's lock stands",
            ],
            never: &[],
        };
        assert!(
            lost_lock_says.is_met_by(&lost_lock),
            "lost-lock static verdicts: {lost_lock:?}"
        );

        let fence = page
            .find(&format!("{FENCE} {STATIC_VERDICTS_SELECTOR}"))
            .await?
            .text()
            .await?;
        let fence_says = Expect {
            says: &[
                "33 (paused)",
                "33 < 34, rejected",
                "34 (current)",
                "34 ≥ 34, accepted",
                "35 (next)",
                "35 > 34, accepted, max seen becomes 35",
            ],
            never: &[],
        };
        assert!(
            fence_says.is_met_by(&fence),
            "fence static verdicts: {fence:?}"
        );
        Ok(())
    });
}

#[test]
fn every_section_anchor_exists_and_a_deep_link_lands_on_its_section() {
    with_page(|page| async move {
        for n in 1..=6 {
            assert_eq!(
                page.count(&format!("#s{n}")).await?,
                1,
                "exactly one element with id s{n}"
            );
        }
        assert_eq!(
            page.count("section#check").await?,
            1,
            "the lock checker's section"
        );
        // A deep link opened cold: the section is rendered by the app after the HTML loads, so it only
        // lands if the page scrolls to the fragment once the content exists.
        page.client.goto("about:blank").await?;
        page.goto("#s4").await?;
        let started = std::time::Instant::now();
        loop {
            let top = page
                .client
                .execute(
                    "return document.getElementById('s4').getBoundingClientRect().top;",
                    vec![],
                )
                .await?
                .as_f64()
                .unwrap_or(f64::NAN);
            if (-2.0..=120.0).contains(&top) {
                break;
            }
            if started.elapsed() > std::time::Duration::from_secs(5) {
                return Err(format!(
                    "#s4 deep link did not scroll to the section (its top is at {top}px)"
                )
                .into());
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let heading = normalize(&page.find("#s4").await?.text().await?);
        assert!(
            heading.contains("attempts"),
            "#s4 is the attempts section: {heading:?}"
        );
        Ok(())
    });
}

// ---- The prerendered page: readable with JavaScript off, taken over without a shift. ----

/// Evaluates `expression` through DevTools, which works even with the page's own scripts off, and
/// returns its value as JSON.
async fn evaluate(page: &Page, expression: &str) -> E2eResult<serde_json::Value> {
    let reply = page
        .cdp(
            "Runtime.evaluate",
            serde_json::json!({ "expression": expression, "returnByValue": true }),
        )
        .await?;
    if let Some(thrown) = reply.get("exceptionDetails") {
        return Err(format!("evaluating {expression:?} threw {thrown}").into());
    }
    Ok(reply
        .pointer("/result/value")
        .cloned()
        .unwrap_or(serde_json::Value::Null))
}

/// Runs of whitespace as one space, ends trimmed: how the tests compare rendered text.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The visible `<li>` lines of one figure's static verdicts, as the reader sees them.
async fn visible_verdicts(page: &Page, figure: &str) -> E2eResult<Vec<String>> {
    let lines = evaluate(
        page,
        &script(&format!(
            "[...document.querySelectorAll('figure{} @STATIC_VERDICTS@ li')]\
             .filter(li => li.checkVisibility() && li.getBoundingClientRect().height > 0)\
             .map(li => li.innerText)",
            with_value(FIGURE, figure)
        )),
    )
    .await?;
    Ok(lines
        .as_array()
        .ok_or_else(|| format!("no verdict list in {figure}"))?
        .iter()
        .map(|line| squeezed(line.as_str().unwrap_or_default()))
        .collect())
}

/// Saves a PNG of the whole page (beyond the viewport) under `target/screenshots/<name>.png`.
async fn full_page_screenshot(page: &Page, name: &str) -> E2eResult {
    let metrics = page
        .cdp("Page.getLayoutMetrics", serde_json::json!({}))
        .await?;
    let size = |axis: &str| {
        metrics
            .pointer(&format!("/cssContentSize/{axis}"))
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0)
    };
    let shot = page
        .cdp(
            "Page.captureScreenshot",
            serde_json::json!({
                "format": "png",
                "captureBeyondViewport": true,
                "clip": { "x": 0, "y": 0, "width": size("width"), "height": size("height"), "scale": 1 },
            }),
        )
        .await?;
    let png = lockdive_e2e::chromedriver::base64_decode(
        shot.get("data")
            .and_then(|d| d.as_str())
            .ok_or("CDP returned no image")?,
    )?;
    lockdive_e2e::save_screenshot(&format!("{name}.png"), &png)?;
    Ok(())
}

#[test]
fn with_javascript_off_every_section_code_block_and_static_verdict_is_readable() {
    use lockdive::content::model::Block;
    use lockdive::content::DIVE;
    use lockdive::scenarios::attempts::AttemptsRun;
    use lockdive::scenarios::fence::FenceOutcome;
    use lockdive::scenarios::lost_lock::{LostLockOutcome, ReleaseChoice};

    with_page_loaded(Loading::ScriptsOff, |page| async move {
        // Scripts really are off: well after the load, the app has not marked the page live.
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        let live = evaluate(
            &page,
            "document.documentElement.hasAttribute('data-interactive')",
        )
        .await?;
        assert_eq!(
            live,
            serde_json::json!(false),
            "the wasm ran with JavaScript off"
        );

        for section in DIVE.sections {
            let shown = evaluate(
                &page,
                &format!(
                    "(() => {{ const s = document.getElementById('{}'); if (!s) return 'missing'; \
                     const r = s.getBoundingClientRect(); \
                     return s.checkVisibility() && r.width > 0 && r.height > 0 ? 'shown' : 'hidden'; }})()",
                    section.id
                ),
            )
            .await?;
            assert_eq!(shown, serde_json::json!("shown"), "section #{}", section.id);
        }

        let blocks = evaluate(
            &page,
            "[...document.querySelectorAll('pre')].filter(p => p.checkVisibility()).map(p => p.innerText)",
        )
        .await?;
        let blocks: Vec<&str> = blocks
            .as_array()
            .ok_or("no <pre> list")?
            .iter()
            .filter_map(|b| b.as_str())
            .map(str::trim_end)
            .collect();
        for block in DIVE.sections.iter().flat_map(|s| s.blocks) {
            if let Block::Code(sample) = block {
                let text = sample.text.trim_end();
                assert!(
                    blocks.contains(&text),
                    "no visible code block reads:\n{text}"
                );
            }
        }

        let expected = [
            (
                "lost-lock",
                ReleaseChoice::ALL
                    .into_iter()
                    .map(|c| LostLockOutcome::run(c).verdict())
                    .collect::<Vec<_>>(),
            ),
            (
                "fence",
                FenceOutcome::run_all()
                    .iter()
                    .map(|o| o.verdict())
                    .collect(),
            ),
            (
                "attempts",
                AttemptsRun::run()
                    .outcomes
                    .iter()
                    .map(|o| o.verdict())
                    .collect(),
            ),
        ];
        for (figure, sentences) in expected {
            let lines = visible_verdicts(&page, figure).await?;
            assert_eq!(
                lines.len(),
                sentences.len(),
                "{figure}: {lines:?} vs the scenario's {sentences:?}"
            );
            for (line, sentence) in lines.iter().zip(&sentences) {
                assert!(
                    line.ends_with(&squeezed(sentence)),
                    "{figure}: the page says {line:?}, the scenario {sentence:?}"
                );
            }
        }
        full_page_screenshot(&page, "prerendered-javascript-off").await?;
        Ok(())
    });
}

/// Installed before the page's own scripts: sums layout shifts, and records the layout of the
/// prerendered page at the last moment before the wasm runs (when its instantiation resolves, just
/// before the glue calls `main`), with the figures that were there.
const TAKEOVER_PROBE: &str = r##"(() => {
  const probe = { shift: 0, before: null, oldFigures: [], slots: [], slotNames: [], choices: [] };
  window.__lockdiveProbe = probe;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) probe.shift += entry.value;
  }).observe({ type: "layout-shift", buffered: true });
  probe.layout = () => {
    const boxes = {};
    const watched = "main.dive, section[id], figure@FIGURE@, @READOUT@, @STATIC_VERDICTS@, pre, h1, h2, button";
    document.querySelectorAll(watched).forEach((e, i) => {
      const r = e.getBoundingClientRect();
      boxes[`${i} ${e.tagName}${e.id ? "#" + e.id : ""}`] =
        [r.left + scrollX, r.top + scrollY, r.width, r.height].map((v) => Math.round(v * 10) / 10);
    });
    boxes.page = [document.documentElement.scrollWidth, document.documentElement.scrollHeight];
    return boxes;
  };
  for (const name of ["instantiateStreaming", "instantiate"]) {
    const original = WebAssembly[name];
    WebAssembly[name] = function (...args) {
      return original.apply(this, args).then((result) => {
        if (!probe.before) {
          probe.before = probe.layout();
          // What each slot holds as built (a live part), and the figures' choices, which are in
          // no slot.
          probe.oldFigures = [...document.querySelectorAll("@SLOT@ > *")];
          probe.slots = probe.oldFigures.map((f) => f.parentElement);
          probe.slotNames = probe.slots.map((slot) => slot.getAttribute("@SLOT_NAME@"));
          probe.choices = [...document.querySelectorAll("@CHOICE@")];
        }
        return result;
      });
    };
  }
})();"##;

/// What the takeover probe reports: the layout before any wasm ran and now, the layout shift, and
/// how many of the build's figures are still in the page.
async fn takeover_report(page: &Page) -> E2eResult<serde_json::Value> {
    evaluate(
        page,
        &script(
            "(() => { const p = window.__lockdiveProbe; \
         const figures = [...document.querySelectorAll('figure@FIGURE@')]; \
         return { before: p.before, after: p.layout(), shift: p.shift, \
           prerenderedFigures: p.oldFigures.length, \
           slots: p.slotNames, \
           stillPrerendered: p.slotNames.filter((name, i) => p.oldFigures[i].isConnected), \
           liveSlots: p.slotNames.filter((name, i) => p.slots[i].hasAttribute('@SLOT_LIVE@')), \
           choices: p.choices.length, \
           choicesKept: p.choices.filter(c => c.isConnected).length, \
           figures: figures.map(f => f.dataset.figure), \
           mains: document.querySelectorAll('main.dive').length }; })()",
        ),
    )
    .await
}

/// Asserts that every watched box is where it was before any wasm ran, and nothing shifted.
fn assert_nothing_moved(report: &serde_json::Value, stage: &str) -> E2eResult {
    let before = report
        .get("before")
        .and_then(|b| b.as_object())
        .ok_or("the probe saw no prerendered layout before the wasm started")?;
    let after = report
        .get("after")
        .and_then(|a| a.as_object())
        .ok_or("no layout after the takeover")?;
    assert!(
        before.len() > 20,
        "the prerendered page had only {} watched boxes",
        before.len()
    );
    let keys =
        |m: &serde_json::Map<String, serde_json::Value>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        keys(before),
        keys(after),
        "{stage}: the same boxes, in the same order"
    );
    for (key, was) in before {
        let now = &after[key];
        let moved = was.as_array().zip(now.as_array()).is_none_or(|(w, n)| {
            w.len() != n.len()
                || w.iter().zip(n).any(|(a, b)| {
                    (a.as_f64().unwrap_or(f64::NAN) - b.as_f64().unwrap_or(f64::NAN)).abs() > 0.5
                })
        });
        assert!(
            !moved,
            "{stage}: {key} was at {was} before any wasm ran and is at {now}"
        );
    }
    let shift = report
        .get("shift")
        .and_then(|s| s.as_f64())
        .unwrap_or(f64::NAN);
    assert!(
        shift == 0.0,
        "{stage}: cumulative layout shift {shift}, expected none"
    );
    assert_eq!(
        report.get("mains"),
        Some(&serde_json::json!(1)),
        "{stage}: one <main>"
    );
    assert_eq!(
        report.get("figures"),
        Some(&serde_json::json!([
            "lost-lock",
            "fence",
            "attempts",
            "check-lock"
        ])),
        "{stage}: one copy of each figure, in order"
    );
    Ok(())
}

#[test]
fn the_wasm_takes_over_the_prerendered_page_without_moving_anything() {
    with_page(|page| async move {
        page.cdp(
            "Page.addScriptToEvaluateOnNewDocument",
            serde_json::json!({ "source": script(TAKEOVER_PROBE) }),
        )
        .await?;
        page.goto("").await?;
        // Let late effects and any layout-shift entries land.
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;

        // The first wasm answers in the build's own markup: every prerendered figure stays.
        let enhanced = takeover_report(&page).await?;
        let built = enhanced
            .get("prerenderedFigures")
            .and_then(|n| n.as_u64())
            .unwrap_or(0);
        assert!(
            built >= 4,
            "the prerendered page had the live parts in slots"
        );
        assert_eq!(
            enhanced.get("stillPrerendered"),
            enhanced.get("slots"),
            "the first wasm replaced a prerendered figure instead of enhancing it"
        );
        assert_nothing_moved(&enhanced, "the first wasm")?;

        // Reaching for a console, the player and a lock loads every lab chunk, each of which makes
        // its live parts live where the build left them (and marks their slots so) and leaves the
        // figures' choices to the first wasm.
        page.reach_for_the_lab().await?;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let live = takeover_report(&page).await?;
        assert_eq!(
            live.get("stillPrerendered"),
            enhanced.get("slots"),
            "the lab replaced a prerendered live part instead of making it live where it stands"
        );
        assert_eq!(
            live.get("liveSlots"),
            enhanced.get("slots"),
            "a prerendered live part was never made live by the lab"
        );
        assert_eq!(live.get("choices"), Some(&serde_json::json!(8)));
        assert_eq!(
            live.get("choicesKept"),
            live.get("choices"),
            "the lab replaced a figure's choice the first wasm answers"
        );
        assert_nothing_moved(&live, "the lab")?;

        // And the figures still answer the pointer.
        page.hover(&within(LOST_LOCK, BLIND_DEL)).await?;
        page.wait_for_readout(LOST_LOCK, &BLIND_DEL_OUTCOME).await?;
        full_page_screenshot(&page, "prerendered-taken-over").await?;
        Ok(())
    });
}
