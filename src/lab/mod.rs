//! The lab wasm's side of the page, in three chunks (`lockdive_contract::lab::LabChunk`), each its
//! own binary (`src/bin/lab-figures.rs`, `src/bin/lab-store.rs`, `src/bin/lab-check.rs`): the
//! first wasm loads a chunk when the reader first reaches for one of its parts. A chunk mounts only
//! its own parts (`components::figures::LivePart`), each into its own slot in the prerendered
//! markup: the figures' chunk the player and figure 2's resource bar, lanes, readout sources and
//! log ([`figures`]); the store's chunk the consoles ([`store`]); the checker's chunk the lock
//! checker ([`check`]). Each chunk's binary names only its own components (its module's `LAB`,
//! a [`ChunkMount`]), so the linker keeps the other chunks' components out (the shared mount below,
//! with figure 2's hand-over, is in all three). Captions,
//! choice rows, static verdicts and the build's readouts stay as built; the build and the lab
//! render a slot's content through the same component, so the markup cannot drift. It carries
//! over what the reader already did there (`carry`).
//!
//! A commit crosses the boundary in the DOM (`fence`): the first wasm asks for it on the figure
//! (`hooks::COMMIT`, then `hooks::COMMIT_EVENT`); the figures' chunk takes the request (removing
//! the attribute, so it is carried out once), re-renders the figure's readout sources and says so
//! (`hooks::OUTCOMES_EVENT`), and the first wasm re-reads them. The slots, the chunks' states and
//! the kept actions are `lockdive_contract`'s; the lab depends on the components, never the reverse.

#[cfg(target_arch = "wasm32")]
mod carry;
#[cfg(target_arch = "wasm32")]
pub mod check;
#[cfg(target_arch = "wasm32")]
mod fence;
#[cfg(target_arch = "wasm32")]
pub mod figures;
#[cfg(target_arch = "wasm32")]
pub mod store;

/// How a chunk mounts one of its parts into the emptied slot `into`; figure 2's parts get the
/// figure's committed fence. Returns whether it mounted anything.
#[cfg(target_arch = "wasm32")]
pub type MountPart = fn(
    part: crate::components::figures::LivePart,
    into: web_sys::HtmlElement,
    fence: Option<crate::components::figures::FenceLive>,
) -> bool;

/// One chunk's takeover: which chunk it is, and how it mounts each of its parts. Each chunk's
/// module has one (`LAB`), and only that chunk's binary names it.
#[cfg(target_arch = "wasm32")]
#[derive(Clone, Copy)]
pub struct ChunkMount {
    pub chunk: lockdive_contract::lab::LabChunk,
    pub mount_part: MountPart,
}

#[cfg(target_arch = "wasm32")]
impl ChunkMount {
    /// The chunk's takeover of the page: [`ChunkMount::mount_in`] the whole document, then its
    /// `<html>` attribute says `live` and its performance mark is set.
    pub fn mount(self) -> usize {
        use lockdive_contract::lab::LabState;
        use lockdive_first::embed;

        let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        else {
            return 0;
        };
        let mounted = self.mount_in(&root);
        let _ = root.set_attribute(self.chunk.state_attribute(), LabState::Live.attribute());
        embed::mark(self.chunk.mark());
        mounted
    }

    /// Mounts every part of the chunk under `root` (the page, or a test's copy of it) into its
    /// slot, replacing the prerendered part in the same task, so the browser never paints in
    /// between, and carries over what the reader already did there (`carry`). Figure 2's parts
    /// share one committed fence (`fence`), which then takes the commit the first wasm asked for
    /// before the chunk was live. Returns how many parts went live.
    pub fn mount_in(self, root: &web_sys::Element) -> usize {
        use leptos::prelude::*;
        use lockdive_contract::hooks::{FIGURE_SELECTOR, SLOT, SLOT_SELECTOR};
        use lockdive_contract::lab::LabChunk;
        use lockdive_first::dom;

        use crate::components::figures::{FenceLive, LivePart};

        // The lab's reactive owner lives as long as the page: its parts are never unmounted.
        let owner = Owner::new();
        let mounted = owner.with(|| {
            let mut fences: Vec<(web_sys::Element, FenceLive)> = Vec::new();
            let mut mounted = 0;
            for slot in dom::all::<web_sys::HtmlElement>(root.query_selector_all(SLOT_SELECTOR)) {
                let Some(name) = slot.get_attribute(SLOT) else {
                    continue;
                };
                if LabChunk::of_slot(&name) != Some(self.chunk) {
                    continue;
                }
                let Some(part) = LivePart::from_slot_name(&name) else {
                    continue;
                };
                let carried = carry::CarriedControls::capture(&slot);
                let fence = if part.is_fence() {
                    let Some(figure) = slot.closest(FIGURE_SELECTOR).ok().flatten() else {
                        continue;
                    };
                    Some(fence::live_for(&mut fences, figure))
                } else {
                    None
                };
                slot.set_text_content(None);
                if (self.mount_part)(part, slot.clone(), fence) {
                    carried.restore(&slot);
                    mounted += 1;
                }
            }
            for (figure, live) in fences {
                fence::connect(&figure, live);
            }
            mounted
        });
        std::mem::forget(owner);
        mounted
    }
}
