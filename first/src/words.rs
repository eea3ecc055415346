//! The words a shown choice writes into the page — attribute names, their values, the lit row's
//! class, a pointer's kind — made JS strings once, and the DOM calls that take them as they are.
//!
//! web-sys's calls take `&str`, which the glue decodes into a new JS string on every call (one
//! decode per argument); a hover writes about ten of them. A handler that passes strings
//! the page already holds does only the DOM's own work, so it runs in less of the CPU time a
//! throttled or busy device gives it.

use wasm_bindgen::prelude::*;
use web_sys::{DomTokenList, Element, PointerEvent};

use lockdive_contract::choice_layers::PointerKind;
use lockdive_contract::hooks::{LIT, SELECTED, TONE};

// The calls below, typed to take JS values: any `Element`, `DOMTokenList` and `PointerEvent` is
// one of these (`unchecked_ref` only retypes the handle).
#[wasm_bindgen]
extern "C" {
    type WordElement;

    #[wasm_bindgen(method, catch, js_name = setAttribute)]
    fn set_attribute(this: &WordElement, name: &JsValue, value: &JsValue) -> Result<(), JsValue>;

    #[wasm_bindgen(method, catch, js_name = removeAttribute)]
    fn remove_attribute(this: &WordElement, name: &JsValue) -> Result<(), JsValue>;

    type WordTokens;

    #[wasm_bindgen(method, catch)]
    fn add(this: &WordTokens, token: &JsValue) -> Result<(), JsValue>;

    #[wasm_bindgen(method, catch)]
    fn remove(this: &WordTokens, token: &JsValue) -> Result<(), JsValue>;

    type WordPointer;

    #[wasm_bindgen(method, getter, js_name = pointerType)]
    fn pointer_type(this: &WordPointer) -> JsValue;
}

/// A text made a JS string once, to be written as it is.
#[derive(Clone)]
pub struct Word(JsValue);

impl Word {
    pub fn new(text: &str) -> Self {
        Word(JsValue::from_str(text))
    }
}

/// The words every figure writes.
pub struct Words {
    pub tone: Word,
    pub selected: Word,
    pub pressed: Word,
    pub yes: Word,
    pub no: Word,
    pub lit: Word,
    touch: Word,
}

impl Words {
    fn new() -> Self {
        Words {
            tone: Word::new(TONE),
            selected: Word::new(SELECTED),
            pressed: Word::new("aria-pressed"),
            yes: Word::new("true"),
            no: Word::new("false"),
            lit: Word::new(LIT),
            touch: Word::new(PointerKind::TOUCH_TYPE),
        }
    }
}

thread_local! {
    static WORDS: Words = Words::new();
}

/// Runs `f` with the page's words.
pub fn with<R>(f: impl FnOnce(&Words) -> R) -> R {
    WORDS.with(f)
}

/// Sets `element`'s attribute `name` to `value`. A failed write (which these names never cause)
/// leaves the page as it was.
pub fn set(element: &Element, name: &Word, value: &Word) {
    let _ = element
        .unchecked_ref::<WordElement>()
        .set_attribute(&name.0, &value.0);
}

/// Removes `element`'s attribute `name`.
pub fn remove(element: &Element, name: &Word) {
    let _ = element
        .unchecked_ref::<WordElement>()
        .remove_attribute(&name.0);
}

/// Adds `class` to `classes`, or takes it away.
pub fn toggle(classes: &DomTokenList, class: &Word, on: bool) {
    let classes = classes.unchecked_ref::<WordTokens>();
    let _ = if on {
        classes.add(&class.0)
    } else {
        classes.remove(&class.0)
    };
}

/// What kind of pointer `event` came from, by `PointerKind::from_pointer_type`'s rule, read
/// without copying its `pointerType` into Rust.
pub fn pointer_kind(event: &PointerEvent) -> PointerKind {
    let kind = event.unchecked_ref::<WordPointer>().pointer_type();
    with(|words| {
        if kind == words.touch.0 {
            PointerKind::Touch
        } else {
            PointerKind::Hovering
        }
    })
}
