//! The store's public API: one keyspace on a virtual clock, the script cache, and the
//! entry points the page and the CLI use (`exec`, `eval`, `advance`, `snapshot`).

use crate::reply::Reply;

/// What one key holds, as the page renders "what the store holds now".
#[derive(Debug, Clone, PartialEq)]
pub enum ValueSnapshot {
    /// A string value.
    String(Vec<u8>),
    /// A hash, fields in insertion order.
    Hash(Vec<(Vec<u8>, Vec<u8>)>),
    /// A sorted set, ordered by (score, member).
    ZSet(Vec<(Vec<u8>, f64)>),
}

/// One live key at the moment of the snapshot.
#[derive(Debug, Clone, PartialEq)]
pub struct KeySnapshot {
    /// The key's name.
    pub key: Vec<u8>,
    /// What it holds.
    pub value: ValueSnapshot,
    /// Milliseconds of lease left, or `None` for a key without expiry.
    pub ttl_ms: Option<u64>,
}

/// An in-memory store with Redis semantics and a virtual millisecond clock that starts at 0.
pub struct Store {
    _private: (),
}

impl Default for Store {
    fn default() -> Self {
        Store::new()
    }
}

impl Store {
    /// An empty store with the clock at 0 ms and the default step budget.
    pub fn new() -> Store {
        todo!("store helper")
    }

    /// The virtual clock, in milliseconds since the store was made.
    pub fn now_ms(&self) -> u64 {
        todo!()
    }

    /// Moves the virtual clock forward; keys whose expiry has passed vanish on next access.
    pub fn advance(&mut self, ms: u64) {
        let _ = ms;
        todo!()
    }

    /// Runs one command line (`["SET", "k", "v", "NX"]`), exactly as Redis would.
    pub fn exec<A: AsRef<[u8]>>(&mut self, args: &[A]) -> Reply {
        let _ = args;
        todo!()
    }

    /// `EVAL script numkeys keys... args...`, with the keys and args given apart.
    pub fn eval<K: AsRef<[u8]>, V: AsRef<[u8]>>(&mut self, script: &str, keys: &[K], args: &[V]) -> Reply {
        let _ = (script, keys, args);
        todo!()
    }

    /// Every live key, sorted by name, with its value and remaining TTL.
    pub fn snapshot(&self) -> Vec<KeySnapshot> {
        todo!()
    }

    /// How many interpreter steps one script may take before it is stopped.
    pub fn set_step_budget(&mut self, steps: u64) {
        let _ = steps;
        todo!()
    }
}
