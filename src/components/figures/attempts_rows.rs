//! The rows of the attempts figure: one per frame of the run (enqueue, W1 claims, W1 stalls,
//! the reaper runs, W2 claims) with a cell per lane (W1, W2, reaper, the job hash), and one row
//! per [`Transition`] whose button tries it against the fence.

use leptos::prelude::*;

use super::readout::Mark;
use super::selection::{ChoiceButton, Selection};
use crate::scenarios::attempts::{
    AttemptsFrame, FrameKind, JobHash, Lane, Transition, TransitionOutcome,
};

/// The lanes, left to right, with the label a narrow screen shows in each cell.
pub const LANES: [(Option<Lane>, &str); 4] = [
    (Some(Lane::W1), "W1"),
    (Some(Lane::W2), "W2"),
    (Some(Lane::Reaper), "reaper"),
    (None, "job hash"),
];

/// ✓ when the fence let the transition through, ✗ when it refused it.
pub fn mark(outcome: &TransitionOutcome) -> Mark {
    Mark {
        ok: outcome.accepted(),
        word: outcome.word().to_string(),
    }
}

/// A call in a lane, named short (`@claim`), and the reply redis-cli prints for it (arrays keep
/// their numbered lines). The full command line runs under the row, across the lanes.
#[component]
fn Exchange(
    /// The short name of the call.
    call: &'static str,
    /// The reply as redis-cli prints it.
    reply: String,
) -> impl IntoView {
    view! {
        <code class="ll-cmd">{call}</code>
        <span class="ll-reply at-reply">"→ " <code>{reply}</code></span>
    }
}

/// The full command line a row sent, spanning the lanes under it.
#[component]
fn CommandLine(
    /// Who sent it (`W1`), or `None` for the enqueue.
    actor: Option<Lane>,
    /// The command line, scripts shown by file name.
    command: String,
) -> impl IntoView {
    let prompt = actor.map_or("setup", Lane::name);
    view! {
        <div class="at-command">
            <code>{prompt} "> " {command}</code>
        </div>
    }
}

/// The short name of what a frame sends.
fn call_of(kind: FrameKind) -> &'static str {
    match kind {
        FrameKind::Enqueue => "HSET + ZADD",
        FrameKind::Claim => "@claim",
        FrameKind::Reap => "reap",
        FrameKind::Stall => "",
    }
}

/// The job hash's fields and where the job sits.
#[component]
fn JobCell(
    /// Job 42 at this moment.
    job: JobHash,
) -> impl IntoView {
    view! {
        <code class="at-fields">{job.fields()}</code>
        <span class="ll-reply">{job.place()}</span>
    }
}

/// A row's number, title and the virtual clock.
#[component]
fn RowLabel(
    /// 1, 2, …
    number: u8,
    /// `W1 claims`.
    title: String,
    /// The virtual clock, in milliseconds.
    clock_ms: u64,
) -> impl IntoView {
    view! {
        <div class="ll-step">
            <span class="ll-no">{number}</span>
            <span class="ll-title">
                {title}
                <span class="ll-clock">"t = " {clock_ms} " ms"</span>
            </span>
        </div>
    }
}

/// One frame of the run across the four lanes.
#[component]
pub fn FrameRow(
    /// The frame as the store run recorded it.
    frame: AttemptsFrame,
) -> impl IntoView {
    let cells = LANES.map(|(lane, label)| {
        let exchange = || {
            let reply = frame.reply_text().unwrap_or_default();
            view! { <Exchange call=call_of(frame.kind) reply /> }
        };
        let body = match (lane, frame.kind) {
            (None, FrameKind::Enqueue) => {
                Some(view! { {exchange()} <JobCell job=frame.job_after.clone() /> }.into_any())
            }
            (None, _) => Some(view! { <JobCell job=frame.job_after.clone() /> }.into_any()),
            (Some(lane), FrameKind::Stall) if frame.actor == Some(lane) => {
                Some("stalls, still working on its copy".into_any())
            }
            (Some(lane), _) if frame.actor == Some(lane) => Some(exchange().into_any()),
            _ => None,
        };
        view! { <div class="ll-cell" data-lane=label>{body}</div> }
    });
    view! {
        <div class="ll-row at-row" data-step=frame.number>
            <RowLabel number=frame.number title=frame.title() clock_ms=frame.clock_ms />
            {cells.into_iter().collect_view()}
            {frame.command.clone().map(|command| view! { <CommandLine actor=frame.actor command /> })}
        </div>
    }
}

/// One transition: the button that selects it in its worker's lane, and the job afterwards.
#[component]
pub fn TransitionRow(
    /// The transition's what-if against the re-claimed state.
    outcome: TransitionOutcome,
    /// Its number in the drawing.
    number: u8,
    /// The virtual clock when it runs.
    clock_ms: u64,
    /// The figure's selection, which the button drives.
    selection: Selection<Transition>,
) -> impl IntoView {
    let transition = outcome.transition;
    let result = mark(&outcome);
    let worker = transition.worker();
    let (complete_hook, retry_hook) = match transition.verb() {
        "retry" => (None, Some(worker.hook())),
        _ => (Some(worker.hook()), None),
    };
    let reply = crate::scenarios::cli_text(&outcome.reply);
    let acts = match transition {
        Transition::W1Complete | Transition::W2Complete => "completes",
        Transition::W1Retry => "retries",
    };
    let title = format!("{} {acts}", worker.name());
    let cells = LANES.map(|(lane, label)| {
        let (reply, presented) = (reply.clone(), outcome.presented);
        let body = match lane {
            Some(l) if l == worker => Some(
                view! {
                    <ChoiceButton selection choice={transition} {..} data-complete=complete_hook data-retry=retry_hook>
                        <span class="fig-choice-label">{transition.label()}</span>
                        <code class="ll-cmd">"@" {transition.verb()} " att=" {presented}</code>
                    </ChoiceButton>
                    <span class="ll-reply at-reply">"→ " <code>{reply}</code></span>
                }
                .into_any(),
            ),
            Some(_) => None,
            None => Some(
                view! {
                    <span class="fig-mark">
                        <span aria-hidden="true">{result.icon()}</span>
                        " "
                        {result.word.clone()}
                    </span>
                    " · "
                    {outcome.comparison()}
                    <JobCell job=outcome.job_after.clone() />
                }
                .into_any(),
            ),
        };
        view! { <div class="ll-cell" data-lane=label>{body}</div> }
    });
    view! {
        <div
            class="ll-row ll-release at-row"
            class:is-lit=move || selection.shown() == Some(transition)
            data-path=transition.key()
            data-tone=result.tone()
        >
            <RowLabel number title clock_ms />
            {cells.into_iter().collect_view()}
            <CommandLine actor=Some(worker) command=outcome.command.clone() />
        </div>
    }
}
