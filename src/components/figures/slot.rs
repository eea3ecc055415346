//! The live parts and their slots: [`LivePart`] names each part of the page that needs the store
//! (the player, the consoles, figure 2's resource bar, lanes, readout sources and log, the lock
//! checker's live part), and [`LiveSlot`] (or [`MarkupSlot`], for a part that is markup) is the
//! element it sits in (`<div class="island" data-island="player">`), which the lab finds and makes
//! live where the build left it, marking it `data-island-live` once it answers.
//! `display: contents` (page.css): the wrapper adds no box, so the page lays out exactly as
//! without it. The slot names are `lockdive_contract::hooks`'.

views! {
    use leptos::attr::custom::custom_attribute;
    use leptos::prelude::*;
    use lockdive_contract::hooks::SLOT;
}
use lockdive_contract::hooks::{
    CHECK_LOCK_SLOT, CONSOLE_SLOT_PREFIX, FENCE_LANE_SLOT_PREFIX, FENCE_LOG_SLOT,
    FENCE_READOUTS_SLOT, FENCE_RESOURCE_SLOT, PLAYER_SLOT,
};

use crate::scenarios::console::ConsoleSeed;
use crate::scenarios::fence::Writer;

/// What one slot holds: a part of the page that needs the store, which the lab makes live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LivePart {
    /// Figure 1's scenario player.
    Player,
    /// The console under a figure.
    Console(ConsoleSeed),
    /// Figure 2's resource bar: the max seen so far and the reset button.
    FenceResource,
    /// What the fence would do with one writer's write now: its lane's comparison and result.
    FenceLane(Writer),
    /// Figure 2's readout sources: the what-ifs against the committed fence and the last commit.
    FenceReadouts,
    /// Figure 2's commit log.
    FenceLog,
    /// The lock checker's picker, verdicts and counterexample.
    CheckLock,
}

impl LivePart {
    /// Every part the page has, in page order.
    pub fn all() -> Vec<LivePart> {
        let fence = [LivePart::FenceResource]
            .into_iter()
            .chain(Writer::ALL.map(LivePart::FenceLane))
            .chain([
                LivePart::FenceReadouts,
                LivePart::FenceLog,
                LivePart::Console(ConsoleSeed::Fence),
            ]);
        [LivePart::Player, LivePart::Console(ConsoleSeed::LostLock)]
            .into_iter()
            .chain(fence)
            .chain([
                LivePart::Console(ConsoleSeed::Attempts),
                LivePart::CheckLock,
            ])
            .collect()
    }

    /// The slot's `data-island` value.
    pub fn slot_name(self) -> String {
        match self {
            LivePart::Player => PLAYER_SLOT.to_string(),
            LivePart::Console(seed) => format!("{CONSOLE_SLOT_PREFIX}{}", seed.hook()),
            LivePart::FenceResource => FENCE_RESOURCE_SLOT.to_string(),
            LivePart::FenceLane(writer) => format!("{FENCE_LANE_SLOT_PREFIX}{}", writer.hook()),
            LivePart::FenceReadouts => FENCE_READOUTS_SLOT.to_string(),
            LivePart::FenceLog => FENCE_LOG_SLOT.to_string(),
            LivePart::CheckLock => CHECK_LOCK_SLOT.to_string(),
        }
    }

    /// Reads a slot's `data-island` value.
    pub fn from_slot_name(name: &str) -> Option<LivePart> {
        if let Some(hook) = name.strip_prefix(CONSOLE_SLOT_PREFIX) {
            return ConsoleSeed::ALL
                .into_iter()
                .find(|seed| seed.hook() == hook)
                .map(LivePart::Console);
        }
        if let Some(token) = name.strip_prefix(FENCE_LANE_SLOT_PREFIX) {
            // The writer's hook is its token, digits only.
            let writer = Writer::ALL.into_iter().find(|w| w.hook() == token)?;
            return Some(LivePart::FenceLane(writer));
        }
        match name {
            PLAYER_SLOT => Some(LivePart::Player),
            FENCE_RESOURCE_SLOT => Some(LivePart::FenceResource),
            FENCE_READOUTS_SLOT => Some(LivePart::FenceReadouts),
            FENCE_LOG_SLOT => Some(LivePart::FenceLog),
            CHECK_LOCK_SLOT => Some(LivePart::CheckLock),
            _ => None,
        }
    }

    /// Whether the part belongs to figure 2 and shares its committed fence with the others.
    pub fn is_fence(self) -> bool {
        matches!(
            self,
            LivePart::FenceResource
                | LivePart::FenceLane(_)
                | LivePart::FenceReadouts
                | LivePart::FenceLog
        )
    }
}

/// The slot of `part`, holding what the build renders there.
#[cfg(feature = "views")]
#[component]
pub fn LiveSlot(
    /// Which part goes here: its name tells the lab what to make live.
    part: LivePart,
    /// The live part, as the build and the tests render it.
    children: Children,
) -> impl IntoView {
    view! {
        <div class="island" {..custom_attribute(SLOT, part.slot_name())}>
            {children()}
        </div>
    }
}

/// The slot of `part`, holding the part's markup as its lab chunk renders it too (the figures'
/// parts, which the lab renders from the same functions).
#[cfg(feature = "views")]
#[component]
pub fn MarkupSlot(
    /// Which part goes here.
    part: LivePart,
    /// The part's markup.
    markup: String,
) -> impl IntoView {
    view! { <div class="island" {..custom_attribute(SLOT, part.slot_name())} inner_html=markup></div> }
}

#[cfg(test)]
mod tests {
    use super::LivePart;

    #[test]
    fn every_live_part_has_its_own_slot_name() {
        let parts = LivePart::all();
        for part in &parts {
            assert_eq!(LivePart::from_slot_name(&part.slot_name()), Some(*part));
        }
        let mut names: Vec<String> = parts.iter().map(|p| p.slot_name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), parts.len(), "{names:?}");
        assert_eq!(LivePart::from_slot_name("lost-lock"), None);
        for part in &parts {
            assert!(
                lockdive_contract::lab::LabChunk::of_slot(&part.slot_name()).is_some(),
                "{part:?} belongs to a lab chunk"
            );
        }
    }
}
