//! The two figures in headless Chromium, as on the page: each test renders a figure as the build
//! does, lets the first wasm make it answer, fires the events a learner's pointer, keyboard or
//! finger would, waits a tick, and reads the readout.
#![cfg(target_arch = "wasm32")]

mod dom;

use dom::{
    escape, focus, past_leave_grace, pointer, tap, tap_elsewhere, tick, Mounted, PointerKind,
};
use leptos::prelude::*;
use lockdive::components::figures::{FenceFigure, LostLockFigure};
use lockdive::scenarios::lost_lock::{LostLockOutcome, ReleaseChoice};
use lockdive_contract::hooks::{with_value, LIT_SELECTOR, PATH};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn the_lost_lock_figure_has_one_live_readout_and_every_static_verdict() {
    let fig = Mounted::built(|| view! { <LostLockFigure /> }).await;
    tick().await;
    fig.assert_one_figure_with_a_live_readout("lost-lock");
    assert_eq!(fig.count("[data-release]"), 2);
    let verdicts = fig.text("[data-static-verdicts]");
    assert!(verdicts
        .contains("blind DEL → A deletes B's lock, two clients now proceed, exclusion broken"));
    assert!(verdicts
        .contains("token-checked release → A reads \"xyz\" ≠ \"abc\", returns 0, B's lock stands"));
    assert!(fig
        .readout()
        .starts_with("A stalled past its lease, B took the same key."));
}

#[wasm_bindgen_test]
async fn hovering_blind_del_shows_a_deleting_bs_lock_and_leaving_clears_it() {
    let fig = Mounted::built(|| view! { <LostLockFigure /> }).await;
    tick().await;
    let idle = fig.readout();
    let blind = fig.find("[data-release=\"blind-del\"]");
    pointer(&blind, "pointerenter", PointerKind::Mouse, false);
    tick().await;
    let shown = fig.readout();
    assert!(shown.contains(
        "A deletes B's lock, the key is empty, two clients now proceed, exclusion broken"
    ));
    assert!(shown.contains("DEL resource:lock → (integer) 1"));
    assert_eq!(fig.selected().as_deref(), Some("blind-del"));
    assert_eq!(blind.get_attribute("aria-pressed").as_deref(), Some("true"));
    assert_eq!(
        fig.count(&format!("{}{LIT_SELECTOR}", with_value(PATH, "blind-del"))),
        1,
        "blind DEL's path is lit"
    );
    assert_eq!(fig.count(LIT_SELECTOR), 1, "only the selected path is lit");
    pointer(&blind, "pointerleave", PointerKind::Mouse, false);
    past_leave_grace().await;
    assert_eq!(fig.readout(), idle);
    assert_eq!(fig.selected(), None);
    assert_eq!(fig.count(LIT_SELECTOR), 0);
}

#[wasm_bindgen_test]
async fn moving_straight_from_one_release_to_the_other_never_shows_the_idle_readout() {
    let fig = Mounted::built(|| view! { <LostLockFigure /> }).await;
    tick().await;
    let idle = fig.readout();
    let blind = fig.find("[data-release=\"blind-del\"]");
    let checked = fig.find("[data-release=\"token-checked\"]");
    pointer(&blind, "pointerenter", PointerKind::Mouse, false);
    tick().await;
    // Leaving one choice and crossing the gap to the next: the readout keeps the choice it had.
    pointer(&blind, "pointerleave", PointerKind::Mouse, false);
    tick().await;
    assert_ne!(fig.readout(), idle, "the leave waits out its grace");
    assert_eq!(fig.selected().as_deref(), Some("blind-del"));
    pointer(&checked, "pointerenter", PointerKind::Mouse, false);
    tick().await;
    assert_eq!(fig.selected().as_deref(), Some("token-checked"));
    past_leave_grace().await;
    assert_eq!(
        fig.selected().as_deref(),
        Some("token-checked"),
        "the earlier leave was cancelled by the enter"
    );
    assert!(fig.readout().contains("B's lock stands"));
}

#[wasm_bindgen_test]
async fn focusing_the_token_checked_release_shows_its_no_op_and_escape_clears_it() {
    let fig = Mounted::built(|| view! { <LostLockFigure /> }).await;
    tick().await;
    let idle = fig.readout();
    let checked = fig.find("[data-release=\"token-checked\"]");
    focus(&checked, "focus");
    tick().await;
    let shown = fig.readout();
    let no_op = LostLockOutcome::run(ReleaseChoice::TokenChecked).readout();
    assert!(no_op.contains("A's release is a no-op") && no_op.contains("B's lock stands"));
    assert!(shown.contains(&no_op), "{shown}");
    assert!(shown.contains("→ (integer) 0"));
    escape(&checked);
    tick().await;
    assert_eq!(fig.readout(), idle);
}

#[wasm_bindgen_test]
async fn blur_clears_what_focus_showed() {
    let fig = Mounted::built(|| view! { <LostLockFigure /> }).await;
    tick().await;
    let idle = fig.readout();
    let blind = fig.find("[data-release=\"blind-del\"]");
    focus(&blind, "focus");
    tick().await;
    assert_ne!(fig.readout(), idle);
    focus(&blind, "blur");
    tick().await;
    assert_eq!(fig.readout(), idle);
}

#[wasm_bindgen_test]
async fn a_tap_pins_the_choice_past_pointer_leave_and_a_tap_elsewhere_clears_it() {
    let fig = Mounted::built(|| view! { <LostLockFigure /> }).await;
    tick().await;
    let idle = fig.readout();
    let checked = fig.find("[data-release=\"token-checked\"]");
    pointer(&checked, "pointerenter", PointerKind::Mouse, false);
    tap(&checked);
    pointer(&checked, "pointerleave", PointerKind::Mouse, false);
    past_leave_grace().await;
    assert!(
        fig.readout().contains("B's lock stands"),
        "the tap keeps the choice shown"
    );
    tap_elsewhere();
    tick().await;
    assert_eq!(fig.readout(), idle);
}

#[wasm_bindgen_test]
async fn the_fence_figure_lists_every_writers_verdict() {
    let fig = Mounted::built(|| view! { <FenceFigure /> }).await;
    tick().await;
    fig.assert_one_figure_with_a_live_readout("fence");
    for token in ["33", "34", "35"] {
        assert_eq!(fig.count(&format!("[data-writer=\"{token}\"]")), 1);
    }
    let verdicts = fig.text("[data-static-verdicts]");
    assert!(verdicts.contains("33 (paused) → 33 < 34, rejected"));
    assert!(verdicts.contains("34 (current) → 34 ≥ 34, accepted"));
    assert!(verdicts.contains("35 (next) → 35 > 34, accepted, max seen becomes 35"));
    assert_eq!(
        fig.readout(),
        "The resource has accepted token 34. Hover a writer to read whether its token clears the fence."
    );
}

#[wasm_bindgen_test]
async fn hovering_each_writer_runs_its_what_if_against_seen_34() {
    let fig = Mounted::built(|| view! { <FenceFigure /> }).await;
    tick().await;
    let idle = fig.readout();
    let expected = [
        (
            "33",
            "33 < 34, rejected",
            "(error) FENCED token 33 < max seen 34",
        ),
        ("34", "34 ≥ 34, accepted", "(integer) 34"),
        (
            "35",
            "35 > 34, accepted, max seen becomes 35",
            "(integer) 35",
        ),
    ];
    for (token, sentence, reply) in expected {
        let writer = fig.find(&format!("[data-writer=\"{token}\"]"));
        pointer(&writer, "pointerenter", PointerKind::Mouse, false);
        tick().await;
        let shown = fig.readout();
        assert!(shown.contains(sentence), "writer {token}: {shown}");
        assert!(shown.contains(reply), "writer {token}: {shown}");
        assert_eq!(fig.selected().as_deref(), Some(token));
        assert_eq!(
            fig.count(&format!("{}{LIT_SELECTOR}", with_value(PATH, token))),
            1
        );
        pointer(&writer, "pointerleave", PointerKind::Mouse, false);
        past_leave_grace().await;
        assert_eq!(fig.readout(), idle);
    }
}

#[wasm_bindgen_test]
async fn a_focused_writer_is_cleared_by_escape_and_a_tapped_one_by_a_tap_elsewhere() {
    let fig = Mounted::built(|| view! { <FenceFigure /> }).await;
    tick().await;
    let idle = fig.readout();
    let paused = fig.find("[data-writer=\"33\"]");
    focus(&paused, "focus");
    tick().await;
    assert!(fig.readout().contains("rejected"));
    escape(&paused);
    tick().await;
    assert_eq!(fig.readout(), idle);

    let next = fig.find("[data-writer=\"35\"]");
    tap(&next);
    tick().await;
    assert!(fig.readout().contains("max seen becomes 35"));
    tap_elsewhere();
    tick().await;
    assert_eq!(fig.readout(), idle);
}
