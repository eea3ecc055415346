//! Figure 2, the fenced write: the figure's layout as built, with its live parts — the resource
//! bar, the lanes' outcomes, the readout sources and the log — rendered as markup over the fence as
//! committed so far ([`FenceBoard`]), which the lab renders again after every commit
//! (`lockdive::lab::fence`). The writers' buttons stay as built but for their roles, and the
//! caption but for the token it says the resource has seen, which the lab sets against the fence
//! as it stands; the static verdicts (the what-ifs against "seen 34") stay as built.

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::FIGURE;
use lockdive_contract::Figure;

use super::fence_drawing::FenceDrawing;
use super::fence_log::ledger;
use super::fence_readout::{mark, readout_sources};
use super::readout::{Readout, ReadoutText};
use super::scripts::ScriptsDisclosure;
use super::share_url;
use super::slot::{LivePart, MarkupSlot};
use super::verdicts::{StaticVerdicts, VerdictLine};
use crate::components::highlight::Lang;
use crate::content::model::CodeSample;
use crate::scenarios::fence::{
    caption, idle_readout, max_seen_in_setup, not_plain_integer_note, FenceLedger, FenceOutcome,
};
use crate::scenarios::FENCED_WRITE_SCRIPT;

/// The fenced-write script as a code sample: the same text the figure's runs execute.
static SCRIPT_SAMPLE: CodeSample = CodeSample {
    lang: Lang::Lua,
    text: FENCED_WRITE_SCRIPT,
};

/// The fenced-write figure, `figure[data-figure="fence"]`, with the commits in the page's shared
/// link (none in the build).
#[component]
pub fn FenceFigure() -> impl IntoView {
    let seen = max_seen_in_setup();
    let board = FenceLedger::replay(&share_url::read().fence).board();
    let verdicts = FenceOutcome::run_all()
        .iter()
        .map(|o| VerdictLine {
            mark: mark(o),
            text: o.verdict(),
        })
        .collect();
    let idle = ReadoutText::idle(idle_readout(board.max_seen));
    let sources = readout_sources(&board, None).finish();
    let log = ledger(&board, seen).finish();

    view! {
        <figure class="fig fig-fence" {..custom_attribute(FIGURE, Figure::Fence.hook())}>
            <figcaption>{caption(seen)}</figcaption>
            <FenceDrawing board seen />
            <Readout text=idle />
            <MarkupSlot part=LivePart::FenceReadouts markup=sources />
            <MarkupSlot part=LivePart::FenceLog markup=log />
            <StaticVerdicts lines=verdicts />
            <ScriptsDisclosure
                summary="The script this figure runs".to_string()
                scripts=vec![("fenced_write.lua", &SCRIPT_SAMPLE)]
                notes=vec![not_plain_integer_note()]
            />
        </figure>
    }
}
