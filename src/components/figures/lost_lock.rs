//! Figure 1, the lost-lock deletion: §1's five steps in three lanes, steps 4–5 once per release
//! choice to hover, focus or tap, a live readout and the static verdicts — all rendered from the
//! lost-lock model's two runs at its default setup, the player's default too.

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::{FIGURE, RELEASE_SELECTOR};
use lockdive_contract::Figure;

use super::lost_lock_rows::{mark, BranchHead, ReleaseRow, StepRow};
use super::player::ScenarioPlayer;
use super::readout::{FigureCaveat, Readout, ReadoutTemplates, ReadoutText};
use super::selection::Selection;
use super::verdicts::{StaticVerdicts, VerdictLine};
use crate::scenarios::lost_lock::{
    idle_readout, LostLockOutcome, ReleaseChoice, EXCLUSION_BROKEN_MEANS, LOCK_KEY,
};

/// The brief's prompt line for this figure.
const CAPTION: &str = "The lost-lock deletion — blind DEL vs a token check. Hover a release to \
                       light its path and read what the resource holds at the end.";

/// The lost-lock figure, `figure[data-figure="lost-lock"]`.
#[component]
pub fn LostLockFigure() -> impl IntoView {
    let outcomes: Vec<LostLockOutcome> = ReleaseChoice::ALL
        .into_iter()
        .map(LostLockOutcome::run)
        .collect();
    let idle = match outcomes.as_slice() {
        [blind, checked] => idle_readout(blind, checked),
        _ => String::new(),
    };
    let readouts = StoredValue::new(
        outcomes
            .iter()
            .map(|o| {
                (
                    o.choice,
                    ReadoutText {
                        mark: Some(mark(o)),
                        sentence: o.readout(),
                        evidence: o.evidence(),
                        caveat: o.caveat(),
                    },
                )
            })
            .collect::<Vec<_>>(),
    );
    let idle = ReadoutText::idle(idle);
    let templates = readouts.with_value(|r| {
        r.iter()
            .map(|(choice, text)| (choice.hook().to_string(), text.clone()))
            .collect::<Vec<_>>()
    });
    let idle_template = idle.clone();
    let selection = Selection::<ReleaseChoice>::new(RELEASE_SELECTOR);
    let text = Signal::derive(move || {
        selection
            .shown()
            .and_then(|choice| {
                readouts
                    .with_value(|r| r.iter().find(|(c, _)| *c == choice).map(|(_, t)| t.clone()))
            })
            .unwrap_or_else(|| idle.clone())
    });
    let verdicts = outcomes
        .iter()
        .map(|o| VerdictLine {
            mark: mark(o),
            text: o.verdict(),
        })
        .collect();
    let caveat = outcomes.iter().find_map(LostLockOutcome::caveat);
    // Steps 1–3 are the same in both runs; the figure shows them once, from the first.
    let shared = outcomes.first().cloned();
    let branch_at = shared
        .as_ref()
        .and_then(LostLockOutcome::release_step)
        .map_or(0, |s| s.started_ms);

    view! {
        <figure
            class="fig fig-lost-lock"
            data-selected=move || selection.shown().map(ReleaseChoice::hook)
            {..custom_attribute(FIGURE, Figure::LostLock.hook())}
        >
            <figcaption>{CAPTION}</figcaption>
            <div class="ll-drawing" role="group" aria-label="A and B contend for resource:lock">
                <div class="ll-row ll-head" aria-hidden="true">
                    <div class="ll-step">"step"</div>
                    <div class="ll-cell">"client A"</div>
                    <div class="ll-cell">"client B"</div>
                    <div class="ll-cell"><code>{LOCK_KEY}</code></div>
                </div>
                {shared.map(|run| (1..=3).map(|number| view! { <StepRow run=run.clone() number /> }).collect_view())}
                <BranchHead clock_ms=branch_at />
                {outcomes.into_iter().map(|outcome| view! { <ReleaseRow outcome selection /> }).collect_view()}
            </div>
            <p class="fig-def">
                "Mutual exclusion breaks when " {EXCLUSION_BROKEN_MEANS} "."
            </p>
            <Readout text />
            <ReadoutTemplates idle=idle_template choices=templates />
            <StaticVerdicts lines=verdicts />
            {caveat.map(|caveat| view! { <FigureCaveat caveat /> })}
            <ScenarioPlayer />
        </figure>
    }
}
