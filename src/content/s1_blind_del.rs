//! §1 — why a blind `DEL` releases the wrong lock after a lapsed lease, with the brief's five steps.

use super::model::{Block, CodeSample, Section, Step};
use crate::components::highlight::Lang;

/// §1 · Never DEL a lock blindly.
pub static SECTION: Section = Section {
    id: "s1",
    number: "§1",
    heading: "Never DEL a lock blindly",
    source: "distributed-locking.md.txt · Releasing the Lock",
    blocks: &[
        Block::Para(
            "The release looks harmless: the work is done, so the holder calls `DEL resource:lock`. The \
hazard is that the key under `resource:lock` may no longer hold the lock the caller took. A lease expires on \
its own — that expiry is what keeps a crashed holder from deadlocking the key. Once the lease lapses, another \
client can take the same key. A late `DEL` then deletes that client's lock.",
        ),
        Block::Code(CodeSample {
            lang: Lang::RedisCli,
            text: "# DANGEROUS: deletes whatever lock is under the key right now\nDEL resource:lock",
        }),
        Block::Para("The scenario the source spells out, step by step:"),
        Block::Steps(&[
            Step {
                label: "A acquires",
                text: "Client A takes the lock with token `abc`.",
            },
            Step {
                label: "A stalls",
                text: "Client A takes too long; the lease expires on its own.",
            },
            Step {
                label: "B acquires",
                text: "Client B takes the same key with token `xyz`.",
            },
            Step {
                label: "A releases",
                text: "Client A finishes and calls `DEL`.",
            },
            Step {
                label: "wrong lock",
                text: "The `DEL` removes client B's lock, not A's.",
            },
        ]),
        Block::Para(
            "Now two clients hold the lock at once. The fault is not the expiry; the fault is releasing \
without checking whose lock is under the key.",
        ),
    ],
};
