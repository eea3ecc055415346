//! lockdive — dive R2.02.2 of the distributed-locking course, "The token makes release safe".
//!
//! # Layout
//! - `scenarios`: drive ministore through the brief's scenarios and turn replies into verdicts
//!   (pure Rust, tested natively).
//! - `content`: the dive's text as data, one module per section, in the brief's order.
//! - `components`: the views — header, sections, code blocks (with a tested highlighter), asides
//!   and the four interactive figures; views render content and verdicts, never compute them.
//! - `links`: the course pages this dive links to, resolved against the one configurable base.
//! - `prerender`: the page rendered natively into dist/index.html at build time.
//! - `lab`: the lab's three wasm chunks' mount of the parts that need the store (the figures'
//!   chunk: the player and figure 2's commits; the store's: the consoles; the checker's: the lock
//!   checker) into their slots in that markup, and the commit hand-over.
//!
//! Beside it in the workspace: `lockdive-contract` (`contract/`) holds what the markup, both wasm
//! modules and the tests agree on — the DOM hooks, the lab's states, the choice rules — and
//! `lockdive-first` (`first/`) is the page's first, small wasm: every figure choice answers hover,
//! focus and taps from the readouts' sources for the page's life, without a store; it loads the lab
//! when one is needed and hands it the commits.

// The native (`ssr`) side types the whole page as one nested view, async resolution included,
// deeper than the compiler's default query limit of 128.
#![recursion_limit = "256"]

/// Items that exist only with the Leptos views (the `views` feature): the build's and the browser
/// tests' side of the page, which no lab chunk links.
macro_rules! views {
    ($($item:item)*) => {
        $(
            #[cfg(feature = "views")]
            $item
        )*
    };
}

pub mod components;
pub mod content;
pub mod lab;
pub mod links;
pub mod prerender;
pub mod scenarios;

#[cfg(feature = "views")]
pub use page::App;

/// The page as one view, which the build renders.
#[cfg(feature = "views")]
mod page {
    use leptos::prelude::*;

    use crate::components::blocks::FigureBlock;
    use crate::components::header::DiveHeader;
    use crate::components::section::DiveSection;
    use crate::components::theme_toggle::ThemeToggle;
    use crate::content::DIVE;

    /// The whole page: the header, the opening figure, then §1–§5, the lock checker and §6.
    #[component]
    pub fn App() -> impl IntoView {
        view! {
            <main class="dive">
                <ThemeToggle />
                <article class="dive-article">
                    <DiveHeader header=DIVE.header />
                    <FigureBlock figure=DIVE.lead_figure />
                    {DIVE
                        .in_page_order()
                        .into_iter()
                        .map(|section| view! { <DiveSection section /> })
                        .collect_view()}
                </article>
            </main>
        }
    }
}
