//! A broken property's counterexample (`[data-counterexample]`): the explorer's shortest breaking
//! schedule as a step list — who did what, the command as sent, the store's reply — and a step
//! player over it like figure 1's: back and forward, the shown step's exchange, the virtual clock
//! and every key the store held after it (the same table figure 1's player shows).

use std::sync::Arc;

use leptos::ev;
use leptos::prelude::*;

use super::CheckState;
use crate::components::figures::player_frame::key_rows;
use crate::scenarios::cli_text;
use crate::scenarios::lockcheck::{CheckReport, ScheduleStep};

/// Who acted, as the list and the player say it: `A`, or `clock` for a stall.
fn actor(step: &ScheduleStep) -> &'static str {
    step.client.map_or("clock", |c| c.name())
}

/// The open counterexample, or nothing.
#[component]
pub fn Counterexample(
    /// The figure's state.
    state: RwSignal<CheckState>,
    /// Which property's counterexample is open (its index in the report).
    open: RwSignal<Option<usize>>,
) -> impl IntoView {
    let shown = Memo::new(move |_| {
        let index = open.get()?;
        state.with(|s| match s {
            CheckState::Done(report, _) => Some((report.clone(), index)),
            _ => None,
        })
    });
    move || {
        shown.get().and_then(|(report, index)| {
            report.properties.get(index)?.counterexample.as_ref()?;
            Some(view! { <CounterexamplePlayer report index /> })
        })
    }
}

/// The step list and the player for the property at `index`.
#[component]
fn CounterexamplePlayer(
    /// The report holding the counterexample.
    report: Arc<CheckReport>,
    /// The property's index in it.
    index: usize,
) -> impl IntoView {
    let property = &report.properties[index];
    let steps: Arc<Vec<ScheduleStep>> = Arc::new(
        property
            .counterexample
            .as_ref()
            .map(|c| c.steps.clone())
            .unwrap_or_default(),
    );
    let count = steps.len();
    let at = RwSignal::new(0usize);
    let nudge = move |delta: isize| {
        at.update(|s| *s = s.saturating_add_signed(delta).min(count.saturating_sub(1)))
    };
    let on_key = move |e: ev::KeyboardEvent| {
        match e.key().as_str() {
            "ArrowRight" | "ArrowDown" => nudge(1),
            "ArrowLeft" | "ArrowUp" => nudge(-1),
            "Home" => at.set(0),
            "End" => at.set(count.saturating_sub(1)),
            _ => return,
        }
        e.prevent_default();
    };
    let list = steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let current = move || at.get() == i;
            let line = format!("{}> {}", actor(step), step.sent.short);
            let reply = cli_text(&step.sent.reply);
            view! {
                <li class:is-current=current aria-current=move || current().then_some("step") data-action=step.action.hook()>
                    <button type="button" tabindex="-1" on:click=move |_| at.set(i)>
                        <span class="ck-step-no">{i + 1}</span>
                        <span class="ck-step-note">{step.note.clone()}</span>
                        <code class="ck-step-line">{line}</code>
                        " → "
                        <code>{reply}</code>
                    </button>
                </li>
            }
        })
        .collect_view();
    let frame_steps = steps.clone();
    let frame = move || {
        let i = at.get().min(count.saturating_sub(1));
        frame_steps.get(i).cloned().map(|step| {
            let exchange = format!("{}> {}", actor(&step), step.sent.short);
            let reply = cli_text(&step.sent.reply);
            view! {
                <p class="pl-now" data-step-now>
                    {format!("Step {} of {count}: {}", i + 1, step.note)}
                </p>
                <p class="pl-exchange">
                    <code>{exchange}</code>
                    " → "
                    <code>{reply}</code>
                </p>
                <p class="pl-clocks">
                    <span>"virtual clock " <strong data-step-clock>{format!("t = {} ms", step.clock_ms)}</strong></span>
                </p>
                <table class="pl-keys" data-step-keys>
                    <caption>{format!("The store after step {}", i + 1)}</caption>
                    <thead><tr><th scope="col">"key"</th><th scope="col">"value"</th><th scope="col">"PTTL"</th></tr></thead>
                    <tbody>{key_rows(&step.keys_after)}</tbody>
                </table>
            }
        })
    };
    let at_start = move || at.get() == 0;
    let at_end = move || at.get() + 1 >= count;
    let label = format!(
        "Counterexample: {} — the shortest schedule that breaks it",
        property.property.label()
    );
    let title = label.clone();
    view! {
        <section class="ck-cx" id="ck-counterexample" data-counterexample aria-label=title>
            <p class="ck-cx-title">{label}</p>
            <ol
                class="ck-cx-steps"
                tabindex="0"
                aria-label="Steps: ← and → move through them, Home and End jump to the ends"
                on:keydown=on_key
            >
                {list}
            </ol>
            <div class="pl-transport" role="group" aria-label="Counterexample player">
                <button type="button" data-step-back aria-disabled=move || at_start().to_string() on:click=move |_| nudge(-1)>
                    <span aria-hidden="true">"◀ "</span>
                    "Back"
                </button>
                <button type="button" data-step-forward aria-disabled=move || at_end().to_string() on:click=move |_| nudge(1)>
                    "Forward"
                    <span aria-hidden="true">" ▶"</span>
                </button>
            </div>
            <div class="pl-frame" aria-live="polite">{frame}</div>
        </section>
    }
}
