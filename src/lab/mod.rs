//! The lab wasm's side of the page (`src/bin/lab.rs`): loaded by the first wasm when the reader
//! needs the store, it mounts only the parts that need it (`components::figures::LivePart`), each
//! into its own slot in the prerendered markup: the player, the consoles, figure 2's resource bar,
//! lanes, readout sources and log, and the lock checker's live part. Captions, choice rows, static
//! verdicts and the build's readouts stay as built; the build and the lab render a slot's content
//! through the same component, so the markup cannot drift. It carries over what the reader already
//! did there (`carry`).
//!
//! A commit crosses the boundary in the DOM (`fence`): the first wasm asks for it on the figure
//! (`hooks::COMMIT`, then `hooks::COMMIT_EVENT`); the lab takes the request (removing the
//! attribute, so it is carried out once), re-renders the figure's readout sources and says so
//! (`hooks::OUTCOMES_EVENT`), and the first wasm re-reads them. The slots, the lab's states and the
//! kept actions are `lockdive_contract`'s; the lab depends on the components, never the reverse.

#[cfg(target_arch = "wasm32")]
mod carry;
#[cfg(target_arch = "wasm32")]
mod fence;

/// The lab's takeover of the page: [`mount_in`] the whole document, then `<html data-lab="live">`.
#[cfg(target_arch = "wasm32")]
pub fn mount() -> usize {
    use lockdive_contract::embed::LAB_MARK;
    use lockdive_contract::hooks::LAB;
    use lockdive_contract::lab::LabState;
    use lockdive_first::embed;

    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return 0;
    };
    let mounted = mount_in(&root);
    let _ = root.set_attribute(LAB, LabState::Live.attribute());
    embed::mark(LAB_MARK);
    mounted
}

/// Mounts every live part under `root` into its slot, replacing the prerendered part in the same
/// task, so the browser never paints in between, and carries over what the reader already did
/// there (`carry`). Figure 2's parts share one committed fence (`fence`), which then takes the
/// commit the first wasm asked for before the lab was live. Returns how many parts went live.
#[cfg(target_arch = "wasm32")]
pub fn mount_in(root: &web_sys::Element) -> usize {
    use leptos::prelude::*;
    use lockdive_contract::hooks::{FIGURE_SELECTOR, SLOT, SLOT_SELECTOR};
    use lockdive_first::dom;

    use crate::components::console::StoreConsole;
    use crate::components::figures::{
        fence_part, CheckLockLive, FenceLive, LivePart, ScenarioPlayer,
    };

    // The lab's reactive owner lives as long as the page: its parts are never unmounted.
    let owner = Owner::new();
    let mounted = owner.with(|| {
        let mut fences: Vec<(web_sys::Element, FenceLive)> = Vec::new();
        let mut mounted = 0;
        for slot in dom::all::<web_sys::HtmlElement>(root.query_selector_all(SLOT_SELECTOR)) {
            let Some(part) = slot
                .get_attribute(SLOT)
                .and_then(|name| LivePart::from_slot_name(&name))
            else {
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
            let into = slot.clone();
            match (part, fence) {
                (LivePart::Player, _) => leptos::mount::mount_to(into, ScenarioPlayer).forget(),
                (LivePart::Console(seed), _) => {
                    leptos::mount::mount_to(into, move || view! { <StoreConsole seed /> }).forget()
                }
                (LivePart::CheckLock, _) => leptos::mount::mount_to(into, CheckLockLive).forget(),
                (_, Some(live)) => {
                    leptos::mount::mount_to(into, move || fence_part(part, live)).forget()
                }
                (_, None) => {}
            }
            carried.restore(&slot);
            mounted += 1;
        }
        for (figure, live) in fences {
            fence::connect(&figure, live);
        }
        mounted
    });
    std::mem::forget(owner);
    mounted
}
