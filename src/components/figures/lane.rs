//! A cell of a step drawing's lane (figures 1 and 3). The drawing's column heads are hidden from
//! screen readers, so each cell with something in it starts with its lane's name in text only
//! they read.

use leptos::prelude::*;

/// A lane's name for screen readers, which skip the drawing's column heads: `client A: `. A
/// narrow screen shows the same name from the cell's `data-lane`.
#[component]
pub fn LaneName(
    /// The lane's name.
    label: &'static str,
) -> impl IntoView {
    view! { <span class="fig-sr">{label} ": "</span> }
}

/// A cell of `label`'s lane, named for screen readers when it has something in it; an empty
/// cell stays empty, which a narrow screen hides.
#[component]
pub fn LaneCell(
    /// The lane's name.
    label: &'static str,
    /// What the cell holds, if anything.
    body: Option<AnyView>,
) -> impl IntoView {
    let named = body.is_some();
    view! {
        <div class="ll-cell" data-lane=label>
            {named.then(|| view! { <LaneName label /> })}
            {body}
        </div>
    }
}
