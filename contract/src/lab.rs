//! The hand-over between the page's first wasm and the lab: the lab's three chunks (each its own
//! wasm, fetched on the first reach for one of its parts), their loaders and meta tags, where each
//! stands (`<html data-lab-figures>`, `<html data-lab-store>`, `<html data-lab-check>`), the
//! reader's action kept for them (`data-lab-pending`), and which controls in a live part's slot
//! need the store.

use crate::hooks::{
    CHECK_LOCK_SLOT, CONSOLE_SLOT_PREFIX, FENCE_LANE_SLOT_PREFIX, FENCE_LOG_SLOT,
    FENCE_READOUTS_SLOT, FENCE_RESOURCE_SLOT, LAB_CHECK, LAB_CHECK_SELECTOR, LAB_FIGURES,
    LAB_FIGURES_SELECTOR, LAB_STORE, LAB_STORE_SELECTOR, PLAYER_SLOT,
};

/// The lab's chunks, split by what the reader reaches for: the figures' live parts send only SET,
/// DEL, PTTL and GET and run only the page's release and fenced-write scripts, so their chunk
/// carries ministore without `full`, which keeps just those commands and the Lua the two scripts
/// use; every other command and library is for a console or the lock checker. The
/// consoles and the lock checker each need the whole store, but a reader who types in a console
/// need not fetch the checker's explorer, catalogue and views, nor the reverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabChunk {
    /// Figure 1's scenario player and figure 2's resource bar, lanes, readout sources and log.
    Figures,
    /// The consoles: the whole store.
    Store,
    /// The lock checker (`#check`): the whole store, the explorer and the catalogue of locks.
    Check,
}

impl LabChunk {
    /// Every chunk.
    pub const ALL: [LabChunk; 3] = [LabChunk::Figures, LabChunk::Store, LabChunk::Check];

    /// The chunk that mounts the live part in the slot named `slot` (a `data-island` value);
    /// `None` for a name no live part has.
    pub fn of_slot(slot: &str) -> Option<LabChunk> {
        if slot.starts_with(CONSOLE_SLOT_PREFIX) {
            Some(LabChunk::Store)
        } else if slot == CHECK_LOCK_SLOT {
            Some(LabChunk::Check)
        } else if slot == PLAYER_SLOT
            || slot.starts_with(FENCE_LANE_SLOT_PREFIX)
            || [FENCE_RESOURCE_SLOT, FENCE_READOUTS_SLOT, FENCE_LOG_SLOT].contains(&slot)
        {
            Some(LabChunk::Figures)
        } else {
            None
        }
    }

    /// The cargo binary, and the stem of the files Trunk writes for it (`<bin>.js`,
    /// `<bin>_bg.wasm`, `<bin>_loader.js`).
    pub fn bin(self) -> &'static str {
        match self {
            LabChunk::Figures => "lab-figures",
            LabChunk::Store => "lab-store",
            LabChunk::Check => "lab-check",
        }
    }

    /// The `<html>` attribute saying where the chunk stands ([`LabState`]).
    pub fn state_attribute(self) -> &'static str {
        match self {
            LabChunk::Figures => LAB_FIGURES,
            LabChunk::Store => LAB_STORE,
            LabChunk::Check => LAB_CHECK,
        }
    }

    /// `[data-lab-…]`: the `<html>` once the chunk has been asked for.
    pub fn state_selector(self) -> &'static str {
        match self {
            LabChunk::Figures => LAB_FIGURES_SELECTOR,
            LabChunk::Store => LAB_STORE_SELECTOR,
            LabChunk::Check => LAB_CHECK_SELECTOR,
        }
    }

    /// The loader Trunk writes for the chunk (a `data-loader-shim` in index.html), beside the
    /// page: the first wasm imports it (`import()`) when the reader reaches for one of its
    /// parts. The build renames it after its content and says the new name in
    /// [`LabChunk::loader_meta`]; this is the name a page without that meta tag falls back to.
    pub fn loader(self) -> &'static str {
        match self {
            LabChunk::Figures => "lab-figures_loader.js",
            LabChunk::Store => "lab-store_loader.js",
            LabChunk::Check => "lab-check_loader.js",
        }
    }

    /// `<meta name="lockdive:lab-…" content="…">`: the chunk's loader file, relative to the page.
    pub fn loader_meta(self) -> &'static str {
        match self {
            LabChunk::Figures => "lockdive:lab-figures",
            LabChunk::Store => "lockdive:lab-store",
            LabChunk::Check => "lockdive:lab-check",
        }
    }

    /// The performance mark the chunk sets once its parts are live (the same name as its meta).
    pub fn mark(self) -> &'static str {
        self.loader_meta()
    }
}

/// What inside a live part's slot needs the store: everything operable, the focusable player
/// timeline (`[tabindex]`) included. No choice sits in a slot: the first wasm answers them all.
pub const STORE_CONTROLS: &str = "input, textarea, select, button, [tabindex]";

/// The panels that hold store controls: the scenario player, the consoles and the lock picker.
pub const STORE_PANELS: &str = concat!(
    "[",
    player_attribute!(),
    "], [",
    console_attribute!(),
    "], [",
    lock_picker_attribute!(),
    "]"
);

/// Where a lab chunk stands, as its `<html>` attribute says (absent until it is asked for).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabState {
    /// Its script is on its way.
    Loading,
    /// It has taken its live parts over.
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
    use crate::hooks::{CONSOLE, LOCK_PICKER, PLAYER};

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
        assert_eq!(
            STORE_PANELS,
            format!("[{PLAYER}], [{CONSOLE}], [{LOCK_PICKER}]")
        );
    }

    #[test]
    fn the_page_names_each_chunks_loader_and_builds_it() {
        let page = include_str!("../../index.html");
        for chunk in LabChunk::ALL {
            assert!(page.contains(&format!(
                "<meta name=\"{}\" content=\"{}\" />",
                chunk.loader_meta(),
                chunk.loader()
            )));
            assert!(page.contains(&format!("data-bin=\"{}\"", chunk.bin())));
            assert_eq!(chunk.loader(), format!("{}_loader.js", chunk.bin()));
            assert_eq!(
                chunk.state_selector(),
                format!("[{}]", chunk.state_attribute())
            );
        }
    }

    #[test]
    fn the_consoles_need_the_stores_chunk_the_checker_its_own_and_the_rest_the_figures() {
        assert_eq!(
            LabChunk::of_slot("console-lost-lock"),
            Some(LabChunk::Store)
        );
        assert_eq!(LabChunk::of_slot(CHECK_LOCK_SLOT), Some(LabChunk::Check));
        for slot in [
            "player",
            "fence-resource",
            "fence-lane-33",
            "fence-readouts",
            "fence-log",
        ] {
            assert_eq!(LabChunk::of_slot(slot), Some(LabChunk::Figures), "{slot}");
        }
        assert_eq!(LabChunk::of_slot("lost-lock"), None, "a figure, not a slot");
    }
}
