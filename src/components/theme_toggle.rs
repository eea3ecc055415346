//! The light / dark / system theme switch: three pressed-state buttons that set `data-theme` on
//! `<html>` (which page.css honours) and remember the choice in localStorage. The head script in
//! `index.html` applies the stored choice before the first paint, so a reload never flashes.

use leptos::prelude::*;

/// The localStorage key; the head script in `index.html` reads the same key.
pub const THEME_STORAGE_KEY: &str = "lockdive:theme";

/// What the reader picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThemeChoice {
    Light,
    Dark,
    /// Follow `prefers-color-scheme` (no `data-theme` attribute, nothing stored).
    System,
}

impl ThemeChoice {
    pub const ALL: [ThemeChoice; 3] = [ThemeChoice::Light, ThemeChoice::Dark, ThemeChoice::System];

    /// The `data-theme` value (and stored value) for this choice; `None` for System.
    pub fn attribute(self) -> Option<&'static str> {
        match self {
            ThemeChoice::Light => Some("light"),
            ThemeChoice::Dark => Some("dark"),
            ThemeChoice::System => None,
        }
    }

    /// Reads a stored value; anything unknown (an old or hand-edited value) means System.
    pub fn from_stored(value: Option<&str>) -> Self {
        match value {
            Some("light") => ThemeChoice::Light,
            Some("dark") => ThemeChoice::Dark,
            _ => ThemeChoice::System,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ThemeChoice::Light => "Light",
            ThemeChoice::Dark => "Dark",
            ThemeChoice::System => "System",
        }
    }

    fn key(self) -> &'static str {
        self.attribute().unwrap_or("system")
    }
}

/// The theme switch. No props: its state is the document's `data-theme` and the stored choice.
/// Hidden in embed mode and in print (style/chrome.css).
#[component]
pub fn ThemeToggle() -> impl IntoView {
    // System first, on the server and the client alike; the stored choice is read once mounted.
    let choice = RwSignal::new(ThemeChoice::System);
    Effect::new(move |_| choice.set(ThemeChoice::from_stored(stored_choice().as_deref())));
    let pick = move |picked: ThemeChoice| {
        choice.set(picked);
        apply(picked);
    };
    view! {
        <div class="theme-toggle" role="group" aria-label="Colour theme">
            {ThemeChoice::ALL
                .into_iter()
                .map(|option| {
                    view! {
                        <button
                            type="button"
                            class="theme-toggle-option"
                            data-theme-choice=option.key()
                            aria-pressed=move || (choice.get() == option).to_string()
                            on:click=move |_| pick(option)
                        >
                            {option.label()}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

#[cfg(target_arch = "wasm32")]
fn local_storage() -> Option<web_sys::Storage> {
    // Storage may be off (privacy settings, sandboxed iframes): then the switch works for this visit only.
    web_sys::window()?.local_storage().ok().flatten()
}

fn stored_choice() -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    {
        local_storage()?.get_item(THEME_STORAGE_KEY).ok().flatten()
    }
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// Sets or clears `data-theme` on `<html>` and stores the choice (System clears the stored value).
fn apply(choice: ThemeChoice) {
    #[cfg(target_arch = "wasm32")]
    {
        let root = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element());
        if let Some(root) = root {
            let _ = match choice.attribute() {
                Some(theme) => root.set_attribute("data-theme", theme),
                None => root.remove_attribute("data-theme"),
            };
        }
        if let Some(storage) = local_storage() {
            let _ = match choice.attribute() {
                Some(theme) => storage.set_item(THEME_STORAGE_KEY, theme),
                None => storage.remove_item(THEME_STORAGE_KEY),
            };
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = choice;
}

#[cfg(test)]
mod tests {
    use super::ThemeChoice;

    #[test]
    fn a_stored_choice_round_trips_and_system_stores_nothing() {
        for choice in ThemeChoice::ALL {
            assert_eq!(ThemeChoice::from_stored(choice.attribute()), choice);
        }
        assert_eq!(ThemeChoice::System.attribute(), None);
    }

    #[test]
    fn an_unknown_stored_value_falls_back_to_system() {
        assert_eq!(ThemeChoice::from_stored(Some("sepia")), ThemeChoice::System);
        assert_eq!(ThemeChoice::from_stored(Some("")), ThemeChoice::System);
    }
}
