//! End-to-end test of the real release build: `trunk build --release` output served from a sub-folder on
//! 127.0.0.1, opened in headless Chromium over WebDriver, and driven the way a reader does — the real
//! pointer onto each figure target, Tab and Esc on the keyboard, a finger tap. Run by ./scripts/test.sh,
//! which builds the page and passes its folder in `LOCKDIVE_DIST`.
#![cfg(not(target_arch = "wasm32"))]

// The harness is shared with tests/embedding.rs; each binary uses only part of it.
#[allow(dead_code)]
mod support;

use fantoccini::key::Key;
use support::{normalize, with_page, Expect};

const LOST_LOCK: &str = r#"figure[data-figure="lost-lock"]"#;
const FENCE: &str = r#"figure[data-figure="fence"]"#;
const BLIND_DEL: &str = r#"[data-release="blind-del"]"#;
const TOKEN_CHECKED: &str = r#"[data-release="token-checked"]"#;

/// Nothing selected in figure 1: the setup, and what to do.
const LOST_LOCK_IDLE: Expect = Expect {
    says: &["stalled past its lease", "B took the same key", "hover"],
    never: &["exclusion broken", "lock stands"],
};
const BLIND_DEL_OUTCOME: Expect = Expect {
    says: &[
        "deletes B's lock",
        "the key is empty",
        "two clients now proceed",
        "exclusion broken",
    ],
    never: &["lock stands", "hover"],
};
const TOKEN_CHECKED_OUTCOME: Expect = Expect {
    says: &[r#"reads "xyz" ≠ "abc""#, "returns 0", "B's lock stands"],
    never: &["exclusion broken", "deletes", "hover"],
};

/// Nothing selected in figure 2: the resource has seen 34.
const FENCE_IDLE: Expect = Expect {
    says: &["has accepted token 34", "hover a writer"],
    never: &["rejected", "max seen becomes"],
};
const WRITER_33_OUTCOME: Expect = Expect {
    says: &["33 < 34", "rejected"],
    never: &["accepted,", "max seen becomes", "hover"],
};
const WRITER_34_OUTCOME: Expect = Expect {
    says: &["34 ≥ 34", "accepted"],
    never: &["rejected", "max seen becomes", "hover"],
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
                page.count(&format!("{figure} [data-readout]")).await?,
                1,
                "one readout in {figure}"
            );
            assert_eq!(
                page.count(&format!("{figure} [data-static-verdicts]"))
                    .await?,
                1,
                "one static verdict list in {figure}"
            );
            let live = page
                .find(&format!("{figure} [data-readout]"))
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
        page.tap(&format!("{LOST_LOCK} [data-static-verdicts]"))
            .await?;
        page.wait_for_readout(LOST_LOCK, &LOST_LOCK_IDLE).await?;
        page.tap(&within(FENCE, &writer(35))).await?;
        page.wait_for_readout(FENCE, &WRITER_35_OUTCOME).await?;
        page.tap(&format!("{FENCE} [data-static-verdicts]")).await?;
        page.wait_for_readout(FENCE, &FENCE_IDLE).await?;
        Ok(())
    });
}

#[test]
fn static_verdicts_list_every_choice_outcome() {
    with_page(|page| async move {
        let lost_lock = page
            .find(&format!("{LOST_LOCK} [data-static-verdicts]"))
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
            .find(&format!("{FENCE} [data-static-verdicts]"))
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
