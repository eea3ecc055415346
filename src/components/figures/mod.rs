//! PLACEHOLDER written by the content helper so the page builds before the figures land.
//! The figures helper owns this folder and replaces this file with the real figures.

use leptos::prelude::*;

/// Figure 1 slot (placeholder until the figures helper's component lands).
#[component]
pub fn LostLockFigure() -> impl IntoView {
    view! { <figure data-figure="lost-lock"></figure> }
}

/// Figure 2 slot (placeholder until the figures helper's component lands).
#[component]
pub fn FenceFigure() -> impl IntoView {
    view! { <figure data-figure="fence"></figure> }
}
