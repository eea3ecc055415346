//! The light / dark / system theme switch: three pressed-state buttons that set `data-theme` on
//! `<html>` (which page.css honours) and remember the choice in localStorage. The build renders the
//! buttons; the page's first wasm makes them work (`lockdive-first`'s `theme`), by the choices'
//! names in `lockdive_contract::theme`. The head script in `index.html` applies the stored choice
//! before the first paint, so a reload never flashes.

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::THEME_CHOICE;
use lockdive_contract::theme::ThemeChoice;

/// The switch, `[data-theme-choice]` buttons in a labelled group. No props: its state is the
/// document's `data-theme` and the stored choice. It is rendered as the page is built, when the
/// stored choice is not known: "System" is pressed until the wasm has read it. Hidden in embed mode
/// and in print (style/chrome.css).
#[component]
pub fn ThemeToggle() -> impl IntoView {
    view! {
        <div class="theme-toggle" role="group" aria-label="Colour theme">
            {ThemeChoice::ALL
                .into_iter()
                .map(|option| {
                    view! {
                        <button
                            type="button"
                            class="theme-toggle-option"
                            aria-pressed=(option == ThemeChoice::System).to_string()
                            {..custom_attribute(THEME_CHOICE, option.key())}
                        >
                            {option.label()}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}
