//! The live line of an exploration, `[data-check-progress]`, and the size of the slices the lab
//! runs the explorer in (`lockdive::lab::checker` drives it): `Explorer::run` for a slice of states
//! at a time, for about [`SLICE_MS`] of main-thread time, then a zero timeout so the browser paints
//! and answers input between slices.

use super::CheckState;
use crate::components::markup::{truth, Markup};

/// Main-thread time one slice may take before the browser gets a turn, in ms: under one frame at
/// 60 Hz, so a frame is never held back by more than a slice and its paint.
pub const SLICE_MS: f64 = 12.0;

/// States per `Explorer::run` call inside a slice; the slice checks the clock between calls (at 4×
/// CPU, with 256 states a call and 24 ms slices, a library's lock showed frame gaps up to 300 ms).
pub const STATES_PER_CALL: usize = 32;

/// The attribute of the live line.
pub const PROGRESS: &str = "data-check-progress";

/// The live line's attribute for its phase.
pub const STATE: &str = "data-state";

/// The live line's `data-state`: `running`, `done` or `idle`.
pub fn phase(state: &CheckState) -> &'static str {
    match state {
        CheckState::Running(_) => "running",
        CheckState::Done(..) => "done",
        _ => "idle",
    }
}

/// `explored N schedules (M states) in T ms`; the states alone while it runs (`… so far…`) or when
/// it stopped at its cap, as schedules are counted only once exploring completes; empty until a
/// lock is checked.
pub fn line(state: &CheckState) -> String {
    match state {
        CheckState::Running(counts) => format!("{} so far…", counts.states_line()),
        CheckState::Done(report, counts) if report.cap_reached => format!(
            "{}, stopped at the cap before every schedule was counted",
            counts.states_line()
        ),
        CheckState::Done(_, counts) => counts.line(),
        _ => String::new(),
    }
}

/// `[data-check-progress]` with `data-state` and `aria-busy`; the lab sets all three in place.
pub fn progress_line(state: &CheckState) -> Markup {
    let mut m = Markup::new();
    let busy = matches!(state, CheckState::Running(_));
    m.element(
        "p",
        &[
            ("class", "ck-progress"),
            (PROGRESS, ""),
            (STATE, phase(state)),
            ("aria-busy", truth(busy)),
        ],
        &line(state),
    );
    m
}
