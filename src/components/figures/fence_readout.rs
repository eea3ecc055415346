//! Figure 2's readout: what the fence says about the writer shown — the commit just made, or a
//! what-if against the committed state — and the templates the build leaves for the first wasm,
//! one per writer against the fence as first rendered.

use leptos::prelude::*;

use super::readout::{Mark, Readout, ReadoutTemplates, ReadoutText};
use super::selection::Selection;
use crate::scenarios::fence::{idle_readout, FenceBoard, FenceOutcome, Writer};

/// ✓ when the write went through the fence, ✗ when it was fenced out.
pub fn mark(outcome: &FenceOutcome) -> Mark {
    Mark::new(outcome.accepted, outcome.word())
}

/// A what-if's readout text.
fn readout_of(outcome: &FenceOutcome, prefix: &str) -> ReadoutText {
    ReadoutText {
        mark: Some(mark(outcome)),
        sentence: format!("{prefix}{}", outcome.readout()),
        evidence: outcome.evidence(),
        caveat: None,
    }
}

/// The live `[data-readout]` and its `<template data-readout-for>`s.
#[component]
pub fn FenceReadout(
    /// The fence as committed so far, which the what-ifs run against.
    board: Memo<FenceBoard>,
    /// The token the resource had seen before any commit.
    seen: Option<i64>,
    /// The figure's selection: the writer the readout speaks about.
    selection: Selection<i64>,
    /// The commit just made, which the readout shows while its writer stays selected.
    just_committed: ReadSignal<Option<FenceOutcome>>,
) -> impl IntoView {
    let text = Memo::new(move |_| {
        let shown = selection.shown();
        let committed_now = just_committed.with(|c| c.clone().filter(|c| Some(c.token) == shown));
        match (shown, committed_now) {
            (_, Some(outcome)) => readout_of(&outcome, "Committed — "),
            (Some(token), None) => board
                .with(|b| b.what_if(token).map(|o| readout_of(o, "")))
                .unwrap_or_else(|| ReadoutText::idle(idle_readout(seen))),
            (None, None) => ReadoutText::idle(idle_readout(board.with(|b| b.max_seen))),
        }
    });
    // The templates answer before the lab arrives, so they speak of the fence as first rendered.
    let templates = Writer::ALL
        .into_iter()
        .filter_map(|writer| {
            board.with_untracked(|b| {
                b.what_if(writer.token)
                    .map(|o| (writer.hook(), readout_of(o, "")))
            })
        })
        .collect::<Vec<_>>();
    let idle_template = ReadoutText::idle(idle_readout(board.with_untracked(|b| b.max_seen)));
    view! {
        <Readout text />
        <ReadoutTemplates idle=idle_template choices=templates />
    }
}
