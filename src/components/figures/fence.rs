//! Figure 2, the fenced write: a resource that has accepted token 34 and three writers to hover,
//! focus or tap. Each writer's write is a what-if run in ministore against the "seen 34" state,
//! once, when the figure is created; the readout and static verdicts are rendered from those runs.

use leptos::prelude::*;

use super::readout::{Mark, Readout, ReadoutText};
use super::selection::{ChoiceButton, Selection};
use super::verdicts::{StaticVerdicts, VerdictLine};
use crate::scenarios::fence::{caption, idle_readout, max_seen_in_setup, FenceOutcome, FENCE_KEY};

/// ✓ when the write went through the fence, ✗ when it was fenced out.
fn mark(outcome: &FenceOutcome) -> Mark {
    Mark {
        ok: outcome.accepted,
        word: outcome.word().to_string(),
    }
}

/// One writer's lane: its button, the write travelling to the fence, and what the fence did.
#[component]
fn WriterRow(
    /// The writer's what-if run.
    outcome: FenceOutcome,
    /// The figure's selection, which the button drives.
    selection: Selection<i64>,
) -> impl IntoView {
    let token = outcome.token;
    let result = mark(&outcome);
    let after = match (outcome.max_seen_before, outcome.max_seen_after) {
        (Some(before), Some(after)) if before != after => format!("max seen {before} → {after}"),
        (_, Some(after)) => format!("max seen stays {after}"),
        (_, None) => "no max seen".to_string(),
    };
    view! {
        <div
            class="fw-row"
            class:is-lit=move || selection.shown() == Some(token)
            data-path=outcome.writer.hook()
            data-tone=result.tone()
        >
            <ChoiceButton selection choice={token} {..} data-writer=outcome.writer.hook()>
                <span class="fig-choice-label">{outcome.writer.label()}</span>
            </ChoiceButton>
            <div class="fw-wire">
                <span class="fw-write">"write(…, " {token} ")"</span>
                <span class="fw-check">{outcome.comparison()}</span>
            </div>
            <div class="fw-result" data-tone=result.tone()>
                <span class="fig-mark">
                    <span aria-hidden="true">{result.icon()}</span>
                    " "
                    {result.word.clone()}
                </span>
                <span class="fw-after">{after}</span>
            </div>
        </div>
    }
}

/// The fenced-write figure, `figure[data-figure="fence"]`.
#[component]
pub fn FenceFigure() -> impl IntoView {
    let seen = max_seen_in_setup();
    let outcomes = FenceOutcome::run_all();
    let readouts = StoredValue::new(
        outcomes
            .iter()
            .map(|o| {
                (
                    o.token,
                    ReadoutText {
                        mark: Some(mark(o)),
                        sentence: o.readout(),
                        evidence: o.evidence(),
                    },
                )
            })
            .collect::<Vec<_>>(),
    );
    let idle = ReadoutText::idle(idle_readout(seen));
    let selection = Selection::<i64>::new("[data-writer]");
    let text = Signal::derive(move || {
        selection
            .shown()
            .and_then(|token| {
                readouts.with_value(|r| r.iter().find(|(t, _)| *t == token).map(|(_, t)| t.clone()))
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
    let seen_text = seen.map_or_else(|| "(nil)".to_string(), |m| m.to_string());

    view! {
        <figure
            class="fig fig-fence"
            data-figure="fence"
            data-selected=move || selection.shown().map(|t| t.to_string())
        >
            <figcaption>{caption(seen)}</figcaption>
            <div class="fw-drawing" role="group" aria-label="Three writers present their fencing tokens">
                <div class="fw-resource">
                    <span class="fw-resource-name">"protected resource"</span>
                    <span>"max seen: " <code>{FENCE_KEY}</code> " = " <strong>{seen_text}</strong></span>
                </div>
                {outcomes.into_iter().map(|outcome| view! { <WriterRow outcome selection /> }).collect_view()}
            </div>
            <Readout text />
            <StaticVerdicts lines=verdicts />
        </figure>
    }
}
