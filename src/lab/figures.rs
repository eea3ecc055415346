//! The figures' lab chunk (`src/bin/lab-figures.rs`): figure 1's scenario player and figure 2's
//! resource bar, lanes, readout sources and log. It runs only the page's own scripts, so it is
//! built without ministore's `full` feature.

use lockdive_contract::lab::LabChunk;

use crate::components::figures::{fence_part, FenceLive, LivePart, ScenarioPlayer};

/// The figures' chunk: `LAB.mount()` takes the page over, `LAB.mount_in(root)` a test's copy of it.
pub const LAB: super::ChunkMount = super::ChunkMount {
    chunk: LabChunk::Figures,
    mount_parts,
};

/// Renders each of the chunk's parts under `root` in place of the built one.
fn mount_parts(root: &web_sys::Element) -> usize {
    super::replace_parts(
        LabChunk::Figures,
        root,
        mount_part,
        Some(super::fence::HANDOVER),
    )
}

/// Mounts the player or one of figure 2's parts into `into`.
fn mount_part(part: LivePart, into: web_sys::HtmlElement, fence: Option<FenceLive>) -> bool {
    match (part, fence) {
        (LivePart::Player, _) => leptos::mount::mount_to(into, ScenarioPlayer).forget(),
        (_, Some(live)) if part.is_fence() => {
            leptos::mount::mount_to(into, move || fence_part(part, live)).forget()
        }
        _ => return false,
    }
    true
}
