//! Figure 1's scenario player: the lost-lock run as a timeline a learner steps through, plays,
//! and re-runs with other lease and stall lengths or another release. Every frame comes from a
//! ministore run (`scenarios::player`). The player is markup rendered from a [`PlayHead`] and its
//! run: the build puts it in the page, and the figures' lab chunk makes it live where it stands
//! (`lockdive::lab::player`), setting what changes from the same functions.

use super::player_controls::{knobs, transport};
use super::player_frame::{frame, timeline_list};
use super::player_head::PlayHead;
use super::player_status::verdict;
use crate::components::markup::Markup;
use crate::scenarios::player::Timeline;

views! {
    use leptos::attr::custom::custom_attribute;
    use leptos::prelude::*;
    use lockdive_contract::hooks::PLAYER;

    use super::share_url;
    use crate::scenarios::lost_lock::LostLockOutcome;
}

/// How long a played step stays on screen.
pub const PLAY_STEP_MS: u32 = 1_400;

/// The attribute on the player that says which step it shows.
pub const STEP: &str = "data-player-step";

/// The player, `section[data-player]`, with `data-player-step` on it and `[data-hazard]` inside
/// when the stall outlasts the lease: as the page's shared link opens it (none in the build).
#[cfg(feature = "views")]
#[component]
pub fn ScenarioPlayer() -> impl IntoView {
    let head = PlayHead::from_shared(&share_url::read());
    let timeline = LostLockOutcome::run_with(head.setup(), head.choice);
    view! {
        <section
            class="pl"
            data-player-step=head.step
            aria-label="Scenario player: run the lost-lock scenario with your own lease and stall"
            {..custom_attribute(PLAYER, true)}
            inner_html=player_body(&head, &timeline).finish()
        ></section>
    }
}

/// Everything inside the player: its title and lede, the knobs, the status, the timeline, the
/// transport and the frame.
pub fn player_body(head: &PlayHead, timeline: &Timeline) -> Markup {
    let mut m = Markup::new();
    m.element("p", &[("class", "pl-title")], "Play it yourself")
        .open("p", &[("class", "pl-lede")])
        .text("Change the lease and A's stall, pick how A releases, and step through what ")
        .element("code", &[], "resource:lock")
        .text(" holds at each moment.")
        .close("p")
        .append(knobs(head))
        .append(verdict(timeline))
        .append(timeline_list(timeline, head))
        .append(transport(head))
        .append(frame(timeline, head));
    m
}
