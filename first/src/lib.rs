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
    // compute: go for the figures' chunk at once, and show the reader the figure it is about.
    let hash = window.location().hash().unwrap_or_default();
    if let Some(part) = fragment::first_shared_part(&hash) {
        lab::load(&document, lockdive_contract::lab::LabChunk::Figures);
        open_at(&window, &document, part);
    }
    figures
}

/// Scrolls the part a shared link carries into view: the browser looks for an element whose id
/// is the whole fragment, finds none and stays at the top. Only when the link was followed — a
/// reload or a step back or forward brings the reader's own scroll back — and the reader has
/// not scrolled yet (on a slow line the wasm can start after they began to read), and never in
/// a frame, where scrolling into view could move the host's page too.
fn open_at(window: &web_sys::Window, document: &web_sys::Document, part: fragment::SharedPart) {
    let scrolled = window.scroll_y().map_or(true, |y| y > 0.0);
    if scrolled || embed::is_framed(window) || !followed_a_link(window) {
        return;
    }
    if let Ok(Some(element)) = document.query_selector(&part.selector()) {
        element.scroll_into_view();
    }
}

/// Whether this load is a navigation to the page rather than a reload or a history step (the
/// navigation timing entry's `type`); a browser that does not say counts as a navigation.
fn followed_a_link(window: &web_sys::Window) -> bool {
    let Some(performance) = window.performance() else {
        return true;
    };
    let entry = performance.get_entries_by_type("navigation").get(0);
    let kind = js_sys::Reflect::get(&entry, &"type".into())
        .ok()
        .and_then(|kind| kind.as_string());
    !matches!(kind.as_deref(), Some("reload" | "back_forward"))
}
