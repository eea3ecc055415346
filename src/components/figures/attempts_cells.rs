//! The cells the attempts figure's rows are made of: a row's label and clock, a call and its
//! reply in a lane, job 42's hash, the full command line under a row, and a transition's button
//! (in its worker's lane) and result (in the job hash's lane).

use leptos::prelude::*;
use lockdive_contract::hooks::CHOICE_LABEL;

use super::choice::ChoiceButton;
use super::readout::Mark;
use crate::scenarios::attempts::{JobHash, Lane, Transition};

/// A row's number, title and the virtual clock.
#[component]
pub fn RowLabel(
    /// 1, 2, …
    number: u8,
    /// `W1 claims`.
    title: String,
    /// The virtual clock: `t = 0 ms`, or `t = 0 → 13000 ms` for the stall.
    time: String,
) -> impl IntoView {
    view! {
        <div class="ll-step">
            <span class="ll-no">{number}</span>
            <span class="ll-title">
                {title}
                <span class="ll-clock">{time}</span>
            </span>
        </div>
    }
}

/// An alternative's label: a branch mark instead of a step number, its title and the clock.
#[component]
pub fn BranchLabel(
    /// `what if W1 completes`.
    title: String,
    /// The virtual clock, in milliseconds: the same for every alternative.
    clock_ms: u64,
) -> impl IntoView {
    view! {
        <div class="ll-step">
            <span class="ll-no ll-branch" aria-hidden="true">"↳"</span>
            <span class="ll-title">
                {title}
                <span class="ll-clock">"t = " {clock_ms} " ms"</span>
            </span>
        </div>
    }
}

/// A call in a lane, named short (`@claim`), and the reply redis-cli prints for it (arrays keep
/// their numbered lines). The full command line runs under the row, across the lanes.
#[component]
pub fn Exchange(
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

/// The job hash's fields and where the job sits.
#[component]
pub fn JobCell(
    /// Job 42 at this moment.
    job: JobHash,
) -> impl IntoView {
    view! {
        <code class="at-fields">{job.fields()}</code>
        <span class="ll-reply">{job.place()}</span>
    }
}

/// The full command line a row sent, spanning the lanes under it.
#[component]
pub fn CommandLine(
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

/// A transition's button, which selects it (`[data-complete]` or `[data-retry]`, valued with
/// the worker), and the reply the fence gave it.
#[component]
pub fn TransitionButton(
    /// The transition the button selects.
    transition: Transition,
    /// The `att` the worker presents.
    presented: Option<i64>,
    /// The script's reply as redis-cli prints it.
    reply: String,
) -> impl IntoView {
    let worker = transition.worker().hook();
    let (complete_hook, retry_hook) = match transition.verb() {
        "retry" => (None, Some(worker)),
        _ => (Some(worker), None),
    };
    view! {
        <ChoiceButton {..} data-complete=complete_hook data-retry=retry_hook>
            <span class=CHOICE_LABEL>{transition.label()}</span>
            <code class="ll-cmd">"@" {transition.verb()} " att=" {presented}</code>
        </ChoiceButton>
        <span class="ll-reply at-reply">"→ " <code>{reply}</code></span>
    }
}

/// What a transition did to job 42: ✓ or ✗ with its word, the fence's comparison, the job after.
#[component]
pub fn TransitionResult(
    /// Whether the fence let the transition through.
    result: Mark,
    /// The fence's comparison (`att 1 ≠ attempts 2`).
    comparison: String,
    /// Job 42 afterwards.
    job: JobHash,
) -> impl IntoView {
    view! {
        <span class="fig-mark">
            <span aria-hidden="true">{result.icon()}</span>
            " "
            {result.word}
        </span>
        " · "
        {comparison}
        <JobCell job />
    }
}
