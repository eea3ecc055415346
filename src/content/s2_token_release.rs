//! §2 — the token-checked release: compare and delete in one atomic Lua script.
//!
//! The script shown is `scenarios::RELEASE_SCRIPT`, the same text the lost-lock figure runs.

use super::model::{Aside, Block, CodeSample, Section};
use crate::components::highlight::Lang;
use crate::scenarios::RELEASE_SCRIPT;

/// §2 · The token-checked release.
pub static SECTION: Section = Section {
    id: "s2",
    number: "§2",
    heading: "The token-checked release",
    source: "distributed-locking.md.txt · Safe Lock Release",
    blocks: &[
        Block::Para(
            "The fix conditions the delete on the token: read the key, and delete it only if the stored \
value is still the token the caller acquired with. The read and the delete must be one atomic step. Between a \
bare `GET` and a separate `DEL`, the lease could expire and another client could take the key. A Lua script \
runs to completion with no command interleaved.",
        ),
        Block::Code(CodeSample {
            lang: Lang::Lua,
            text: RELEASE_SCRIPT,
        }),
        Block::Para(
            "Called with `EVAL <script> 1 resource:lock abc-token-123`. In the A/B scenario, A's release \
reads `xyz` under the key, finds it is not `abc`, and returns `0` — a no-op. B's lock stands. The token is the \
whole defence: without it, release has no way to tell its own lock from a successor's.",
        ),
        Block::Aside(Aside {
            label: "Notes on Valkey",
            body: "A Lua script is atomic: its read-compare-delete cannot interleave with another writer — \
[valkey.io/topics/programmability](https://valkey.io/topics/programmability/).",
        }),
        Block::PullQuote("A lock without an owner token is a delete waiting to hit the wrong client."),
    ],
};
