//! Figure 2's commit log: every write a learner committed, accepted or rejected, with its token
//! and the store's reply, oldest first (`ol[data-fence-log]`, a live part), and the line under it
//! while the log is empty or full.

use super::readout::Mark;
use crate::components::markup::Markup;
use crate::scenarios::fence::LogFull;
use crate::scenarios::fence::{FenceBoard, FenceOutcome};

/// The log's element.
pub const LOG: &str = "ol[data-fence-log]";

/// The line under the log (`p.fw-log-empty`) while it is empty or full.
pub const LOG_NOTE: &str = ".fw-log-empty";

/// The log with its hint and title: the live part's markup for `board`.
pub fn ledger(board: &FenceBoard, seen: Option<i64>) -> Markup {
    let mut m = Markup::new();
    m.open("div", &[("class", "fw-ledger")])
        .element(
            "p",
            &[("class", "fw-hint")],
            "Click a writer to commit its write — tap it twice on a touch screen, or press Enter \
             on it. Committed writes stack up: the resource keeps the highest token it accepted.",
        )
        .element(
            "p",
            &[("class", "fw-log-title"), ("id", "fw-log-title")],
            "Committed writes",
        )
        .open(
            "ol",
            &[
                ("class", "fw-log"),
                ("data-fence-log", ""),
                ("aria-labelledby", "fw-log-title"),
            ],
        );
    for outcome in &board.log {
        m.append(log_entry(outcome));
    }
    m.close("ol").append(log_note(board.log.len(), seen));
    m.close("div");
    m
}

/// One committed write: its mark, line and the store's reply, `li[data-token]`.
pub fn log_entry(outcome: &FenceOutcome) -> Markup {
    let mark = Mark::new(outcome.accepted, outcome.word());
    let token = outcome.token.to_string();
    let mut m = Markup::new();
    m.open("li", &[("data-tone", mark.tone()), ("data-token", &token)])
        .open("span", &[("class", "fig-mark")])
        .element("span", &[("aria-hidden", "true")], mark.icon())
        .close("span")
        .text(" ")
        .text(&outcome.log_line())
        .text(" ")
        .element("code", &[], &outcome.reply_text())
        .close("li");
    m
}

/// What the line under a log of `len` writes says: that nothing is committed yet, that the log is
/// full, or nothing.
pub fn log_note(len: usize, seen: Option<i64>) -> Markup {
    let mut m = Markup::new();
    let text = if len == 0 {
        format!("None yet: the resource has seen {}.", seen_text(seen))
    } else if LogFull::at(len) {
        LogFull::note()
    } else {
        return m;
    };
    m.element("p", &[("class", "fw-log-empty")], &text);
    m
}

/// The token a reset returns to, in words: `34`, or `nothing`.
pub fn seen_text(seen: Option<i64>) -> String {
    seen.map_or_else(|| "nothing".to_string(), |s| s.to_string())
}
