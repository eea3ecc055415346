//! Figure 2's drawing: the protected resource with the max seen the fence holds and its reset
//! button, and one lane per writer whose button runs a what-if on hover and commits on click.

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::{PATH, TONE, WRITER};

use super::fence_log::FenceReset;
use super::fence_readout::mark;
use super::selection::{ChoiceButton, Selection};
use crate::scenarios::fence::{FenceBoard, FenceOutcome, Writer, FENCE_KEY};

/// The drawing, `div.fw-drawing`: the resource above the three writer lanes.
#[component]
pub fn FenceDrawing(
    /// The fence as committed so far.
    board: Memo<FenceBoard>,
    /// The token the resource had seen before any commit (what a reset returns to).
    seen: Option<i64>,
    /// The figure's selection, which the writers' buttons drive.
    selection: Selection<i64>,
    /// Commits a writer's write, by its token.
    on_commit: Callback<i64>,
    /// Empties the log and returns the fence to `seen`.
    on_reset: Callback<()>,
) -> impl IntoView {
    view! {
        <div class="fw-drawing" role="group" aria-label="Three writers present their fencing tokens">
            <ProtectedResource board seen on_reset />
            {Writer::ALL.into_iter().map(|writer| view! { <WriterRow writer board selection on_commit /> }).collect_view()}
        </div>
    }
}

/// The resource bar: the max seen as committed so far, and the reset button.
#[component]
fn ProtectedResource(
    /// The fence as committed so far.
    board: Memo<FenceBoard>,
    /// The token the resource had seen before any commit.
    seen: Option<i64>,
    /// Empties the log and returns the fence to `seen`.
    on_reset: Callback<()>,
) -> impl IntoView {
    let seen_now = move || {
        board.with(|b| {
            b.max_seen
                .map_or_else(|| "(nil)".to_string(), |m| m.to_string())
        })
    };
    view! {
        <div class="fw-resource">
            <span class="fw-resource-name">"protected resource"</span>
            <span>"max seen: " <code>{FENCE_KEY}</code> " = " <strong data-fence-max>{seen_now}</strong></span>
            <FenceReset board seen on_reset />
        </div>
    }
}

/// One writer's lane: its button, the write travelling to the fence, and what the fence would do
/// with it now, against the committed state.
#[component]
fn WriterRow(
    /// The writer this lane is for.
    writer: Writer,
    /// The fence as committed so far, which the lane's what-if runs against.
    board: Memo<FenceBoard>,
    /// The figure's selection, which the button drives.
    selection: Selection<i64>,
    /// Commits this writer's write.
    on_commit: Callback<i64>,
) -> impl IntoView {
    let token = writer.token;
    let outcome = Memo::new(move |_| board.with(|b| b.what_if(token).cloned()));
    let tone = move || outcome.with(|o| o.as_ref().map(|o| mark(o).tone()));
    let after = move || {
        outcome.with(
            |o| match o.as_ref().map(|o| (o.max_seen_before, o.max_seen_after)) {
                Some((Some(before), Some(after))) if before != after => {
                    format!("max seen {before} → {after}")
                }
                Some((_, Some(after))) => format!("max seen stays {after}"),
                _ => "no max seen".to_string(),
            },
        )
    };
    let comparison = move || outcome.with(|o| o.as_ref().map(FenceOutcome::comparison));
    let result = move || outcome.with(|o| o.as_ref().map(mark));
    view! {
        <div
            class="fw-row"
            class:is-lit=move || selection.shown() == Some(token)
            {..custom_attribute(PATH, writer.hook())}
            {..custom_attribute(TONE, tone)}
        >
            <ChoiceButton selection choice=token on_commit {..custom_attribute(WRITER, writer.hook())}>
                <span class="fig-choice-label">{writer.label()}</span>
            </ChoiceButton>
            <div class="fw-wire">
                <span class="fw-write">"write(…, " {token} ")"</span>
                <span class="fw-check">{comparison}</span>
            </div>
            <div class="fw-result" {..custom_attribute(TONE, tone)}>
                <span class="fig-mark">
                    {move || result().map(|m| view! { <span aria-hidden="true">{m.icon()}</span> " " {m.word} })}
                </span>
                <span class="fw-after">{after}</span>
            </div>
        </div>
    }
}
