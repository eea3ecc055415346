//! The first wasm on its own, in headless Chromium: markup written with the contract's hooks, as
//! the build writes a figure, answers a hover from its readout templates — the readout's content
//! and tone swap, the row lights, the button is pressed, the figure says what it shows — and the
//! theme switch presses the stored choice.
#![cfg(target_arch = "wasm32")]

use lockdive_contract::hooks::{
    CHOICE, FIGURE, LIT, PATH, READOUT, READOUT_FOR, SELECTED, THEME_CHOICE, TONE,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement, PointerEvent, PointerEventInit};

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
             <div {READOUT} aria-live="polite" {TONE}="idle">pick one</div>
             <template {READOUT_FOR}="" {TONE}="idle">pick one</template>
             <template {READOUT_FOR}="left" {TONE}="ok">left is safe</template>
             <template {READOUT_FOR}="right" {TONE}="bad">right breaks</template>
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

    hover(&right);
    assert_eq!(readout.text_content().as_deref(), Some("right breaks"));
    assert_eq!(readout.get_attribute(TONE).as_deref(), Some("bad"));
    assert_eq!(figure.get_attribute(SELECTED).as_deref(), Some("right"));
    assert_eq!(right.get_attribute("aria-pressed").as_deref(), Some("true"));
    let row = find(&root, &format!("[{PATH}=\"right\"]"));
    assert!(row.class_list().contains(LIT));
    assert!(!find(&root, &format!("[{PATH}=\"left\"]"))
        .class_list()
        .contains(LIT));

    // From one choice to the other and back: each shows its own source, whole, every time, and
    // the sources stay as the build wrote them.
    let left = find(&root, &format!("[{PATH}=\"left\"] .{CHOICE}"));
    for _ in 0..2 {
        hover(&left);
        assert_eq!(readout.text_content().as_deref(), Some("left is safe"));
        assert_eq!(readout.get_attribute(TONE).as_deref(), Some("ok"));
        assert_eq!(figure.get_attribute(SELECTED).as_deref(), Some("left"));
        assert_eq!(
            right.get_attribute("aria-pressed").as_deref(),
            Some("false")
        );
        assert!(!row.class_list().contains(LIT));
        hover(&right);
        assert_eq!(readout.text_content().as_deref(), Some("right breaks"));
        assert_eq!(readout.get_attribute(TONE).as_deref(), Some("bad"));
        assert_eq!(left.get_attribute("aria-pressed").as_deref(), Some("false"));
        assert!(row.class_list().contains(LIT));
    }
    let template = find(&root, &format!("template[{READOUT_FOR}=\"left\"]"));
    assert_eq!(template.inner_html(), "left is safe");

    // A finger's enter never selects: the readout stays on the choice shown.
    enter(&left, "touch");
    assert_eq!(readout.text_content().as_deref(), Some("right breaks"));

    let light = find(&root, &format!("[{THEME_CHOICE}=\"light\"]"));
    light.unchecked_ref::<HtmlElement>().click();
    assert_eq!(light.get_attribute("aria-pressed").as_deref(), Some("true"));
    root.remove();
}
