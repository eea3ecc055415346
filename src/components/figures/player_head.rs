//! The scenario player's position and playback: the one piece of state its controls, its frame and
//! its timeline share.

use leptos::prelude::*;

use crate::scenarios::player::STEP_COUNT;

/// The player's position and playback, shared by its parts.
#[derive(Clone, Copy)]
pub struct PlayHead {
    /// The frame shown, 0-based.
    pub step: RwSignal<usize>,
    /// Whether the player advances by itself.
    pub playing: RwSignal<bool>,
}

impl PlayHead {
    /// Moves by `delta` frames, staying on the timeline.
    pub fn nudge(self, delta: isize) {
        self.step
            .update(|s| *s = s.saturating_add_signed(delta).min(STEP_COUNT - 1));
    }

    /// Play from where it stands (from the start when at the end), or pause.
    pub fn toggle(self) {
        if !self.playing.get_untracked() && self.step.get_untracked() + 1 >= STEP_COUNT {
            self.step.set(0);
        }
        self.playing.update(|p| *p = !*p);
    }
}
