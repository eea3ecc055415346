//! What the player shows: the timeline of §1's five steps (←/→ step when it has focus) and the
//! current one — lease clock, command and reply, every key the store holds — all read from the
//! lost-lock model's run.

use std::sync::Arc;

use leptos::ev;
use leptos::prelude::*;

use super::player_head::PlayHead;
use crate::scenarios::cli_text;
use crate::scenarios::lost_lock::{KeyRow, LockStep, LOCK_KEY};
use crate::scenarios::player::{Timeline, STEP_COUNT};
use ministore::ValueSnapshot;

use crate::components::markup::Markup;

/// The five steps as a list; the current one is marked. Arrow keys, Home and End move.
#[component]
pub fn PlayerTimeline(
    /// The run being played.
    timeline: Memo<Arc<Timeline>>,
    /// The player's position.
    head: PlayHead,
) -> impl IntoView {
    let on_key = move |e: ev::KeyboardEvent| {
        match e.key().as_str() {
            "ArrowRight" | "ArrowDown" => head.nudge(1),
            "ArrowLeft" | "ArrowUp" => head.nudge(-1),
            "Home" => head.step.set(0),
            "End" => head.step.set(STEP_COUNT - 1),
            _ => return,
        }
        e.prevent_default();
    };
    let steps = move || {
        timeline.with(|t| {
            t.steps
                .iter()
                .enumerate()
                .map(|(i, step)| {
                    let current = move || head.step.get() == i;
                    view! {
                        <li class:is-current=current aria-current=move || current().then_some("step")>
                            <button type="button" tabindex="-1" on:click=move |_| head.step.set(i)>
                                <span class="pl-no">{step.number}</span>
                                <span class="pl-step-title">{t.title_of(step)}</span>
                                <span class="pl-t">{step.time_label()}</span>
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <ol
            class="pl-timeline"
            tabindex="0"
            data-player-timeline
            aria-label="Timeline: ← and → step through it, Home and End jump to its ends"
            on:keydown=on_key
        >
            {steps}
        </ol>
    }
}

/// The current frame: the clocks, the step's command and reply, and the store's keys.
#[component]
pub fn FrameView(
    /// The run being played.
    timeline: Memo<Arc<Timeline>>,
    /// The player's position.
    head: PlayHead,
) -> impl IntoView {
    let frame = Memo::new(move |_| {
        timeline.with(|t| {
            let at = head.step.get().min(t.steps.len().saturating_sub(1));
            t.steps
                .get(at)
                .map(|step| (step.clone(), t.title_of(step), t.note(step)))
        })
    });
    let lease = move || timeline.with(|t| t.setup.lease_ms);
    let pttl = move || frame.with(|f| f.as_ref().map_or(-2, |(s, _, _)| s.lock_pttl));
    let left = move || {
        let share = pttl().max(0) as f64 / lease().max(1) as f64;
        format!("width: {:.1}%", (share * 100.0).min(100.0))
    };
    let holder = move || {
        frame.with(|f| {
            f.as_ref()
                .and_then(|(s, _, _)| s.key_after.as_ref())
                .map(|k| format!("\"{}\"", k.value))
        })
    };
    view! {
        <div class="pl-frame">
            <div class="pl-clocks">
                <span>"virtual clock " <strong data-player-clock>{move || frame.with(|f| f.as_ref().map(|(s, _, _)| format!("t = {} ms", s.clock_ms)))}</strong></span>
                <span>"PTTL " {LOCK_KEY} " " <strong data-player-pttl>{move || format!("{} ms", pttl())}</strong></span>
            </div>
            <div class="pl-lease" aria-hidden="true" data-holder=holder>
                <div class="pl-lease-left" style=left></div>
            </div>
            {move || frame.get().map(|(step, title, note)| view! { <FrameDetail step title note /> })}
        </div>
    }
}

/// A key's value as the player's table shows it.
fn shown_value(value: &ValueSnapshot) -> String {
    match value {
        ValueSnapshot::String(bytes) => format!("\"{}\"", String::from_utf8_lossy(bytes)),
        ValueSnapshot::Hash(fields) => format!("hash of {}", fields.len()),
        ValueSnapshot::ZSet(members) => format!("zset of {}", members.len()),
        ValueSnapshot::List(items) => format!("list of {}", items.len()),
        ValueSnapshot::Set(members) => format!("set of {}", members.len()),
    }
}

/// The store's keys after a step, one table row each, as markup: figure 1's player puts it in its
/// table, and the lock checker's counterexample player, which renders without a view library, in
/// its own.
pub(crate) fn key_rows(keys: &[KeyRow]) -> Markup {
    let mut m = Markup::new();
    if keys.is_empty() {
        m.open("tr", &[])
            .element("td", &[("colspan", "3")], "(empty: no live keys)")
            .close("tr");
    }
    for k in keys {
        let ttl = k
            .ttl_ms
            .map_or_else(|| "no expiry".to_string(), |ms| format!("{ms} ms"));
        m.open("tr", &[])
            .open("td", &[])
            .element("code", &[], &k.key)
            .close("td")
            .open("td", &[])
            .element("code", &[], &shown_value(&k.value))
            .close("td")
            .element("td", &[], &ttl)
            .close("tr");
    }
    m
}

/// One step's name, exchange, keys and note.
#[component]
fn FrameDetail(
    /// The step shown.
    step: LockStep,
    /// Its name, from the run.
    title: String,
    /// What happened, from the run.
    note: String,
) -> impl IntoView {
    let exchange = step.command.clone().map(|command| {
        let reply = step.reply.as_ref().map(cli_text).unwrap_or_default();
        let actor = step.actor.map_or("", |a| a.name());
        view! { <p class="pl-exchange"><code>{format!("{actor}> {command}")}</code> " → " <code>{reply}</code></p> }
    });
    view! {
        <p class="pl-now">{title}</p>
        {exchange}
        <table class="pl-keys">
            <caption>{format!("The store at t = {} ms", step.clock_ms)}</caption>
            <thead><tr><th scope="col">"key"</th><th scope="col">"value"</th><th scope="col">"PTTL"</th></tr></thead>
            <tbody inner_html=key_rows(&step.keys).finish()></tbody>
        </table>
        <p class="pl-note" aria-live="polite">{note}</p>
    }
}
