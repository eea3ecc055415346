//! The lab wasm's side of the page, in three chunks (`lockdive_contract::lab::LabChunk`), each its
//! own binary (`src/bin/lab-figures.rs`, `src/bin/lab-store.rs`, `src/bin/lab-check.rs`): the
//! first wasm loads a chunk when the reader first reaches for one of its parts. A chunk makes only
//! its own parts (`components::figures::LivePart`) live, each in its own slot in the prerendered
//! markup: the figures' chunk the player and figure 2's resource bar, lanes, readout sources and
//! log ([`figures`]); the store's chunk the consoles ([`store`]); the checker's chunk the lock
//! checker ([`check`]). Each chunk's binary names only its own takeover (its module's `LAB`, a
//! [`ChunkMount`]), so the linker keeps the other chunks' code out.
//!
//! No chunk has a view library. Each wires the built markup where it stands and renders what
//! changes itself, from the same markup functions the build used — the player's and figure 2's
//! parts (`player`, `fence`), the consoles' log entries (`console`), the checker's regions
//! (`checker`) — so the markup cannot drift, what the reader typed, moved and focused stays put,
//! and only a click or Enter kept for the chunk is carried out (`carry`). A slot whose part is live
//! says so (`hooks::SLOT_LIVE`). Captions, choice rows, static verdicts and the build's readouts
//! stay as built.
//!
//! A commit crosses the boundary in the DOM (`fence`): the first wasm asks for it on the figure
//! (`hooks::COMMIT`, then `hooks::COMMIT_EVENT`); the figures' chunk takes the request (removing
//! the attribute, so it is carried out once), renders the figure's readout sources again and says so
//! (`hooks::OUTCOMES_EVENT`), and the first wasm reads them again. The slots, the chunks' states and
//! the kept actions are `lockdive_contract`'s; the lab depends on the components, never the reverse.

#[cfg(target_arch = "wasm32")]
mod carry;
#[cfg(target_arch = "wasm32")]
pub mod check;
#[cfg(target_arch = "wasm32")]
mod checker;
#[cfg(target_arch = "wasm32")]
mod console;
#[cfg(target_arch = "wasm32")]
mod fence;
#[cfg(target_arch = "wasm32")]
pub mod figures;
#[cfg(target_arch = "wasm32")]
mod player;
#[cfg(target_arch = "wasm32")]
pub mod store;

/// One chunk's takeover: which chunk it is, and how it makes its parts under a root live. Each
/// chunk's module has one (`LAB`), and only that chunk's binary names it.
#[cfg(target_arch = "wasm32")]
#[derive(Clone, Copy)]
pub struct ChunkMount {
    pub chunk: lockdive_contract::lab::LabChunk,
    /// Makes every part of the chunk under the root live; returns how many went live.
    pub mount_parts: fn(root: &web_sys::Element) -> usize,
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

    /// Makes every part of the chunk under `root` (the page, or a test's copy of it) live, with
    /// what the reader already did there carried over. Returns how many parts went live.
    pub fn mount_in(self, root: &web_sys::Element) -> usize {
        (self.mount_parts)(root)
    }
}

#[cfg(target_arch = "wasm32")]
thread_local! {
    /// The built elements a chunk has wired where they stand (a console's log, the checker's live
    /// part): wiring one twice would carry out each of the reader's actions twice.
    static WIRED: std::cell::RefCell<Vec<web_sys::Element>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Whether `element` is being wired for the first time; from now on it counts as wired.
#[cfg(target_arch = "wasm32")]
fn wire_once(element: &web_sys::Element) -> bool {
    WIRED.with(|wired| {
        let mut wired = wired.borrow_mut();
        let first_time = !wired.contains(element);
        if first_time {
            wired.push(element.clone());
        }
        first_time
    })
}

/// The chunk's slots under `root`, each with the part it holds.
#[cfg(target_arch = "wasm32")]
fn slots_of(
    chunk: lockdive_contract::lab::LabChunk,
    root: &web_sys::Element,
) -> Vec<(web_sys::HtmlElement, crate::components::figures::LivePart)> {
    use lockdive_contract::hooks::{SLOT, SLOT_SELECTOR};
    use lockdive_contract::lab::LabChunk;

    use crate::components::figures::LivePart;

    lockdive_first::dom::all::<web_sys::HtmlElement>(root.query_selector_all(SLOT_SELECTOR))
        .into_iter()
        .filter_map(|slot| {
            let name = slot.get_attribute(SLOT)?;
            if LabChunk::of_slot(&name) != Some(chunk) {
                return None;
            }
            Some((slot, LivePart::from_slot_name(&name)?))
        })
        .collect()
}

/// The element the event reached, or its nearest ancestor, that matches `selector`: what a
/// listener on a live part's root was reached through.
#[cfg(target_arch = "wasm32")]
fn reached(event: &web_sys::Event, selector: &str) -> Option<web_sys::Element> {
    use wasm_bindgen::JsCast;

    event
        .target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest(selector)
        .ok()
        .flatten()
}

/// Marks `slot` as made live (`hooks::SLOT_LIVE`): its part answers the reader now.
#[cfg(target_arch = "wasm32")]
fn mark_live(slot: &web_sys::Element) {
    let _ = slot.set_attribute(lockdive_contract::hooks::SLOT_LIVE, "");
}

/// Sets an attribute only if it changes, so nothing observing the element sees a change that is
/// none.
#[cfg(target_arch = "wasm32")]
fn set_if_changed(element: &web_sys::Element, name: &str, value: &str) {
    if element.get_attribute(name).as_deref() != Some(value) {
        let _ = element.set_attribute(name, value);
    }
}

/// Sets an element's text only if it changes: a live region announces every change.
#[cfg(target_arch = "wasm32")]
fn set_text(element: &web_sys::Element, text: &str) {
    if element.text_content().as_deref() != Some(text) {
        element.set_text_content(Some(text));
    }
}
