//! The lab wasm's side of the page (`src/bin/lab.rs`): loaded by the first wasm when the reader
//! needs the store, it mounts each figure's live part (`components::blocks::figure_view`: the
//! figure with its console, over ministore) into the figure's slot in the prerendered markup, and
//! carries over what the reader already did there (`carry`). The slots, the lab's states and the
//! kept actions are `lockdive_contract`'s; the lab depends on the components, never the reverse.

#[cfg(target_arch = "wasm32")]
mod carry;

/// The lab's takeover: mounts every figure of the page into its slot, replacing the prerendered
/// (and first-wasm enhanced) figure in the same task, so the browser never paints in between, and
/// carries over what the reader already did there (`carry`). Returns how many figures went live.
#[cfg(target_arch = "wasm32")]
pub fn mount() -> usize {
    use lockdive_contract::embed::LAB_MARK;
    use lockdive_contract::hooks::{LAB, SLOT, SLOT_SELECTOR};
    use lockdive_contract::lab::LabState;
    use lockdive_contract::Figure;
    use lockdive_first::{dom, embed};

    use crate::components::blocks::figure_view;

    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return 0;
    };
    let mut mounted = 0;
    for slot in dom::all::<web_sys::HtmlElement>(document.query_selector_all(SLOT_SELECTOR)) {
        let Some(figure) = slot
            .get_attribute(SLOT)
            .and_then(|name| Figure::from_hook(&name))
        else {
            continue;
        };
        let carried = carry::CarriedControls::capture(&slot);
        slot.set_text_content(None);
        leptos::mount::mount_to(slot.clone(), move || figure_view(figure)).forget();
        carried.restore(&slot);
        mounted += 1;
    }
    if let Some(root) = document.document_element() {
        let _ = root.set_attribute(LAB, LabState::Live.attribute());
    }
    embed::mark(LAB_MARK);
    mounted
}
