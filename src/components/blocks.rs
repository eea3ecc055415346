//! `BlockView`: renders one content block by kind; for a figure, `FigureBlock` puts its live part
//! in its lab slot (`figures::FigureSlot`), and `figure_view` is that live part, which the lab
//! mounts into the slot (`crate::lab`).

use leptos::prelude::*;

use super::boxes::{CalloutBox, DoorBox, NoteAside, PullQuote};
use super::code::CodeBlock;
use super::console::StoreConsole;
use super::figures::{
    AttemptsFigure, CheckLockFigure, CheckLockLive, FenceFigure, FigureSlot, LostLockFigure,
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

/// A figure where the page places it: its live part in its lab slot. The checker's figure holds
/// its own slot, so its build-time table stays outside it.
#[component]
pub fn FigureBlock(
    /// Which figure goes here.
    figure: Figure,
) -> impl IntoView {
    match figure {
        Figure::CheckLock => view! { <CheckLockFigure /> }.into_any(),
        _ => view! { <FigureSlot figure>{figure_view(figure)}</FigureSlot> }.into_any(),
    }
}

/// A figure's live part, what its slot holds: the figure with a console over its store under it
/// (the checker: its live part only, the figure around it with the build's table stays).
pub fn figure_view(figure: Figure) -> AnyView {
    match figure {
        Figure::LostLock => view! {
            <LostLockFigure />
            <StoreConsole seed=ConsoleSeed::LostLock />
        }
        .into_any(),
        Figure::Fence => view! {
            <FenceFigure />
            <StoreConsole seed=ConsoleSeed::Fence />
        }
        .into_any(),
        Figure::Attempts => view! {
            <AttemptsFigure />
            <StoreConsole seed=ConsoleSeed::Attempts />
        }
        .into_any(),
        Figure::CheckLock => view! { <CheckLockLive /> }.into_any(),
    }
}
