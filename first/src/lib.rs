//! The page's first wasm, small on purpose: every learner downloads it before the figures answer.
//! It makes the prerendered page live without a store — each figure's choices swap in the readouts
//! the build computed by running the scenarios in ministore (`figure`; for figure 2 the lab
//! re-renders them after a commit), and stay its own for the page's life, the theme switch works
//! (`theme`), course links follow the page's base (`course_links`), a framing host hears the height
//! and sets the theme and font (`embed`) — and loads the lab (`lab`) when the reader reaches for
//! what needs the store itself: the player, the consoles, a commit, a shared link's state.
//!
//! It depends on the DOM bindings and `lockdive-contract` only (no Leptos, no ministore), and meets
//! the lab in the DOM through the contract's hooks. The lab reuses `dom`, `course_links` and
//! `embed::mark` from here.

pub mod course_links;
pub mod dom;
pub mod embed;
pub mod figure;
mod lab;
mod theme;
mod words;

use lockdive_contract::fragment;

/// Brings the prerendered page to life. Returns how many figures answer.
pub fn start() -> usize {
    let Some(window) = web_sys::window() else {
        return 0;
    };
    let Some(document) = window.document() else {
        return 0;
    };
    theme::enhance(&document);
    let Some(root) = document.document_element() else {
        return 0;
    };
    let figures = figure::enhance_all(&root);
    lab::watch(&document);
    course_links::relink(&document);
    embed::follow_host();
    embed::post_height_to_host();
    embed::announce_interactive();
    // A link that carries the player's or the fence's state opens on a state only the store can
    // compute: go for the figures' chunk at once.
    let hash = window.location().hash().unwrap_or_default();
    if fragment::carries_store_state(&hash) {
        lab::load(&document, lockdive_contract::lab::LabChunk::Figures);
    }
    figures
}
