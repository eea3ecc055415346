//! Figure 1, the lost-lock deletion: §1's five steps in three lanes, steps 4–5 once per release
//! choice to hover, focus or tap, the readout with one source per choice, the static verdicts —
//! all rendered from the lost-lock model's two runs at its default setup, the player's default
//! too — and the player's slot, the figure's only live part.

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::FIGURE;
use lockdive_contract::Figure;

use super::lost_lock_rows::{mark, BranchHead, ReleaseRow, StepRow};
use super::player::ScenarioPlayer;
use super::readout::{FigureCaveat, Readout, ReadoutTemplates, ReadoutText};
use super::slot::{LivePart, LiveSlot};
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
    let templates = outcomes
        .iter()
        .map(|o| {
            let text = ReadoutText {
                mark: Some(mark(o)),
                sentence: o.readout(),
                evidence: o.evidence(),
                caveat: o.readout_caveat(),
            };
            (o.choice.hook().to_string(), text)
        })
        .collect::<Vec<_>>();
    let idle = ReadoutText::idle(idle);
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
        <figure class="fig fig-lost-lock" {..custom_attribute(FIGURE, Figure::LostLock.hook())}>
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
                {outcomes.into_iter().map(|outcome| view! { <ReleaseRow outcome /> }).collect_view()}
            </div>
            <p class="fig-def">
                "Mutual exclusion breaks when " {EXCLUSION_BROKEN_MEANS} "."
            </p>
            <Readout text=idle.clone() />
            <ReadoutTemplates idle choices=templates />
            <StaticVerdicts lines=verdicts />
            {caveat.map(|caveat| view! { <FigureCaveat caveat /> })}
            <LiveSlot part=LivePart::Player>
                <ScenarioPlayer />
            </LiveSlot>
        </figure>
    }
}
