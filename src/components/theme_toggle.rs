//! The light / dark / system theme switch: three pressed-state buttons that set `data-theme` on
//! `<html>` (which page.css honours) and remember the choice in localStorage. The build renders the
//! buttons; the page's first wasm makes them work (`crate::enhance`). The head script in
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

    /// Reads a framing host's `lockdive:theme` message value (`src/embed.rs`): exactly `light`,
    /// `dark` or `system`; anything else is no choice at all, and the page ignores the message.
    pub fn from_message(value: &str) -> Option<Self> {
        ThemeChoice::ALL.into_iter().find(|c| c.key() == value)
    }

    pub fn label(self) -> &'static str {
        match self {
            ThemeChoice::Light => "Light",
            ThemeChoice::Dark => "Dark",
            ThemeChoice::System => "System",
        }
    }

    /// The button's `data-theme-choice`: `light`, `dark` or `system`.
    pub fn key(self) -> &'static str {
        self.attribute().unwrap_or("system")
    }
}

/// The theme switch. No props: its state is the document's `data-theme` and the stored choice.
/// Hidden in embed mode and in print (style/chrome.css).
/// The switch, `[data-theme-choice]` buttons in a labelled group. It is rendered as the page is
/// built, when the stored choice is not known: "System" is pressed until the wasm has read it.
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
                            data-theme-choice=option.key()
                            aria-pressed=(option == ThemeChoice::System).to_string()
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

/// The stored choice's raw value, if storage works and holds one.
#[cfg(target_arch = "wasm32")]
pub(crate) fn stored_choice() -> Option<String> {
    local_storage()?.get_item(THEME_STORAGE_KEY).ok().flatten()
}

/// Sets or clears `data-theme` on `<html>` and stores the choice (System clears the stored value).
#[cfg(target_arch = "wasm32")]
pub(crate) fn apply(choice: ThemeChoice) {
    show_theme(choice);
    if let Some(storage) = local_storage() {
        let _ = match choice.attribute() {
            Some(theme) => storage.set_item(THEME_STORAGE_KEY, theme),
            None => storage.remove_item(THEME_STORAGE_KEY),
        };
    }
}

/// Sets or clears `data-theme` on `<html>` for this page view only, storing nothing: how a framing
/// host's theme message applies (the host owns the theme while it frames the page; the reader's own
/// choice, for the page on its own, stays as it was). System follows `prefers-color-scheme` live,
/// as `color-scheme: light dark` does without `data-theme`.
#[cfg(target_arch = "wasm32")]
pub(crate) fn show_theme(choice: ThemeChoice) {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    if let Some(root) = root {
        let _ = match choice.attribute() {
            Some(theme) => root.set_attribute("data-theme", theme),
            None => root.remove_attribute("data-theme"),
        };
    }
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
    fn a_host_names_a_theme_exactly_or_not_at_all() {
        assert_eq!(ThemeChoice::from_message("light"), Some(ThemeChoice::Light));
        assert_eq!(ThemeChoice::from_message("dark"), Some(ThemeChoice::Dark));
        assert_eq!(
            ThemeChoice::from_message("system"),
            Some(ThemeChoice::System)
        );
        for unknown in ["", "Dark", " dark", "sepia", "null"] {
            assert_eq!(ThemeChoice::from_message(unknown), None, "{unknown:?}");
        }
    }

    #[test]
    fn an_unknown_stored_value_falls_back_to_system() {
        assert_eq!(ThemeChoice::from_stored(Some("sepia")), ThemeChoice::System);
        assert_eq!(ThemeChoice::from_stored(Some("")), ThemeChoice::System);
    }
}
