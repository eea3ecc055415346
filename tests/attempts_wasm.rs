//! The attempts figure in headless Chromium: mount it into a fresh element, fire the events a
//! learner's pointer, keyboard or finger would, wait a tick for Leptos, and read the readout.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use leptos::mount::mount_to;
use leptos::prelude::*;
use lockdive::components::figures::AttemptsFigure;
use lockdive::scenarios::attempts::{AttemptsRun, Transition};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{
    Element, Event, EventInit, FocusEvent, FocusEventInit, HtmlElement, KeyboardEvent,
    KeyboardEventInit, PointerEvent, PointerEventInit,
};

wasm_bindgen_test_configure!(run_in_browser);

/// The figure mounted into its own element; dropping it unmounts it and removes the element.
struct Mounted {
    root: HtmlElement,
    _handle: Box<dyn std::any::Any>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

impl Mounted {
    fn new() -> Mounted {
        let document = document();
        let root: HtmlElement = document
            .create_element("div")
            .expect("a div")
            .unchecked_into();
        document
            .body()
            .expect("a body")
            .append_child(&root)
            .expect("appended");
        let handle = mount_to(root.clone(), || view! { <AttemptsFigure /> });
        Mounted {
            root,
            _handle: Box::new(handle),
        }
    }

    fn find(&self, selector: &str) -> HtmlElement {
        self.root
            .query_selector(selector)
            .expect("a valid selector")
            .unwrap_or_else(|| panic!("no element matches {selector}"))
            .unchecked_into()
    }

    fn count(&self, selector: &str) -> u32 {
        self.root
            .query_selector_all(selector)
            .expect("a valid selector")
            .length()
    }

    fn readout(&self) -> String {
        self.find("[data-readout]")
            .text_content()
            .unwrap_or_default()
    }

    fn selected(&self) -> Option<String> {
        self.find("figure").get_attribute("data-selected")
    }
}

async fn tick() {
    TimeoutFuture::new(0).await;
}

fn pointer(target: &Element, kind: &str, bubbles: bool) {
    let init = PointerEventInit::new();
    init.set_bubbles(bubbles);
    init.set_pointer_type("mouse");
    let event = PointerEvent::new_with_event_init_dict(kind, &init).expect("a pointer event");
    target.dispatch_event(&event).expect("dispatched");
}

fn focus(target: &Element) {
    let event = FocusEvent::new_with_focus_event_init_dict("focus", &FocusEventInit::new())
        .expect("a focus event");
    target.dispatch_event(&event).expect("dispatched");
}

fn escape(target: &Element) {
    let init = KeyboardEventInit::new();
    init.set_key("Escape");
    init.set_bubbles(true);
    let event =
        KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("a key event");
    target.dispatch_event(&event).expect("dispatched");
}

fn outcome(transition: Transition) -> lockdive::scenarios::attempts::TransitionOutcome {
    AttemptsRun::run()
        .outcome(transition)
        .cloned()
        .expect("every transition is run")
}

#[wasm_bindgen_test]
async fn the_figure_has_its_hooks_one_live_readout_and_every_static_verdict() {
    let fig = Mounted::new();
    tick().await;
    assert_eq!(fig.count("figure[data-figure=\"attempts\"]"), 1);
    assert_eq!(fig.count("[data-readout]"), 1);
    assert_eq!(
        fig.find("[data-readout]")
            .get_attribute("aria-live")
            .as_deref(),
        Some("polite")
    );
    assert_eq!(fig.count("button[data-complete=\"w1\"]"), 1);
    assert_eq!(fig.count("button[data-complete=\"w2\"]"), 1);
    assert_eq!(fig.count("button[data-retry=\"w1\"]"), 1);
    let verdicts = fig
        .find("[data-static-verdicts]")
        .text_content()
        .unwrap_or_default();
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
    let fig = Mounted::new();
    tick().await;
    let idle = fig.readout();
    let w1 = fig.find("[data-complete=\"w1\"]");
    pointer(&w1, "pointerenter", false);
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
    assert_eq!(fig.count("[data-path=\"w1-complete\"].is-lit"), 1);
    assert_eq!(fig.count(".is-lit"), 1);
    pointer(&w1, "pointerleave", false);
    tick().await;
    assert_eq!(fig.readout(), idle);
    assert_eq!(fig.count(".is-lit"), 0);
}

#[wasm_bindgen_test]
async fn focusing_w2s_complete_shows_it_accepted_and_escape_clears_it() {
    let fig = Mounted::new();
    tick().await;
    let idle = fig.readout();
    let w2 = fig.find("[data-complete=\"w2\"]");
    focus(&w2);
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
    let fig = Mounted::new();
    tick().await;
    let idle = fig.readout();
    let retry = fig.find("[data-retry=\"w1\"]");
    pointer(&retry, "pointerdown", true);
    retry.click();
    tick().await;
    assert!(fig.readout().contains("EMQSTALE retry token mismatch"));
    let body = document().body().expect("a body");
    pointer(&body, "pointerdown", true);
    let init = EventInit::new();
    init.set_bubbles(true);
    body.dispatch_event(&Event::new_with_event_init_dict("click", &init).expect("a click"))
        .expect("dispatched");
    // The button still has focus from the click in a real browser; a synthetic click does not
    // focus, so the pin is the only layer and the tap elsewhere clears it.
    tick().await;
    assert_eq!(fig.readout(), idle);
}

#[wasm_bindgen_test]
async fn the_full_scripts_are_behind_a_disclosure_with_the_text_that_runs() {
    let fig = Mounted::new();
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
