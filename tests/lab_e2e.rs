//! End-to-end steps for issue 5's laboratory on the real release build (run by ./scripts/test.sh like
//! tests/e2e.rs, with `LOCKDIVE_DIST`): the real mouse drags figure 1's stall slider until the hazard
//! appears, the player steps by button and keyboard, figure 2 commits 35 then rejects 34, and a shared
//! link reopens both where they were.
#![cfg(not(target_arch = "wasm32"))]

// The harness is shared with tests/e2e.rs; this binary uses only part of it.
#[allow(dead_code)]
mod support;

use fantoccini::key::Key;
use support::{normalize, with_page, Expect};

const FENCE: &str = r#"figure[data-figure="fence"]"#;

/// Nothing selected in figure 2: the resource has seen 34.
const FENCE_IDLE: Expect = Expect {
    says: &["has accepted token 34", "hover a writer"],
    never: &["rejected", "max seen becomes"],
};
const WRITER_35_OUTCOME: Expect = Expect {
    says: &["35 > 34", "accepted", "max seen becomes 35"],
    never: &["rejected", "hover"],
};

fn writer(token: u8) -> String {
    format!(r#"[data-writer="{token}"]"#)
}

fn within(figure: &str, target: &str) -> String {
    format!("{figure} {target}")
}

const PLAYER: &str = r#"figure[data-figure="lost-lock"] [data-player]"#;
const STALL_SLIDER: &str = r#"input[data-slider="stall"]"#;
const LEASE_SLIDER: &str = r#"input[data-slider="lease"]"#;
const HAZARD: &str = r#"[data-player] [data-hazard="true"]"#;

/// Polls the text of `css` until it contains every one of `says`; returns the text.
async fn wait_for_text(
    page: &support::Page,
    css: &str,
    says: &[&str],
) -> support::E2eResult<String> {
    let started = std::time::Instant::now();
    loop {
        let text = normalize(&page.find(css).await?.text().await?);
        if says.iter().all(|s| text.contains(&normalize(s))) {
            return Ok(text);
        }
        if started.elapsed() > std::time::Duration::from_secs(5) {
            return Err(format!("{css} never said {says:?}; it says: {text:?}").into());
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

async fn slider_ms(page: &support::Page, css: &str) -> support::E2eResult<u64> {
    let value = page
        .find(css)
        .await?
        .prop("value")
        .await?
        .unwrap_or_default();
    Ok(value.parse()?)
}

/// The stall slider moved by the learner's own input until the hazard appears: a real mouse press
/// at the slider's left end (the shortest stall, inside the lease), then the real keyboard's →,
/// one 500 ms step at a time. (A WebDriver pointer *drag* of the thumb does not move a range input
/// in headless Chromium 156 via chromedriver: the press lands, the moves do not, so the drag's
/// remainder is done with the keys a keyboard user would press.)
#[test]
fn moving_the_stall_slider_past_the_lease_makes_the_hazard_appear() {
    use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
    with_page(|page| async move {
        let slider = format!("{PLAYER} {STALL_SLIDER}");
        page.scroll_into_view(&slider).await?;
        let element = page.find(&slider).await?;
        let (_, _, width, _) = element.rectangle().await?;
        // Offsets count from the slider's centre.
        let press = MouseActions::new("mouse".into())
            .then(PointerAction::MoveToElement {
                element: element.clone(),
                duration: None,
                x: (-width / 2.0 + 2.0).round(),
                y: 0.0,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        page.client.perform_actions(press).await?;
        page.client.release_actions().await?;
        wait_for_text(&page, &format!("{PLAYER} .pl-status"), &["no hazard"]).await?;
        assert_eq!(page.count(HAZARD).await?, 0, "a short stall fits the lease");
        let mut presses = 0;
        while page.count(HAZARD).await? == 0 {
            assert!(
                presses < 60,
                "the stall reached its end and the hazard never showed"
            );
            page.press(Key::Right).await?;
            presses += 1;
        }
        let stall = slider_ms(&page, &slider).await?;
        let lease = slider_ms(&page, &format!("{PLAYER} {LEASE_SLIDER}")).await?;
        assert!(
            stall > lease,
            "the hazard shows at stall {stall} ms, lease {lease} ms"
        );
        assert_eq!(
            stall,
            lease + 500,
            "it shows at the first stall past the lease"
        );
        wait_for_text(
            &page,
            HAZARD,
            &["B acquired resource:lock", "deleted B's lock"],
        )
        .await?;
        page.screenshot(PLAYER, "player-hazard").await?;
        Ok(())
    });
}

#[test]
fn the_player_steps_with_buttons_and_arrow_keys_and_switches_release_at_the_last_step() {
    with_page(|page| async move {
        let timeline = format!("{PLAYER} [data-player-timeline]");
        page.scroll_into_view(&timeline).await?;
        page.find(&format!("{PLAYER} [data-player-forward]"))
            .await?
            .click()
            .await?;
        wait_for_text(
            &page,
            &format!("{PLAYER} [data-player-clock]"),
            &["t = 5000 ms"],
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
            &["A deletes B's lock"],
        )
        .await?;
        assert!(note.contains("exclusion broken"), "{note}");
        page.find(&format!(
            r#"{PLAYER} [data-player-release="token-checked"]"#
        ))
        .await?
        .click()
        .await?;
        wait_for_text(
            &page,
            &format!("{PLAYER} .pl-note"),
            &["the script returns 0", "B's lock stands"],
        )
        .await?;
        let step = page.find(PLAYER).await?.attr("data-player-step").await?;
        assert_eq!(
            step.as_deref(),
            Some("4"),
            "switching the release keeps the step"
        );
        let url = page.client.current_url().await?;
        assert_eq!(
            url.fragment(),
            Some("play=4&lease=10000&stall=12500&release=token")
        );
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
        page.find(&within(FENCE, &writer(35)))
            .await?
            .click()
            .await?;
        wait_for_text(
            &page,
            &log,
            &["token 35: 35 > 34, accepted, max seen becomes 35"],
        )
        .await?;
        page.hover(&within(FENCE, &writer(34))).await?;
        page.wait_for_readout(
            FENCE,
            &Expect {
                says: &["34 < 35", "rejected"],
                never: &["Committed"],
            },
        )
        .await?;
        page.find(&within(FENCE, &writer(34)))
            .await?
            .click()
            .await?;
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
        let url = page.client.current_url().await?;
        assert_eq!(url.fragment(), Some("fence=35,34"));
        page.screenshot(FENCE, "fence-committed-35-then-34").await?;
        page.find(&format!("{FENCE} [data-fence-reset]"))
            .await?
            .click()
            .await?;
        page.move_pointer_away().await?;
        page.wait_for_readout(FENCE, &FENCE_IDLE).await?;
        assert_eq!(page.count(&format!("{log} > li")).await?, 0);
        Ok(())
    });
}

#[test]
fn a_shared_link_reopens_the_player_and_the_fence_where_they_were() {
    with_page(|page| async move {
        page.client.goto("about:blank").await?;
        page.goto("#play=4&lease=4000&stall=2000&release=token&fence=35,34")
            .await?;
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
