//! §5 — the recap: the fence is a number; points on to the next dive, R2.02.3.

use super::model::{Block, Section};

/// §5 · Recap — the fence is a number.
pub static SECTION: Section = Section {
    id: "s5",
    number: "§5",
    heading: "Recap — the fence is a number",
    source: "[next → R2.02.3](course:r2.02.3/)",
    blocks: &[Block::Para(
        "A blind `DEL` deletes whatever lock is under the key, which after a lapsed lease is a successor's \
lock. The token-checked release deletes only your own. The fencing-token argument pushes the same idea into \
the resource so a holder paused past its lease cannot write through it. EchoMQ's fence is `attempts`: \
`HINCRBY`'d once per claim, carried by the worker, and checked at `@complete` / `@retry`, which refuse a stale \
token with `EMQSTALE`. A reaped and re-claimed job bumps the stored count, so the paused worker's old count \
fences it out. The next dive keeps the lease fresh so a long job does not get reaped mid-work.",
    )],
};
