//! The states of one progress rank, each found by its key (`state::write_state_key`) while
//! successors can still reach the rank, then handed out in order to be expanded.
//!
//! A rank's index holds each key's hash and the key's bytes, end to end in one buffer: a lookup
//! hashes the key once and compares bytes only with states of the same hash, and the index
//! never hashes a key again as it grows. States are boxed, so the list grows by moving
//! pointers, not whole stores.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::state::StateHasher;

/// Ends a chain of states that share a hash.
const NONE: u32 = u32::MAX;

/// The states of one rank, of type `T`, by key.
pub(super) struct Bucket<T> {
    /// Each hash's newest state.
    heads: HashMap<u64, u32, BuildHasherDefault<StateHasher>>,
    /// Per state, the next older one of the same hash.
    chain: Vec<u32>,
    /// Every state's key, end to end.
    keys: Vec<u8>,
    /// Where each state's key ends in `keys`.
    key_ends: Vec<usize>,
    states: Vec<Option<Box<T>>>,
}

impl<T> Default for Bucket<T> {
    fn default() -> Self {
        Bucket {
            heads: HashMap::default(),
            chain: Vec::new(),
            keys: Vec::new(),
            key_ends: Vec::new(),
            states: Vec::new(),
        }
    }
}

/// The hash a key is found by.
pub(super) fn key_hash(key: &[u8]) -> u64 {
    let mut hasher = StateHasher::default();
    hasher.write(key);
    hasher.finish()
}

impl<T> Bucket<T> {
    /// Where the state whose key is `key` (`hash` is [`key_hash`] of it) stands, if one was
    /// added and the index not yet dropped.
    pub(super) fn find(&self, hash: u64, key: &[u8]) -> Option<usize> {
        let mut at = *self.heads.get(&hash)?;
        while at != NONE {
            let i = at as usize;
            let start = if i == 0 { 0 } else { self.key_ends[i - 1] };
            if &self.keys[start..self.key_ends[i]] == key {
                return Some(i);
            }
            at = self.chain[i];
        }
        None
    }

    /// The state at `position`, unless it was taken.
    pub(super) fn get_mut(&mut self, position: usize) -> Option<&mut T> {
        self.states.get_mut(position)?.as_deref_mut()
    }

    /// Adds `state` under `key`, which no state of the bucket has.
    pub(super) fn add(&mut self, hash: u64, key: &[u8], state: T) {
        // Only a rank still being filled is added to: its index is whole, one entry a state.
        debug_assert_eq!(self.key_ends.len(), self.states.len());
        // The explorer's state cap keeps a rank far below `NONE`.
        debug_assert!(self.states.len() < NONE as usize);
        let at = self.states.len() as u32;
        let older = self.heads.insert(hash, at).unwrap_or(NONE);
        self.chain.push(older);
        self.keys.extend_from_slice(key);
        self.key_ends.push(self.keys.len());
        self.states.push(Some(Box::new(state)));
    }

    /// Drops the index: nothing will look a state up here any more.
    pub(super) fn drop_index(&mut self) {
        self.heads = HashMap::default();
        self.chain = Vec::new();
        self.keys = Vec::new();
        self.key_ends = Vec::new();
    }

    /// Takes the state at `position` out to be expanded: `None` past the last, `Some(None)`
    /// for one already taken.
    pub(super) fn take(&mut self, position: usize) -> Option<Option<Box<T>>> {
        self.states.get_mut(position).map(Option::take)
    }

    /// Frees the rank's states once every one has been taken.
    pub(super) fn clear(&mut self) {
        self.states = Vec::new();
    }

    /// Puts the first state in, under an empty key no lookup asks for: nothing steps back into
    /// rank 0.
    pub(super) fn push_root(&mut self, state: T) {
        self.chain.push(NONE);
        self.key_ends.push(self.keys.len());
        self.states.push(Some(Box::new(state)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_one_hash_are_told_apart_by_their_bytes() {
        let mut bucket = Bucket::default();
        // Two keys made to share a hash, and a third on its own.
        bucket.add(7, b"first", 1);
        bucket.add(7, b"second", 2);
        bucket.add(key_hash(b"third"), b"third", 3);
        assert_eq!(bucket.find(7, b"first"), Some(0));
        assert_eq!(bucket.find(7, b"second"), Some(1));
        assert_eq!(bucket.find(7, b"third"), None);
        assert_eq!(bucket.find(key_hash(b"third"), b"third"), Some(2));
        assert_eq!(bucket.find(8, b"first"), None);
        *bucket.get_mut(0).expect("there") += 10;
        assert_eq!(bucket.take(0), Some(Some(Box::new(11))));
        assert_eq!(bucket.take(0), Some(None));
        assert_eq!(bucket.get_mut(0), None);
        assert_eq!(bucket.take(3), None);
        bucket.drop_index();
        assert_eq!(bucket.find(7, b"second"), None);
        assert_eq!(bucket.take(1), Some(Some(Box::new(2))));
    }
}
