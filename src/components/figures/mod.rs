//! The dive's interactive figures. Each runs its scenario in ministore once, when it is
//! created, and renders the drawing, the live readout and the static verdicts from that run.
//!
//! - `lost_lock` (+ `lost_lock_rows`): figure 1, blind DEL vs the token-checked release.
//! - `player` (+ `player_head`, `player_controls`, `player_frame`, `player_status`): figure 1's
//!   scenario player (timeline, lease and stall sliders, release switch, lease clock, hazard), as
//!   markup rendered from its state (`PlayHead`) and run; the lab makes it live where it stands.
//! - `fence` (+ `fence_drawing`, `fence_readout`, `fence_log`): figure 2, three writers against a
//!   resource that has seen token 34; a click commits a write, the log lists the commits. Its live
//!   parts (the resource bar, the lanes' outcomes, the readout sources, the log) are markup over the
//!   committed fence, which the lab renders again after each commit; the rest stays as built.
//!   `share_url`: the state in the URL fragment.
//! - `attempts` (+ `attempts_rows`, `attempts_cells`): figure 3 in §4, EchoMQ's `attempts` fence
//!   (W1, W2, reaper).
//! - `check_lock`: the lock checker of `#check` (catalogue picker, verdicts per property,
//!   counterexample player, the reader's own scripts), over `scenarios::lockcheck`.
//! - `slot`: the live parts (`LivePart`) and the element each sits in, where the lab makes it live.
//! - `scripts`: the full scripts a figure runs, behind a disclosure (figures 2 and 3).
//! - `lane`: a step drawing's cell, named for screen readers by its lane.
//! - `choice`: a choice's button as built (the first wasm makes it answer); `readout`, `verdicts`:
//!   the `aria-live` readout with its sources, and the always-visible static verdicts.

pub mod check_lock;
pub mod fence_drawing;
pub mod fence_log;
pub mod fence_readout;
pub mod player;
pub mod player_controls;
pub mod player_frame;
pub mod player_head;
pub mod player_status;
mod readout;
pub mod share_url;
mod slot;

pub use slot::LivePart;

// The figures' Leptos components and the parts only they use: the build's and the browser tests'.
views! {
    mod attempts;
    mod attempts_cells;
    mod attempts_rows;
    mod choice;
    mod fence;
    mod lane;
    mod lost_lock;
    mod lost_lock_rows;
    mod scripts;
    mod verdicts;

    pub use attempts::AttemptsFigure;
    pub use check_lock::{CheckLockFigure, CheckLockLive};
    pub use fence::FenceFigure;
    pub use lost_lock::LostLockFigure;
    pub use player::ScenarioPlayer;
    pub use slot::{LiveSlot, MarkupSlot};
}
