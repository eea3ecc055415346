//! What the player shows: the timeline of the five steps (←/→ step when it has focus) and the
//! current frame — lease clock, command and reply, every key the store holds — all read from the
//! ministore run.

use std::sync::Arc;

use leptos::ev;
use leptos::prelude::*;

use super::player::PlayHead;
use crate::scenarios::player::{Frame, Timeline, STEP_COUNT};

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
            t.frames
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let current = move || head.step.get() == i;
                    view! {
                        <li class:is-current=current aria-current=move || current().then_some("step")>
                            <button type="button" tabindex="-1" on:click=move |_| head.step.set(i)>
                                <span class="pl-no">{i + 1}</span>
                                <span class="pl-step-title">{f.title.clone()}</span>
                                <span class="pl-t">{format!("t = {} ms", f.clock_ms)}</span>
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
    let frame = Memo::new(move |_| timeline.with(|t| t.frame(head.step.get()).cloned()));
    let lease = move || timeline.with(|t| t.setup.lease_ms);
    let pttl = move || frame.with(|f| f.as_ref().map_or(-2, |f| f.lock_pttl));
    let left = move || {
        let share = pttl().max(0) as f64 / lease().max(1) as f64;
        format!("width: {:.1}%", (share * 100.0).min(100.0))
    };
    let holder = move || {
        frame.with(|f| {
            f.as_ref()
                .and_then(|f| f.keys.iter().find(|k| k.key == "resource:lock"))
                .map(|k| k.value.clone())
        })
    };
    view! {
        <div class="pl-frame">
            <div class="pl-clocks">
                <span>"virtual clock " <strong data-player-clock>{move || frame.with(|f| f.as_ref().map(|f| format!("t = {} ms", f.clock_ms)))}</strong></span>
                <span>"PTTL resource:lock " <strong data-player-pttl>{move || format!("{} ms", pttl())}</strong></span>
            </div>
            <div class="pl-lease" aria-hidden="true" data-holder=holder>
                <div class="pl-lease-left" style=left></div>
            </div>
            {move || frame.get().map(|f| view! { <FrameDetail frame=f /> })}
        </div>
    }
}

/// One frame's step, exchange, keys and note.
#[component]
fn FrameDetail(
    /// The frame shown.
    frame: Frame,
) -> impl IntoView {
    let exchange = frame.command.clone().map(|command| {
        let reply = frame.reply.clone().unwrap_or_default();
        let actor = frame.actor.map_or("", |a| a.name());
        view! { <p class="pl-exchange"><code>{format!("{actor}> {command}")}</code> " → " <code>{reply}</code></p> }
    });
    let rows = if frame.keys.is_empty() {
        view! { <tr><td colspan="3">"(empty: no live keys)"</td></tr> }.into_any()
    } else {
        frame
            .keys
            .iter()
            .map(|k| {
                let ttl = k.ttl_ms.map_or_else(|| "no expiry".to_string(), |ms| format!("{ms} ms"));
                view! { <tr><td><code>{k.key.clone()}</code></td><td><code>{k.value.clone()}</code></td><td>{ttl}</td></tr> }
            })
            .collect_view()
            .into_any()
    };
    view! {
        <p class="pl-now">{frame.title.clone()}</p>
        {exchange}
        <table class="pl-keys">
            <caption>{format!("The store at t = {} ms", frame.clock_ms)}</caption>
            <thead><tr><th scope="col">"key"</th><th scope="col">"value"</th><th scope="col">"PTTL"</th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
        <p class="pl-note" aria-live="polite">{frame.note.clone()}</p>
    }
}
