//! Figure 1's scenario player: the lost-lock run as a timeline a learner steps through, plays,
//! and re-runs with other lease and stall lengths or another release. Every frame comes from a
//! ministore run (`scenarios::player`); this component owns the player's state and its URL sync.

use std::sync::Arc;

use gloo_timers::callback::Timeout;
use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::PLAYER;

use super::player_controls::{PlayerKnobs, PlayerTransport};
use super::player_frame::{FrameView, PlayerTimeline};
use super::player_head::PlayHead;
use super::player_status::PlayerStatus;
use super::share_url;
use crate::scenarios::lost_lock::{LostLockOutcome, ReleaseChoice};
use crate::scenarios::player::{PlayerSetup, TimelineCache, STEP_COUNT};

/// How long a played step stays on screen.
const PLAY_STEP_MS: u32 = 1_400;

/// The player, `[data-player]`, with `data-player-step` on it and `[data-hazard]` inside when the
/// stall outlasts the lease.
#[component]
pub fn ScenarioPlayer() -> impl IntoView {
    let shared = share_url::read();
    let setup = shared.player_setup();
    let lease = RwSignal::new(setup.lease_ms);
    let stall = RwSignal::new(setup.stall_ms);
    let choice = RwSignal::new(shared.release.unwrap_or(ReleaseChoice::BlindDel));
    let head = PlayHead {
        step: RwSignal::new(shared.step.unwrap_or(0)),
        playing: RwSignal::new(false),
    };
    let cache = StoredValue::new(TimelineCache::default());
    let timeline = Memo::new(move |_| {
        let setup = PlayerSetup::new(lease.get(), stall.get());
        let choice = choice.get();
        cache
            .try_update_value(|runs| runs.get(setup, choice))
            .unwrap_or_else(|| Arc::new(LostLockOutcome::run_with(setup, choice)))
    });

    // Playback: each shown step schedules the next; replacing the handle cancels a pending one,
    // so stepping by hand while playing never double-advances.
    let pending = StoredValue::new_local(None::<Timeout>);
    Effect::new(move |_| {
        let at = head.step.get();
        let playing = head.playing.get();
        pending.set_value(None);
        if playing && at + 1 >= STEP_COUNT {
            head.playing.set(false);
        } else if playing {
            let next = Timeout::new(PLAY_STEP_MS, move || head.step.set(at + 1));
            pending.set_value(Some(next));
        }
    });

    // The link reproduces what the learner sees; written only once they have changed something.
    Effect::new(move |first_run: Option<()>| {
        let (step, lease, stall, choice) =
            (head.step.get(), lease.get(), stall.get(), choice.get());
        if first_run.is_some() {
            share_url::update(|state| {
                state.step = Some(step);
                state.lease_ms = Some(lease);
                state.stall_ms = Some(stall);
                state.release = Some(choice);
            });
        }
    });

    view! {
        <section
            class="pl"
            data-player-step=move || head.step.get()
            aria-label="Scenario player: run the lost-lock scenario with your own lease and stall"
            {..custom_attribute(PLAYER, true)}
        >
            <p class="pl-title">"Play it yourself"</p>
            <p class="pl-lede">
                "Change the lease and A's stall, pick how A releases, and step through what "
                <code>"resource:lock"</code>
                " holds at each moment."
            </p>
            <PlayerKnobs lease stall choice />
            <PlayerStatus timeline />
            <PlayerTimeline timeline head />
            <PlayerTransport head />
            <FrameView timeline head />
        </section>
    }
}
