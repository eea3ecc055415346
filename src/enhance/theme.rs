//! The prerendered theme switch made to work: its buttons show the stored choice as pressed, and a
//! click applies and remembers a new one (`components::theme_toggle` owns the choice's rules).

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element};

use crate::components::theme_toggle::{apply, stored_choice, ThemeChoice};
use crate::dom;

/// Wires the switch's `[data-theme-choice]` buttons. Returns whether there was a switch.
pub fn enhance(document: &Document) -> bool {
    let buttons = dom::all::<Element>(document.query_selector_all("[data-theme-choice]"));
    press(
        &buttons,
        ThemeChoice::from_stored(stored_choice().as_deref()),
    );
    for button in &buttons {
        let Some(choice) = ThemeChoice::ALL
            .into_iter()
            .find(|c| button.get_attribute("data-theme-choice").as_deref() == Some(c.key()))
        else {
            continue;
        };
        let all = buttons.clone();
        let on_click = Closure::<dyn FnMut()>::new(move || {
            apply(choice);
            press(&all, choice);
        });
        if button
            .add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref())
            .is_ok()
        {
            on_click.forget();
        }
    }
    !buttons.is_empty()
}

/// Marks the chosen button pressed and the others not.
fn press(buttons: &[Element], choice: ThemeChoice) {
    for button in buttons {
        let pressed = button.get_attribute("data-theme-choice").as_deref() == Some(choice.key());
        let _ = button.set_attribute("aria-pressed", if pressed { "true" } else { "false" });
    }
}
