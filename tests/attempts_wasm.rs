//! The attempts figure in headless Chromium, as on the page: rendered as the build does and made
//! to answer by the first wasm; fire the events a learner's pointer, keyboard or finger would,
//! wait a tick, and read the readout.
#![cfg(target_arch = "wasm32")]

mod dom;

use dom::{
    escape, focus, past_leave_grace, pointer, tap, tap_elsewhere, tick, Mounted, PointerKind,
};
use leptos::prelude::*;
use lockdive::components::figures::AttemptsFigure;
use lockdive::scenarios::attempts::{AttemptsRun, Transition};
use lockdive_contract::hooks::{with_value, LIT_SELECTOR, PATH};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn outcome(transition: Transition) -> lockdive::scenarios::attempts::TransitionOutcome {
    AttemptsRun::run()
        .outcome(transition)
        .cloned()
        .expect("every transition is run")
}

#[wasm_bindgen_test]
async fn the_figure_has_its_hooks_one_live_readout_and_every_static_verdict() {
    let fig = Mounted::built(|| view! { <AttemptsFigure /> }).await;
    tick().await;
    fig.assert_one_figure_with_a_live_readout("attempts");
    assert_eq!(fig.count("button[data-complete=\"w1\"]"), 1);
    assert_eq!(fig.count("button[data-complete=\"w2\"]"), 1);
    assert_eq!(fig.count("button[data-retry=\"w1\"]"), 1);
    let verdicts = fig.text("[data-static-verdicts]");
    for transition in Transition::ALL {
        assert!(
            verdicts.contains(&outcome(transition).verdict()),
            "{transition:?} verdict missing from {verdicts}"
        );
    }
    assert!(verdicts.contains("refused with EMQSTALE complete token mismatch"));
    assert!(verdicts.contains("accepted, job 42 is now completed"));
    assert_eq!(fig.readout(), AttemptsRun::run().idle_readout());
}

#[wasm_bindgen_test]
async fn hovering_w1s_complete_shows_the_emqstale_refusal_and_leaving_clears_it() {
    let fig = Mounted::built(|| view! { <AttemptsFigure /> }).await;
    tick().await;
    let idle = fig.readout();
    let w1 = fig.find("[data-complete=\"w1\"]");
    pointer(&w1, "pointerenter", PointerKind::Mouse, false);
    tick().await;
    let shown = fig.readout();
    assert!(
        shown.contains(&outcome(Transition::W1Complete).readout()),
        "{shown}"
    );
    assert!(
        shown.contains("(error) EMQSTALE complete token mismatch"),
        "{shown}"
    );
    assert!(
        shown.contains("✗"),
        "an icon carries the verdict, not colour alone"
    );
    assert_eq!(fig.selected().as_deref(), Some("w1-complete"));
    assert_eq!(w1.get_attribute("aria-pressed").as_deref(), Some("true"));
    assert_eq!(
        fig.count(&format!(
            "{}{LIT_SELECTOR}",
            with_value(PATH, "w1-complete")
        )),
        1
    );
    assert_eq!(fig.count(LIT_SELECTOR), 1);
    pointer(&w1, "pointerleave", PointerKind::Mouse, false);
    past_leave_grace().await;
    assert_eq!(fig.readout(), idle);
    assert_eq!(fig.count(LIT_SELECTOR), 0);
}

#[wasm_bindgen_test]
async fn focusing_w2s_complete_shows_it_accepted_and_escape_clears_it() {
    let fig = Mounted::built(|| view! { <AttemptsFigure /> }).await;
    tick().await;
    let idle = fig.readout();
    let w2 = fig.find("[data-complete=\"w2\"]");
    focus(&w2, "focus");
    tick().await;
    let shown = fig.readout();
    assert!(
        shown.contains(&outcome(Transition::W2Complete).readout()),
        "{shown}"
    );
    assert!(shown.contains("→ (integer) 1"), "{shown}");
    assert!(shown.contains("state=completed attempts=2"), "{shown}");
    assert!(shown.contains("✓"));
    escape(&w2);
    tick().await;
    assert_eq!(fig.readout(), idle);
    assert_eq!(fig.selected(), None);
}

#[wasm_bindgen_test]
async fn tapping_w1s_retry_pins_it_and_a_tap_elsewhere_clears_it() {
    let fig = Mounted::built(|| view! { <AttemptsFigure /> }).await;
    tick().await;
    let idle = fig.readout();
    let retry = fig.find("[data-retry=\"w1\"]");
    tap(&retry);
    tick().await;
    assert!(fig.readout().contains("EMQSTALE retry token mismatch"));
    tap_elsewhere();
    // The button still has focus from the click in a real browser; a synthetic click does not
    // focus, so the pin is the only layer and the tap elsewhere clears it.
    tick().await;
    assert_eq!(fig.readout(), idle);
}

#[wasm_bindgen_test]
async fn the_full_scripts_are_behind_a_disclosure_with_the_text_that_runs() {
    let fig = Mounted::built(|| view! { <AttemptsFigure /> }).await;
    tick().await;
    let details = fig.find("details[data-scripts]");
    assert!(!details.has_attribute("open"), "closed until asked for");
    let shown = details.text_content().unwrap_or_default();
    for (name, script) in lockdive::scenarios::attempts::SCRIPTS {
        assert!(shown.contains(name));
        assert!(
            shown.contains(script.trim_end()),
            "{name} is shown verbatim"
        );
    }
}
