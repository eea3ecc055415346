//! A figure's choice as the build renders it: a focusable `button.fig-choice` in its `[data-path]`
//! row, unpressed. It carries no handlers of its own: the page's first wasm (`lockdive-first`)
//! makes every choice answer hover, focus, a tap and Esc by the rules of
//! `lockdive_contract::choice_layers` for the page's whole life, and hands a commit to the lab
//! (`lockdive_contract::hooks::COMMIT`).

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::{CHOICE, COMMITS};

/// One choice's button. Its data hook (`data-release`, `data-writer`) is spread onto it by the
/// caller: `<ChoiceButton {..custom_attribute(WRITER, "33")}>`.
#[component]
pub fn ChoiceButton(
    /// Whether activating the choice commits it (figure 2's writers): `data-commits`.
    #[prop(optional)]
    commits: bool,
    /// What the button shows.
    children: Children,
) -> impl IntoView {
    view! {
        <button
            type="button"
            class=CHOICE
            aria-pressed="false"
            {..custom_attribute(COMMITS, commits.then_some(""))}
        >
            {children()}
        </button>
    }
}
