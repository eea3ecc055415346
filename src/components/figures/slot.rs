//! `FigureSlot`: the element a figure's live part sits in, named after the figure
//! (`<div class="island" data-island="lost-lock">`), which the lab finds and mounts the live
//! figure into. `display: contents` (page.css): the wrapper adds no box, so the page lays out
//! exactly as without it.

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::SLOT;
use lockdive_contract::Figure;

/// The slot of `figure`, holding what the build renders there (the lab's first render is the same).
#[component]
pub fn FigureSlot(
    /// Which figure the slot holds: its name tells the lab what to mount there.
    figure: Figure,
    /// The figure's live part, as the build and the tests render it.
    children: Children,
) -> impl IntoView {
    view! {
        <div class="island" {..custom_attribute(SLOT, figure.hook())}>
            {children()}
        </div>
    }
}
