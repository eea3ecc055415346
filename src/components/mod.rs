//! The page's view components. Content components render `crate::content` data and hold no text
//! of their own; `figures` (the interactive figures and their parts) is owned separately.
//!
//! - `blocks`: one rendering per content block kind, and the figure slot.
//! - `boxes`: the "Notes on Valkey" aside, pull-quotes, callouts and the door box.
//! - `console`: the redis-cli-like prompt under each figure, over a copy of its store.
//! - `code` + `highlight`: highlighted code blocks (the tokenizer is pure and tested natively).
//! - `theme_toggle`: the light / dark / system switch (remembered in localStorage).
//! - `header`, `section`, `steps`, `references`, `rich_text`: the article's structure and prose.

#[cfg(feature = "views")]
pub mod blocks;
#[cfg(feature = "views")]
pub mod boxes;
pub mod code;
pub mod console;
pub mod figures;
#[cfg(feature = "views")]
pub mod header;
pub mod highlight;
pub mod markup;
#[cfg(feature = "views")]
pub mod references;
pub mod rich_text;
#[cfg(feature = "views")]
pub mod section;
#[cfg(feature = "views")]
pub mod steps;
#[cfg(feature = "views")]
pub mod theme_toggle;
