//! Figure 2's committed fence: the commits a learner made, run in ministore one by one into the
//! ledger every live part of the figure renders from, and their place in the shared URL. One per
//! figure, shared by its parts.

use leptos::prelude::*;

use super::share_url;
use crate::scenarios::fence::{max_seen_in_setup, FenceBoard, FenceLedger, FenceOutcome, Writer};
use crate::scenarios::share::MAX_FENCE_COMMITS;

/// The fence as committed so far, shared by the figure's live parts: one per figure, made by the
/// build (from no commits) or by the lab (from the shared link's).
#[derive(Clone, Copy, Debug)]
pub struct FenceLive {
    /// The store after every commit so far, with its log: a commit runs one more write against it
    /// rather than the log's scripts again.
    ledger: StoredValue<FenceLedger, LocalStorage>,
    /// The ledger as every live part renders it, set after each commit and reset.
    pub board: RwSignal<FenceBoard>,
    /// The commit just made, until a reset; `None` on a fresh page and after a reset.
    pub just_committed: RwSignal<Option<FenceOutcome>>,
    /// The token the resource had seen before any commit (what a reset returns to).
    pub seen: Option<i64>,
}

impl FenceLive {
    /// The fence with the commits in the page's shared link.
    pub fn new() -> FenceLive {
        let ledger = FenceLedger::replay(&share_url::read().fence);
        FenceLive {
            board: RwSignal::new(ledger.board()),
            ledger: StoredValue::new_local(ledger),
            just_committed: RwSignal::new(None),
            seen: max_seen_in_setup(),
        }
    }

    /// Commits the write of the writer holding `token`, unless the log is full.
    pub fn commit(&self, token: i64) {
        let Some(writer) = Writer::with_token(token) else {
            return;
        };
        if self
            .ledger
            .with_value(|l| l.log().len() >= MAX_FENCE_COMMITS)
        {
            return;
        }
        let Some((outcome, board, tokens)) = self.ledger.try_update_value(|ledger| {
            let outcome = ledger.commit(writer).clone();
            let tokens: Vec<i64> = ledger.log().iter().map(|o| o.token).collect();
            (outcome, ledger.board(), tokens)
        }) else {
            return;
        };
        self.board.set(board);
        self.just_committed.set(Some(outcome));
        share_url::update(|state| state.fence = tokens);
    }

    /// Empties the log: the fence returns to `seen`. An empty log stays as it is.
    pub fn reset(&self) {
        if self.ledger.with_value(|l| l.log().is_empty()) {
            return;
        }
        let ledger = FenceLedger::new();
        let board = ledger.board();
        self.ledger.set_value(ledger);
        self.board.set(board);
        self.just_committed.set(None);
        share_url::update(|state| state.fence.clear());
    }
}

impl Default for FenceLive {
    fn default() -> Self {
        FenceLive::new()
    }
}
