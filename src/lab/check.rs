//! The lock checker's lab chunk (`src/bin/lab-check.rs`): the checker's live part — the picker,
//! the explorer and its verdicts — which runs the catalogue's and the reader's scripts on the
//! whole of ministore.

use lockdive_contract::lab::LabChunk;

use crate::components::figures::{CheckLockLive, FenceLive, LivePart};

/// The lock checker's chunk: `LAB.mount()` takes the page over, `LAB.mount_in(root)` a test's
/// copy of it.
pub const LAB: super::ChunkMount = super::ChunkMount {
    chunk: LabChunk::Check,
    mount_parts,
};

/// Renders each of the chunk's parts under `root` in place of the built one.
fn mount_parts(root: &web_sys::Element) -> usize {
    super::replace_parts(LabChunk::Check, root, mount_part, None)
}

/// Mounts the lock checker into `into`.
fn mount_part(part: LivePart, into: web_sys::HtmlElement, _: Option<FenceLive>) -> bool {
    if part != LivePart::CheckLock {
        return false;
    }
    leptos::mount::mount_to(into, CheckLockLive).forget();
    true
}
