//! Figure 2's committed fence: the commits a learner made, replayed in ministore into the board
//! every live part of the figure renders from, and their place in the shared URL. One per figure,
//! shared by its parts.

use leptos::prelude::*;

use super::share_url;
use crate::scenarios::fence::{max_seen_in_setup, FenceBoard, FenceLedger, FenceOutcome};
use crate::scenarios::share::MAX_FENCE_COMMITS;

/// The fence as committed so far, shared by the figure's live parts: one per figure, made by the
/// build (from no commits) or by the lab (from the shared link's).
#[derive(Clone, Copy, Debug)]
pub struct FenceLive {
    committed: RwSignal<Vec<i64>>,
    /// The fence after the commits, which every live part renders from.
    pub board: Memo<FenceBoard>,
    /// The commit just made, until a reset; `None` on a fresh page and after a reset.
    pub just_committed: RwSignal<Option<FenceOutcome>>,
    /// The token the resource had seen before any commit (what a reset returns to).
    pub seen: Option<i64>,
}

impl FenceLive {
    /// The fence with the commits in the page's shared link.
    pub fn new() -> FenceLive {
        let committed = RwSignal::new(share_url::read().fence);
        FenceLive {
            committed,
            board: Memo::new(move |_| committed.with(|tokens| FenceLedger::replay(tokens).board())),
            just_committed: RwSignal::new(None),
            seen: max_seen_in_setup(),
        }
    }

    /// Commits the writer's write with `token`, unless the log is full.
    pub fn commit(&self, token: i64) {
        if self
            .committed
            .with_untracked(|c| c.len() >= MAX_FENCE_COMMITS)
        {
            return;
        }
        self.committed.update(|c| c.push(token));
        let outcome = self.board.with_untracked(|b| b.log.last().cloned());
        self.just_committed.set(outcome);
        let tokens = self.committed.get_untracked();
        share_url::update(|state| state.fence = tokens);
    }

    /// Empties the log: the fence returns to `seen`.
    pub fn reset(&self) {
        self.committed.set(Vec::new());
        self.just_committed.set(None);
        share_url::update(|state| state.fence.clear());
    }
}

impl Default for FenceLive {
    fn default() -> Self {
        FenceLive::new()
    }
}
