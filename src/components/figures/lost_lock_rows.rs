//! The rows of figure 1's drawing: §1's steps 1–3, one row each with a cell per lane (client A,
//! client B, the key `resource:lock`), then steps 4–5 once per [`ReleaseChoice`](crate::scenarios::lost_lock::ReleaseChoice): two
//! alternatives from the same moment.

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::{CHOICE_LABEL, PATH, RELEASE, TONE};

use super::choice::ChoiceButton;
use super::lane::{LaneCell, LaneName};
use super::readout::Mark;
use crate::scenarios::lost_lock::{
    describe_expired, describe_key, Client, Exclusion, LockStep, LostLockOutcome, StepKind,
};

/// The lanes, left to right, with the label a narrow screen shows in each cell.
const LANES: [(Option<Client>, &str); 3] = [
    (Some(Client::A), "client A"),
    (Some(Client::B), "client B"),
    (None, "resource:lock"),
];

/// ✗ when the release broke mutual exclusion itself; ⚠ when it did its part but two clients
/// had already believed they held the lock at once; ✓ when nothing overlapped. A ✗ is named by
/// what the release did (step 5's name, `wrong lock`), as the readout's sentence already ends in
/// `exclusion broken`.
pub fn mark(outcome: &LostLockOutcome) -> Mark {
    match outcome.exclusion() {
        Exclusion::BrokenByRelease => Mark::new(false, outcome.aftermath_title()),
        Exclusion::BrokenBeforeRelease => {
            let word = if outcome.key_after_release() == outcome.found_before_release() {
                "no-op"
            } else {
                "released"
            };
            Mark::warn(word)
        }
        Exclusion::Held => Mark::new(true, "exclusion held"),
    }
}

/// A command and the reply redis-cli would print for it.
#[component]
fn Exchange(
    /// The command line sent.
    command: String,
    /// The reply as redis-cli prints it.
    reply: String,
) -> impl IntoView {
    view! {
        <code class="ll-cmd">{command}</code>
        <span class="ll-reply">"→ " <code>{reply}</code></span>
    }
}

/// A step's number, name and time.
#[component]
fn StepLabel(
    /// §1's number.
    number: u8,
    /// The step's name, from the run.
    title: String,
    /// `t = 12500 ms`, or the stall's span.
    time: String,
) -> impl IntoView {
    view! {
        <div class="ll-step" data-step-label=number>
            <span class="ll-no">{number}</span>
            <span class="ll-title">
                <span class="ll-name">{title}</span>
                <span class="ll-clock">{time}</span>
            </span>
        </div>
    }
}

/// What the key's lane shows for a step: what the key holds after it, and for the stall the
/// moment inside it at which the store expired the lock.
fn key_cell(step: &LockStep) -> AnyView {
    match &step.expired {
        Some(expiry) => view! {
            <span class="ll-expiry">
                {format!("t = {} ms: the store expires {} → ", expiry.at_ms, describe_expired(&expiry.lock))}
                <code>"(nil)"</code>
            </span>
        }
        .into_any(),
        None => describe_key(step.key_after.as_ref()).into_any(),
    }
}

/// One of steps 1–3 across the three lanes.
#[component]
pub fn StepRow(
    /// The run the step belongs to.
    run: LostLockOutcome,
    /// Which step (1 to 3).
    number: u8,
) -> impl IntoView {
    let step = run.step(number).cloned();
    step.map(|step| {
        let cells = LANES.map(|(lane, label)| {
            let body = match (lane, step.kind) {
                (None, _) => Some(key_cell(&step)),
                (Some(client), StepKind::Stall) if step.actor == Some(client) => {
                    Some(format!("stalls, still working: {}", step.time_label()).into_any())
                }
                (Some(client), _) if step.actor == Some(client) => {
                    let command = step.command.clone().unwrap_or_default();
                    let reply = step.reply_text().unwrap_or_default();
                    Some(view! { <Exchange command reply /> }.into_any())
                }
                (Some(client), _) => run.still_stalled(client, &step).map(IntoAny::into_any),
            };
            view! { <LaneCell label body /> }
        });
        view! {
            <div class="ll-row" data-step=step.number>
                <StepLabel number=step.number title=run.title_of(&step) time=step.time_label() />
                {cells.into_iter().collect_view()}
            </div>
        }
    })
}

/// The row that opens the alternatives: both releases start from the store after step 3.
#[component]
pub fn BranchHead(
    /// When the alternatives start.
    clock_ms: u64,
) -> impl IntoView {
    view! {
        <p class="ll-branch-head">
            <span aria-hidden="true">"↳ "</span>
            {format!(
                "Steps 4–5, two alternatives from the same store at t = {clock_ms} ms: how A releases decides them."
            )}
        </p>
    }
}

/// Steps 4 and 5 for one release choice: the button that selects it, what A's release replied,
/// and what the next client's try found.
#[component]
pub fn ReleaseRow(
    /// The run with this release.
    outcome: LostLockOutcome,
) -> impl IntoView {
    let choice = outcome.choice;
    let tone = mark(&outcome).tone();
    let release = outcome.release_step().cloned();
    let probe = outcome.probe_step().cloned();
    let command = release
        .as_ref()
        .and_then(|s| s.command.clone())
        .unwrap_or_default();
    let reply = release
        .as_ref()
        .and_then(LockStep::reply_text)
        .unwrap_or_default();
    let b_fate = match (outcome.deleted_lock_of(), outcome.holder_after()) {
        (Some(victim), _) if victim != Client::A => {
            // The mark is for the eye, as every mark on the page is; the words say it.
            let fate = format!(
                "{}'s lock deleted — {} still believes it holds it",
                victim.name(),
                victim.name()
            );
            view! { <span aria-hidden="true">"✗ "</span> {fate} }.into_any()
        }
        (_, Some(holder)) => format!("{}'s lock stands", holder.name()).into_any(),
        _ => "no lock under the key".into_any(),
    };
    let after = format!("after A: {}", describe_key(outcome.key_after_release()));
    let labels = [release.as_ref(), probe.as_ref()]
        .into_iter()
        .flatten()
        .map(|s| view! { <StepLabel number=s.number title=outcome.title_of(s) time=s.time_label() /> })
        .collect_view();
    let next = probe.map(|p| {
        let command = p.command.clone().unwrap_or_default();
        let reply = p.reply_text().unwrap_or_default();
        view! { <span class="ll-probe">"next client: " <Exchange command reply /></span> }
    });
    view! {
        <div class="ll-row ll-release" {..custom_attribute(PATH, choice.hook())} {..custom_attribute(TONE, tone)}>
            <div class="ll-steps">{labels}</div>
            <div class="ll-cell" data-lane=LANES[0].1>
                <LaneName label=LANES[0].1 />
                <ChoiceButton {..custom_attribute(RELEASE, choice.hook())}>
                    <span class=CHOICE_LABEL>{choice.label()}</span>
                    <code class="ll-cmd">{command}</code>
                </ChoiceButton>
                <span class="ll-reply">"→ " <code>{reply}</code></span>
            </div>
            <LaneCell label=LANES[1].1 body=Some(b_fate) />
            <div class="ll-cell ll-end" data-lane=LANES[2].1>
                <LaneName label=LANES[2].1 />
                {after} {next}
            </div>
        </div>
    }
}
