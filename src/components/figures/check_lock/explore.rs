//! Driving the explorer without freezing the page: `Explorer::run` for a slice of states at a
//! time, for about [`SLICE_MS`] of main-thread time, then a zero timeout so the browser paints and
//! answers input between slices; the live line says how far it got. Picking another lock drops
//! the running exploration (a generation count: a late slice of the old one does nothing).

use std::sync::Arc;

use leptos::prelude::*;

use super::{CheckState, Counts};
use crate::scenarios::lockcheck::{Bound, LockSpec};

#[cfg(target_arch = "wasm32")]
/// Main-thread time one slice may take before the browser gets a turn, in ms: under one frame at
/// 60 Hz, so a frame is never held back by more than a slice and its paint.
pub const SLICE_MS: f64 = 12.0;

#[cfg(target_arch = "wasm32")]
/// States per `Explorer::run` call inside a slice; the slice checks the clock between calls (at 4×
/// CPU, with 256 states a call and 24 ms slices, a library's lock showed frame gaps up to 300 ms).
pub const STATES_PER_CALL: usize = 32;

/// Starts and stops explorations, writing their progress and report into the figure's state.
#[derive(Clone, Copy)]
pub struct Runner {
    state: RwSignal<CheckState>,
    generation: StoredValue<u64>,
}

impl Runner {
    /// A runner writing into `state`.
    pub fn new(state: RwSignal<CheckState>) -> Self {
        Runner {
            state,
            generation: StoredValue::new(0),
        }
    }

    /// Drops whatever exploration is running.
    pub fn cancel(self) {
        self.generation.update_value(|g| *g += 1);
    }

    /// Explores `spec` under the default bound, replacing any running exploration.
    pub fn start(self, spec: LockSpec) {
        self.cancel();
        let generation = self.generation.get_value();
        let explorer = match crate::scenarios::lockcheck::Explorer::new(&spec, Bound::default()) {
            Ok(explorer) => explorer,
            Err(error) => {
                self.state.set(CheckState::Failed(error.to_string()));
                return;
            }
        };
        self.state.set(CheckState::Running(Counts::default()));
        drive(self, generation, explorer, now_ms());
    }

    fn current(self, generation: u64) -> bool {
        self.generation.try_get_value() == Some(generation)
    }
}

/// One slice, then the next after a zero timeout, until the explorer is done.
#[cfg(target_arch = "wasm32")]
fn drive(
    runner: Runner,
    generation: u64,
    mut explorer: crate::scenarios::lockcheck::Explorer,
    started: f64,
) {
    if !runner.current(generation) {
        return;
    }
    let slice_start = now_ms();
    let progress = loop {
        let progress = explorer.run(STATES_PER_CALL);
        if progress.done || now_ms() - slice_start >= SLICE_MS {
            break progress;
        }
    };
    let counts = Counts::of(progress, now_ms() - started);
    if progress.done {
        runner
            .state
            .set(CheckState::Done(Arc::new(explorer.report()), counts));
    } else {
        runner.state.set(CheckState::Running(counts));
        gloo_timers::callback::Timeout::new(0, move || {
            drive(runner, generation, explorer, started)
        })
        .forget();
    }
}

/// Natively (the tests' and the build's side) there is no page to keep responsive: run it out.
#[cfg(not(target_arch = "wasm32"))]
fn drive(
    runner: Runner,
    generation: u64,
    mut explorer: crate::scenarios::lockcheck::Explorer,
    started: f64,
) {
    if !runner.current(generation) {
        return;
    }
    let progress = loop {
        let progress = explorer.run(usize::MAX);
        if progress.done {
            break progress;
        }
    };
    let counts = Counts::of(progress, now_ms() - started);
    runner
        .state
        .set(CheckState::Done(Arc::new(explorer.report()), counts));
}

/// A monotonic clock in ms: `performance.now()` in the browser.
#[cfg(target_arch = "wasm32")]
fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

#[cfg(not(target_arch = "wasm32"))]
fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

/// `[data-check-progress]`: `explored N schedules (M states) in T ms`, with `data-state`
/// `running` or `done`; empty until a lock is checked.
#[component]
pub fn ProgressLine(
    /// The figure's state.
    state: RwSignal<CheckState>,
) -> impl IntoView {
    let phase = move || {
        state.with(|s| match s {
            CheckState::Running(_) => "running",
            CheckState::Done(..) => "done",
            _ => "idle",
        })
    };
    let line = move || {
        state.with(|s| match s {
            CheckState::Running(counts) => format!("{} so far…", counts.line()),
            CheckState::Done(_, counts) => counts.line(),
            _ => String::new(),
        })
    };
    let busy = move || matches!(phase(), "running").to_string();
    view! {
        <p class="ck-progress" data-check-progress data-state=phase aria-busy=busy>
            {line}
        </p>
    }
}
