//! Figure 2, the fenced write: owns the commits a learner made (replayed in ministore into the
//! board every piece renders from), their place in the shared URL, and the figure's layout. The
//! static verdicts stay the what-ifs against "seen 34".

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::{FIGURE, WRITER_SELECTOR};
use lockdive_contract::Figure;

use super::fence_drawing::FenceDrawing;
use super::fence_log::FenceLog;
use super::fence_readout::{mark, FenceReadout};
use super::scripts::ScriptsDisclosure;
use super::selection::Selection;
use super::share_url;
use super::verdicts::{StaticVerdicts, VerdictLine};
use crate::components::highlight::Lang;
use crate::content::model::CodeSample;
use crate::scenarios::fence::{
    caption, max_seen_in_setup, not_plain_integer_note, FenceLedger, FenceOutcome,
};
use crate::scenarios::FENCED_WRITE_SCRIPT;

/// The fenced-write script as a code sample: the same text the figure's runs execute.
static SCRIPT_SAMPLE: CodeSample = CodeSample {
    lang: Lang::Lua,
    text: FENCED_WRITE_SCRIPT,
};
use crate::scenarios::share::MAX_FENCE_COMMITS;

/// The fenced-write figure, `figure[data-figure="fence"]`.
#[component]
pub fn FenceFigure() -> impl IntoView {
    let seen = max_seen_in_setup();
    let committed = RwSignal::new(share_url::read().fence);
    let board = Memo::new(move |_| committed.with(|tokens| FenceLedger::replay(tokens).board()));
    // The commit just made, shown in the readout until the selection moves on.
    let just_committed = RwSignal::new(None::<FenceOutcome>);
    let selection = Selection::<i64>::new(WRITER_SELECTOR);
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
    let verdicts = FenceOutcome::run_all()
        .iter()
        .map(|o| VerdictLine {
            mark: mark(o),
            text: o.verdict(),
        })
        .collect();

    view! {
        <figure
            class="fig fig-fence"
            data-selected=move || selection.shown().map(|t| t.to_string())
            {..custom_attribute(FIGURE, Figure::Fence.hook())}
        >
            <figcaption>{caption(seen)}</figcaption>
            <FenceDrawing board seen selection on_commit on_reset />
            <FenceReadout board seen selection just_committed=just_committed.read_only() />
            <FenceLog board seen />
            <StaticVerdicts lines=verdicts />
            <ScriptsDisclosure
                summary="The script this figure runs".to_string()
                scripts=vec![("fenced_write.lua", &SCRIPT_SAMPLE)]
                notes=vec![not_plain_integer_note()]
            />
        </figure>
    }
}
