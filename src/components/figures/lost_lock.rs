//! Figure 1, the lost-lock deletion: the scenario's five steps in three lanes, two release
//! choices to hover, focus or tap, a live readout and the static verdicts — all rendered from
//! the two store runs made once when the figure is created.

use leptos::prelude::*;

use super::lost_lock_rows::{mark, ReleaseRow, StepRow};
use super::player::ScenarioPlayer;
use super::readout::{Readout, ReadoutTemplates, ReadoutText};
use super::selection::Selection;
use super::verdicts::{StaticVerdicts, VerdictLine};
use crate::scenarios::lost_lock::{
    idle_readout, LostLockOutcome, ReleaseChoice, StepKind, LOCK_KEY,
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
    let selection = Selection::<ReleaseChoice>::new("[data-release]");
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
    let setup_steps = outcomes
        .first()
        .map(|o| {
            o.steps
                .iter()
                .filter(|s| s.kind != StepKind::Release)
                .cloned()
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();

    view! {
        <figure
            class="fig fig-lost-lock"
            data-figure="lost-lock"
            data-selected=move || selection.shown().map(ReleaseChoice::hook)
        >
            <figcaption>{CAPTION}</figcaption>
            <div class="ll-drawing" role="group" aria-label="A and B contend for resource:lock">
                <div class="ll-row ll-head" aria-hidden="true">
                    <div class="ll-step">"step"</div>
                    <div class="ll-cell">"client A"</div>
                    <div class="ll-cell">"client B"</div>
                    <div class="ll-cell"><code>{LOCK_KEY}</code></div>
                </div>
                {setup_steps.into_iter().map(|step| view! { <StepRow step /> }).collect_view()}
                {outcomes.into_iter().map(|outcome| view! { <ReleaseRow outcome selection /> }).collect_view()}
            </div>
            <Readout text />
            <ReadoutTemplates idle=idle_template choices=templates />
            <StaticVerdicts lines=verdicts />
            <ScenarioPlayer />
        </figure>
    }
}
