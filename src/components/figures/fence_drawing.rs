//! Figure 2's drawing: the protected resource with the max seen the fence holds and its reset
//! button, and one lane per writer: its button (as built, for the first wasm) and what the fence
//! would do with its write now (live, against the committed state).

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::{PATH, TONE, WRITER};

use super::choice::ChoiceButton;
use super::fence_live::FenceLive;
use super::fence_log::FenceReset;
use super::fence_readout::mark;
use super::slot::{LivePart, LiveSlot};
use crate::scenarios::fence::{FenceOutcome, Writer, FENCE_KEY};

/// The drawing, `div.fw-drawing`: the resource above the three writer lanes.
#[component]
pub fn FenceDrawing(
    /// The fence as committed so far.
    live: FenceLive,
) -> impl IntoView {
    view! {
        <div class="fw-drawing" role="group" aria-label="Three writers present their fencing tokens">
            <LiveSlot part=LivePart::FenceResource>
                <ProtectedResource live />
            </LiveSlot>
            {Writer::ALL.into_iter().map(|writer| view! { <WriterRow writer live /> }).collect_view()}
        </div>
    }
}

/// The resource bar: the max seen as committed so far, and the reset button (a live part).
#[component]
pub fn ProtectedResource(
    /// The fence as committed so far.
    live: FenceLive,
) -> impl IntoView {
    let board = live.board;
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
            <FenceReset live />
        </div>
    }
}

/// One writer's lane, `[data-path]`: its choice button, then its outcome's slot. The row's tone
/// is its what-if's as built; the first wasm keeps it in step with the readout sources.
#[component]
fn WriterRow(
    /// The writer this lane is for.
    writer: Writer,
    /// The fence as committed so far.
    live: FenceLive,
) -> impl IntoView {
    let tone = live
        .board
        .with_untracked(|b| b.what_if(writer.token).map(|o| mark(o).tone()));
    view! {
        <div class="fw-row" {..custom_attribute(PATH, writer.hook())} {..custom_attribute(TONE, tone)}>
            <ChoiceButton commits=true {..custom_attribute(WRITER, writer.hook())}>
                <span class="fig-choice-label">{writer.label()}</span>
            </ChoiceButton>
            <LiveSlot part=LivePart::FenceLane(writer)>
                <WriterOutcome writer live />
            </LiveSlot>
        </div>
    }
}

/// A lane's live part: the write travelling to the fence, and what the fence would do with it now,
/// against the committed state.
#[component]
pub fn WriterOutcome(
    /// The writer this lane is for.
    writer: Writer,
    /// The fence as committed so far, which the lane's what-if runs against.
    live: FenceLive,
) -> impl IntoView {
    let token = writer.token;
    let board = live.board;
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
    }
}
