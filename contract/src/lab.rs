//! The hand-over between the page's two wasm modules: the lab's loader and its meta tag, where the
//! lab stands (`<html data-lab>`), the reader's action kept for it (`data-lab-pending`), and which
//! controls in a figure's slot need the store and so the lab.

/// The loader Trunk writes for the lab wasm (a `data-loader-shim` in index.html), beside the page:
/// the first wasm adds it as a module script when the reader needs the store. The build renames it
/// after its content and says the new name in [`LOADER_META`]; this is the name a page without
/// that meta tag falls back to.
pub const LOADER: &str = "lab_loader.js";

/// `<meta name="lockdive:lab" content="…">`: the lab loader's file, relative to the page.
pub const LOADER_META: &str = "lockdive:lab";

/// What inside a live part's slot needs the store: everything operable, the focusable player
/// timeline (`[tabindex]`) included. No choice sits in a slot: the first wasm answers them all.
pub const STORE_CONTROLS: &str = "input, textarea, select, button, [tabindex]";

/// The panels that hold store controls: the scenario player and the consoles.
pub const STORE_PANELS: &str = concat!("[", player_attribute!(), "], [", console_attribute!(), "]");

/// Where the lab stands, as `<html data-lab>` says (absent until it is asked for).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabState {
    /// Its script is on its way.
    Loading,
    /// It has taken the figures over.
    Live,
    /// Its script did not load; the page stays as the first wasm made it.
    Failed,
}

/// A reader's action on a store control made before the lab was live, kept for the lab to replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PendingAction {
    /// A click (a button press, a commit).
    Click,
    /// Enter in a text field (the console runs its line).
    Enter,
}

impl LabState {
    /// The attribute's value.
    pub fn attribute(self) -> &'static str {
        match self {
            LabState::Loading => "loading",
            LabState::Live => "live",
            LabState::Failed => "failed",
        }
    }

    /// Reads the attribute's value.
    pub fn from_attribute(value: &str) -> Option<Self> {
        [LabState::Loading, LabState::Live, LabState::Failed]
            .into_iter()
            .find(|state| state.attribute() == value)
    }
}

impl PendingAction {
    /// The attribute's value.
    pub fn attribute(self) -> &'static str {
        match self {
            PendingAction::Click => "click",
            PendingAction::Enter => "enter",
        }
    }

    /// Reads the attribute's value.
    pub fn from_attribute(value: &str) -> Option<Self> {
        [PendingAction::Click, PendingAction::Enter]
            .into_iter()
            .find(|action| action.attribute() == value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::{CONSOLE, PLAYER};

    #[test]
    fn lab_states_and_kept_actions_round_trip_through_their_attributes() {
        for state in [LabState::Loading, LabState::Live, LabState::Failed] {
            assert_eq!(LabState::from_attribute(state.attribute()), Some(state));
        }
        for action in [PendingAction::Click, PendingAction::Enter] {
            assert_eq!(
                PendingAction::from_attribute(action.attribute()),
                Some(action)
            );
        }
    }

    #[test]
    fn a_hand_edited_attribute_means_nothing() {
        assert_eq!(LabState::from_attribute("ready"), None);
        assert_eq!(PendingAction::from_attribute(""), None);
    }

    #[test]
    fn the_store_selectors_name_the_hooks() {
        assert_eq!(STORE_PANELS, format!("[{PLAYER}], [{CONSOLE}]"));
    }

    #[test]
    fn the_page_names_the_loader_it_falls_back_to() {
        let page = include_str!("../../index.html");
        assert!(page.contains(&format!(
            "<meta name=\"{LOADER_META}\" content=\"{LOADER}\" />"
        )));
    }
}
