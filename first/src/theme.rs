//! The theme in the browser: the prerendered switch made to work — its buttons show the stored
//! choice as pressed, and a click applies and remembers a new one — and a framing host's theme
//! shown for the page view (`crate::embed`). The choices and their names are
//! `lockdive_contract::theme`'s; index.html's head script applies the stored one before the first
//! paint, so a reload never flashes.

use lockdive_contract::hooks::{THEME, THEME_CHOICE, THEME_CHOICE_SELECTOR};
use lockdive_contract::theme::{ThemeChoice, STORAGE_KEY};
use web_sys::{Document, Element};

use crate::dom;

/// Wires the switch's `[data-theme-choice]` buttons. Returns whether there was a switch.
pub fn enhance(document: &Document) -> bool {
    let buttons = dom::all::<Element>(document.query_selector_all(THEME_CHOICE_SELECTOR));
    press(
        &buttons,
        ThemeChoice::from_stored(stored_choice().as_deref()),
    );
    for button in &buttons {
        let Some(choice) = button
            .get_attribute(THEME_CHOICE)
            .and_then(|key| ThemeChoice::from_key(&key))
        else {
            continue;
        };
        let all = buttons.clone();
        dom::on(button, "click", move |_: web_sys::Event| {
            apply(choice);
            press(&all, choice);
        });
    }
    !buttons.is_empty()
}

/// Marks the chosen button pressed and the others not.
fn press(buttons: &[Element], choice: ThemeChoice) {
    for button in buttons {
        let pressed = button.get_attribute(THEME_CHOICE).as_deref() == Some(choice.key());
        let _ = button.set_attribute("aria-pressed", if pressed { "true" } else { "false" });
    }
}

fn local_storage() -> Option<web_sys::Storage> {
    // Storage may be off (privacy settings, sandboxed iframes): then the switch works for this visit only.
    web_sys::window()?.local_storage().ok().flatten()
}

/// The stored choice's raw value, if storage works and holds one.
fn stored_choice() -> Option<String> {
    local_storage()?.get_item(STORAGE_KEY).ok().flatten()
}

/// Sets or clears `data-theme` on `<html>` and stores the choice (System clears the stored value).
fn apply(choice: ThemeChoice) {
    show(choice);
    if let Some(storage) = local_storage() {
        let _ = match choice.attribute() {
            Some(theme) => storage.set_item(STORAGE_KEY, theme),
            None => storage.remove_item(STORAGE_KEY),
        };
    }
}

/// Sets or clears `data-theme` on `<html>` for this page view only, storing nothing: how a framing
/// host's theme message applies (the host owns the theme while it frames the page; the reader's own
/// choice, for the page on its own, stays as it was). System follows `prefers-color-scheme` live,
/// as `color-scheme: light dark` does without `data-theme`.
pub fn show(choice: ThemeChoice) {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    if let Some(root) = root {
        let _ = match choice.attribute() {
            Some(theme) => root.set_attribute(THEME, theme),
            None => root.remove_attribute(THEME),
        };
    }
}
