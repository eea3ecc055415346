//! Figure 2's readout sources: what the fence says about each writer — a what-if against the
//! committed state — and about the last press (its commit's outcome, or its refusal), as the
//! `<template data-readout-for>`s the first wasm shows (a live part: the lab renders them again
//! after every commit and reset).

use super::readout::{readout_template, Mark, ReadoutText};
use crate::components::markup::Markup;
use crate::scenarios::fence::{idle_readout, FenceBoard, FenceOutcome, LogFull, Writer};

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
/// made, if any.
pub fn readout_sources(board: &FenceBoard, just_committed: Option<&FenceOutcome>) -> Markup {
    let mut m = what_if_sources(board);
    if let Some(outcome) = just_committed {
        m.append(committed_source(outcome));
    }
    m
}

/// The idle readout and each writer's what-if against the committed fence: what changes only
/// when the committed store does.
pub fn what_if_sources(board: &FenceBoard) -> Markup {
    let mut m = Markup::new();
    m.append(readout_template(
        "",
        &ReadoutText::idle(idle_readout(board.max_seen)),
        false,
    ));
    for writer in Writer::ALL {
        if let Some(outcome) = board.what_if(writer.token) {
            m.append(readout_template(
                &writer.hook(),
                &readout_of(outcome, ""),
                false,
            ));
        }
    }
    m
}

/// The commit just made: what changes with every commit.
pub fn committed_source(outcome: &FenceOutcome) -> Markup {
    readout_template(
        &outcome.writer.hook(),
        &readout_of(outcome, "Committed — "),
        true,
    )
}

/// A commit refused because the log is full: the source shown in the commit's place, while the
/// writer stays on show. Nothing ran, so it has no evidence.
pub fn refused_source(writer: Writer, max_seen: Option<i64>) -> Markup {
    readout_template(
        &writer.hook(),
        &ReadoutText {
            mark: Some(Mark::warn("not committed")),
            sentence: LogFull::refusal(&writer.label(max_seen)),
            evidence: Vec::new(),
            caveat: None,
        },
        true,
    )
}
