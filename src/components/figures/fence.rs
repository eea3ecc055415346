//! Figure 2, the fenced write: the figure's layout as built, and its live parts — the commits a
//! learner made (replayed in ministore into the board every live part renders from), their place
//! in the shared URL — which the lab mounts into the figure's slots. The writers' buttons and the
//! static verdicts (the what-ifs against "seen 34") stay as built.

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::FIGURE;
use lockdive_contract::Figure;

use super::fence_drawing::{FenceDrawing, ProtectedResource, WriterOutcome};
use super::fence_log::FenceLog;
use super::fence_readout::{mark, FenceReadoutSources};
use super::readout::{Readout, ReadoutText};
use super::scripts::ScriptsDisclosure;
use super::share_url;
use super::slot::{LivePart, LiveSlot};
use super::verdicts::{StaticVerdicts, VerdictLine};
use crate::components::highlight::Lang;
use crate::content::model::CodeSample;
use crate::scenarios::fence::{
    caption, idle_readout, max_seen_in_setup, not_plain_integer_note, FenceBoard, FenceLedger,
    FenceOutcome,
};
use crate::scenarios::share::MAX_FENCE_COMMITS;
use crate::scenarios::FENCED_WRITE_SCRIPT;

/// The fenced-write script as a code sample: the same text the figure's runs execute.
static SCRIPT_SAMPLE: CodeSample = CodeSample {
    lang: Lang::Lua,
    text: FENCED_WRITE_SCRIPT,
};

/// The fence as committed so far, shared by the figure's live parts: one per figure, made by the
/// build (from no commits) or by the lab (from the shared link's).
#[derive(Clone, Copy, Debug)]
pub struct FenceLive {
    committed: RwSignal<Vec<i64>>,
    /// The fence after the commits, which every live part renders from.
    pub board: Memo<FenceBoard>,
    /// The commit just made, until a reset; `None` on a fresh page and after a reset.
    pub just_committed: RwSignal<Option<FenceOutcome>>,
    /// The token the resource had seen before any commit (what a reset returns to).
    pub seen: Option<i64>,
}

impl FenceLive {
    /// The fence with the commits in the page's shared link.
    pub fn new() -> FenceLive {
        let committed = RwSignal::new(share_url::read().fence);
        FenceLive {
            committed,
            board: Memo::new(move |_| committed.with(|tokens| FenceLedger::replay(tokens).board())),
            just_committed: RwSignal::new(None),
            seen: max_seen_in_setup(),
        }
    }

    /// Commits the writer's write with `token`, unless the log is full.
    pub fn commit(&self, token: i64) {
        if self
            .committed
            .with_untracked(|c| c.len() >= MAX_FENCE_COMMITS)
        {
            return;
        }
        self.committed.update(|c| c.push(token));
        let outcome = self.board.with_untracked(|b| b.log.last().cloned());
        self.just_committed.set(outcome);
        let tokens = self.committed.get_untracked();
        share_url::update(|state| state.fence = tokens);
    }

    /// Empties the log: the fence returns to `seen`.
    pub fn reset(&self) {
        self.committed.set(Vec::new());
        self.just_committed.set(None);
        share_url::update(|state| state.fence.clear());
    }
}

impl Default for FenceLive {
    fn default() -> Self {
        FenceLive::new()
    }
}

/// What the lab mounts into one of figure 2's slots; the build renders the same inside them.
pub fn fence_part(part: LivePart, live: FenceLive) -> AnyView {
    match part {
        LivePart::FenceResource => view! { <ProtectedResource live /> }.into_any(),
        LivePart::FenceLane(writer) => view! { <WriterOutcome writer live /> }.into_any(),
        LivePart::FenceReadouts => view! { <FenceReadoutSources live /> }.into_any(),
        LivePart::FenceLog => view! { <FenceLog live /> }.into_any(),
        _ => ().into_any(),
    }
}

/// The fenced-write figure, `figure[data-figure="fence"]`.
#[component]
pub fn FenceFigure() -> impl IntoView {
    let live = FenceLive::new();
    let verdicts = FenceOutcome::run_all()
        .iter()
        .map(|o| VerdictLine {
            mark: mark(o),
            text: o.verdict(),
        })
        .collect();
    let idle = ReadoutText::idle(idle_readout(live.board.with_untracked(|b| b.max_seen)));
    let part = move |part: LivePart| view! { <LiveSlot part>{fence_part(part, live)}</LiveSlot> };

    view! {
        <figure class="fig fig-fence" {..custom_attribute(FIGURE, Figure::Fence.hook())}>
            <figcaption>{caption(live.seen)}</figcaption>
            <FenceDrawing live />
            <Readout text=idle />
            {part(LivePart::FenceReadouts)}
            {part(LivePart::FenceLog)}
            <StaticVerdicts lines=verdicts />
            <ScriptsDisclosure
                summary="The script this figure runs".to_string()
                scripts=vec![("fenced_write.lua", &SCRIPT_SAMPLE)]
                notes=vec![not_plain_integer_note()]
            />
        </figure>
    }
}
