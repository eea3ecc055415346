//! Whether the player's run has the hazard: `[data-hazard="true"]` with the store's account of the
//! takeover when B took the key during A's stall, otherwise why the run is safe.

use std::sync::Arc;

use leptos::prelude::*;

use crate::scenarios::player::Timeline;

/// `[data-hazard]` when B took the key during A's stall; otherwise why the run is safe.
#[component]
pub fn PlayerStatus(
    /// The run being played.
    timeline: Memo<Arc<Timeline>>,
) -> impl IntoView {
    move || {
        timeline.with(|t| match &t.hazard {
            Some(hazard) => view! {
                <p class="pl-status" data-hazard="true" data-tone="bad">
                    <span class="fig-mark"><span aria-hidden="true">"⚠"</span> " hazard"</span>
                    " "
                    {hazard.sentence.clone()}
                </p>
            }
            .into_any(),
            None => view! {
                <p class="pl-status" data-tone="ok">
                    <span class="fig-mark"><span aria-hidden="true">"✓"</span> " no hazard"</span>
                    " "
                    {format!(
                        "A's stall ({} ms) fits inside its lease ({} ms). {}",
                        t.setup.stall_ms,
                        t.setup.lease_ms,
                        t.outcome()
                    )}
                </p>
            }
            .into_any(),
        })
    }
}
