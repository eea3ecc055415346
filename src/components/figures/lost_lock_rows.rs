//! The rows of figure 1's drawing: one per scenario step, with a cell in each lane (client A,
//! client B, the key `resource:lock`), and one release row per [`ReleaseChoice`].

use leptos::prelude::*;

use super::readout::Mark;
use super::selection::{ChoiceButton, Selection};
use crate::scenarios::lost_lock::{
    describe_key, Client, LockStep, LostLockOutcome, ReleaseChoice, StepKind,
};

/// The lanes, left to right, with the label a narrow screen shows in each cell.
const LANES: [(Option<Client>, &str); 3] = [
    (Some(Client::A), "client A"),
    (Some(Client::B), "client B"),
    (None, "resource:lock"),
];

/// ✓ when mutual exclusion held after the release, ✗ when it broke.
pub fn mark(outcome: &LostLockOutcome) -> Mark {
    let ok = !outcome.exclusion_broken();
    Mark {
        ok,
        word: if ok { "safe" } else { "unsafe" }.to_string(),
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

/// A step's number, title and the virtual clock after it.
#[component]
fn StepLabel(
    /// The step as the store run recorded it.
    step: LockStep,
) -> impl IntoView {
    view! {
        <div class="ll-step">
            <span class="ll-no">{step.number}</span>
            <span class="ll-title">
                {step.title()}
                <span class="ll-clock">"t = " {step.clock_ms} " ms"</span>
            </span>
        </div>
    }
}

/// One of steps 1–4 across the three lanes.
#[component]
pub fn StepRow(
    /// The step as the store run recorded it.
    step: LockStep,
) -> impl IntoView {
    let cells = LANES.map(|(lane, label)| {
        let body = match (lane, step.kind) {
            (None, _) => Some(describe_key(step.key_after.as_ref()).into_any()),
            (Some(client), StepKind::Stall) if step.actor == Some(client) => {
                Some("stalls, still working".into_any())
            }
            (Some(client), _) if step.actor == Some(client) => {
                let command = step.command.clone().unwrap_or_default();
                let reply = step.reply_text().unwrap_or_default();
                Some(view! { <Exchange command reply /> }.into_any())
            }
            _ => None,
        };
        view! { <div class="ll-cell" data-lane=label>{body}</div> }
    });
    view! {
        <div class="ll-row" data-step=step.number>
            <StepLabel step=step.clone() />
            {cells.into_iter().collect_view()}
        </div>
    }
}

/// Step 5 for one release choice: the button that selects it, and what the run ended with.
#[component]
pub fn ReleaseRow(
    /// The run with this release.
    outcome: LostLockOutcome,
    /// The figure's selection, which the button drives.
    selection: Selection<ReleaseChoice>,
) -> impl IntoView {
    let choice = outcome.choice;
    let tone = mark(&outcome).tone();
    let step = outcome.release_step().cloned();
    let command = step
        .as_ref()
        .and_then(|s| s.command.clone())
        .unwrap_or_default();
    let reply = step
        .as_ref()
        .and_then(LockStep::reply_text)
        .unwrap_or_default();
    let b_fate = match (outcome.deleted_lock_of(), outcome.holder_after()) {
        (Some(victim), _) => {
            let goes_on = if outcome.proceeding().contains(&victim) {
                format!(" — {} still proceeds", victim.name())
            } else {
                String::new()
            };
            format!("✗ {}'s lock deleted{goes_on}", victim.name())
        }
        (_, Some(holder)) => format!("✓ {}'s lock stands", holder.name()),
        _ => "no lock under the key".to_string(),
    };
    let end = format!("at the end: {}", describe_key(outcome.key_after.as_ref()));
    view! {
        <div
            class="ll-row ll-release"
            class:is-lit=move || selection.shown() == Some(choice)
            data-path=choice.hook()
            data-tone=tone
        >
            {step.clone().map(|step| view! { <StepLabel step /> })}
            <div class="ll-cell" data-lane="client A">
                <ChoiceButton selection choice {..} data-release=choice.hook()>
                    <span class="fig-choice-label">{choice.label()}</span>
                    <code class="ll-cmd">{command}</code>
                </ChoiceButton>
                <span class="ll-reply">"→ " <code>{reply}</code></span>
            </div>
            <div class="ll-cell" data-lane="client B">{b_fate}</div>
            <div class="ll-cell ll-end" data-lane="resource:lock">{end}</div>
        </div>
    }
}
