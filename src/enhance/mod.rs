//! The page's first wasm, small on purpose: every learner downloads it before the figures answer.
//! It makes the prerendered page live without a store — each figure's choices swap in the readouts
//! the build computed by running the scenarios in ministore, the theme switch works, links follow
//! the course base, a framing host hears the height and sets the theme and font — and loads the
//! lab (`lab`) when the reader reaches for what needs the store itself: the player, the consoles, a
//! commit.

mod figure;
mod lab;
mod theme;

use crate::scenarios::share::SharedState;

/// Brings the prerendered page to life. Returns how many figures answer.
pub fn start() -> usize {
    let Some(window) = web_sys::window() else {
        return 0;
    };
    let Some(document) = window.document() else {
        return 0;
    };
    theme::enhance(&document);
    let figures = figure::enhance_all(&document);
    lab::watch(&document);
    crate::links::relink_course_pages(&document);
    crate::embed::follow_host();
    crate::embed::post_height_to_host();
    crate::embed::announce_interactive();
    // A link that carries the player's or the fence's state opens on a state only the store can
    // compute: go for the lab at once.
    let fragment = window.location().hash().unwrap_or_default();
    if SharedState::parse(&fragment) != SharedState::default() {
        lab::load(&document);
    }
    figures
}
