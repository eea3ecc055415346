//! The figures' lab chunk (`src/bin/lab-figures.rs`): figure 1's scenario player (`super::player`)
//! and figure 2's resource bar, lanes, readout sources and log (`super::fence`), made live where
//! the build left them, with no view library. It runs only the page's own scripts, so it is built
//! without ministore's `full` feature.

use lockdive_contract::hooks::FIGURE_SELECTOR;
use lockdive_contract::lab::LabChunk;
use web_sys::Element;

use crate::components::figures::LivePart;

/// The figures' chunk: `LAB.mount()` takes the page over, `LAB.mount_in(root)` a test's copy of it.
pub const LAB: super::ChunkMount = super::ChunkMount {
    chunk: LabChunk::Figures,
    mount_parts,
};

/// Makes the player and each fence figure's parts under `root` live, then carries out the click
/// the reader made on one of them before the chunk arrived.
fn mount_parts(root: &web_sys::Element) -> usize {
    let slots = super::slots_of(LabChunk::Figures, root);
    let mut mounted = 0;
    // Figure 2's parts, by figure: each figure has one committed fence, which its parts share.
    let mut fences: Vec<(Element, Vec<(LivePart, Element)>)> = Vec::new();
    for (slot, part) in &slots {
        if *part == LivePart::Player {
            if super::player::enhance(slot) {
                super::mark_live(slot);
                mounted += 1;
            }
        } else if part.is_fence() {
            let Some(figure) = slot.closest(FIGURE_SELECTOR).ok().flatten() else {
                continue;
            };
            let entry = (*part, Element::clone(slot));
            match fences.iter_mut().find(|(f, _)| *f == figure) {
                Some((_, parts)) => parts.push(entry),
                None => fences.push((figure, vec![entry])),
            }
        }
    }
    for (figure, parts) in fences {
        let slots: Vec<Element> = parts.iter().map(|(_, slot)| slot.clone()).collect();
        if super::fence::enhance(&figure, parts) {
            slots.iter().for_each(super::mark_live);
            mounted += slots.len();
        }
    }
    for (slot, _) in &slots {
        super::carry::replay_pending(slot);
    }
    mounted
}
