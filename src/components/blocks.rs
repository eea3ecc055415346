//! `BlockView`: renders one content block by kind, and `FigureBlock`, an interactive figure (owned
//! by `figures`) with its console's slot under it. Each figure holds the slots of its own live
//! parts (`figures::LivePart`), which the lab mounts into (`crate::lab`).

use leptos::prelude::*;

use super::boxes::{CalloutBox, DoorBox, NoteAside, PullQuote};
use super::code::CodeBlock;
use super::console::StoreConsole;
use super::figures::{
    AttemptsFigure, CheckLockFigure, FenceFigure, LivePart, LiveSlot, LostLockFigure,
};
use super::references::{RelatedNav, SourcesList};
use super::rich_text::RichText;
use super::steps::ScenarioSteps;
use crate::content::model::{Block, Figure};
use crate::scenarios::console::ConsoleSeed;

/// One block of a section's body; every kind of block has exactly one rendering here.
#[component]
pub fn BlockView(
    /// The block to render.
    block: &'static Block,
) -> impl IntoView {
    match block {
        Block::Para(markup) => view! {
            <p>
                <RichText markup=*markup />
            </p>
        }
        .into_any(),
        Block::Code(sample) => view! { <CodeBlock sample /> }.into_any(),
        Block::Steps(steps) => view! { <ScenarioSteps steps=*steps /> }.into_any(),
        Block::Aside(aside) => view! { <NoteAside aside /> }.into_any(),
        Block::PullQuote(text) => view! { <PullQuote text=*text /> }.into_any(),
        Block::Figure(figure) => view! { <FigureBlock figure=*figure /> }.into_any(),
        Block::Callout(callout) => view! { <CalloutBox callout /> }.into_any(),
        Block::Door(door) => view! { <DoorBox door /> }.into_any(),
        Block::Sources(sources) => view! { <SourcesList sources /> }.into_any(),
        Block::Related(related) => view! { <RelatedNav related /> }.into_any(),
    }
}

/// The interactive figure a page block names, with a console over that figure's store under it in
/// its own slot (the checker has no console: its live part is a slot inside its figure).
#[component]
pub fn FigureBlock(
    /// Which figure goes here.
    figure: Figure,
) -> impl IntoView {
    let console = |seed: ConsoleSeed| {
        view! {
            <LiveSlot part=LivePart::Console(seed)>
                <StoreConsole seed />
            </LiveSlot>
        }
    };
    match figure {
        Figure::LostLock => view! {
            <LostLockFigure />
            {console(ConsoleSeed::LostLock)}
        }
        .into_any(),
        Figure::Fence => view! {
            <FenceFigure />
            {console(ConsoleSeed::Fence)}
        }
        .into_any(),
        Figure::Attempts => view! {
            <AttemptsFigure />
            {console(ConsoleSeed::Attempts)}
        }
        .into_any(),
        Figure::CheckLock => view! { <CheckLockFigure /> }.into_any(),
    }
}
