//! Figure 2's commit log: every write a learner committed, accepted or rejected, with its token
//! and the store's reply, oldest first; and the button that resets the fence to "seen 34", which
//! the figure places in its resource bar, above anything whose height changes.

use leptos::prelude::*;

use super::fence_live::FenceLive;
use super::readout::Mark;
use crate::scenarios::share::MAX_FENCE_COMMITS;

/// The reset button, `[data-fence-reset]`. It sits above the readout: a press moves focus off a
/// writer, which shrinks the readout, and a button below it would slide away before the click.
#[component]
pub fn FenceReset(
    /// The fence as committed so far; a press empties its log.
    live: FenceLive,
) -> impl IntoView {
    let board = live.board;
    let seen_text = live
        .seen
        .map_or_else(|| "nothing".to_string(), |s| s.to_string());
    view! {
        <button
            type="button"
            class="fw-reset"
            data-fence-reset
            aria-disabled=move || board.with(|b| b.log.is_empty()).to_string()
            on:click=move |_| live.reset()
        >
            {format!("Reset to seen {seen_text}")}
        </button>
    }
}

/// The log, `ol[data-fence-log]` (a live part).
#[component]
pub fn FenceLog(
    /// The fence as committed so far; its log is what this lists.
    live: FenceLive,
) -> impl IntoView {
    let board = live.board;
    let seen_text = live
        .seen
        .map_or_else(|| "nothing".to_string(), |s| s.to_string());
    let empty = move || board.with(|b| b.log.is_empty());
    let full = move || board.with(|b| b.log.len() >= MAX_FENCE_COMMITS);
    view! {
        <div class="fw-ledger">
            <p class="fw-hint">
                "Click a writer to commit its write — tap it twice on a touch screen, or press Enter \
                 on it. Committed writes stack up: the resource keeps the highest token it accepted."
            </p>
            <p class="fw-log-title" id="fw-log-title">"Committed writes"</p>
            <ol class="fw-log" data-fence-log aria-labelledby="fw-log-title">
                // The log only grows until a reset: keyed by position and token, a commit adds
                // one line and leaves the lines before it as they are.
                <For
                    each=move || board.with(|b| b.log.iter().cloned().enumerate().collect::<Vec<_>>())
                    key=|(position, outcome)| (*position, outcome.token)
                    children=|(_, outcome)| {
                        let mark = Mark::new(outcome.accepted, outcome.word());
                        view! {
                            <li data-tone=mark.tone() data-token=outcome.token>
                                <span class="fig-mark">
                                    <span aria-hidden="true">{mark.icon()}</span>
                                </span>
                                " "
                                {outcome.log_line()}
                                " "
                                <code>{outcome.reply_text()}</code>
                            </li>
                        }
                    }
                />
            </ol>
            <Show when=empty>
                <p class="fw-log-empty">{format!("None yet: the resource has seen {seen_text}.")}</p>
            </Show>
            <Show when=full>
                <p class="fw-log-empty">
                    {format!("The log is full ({MAX_FENCE_COMMITS} writes): reset to start again.")}
                </p>
            </Show>
        </div>
    }
}
