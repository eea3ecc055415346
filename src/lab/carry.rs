//! The reader's action kept for a live part before the lab took it over — a click, or Enter, that
//! the first wasm marked on the control (`hooks::PENDING`) while the chunk was on its way — carried
//! out on that same control once the chunk has made the part live where it stands. Everything
//! else the reader did there (a slider moved, text typed, the focus) is already in the controls,
//! which the lab keeps.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent, KeyboardEventInit};

use lockdive_contract::hooks::{PENDING, PENDING_SELECTOR};
use lockdive_contract::lab::PendingAction;

/// Carries out the action kept on a control of `slot`'s, if any, on that same control: the lab
/// makes every part live where it stands, so the control the reader reached for is the live one.
pub fn replay_pending(slot: &Element) {
    for control in lockdive_first::dom::all::<Element>(slot.query_selector_all(PENDING_SELECTOR)) {
        match control
            .get_attribute(PENDING)
            .and_then(|a| PendingAction::from_attribute(&a))
        {
            Some(action) => replay(&control, action),
            None => {
                let _ = control.remove_attribute(PENDING);
            }
        }
    }
}

/// Does on `control` what the reader did before the lab was live — a click, or Enter as a
/// bubbling `keydown` — and leaves no action kept on it.
fn replay(control: &Element, action: PendingAction) {
    match action {
        PendingAction::Click => {
            if let Some(element) = control.dyn_ref::<HtmlElement>() {
                element.click();
            }
        }
        PendingAction::Enter => {
            let init = KeyboardEventInit::new();
            init.set_key("Enter");
            init.set_bubbles(true);
            if let Ok(event) = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init) {
                let _ = control.dispatch_event(&event);
            }
        }
    }
    // The chunk is not marked live until its takeover ends, so the first wasm takes the replayed
    // event for a new reach and keeps it again; it has just been carried out.
    let _ = control.remove_attribute(PENDING);
}
