//! WATCH bookkeeping, shared by every connection of a store: which watcher watches which
//! (database, key), and whether a write has touched one of them since. A key counts as
//! touched when it is stored or deleted here, when it expires lazily, when a write command
//! leaves it different (see [`Keyspace::observe_writes`]) or writes it in a way Redis signals
//! whatever the outcome (see [`Keyspace::signal_modified`]), and when FLUSHDB, FLUSHALL or
//! SWAPDB replace a database it exists in. As in Redis 7.0, a key that had already expired
//! when it was watched is not spoiled by its own deletion (nor by SWAPDB bringing in another
//! expired one), a missing key SWAPDB replaces by an expired one is watched as expired, and a
//! watched key that expires before EXEC spoils the transaction.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::{Entry, KeyHasher, Keyspace, SetValue, StrForm, Value};

/// Names one watcher (one connection's WATCH list) in a store.
pub(crate) type WatcherId = u64;

pub(crate) type WatchKey = (usize, Vec<u8>);

/// Every watched key and every watcher's state.
#[derive(Debug, Clone, Default)]
pub(crate) struct WatchRegistry {
    /// The watchers of each (database, key).
    by_key: HashMap<WatchKey, Vec<WatcherId>, BuildHasherDefault<KeyHasher>>,
    /// Each watcher's keys and whether one was touched.
    watchers: HashMap<WatcherId, Watcher, BuildHasherDefault<KeyHasher>>,
}

#[derive(Debug, Clone, Default)]
struct Watcher {
    dirty: bool,
    keys: Vec<WatchedKey>,
}

impl Watcher {
    /// Which of this watcher's keys a touch of `slot` only unmarks: one that had already
    /// expired when watched and is now deleted, which is no logical change. Any other touch
    /// spoils the watch.
    fn unmarked_by(&self, slot: &WatchKey, exists_after: bool) -> Option<usize> {
        if exists_after {
            return None;
        }
        self.keys
            .iter()
            .position(|w| w.db == slot.0 && w.key == slot.1 && w.expired)
    }

    /// Whether a touch of `slot` changes this watcher: it unmarks a key, or spoils a clean watch.
    fn touched_moves(&self, slot: &WatchKey, exists_after: bool) -> bool {
        self.unmarked_by(slot, exists_after).is_some() || !self.dirty
    }

    /// A write touched `slot`.
    fn touch(&mut self, slot: &WatchKey, exists_after: bool) {
        match self.unmarked_by(slot, exists_after) {
            Some(at) => self.keys[at].expired = false,
            None => self.dirty = true,
        }
    }
}

#[derive(Debug, Clone)]
struct WatchedKey {
    db: usize,
    key: Vec<u8>,
    /// The key existed but had expired when it was watched.
    expired: bool,
}

impl Keyspace {
    /// Whether no key is watched, so a write has no one to tell. WATCH is `full`'s: without it
    /// this is true where it is compiled, and the bookkeeping below is left out of the build.
    fn nothing_watched(&self) -> bool {
        !cfg!(feature = "full") || self.watches.by_key.is_empty()
    }

    /// A new watcher id, watching nothing.
    pub(crate) fn new_watcher(&mut self) -> WatcherId {
        self.last_watcher += 1;
        self.last_watcher
    }

    /// `WATCH key` for `id`, in the selected database.
    pub(crate) fn watch(&mut self, id: WatcherId, key: &[u8]) {
        let db = self.selected;
        let now = self.now();
        let expired = self.entries.get(key).is_some_and(|e| e.is_expired(now));
        let watcher = self.watches.watchers.entry(id).or_default();
        // Kept sorted by (database, name), so two connections that watched the same keys in
        // another order list them alike (see `watched_by`).
        let Err(at) = watcher
            .keys
            .binary_search_by(|w| (w.db, w.key.as_slice()).cmp(&(db, key)))
        else {
            return;
        };
        watcher.keys.insert(
            at,
            WatchedKey {
                db,
                key: key.to_vec(),
                expired,
            },
        );
        self.watches
            .by_key
            .entry((db, key.to_vec()))
            .or_default()
            .push(id);
    }

    /// `UNWATCH`: forgets every key `id` watches.
    pub(crate) fn unwatch_all(&mut self, id: WatcherId) {
        if !self.watches.watchers.contains_key(&id) {
            return;
        }
        let Some(watcher) = self.watches.watchers.remove(&id) else {
            return;
        };
        for watched in watcher.keys {
            let slot = (watched.db, watched.key);
            if let Some(ids) = self.watches.by_key.get_mut(&slot) {
                ids.retain(|other| *other != id);
                if ids.is_empty() {
                    self.watches.by_key.remove(&slot);
                }
            }
        }
    }

    /// Whether any connection watches a key.
    pub(crate) fn anything_watched(&self) -> bool {
        !self.nothing_watched()
    }

    /// The keys `id` watches, sorted by database and name, each with whether it had already
    /// expired when it was watched.
    pub(crate) fn watched_by(&self, id: WatcherId) -> impl Iterator<Item = (usize, &[u8], bool)> {
        self.watches
            .watchers
            .get(&id)
            .into_iter()
            .flat_map(|w| w.keys.iter())
            .map(|k| (k.db, k.key.as_slice(), k.expired))
    }

    /// Whether EXEC must fail for `id`: a watched key was touched, or has expired since it
    /// was watched.
    pub(crate) fn watch_spoiled(&self, id: WatcherId) -> bool {
        let Some(watcher) = self.watches.watchers.get(&id) else {
            return false;
        };
        let now = self.now();
        watcher.dirty
            || watcher.keys.iter().any(|w| {
                !w.expired
                    && self
                        .db_map(w.db)
                        .and_then(|map| map.get(&w.key))
                        .is_some_and(|e| e.is_expired(now))
            })
    }

    /// Tells the watchers of `key` (selected database) that a write touched it.
    pub(crate) fn touch(&mut self, key: &[u8], exists_after: bool) {
        if self.nothing_watched() {
            return;
        }
        let slot = (self.selected, key.to_vec());
        self.touch_slot(&slot, exists_after);
    }

    fn touch_slot(&mut self, slot: &WatchKey, exists_after: bool) {
        let Some(ids) = self.watches.by_key.get(slot) else {
            return;
        };
        if let Some(log) = &mut self.touched_now {
            log.push(slot.clone());
        }
        // Clones of the store share the registry: change it only if a watcher's state moves.
        let moves = ids.iter().any(|id| {
            self.watches
                .watchers
                .get(id)
                .is_some_and(|watcher| watcher.touched_moves(slot, exists_after))
        });
        if !moves {
            return;
        }
        let WatchRegistry { by_key, watchers } = &mut *self.watches;
        for id in by_key.get(slot).into_iter().flatten() {
            if let Some(watcher) = watchers.get_mut(id) {
                watcher.touch(slot, exists_after);
            }
        }
    }

    /// FLUSHDB, FLUSHALL and SWAPDB: every watched key of `db` that exists there (or in the
    /// database replacing it) is touched, by Redis 7.0's `touchAllWatchedKeysInDb`: a key that
    /// had expired when watched and is now gone, or is replaced by a key that has expired too,
    /// leaves the watch clean (gone, it is unmarked); a key missing here and replaced by an
    /// expired one leaves it clean and marked expired; anything else spoils it.
    pub(crate) fn touch_all_in_db(&mut self, db: usize, replaced_with: Option<usize>) {
        if self.nothing_watched() {
            return;
        }
        let now = self.expiry_now();
        let entry_of = |keyspace: &Keyspace, db: usize, key: &[u8]| {
            keyspace
                .db_map(db)
                .and_then(|map| map.get(key))
                .map(|entry| entry.is_expired(now))
        };
        let slots: Vec<WatchKey> = self
            .watches
            .by_key
            .keys()
            .filter(|(watched_db, _)| *watched_db == db)
            .cloned()
            .collect();
        for slot in slots {
            let in_emptied = entry_of(self, db, &slot.1).is_some();
            // Whether the replacing database holds the key, and if so whether it has expired.
            let replacement = replaced_with.and_then(|other| entry_of(self, other, &slot.1));
            if !in_emptied && replacement.is_none() {
                continue;
            }
            if let Some(log) = &mut self.touched_now {
                log.push(slot.clone());
            }
            // Each watcher's new state, worked out on the shared registry first: clones of the
            // store share it, so it is copied only if some watcher's state moves.
            let changes: Vec<(WatcherId, Option<bool>)> = self
                .watches
                .by_key
                .get(&slot)
                .into_iter()
                .flatten()
                .filter_map(|id| {
                    let watcher = self.watches.watchers.get(id)?;
                    let watched = watcher
                        .keys
                        .iter()
                        .find(|w| w.db == slot.0 && w.key == slot.1)?;
                    // Some(flag): the key's expired flag becomes `flag`; None: spoiled.
                    let change = match (watched.expired, replacement) {
                        (true, None) => Some(false),
                        (true, Some(true)) => return None,
                        (false, Some(true)) if !in_emptied => Some(true),
                        _ if watcher.dirty => return None,
                        _ => None,
                    };
                    Some((*id, change))
                })
                .collect();
            if changes.is_empty() {
                continue;
            }
            let watchers = &mut self.watches.watchers;
            for (id, change) in changes {
                let Some(watcher) = watchers.get_mut(&id) else {
                    continue;
                };
                match change {
                    Some(flag) => {
                        if let Some(watched) = watcher
                            .keys
                            .iter_mut()
                            .find(|w| w.db == slot.0 && w.key == slot.1)
                        {
                            watched.expired = flag;
                        }
                    }
                    None => watcher.dirty = true,
                }
            }
        }
    }

    /// Runs a write command; afterwards every watched key it left different is touched.
    /// Costs nothing while no key is watched.
    pub(crate) fn observe_writes<R>(&mut self, run: impl FnOnce(&mut Keyspace) -> R) -> R {
        if self.nothing_watched() {
            return run(self);
        }
        let before: Vec<(WatchKey, Vec<u8>)> = self
            .watches
            .by_key
            .keys()
            .map(|slot| (slot.clone(), self.fingerprint(slot)))
            .collect();
        let outer = self.touched_now.replace(Vec::new());
        let result = run(self);
        let touched = std::mem::replace(&mut self.touched_now, outer).unwrap_or_default();
        for (slot, print) in before {
            if !touched.contains(&slot) && self.fingerprint(&slot) != print {
                let exists = self.db_map(slot.0).is_some_and(|m| m.contains_key(&slot.1));
                self.touch_slot(&slot, exists);
            }
        }
        if let Some(log) = &mut self.touched_now {
            log.extend(touched);
        }
        result
    }

    /// The entry at a watched key as bytes that differ whenever the entry does in a way a
    /// client could see: absent (no bytes), or [`Entry::write_print`]'s.
    fn fingerprint(&self, slot: &WatchKey) -> Vec<u8> {
        let mut print = Vec::new();
        if let Some(entry) = self.db_map(slot.0).and_then(|map| map.get(&slot.1)) {
            entry.write_print(&mut print);
        }
        print
    }
}

impl Entry {
    /// Appends the entry as bytes that differ whenever it does in a way a client could see: its
    /// type, expiry and contents in order (a string's bytes, a hash's fields and values, a
    /// list's items, a set's members, a sorted set's members with the bits of their scores, so
    /// `-0` differs from `0`), with the encoding state Redis keeps for good (how a string was
    /// stored, whether a hash or a set has become a hashtable). A sorted set's encoding is left
    /// out: SORT turns a listpack into a skiplist without Redis signalling the key. Every item
    /// carries its length, so two different entries never print alike.
    pub(crate) fn write_print(&self, print: &mut Vec<u8>) {
        let tag = match &self.value {
            Value::Str(_, StrForm::Encoded) => 1,
            Value::Str(_, StrForm::Plain) => 2,
            Value::Str(_, StrForm::Raw) => 3,
            Value::Hash(table) if table.is_compact() => 4,
            Value::Hash(_) => 5,
            Value::List(_) => 6,
            Value::Set(SetValue::Ints(_)) => 7,
            Value::Set(SetValue::Table(_)) => 8,
            Value::ZSet(_) => 9,
            Value::Str(_, StrForm::Copied) => 10,
        };
        print.push(tag);
        match self.expires_at {
            None => print.push(0),
            Some(at) => {
                print.push(1);
                print.extend_from_slice(&at.to_le_bytes());
            }
        }
        let mut item = |bytes: &[u8]| {
            print.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            print.extend_from_slice(bytes);
        };
        match &self.value {
            Value::Str(bytes, _) => item(bytes),
            Value::Hash(table) => table.iter().for_each(|(field, value)| {
                item(field);
                item(value);
            }),
            Value::List(items) => items.iter().for_each(|it| item(it)),
            Value::Set(SetValue::Ints(ints)) => ints.iter().for_each(|n| item(&n.to_le_bytes())),
            Value::Set(set) => set.members().iter().for_each(|member| item(member)),
            Value::ZSet(set) => set.iter().for_each(|ranked| {
                item(&ranked.score.to_bits().to_le_bytes());
                item(&ranked.member);
            }),
        }
    }
}
