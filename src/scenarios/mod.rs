//! The brief's scenarios, run for real in a `ministore::Store`: the lost-lock deletion
//! (`lost_lock`, stepped through by `player`), the fenced write (`fence`) and EchoMQ's attempts
//! fence (`attempts`); the consoles' seeded stores (`console`), the lock checker (`lockcheck`) and
//! the state a link carries (`share`). Each run records the commands and replies and renders its
//! verdict sentences from them; no outcome is typed in. Pure Rust, no web imports.

pub mod attempts;
pub mod console;
pub mod fence;
pub mod lockcheck;
pub mod lost_lock;
pub mod player;
pub mod share;

use ministore::{Reply, Store, ValueSnapshot};

/// The token-checked release of §2: the exact text the page shows and the figure runs.
pub const RELEASE_SCRIPT: &str = include_str!("lua/release.lua");

/// The fenced write of figure 2: a resource that rejects any token below the highest it has seen.
pub const FENCED_WRITE_SCRIPT: &str = include_str!("lua/fenced_write.lua");

/// A reply exactly as `redis-cli` prints it, on one line (nested arrays keep their own lines).
pub fn cli_text(reply: &Reply) -> String {
    reply.to_cli_text().trim_end().to_string()
}

/// A command line as a learner would type it into `redis-cli`.
pub fn command_line<A: AsRef<str>>(words: &[A]) -> String {
    words
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The string value and remaining lease of `key` in the store's snapshot, if the key is live.
pub(crate) fn string_under(store: &Store, key: &str) -> Option<(String, Option<u64>)> {
    store
        .snapshot()
        .into_iter()
        .find(|entry| entry.key == key.as_bytes())
        .and_then(|entry| match entry.value {
            ValueSnapshot::String(bytes) => {
                Some((String::from_utf8_lossy(&bytes).into_owned(), entry.ttl_ms))
            }
            _ => None,
        })
}

/// The integer a reply carries: an integer reply, or a bulk string holding a decimal integer.
pub(crate) fn integer_in(reply: &Reply) -> Option<i64> {
    match reply {
        Reply::Integer(n) => Some(*n),
        Reply::Bulk(bytes) => std::str::from_utf8(bytes).ok()?.trim().parse().ok(),
        _ => None,
    }
}

/// `t = 12500 ms` at one moment, or `t = 0 → 12500 ms` across a stall.
pub(crate) fn time_span(started_ms: u64, until_ms: u64) -> String {
    if started_ms == until_ms {
        format!("t = {until_ms} ms")
    } else {
        format!("t = {started_ms} → {until_ms} ms")
    }
}

/// What a stalled actor's lane says beside another's step: `still stalled, until t = 12500 ms`.
pub(crate) fn still_stalled_until(until_ms: u64) -> String {
    format!("still stalled, until t = {until_ms} ms")
}

/// Small counts as the brief writes them ("two clients"); larger ones as digits.
pub(crate) fn count_in_words(n: usize) -> String {
    const WORDS: [&str; 6] = ["no", "one", "two", "three", "four", "five"];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}
