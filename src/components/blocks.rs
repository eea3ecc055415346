//! `BlockView`: renders one content block by kind, and `FigureView`, the slot an interactive
//! figure (owned by `figures`) is placed in.

use leptos::prelude::*;

use super::boxes::{CalloutBox, DoorBox, NoteAside, PullQuote};
use super::code::CodeBlock;
use super::console::StoreConsole;
use super::figures::{AttemptsFigure, CheckLockFigure, CheckLockLive, FenceFigure, LostLockFigure};
use super::references::{RelatedNav, SourcesList};
use super::rich_text::RichText;
use super::steps::ScenarioSteps;
use crate::content::model::{Block, FigureSlot};
use crate::islands::{figure_island, Island};
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
        // The checker's figure holds its own slot: its build-time table stays outside it.
        Block::Figure(FigureSlot::CheckLock) => view! { <CheckLockFigure /> }.into_any(),
        Block::Figure(slot) => view! {
            <Island name=figure_island(*slot)>
                <FigureView figure=*slot />
            </Island>
        }
        .into_any(),
        Block::Callout(callout) => view! { <CalloutBox callout /> }.into_any(),
        Block::Door(door) => view! { <DoorBox door /> }.into_any(),
        Block::Sources(sources) => view! { <SourcesList sources /> }.into_any(),
        Block::Related(related) => view! { <RelatedNav related /> }.into_any(),
    }
}

/// The interactive figure a slot names, with a console over that figure's store under it: what
/// the wasm mounts into the figure's island (`crate::islands`).
#[component]
pub fn FigureView(
    /// Which figure goes here.
    figure: FigureSlot,
) -> impl IntoView {
    match figure {
        FigureSlot::LostLock => view! {
            <LostLockFigure />
            <StoreConsole seed=ConsoleSeed::LostLock />
        }
        .into_any(),
        FigureSlot::Fence => view! {
            <FenceFigure />
            <StoreConsole seed=ConsoleSeed::Fence />
        }
        .into_any(),
        FigureSlot::Attempts => view! {
            <AttemptsFigure />
            <StoreConsole seed=ConsoleSeed::Attempts />
        }
        .into_any(),
        // The live part only (no console): the figure around it, with the build's table, stays.
        FigureSlot::CheckLock => view! { <CheckLockLive /> }.into_any(),
    }
}
