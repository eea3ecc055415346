//! Figure 2, the fenced write: the figure's layout as built, and its live parts over the committed
//! fence (`fence_live`), which the lab mounts into the figure's slots. The writers' buttons and the
//! static verdicts (the what-ifs against "seen 34") stay as built.

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::FIGURE;
use lockdive_contract::Figure;

use super::fence_drawing::{FenceDrawing, ProtectedResource, WriterOutcome};
use super::fence_live::FenceLive;
use super::fence_log::FenceLog;
use super::fence_readout::{mark, FenceReadoutSources};
use super::readout::{Readout, ReadoutText};
use super::scripts::ScriptsDisclosure;
use super::slot::{LivePart, LiveSlot};
use super::verdicts::{StaticVerdicts, VerdictLine};
use crate::components::highlight::Lang;
use crate::content::model::CodeSample;
use crate::scenarios::fence::{caption, idle_readout, not_plain_integer_note, FenceOutcome};
use crate::scenarios::FENCED_WRITE_SCRIPT;

/// The fenced-write script as a code sample: the same text the figure's runs execute.
static SCRIPT_SAMPLE: CodeSample = CodeSample {
    lang: Lang::Lua,
    text: FENCED_WRITE_SCRIPT,
};

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
