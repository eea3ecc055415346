//! The scenario player behind figure 1: the one lost-lock model (`lost_lock`) run for any lease
//! and stall the learner picks, each of §1's five steps a frame holding what the store held.
//! [`TimelineCache`] keeps each (lease, stall, release) run, so scrubbing a slider reruns nothing twice.

use std::collections::HashMap;
use std::sync::Arc;

use super::lost_lock::{LockSetup, LostLockOutcome, ReleaseChoice, LEASE_MS, STALL_MS};

/// A slider's range: what the `<input type=range>` offers, and what a shared link is clamped to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliderRange {
    /// The smallest value, in milliseconds.
    pub min: u64,
    /// The largest value, in milliseconds.
    pub max: u64,
    /// The slider's step, in milliseconds.
    pub step: u64,
    /// Where the slider starts: the brief's numbers.
    pub default: u64,
}

impl SliderRange {
    /// `value` clamped into the range and snapped to the nearest step, as the slider would show it.
    pub fn clamp(self, value: u64) -> u64 {
        let inside = value.clamp(self.min, self.max);
        let steps = (inside - self.min + self.step / 2) / self.step;
        self.min
            .saturating_add(steps.saturating_mul(self.step))
            .min(self.max)
    }
}

/// The lease each `SET … NX PX` asks for.
pub const LEASE_RANGE: SliderRange = SliderRange {
    min: 1_000,
    max: 20_000,
    step: 500,
    default: LEASE_MS,
};

/// How long A stays paused after acquiring, before it resumes and releases.
pub const STALL_RANGE: SliderRange = SliderRange {
    min: 500,
    max: 30_000,
    step: 500,
    default: STALL_MS,
};

/// Every run has §1's five steps; only their outcomes change.
pub const STEP_COUNT: usize = 5;

/// The two knobs a learner turns: the lost-lock model's own setup.
pub type PlayerSetup = LockSetup;

impl LockSetup {
    /// A setup with both values clamped onto the player's sliders.
    pub fn new(lease_ms: u64, stall_ms: u64) -> LockSetup {
        LockSetup {
            lease_ms: LEASE_RANGE.clamp(lease_ms),
            stall_ms: STALL_RANGE.clamp(stall_ms),
        }
    }
}

/// One full run of the player: the lost-lock model's run for a setup and a release choice.
pub type Timeline = LostLockOutcome;

/// Runs already made, keyed by setup and release choice. Bounded: when full it starts over, so a
/// learner scrubbing sliders for an hour does not grow the page's memory.
#[derive(Debug, Default)]
pub struct TimelineCache {
    runs: HashMap<(PlayerSetup, ReleaseChoice), Arc<Timeline>>,
}

impl TimelineCache {
    /// At most this many runs are kept.
    pub const CAPACITY: usize = 256;

    /// The run for `setup` and `choice`, made now if it was not made before.
    pub fn get(&mut self, setup: PlayerSetup, choice: ReleaseChoice) -> Arc<Timeline> {
        if let Some(run) = self.runs.get(&(setup, choice)) {
            return Arc::clone(run);
        }
        if self.runs.len() >= Self::CAPACITY {
            self.runs.clear();
        }
        let run = Arc::new(LostLockOutcome::run_with(setup, choice));
        self.runs.insert((setup, choice), Arc::clone(&run));
        run
    }

    /// How many runs are kept now.
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    /// True when no run is kept.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }
}
