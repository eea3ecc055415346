//! The rows of the attempts figure: one per frame of the run (enqueue, W1 claims, W1 stalls,
//! the reaper runs, W2 claims) with a cell per lane (W1, W2, reaper, the job hash), and one row
//! per [`Transition`] whose button tries it against the fence.

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::{PATH, TONE};

use super::attempts_cells::{
    BranchLabel, CommandLine, Exchange, JobCell, RowLabel, TransitionButton, TransitionResult,
};
use super::lane::LaneCell;
use super::readout::Mark;
use crate::scenarios::attempts::{
    AttemptsFrame, AttemptsRun, FrameKind, Lane, Transition, TransitionOutcome,
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
    Mark::new(outcome.accepted(), outcome.word())
}

/// The short name of what a frame sends.
fn call_of(kind: FrameKind) -> &'static str {
    match kind {
        FrameKind::Enqueue => "HSET · ZADD",
        FrameKind::Claim => "@claim",
        FrameKind::Reap => "reap",
        FrameKind::Stall => "",
    }
}

/// One frame of the run across the four lanes.
#[component]
pub fn FrameRow(
    /// The run the frame belongs to.
    run: AttemptsRun,
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
            (Some(lane), _) => run.still_stalled(lane, &frame).map(IntoAny::into_any),
        };
        view! { <LaneCell label body /> }
    });
    view! {
        <div class="ll-row at-row" data-step=frame.number>
            <RowLabel number=frame.number title=frame.title() time=frame.time_label() />
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
    /// The virtual clock when it runs.
    clock_ms: u64,
) -> impl IntoView {
    let transition = outcome.transition;
    let result = mark(&outcome);
    let worker = transition.worker();
    let reply = crate::scenarios::cli_text(&outcome.reply);
    let acts = match transition {
        Transition::W1Complete | Transition::W2Complete => "completes",
        Transition::W1Retry => "retries",
    };
    let title = format!("what if {} {acts}", worker.name());
    let cells = LANES.map(|(lane, label)| {
        let body = match lane {
            Some(l) if l == worker => Some(
                view! {
                    <TransitionButton transition presented=outcome.presented reply=reply.clone() />
                }
                .into_any(),
            ),
            Some(_) => None,
            None => Some(
                view! {
                    <TransitionResult result=result.clone() comparison=outcome.comparison() job=outcome.job_after.clone() />
                }
                .into_any(),
            ),
        };
        view! { <LaneCell label body /> }
    });
    view! {
        <div
            class="ll-row ll-release at-row"
            {..custom_attribute(PATH, transition.hook())}
            {..custom_attribute(TONE, result.tone())}
        >
            <BranchLabel title clock_ms />
            {cells.into_iter().collect_view()}
            <CommandLine actor=Some(worker) command=outcome.command.clone() />
        </div>
    }
}
