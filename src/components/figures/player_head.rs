//! The scenario player's state: the lease and stall the learner set, the release they picked and
//! where the timeline stands. The build renders one, the lab changes it as the learner goes; the
//! player's markup is rendered from it alone.

use crate::scenarios::lost_lock::ReleaseChoice;
use crate::scenarios::player::{PlayerSetup, STEP_COUNT};
use crate::scenarios::share::SharedState;

/// What the player shows: its knobs and its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayHead {
    /// The lease every `SET … PX` asks for, in ms.
    pub lease_ms: u64,
    /// How long A stalls after acquiring, in ms.
    pub stall_ms: u64,
    /// How A releases.
    pub choice: ReleaseChoice,
    /// The frame shown, 0-based.
    pub step: usize,
    /// Whether the player advances by itself.
    pub playing: bool,
}

impl PlayHead {
    /// The player as a shared link opens it (the brief's run, paused at its first step, without
    /// one).
    pub fn from_shared(shared: &SharedState) -> PlayHead {
        let setup = shared.player_setup();
        PlayHead {
            lease_ms: setup.lease_ms,
            stall_ms: setup.stall_ms,
            choice: shared.release.unwrap_or(ReleaseChoice::BlindDel),
            step: shared.step.unwrap_or(0),
            playing: false,
        }
    }

    /// The run's setup, clamped onto the sliders.
    pub fn setup(&self) -> PlayerSetup {
        PlayerSetup::new(self.lease_ms, self.stall_ms)
    }

    /// Moves by `delta` frames, staying on the timeline.
    pub fn nudge(&mut self, delta: isize) {
        self.step = self.step.saturating_add_signed(delta).min(STEP_COUNT - 1);
    }

    /// Play from where it stands (from the start when at the end), or pause.
    pub fn toggle(&mut self) {
        if !self.playing && self.at_end() {
            self.step = 0;
        }
        self.playing = !self.playing;
    }

    /// Whether the first frame is shown.
    pub fn at_start(&self) -> bool {
        self.step == 0
    }

    /// Whether the last frame is shown.
    pub fn at_end(&self) -> bool {
        self.step + 1 >= STEP_COUNT
    }

    /// Writes the player's part of a shared link.
    pub fn share(&self, state: &mut SharedState) {
        state.step = Some(self.step);
        state.lease_ms = Some(self.lease_ms);
        state.stall_ms = Some(self.stall_ms);
        state.release = Some(self.choice);
    }
}
