//! Keys, their values (strings, hashes, lists, sets, sorted sets) and per-key expiry on the virtual clock,
//! in Redis's 16 numbered databases. Expired keys vanish lazily, on the first access after
//! their deadline, as in Redis; every lookup here goes through that check so no command can
//! see a dead key. Commands see the selected database only (`databases` switches it); every
//! write here is reported to the WATCH registry (`watch`).

mod databases;
mod encoding;
mod set;
mod watch;

pub(crate) use databases::DATABASES;
pub(crate) use encoding::StrForm;
pub(crate) use watch::WatcherId;

use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::{Bound, Deref, DerefMut};
use std::sync::Arc;

use crate::error::CommandError;
use crate::pubsub::PubSub;
use crate::rng::Rng;
pub(crate) use set::SetValue;

/// The virtual clock reads as a Unix time in ms that starts here (2023-11-14T22:13:20Z), so
/// absolute deadlines (`EXAT`, `PXAT`) and Redis's overflow checks on `now + ttl` behave as
/// on a real server, while the store itself still counts from 0.
pub(crate) const CLOCK_EPOCH_MS: i64 = 1_700_000_000_000;

/// Redis keeps a sorted set compact (a listpack) up to this many members…
const COMPACT_ZSET_MAX_ENTRIES: usize = 128;
/// …each at most this many bytes long.
const COMPACT_ZSET_MAX_MEMBER: usize = 64;

/// Fx-style hashing: keys come from the page and its scripts, not from an attacker, and a
/// cheap hash keeps `exec` fast.
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(SEED);
        }
        for &byte in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(byte)).wrapping_mul(SEED);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type KeyMap<V> = HashMap<Vec<u8>, V, BuildHasherDefault<KeyHasher>>;

/// A part of a store that clones of it share until one of them writes to it: a store is
/// cloned far more often than it is changed (the lock checker clones one for every step it
/// tries, and most steps only read), so a clone costs a count, and the part is copied on its
/// first write after one. Reading goes through `Deref`; anything through `DerefMut` copies a
/// shared part first, so the code that owns one looks before it takes it mutably.
#[derive(Debug, Default, Clone)]
pub(crate) struct Shared<T>(Arc<T>);

impl<T> Deref for Shared<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        Arc::make_mut(&mut self.0)
    }
}

/// One database's keys.
pub(crate) type Db = Shared<KeyMap<Entry>>;

/// What a key holds.
#[derive(Debug, Clone)]
pub(crate) enum Value {
    /// A binary-safe string, and how Redis would hold it (OBJECT ENCODING tells).
    Str(Vec<u8>, StrForm),
    /// A hash with fields in insertion order.
    Hash(FieldTable),
    /// A sorted set.
    ZSet(SortedSet),
    /// A list, head first.
    List(VecDeque<Vec<u8>>),
    /// A set.
    Set(SetValue),
}

impl Value {
    /// A string stored whole (SET, MSET, INCR…), encoded by its bytes.
    pub(crate) fn string(bytes: Vec<u8>) -> Value {
        Value::Str(bytes, StrForm::Encoded)
    }

    /// The name TYPE replies.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Value::Str(..) => "string",
            Value::Hash(_) => "hash",
            Value::ZSet(_) => "zset",
            Value::List(_) => "list",
            Value::Set(_) => "set",
        }
    }
}

/// A change after which a client blocked on a key may get something, as Redis's
/// `signalKeyAsReady` marks it: a list or a sorted set made where no live key was (`dbAdd`,
/// which RENAME and COPY … REPLACE reach after deleting the key they replace; a key written
/// over in place, as SORT … STORE or ZUNIONSTORE onto a string do it, is not), or a database
/// SWAPDB filled, whose every waited key counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Readied {
    /// The key `key` in database `db` is a new list or sorted set.
    Key { db: usize, key: Vec<u8> },
    /// SWAPDB brought database `db` other keys.
    Database(usize),
}

/// One key's value and its deadline.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// What the key holds.
    pub(crate) value: Value,
    /// Unix-style ms after which the key is gone, or `None` to live forever.
    pub(crate) expires_at: Option<i64>,
}

impl Entry {
    /// Redis deletes a key once the clock is strictly past its deadline.
    fn is_expired(&self, now: i64) -> bool {
        self.expires_at.is_some_and(|at| now > at)
    }
}

/// All keys of the store and the virtual clock they expire by.
#[derive(Debug, Default, Clone)]
pub(crate) struct Keyspace {
    /// The selected database's keys: every command works here.
    entries: Db,
    /// The other databases by index, made only once a database other than 0 is used; the
    /// selected one's slot holds an empty map while its keys are in `entries`.
    parked: Vec<Db>,
    /// Index of the database in `entries`.
    selected: usize,
    clock_ms: u64,
    /// Microseconds past `clock_ms` that DEBUG SLEEP's fractions have added up to (under 1000).
    clock_sub_ms: u16,
    /// While EXEC runs its commands: the clock when EXEC began, by which keys expire (Redis
    /// fixes the time `keyIsExpired` reads for a command and every command it calls).
    expiry_fixed_at: Option<i64>,
    /// Random draws of HRANDFIELD, ZRANDMEMBER and the like.
    rng: Rng,
    /// Where PUBLISH delivers.
    pubsub: PubSub,
    /// Who watches which keys (WATCH), told of every write.
    watches: Shared<watch::WatchRegistry>,
    /// The last watcher id handed out.
    last_watcher: WatcherId,
    /// Keys touched while [`Keyspace::observe_writes`] runs, so its own comparison does not
    /// touch them a second time.
    touched_now: Option<Vec<watch::WatchKey>>,
    /// A server waits for blocking commands itself: they must answer nil at once, as in MULTI.
    caller_waits: bool,
    /// What a server's waiting clients may now take: lists and sorted sets made anew, and
    /// swapped databases, in order. `None` unless a server asked for it
    /// ([`Keyspace::log_readied`]).
    readied: Option<Vec<Readied>>,
    /// A script's `redis.call` is running the command: SORT then orders a set it would
    /// otherwise leave in the set's own order, as Redis does for a script.
    in_script: bool,
}

impl Keyspace {
    /// Milliseconds on the virtual clock since the store was made.
    pub(crate) fn clock_ms(&self) -> u64 {
        self.clock_ms
    }

    /// The store's random number generator (seedable, so runs are reproducible).
    pub(crate) fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// The random generator's state (see [`Rng::state`]).
    pub(crate) fn rng_state(&self) -> u64 {
        self.rng.state()
    }

    /// Where PUBLISH delivers.
    pub(crate) fn pubsub(&mut self) -> &mut PubSub {
        &mut self.pubsub
    }

    /// Whether the caller (a server) does the waiting of blocking commands itself.
    pub(crate) fn caller_waits(&self) -> bool {
        self.caller_waits
    }

    /// Makes blocking commands answer nil at once when they would wait (see [`Self::caller_waits`]).
    pub(crate) fn set_caller_waits(&mut self, waits: bool) {
        self.caller_waits = waits;
    }

    /// Whether a script's `redis.call` is running the command.
    pub(crate) fn in_script(&self) -> bool {
        self.in_script
    }

    /// Runs `run` as a command a script called.
    pub(crate) fn as_script<T>(&mut self, run: impl FnOnce(&mut Self) -> T) -> T {
        let outer = std::mem::replace(&mut self.in_script, true);
        let result = run(self);
        self.in_script = outer;
        result
    }

    /// Restarts the random draws from `seed`.
    pub(crate) fn seed(&mut self, seed: u64) {
        self.rng = Rng::seeded(seed);
    }

    /// Moves the virtual clock forward (saturating: it never wraps).
    pub(crate) fn advance(&mut self, ms: u64) {
        self.clock_ms = self.clock_ms.saturating_add(ms);
    }

    /// Moves the virtual clock forward by `micros`, keeping what falls short of a millisecond
    /// for the next time (twenty sleeps of 0.9 ms are 18 ms).
    pub(crate) fn advance_micros(&mut self, micros: u64) {
        let total = u64::from(self.clock_sub_ms).saturating_add(micros);
        self.clock_sub_ms = u16::try_from(total % 1000).unwrap_or(0);
        self.advance(total / 1000);
    }

    /// The microseconds past the clock's millisecond (TIME shows them).
    pub(crate) fn clock_sub_ms(&self) -> u16 {
        self.clock_sub_ms
    }

    /// Fixes the time keys expire by to the clock now, for the commands EXEC runs, or (`false`)
    /// lets it follow the clock again. A script reads the clock at its start, as Redis's does.
    pub(crate) fn fix_expiry_time(&mut self, fixed: bool) {
        self.expiry_fixed_at = fixed.then(|| self.now());
    }

    /// The time a key's deadline is compared with: EXEC's start while EXEC runs (but inside a
    /// script, the script's start, which is now: nothing moves the clock during a script),
    /// otherwise the clock.
    pub(crate) fn expiry_now(&self) -> i64 {
        match self.expiry_fixed_at {
            Some(at) if !self.in_script => at,
            _ => self.now(),
        }
    }

    /// The clock as the Unix-style ms that deadlines are kept in.
    pub(crate) fn now(&self) -> i64 {
        let elapsed = i64::try_from(self.clock_ms).unwrap_or(i64::MAX);
        CLOCK_EPOCH_MS.saturating_add(elapsed)
    }

    /// Drops `key` if its deadline has passed (and tells WATCH); true if it did.
    fn expire_if_due(&mut self, key: &[u8]) -> bool {
        let now = self.expiry_now();
        if self.entries.get(key).is_some_and(|e| e.is_expired(now)) {
            self.entries.remove(key);
            self.touch(key, false);
            return true;
        }
        false
    }

    /// The live entry of `key`, dropping it first if its deadline has passed.
    pub(crate) fn entry(&mut self, key: &[u8]) -> Option<&Entry> {
        self.expire_if_due(key);
        self.entries.get(key)
    }

    /// The live entry of `key` to change in place, dropping it first if its deadline has
    /// passed.
    pub(crate) fn entry_mut(&mut self, key: &[u8]) -> Option<&mut Entry> {
        if self.expire_if_due(key) || !self.entries.contains_key(key) {
            return None;
        }
        self.entries.get_mut(key)
    }

    /// The live value of `key`.
    pub(crate) fn value(&mut self, key: &[u8]) -> Option<&Value> {
        self.entry(key).map(|entry| &entry.value)
    }

    /// The live value of `key`, to change in place.
    pub(crate) fn value_mut(&mut self, key: &[u8]) -> Option<&mut Value> {
        self.entry_mut(key).map(|entry| &mut entry.value)
    }

    /// Whether `key` is live.
    pub(crate) fn contains(&mut self, key: &[u8]) -> bool {
        self.entry(key).is_some()
    }

    /// The string at `key`; `WRONGTYPE` if it holds something else.
    pub(crate) fn string(&mut self, key: &[u8]) -> Result<Option<&Vec<u8>>, CommandError> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Str(bytes, _)) => Ok(Some(bytes)),
            Some(_) => Err(CommandError::WrongType),
        }
    }

    /// The string at `key` for a command about to change it in place (APPEND, SETRANGE,
    /// INCR…), which then holds it as `form`. Redis signals such a write to WATCH even when
    /// the bytes come out the same, so this does too.
    pub(crate) fn string_to_edit(
        &mut self,
        key: &[u8],
        form: StrForm,
    ) -> Result<Option<&mut Vec<u8>>, CommandError> {
        if self.string(key)?.is_none() {
            return Ok(None);
        }
        self.signal_modified(key);
        match self.entries.get_mut(key).map(|entry| &mut entry.value) {
            Some(Value::Str(bytes, held)) => {
                *held = form;
                Ok(Some(bytes))
            }
            _ => Ok(None),
        }
    }

    /// Redis's `signalModifiedKey` for a write that may leave `key` as it was (HSET of the
    /// same value, EXPIRE to the same deadline, LMOVE of a list onto itself): WATCH counts it
    /// as a change all the same. Writes that do change the key are seen without this.
    pub(crate) fn signal_modified(&mut self, key: &[u8]) {
        let exists = self.entries.contains_key(key);
        self.touch(key, exists);
    }

    /// The hash at `key`; `WRONGTYPE` if it holds something else.
    pub(crate) fn hash(&mut self, key: &[u8]) -> Result<Option<&FieldTable>, CommandError> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Hash(table)) => Ok(Some(table)),
            Some(_) => Err(CommandError::WrongType),
        }
    }

    /// [`Keyspace::hash`], to change in place.
    pub(crate) fn hash_mut(&mut self, key: &[u8]) -> Result<Option<&mut FieldTable>, CommandError> {
        match self.value_mut(key) {
            None => Ok(None),
            Some(Value::Hash(table)) => Ok(Some(table)),
            Some(_) => Err(CommandError::WrongType),
        }
    }

    /// The sorted set at `key`; `WRONGTYPE` if it holds something else.
    pub(crate) fn zset(&mut self, key: &[u8]) -> Result<Option<&SortedSet>, CommandError> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::ZSet(set)) => Ok(Some(set)),
            Some(_) => Err(CommandError::WrongType),
        }
    }

    /// [`Keyspace::zset`], to change in place.
    pub(crate) fn zset_mut(&mut self, key: &[u8]) -> Result<Option<&mut SortedSet>, CommandError> {
        match self.value_mut(key) {
            None => Ok(None),
            Some(Value::ZSet(set)) => Ok(Some(set)),
            Some(_) => Err(CommandError::WrongType),
        }
    }

    /// The list at `key`; `WRONGTYPE` if it holds something else.
    pub(crate) fn list(&mut self, key: &[u8]) -> Result<Option<&VecDeque<Vec<u8>>>, CommandError> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::List(list)) => Ok(Some(list)),
            Some(_) => Err(CommandError::WrongType),
        }
    }

    /// [`Keyspace::list`], to change in place.
    pub(crate) fn list_mut(
        &mut self,
        key: &[u8],
    ) -> Result<Option<&mut VecDeque<Vec<u8>>>, CommandError> {
        match self.value_mut(key) {
            None => Ok(None),
            Some(Value::List(list)) => Ok(Some(list)),
            Some(_) => Err(CommandError::WrongType),
        }
    }

    /// The set at `key`; `WRONGTYPE` if it holds something else.
    pub(crate) fn set(&mut self, key: &[u8]) -> Result<Option<&SetValue>, CommandError> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Set(set)) => Ok(Some(set)),
            Some(_) => Err(CommandError::WrongType),
        }
    }

    /// [`Keyspace::set`], to change in place.
    pub(crate) fn set_mut(&mut self, key: &[u8]) -> Result<Option<&mut SetValue>, CommandError> {
        match self.value_mut(key) {
            None => Ok(None),
            Some(Value::Set(set)) => Ok(Some(set)),
            Some(_) => Err(CommandError::WrongType),
        }
    }

    /// The list at `key`, made empty (and without expiry) if the key is missing. The caller
    /// must leave it non-empty or call [`Keyspace::remove_if_empty`].
    pub(crate) fn list_or_insert(
        &mut self,
        key: &[u8],
    ) -> Result<&mut VecDeque<Vec<u8>>, CommandError> {
        if !self.contains(key) {
            self.insert(key, Value::List(VecDeque::new()), None);
        }
        match self.value_mut(key) {
            Some(Value::List(list)) => Ok(list),
            _ => Err(CommandError::WrongType),
        }
    }

    /// The set at `key`, made empty in the encoding `first_member` calls for if missing.
    pub(crate) fn set_or_insert(
        &mut self,
        key: &[u8],
        first_member: &[u8],
    ) -> Result<&mut SetValue, CommandError> {
        if !self.contains(key) {
            let empty = SetValue::for_first_member(first_member);
            self.insert(key, Value::Set(empty), None);
        }
        match self.value_mut(key) {
            Some(Value::Set(set)) => Ok(set),
            _ => Err(CommandError::WrongType),
        }
    }

    /// The set at `key` together with the store's random source (SPOP, SRANDMEMBER).
    pub(crate) fn set_and_rng(
        &mut self,
        key: &[u8],
    ) -> Result<Option<(&mut SetValue, &mut Rng)>, CommandError> {
        if self.entry(key).is_none() {
            return Ok(None);
        }
        match self.entries.get_mut(key).map(|entry| &mut entry.value) {
            None => Ok(None),
            Some(Value::Set(set)) => Ok(Some((set, &mut self.rng))),
            Some(_) => Err(CommandError::WrongType),
        }
    }

    /// The live set at `key` without touching it: for commands that read several sets at
    /// once after checking their types with [`Keyspace::set`].
    pub(crate) fn peek_set(&self, key: &[u8]) -> Option<&SetValue> {
        let now = self.expiry_now();
        match self.entries.get(key) {
            Some(Entry {
                value: Value::Set(set),
                expires_at,
            }) if expires_at.is_none_or(|at| now <= at) => Some(set),
            _ => None,
        }
    }

    /// The hash at `key`, made empty (and without expiry) if the key is missing.
    pub(crate) fn hash_or_insert(&mut self, key: &[u8]) -> Result<&mut FieldTable, CommandError> {
        if !self.contains(key) {
            self.insert(key, Value::Hash(FieldTable::default()), None);
        }
        match self.value_mut(key) {
            Some(Value::Hash(table)) => Ok(table),
            _ => Err(CommandError::WrongType),
        }
    }

    /// The sorted set at `key`, made empty if missing; `compact` tells whether Redis would start
    /// it as a listpack (few, short members).
    pub(crate) fn zset_or_insert(
        &mut self,
        key: &[u8],
        compact: bool,
    ) -> Result<&mut SortedSet, CommandError> {
        if !self.contains(key) {
            self.insert(key, Value::ZSet(SortedSet::new(compact)), None);
        }
        match self.value_mut(key) {
            Some(Value::ZSet(set)) => Ok(set),
            _ => Err(CommandError::WrongType),
        }
    }

    /// Stores `value` at `key` with the given deadline, replacing whatever was there.
    pub(crate) fn insert(&mut self, key: &[u8], value: Value, expires_at: Option<i64>) {
        // Only a server logs what it readies: the store alone (the CLI, the page) asks nothing
        // more of a write.
        if self.readied.is_some() && matches!(value, Value::List(_) | Value::ZSet(_)) {
            let now = self.expiry_now();
            if self
                .entries
                .get(key)
                .is_none_or(|live| live.is_expired(now))
            {
                let db = self.selected;
                self.mark_readied(Readied::Key {
                    db,
                    key: key.to_vec(),
                });
            }
        }
        let entry = Entry { value, expires_at };
        // Reuse the stored key on overwrite instead of allocating a new one.
        if let Some(slot) = self.entries.get_mut(key) {
            *slot = entry;
        } else {
            self.entries.insert(key.to_vec(), entry);
        }
        self.touch(key, true);
    }

    /// Starts logging what [`Readied`] describes, for a server's waiting clients.
    pub(crate) fn log_readied(&mut self) {
        self.readied.get_or_insert_with(Vec::new);
    }

    /// What was readied since the last call, oldest first.
    pub(crate) fn take_readied(&mut self) -> Vec<Readied> {
        self.readied
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    fn mark_readied(&mut self, change: Readied) {
        if let Some(log) = &mut self.readied {
            log.push(change);
        }
    }

    /// Deletes `key`; true if it was live.
    pub(crate) fn remove(&mut self, key: &[u8]) -> bool {
        let now = self.expiry_now();
        if !self.entries.contains_key(key) {
            return false;
        }
        let removed = self.entries.remove(key);
        if removed.is_some() {
            self.touch(key, false);
        }
        removed.is_some_and(|e| !e.is_expired(now))
    }

    /// Deletes `key` if its collection has no members left (Redis never keeps empties).
    pub(crate) fn remove_if_empty(&mut self, key: &[u8]) {
        let empty = match self.entries.get(key).map(|e| &e.value) {
            Some(Value::Hash(table)) => table.is_empty(),
            Some(Value::ZSet(set)) => set.is_empty(),
            Some(Value::List(list)) => list.is_empty(),
            Some(Value::Set(set)) => set.is_empty(),
            _ => false,
        };
        if empty {
            self.entries.remove(key);
            self.touch(key, false);
        }
    }
}

/// A hash's fields in insertion order. Redis keeps small hashes as a listpack, whose order
/// HGETALL shows; a flat table keeps the same order, and an index by name joins it once the
/// hash grows past a few dozen fields so large hashes stay O(1) per field.
#[derive(Debug, Clone, Default)]
pub(crate) struct FieldTable {
    fields: Vec<(Vec<u8>, Vec<u8>)>,
    index: Option<KeyMap<usize>>,
    /// Whether Redis would have converted this hash from a listpack to a hash table (more
    /// than 512 fields, or a field or value over 64 bytes, ever): it never converts back.
    converted: bool,
}

/// Redis keeps a hash as a listpack up to this many fields…
const COMPACT_HASH_MAX_ENTRIES: usize = 512;
/// …each field and value at most this many bytes long.
const COMPACT_HASH_MAX_VALUE: usize = 64;

/// Below this many fields a scan beats hashing.
const FIELD_INDEX_FROM: usize = 32;

impl FieldTable {
    fn position(&self, field: &[u8]) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(field).copied(),
            None => self
                .fields
                .iter()
                .position(|(name, _)| name.as_slice() == field),
        }
    }

    /// The value of `field`.
    pub(crate) fn get(&self, field: &[u8]) -> Option<&[u8]> {
        let at = self.position(field)?;
        self.fields.get(at).map(|(_, value)| value.as_slice())
    }

    /// Whether Redis would still hold this hash as a listpack (whose order it shows).
    pub(crate) fn is_compact(&self) -> bool {
        !self.converted
    }

    /// Sets `field` (in place if it exists, else at the end); true if it is new.
    pub(crate) fn set(&mut self, field: &[u8], value: &[u8]) -> bool {
        if field.len() > COMPACT_HASH_MAX_VALUE || value.len() > COMPACT_HASH_MAX_VALUE {
            self.converted = true;
        }
        if let Some((_, slot)) = self.position(field).and_then(|at| self.fields.get_mut(at)) {
            slot.clear();
            slot.extend_from_slice(value);
            return false;
        }
        self.fields.push((field.to_vec(), value.to_vec()));
        if self.fields.len() > COMPACT_HASH_MAX_ENTRIES {
            self.converted = true;
        }
        let at = self.fields.len() - 1;
        match &mut self.index {
            Some(index) => {
                index.insert(field.to_vec(), at);
            }
            None if self.fields.len() > FIELD_INDEX_FROM => {
                let index = self
                    .fields
                    .iter()
                    .enumerate()
                    .map(|(at, (name, _))| (name.clone(), at))
                    .collect();
                self.index = Some(index);
            }
            None => {}
        }
        true
    }

    /// Removes `field`, keeping the others' order; true if it was there.
    pub(crate) fn remove(&mut self, field: &[u8]) -> bool {
        let Some(at) = self.position(field) else {
            return false;
        };
        self.fields.remove(at);
        if let Some(index) = &mut self.index {
            index.remove(field);
            for later in index.values_mut().filter(|position| **position > at) {
                *later -= 1;
            }
        }
        true
    }

    /// The field and value at position `at` in order.
    pub(crate) fn entry_at(&self, at: usize) -> Option<(&[u8], &[u8])> {
        self.fields
            .get(at)
            .map(|(f, v)| (f.as_slice(), v.as_slice()))
    }

    /// Fields and values in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.fields
            .iter()
            .map(|(f, v)| (f.as_slice(), v.as_slice()))
    }

    /// Number of fields.
    pub(crate) fn len(&self) -> usize {
        self.fields.len()
    }

    /// True without fields.
    pub(crate) fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }
}

/// A member's place in a sorted set: by score, then by member bytes (Redis's skiplist order).
/// Scores are never NaN, so the float comparison is total; `-0` ties with `0` as in C.
#[derive(Debug, Clone)]
pub(crate) struct Ranked {
    /// The score.
    pub(crate) score: f64,
    /// The member.
    pub(crate) member: Vec<u8>,
}

impl Ranked {
    /// The lowest possible position for `score` (before any member with that score).
    fn before(score: f64) -> Ranked {
        Ranked {
            score,
            member: Vec::new(),
        }
    }
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score
            .partial_cmp(&other.score)
            .unwrap_or(Ordering::Equal)
            .then_with(|| self.member.cmp(&other.member))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ranked {}

/// A score interval as ZRANGEBYSCORE takes it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ScoreRange {
    /// Lower end.
    pub(crate) min: f64,
    /// Whether the lower end is excluded.
    pub(crate) min_exclusive: bool,
    /// Upper end.
    pub(crate) max: f64,
    /// Whether the upper end is excluded.
    pub(crate) max_exclusive: bool,
}

impl ScoreRange {
    /// Redis's `zslIsInRange` shortcut: ranges that can hold nothing.
    fn is_empty(&self) -> bool {
        self.min > self.max || (self.min == self.max && (self.min_exclusive || self.max_exclusive))
    }
}

/// A sorted set: members by name for ZSCORE, and by (score, member) for ranges.
#[derive(Debug, Clone)]
pub(crate) struct SortedSet {
    scores: KeyMap<f64>,
    order: BTreeSet<Ranked>,
    /// Whether Redis would still hold this set as a listpack; a listpack stores `-0` as `0`,
    /// which ZSCORE then shows. Once converted, Redis never converts back.
    compact: bool,
}

impl SortedSet {
    /// An empty set; `compact` as Redis's `zsetTypeCreate` would choose.
    pub(crate) fn new(compact: bool) -> SortedSet {
        SortedSet {
            scores: KeyMap::default(),
            order: BTreeSet::new(),
            compact,
        }
    }

    /// Whether a new set whose first member is `first_member_len` bytes long starts compact.
    pub(crate) fn starts_compact(first_member_len: usize) -> bool {
        first_member_len <= COMPACT_ZSET_MAX_MEMBER
    }

    /// Number of members.
    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    /// True without members.
    pub(crate) fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The score of `member`.
    pub(crate) fn score(&self, member: &[u8]) -> Option<f64> {
        self.scores.get(member).copied()
    }

    /// Adds `member` or moves it to `score`.
    pub(crate) fn insert(&mut self, member: &[u8], score: f64) {
        if self.compact
            && (self.order.len() + 1 > COMPACT_ZSET_MAX_ENTRIES
                || member.len() > COMPACT_ZSET_MAX_MEMBER)
            && !self.scores.contains_key(member)
        {
            self.compact = false;
        }
        // A listpack keeps scores as text, and `-0` comes back as `0`.
        let score = if self.compact && score == 0.0 {
            0.0
        } else {
            score
        };
        match self.scores.get_mut(member) {
            Some(old) => {
                let stale = Ranked {
                    score: *old,
                    member: member.to_vec(),
                };
                *old = score;
                self.order.remove(&stale);
                self.order.insert(Ranked {
                    score,
                    member: stale.member,
                });
            }
            None => {
                self.scores.insert(member.to_vec(), score);
                self.order.insert(Ranked {
                    score,
                    member: member.to_vec(),
                });
            }
        }
    }

    /// Removes `member`; true if it was there.
    pub(crate) fn remove(&mut self, member: &[u8]) -> bool {
        match self.scores.remove(member) {
            Some(score) => {
                self.order.remove(&Ranked {
                    score,
                    member: member.to_vec(),
                });
                true
            }
            None => false,
        }
    }

    /// Removes and returns the lowest-ranked member.
    pub(crate) fn pop_min(&mut self) -> Option<Ranked> {
        let first = self.order.pop_first()?;
        self.scores.remove(&first.member);
        Some(first)
    }

    /// Removes and returns the highest-ranked member.
    pub(crate) fn pop_max(&mut self) -> Option<Ranked> {
        let last = self.order.pop_last()?;
        self.scores.remove(&last.member);
        Some(last)
    }

    /// Whether Redis would still hold this set as a listpack (whose order ZSCAN shows whole).
    pub(crate) fn is_compact(&self) -> bool {
        self.compact
    }

    /// Members in rank order.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = &Ranked> {
        self.order.iter()
    }

    /// Members whose score lies in `range`, in rank order.
    pub(crate) fn in_score_range(
        &self,
        range: ScoreRange,
    ) -> impl DoubleEndedIterator<Item = &Ranked> {
        let bounds = score_bounds(range);
        let valid = match &bounds {
            (Bound::Included(lo), Bound::Excluded(hi)) => lo <= hi,
            _ => true,
        };
        let bounds = if range.is_empty() || !valid {
            // An empty interval that BTreeSet::range accepts without panicking.
            (
                Bound::Included(Ranked::before(0.0)),
                Bound::Excluded(Ranked::before(0.0)),
            )
        } else {
            bounds
        };
        self.order.range(bounds)
    }
}

/// The B-tree bounds of a score range: `Included(before(min))` or `Included(before(next(min)))`
/// below, `Excluded(before(max))` or `Excluded(before(next(max)))` above.
fn score_bounds(range: ScoreRange) -> (Bound<Ranked>, Bound<Ranked>) {
    let lower = if range.min_exclusive {
        Bound::Included(Ranked::before(range.min.next_up()))
    } else if range.min == f64::NEG_INFINITY {
        Bound::Unbounded
    } else {
        Bound::Included(Ranked::before(range.min))
    };
    let upper = if range.max_exclusive {
        Bound::Excluded(Ranked::before(range.max))
    } else if range.max == f64::INFINITY {
        Bound::Unbounded
    } else {
        Bound::Excluded(Ranked::before(range.max.next_up()))
    };
    (lower, upper)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members<'a>(ranked: impl Iterator<Item = &'a Ranked>) -> Vec<String> {
        ranked
            .map(|r| String::from_utf8_lossy(&r.member).into_owned())
            .collect()
    }

    fn sample() -> SortedSet {
        let mut set = SortedSet::new(true);
        for (member, score) in [
            ("a", 1.0),
            ("b", 2.0),
            ("bb", 2.0),
            ("c", 3.0),
            ("i", f64::INFINITY),
        ] {
            set.insert(member.as_bytes(), score);
        }
        set
    }

    fn range(min: f64, min_exclusive: bool, max: f64, max_exclusive: bool) -> ScoreRange {
        ScoreRange {
            min,
            min_exclusive,
            max,
            max_exclusive,
        }
    }

    #[test]
    fn members_rank_by_score_then_bytes() {
        assert_eq!(members(sample().iter()), ["a", "b", "bb", "c", "i"]);
    }

    #[test]
    fn score_ranges_honour_exclusive_ends() {
        let set = sample();
        assert_eq!(
            members(set.in_score_range(range(1.0, true, 3.0, true))),
            ["b", "bb"]
        );
        assert_eq!(
            members(set.in_score_range(range(2.0, false, 2.0, false))),
            ["b", "bb"]
        );
        assert!(set
            .in_score_range(range(2.0, true, 2.0, false))
            .next()
            .is_none());
        assert!(set
            .in_score_range(range(3.0, false, 1.0, false))
            .next()
            .is_none());
        assert_eq!(
            members(set.in_score_range(range(f64::INFINITY, false, f64::INFINITY, false))),
            ["i"]
        );
        assert!(set
            .in_score_range(range(f64::INFINITY, true, f64::INFINITY, false))
            .next()
            .is_none());
        assert_eq!(
            members(
                set.in_score_range(range(f64::NEG_INFINITY, false, 2.0, true))
                    .rev()
            ),
            ["a"]
        );
    }

    #[test]
    fn a_compact_set_stores_negative_zero_as_zero() {
        let mut set = SortedSet::new(true);
        set.insert(b"m", -0.0);
        assert!(set.score(b"m").is_some_and(|s| s.is_sign_positive()));
        let mut big = SortedSet::new(false);
        big.insert(b"m", -0.0);
        assert!(big.score(b"m").is_some_and(|s| s.is_sign_negative()));
    }

    #[test]
    fn a_large_field_table_keeps_order_and_finds_fields_through_its_index() {
        let mut table = FieldTable::default();
        for i in 0..100 {
            assert!(table.set(format!("f{i}").as_bytes(), b"v"));
        }
        assert!(!table.set(b"f7", b"seven"));
        assert!(table.remove(b"f3"));
        assert!(!table.remove(b"f3"));
        assert_eq!(table.get(b"f7"), Some(&b"seven"[..]));
        assert_eq!(table.get(b"f99"), Some(&b"v"[..]));
        assert_eq!(table.get(b"f3"), None);
        let names: Vec<&[u8]> = table.iter().map(|(name, _)| name).take(4).collect();
        assert_eq!(names, [&b"f0"[..], b"f1", b"f2", b"f4"]);
        assert_eq!(table.len(), 99);
    }

    #[test]
    fn expired_keys_vanish_only_after_their_deadline() {
        let mut keys = Keyspace::default();
        let deadline = keys.now() + 100;
        keys.insert(b"k", Value::string(b"v".to_vec()), Some(deadline));
        keys.advance(100);
        assert!(keys.contains(b"k"));
        keys.advance(1);
        assert!(!keys.contains(b"k"));
    }
}
