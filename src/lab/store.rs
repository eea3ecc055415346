//! The store's lab chunk (`src/bin/lab-store.rs`): the consoles under the figures, which reach
//! every command and Lua library ministore has. It makes each console's built markup live where
//! it stands (`super::console`), with no view library: the chunk is the store, the console's
//! model and a few listeners.

use lockdive_contract::lab::LabChunk;

use crate::components::figures::LivePart;

/// The store's chunk: `LAB.mount()` takes the page over, `LAB.mount_in(root)` a test's copy of it.
pub const LAB: super::ChunkMount = super::ChunkMount {
    chunk: LabChunk::Store,
    mount_parts,
};

/// Makes every console under `root` live, then carries out the click or Enter the reader made on
/// one before the chunk arrived.
fn mount_parts(root: &web_sys::Element) -> usize {
    let mut mounted = 0;
    for (slot, part) in super::slots_of(LabChunk::Store, root) {
        let LivePart::Console(seed) = part else {
            continue;
        };
        if super::console::enhance(&slot, seed) {
            super::mark_live(&slot);
            super::carry::replay_pending(&slot);
            mounted += 1;
        }
    }
    mounted
}
