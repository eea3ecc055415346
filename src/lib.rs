//! lockdive — dive R2.02.2 of the distributed-locking course, "The token makes release safe".
//!
//! # Layout
//! - `scenarios`: drive ministore through the brief's scenarios and turn replies into verdicts
//!   (pure Rust, tested natively).
//! - `content`: the dive's text as data, one module per section, in the brief's order.
//! - `components`: the views — header, sections, code blocks (with a tested highlighter), asides
//!   and the two interactive figures; views render content and verdicts, never compute them.
//! - `links`: the one configurable base URL that every link to another course page hangs off.

pub mod components;
pub mod content;
pub mod links;
pub mod scenarios;

use leptos::prelude::*;

use components::blocks::FigureView;
use components::header::DiveHeader;
use components::section::DiveSection;
use content::DIVE;

/// The whole page: the header, the opening figure, then §1–§6.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <main class="dive">
            <article class="dive-article">
                <DiveHeader header=DIVE.header />
                <FigureView figure=DIVE.lead_figure />
                {DIVE
                    .sections
                    .iter()
                    .map(|section| view! { <DiveSection section=*section /> })
                    .collect_view()}
            </article>
        </main>
    }
}
