//! The page's view components. Content components render `crate::content` data and hold no text
//! of their own; `figures` (the interactive figures and their parts) is owned separately.
//!
//! - `blocks`: one rendering per content block kind, and the figure slot.
//! - `boxes`: the "Notes on Valkey" aside, pull-quotes, callouts and the door box.
//! - `console`: the redis-cli-like prompt under each figure, over a copy of its store.
//! - `code` + `highlight`: highlighted code blocks (the tokenizer is pure and tested natively).
//! - `theme_toggle`: the light / dark / system switch (remembered in localStorage).
//! - `header`, `section`, `steps`, `references`, `rich_text`: the article's structure and prose.

pub mod code;
pub mod console;
pub mod figures;
pub mod highlight;
pub mod markup;
pub mod rich_text;

// Components with no markup function beside them: only the build renders them.
views! {
    pub mod blocks;
    pub mod boxes;
    pub mod header;
    pub mod references;
    pub mod section;
    pub mod steps;
    pub mod theme_toggle;
}
