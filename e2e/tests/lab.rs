//! End-to-end steps for the lab on the real release build (run by ./scripts/test.sh
//! with `LOCKDIVE_DIST`, see the harness, `e2e/src/lib.rs`): the real mouse drags figure 1's stall slider until the hazard
//! appears (and back until it goes), the player steps by button and keyboard, figure 2 commits 35
//! then rejects 34 (and, its log full, commits nothing and says so), a shared link reopens both
//! where they were, and after seconds of slider
//! steps on the real keyboard the link holds the last state.

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use lockdive::scenarios::fence::{LogFull, MAX_FENCE_COMMITS};
use lockdive_contract::fragment::SharedPart;
use lockdive_contract::hooks::LOCK_PICKER_SELECTOR;
use lockdive_contract::lab::LabChunk;
use lockdive_e2e::hooks::{
    script, within, writer, FENCE, FENCE_IDLE, LOST_LOCK_PLAYER as PLAYER, WRITER_33_OUTCOME,
    WRITER_34_OUTCOME, WRITER_35_OUTCOME,
};
use lockdive_e2e::{reach_target, with_page, E2eResult, Expect, Page};

const STALL_SLIDER: &str = r#"input[data-slider="stall"]"#;
const LEASE_SLIDER: &str = r#"input[data-slider="lease"]"#;
const HAZARD: &str = r#"[data-player] [data-hazard="true"]"#;

/// Polls the text of `css` until it contains every one of `says`; returns the text.
async fn wait_for_text(page: &Page, css: &str, says: &[&str]) -> E2eResult<String> {
    page.wait_for_text(css, says, std::time::Duration::from_secs(5))
        .await
}

/// Polls the page's URL until its fragment is `expected`: the page writes it after the paint, at
/// most once per `share_url::WRITE_GAP_MS`.
async fn wait_for_fragment(page: &Page, expected: &str) -> E2eResult {
    let started = std::time::Instant::now();
    loop {
        let url = page.client.current_url().await?;
        if url.fragment() == Some(expected) {
            return Ok(());
        }
        if started.elapsed() > std::time::Duration::from_secs(3) {
            return Err(format!("the URL never held #{expected}; it is {url}").into());
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

async fn slider_ms(page: &Page, css: &str) -> E2eResult<u64> {
    let value = page
        .find(css)
        .await?
        .prop("value")
        .await?
        .unwrap_or_default();
    Ok(value.parse()?)
}

/// Where a range input sits in the viewport (CSS pixels) and what it holds.
#[derive(Debug, serde::Deserialize)]
struct SliderGeometry {
    left: f64,
    width: f64,
    middle: f64,
    value: f64,
    min: f64,
    max: f64,
    step: f64,
}

impl SliderGeometry {
    /// Chromium's unstyled range thumb (the page does not restyle it): the thumb's centre travels
    /// the track less this width.
    const THUMB_PX: f64 = 16.0;

    /// The thumb's centre on the x axis, so the press grabs the thumb instead of jumping the value.
    fn thumb_x(&self) -> f64 {
        let fraction = (self.value - self.min) / (self.max - self.min);
        self.left + Self::THUMB_PX / 2.0 + fraction * (self.width - Self::THUMB_PX)
    }

    /// Half of one value step in pixels: moves this small skip no value on the way.
    fn half_step_px(&self) -> f64 {
        (self.width - Self::THUMB_PX) / ((self.max - self.min) / self.step) / 2.0
    }
}

async fn slider_geometry(page: &Page, css: &str) -> E2eResult<SliderGeometry> {
    let reply = page
        .client
        .execute(
            "const s = document.querySelector(arguments[0]); \
             const r = s.getBoundingClientRect(); \
             return { left: r.left, width: r.width, middle: r.top + r.height / 2, \
                      value: Number(s.value), min: Number(s.min), max: Number(s.max), \
                      step: Number(s.step) };",
            vec![serde_json::Value::String(css.to_string())],
        )
        .await?;
    Ok(serde_json::from_value(reply)?)
}

/// One real mouse event with the left button, sent through DevTools (`Input.dispatchMouseEvent`):
/// the browser hit-tests it and runs its own range-input drag, as for a hand on a mouse. (A
/// WebDriver actions drag via chromedriver did not move the thumb in headless Chromium 156.)
async fn left_mouse(page: &Page, kind: &str, x: f64, y: f64) -> E2eResult {
    let held = if kind == "mouseReleased" { 0 } else { 1 };
    page.cdp(
        "Input.dispatchMouseEvent",
        serde_json::json!({
            "type": kind, "x": x, "y": y,
            "button": "left", "buttons": held, "clickCount": 1,
        }),
    )
    .await?;
    Ok(())
}

/// Which way a drag goes and when it stops.
struct Drag {
    rightwards: bool,
    /// Stop once the hazard is shown (true) or gone (false)...
    until_hazard: bool,
    /// ...then keep moving this many slider steps before releasing.
    then_steps: usize,
}

/// Presses the left button on the slider's thumb, moves the held mouse half a value step at a
/// time, checking the hazard after every move, and releases as `drag` says. Returns the slider's
/// value at the moment the hazard changed.
async fn drag_thumb(page: &Page, slider: &str, drag: Drag) -> E2eResult<u64> {
    let at = slider_geometry(page, slider).await?;
    let dx = if drag.rightwards { 1.0 } else { -1.0 } * at.half_step_px();
    let mut x = at.thumb_x();
    left_mouse(page, "mousePressed", x, at.middle).await?;
    let pressed = slider_ms(page, slider).await?;
    if pressed as f64 != at.value {
        left_mouse(page, "mouseReleased", x, at.middle).await?;
        return Err(format!("the press missed the thumb: {at:?} became {pressed}").into());
    }
    let most_moves = (at.width / dx.abs()).ceil() as usize;
    let mut moves = 0;
    while (page.count(HAZARD).await? > 0) != drag.until_hazard {
        if moves == most_moves {
            left_mouse(page, "mouseReleased", x, at.middle).await?;
            return Err(format!(
                "dragged the thumb across the whole track and the hazard never {}",
                if drag.until_hazard {
                    "showed"
                } else {
                    "went away"
                }
            )
            .into());
        }
        x += dx;
        left_mouse(page, "mouseMoved", x, at.middle).await?;
        moves += 1;
    }
    let changed_at = slider_ms(page, slider).await?;
    for _ in 0..drag.then_steps * 2 {
        x += dx;
        left_mouse(page, "mouseMoved", x, at.middle).await?;
    }
    left_mouse(page, "mouseReleased", x, at.middle).await?;
    if moves == 0 {
        return Err("the hazard changed before the thumb moved".into());
    }
    Ok(changed_at)
}

/// The learner drags the stall slider's thumb with the real mouse (pressed on the thumb, moved
/// right half a step at a time) until the hazard appears: it shows at the first stall that
/// outlasts the lease, and dragging back below the lease takes it away again.
#[test]
fn dragging_the_stall_slider_past_the_lease_makes_the_hazard_appear() {
    with_page(|page| async move {
        let slider = format!("{PLAYER} {STALL_SLIDER}");
        let lease_slider = format!("{PLAYER} {LEASE_SLIDER}");
        // Start from a stall inside the lease, set as a shared link would.
        page.client.goto("about:blank").await?;
        page.goto("#lease=4000&stall=1000").await?;
        // A link with the player's state loads the lab at once; drag only its live slider.
        page.wait_for_lab().await?;
        page.scroll_into_view(&slider).await?;
        wait_for_text(&page, &format!("{PLAYER} .pl-status"), &["no hazard"]).await?;
        assert_eq!(page.count(HAZARD).await?, 0, "a short stall fits the lease");
        let lease = slider_ms(&page, &lease_slider).await?;
        assert!(
            slider_ms(&page, &slider).await? < lease,
            "the drag starts inside the lease"
        );

        let shown_at = drag_thumb(
            &page,
            &slider,
            Drag {
                rightwards: true,
                until_hazard: true,
                then_steps: 0,
            },
        )
        .await?;
        assert!(
            shown_at > lease,
            "the hazard shows at stall {shown_at} ms, lease {lease} ms"
        );
        assert_eq!(
            shown_at,
            lease + 500,
            "it shows at the first stall past the lease"
        );
        assert_eq!(
            slider_ms(&page, &slider).await?,
            shown_at,
            "the release kept the value"
        );
        assert_eq!(
            slider_ms(&page, &lease_slider).await?,
            lease,
            "the lease did not move"
        );
        wait_for_text(
            &page,
            HAZARD,
            &["B acquired resource:lock", "deleted B's lock"],
        )
        .await?;
        let before_shot = slider_geometry(&page, &slider).await?.left;
        page.screenshot(PLAYER, "player-hazard").await?;
        // The harness's capture must leave the page laid out as before (its scrollbar back), so the
        // drag back aims at the thumb where a reader sees it.
        let started = std::time::Instant::now();
        while (slider_geometry(&page, &slider).await?.left - before_shot).abs() > 0.5 {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(5),
                "the slider never returned to x = {before_shot} after the screenshot"
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }

        let gone_at = drag_thumb(
            &page,
            &slider,
            Drag {
                rightwards: false,
                until_hazard: false,
                then_steps: 2,
            },
        )
        .await?;
        assert_eq!(gone_at, lease, "a stall as long as the lease fits it");
        let below = slider_ms(&page, &slider).await?;
        assert_eq!(
            below,
            lease - 1_000,
            "the drag went on two steps below the lease"
        );
        assert_eq!(
            page.count(HAZARD).await?,
            0,
            "stall {below} ms, lease {lease} ms"
        );
        wait_for_text(&page, &format!("{PLAYER} .pl-status"), &["no hazard"]).await?;
        Ok(())
    });
}

#[test]
fn the_player_steps_with_buttons_and_arrow_keys_and_switches_release_at_the_last_step() {
    with_page(|page| async move {
        let timeline = format!("{PLAYER} [data-player-timeline]");
        page.scroll_into_view(&timeline).await?;
        page.click(&format!("{PLAYER} [data-player-forward]"))
            .await?;
        wait_for_text(
            &page,
            &format!("{PLAYER} [data-player-clock]"),
            &["t = 10001 ms"],
        )
        .await?;
        // Focus the timeline as Tab would land on it, then use the real keyboard.
        page.client
            .execute(
                "document.querySelector(arguments[0]).focus();",
                vec![serde_json::Value::String(timeline.clone())],
            )
            .await?;
        page.press(Key::End).await?;
        let note = wait_for_text(
            &page,
            &format!("{PLAYER} .pl-note"),
            &[
                "the next client holds it",
                "while B still believes it holds the lock",
            ],
        )
        .await?;
        assert!(
            note.contains("two clients believe they hold the lock at once"),
            "{note}"
        );
        page.click(&format!(
            r#"{PLAYER} [data-player-release="token-checked"]"#
        ))
        .await?;
        wait_for_text(
            &page,
            &format!("{PLAYER} .pl-note"),
            &["SET NX refused", "B's lock still stands"],
        )
        .await?;
        let step = page.find(PLAYER).await?.attr("data-player-step").await?;
        assert_eq!(
            step.as_deref(),
            Some("4"),
            "switching the release keeps the step"
        );
        wait_for_fragment(&page, "play=4&lease=10000&stall=12500&release=token").await?;
        page.screenshot(PLAYER, "player-token-checked-step-5")
            .await?;
        Ok(())
    });
}

#[test]
fn committing_35_then_34_rejects_34_and_reset_returns_to_seen_34() {
    with_page(|page| async move {
        let log = format!("{FENCE} ol[data-fence-log]");
        page.hover(&within(FENCE, &writer(35))).await?;
        page.wait_for_readout(FENCE, &WRITER_35_OUTCOME).await?;
        page.click(&within(FENCE, &writer(35))).await?;
        wait_for_text(
            &page,
            &log,
            &["token 35: 35 > 34, accepted, max seen becomes 35"],
        )
        .await?;
        page.hover(&within(FENCE, &writer(34))).await?;
        // 35 is the writer the resource holds now; 34's grant is stale.
        page.wait_for_readout(
            FENCE,
            &Expect {
                says: &["Writer 34 (stale)", "34 < 35", "rejected"],
                never: &["Committed", "(current)"],
            },
        )
        .await?;
        wait_for_text(&page, &within(FENCE, &writer(35)), &["35 (current)"]).await?;
        page.click(&within(FENCE, &writer(34))).await?;
        let text = wait_for_text(
            &page,
            &log,
            &[
                "token 34: 34 < 35, rejected",
                "FENCED token 34 < max seen 35",
            ],
        )
        .await?;
        assert_eq!(page.count(&format!("{log} > li")).await?, 2, "{text}");
        page.wait_for_readout(
            FENCE,
            &Expect {
                says: &["Committed", "34 < 35", "rejected"],
                never: &[],
            },
        )
        .await?;
        wait_for_fragment(&page, "fence=35,34").await?;
        page.screenshot(FENCE, "fence-committed-35-then-34").await?;
        page.click(&format!("{FENCE} [data-fence-reset]")).await?;
        page.move_pointer_away().await?;
        page.wait_for_readout(FENCE, &FENCE_IDLE).await?;
        assert_eq!(page.count(&format!("{log} > li")).await?, 0);
        Ok(())
    });
}

#[test]
fn enter_on_a_tabbed_to_writer_commits_it_while_the_pointer_rests_on_another() {
    with_page(|page| async move {
        let log = format!("{FENCE} ol[data-fence-log]");
        // The mouse commits 33 and stays on it.
        page.hover(&within(FENCE, &writer(33))).await?;
        page.wait_for_readout(FENCE, &WRITER_33_OUTCOME).await?;
        page.click(&within(FENCE, &writer(33))).await?;
        wait_for_text(&page, &log, &["token 33: 33 < 34, rejected"]).await?;
        // Tab moves the focus to 34 under the resting pointer: the keyboard is the newer input,
        // so 34 is shown, and Enter commits it.
        page.press(Key::Tab).await?;
        page.wait_for_readout(FENCE, &WRITER_34_OUTCOME).await?;
        page.press(Key::Enter).await?;
        wait_for_text(
            &page,
            &log,
            &["token 33: 33 < 34, rejected", "token 34: 34 ≥ 34, accepted"],
        )
        .await?;
        page.wait_for_readout(
            FENCE,
            &Expect {
                says: &["Committed", "Writer 34 (current)"],
                never: &[],
            },
        )
        .await?;
        Ok(())
    });
}

#[test]
fn a_link_copied_after_seconds_of_slider_steps_holds_the_last_state() {
    with_page(|page| async move {
        let slider = format!("{PLAYER} {STALL_SLIDER}");
        page.client.goto("about:blank").await?;
        page.goto("#stall=1000").await?;
        page.wait_for_lab().await?;
        page.scroll_into_view(&slider).await?;
        page.client
            .execute(
                "document.querySelector(arguments[0]).focus();",
                vec![serde_json::Value::String(slider.clone())],
            )
            .await?;
        // 300 steps on the real keyboard, one every 20 ms, then End: each step is a new state,
        // more than the 200 history writes Chromium keeps in 10 s if the page wrote one a frame.
        let mut keys = KeyActions::new("keyboard".into());
        for step in 0..300 {
            let key = if step % 2 == 0 { Key::Right } else { Key::Left };
            keys = keys
                .then(KeyAction::Down { value: key.into() })
                .then(KeyAction::Up { value: key.into() })
                .then(KeyAction::Pause {
                    duration: std::time::Duration::from_millis(20),
                });
        }
        keys = keys
            .then(KeyAction::Down {
                value: Key::End.into(),
            })
            .then(KeyAction::Up {
                value: Key::End.into(),
            });
        page.client.perform_actions(keys).await?;
        let longest = page
            .find(&slider)
            .await?
            .attr("max")
            .await?
            .ok_or("the stall slider has no max")?;
        assert_eq!(slider_ms(&page, &slider).await?.to_string(), longest);
        wait_for_fragment(
            &page,
            &format!("play=0&lease=10000&stall={longest}&release=blind"),
        )
        .await?;
        Ok(())
    });
}

#[test]
fn a_click_on_a_writer_when_the_log_is_full_commits_nothing_and_the_readout_says_so() {
    with_page(|page| async move {
        let full = vec!["35"; MAX_FENCE_COMMITS].join(",");
        // The readout's expectation holds its words for the whole run.
        let log_full: &'static str = Box::leak(LogFull::note().into_boxed_str());
        let refusal: &'static str = Box::leak(LogFull::refusal("34 (stale)").into_boxed_str());
        let refused: &'static [&'static str] = Box::leak(Box::new(["not committed", refusal]));
        page.client.goto("about:blank").await?;
        page.goto(&format!("#fence={full}")).await?;
        let log = format!("{FENCE} ol[data-fence-log]");
        wait_for_text(&page, FENCE, &[log_full]).await?;
        assert_eq!(page.count(&format!("{log} > li")).await?, MAX_FENCE_COMMITS);
        page.hover(&within(FENCE, &writer(34))).await?;
        page.click(&within(FENCE, &writer(34))).await?;
        page.wait_for_readout(
            FENCE,
            &Expect {
                says: refused,
                never: &["Committed —"],
            },
        )
        .await?;
        assert_eq!(page.count(&format!("{log} > li")).await?, MAX_FENCE_COMMITS);
        page.screenshot(FENCE, "fence-log-full-press-refused")
            .await?;
        wait_for_fragment(&page, &format!("fence={full}")).await?;
        Ok(())
    });
}

#[test]
fn a_shared_link_reopens_the_player_and_the_fence_where_they_were() {
    with_page(|page| async move {
        page.client.goto("about:blank").await?;
        page.goto("#play=4&lease=4000&stall=2000&release=token&fence=35,34")
            .await?;
        page.wait_for_lab().await?;
        let step = page.find(PLAYER).await?.attr("data-player-step").await?;
        assert_eq!(step.as_deref(), Some("4"));
        assert_eq!(
            slider_ms(&page, &format!("{PLAYER} {LEASE_SLIDER}")).await?,
            4_000
        );
        assert_eq!(
            slider_ms(&page, &format!("{PLAYER} {STALL_SLIDER}")).await?,
            2_000
        );
        assert_eq!(page.count(HAZARD).await?, 0);
        let log = format!("{FENCE} ol[data-fence-log]");
        wait_for_text(&page, &log, &["token 35", "token 34: 34 < 35, rejected"]).await?;
        // A section anchor is still a deep link, not state (a fresh load: a fragment-only change
        // does not reload the page).
        page.client.goto("about:blank").await?;
        page.goto("#s3").await?;
        assert_eq!(page.count(&format!("{log} > li")).await?, 0);
        Ok(())
    });
}

/// Where `css`'s top stands in the viewport, and how far the page is scrolled, in CSS pixels.
async fn top_and_scroll(page: &Page, css: &str) -> E2eResult<(f64, f64)> {
    let read = page
        .client
        .execute(
            "return [document.querySelector(arguments[0]).getBoundingClientRect().top, \
             window.scrollY];",
            vec![serde_json::json!(css)],
        )
        .await?;
    match read
        .as_array()
        .map(|pair| (pair[0].as_f64(), pair[1].as_f64()))
    {
        Some((Some(top), Some(scroll))) => Ok((top, scroll)),
        _ => Err(format!("no position for {css}: {read}").into()),
    }
}

#[test]
fn a_shared_link_opens_at_the_figure_it_carries_and_a_reload_keeps_the_readers_scroll() {
    with_page(|page| async move {
        // Figure 2 alone; then the player with the fence too, which comes first in the page.
        for (fragment, part) in [
            ("#fence=35,34", SharedPart::Fence),
            ("#play=4&release=token&fence=35", SharedPart::Player),
        ] {
            page.client.goto("about:blank").await?;
            page.goto(fragment).await?;
            let (top, scroll) = top_and_scroll(&page, &part.selector()).await?;
            // `scroll-margin-top: 1rem` leaves 16 px above it.
            assert!(
                scroll > 0.0 && (15.0..=17.0).contains(&top),
                "{fragment}: {part:?} at {top} px, page scrolled {scroll} px"
            );
        }
        // A reload brings back the reader's own scroll, not the link's figure. With the
        // browser's restoring turned off, a scroll on this load could only be the page's.
        page.client
            .execute(
                "history.scrollRestoration = 'manual'; window.scrollTo(0, 0); \
                 window.beforeReload = true; location.reload();",
                vec![],
            )
            .await?;
        let reloaded = script(
            "return !window.beforeReload && document.readyState === 'complete' \
             && document.documentElement.hasAttribute('@INTERACTIVE@');",
        );
        let started = std::time::Instant::now();
        while page.client.execute(&reloaded, vec![]).await.ok() != Some(serde_json::json!(true)) {
            if started.elapsed() > std::time::Duration::from_secs(10) {
                return Err("the reloaded page did not mount within 10 s".into());
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let (_, scroll) = top_and_scroll(&page, &SharedPart::Player.selector()).await?;
        assert_eq!(scroll, 0.0, "a reload scrolled the page");
        Ok(())
    });
}

#[test]
fn a_pointer_between_the_lock_pickers_buttons_brings_the_checkers_chunk_before_a_lock_is_reached() {
    with_page(|page| async move {
        page.scroll_into_view(LOCK_PICKER_SELECTOR).await?;
        // A point on the picker itself, in a gap of its grid, as an offset from its middle.
        let gap = page
            .client
            .execute(
                "const picker = document.querySelector(arguments[0]); \
                 const r = picker.getBoundingClientRect(); \
                 const [cx, cy] = [r.left + r.width / 2, r.top + r.height / 2]; \
                 for (let y = Math.ceil(r.top) + 1; y < r.bottom - 1; y += 1) \
                   for (let x = Math.ceil(r.left) + 1; x < r.right - 1; x += 2) \
                     if (document.elementFromPoint(x, y) === picker) return [x - cx, y - cy]; \
                 return null;",
                vec![serde_json::json!(LOCK_PICKER_SELECTOR)],
            )
            .await?;
        let offset = gap
            .as_array()
            .and_then(|xy| Some((xy.first()?.as_f64()?, xy.get(1)?.as_f64()?)))
            .ok_or("no point of the picker lies between its buttons")?;
        page.hover_at(LOCK_PICKER_SELECTOR, offset).await?;
        page.wait_for_lab().await?;
        assert_eq!(
            page.lab_states().await?,
            vec![None, None, Some("live".to_string())],
            "the picker brings the checker's chunk and neither the figures' nor the store's"
        );
        Ok(())
    });
}

#[test]
fn a_pointer_over_the_players_panel_brings_the_lab_before_any_control_is_reached() {
    with_page(|page| async move {
        assert_eq!(
            page.lab_state().await?,
            None,
            "the page loads without the lab"
        );
        page.hover(&reach_target(LabChunk::Figures)).await?;
        page.wait_for_lab().await?;
        assert_eq!(
            page.lab_states().await?,
            vec![Some("live".to_string()), None, None],
            "the player brings the figures' chunk and neither the store's nor the checker's"
        );
        Ok(())
    });
}
