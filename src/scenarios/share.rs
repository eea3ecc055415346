//! The page's shareable state in the URL fragment: the player's step, lease, stall and release
//! choice, and the fence's committed writes (`#play=3&lease=10000&stall=12500&release=token&fence=35,34`).
//! The keys and how a fragment splits into them are `lockdive_contract::fragment`'s, which the first
//! wasm reads too; this module gives the values their meaning. Only a fragment with `=` is state, so
//! the section anchors `#s1`…`#s6` keep working.

use lockdive_contract::fragment::{self, FENCE, LEASE, PLAY, RELEASE, STALL};

use super::fence::{Writer, MAX_FENCE_COMMITS};
use super::lost_lock::ReleaseChoice;
use super::player::{PlayerSetup, LEASE_RANGE, STALL_RANGE, STEP_COUNT};

/// What a link carries. Each figure owns its fields and leaves the other's as it found them;
/// `None` means "not in the link", so the figure starts from its default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SharedState {
    /// The player's step, 0-based, below [`STEP_COUNT`].
    pub step: Option<usize>,
    /// The lease slider, clamped and snapped onto [`LEASE_RANGE`].
    pub lease_ms: Option<u64>,
    /// The stall slider, clamped and snapped onto [`STALL_RANGE`].
    pub stall_ms: Option<u64>,
    /// The player's release choice.
    pub release: Option<ReleaseChoice>,
    /// The fence's committed writes, oldest first; only the figure's writers' tokens.
    pub fence: Vec<i64>,
}

impl SharedState {
    /// Reads a fragment (with or without its `#`). Anything it does not understand — an anchor
    /// like `s3`, unknown keys, bad numbers, foreign tokens, an overlong fragment — is ignored,
    /// never an error: a mangled link still opens the page at its defaults.
    pub fn parse(fragment: &str) -> SharedState {
        let mut state = SharedState::default();
        for (key, value) in fragment::pairs(fragment) {
            match key {
                PLAY => {
                    if let Ok(step) = value.parse::<usize>() {
                        state.step = Some(step.min(STEP_COUNT - 1));
                    }
                }
                LEASE => state.lease_ms = value.parse().ok().map(|v| LEASE_RANGE.clamp(v)),
                STALL => state.stall_ms = value.parse().ok().map(|v| STALL_RANGE.clamp(v)),
                RELEASE => state.release = release_named(value),
                FENCE => state.fence = fence_tokens(value),
                _ => {}
            }
        }
        state
    }

    /// The fragment for this state, `#`-prefixed, fields in a fixed order; empty when the state
    /// carries nothing (so the URL can drop its fragment).
    pub fn to_fragment(&self) -> String {
        let mut pairs = Vec::new();
        if let Some(step) = self.step {
            pairs.push(format!("{PLAY}={step}"));
        }
        if let Some(lease) = self.lease_ms {
            pairs.push(format!("{LEASE}={lease}"));
        }
        if let Some(stall) = self.stall_ms {
            pairs.push(format!("{STALL}={stall}"));
        }
        if let Some(release) = self.release {
            pairs.push(format!("{RELEASE}={}", release_name(release)));
        }
        if !self.fence.is_empty() {
            let tokens: Vec<String> = self.fence.iter().map(i64::to_string).collect();
            pairs.push(format!("{FENCE}={}", tokens.join(",")));
        }
        if pairs.is_empty() {
            String::new()
        } else {
            format!("#{}", pairs.join("&"))
        }
    }

    /// The player's knobs from the link, each falling back to its slider's default.
    pub fn player_setup(&self) -> PlayerSetup {
        PlayerSetup::new(
            self.lease_ms.unwrap_or(LEASE_RANGE.default),
            self.stall_ms.unwrap_or(STALL_RANGE.default),
        )
    }
}

/// The short name a link uses for a release choice.
fn release_name(choice: ReleaseChoice) -> &'static str {
    match choice {
        ReleaseChoice::BlindDel => "blind",
        ReleaseChoice::TokenChecked => "token",
    }
}

/// A release choice by its short name or its hook name.
fn release_named(value: &str) -> Option<ReleaseChoice> {
    ReleaseChoice::ALL
        .into_iter()
        .find(|c| release_name(*c) == value || c.hook() == value)
}

/// The writers' tokens in a comma list (`%2C` too, as some sharers escape commas), at most
/// [`MAX_FENCE_COMMITS`] of them; anything else in the list is skipped.
fn fence_tokens(value: &str) -> Vec<i64> {
    value
        .split(',')
        .flat_map(|part| part.split("%2C").flat_map(|p| p.split("%2c")))
        .filter_map(|token| token.parse::<i64>().ok())
        .filter(|token| Writer::ALL.iter().any(|w| w.token == *token))
        .take(MAX_FENCE_COMMITS)
        .collect()
}
