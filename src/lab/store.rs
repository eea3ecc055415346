//! The store's lab chunk (`src/bin/lab-store.rs`): the consoles under the figures and the lock
//! checker's live part, which reach every command and Lua library ministore has.

use leptos::prelude::*;
use lockdive_contract::lab::LabChunk;

use crate::components::console::StoreConsole;
use crate::components::figures::{CheckLockLive, FenceLive, LivePart};

/// Mounts the chunk's parts into the page.
pub fn mount() -> usize {
    super::mount(LabChunk::Store, mount_part)
}

/// Mounts the chunk's parts under `root` (the page, or a test's copy of it).
pub fn mount_in(root: &web_sys::Element) -> usize {
    super::mount_in(root, LabChunk::Store, mount_part)
}

/// Mounts a console or the lock checker into `into`.
fn mount_part(part: LivePart, into: web_sys::HtmlElement, _: Option<FenceLive>) -> bool {
    match part {
        LivePart::Console(seed) => {
            leptos::mount::mount_to(into, move || view! { <StoreConsole seed /> }).forget()
        }
        LivePart::CheckLock => leptos::mount::mount_to(into, CheckLockLive).forget(),
        _ => return false,
    }
    true
}
