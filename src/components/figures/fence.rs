//! Figure 2, the fenced write: a resource that has accepted token 34 and three writers to hover,
//! focus or tap. Hovering a writer is a what-if run in ministore against the committed state;
//! clicking (Enter, a second tap) commits the write, so the max seen evolves, and the log lists
//! every commit. The static verdicts stay the what-ifs against "seen 34".

use leptos::prelude::*;

use super::fence_log::{FenceLog, FenceReset};
use super::readout::{Mark, Readout, ReadoutTemplates, ReadoutText};
use super::selection::{ChoiceButton, Selection};
use super::share_url;
use super::verdicts::{StaticVerdicts, VerdictLine};
use crate::scenarios::fence::{
    caption, idle_readout, max_seen_in_setup, FenceBoard, FenceLedger, FenceOutcome, Writer,
    FENCE_KEY,
};
use crate::scenarios::share::MAX_FENCE_COMMITS;

/// ✓ when the write went through the fence, ✗ when it was fenced out.
fn mark(outcome: &FenceOutcome) -> Mark {
    Mark {
        ok: outcome.accepted,
        word: outcome.word().to_string(),
    }
}

/// A what-if's readout text.
fn readout_of(outcome: &FenceOutcome, prefix: &str) -> ReadoutText {
    ReadoutText {
        mark: Some(mark(outcome)),
        sentence: format!("{prefix}{}", outcome.readout()),
        evidence: outcome.evidence(),
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
            data-path=writer.hook()
            data-tone=tone
        >
            <ChoiceButton selection choice=token on_commit {..} data-writer=writer.hook()>
                <span class="fig-choice-label">{writer.label()}</span>
            </ChoiceButton>
            <div class="fw-wire">
                <span class="fw-write">"write(…, " {token} ")"</span>
                <span class="fw-check">{comparison}</span>
            </div>
            <div class="fw-result" data-tone=tone>
                <span class="fig-mark">
                    {move || result().map(|m| view! { <span aria-hidden="true">{m.icon()}</span> " " {m.word} })}
                </span>
                <span class="fw-after">{after}</span>
            </div>
        </div>
    }
}

/// The fenced-write figure, `figure[data-figure="fence"]`.
#[component]
pub fn FenceFigure() -> impl IntoView {
    let seen = max_seen_in_setup();
    let committed = RwSignal::new(share_url::read().fence);
    let board = Memo::new(move |_| committed.with(|tokens| FenceLedger::replay(tokens).board()));
    // The commit just made, shown in the readout until the selection moves on.
    let just_committed = RwSignal::new(None::<FenceOutcome>);
    let selection = Selection::<i64>::new("[data-writer]");
    // Leaving the committed writer (pointer away, blur, Esc, another writer) ends the commit's
    // readout; a later visit shows the what-if against the new state.
    Effect::new(move |_| {
        let now = selection.shown();
        if just_committed.with_untracked(|c| c.as_ref().is_some_and(|c| Some(c.token) != now)) {
            just_committed.set(None);
        }
    });
    let on_commit = Callback::new(move |token: i64| {
        if committed.with(|c| c.len() >= MAX_FENCE_COMMITS) {
            return;
        }
        committed.update(|c| c.push(token));
        just_committed.set(board.with(|b| b.log.last().cloned()));
        share_url::update(|state| state.fence = committed.get_untracked());
    });
    let on_reset = Callback::new(move |()| {
        committed.set(Vec::new());
        just_committed.set(None);
        share_url::update(|state| state.fence.clear());
    });
    let text = Signal::derive(move || {
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
    let verdicts = FenceOutcome::run_all()
        .iter()
        .map(|o| VerdictLine {
            mark: mark(o),
            text: o.verdict(),
        })
        .collect();
    let seen_now = move || {
        board.with(|b| {
            b.max_seen
                .map_or_else(|| "(nil)".to_string(), |m| m.to_string())
        })
    };

    view! {
        <figure
            class="fig fig-fence"
            data-figure="fence"
            data-selected=move || selection.shown().map(|t| t.to_string())
        >
            <figcaption>{caption(seen)}</figcaption>
            <div class="fw-drawing" role="group" aria-label="Three writers present their fencing tokens">
                <div class="fw-resource">
                    <span class="fw-resource-name">"protected resource"</span>
                    <span>"max seen: " <code>{FENCE_KEY}</code> " = " <strong data-fence-max>{seen_now}</strong></span>
                    <FenceReset board seen on_reset />
                </div>
                {Writer::ALL.into_iter().map(|writer| view! { <WriterRow writer board selection on_commit /> }).collect_view()}
            </div>
            <Readout text />
            <ReadoutTemplates idle=idle_template choices=templates />
            <FenceLog board seen />
            <StaticVerdicts lines=verdicts />
        </figure>
    }
}
