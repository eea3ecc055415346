//! The store's public API: one keyspace (16 databases) on a virtual clock, the script cache,
//! and the entry points the page and the CLI use (`exec`, `eval`, `advance`, `snapshot`), plus
//! `exec_in` for a server that keeps one [`Session`] per client.

use crate::cmd;
use crate::cmd::scripting::ScriptCache;
use crate::keybytes::put;
use crate::keyspace::{Entry, Keyspace, Readied, Value, DATABASES};
use crate::order;
use crate::reply::Reply;
use crate::session::Session;

/// What one key holds, as the page renders "what the store holds now".
#[derive(Debug, Clone, PartialEq)]
pub enum ValueSnapshot {
    /// A string value.
    String(Vec<u8>),
    /// A hash, fields in insertion order.
    Hash(Vec<(Vec<u8>, Vec<u8>)>),
    /// A sorted set, ordered by (score, member).
    ZSet(Vec<(Vec<u8>, f64)>),
    /// A list, head first.
    List(Vec<Vec<u8>>),
    /// A set, in the order SMEMBERS replies: ascending for an all-integer (intset) set,
    /// ministore's own deterministic order otherwise.
    Set(Vec<Vec<u8>>),
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
///
/// ```
/// use ministore::{Reply, Store};
/// let mut store = Store::new();
/// assert_eq!(store.exec(&["SET", "lock", "A", "NX", "PX", "30000"]), Reply::ok());
/// store.advance(30_001);
/// assert_eq!(store.exec(&["GET", "lock"]), Reply::Nil);
/// ```
#[derive(Clone)]
pub struct Store {
    keyspace: Keyspace,
    scripts: ScriptCache,
    /// The connection [`Store::exec`], [`Store::eval`] and [`Store::evalsha`] run in.
    session: Session,
}

impl Default for Store {
    fn default() -> Self {
        Store::new()
    }
}

impl Store {
    /// An empty store with the clock at 0 ms and the default step budget.
    pub fn new() -> Store {
        Store {
            keyspace: Keyspace::default(),
            scripts: ScriptCache::default(),
            session: Session::default(),
        }
    }

    /// The virtual clock, in milliseconds since the store was made.
    pub fn now_ms(&self) -> u64 {
        self.keyspace.clock_ms()
    }

    /// Moves the virtual clock forward; keys whose expiry has passed vanish on next access.
    /// A key set with `PX 100` at 0 ms is still there at 100 ms and gone at 101 ms (Redis
    /// deletes a key once the clock is strictly past its deadline).
    pub fn advance(&mut self, ms: u64) {
        self.keyspace.advance(ms);
    }

    /// Runs one command line (`["SET", "k", "v", "NX"]`), exactly as Redis would, as the
    /// store's own client: SELECT, MULTI and WATCH state carry over between calls.
    pub fn exec<A: AsRef<[u8]>>(&mut self, args: &[A]) -> Reply {
        let Store {
            keyspace,
            scripts,
            session,
        } = self;
        cmd::with_words(args, |words| {
            cmd::dispatch(keyspace, scripts, session, words)
        })
    }

    /// Runs one command line as the client whose connection state `session` is: in its
    /// selected database, queued if it is inside MULTI, and with its WATCH list. A server keeps
    /// one [`Session`] per connection over one shared store, and calls
    /// [`Store::end_session`] when the connection closes.
    pub fn exec_in<A: AsRef<[u8]>>(&mut self, session: &mut Session, args: &[A]) -> Reply {
        let Store {
            keyspace, scripts, ..
        } = self;
        cmd::with_words(args, |words| {
            cmd::dispatch(keyspace, scripts, session, words)
        })
    }

    /// Starts logging what a server's blocked clients may now take ([`Readied`]): a server
    /// calls it once and then [`Store::take_readied`] after every command.
    pub fn log_readied(&mut self) {
        self.keyspace.log_readied();
    }

    /// The lists and sorted sets made anew, and the databases SWAPDB filled, since the last
    /// call, oldest first (nothing unless [`Store::log_readied`] was called).
    pub fn take_readied(&mut self) -> Vec<Readied> {
        self.keyspace.take_readied()
    }

    /// A connection closed: forgets its watched keys and open MULTI block, and leaves the
    /// session as fresh as [`Session::new`].
    pub fn end_session(&mut self, session: &mut Session) {
        if let Some(id) = session.watcher.take() {
            self.forget_watcher(id);
        }
        *session = Session::new();
    }

    /// Forgets a session's WATCH list, taken out of the session by the caller.
    pub(crate) fn forget_watcher(&mut self, id: crate::keyspace::WatcherId) {
        self.keyspace.unwatch_all(id);
    }

    /// `EVAL script numkeys keys... args...`, with the keys and args given apart.
    pub fn eval<K: AsRef<[u8]>, V: AsRef<[u8]>>(
        &mut self,
        script: &str,
        keys: &[K],
        args: &[V],
    ) -> Reply {
        self.keyspace.select(self.session.db);
        self.scripts
            .run_source(&mut self.keyspace, script.as_bytes(), keys, args)
    }

    /// `EVALSHA sha numkeys keys... args...`, with the keys and args given apart.
    pub fn evalsha<K: AsRef<[u8]>, V: AsRef<[u8]>>(
        &mut self,
        sha: &str,
        keys: &[K],
        args: &[V],
    ) -> Reply {
        self.keyspace.select(self.session.db);
        self.scripts
            .run_cached(&mut self.keyspace, sha.as_bytes(), keys, args)
    }

    /// `SCRIPT LOAD script`: caches the script and replies its SHA1 (or the compile error).
    pub fn script_load(&mut self, script: &str) -> Reply {
        match self.scripts.load(script.as_bytes()) {
            Ok(sha) => Reply::Bulk(sha.into_bytes()),
            Err(compile_error) => compile_error,
        }
    }

    /// The bytes two stores are equal by: when they are equal, every command line run on
    /// either through equal connections ([`Store::exec_in`] with sessions whose
    /// [`Store::session_key`]s are equal) answers the same and leaves the two equal again. They
    /// hold every database's live keys, each with its value and deadline as a WATCH fingerprint
    /// prints them and its encoding as OBJECT ENCODING names it; the clock; the random draws'
    /// state; the cached scripts' SHA1s and the function libraries; and what the Lua
    /// interpreters keep between scripts (`math.random`'s generator, cjson's and the
    /// collector's settings). What a connection holds (its
    /// database, MULTI block and WATCH list) is the [`Session`]'s, the store's own connection
    /// ([`Store::exec`]'s) included, and what is set through this API (step budget, PUBLISH's
    /// delivery) is not in them.
    pub fn state_key(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(256);
        self.write_state_key(&mut out);
        out
    }

    /// [`Store::state_key`] appended to `out`, for a caller that keeps one buffer for many
    /// keys.
    pub fn write_state_key(&self, out: &mut Vec<u8>) {
        let mut entries = Vec::new();
        for db in 0..DATABASES {
            entries.clear();
            entries.extend(self.keyspace.live_entries_of(db));
            if entries.is_empty() {
                continue;
            }
            order::sort_by(&mut entries, |a, b| a.0.cmp(b.0));
            put(out, &(db as u64).to_le_bytes());
            put(out, &(entries.len() as u64).to_le_bytes());
            for (key, entry) in &entries {
                put(out, key);
                // The print, length first (as `put` writes it), straight into the key.
                let at = out.len();
                out.extend_from_slice(&[0; 4]);
                entry.write_print(out);
                let len = (out.len() - at - 4) as u32;
                out[at..at + 4].copy_from_slice(&len.to_le_bytes());
                // The print leaves a sorted set's encoding out; OBJECT ENCODING tells it.
                put(out, entry.value.encoding().as_bytes());
            }
        }
        put(out, b"|");
        put(out, &self.keyspace.clock_ms().to_le_bytes());
        put(out, &self.keyspace.clock_sub_ms().to_le_bytes());
        put(out, &self.keyspace.rng_state().to_le_bytes());
        self.scripts.write_state_key(out);
    }

    /// The bytes two connections over equal stores (equal [`Store::state_key`]s) are equal by:
    /// the selected database, the open MULTI block's queued lines, and the WATCH list with
    /// whether EXEC would fail now.
    pub fn session_key(&self, session: &Session) -> Vec<u8> {
        let mut out = Vec::with_capacity(64);
        self.write_session_key(session, &mut out);
        out
    }

    /// [`Store::session_key`] appended to `out`.
    pub fn write_session_key(&self, session: &Session, out: &mut Vec<u8>) {
        put(out, &(session.db as u64).to_le_bytes());
        match &session.multi {
            None => put(out, b"-"),
            Some(transaction) => {
                put(out, if transaction.refused { b"!" } else { b"m" });
                put(out, &(transaction.queued.len() as u64).to_le_bytes());
                for line in &transaction.queued {
                    put(out, &(line.len() as u64).to_le_bytes());
                    for word in line {
                        put(out, word);
                    }
                }
            }
        }
        if let Some(id) = session.watcher {
            put(out, &[u8::from(self.keyspace.watch_spoiled(id))]);
            for (db, key, expired) in self.keyspace.watched_by(id) {
                put(out, &(db as u64).to_le_bytes());
                put(out, key);
                put(out, &[u8::from(expired)]);
            }
            put(out, b"|");
        }
    }

    /// Whether any connection watches a key: a write may then fail another's EXEC.
    pub fn watching(&self) -> bool {
        self.keyspace.anything_watched()
    }

    /// Every live key of database 0, sorted by name, with its value and remaining TTL.
    pub fn snapshot(&self) -> Vec<KeySnapshot> {
        self.snapshot_db(0)
    }

    /// How many databases there are (SELECT takes 0 to this minus one).
    pub const DATABASES: usize = DATABASES;

    /// Every live key of database `db` (empty for an index out of range), sorted by name.
    pub fn snapshot_db(&self, db: usize) -> Vec<KeySnapshot> {
        let now = self.keyspace.now();
        let mut keys: Vec<KeySnapshot> = self
            .keyspace
            .live_entries_of(db)
            .map(|(key, entry)| key_snapshot(key, entry, now))
            .collect();
        order::sort_by(&mut keys, |a, b| a.key.cmp(&b.key));
        keys
    }

    /// Database `db`'s live keys, how many of them expire, and the mean of what those have left
    /// in ms (0 with none): INFO's keyspace line.
    #[cfg(all(not(target_arch = "wasm32"), feature = "full"))]
    pub(crate) fn db_counts(&self, db: usize) -> (usize, usize, i64) {
        let now = self.keyspace.now();
        let (mut keys, mut expires, mut left) = (0usize, 0usize, 0i128);
        for (_, entry) in self.keyspace.live_entries_of(db) {
            keys += 1;
            if let Some(at) = entry.expires_at {
                expires += 1;
                left += i128::from(at.saturating_sub(now).max(0));
            }
        }
        let mean = if expires == 0 {
            0
        } else {
            i64::try_from(left / expires as i128).unwrap_or(i64::MAX)
        };
        (keys, expires, mean)
    }

    /// How many scripts EVAL has cached, and the function libraries' counts: INFO's memory
    /// section.
    #[cfg(all(not(target_arch = "wasm32"), feature = "full"))]
    pub(crate) fn script_counts(&self) -> (usize, crate::cmd::libraries::FunctionCounts) {
        (self.scripts.cached(), self.scripts.functions.counts())
    }

    /// The live key `key` of database `db` as [`Store::snapshot_db`] shows it, if there is one
    /// (`None` for an index out of range): a caller following one key need not copy the others.
    pub fn snapshot_key(&self, db: usize, key: &[u8]) -> Option<KeySnapshot> {
        let entry = self.keyspace.live_entry_of(db, key)?;
        Some(key_snapshot(key, entry, self.keyspace.now()))
    }

    /// The function libraries loaded (FUNCTION LOAD), for a server describing a running one.
    #[cfg(all(not(target_arch = "wasm32"), feature = "full"))]
    pub(crate) fn function_libraries(&self) -> &crate::cmd::libraries::Libraries {
        &self.scripts.functions
    }

    /// Makes PUBLISH deliver through `deliver`, which returns how many subscribers received
    /// the message (PUBLISH's reply). Without one, PUBLISH reaches nobody and replies 0.
    pub fn on_publish(&mut self, deliver: crate::Deliver) {
        self.keyspace.pubsub().install(deliver);
    }

    /// Restarts the store's random draws (HRANDFIELD, ZRANDMEMBER, …) from `seed`, so a run
    /// that draws is reproducible.
    pub fn seed_random(&mut self, seed: u64) {
        self.keyspace.seed(seed);
    }

    /// For a server that really waits: a blocking command (BLPOP, BLMOVE…) with nothing to take
    /// answers nil at once, as inside MULTI, instead of waiting out its timeout on the virtual
    /// clock; the server then waits and runs it again.
    pub fn set_caller_waits(&mut self, waits: bool) {
        self.keyspace.set_caller_waits(waits);
    }

    /// Lets another thread stop a running script (SCRIPT KILL) through `interrupt`, which
    /// also tells whether the script has written yet.
    pub fn set_script_interrupt(&mut self, interrupt: std::sync::Arc<crate::ScriptInterrupt>) {
        self.scripts.set_interrupt(interrupt);
    }

    /// How many interpreter steps one script may take before it is stopped.
    pub fn set_step_budget(&mut self, steps: u64) {
        self.scripts.set_step_budget(steps);
    }
}

/// One key as a snapshot shows it: its value copied out and its TTL at `now`.
fn key_snapshot(key: &[u8], entry: &Entry, now: i64) -> KeySnapshot {
    KeySnapshot {
        key: key.to_vec(),
        value: match &entry.value {
            Value::Str(bytes, _) => ValueSnapshot::String(bytes.clone()),
            Value::Hash(table) => ValueSnapshot::Hash(
                table
                    .iter()
                    .map(|(f, v)| (f.to_vec(), v.to_vec()))
                    .collect(),
            ),
            Value::ZSet(set) => {
                ValueSnapshot::ZSet(set.iter().map(|r| (r.member.clone(), r.score)).collect())
            }
            Value::List(list) => ValueSnapshot::List(list.iter().cloned().collect()),
            Value::Set(set) => ValueSnapshot::Set(set.members()),
        },
        ttl_ms: entry
            .expires_at
            .map(|at| u64::try_from(at.saturating_sub(now)).unwrap_or(0)),
    }
}
