//! What the reader already did in a live part's slot before the lab took it over — a slider moved in
//! the player, a disclosure opened, the focus, a click or Enter kept by the first wasm — read off the
//! prerendered controls and put onto their live twins, found by position: the lab's first render is
//! the build's markup, control for control ([`CarriedControls`]). A part the lab makes live where it
//! stands (the consoles, the lock checker) keeps its own controls' state; only the kept click or
//! Enter is carried out there ([`replay_pending`]). (The figures'
//! choices are in no slot: the first wasm keeps them, and a commit crosses over by itself, see
//! `lockdive_contract::hooks::COMMIT`.)

use wasm_bindgen::JsCast;
use web_sys::{
    Element, Event, EventInit, HtmlElement, HtmlInputElement, KeyboardEvent, KeyboardEventInit,
};

use lockdive_contract::hooks::{PENDING, PENDING_SELECTOR};
use lockdive_contract::lab::PendingAction;

/// Every control whose state is carried, in document order; `[tabindex]` for the focus of the
/// player's timeline.
const CARRIED: &str = "button, input, textarea, select, details, [tabindex]";

/// One control's state at the takeover.
struct ControlState {
    /// An `<input>`'s value and its caret, if the reader changed it.
    value: Option<(String, Option<u32>)>,
    /// A checkbox's or radio's checked state, if the reader changed it.
    checked: Option<bool>,
    /// `Some(true)` for a `<details>` the reader opened.
    open: Option<bool>,
    focused: bool,
    pending: Option<PendingAction>,
}

/// The states of a slot's controls, read before the slot is emptied.
pub struct CarriedControls {
    controls: Vec<ControlState>,
}

impl CarriedControls {
    /// Reads the slot's controls.
    pub fn capture(slot: &Element) -> Self {
        let active = slot.owner_document().and_then(|d| d.active_element());
        let controls = controls(slot)
            .into_iter()
            .map(|control| {
                let input = control.dyn_ref::<HtmlInputElement>();
                let checkable =
                    input.is_some_and(|i| matches!(i.type_().as_str(), "checkbox" | "radio"));
                // Only what the reader changed is carried: a control still at the build's default
                // leaves the live one as the lab made it (say, from the state in a shared link).
                ControlState {
                    value: input
                        .filter(|i| !checkable && i.value() != i.default_value())
                        .map(|i| (i.value(), i.selection_start().ok().flatten())),
                    checked: input
                        .filter(|i| checkable && i.checked() != i.default_checked())
                        .map(HtmlInputElement::checked),
                    open: (control.tag_name() == "DETAILS" && control.has_attribute("open"))
                        .then_some(true),
                    focused: active.as_ref() == Some(&control),
                    pending: control
                        .get_attribute(PENDING)
                        .and_then(|a| PendingAction::from_attribute(&a)),
                }
            })
            .collect();
        CarriedControls { controls }
    }

    /// Puts the states onto the slot's live controls: values first (announced with the `input` or
    /// `change` event the live control listens for), then the kept action, then the focus. A
    /// slot whose controls no longer line up with the carried ones gets nothing: a wrong guess
    /// would be worse than starting fresh.
    pub fn restore(&self, slot: &Element) {
        let live = controls(slot);
        if live.len() != self.controls.len() {
            return;
        }
        for (state, control) in self.controls.iter().zip(&live) {
            if let Some(input) = control.dyn_ref::<HtmlInputElement>() {
                if let Some((value, caret)) = &state.value {
                    if input.value() != *value {
                        input.set_value(value);
                        announce(control, "input");
                    }
                    if let Some(caret) = caret {
                        let _ = input.set_selection_range(*caret, *caret);
                    }
                }
                if let Some(checked) = state.checked {
                    if input.checked() != checked {
                        input.set_checked(checked);
                        announce(control, "change");
                    }
                }
            }
            if let Some(open) = state.open {
                let _ = control.toggle_attribute_with_force("open", open);
            }
        }
        for (state, control) in self.controls.iter().zip(&live) {
            if let Some(action) = state.pending {
                replay(control, action);
            }
        }
        // Last, the focus goes back where the reader left it — unless the reader has left the page
        // meanwhile (in a host page around the framed dive, say): focusing then would take the
        // host's arrow keys and space away from it.
        let page_has_focus = slot
            .owner_document()
            .is_some_and(|document| document.has_focus().unwrap_or(false));
        for (state, control) in self.controls.iter().zip(&live) {
            if let (true, true, Some(element)) = (
                page_has_focus,
                state.focused,
                control.dyn_ref::<HtmlElement>(),
            ) {
                let _ = element.focus();
            }
        }
    }
}

/// Carries out the action kept on a control of `slot`'s, if any, on that same control: for a part
/// the lab makes live where it stands, the control the reader reached for is the live one.
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

/// The slot's carried controls, in document order.
fn controls(slot: &Element) -> Vec<Element> {
    lockdive_first::dom::all(slot.query_selector_all(CARRIED))
}

/// Fires a bubbling event of that name on the control, as the browser would after a user's edit.
fn announce(control: &Element, name: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    if let Ok(event) = Event::new_with_event_init_dict(name, &init) {
        let _ = control.dispatch_event(&event);
    }
}
