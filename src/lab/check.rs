//! The lock checker's lab chunk (`src/bin/lab-check.rs`): the checker's live part — the picker,
//! the explorer and its verdicts — which runs the catalogue's and the reader's scripts on the
//! whole of ministore. It makes the built checker live where it stands (`super::checker`), with
//! no view library: the chunk is the store, the explorer, the checker's markup and a few
//! listeners.

use lockdive_contract::lab::LabChunk;

use crate::components::figures::LivePart;

/// The lock checker's chunk: `LAB.mount()` takes the page over, `LAB.mount_in(root)` a test's
/// copy of it.
pub const LAB: super::ChunkMount = super::ChunkMount {
    chunk: LabChunk::Check,
    mount_parts,
};

/// Makes the checker under `root` live, then carries out the pick the reader made before the
/// chunk arrived.
fn mount_parts(root: &web_sys::Element) -> usize {
    let mut mounted = 0;
    for (slot, part) in super::slots_of(LabChunk::Check, root) {
        if part == LivePart::CheckLock && super::checker::enhance(&slot) {
            super::mark_live(&slot);
            super::carry::replay_pending(&slot);
            mounted += 1;
        }
    }
    mounted
}
