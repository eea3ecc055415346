//! Figure 3, the attempts fence of §4: W1 claims job 42 and stalls, the reaper moves the job
//! back, W2 re-claims it; then W1's complete, W1's retry and W2's complete meet the fence. All
//! rendered from one ministore run made when the figure is created; the full scripts are
//! behind a disclosure, shown from the same text the run executed.

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::FIGURE;
use lockdive_contract::Figure;

use super::attempts_rows::{mark, FrameRow, TransitionRow, LANES};
use super::readout::{FigureCaveat, Readout, ReadoutTemplates, ReadoutText};
use super::scripts::ScriptsDisclosure;
use super::verdicts::{StaticVerdicts, VerdictLine};
use crate::components::highlight::Lang;
use crate::content::model::CodeSample;
use crate::scenarios::attempts::{
    job_key, AttemptsRun, CLAIM_SCRIPT, COMPLETE_SCRIPT, REAP_SCRIPT, RETRY_SCRIPT, SCRIPTS,
};

/// The four scripts as code samples, in [`SCRIPTS`] order (the same `include_str!` texts).
static SCRIPT_SAMPLES: [CodeSample; 4] = [
    CodeSample {
        lang: Lang::Lua,
        text: CLAIM_SCRIPT,
    },
    CodeSample {
        lang: Lang::Lua,
        text: COMPLETE_SCRIPT,
    },
    CodeSample {
        lang: Lang::Lua,
        text: RETRY_SCRIPT,
    },
    CodeSample {
        lang: Lang::Lua,
        text: REAP_SCRIPT,
    },
];

/// What the full scripts are: a model, with §4's quoted lines in it.
pub const SCRIPTS_SUMMARY: &str =
    "The full scripts this figure runs — a model of EchoMQ's @claim / \
@complete / @retry: the lines quoted in §4 are from jobs.ex, the rest is this page's";

/// The attempts figure, `figure[data-figure="attempts"]`.
#[component]
pub fn AttemptsFigure() -> impl IntoView {
    let run = AttemptsRun::run();
    let idle = ReadoutText::idle(run.idle_readout());
    let templates = run
        .outcomes
        .iter()
        .map(|o| {
            let text = ReadoutText {
                mark: Some(mark(o)),
                sentence: o.readout(),
                evidence: o.evidence(),
                caveat: o.readout_caveat(),
            };
            (o.transition.hook(), text)
        })
        .collect::<Vec<_>>();
    let verdicts = run
        .outcomes
        .iter()
        .map(|o| VerdictLine {
            mark: mark(o),
            text: o.verdict(),
        })
        .collect();
    let clock_ms = run.reclaimed_state().now_ms();
    let transitions = run
        .outcomes
        .clone()
        .into_iter()
        .map(|outcome| view! { <TransitionRow outcome clock_ms /> })
        .collect_view();
    let caption = run.caption();
    let caveat = run.outcomes.iter().find_map(|o| o.caveat());
    let scripts = SCRIPTS
        .iter()
        .zip(SCRIPT_SAMPLES.iter())
        .map(|((name, _), sample)| (*name, sample))
        .collect::<Vec<_>>();
    let notes = vec![run.lease_check_note()];

    view! {
        <figure class="fig fig-attempts" {..custom_attribute(FIGURE, Figure::Attempts.hook())}>
            <figcaption>{caption}</figcaption>
            <div class="ll-drawing at-drawing" role="group" aria-label="W1, W2 and the reaper move job 42; its attempts field is the fence">
                <div class="ll-row ll-head at-row" aria-hidden="true">
                    <div class="ll-step">"step"</div>
                    {LANES
                        .iter()
                        .map(|(lane, label)| match lane {
                            Some(_) => view! { <div class="ll-cell">{*label}</div> }.into_any(),
                            None => view! { <div class="ll-cell"><code>{job_key()}</code></div> }.into_any(),
                        })
                        .collect_view()}
                </div>
                {run
                    .frames
                    .iter()
                    .map(|frame| view! { <FrameRow run=run.clone() frame=frame.clone() /> })
                    .collect_view()}
                <p class="ll-branch-head">
                    <span aria-hidden="true">"↳ "</span>
                    {format!("What if — three alternatives, each from the same store at t = {clock_ms} ms:")}
                </p>
                {transitions}
            </div>
            <Readout text=idle.clone() />
            <ReadoutTemplates idle choices=templates />
            <StaticVerdicts lines=verdicts />
            {caveat.map(|caveat| view! { <FigureCaveat caveat /> })}
            <ScriptsDisclosure summary=SCRIPTS_SUMMARY.to_string() scripts notes />
        </figure>
    }
}
