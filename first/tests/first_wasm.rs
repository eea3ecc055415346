//! The first wasm on its own, in headless Chromium: markup written with the contract's hooks, as
//! the build writes a figure, answers a hover from its readout templates — the readout's content
//! and tone swap, the row lights, the button is pressed, the figure says what it shows, Esc clears
//! it — and the theme switch presses the stored choice.
#![cfg(target_arch = "wasm32")]

use lockdive_contract::hooks::{
    CHOICE, FIGURE, LIT, PATH, READOUT, READOUT_FOR, SELECTED, THEME_CHOICE, TONE,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{
    Element, HtmlElement, KeyboardEvent, KeyboardEventInit, PointerEvent, PointerEventInit,
};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a document")
}

/// A figure with two choices and their readouts, as the build renders one.
fn built_figure() -> HtmlElement {
    let root: HtmlElement = document()
        .create_element("div")
        .expect("a div")
        .unchecked_into();
    root.set_inner_html(&format!(
        r#"<figure {FIGURE}="demo">
             <div {PATH}="left"><button type="button" class="{CHOICE}">Left</button></div>
             <div {PATH}="right"><button type="button" class="{CHOICE}">Right</button></div>
             <div {PATH}="middle"><button type="button" class="{CHOICE}">Middle</button></div>
             <div {READOUT} aria-live="polite" {TONE}="idle">pick one</div>
             <template {READOUT_FOR}="" {TONE}="idle">pick one</template>
             <template {READOUT_FOR}="left" {TONE}="ok"><p>left is safe</p><ul><li>token checked</li></ul></template>
             <template {READOUT_FOR}="right" {TONE}="bad"><p>right breaks</p><ul><li>blind DEL</li></ul></template>
             <template {READOUT_FOR}="middle" {TONE}="bad"><p>middle breaks too</p></template>
           </figure>
           <div><button type="button" {THEME_CHOICE}="light">Light</button>
                <button type="button" {THEME_CHOICE}="system" aria-pressed="true">System</button></div>"#
    ));
    document()
        .body()
        .expect("a body")
        .append_child(&root)
        .expect("appended");
    root
}

fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector)
        .expect("a valid selector")
        .unwrap_or_else(|| panic!("no {selector}"))
}

fn hover(target: &Element) {
    enter(target, "mouse");
}

fn enter(target: &Element, pointer_type: &str) {
    let init = PointerEventInit::new();
    init.set_pointer_type(pointer_type);
    let event = PointerEvent::new_with_event_init_dict("pointerenter", &init).expect("an event");
    target.dispatch_event(&event).expect("dispatched");
}

#[wasm_bindgen_test]
fn a_built_figure_answers_a_hover_from_its_templates() {
    let root = built_figure();
    assert!(lockdive_first::start() >= 1, "the figure answers");
    let figure = find(&root, "figure");
    let readout = find(&root, &format!("[{READOUT}]"));
    let right = find(&root, &format!("[{PATH}=\"right\"] .{CHOICE}"));

    let source = |key: &str| find(&root, &format!("template[{READOUT_FOR}=\"{key}\"]"));
    let shows = |key: &str, tone: &str| {
        assert_eq!(
            readout.inner_html(),
            source(key).inner_html(),
            "{key}'s source"
        );
        assert_eq!(
            readout.get_attribute(TONE).as_deref(),
            Some(tone),
            "{key}'s tone"
        );
    };

    hover(&right);
    shows("right", "bad");
    assert_eq!(figure.get_attribute(SELECTED).as_deref(), Some("right"));
    assert_eq!(right.get_attribute("aria-pressed").as_deref(), Some("true"));
    let row = find(&root, &format!("[{PATH}=\"right\"]"));
    assert!(row.class_list().contains(LIT));
    assert!(!find(&root, &format!("[{PATH}=\"left\"]"))
        .class_list()
        .contains(LIT));

    // From one choice to another and back: each shows its own source, every node of it, every
    // time (the same tone twice in a row too), and the sources stay as the build wrote them.
    let left = find(&root, &format!("[{PATH}=\"left\"] .{CHOICE}"));
    let middle = find(&root, &format!("[{PATH}=\"middle\"] .{CHOICE}"));
    for _ in 0..2 {
        hover(&left);
        shows("left", "ok");
        assert_eq!(figure.get_attribute(SELECTED).as_deref(), Some("left"));
        assert_eq!(
            right.get_attribute("aria-pressed").as_deref(),
            Some("false")
        );
        assert!(!row.class_list().contains(LIT));
        hover(&right);
        shows("right", "bad");
        assert_eq!(left.get_attribute("aria-pressed").as_deref(), Some("false"));
        assert!(row.class_list().contains(LIT));
        hover(&middle);
        shows("middle", "bad");
        assert!(!row.class_list().contains(LIT));
        hover(&right);
        shows("right", "bad");
    }
    assert_eq!(
        source("left").inner_html(),
        "<p>left is safe</p><ul><li>token checked</li></ul>"
    );

    // A finger's enter never selects: the readout stays on the choice shown.
    enter(&left, "touch");
    shows("right", "bad");

    // Esc clears what is shown: the idle source, and nothing selected, lit or pressed.
    let init = KeyboardEventInit::new();
    init.set_key("Escape");
    let escape = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("a key");
    web_sys::window()
        .expect("a window")
        .dispatch_event(&escape)
        .expect("dispatched");
    shows("", "idle");
    assert_eq!(figure.get_attribute(SELECTED), None);
    assert_eq!(
        right.get_attribute("aria-pressed").as_deref(),
        Some("false")
    );
    assert!(!row.class_list().contains(LIT));

    let light = find(&root, &format!("[{THEME_CHOICE}=\"light\"]"));
    light.unchecked_ref::<HtmlElement>().click();
    assert_eq!(light.get_attribute("aria-pressed").as_deref(), Some("true"));
    root.remove();
}
