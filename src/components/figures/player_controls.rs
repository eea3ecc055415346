//! The player's controls: the lease and stall sliders with their live values, the release
//! choice (switchable at any step), and the transport buttons (back, play/pause, forward).

use leptos::prelude::*;

use super::player_head::PlayHead;
use crate::scenarios::lost_lock::ReleaseChoice;
use crate::scenarios::player::{SliderRange, LEASE_RANGE, STALL_RANGE, STEP_COUNT};

/// One labelled `<input type=range>` in milliseconds, `input[data-slider=…]`.
#[component]
fn MsSlider(
    /// The visible label.
    label: &'static str,
    /// The `data-slider` hook, also the element id's suffix.
    hook: &'static str,
    /// What the slider offers.
    range: SliderRange,
    /// The value it drives.
    value: RwSignal<u64>,
) -> impl IntoView {
    let id = format!("pl-{hook}");
    view! {
        <div class="pl-slider">
            <label for=id.clone()>
                {label}
                <output for=id.clone() class="pl-value">{move || format!("{} ms", value.get())}</output>
            </label>
            <input
                type="range"
                id=id
                data-slider=hook
                min=range.min
                max=range.max
                step=range.step
                // Set once, as the attribute (the default value), which the build's HTML carries
                // too: only the learner moves the thumb afterwards, and rewriting the value under
                // a dragging pointer would fight the drag.
                value=value.get_untracked().to_string()
                aria-valuetext=move || format!("{} milliseconds", value.get())
                on:input=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<u64>() {
                        value.set(range.clamp(v));
                    }
                }
            />
        </div>
    }
}

/// The sliders and the release choice.
#[component]
pub fn PlayerKnobs(
    /// The lease every `SET … PX` asks for.
    lease: RwSignal<u64>,
    /// How long A stalls after acquiring.
    stall: RwSignal<u64>,
    /// How A releases.
    choice: RwSignal<ReleaseChoice>,
) -> impl IntoView {
    view! {
        <div class="pl-knobs">
            <MsSlider label="Lease (PX)" hook="lease" range=LEASE_RANGE value=lease />
            <MsSlider label="A's stall" hook="stall" range=STALL_RANGE value=stall />
            <fieldset class="pl-release">
                <legend>"A releases with"</legend>
                {ReleaseChoice::ALL
                    .into_iter()
                    .map(|c| {
                        view! {
                            <label>
                                <input
                                    type="radio"
                                    name="pl-release"
                                    data-player-release=c.hook()
                                    // The attribute for the build's HTML, the property for the live page.
                                    checked=choice.get_untracked() == c
                                    prop:checked=move || choice.get() == c
                                    on:change=move |_| choice.set(c)
                                />
                                {c.label()}
                            </label>
                        }
                    })
                    .collect_view()}
            </fieldset>
        </div>
    }
}

/// Back, play/pause and forward. Buttons at an end say so with `aria-disabled` instead of
/// `disabled`, so keyboard focus is never thrown off a button the learner is pressing.
#[component]
pub fn PlayerTransport(
    /// The player's position and playback.
    head: PlayHead,
) -> impl IntoView {
    let at_start = move || head.step.get() == 0;
    let at_end = move || head.step.get() + 1 >= STEP_COUNT;
    view! {
        <div class="pl-transport" role="group" aria-label="Player controls">
            <button
                type="button"
                data-player-back
                aria-disabled=move || at_start().to_string()
                on:click=move |_| head.nudge(-1)
            >
                <span aria-hidden="true">"◀ "</span>
                "Back"
            </button>
            <button
                type="button"
                data-player-play
                aria-pressed=move || head.playing.get().to_string()
                on:click=move |_| head.toggle()
            >
                {move || if head.playing.get() { "❚❚ Pause" } else { "▶ Play" }}
            </button>
            <button
                type="button"
                data-player-forward
                aria-disabled=move || at_end().to_string()
                on:click=move |_| head.nudge(1)
            >
                "Forward"
                <span aria-hidden="true">" ▶"</span>
            </button>
        </div>
    }
}
