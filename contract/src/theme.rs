//! The theme's choices: light, dark or the system's, as the switch's buttons, `<html data-theme>`,
//! localStorage and a framing host's theme message name them. index.html's head script applies the
//! stored choice before the first paint with its own copy of these names; a test holds it equal.

/// The localStorage key the reader's choice is kept under.
pub const STORAGE_KEY: &str = "lockdive:theme";

/// What the reader (or a framing host) picked.
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
        ThemeChoice::ALL
            .into_iter()
            .find(|c| c.attribute().is_some() && c.attribute() == value)
            .unwrap_or(ThemeChoice::System)
    }

    /// Reads a framing host's theme message value (`crate::embed`) or a switch button's
    /// `data-theme-choice`: exactly `light`, `dark` or `system`; anything else is no choice at all.
    pub fn from_key(value: &str) -> Option<Self> {
        ThemeChoice::ALL.into_iter().find(|c| c.key() == value)
    }

    /// The switch button's words.
    pub fn label(self) -> &'static str {
        match self {
            ThemeChoice::Light => "Light",
            ThemeChoice::Dark => "Dark",
            ThemeChoice::System => "System",
        }
    }

    /// The button's `data-theme-choice` and the host message's value: `light`, `dark` or `system`.
    pub fn key(self) -> &'static str {
        self.attribute().unwrap_or("system")
    }
}

#[cfg(test)]
mod tests {
    use super::{ThemeChoice, STORAGE_KEY};
    use crate::hooks::{EMBED, THEME};

    #[test]
    fn a_stored_choice_round_trips_and_system_stores_nothing() {
        for choice in ThemeChoice::ALL {
            assert_eq!(ThemeChoice::from_stored(choice.attribute()), choice);
        }
        assert_eq!(ThemeChoice::System.attribute(), None);
    }

    #[test]
    fn a_host_names_a_theme_exactly_or_not_at_all() {
        assert_eq!(ThemeChoice::from_key("light"), Some(ThemeChoice::Light));
        assert_eq!(ThemeChoice::from_key("dark"), Some(ThemeChoice::Dark));
        assert_eq!(ThemeChoice::from_key("system"), Some(ThemeChoice::System));
        for unknown in ["", "Dark", " dark", "sepia", "null"] {
            assert_eq!(ThemeChoice::from_key(unknown), None, "{unknown:?}");
        }
    }

    #[test]
    fn an_unknown_stored_value_falls_back_to_system() {
        assert_eq!(ThemeChoice::from_stored(Some("sepia")), ThemeChoice::System);
        assert_eq!(ThemeChoice::from_stored(Some("")), ThemeChoice::System);
        assert_eq!(
            ThemeChoice::from_stored(Some("system")),
            ThemeChoice::System
        );
    }

    #[test]
    fn the_head_script_reads_and_sets_the_same_names() {
        let head_script = include_str!("../../index.html");
        for wanted in [
            format!("localStorage.getItem(\"{STORAGE_KEY}\")"),
            format!("root.setAttribute(\"{EMBED}\", \"\")"),
            format!("root.setAttribute(\"{THEME}\", theme)"),
            format!(
                "theme === \"{}\" || theme === \"{}\"",
                ThemeChoice::Light.key(),
                ThemeChoice::Dark.key()
            ),
        ] {
            assert!(head_script.contains(&wanted), "index.html lacks {wanted}");
        }
    }
}
