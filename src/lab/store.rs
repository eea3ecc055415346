//! The store's lab chunk (`src/bin/lab-store.rs`): the consoles under the figures, which reach
//! every command and Lua library ministore has.

use leptos::prelude::*;
use lockdive_contract::lab::LabChunk;

use crate::components::console::StoreConsole;
use crate::components::figures::{FenceLive, LivePart};

/// The store's chunk: `LAB.mount()` takes the page over, `LAB.mount_in(root)` a test's copy of it.
pub const LAB: super::ChunkMount = super::ChunkMount {
    chunk: LabChunk::Store,
    mount_part,
};

/// Mounts a console into `into`.
fn mount_part(part: LivePart, into: web_sys::HtmlElement, _: Option<FenceLive>) -> bool {
    let LivePart::Console(seed) = part else {
        return false;
    };
    leptos::mount::mount_to(into, move || view! { <StoreConsole seed /> }).forget();
    true
}
