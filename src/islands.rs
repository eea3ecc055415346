//! The live parts of the prerendered page. The build renders the whole `App` into index.html; in the
//! browser the wasm mounts only the islands — each figure with its console, and the theme switch —
//! into their `data-island` slots, so the wasm carries no prose, code highlighting or references.
//! Both sides render the slots through [`Island`], so the markup cannot drift.

use leptos::prelude::*;

use crate::content::model::FigureSlot;

/// The attribute naming a slot: `<div data-island="lost-lock" class="island">`.
pub const ISLAND_ATTRIBUTE: &str = "data-island";

/// The theme switch's slot name; the figures' are [`figure_island`]'s.
pub const THEME_TOGGLE_ISLAND: &str = "theme-toggle";

/// The slot name of a figure (with its console).
pub fn figure_island(figure: FigureSlot) -> &'static str {
    match figure {
        FigureSlot::LostLock => "lost-lock",
        FigureSlot::Fence => "fence",
        FigureSlot::Attempts => "attempts",
    }
}

/// A slot the wasm mounts a live part into. `display: contents` (page.css): the wrapper adds no box,
/// so the page lays out exactly as without it.
#[component]
pub fn Island(
    /// The slot's name, which tells the wasm what to mount there.
    name: &'static str,
    /// The live part, as the prerender and the tests render it.
    children: Children,
) -> impl IntoView {
    view! {
        <div class="island" data-island=name>
            {children()}
        </div>
    }
}

/// Mounts every island of the prerendered page into its slot, replacing the slot's prerendered
/// children in the same task (the browser never paints in between), then makes the static parts
/// follow the page's URL: course links against `?course-base=`, the landing on `#fragment`, the
/// height posted to a framing host, the interactive mark. Returns how many islands went live.
#[cfg(target_arch = "wasm32")]
pub fn mount_islands() -> usize {
    use crate::components::blocks::FigureView;
    use crate::components::theme_toggle::ThemeToggle;
    use wasm_bindgen::JsCast;

    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return 0;
    };
    let Ok(slots) = document.query_selector_all(&format!("[{ISLAND_ATTRIBUTE}]")) else {
        return 0;
    };
    let mut mounted = 0;
    for index in 0..slots.length() {
        let Some(slot) = slots
            .item(index)
            .and_then(|node| node.dyn_into::<web_sys::HtmlElement>().ok())
        else {
            continue;
        };
        let name = slot.get_attribute(ISLAND_ATTRIBUTE).unwrap_or_default();
        let figure = [
            FigureSlot::LostLock,
            FigureSlot::Fence,
            FigureSlot::Attempts,
        ]
        .into_iter()
        .find(|figure| figure_island(*figure) == name);
        let went_live = match (name.as_str(), figure) {
            (_, Some(figure)) => {
                slot.set_text_content(None);
                leptos::mount::mount_to(slot, move || view! { <FigureView figure /> }).forget();
                true
            }
            (THEME_TOGGLE_ISLAND, None) => {
                slot.set_text_content(None);
                leptos::mount::mount_to(slot, ThemeToggle).forget();
                true
            }
            _ => false,
        };
        mounted += usize::from(went_live);
    }
    crate::links::relink_course_pages(&document);
    crate::land_on_fragment();
    crate::embed::post_height_to_host();
    crate::embed::announce_interactive();
    mounted
}
