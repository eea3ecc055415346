//! The lock checker's section, after §5 with its own anchor `#check`: not one of the brief's
//! sections (§1–§6 keep their numbers), the place where the dive's lessons are checked against
//! real locks. Says what the checker does and what each of its five properties asks, pointing to
//! the section where that lesson lives; every outcome is in the figure, from the explorer's runs.

use super::model::{Block, Figure, Section};
use crate::scenarios::lockcheck::Property;

/// The lock checker, `#check`.
pub static SECTION: Section = Section {
    id: "check",
    number: "✓",
    heading: "Check a lock",
    source: "every interleaving, run in ministore",
    blocks: &[
        Block::Para(
            "A figure shows one schedule; a lock has to be right in all of them. The checker below runs a \
lock's acquire, a write to the resource as holder, its extend and its release for several clients against one \
store of ministore — this page's own implementation of Redis 7.0 and its Lua 5.1 scripting, which every figure above \
runs on — through every order in which \
their steps can interleave (an order that cannot answer differently from one already run, such as another \
client's step inside a MULTI block instead of just before it, is not run again), with stalls that move the virtual clock past every lease wherever one can fall, and \
checks five properties after each step; the figure's caption gives the bound. Pick the token-checked release \
of [§2](#s2), a foil (a release made unsafe on purpose, to see it fail), a real library's scripts or commands exactly as it sends them, or paste your own.",
        ),
        Block::Para(
            "A property marked “holds” held in every schedule explored; one marked “broken” comes with the shortest \
schedule that breaks it, which opens step by step in a player with the store's keys and the virtual clock. \
The table of every lock's verdicts below was computed when this page was built, by the same explorer the \
figure runs in your browser.",
        ),
        Block::Figure(Figure::CheckLock),
    ],
};

/// Where the dive teaches the lesson a property checks (inline markup), shown beside the
/// property's verdict.
pub fn lesson(property: Property) -> &'static str {
    match property {
        Property::NeverDeletesAnothers => {
            "The hazard of [§1](#s1); [§2](#s2)'s release compares the token before it deletes."
        }
        Property::NeverExtendsAnothers => {
            "[§2](#s2)'s check, for lengthening a lease: compare the token before touching the key."
        }
        Property::ExclusionWhileLeasesHold => {
            "What a lock is for: while the leases run, one holder at a time ([§1](#s1))."
        }
        Property::ExclusionAcrossStall => {
            "The paused holder of [§3](#s3): a lease cannot stop it acting; only the fence at the resource \
refuses its write once a newer holder has written."
        }
        Property::FencedWrites => {
            "[§3](#s3)'s fencing token: the resource refuses a token lower than one it accepted."
        }
    }
}

/// What the pasted scripts receive and may use: the calling convention, next to the text areas.
pub const CUSTOM_CONVENTION: &str = "A text that mentions `redis.call`, `redis.pcall` or `return` is \
Lua, run as `EVAL` with `KEYS[1]` the lock's key, `ARGV[1]` the client's token and `ARGV[2]` the lease in \
milliseconds; any other text is command lines, one step each, with the placeholders `{key}`, `{token}`, \
`{ttl_ms}`, `{ttl_s}` and `{client}`. A step succeeds unless its reply is an error, nil, `0` or `\"0\"` (an \
array, when it is not empty and each element succeeds); a line ending in `== {token}` succeeds only when its \
reply is the client's own token, the compare a client makes after `GET`. Any line but the last may end in \
`else` and a command, which the client sends next when the line fails (`else UNWATCH`); it is judged as a \
step of its operation, and an acquire's as a release is, so it must not delete or change another's lock. \
Each client has a connection of its own, so `WATCH`, `MULTI` and `EXEC` work as in Redis. Acquire and extend \
are optional: without an acquire the checker takes the lock with `SET {key} {token} NX PX {ttl_ms}`.";
