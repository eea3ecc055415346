//! The console's log: an `aria-live` region, empty as built. The lab renders every command run at
//! the prompt and what it printed into it (`lab::console`), and keeps the newest entry in view.

use leptos::prelude::*;

use super::class;

/// The log, `[data-console-log]`.
#[component]
pub fn ConsoleLog() -> impl IntoView {
    view! {
        <div
            class=class::LOG
            role="log"
            aria-live="polite"
            aria-label="Console output"
            data-console-log
        ></div>
    }
}
