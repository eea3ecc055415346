//! The two figures in headless Chromium: each test mounts a figure into a fresh element, fires
//! the events a learner's pointer, keyboard or finger would, waits a tick for Leptos to update
//! the DOM, and reads the readout.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use leptos::mount::mount_to;
use leptos::prelude::*;
use lockdive::components::figures::{FenceFigure, LostLockFigure};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{
    Element, Event, EventInit, FocusEvent, FocusEventInit, HtmlElement, KeyboardEvent,
    KeyboardEventInit, PointerEvent, PointerEventInit,
};

wasm_bindgen_test_configure!(run_in_browser);

/// A figure mounted into its own element; dropping it unmounts the figure and removes the element.
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
    fn new<F, N>(figure: F) -> Mounted
    where
        F: FnOnce() -> N + 'static,
        N: IntoView + 'static,
    {
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
        let handle = mount_to(root.clone(), figure);
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

fn focus(target: &Element, kind: &str) {
    let init = FocusEventInit::new();
    let event = FocusEvent::new_with_focus_event_init_dict(kind, &init).expect("a focus event");
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

/// A tap or click: pointerdown, then the click the browser would follow it with.
fn tap(target: &HtmlElement) {
    pointer(target, "pointerdown", true);
    target.click();
}

/// A tap on the page outside any figure target.
fn tap_elsewhere() {
    let body = document().body().expect("a body");
    pointer(&body, "pointerdown", true);
    let init = EventInit::new();
    init.set_bubbles(true);
    body.dispatch_event(&Event::new_with_event_init_dict("click", &init).expect("a click"))
        .expect("dispatched");
}

#[wasm_bindgen_test]
async fn the_lost_lock_figure_has_one_live_readout_and_every_static_verdict() {
    let fig = Mounted::new(|| view! { <LostLockFigure /> });
    tick().await;
    assert_eq!(fig.count("figure[data-figure=\"lost-lock\"]"), 1);
    assert_eq!(fig.count("[data-readout]"), 1);
    assert_eq!(
        fig.find("[data-readout]")
            .get_attribute("aria-live")
            .as_deref(),
        Some("polite")
    );
    assert_eq!(fig.count("[data-release]"), 2);
    let verdicts = fig
        .find("[data-static-verdicts]")
        .text_content()
        .unwrap_or_default();
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
    let fig = Mounted::new(|| view! { <LostLockFigure /> });
    tick().await;
    let idle = fig.readout();
    let blind = fig.find("[data-release=\"blind-del\"]");
    pointer(&blind, "pointerenter", false);
    tick().await;
    let shown = fig.readout();
    assert!(shown.contains(
        "A deletes B's lock, the key is empty, two clients now proceed, exclusion broken"
    ));
    assert!(shown.contains("DEL resource:lock → (integer) 1"));
    assert_eq!(fig.selected().as_deref(), Some("blind-del"));
    assert_eq!(blind.get_attribute("aria-pressed").as_deref(), Some("true"));
    assert_eq!(
        fig.count("[data-path=\"blind-del\"].is-lit"),
        1,
        "blind DEL's path is lit"
    );
    assert_eq!(fig.count(".is-lit"), 1, "only the selected path is lit");
    pointer(&blind, "pointerleave", false);
    tick().await;
    assert_eq!(fig.readout(), idle);
    assert_eq!(fig.selected(), None);
    assert_eq!(fig.count(".is-lit"), 0);
}

#[wasm_bindgen_test]
async fn focusing_the_token_checked_release_shows_its_no_op_and_escape_clears_it() {
    let fig = Mounted::new(|| view! { <LostLockFigure /> });
    tick().await;
    let idle = fig.readout();
    let checked = fig.find("[data-release=\"token-checked\"]");
    focus(&checked, "focus");
    tick().await;
    let shown = fig.readout();
    assert!(shown.contains("A reads \"xyz\" ≠ \"abc\", the script returns 0, B's lock stands"));
    assert!(shown.contains("→ (integer) 0"));
    escape(&checked);
    tick().await;
    assert_eq!(fig.readout(), idle);
}

#[wasm_bindgen_test]
async fn blur_clears_what_focus_showed() {
    let fig = Mounted::new(|| view! { <LostLockFigure /> });
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
    let fig = Mounted::new(|| view! { <LostLockFigure /> });
    tick().await;
    let idle = fig.readout();
    let checked = fig.find("[data-release=\"token-checked\"]");
    pointer(&checked, "pointerenter", false);
    tap(&checked);
    pointer(&checked, "pointerleave", false);
    tick().await;
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
    let fig = Mounted::new(|| view! { <FenceFigure /> });
    tick().await;
    assert_eq!(fig.count("figure[data-figure=\"fence\"]"), 1);
    assert_eq!(fig.count("[data-readout][aria-live=\"polite\"]"), 1);
    for token in ["33", "34", "35"] {
        assert_eq!(fig.count(&format!("[data-writer=\"{token}\"]")), 1);
    }
    let verdicts = fig
        .find("[data-static-verdicts]")
        .text_content()
        .unwrap_or_default();
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
    let fig = Mounted::new(|| view! { <FenceFigure /> });
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
        pointer(&writer, "pointerenter", false);
        tick().await;
        let shown = fig.readout();
        assert!(shown.contains(sentence), "writer {token}: {shown}");
        assert!(shown.contains(reply), "writer {token}: {shown}");
        assert_eq!(fig.selected().as_deref(), Some(token));
        assert_eq!(fig.count(&format!("[data-path=\"{token}\"].is-lit")), 1);
        pointer(&writer, "pointerleave", false);
        tick().await;
        assert_eq!(fig.readout(), idle);
    }
}

#[wasm_bindgen_test]
async fn a_focused_writer_is_cleared_by_escape_and_a_tapped_one_by_a_tap_elsewhere() {
    let fig = Mounted::new(|| view! { <FenceFigure /> });
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
