//! The console's log: every command run at the prompt and what it printed, coloured by tone, in
//! an `aria-live` region that keeps the newest entry in view.

use leptos::html;
use leptos::prelude::*;

use crate::scenarios::console::{LogEntry, Tone, PROMPT};

/// The class an output line gets: errors are red (and already say `(error)`), notes muted.
fn tone_class(tone: Tone) -> &'static str {
    match tone {
        Tone::Reply => "console-out",
        Tone::Error => "console-out console-error",
        Tone::Note => "console-out console-note",
    }
}

/// The log, `[data-console-log]`.
#[component]
pub fn ConsoleLog(
    /// The console's log, oldest first.
    log: Memo<Vec<LogEntry>>,
) -> impl IntoView {
    let log_box = NodeRef::<html::Div>::new();
    // Keep the newest entry in view as the log grows.
    Effect::new(move |_| {
        log.track();
        if let Some(el) = log_box.get() {
            el.set_scroll_top(el.scroll_height());
        }
    });
    view! {
        <div
            class="console-log"
            role="log"
            aria-live="polite"
            aria-label="Console output"
            node_ref=log_box
            data-console-log
        >
            <For each=move || log.get() key=|entry| entry.id let:entry>
                <ConsoleEntry entry />
            </For>
        </div>
    }
}

/// One command and what it printed.
#[component]
fn ConsoleEntry(
    /// The logged command and its output.
    entry: LogEntry,
) -> impl IntoView {
    view! {
        <div class="console-entry">
            <div class="console-in">
                <span class="console-prompt" aria-hidden="true">{PROMPT}" "</span>
                <span>{entry.input}</span>
            </div>
            {entry
                .output
                .into_iter()
                .map(|line| view! { <div class=tone_class(line.tone)>{line.text}</div> })
                .collect_view()}
        </div>
    }
}
