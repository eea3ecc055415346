//! The check-lock figure (`#check`): a lock from the explorer's catalogue, or the reader's own, run
//! for every schedule the default bound allows, with one verdict row per property and, for a broken
//! one, the shortest schedule that breaks it, stepped through in a player.
//!
//! - `table`: the catalogue × property verdicts the build computed with `lockcheck::check`
//!   (prerendered only: the lab never renders it, so it reads without wasm and costs the lab nothing);
//! - the live part ([`CheckLockLive`], in the figure's lab slot), rendered as markup (no view
//!   library: the checker's chunk makes it live where it stands, `lockdive::lab::check`):
//!   `picker`, `scripts` (the picked lock's operations as they run, with provenance), `custom`
//!   (text areas for the reader's own lock), `explore` (the progress line and the slices the
//!   explorer runs in), `verdicts` (the rows and the announced summary) and `counterexample` (step
//!   list and player); each renders one part for one state, and the lab puts it in its [`Region`];
//! - `hooks`: the stable selectors tests and the benchmark use.
//!
//! Data flows one way: lock spec → `Explorer` over ministore → `CheckReport` → these views.

pub mod counterexample;
pub mod custom;
pub mod explore;
pub mod hooks;
pub mod picker;
pub mod scripts;
pub mod verdicts;

use std::sync::Arc;

use crate::components::markup::Markup;
use crate::scenarios::lockcheck::{Bound, CheckReport, LockSpec, Progress};

pub use verdicts::summary;

views! {
    mod table;

    use leptos::attr::custom::custom_attribute;
    use leptos::prelude::*;
    use lockdive_contract::hooks::FIGURE;
    use lockdive_contract::Figure;

    use super::{LivePart, LiveSlot};
    use crate::scenarios::lockcheck::catalogue;

    pub use table::StaticCheckTable;
}

#[cfg(all(not(target_arch = "wasm32"), feature = "views"))]
pub use table::catalogue_reports;

/// The live part's element, `[data-check]`, which the lab listens on.
pub const LIVE: &str = "[data-check]";

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
    /// Wall time so far, in whole ms.
    pub ms: u64,
}

impl Counts {
    /// The explorer's progress after `ms` of wall time. Rounded here, as whole numbers: the
    /// line needs no float formatting, which would cost the checker's chunk its code.
    pub fn of(progress: Progress, ms: f64) -> Counts {
        Counts {
            schedules: progress.schedules,
            states: progress.states,
            ms: ms.max(0.0).round() as u64,
        }
    }

    /// `explored N schedules (M states) in T ms`: the line the benchmark reads.
    pub fn line(&self) -> String {
        format!(
            "explored {} schedules ({} states) in {} ms",
            self.schedules, self.states, self.ms
        )
    }

    /// `explored M states in T ms`: the line while exploring, or after it stopped at its cap.
    /// Schedules are counted as the last states are reached, so until exploring completes the
    /// count would read 0.
    pub fn states_line(&self) -> String {
        format!("explored {} states in {} ms", self.states, self.ms)
    }
}

/// The figure: caption, the build's table of every lock's verdicts, and the live part's slot.
#[cfg(feature = "views")]
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
#[cfg(feature = "views")]
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

/// The live part, as the build renders it and the checker's chunk makes live where it stands
/// (`lockdive::lab::check`): nothing picked, the regions (the editor's among them) empty.
#[cfg(feature = "views")]
#[component]
pub fn CheckLockLive() -> impl IntoView {
    view! { <div class="ck" data-check inner_html=live_part(&catalogue::all()).finish()></div> }
}

/// A region of the live part the lab fills as the reader goes: `[data-check-region="<name>"]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// The picked catalogue lock's scripts (`scripts`).
    Scripts,
    /// The reader's own lock's editor (`custom::custom_editor`), once they have picked it.
    Custom,
    /// Why the lock could not be checked (`custom::check_error`).
    Error,
    /// The verdict rows (`verdicts::verdict_rows`).
    Verdicts,
    /// The open counterexample (`counterexample::counterexample`).
    Counterexample,
}

impl Region {
    /// The attribute that names a region.
    pub const ATTRIBUTE: &'static str = "data-check-region";

    /// Its name in the attribute.
    pub fn name(self) -> &'static str {
        match self {
            Region::Scripts => "scripts",
            Region::Custom => "custom",
            Region::Error => "error",
            Region::Verdicts => "verdicts",
            Region::Counterexample => "counterexample",
        }
    }

    /// `[data-check-region="<name>"]`.
    pub fn selector(self) -> String {
        format!(r#"[{}="{}"]"#, Region::ATTRIBUTE, self.name())
    }

    fn empty(self, m: &mut Markup) {
        m.element("div", &[(Region::ATTRIBUTE, self.name())], "");
    }
}

/// The live part's content: picker, readout, the picked lock's scripts or the custom editor, the
/// progress line, the error, the verdicts and the open counterexample.
pub fn live_part(locks: &[LockSpec]) -> Markup {
    let idle = CheckState::Idle;
    let mut m = picker::picker(locks);
    m.append(verdicts::readout(&idle, None));
    Region::Scripts.empty(&mut m);
    Region::Custom.empty(&mut m);
    m.append(explore::progress_line(&idle));
    for region in [Region::Error, Region::Verdicts, Region::Counterexample] {
        region.empty(&mut m);
    }
    m
}
