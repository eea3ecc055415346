//! lockdive — dive R2.02.2 of the distributed-locking course, "The token makes release safe".
//!
//! # Layout
//! - `scenarios`: drive ministore through the brief's scenarios and turn replies into verdicts
//!   (pure Rust, tested natively).
//! - `content`: the dive's text as data, one module per section, in the brief's order.
//! - `components`: the views — header, sections, code blocks (with a tested highlighter), asides
//!   and the two interactive figures; views render content and verdicts, never compute them.
//! - `links`: the one configurable base URL that every link to another course page hangs off.
//! - `prerender`: the page rendered natively into dist/index.html at build time.
//! - `enhance`: the page's first, small wasm: the prerendered figures answer hover, focus and taps
//!   from the readouts the build computed, without a store; it loads the lab when one is needed.
//! - `islands`: the lab wasm's mount of the live figures (store, player, consoles) into that markup.
//! - `choice_layers`: the hover / tap / focus rules both of them follow.
//! - `dom`: a DOM query's matches as typed elements, for both wasm modules.
//! - `embed`: what the page tells its host (content height to a framing parent, the interactive mark).

// The native (`ssr`) side types the whole page as one nested view, async resolution included,
// deeper than the compiler's default query limit of 128.
#![recursion_limit = "256"]

pub mod choice_layers;
pub mod components;
pub mod content;
#[cfg(target_arch = "wasm32")]
mod dom;
pub mod embed;
#[cfg(target_arch = "wasm32")]
pub mod enhance;
pub mod islands;
pub mod links;
pub mod prerender;
pub mod scenarios;

use leptos::prelude::*;

use components::blocks::FigureView;
use components::header::DiveHeader;
use components::section::DiveSection;
use components::theme_toggle::ThemeToggle;
use content::DIVE;
use islands::{figure_island, Island};

/// The whole page: the header, the opening figure, then §1–§5, the lock checker and §6.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <main class="dive">
            <ThemeToggle />
            <article class="dive-article">
                <DiveHeader header=DIVE.header />
                <Island name=figure_island(DIVE.lead_figure)>
                    <FigureView figure=DIVE.lead_figure />
                </Island>
                {DIVE
                    .in_page_order()
                    .into_iter()
                    .map(|section| view! { <DiveSection section /> })
                    .collect_view()}
            </article>
        </main>
    }
}
