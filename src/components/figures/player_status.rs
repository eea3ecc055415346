//! Whether the player's run has the hazard: `[data-hazard="true"]` with the store's account of
//! how two clients came to believe they held the lock at once, otherwise what the store held
//! when A resumed that kept them apart.

use std::sync::Arc;

use leptos::prelude::*;

use crate::scenarios::player::Timeline;

/// `[data-hazard]` when two clients believed they held the lock at once; otherwise why not.
#[component]
pub fn PlayerStatus(
    /// The run being played.
    timeline: Memo<Arc<Timeline>>,
) -> impl IntoView {
    move || {
        timeline.with(|t| match t.hazard() {
            Some(hazard) => view! {
                <p class="pl-status" data-hazard="true" data-tone="bad">
                    <span class="fig-mark"><span aria-hidden="true">"⚠"</span> " hazard"</span>
                    " "
                    {hazard}
                </p>
            }
            .into_any(),
            None => view! {
                <p class="pl-status" data-tone="ok">
                    <span class="fig-mark"><span aria-hidden="true">"✓"</span> " no hazard"</span>
                    " "
                    {t.no_hazard()}
                </p>
            }
            .into_any(),
        })
    }
}
