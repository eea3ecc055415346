//! The live parts of the prerendered page and the hand-over between the page's two wasm modules.
//! The build renders the whole `App` into index.html. The first wasm (`crate::enhance`) makes that
//! markup answer without a store; the lab wasm, loaded when the reader needs the store, mounts each
//! figure with its console into its `data-island` slot. Neither carries prose, code highlighting or
//! references. The build and the lab render the slots through [`Island`], so the markup cannot drift.

#[cfg(target_arch = "wasm32")]
mod carry;

use leptos::prelude::*;

use crate::content::model::FigureSlot;

/// The attribute naming a slot: `<div data-island="lost-lock" class="island">`.
pub const ISLAND_ATTRIBUTE: &str = "data-island";

/// The slot name of a figure (with its console).
pub fn figure_island(figure: FigureSlot) -> &'static str {
    match figure {
        FigureSlot::LostLock => "lost-lock",
        FigureSlot::Fence => "fence",
        FigureSlot::Attempts => "attempts",
        FigureSlot::CheckLock => "check-lock",
    }
}

/// A slot the wasm mounts a live part into. `display: contents` (page.css): the wrapper adds no box,
/// so the page lays out exactly as without it.
#[component]
pub fn Island(
    /// The slot's name, which tells the wasm what to mount there.
    name: &'static str,
    /// The live part, as the prerender and the tests render it.
    children: Children,
) -> impl IntoView {
    view! {
        <div class="island" data-island=name>
            {children()}
        </div>
    }
}

/// The loader Trunk writes for the lab wasm (`src/bin/lab.rs`, a `data-loader-shim` in index.html),
/// beside the page: the first wasm adds it as a module script when the reader needs the store.
/// The build renames it after its content (`crate::prerender::lab_files`) and says the new name in
/// [`LAB_LOADER_META`]; this is the name a page without that meta tag falls back to.
pub const LAB_LOADER: &str = "lab_loader.js";

/// `<meta name="lockdive:lab" content="…">`: the lab loader's file, relative to the page.
pub const LAB_LOADER_META: &str = "lockdive:lab";

/// `<html data-lab="…">`: where the lab stands ([`LabState`]). Absent until it is asked for.
pub const LAB_STATE_ATTRIBUTE: &str = "data-lab";

/// Marks the control a click or Enter was made on before the lab was live, for it to replay.
pub const PENDING_ATTRIBUTE: &str = "data-lab-pending";

/// Where the lab stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabState {
    /// Its script is on its way.
    Loading,
    /// It has taken the figures over.
    Live,
    /// Its script did not load; the page stays as the first wasm made it.
    Failed,
}

/// A reader's action on a store control made before the lab was live.
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

/// The lab's takeover: mounts every figure island of the page into its slot, replacing the
/// prerendered (and first-wasm enhanced) figure in the same task, so the browser never paints in
/// between, and carries over what the reader already did there (`carry`). Returns how many
/// figures went live.
#[cfg(target_arch = "wasm32")]
pub fn mount_lab() -> usize {
    use crate::components::blocks::FigureView;

    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return 0;
    };
    let slots = document.query_selector_all(&format!("[{ISLAND_ATTRIBUTE}]"));
    let mut mounted = 0;
    for slot in crate::dom::all::<web_sys::HtmlElement>(slots) {
        let name = slot.get_attribute(ISLAND_ATTRIBUTE).unwrap_or_default();
        let Some(figure) = [
            FigureSlot::LostLock,
            FigureSlot::Fence,
            FigureSlot::Attempts,
            FigureSlot::CheckLock,
        ]
        .into_iter()
        .find(|figure| figure_island(*figure) == name) else {
            continue;
        };
        let carried = carry::CarriedControls::capture(&slot);
        slot.set_text_content(None);
        leptos::mount::mount_to(slot.clone(), move || view! { <FigureView figure /> }).forget();
        carried.restore(&slot);
        mounted += 1;
    }
    if let Some(root) = document.document_element() {
        let _ = root.set_attribute(LAB_STATE_ATTRIBUTE, LabState::Live.attribute());
    }
    crate::embed::mark(crate::embed::LAB_MARK);
    mounted
}

#[cfg(test)]
mod tests {
    use super::{LabState, PendingAction};

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
}
