//! The check-lock figure (`#check`): a lock from the explorer's catalogue, or the reader's own, run
//! for every schedule the default bound allows, with one verdict row per property and, for a broken
//! one, the shortest schedule that breaks it, stepped through in a player.
//!
//! - `table`: the catalogue × property verdicts the build computed with `lockcheck::check`
//!   (prerendered only: the lab never renders it, so it reads without wasm and costs the lab nothing);
//! - the live part ([`CheckLockLive`], in the figure's lab slot): `picker`, `scripts` (the picked lock's
//!   operations as they run, with provenance), `custom` (text areas for the reader's own lock),
//!   `explore` (the explorer driven in slices so the page stays responsive, with its progress line),
//!   `verdicts` (the rows and the announced summary) and `counterexample` (step list and player);
//! - `hooks`: the stable selectors tests and the benchmark use.
//!
//! Data flows one way: lock spec → `Explorer` over ministore → `CheckReport` → these views.

mod counterexample;
mod custom;
mod explore;
pub mod hooks;
mod picker;
mod scripts;
mod table;
mod verdicts;

use std::sync::Arc;

use leptos::prelude::*;

use leptos::attr::custom::custom_attribute;
use lockdive_contract::hooks::FIGURE;
use lockdive_contract::Figure;

use super::{LivePart, LiveSlot};
use crate::scenarios::lockcheck::{catalogue, Bound, CheckReport, LockSpec, Progress};

#[cfg(not(target_arch = "wasm32"))]
pub use table::catalogue_reports;
pub use table::StaticCheckTable;
pub use verdicts::summary;

/// The id of the reader's own lock, beside the catalogue's.
pub const CUSTOM_ID: &str = "custom";

/// Where the live part stands.
#[derive(Clone, Debug)]
pub enum CheckState {
    /// Nothing picked yet.
    Idle,
    /// The custom lock is picked and not yet checked.
    Editing,
    /// The explorer is running: its counts so far.
    Running(Counts),
    /// The explorer finished: the report and what it took.
    Done(Arc<CheckReport>, Counts),
    /// The lock could not be checked: the explorer's or ministore's error, as it said it.
    Failed(String),
}

/// How far an exploration has got, for the live line.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counts {
    /// Complete schedules explored.
    pub schedules: u64,
    /// Distinct states visited.
    pub states: u64,
    /// Wall time so far, in ms.
    pub ms: f64,
}

impl Counts {
    /// The explorer's progress after `ms` of wall time.
    pub fn of(progress: Progress, ms: f64) -> Counts {
        Counts {
            schedules: progress.schedules,
            states: progress.states,
            ms,
        }
    }

    /// `explored N schedules (M states) in T ms`: the line the benchmark reads.
    pub fn line(&self) -> String {
        format!(
            "explored {} schedules ({} states) in {:.0} ms",
            self.schedules, self.states, self.ms
        )
    }
}

/// The figure: caption, the build's table of every lock's verdicts, and the live part's slot.
#[component]
pub fn CheckLockFigure() -> impl IntoView {
    view! {
        <figure class="fig fig-check" {..custom_attribute(FIGURE, Figure::CheckLock.hook())}>
            <figcaption>
                "Check a lock: every schedule of "
                {bound_words(Bound::default())}
                ", five properties after every step"
            </figcaption>
            <PropertyList />
            <StaticCheckTable />
            <LiveSlot part=LivePart::CheckLock>
                <CheckLockLive />
            </LiveSlot>
        </figure>
    }
}

/// The five properties, each with where the dive teaches it: `dl[data-properties]`, outside the
/// slot, so it reads before (and without) the lab.
#[component]
pub fn PropertyList() -> impl IntoView {
    view! {
        <dl class="ck-properties" data-properties>
            {crate::scenarios::lockcheck::Property::ALL
                .into_iter()
                .map(|property| {
                    view! {
                        <dt>{property.label()}</dt>
                        <dd>
                            <crate::components::rich_text::RichText markup=crate::content::check_lock::lesson(property) />
                        </dd>
                    }
                })
                .collect_view()}
        </dl>
    }
}

/// The bound in words, from the explorer's own `Bound`: "three clients, one stall past the
/// lease and up to two acquire attempts each".
pub fn bound_words(bound: Bound) -> String {
    let count = |n: u8| crate::scenarios::count_in_words(usize::from(n));
    let plural =
        |n: u8, one: &str, many: &str| format!("{} {}", count(n), if n == 1 { one } else { many });
    format!(
        "{}, {} past the lease and up to {} each",
        plural(bound.clients, "client", "clients"),
        plural(bound.stalls, "stall", "stalls"),
        plural(
            bound.acquire_attempts,
            "acquire attempt",
            "acquire attempts"
        ),
    )
}

/// The live part: picker, the picked lock's scripts or the custom editor, the progress line,
/// the verdicts and the open counterexample. Its first render is the build's markup, so the lab
/// takes it over without a shift; nothing runs until the reader picks.
#[component]
pub fn CheckLockLive() -> impl IntoView {
    let locks: Arc<Vec<LockSpec>> = Arc::new(catalogue::all());
    let picked = RwSignal::new(None::<String>);
    let state = RwSignal::new(CheckState::Idle);
    let runner = explore::Runner::new(state);
    let open = RwSignal::new(None::<usize>);
    let custom = custom::CustomTexts::new();

    let pick_locks = locks.clone();
    let on_pick = Callback::new(move |id: String| {
        open.set(None);
        picked.set(Some(id.clone()));
        if id == CUSTOM_ID {
            runner.cancel();
            state.set(CheckState::Editing);
            return;
        }
        match pick_locks.iter().find(|spec| spec.id == id) {
            Some(spec) => runner.start(spec.clone()),
            None => state.set(CheckState::Failed(format!("no lock called {id:?}"))),
        }
    });
    let on_check_custom = Callback::new(move |spec: Result<LockSpec, String>| {
        open.set(None);
        match spec {
            Ok(spec) => runner.start(spec),
            Err(error) => {
                runner.cancel();
                state.set(CheckState::Failed(error));
            }
        }
    });

    let shown_locks = locks.clone();
    let shown = move || {
        let id = picked.get()?;
        if id == CUSTOM_ID {
            return None;
        }
        shown_locks.iter().find(|spec| spec.id == id).cloned()
    };
    let is_custom = move || picked.with(|p| p.as_deref() == Some(CUSTOM_ID));

    view! {
        <div class="ck" data-check>
            <picker::Picker locks=locks picked on_pick />
            <verdicts::Summary picked state />
            {move || shown().map(|spec| view! { <scripts::LockScripts spec /> })}
            <Show when=is_custom>
                <custom::CustomEditor texts=custom on_check=on_check_custom state />
            </Show>
            <explore::ProgressLine state />
            <custom::CheckError state />
            <verdicts::VerdictRows state open />
            <counterexample::Counterexample state open />
        </div>
    }
}
