//! Figure 2's readout sources: what the fence says about each writer — a what-if against the
//! committed state — and about the commit just made, as the `<template data-readout-for>`s the
//! first wasm shows (a live part: the lab re-renders them after every commit and reset).

use leptos::prelude::*;

use super::fence_live::FenceLive;
use super::readout::{Mark, ReadoutTemplate, ReadoutText};
use crate::scenarios::fence::{idle_readout, FenceOutcome, Writer};

/// ✓ when the write went through the fence, ✗ when it was fenced out.
pub fn mark(outcome: &FenceOutcome) -> Mark {
    Mark::new(outcome.accepted, outcome.word())
}

/// A what-if's or a commit's readout text.
fn readout_of(outcome: &FenceOutcome, prefix: &str) -> ReadoutText {
    ReadoutText {
        mark: Some(mark(outcome)),
        sentence: format!("{prefix}{}", outcome.readout()),
        evidence: outcome.evidence(),
        caveat: None,
    }
}

/// The idle readout and each writer's what-if against the committed fence, then the commit just
/// made, if any. Each source follows its own text: a commit re-renders only the sources whose
/// words it changed, so the first wasm's next read finds them current at the least cost.
#[component]
pub fn FenceReadoutSources(
    /// The fence as committed so far.
    live: FenceLive,
) -> impl IntoView {
    let (board, just_committed) = (live.board, live.just_committed);
    let idle = Memo::new(move |_| board.with(|b| ReadoutText::idle(idle_readout(b.max_seen))));
    let what_ifs = Writer::ALL
        .into_iter()
        .map(|writer| {
            let text = Memo::new(move |_| {
                board.with(|b| b.what_if(writer.token).map(|o| readout_of(o, "")))
            });
            move || {
                text.get()
                    .map(|text| view! { <ReadoutTemplate key=writer.hook() text /> })
            }
        })
        .collect_view();
    let committed = Memo::new(move |_| {
        just_committed.with(|c| {
            c.as_ref()
                .map(|o| (o.token.to_string(), readout_of(o, "Committed — ")))
        })
    });
    view! {
        <ReadoutTemplate key=String::new() text=idle />
        {what_ifs}
        {move || {
            committed
                .get()
                .map(|(key, text)| view! { <ReadoutTemplate key text committed=true /> })
        }}
    }
}
