//! Blocking pops that really wait: BLPOP, BRPOP, BRPOPLPUSH, BLMOVE, BLMPOP, BZPOPMIN,
//! BZPOPMAX and BZMPOP run in the store, which answers nil when there is nothing to take. The
//! client then joins the queue of waiters and sleeps. As in Redis, the connection that runs a
//! command serves the waiters before the store is let go, so a pusher's next command sees the
//! lists the waiters left: each key the store reports readied ([`crate::Readied`]: a list or a
//! sorted set made anew, or a database SWAPDB filled) serves its waiters longest-waiting first,
//! each taking from that key alone, in the order the keys were readied, and what a served
//! waiter readies in turn (a BLMOVE's new destination) is served after them. A key overwritten
//! in place readies nothing, and a waiter of another kind than the key (a BLPOP on a key that
//! is now a sorted set) waits on, as in Redis 7.0. CLIENT UNBLOCK ends a wait as its timeout
//! would, or with an error. The waiter itself only looks at its timeout, its socket and
//! CLIENT KILL.

use std::collections::VecDeque;
use std::io::{ErrorKind, Read};
use std::net::TcpStream;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::client::ClientInfo;
use super::conn::Conn;
use super::lock::lock;
use crate::cmd::blocking::{parse_timeout, timeout_position, Timeout};
use crate::frame::Frame;
use crate::reply::Reply;
use crate::shape::shape;
use crate::{Readied, Session, Store};

/// A waiting client looks at its socket and at CLIENT KILL this often.
const SLICE: Duration = Duration::from_millis(100);

/// Bytes a waiting client may send ahead before the server stops reading them (Redis reads a
/// blocked client's socket too, up to its query buffer limit).
const READ_AHEAD_LIMIT: usize = 64 * 1024 * 1024;

/// What a waiter can take from: lists, or sorted sets (Redis's `BLOCKED_LIST`, `BLOCKED_ZSET`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WaitKind {
    List,
    ZSet,
}

impl WaitKind {
    /// TYPE's answer for a key this kind of waiter takes from.
    fn type_name(self) -> &'static str {
        match self {
            WaitKind::List => "list",
            WaitKind::ZSet => "zset",
        }
    }
}

/// What a blocking command waits on: its kind and keys, and how to run it on one of them.
struct Blocked {
    kind: WaitKind,
    keys: Vec<Vec<u8>>,
    /// Where the keys sit in the command's words.
    first: usize,
    /// Where the key count sits (BLMPOP, BZMPOP), which a one-key run sets to 1.
    count_at: Option<usize>,
}

impl Blocked {
    /// Reads a blocking command the store already took as well-formed (it answered nil).
    fn of(words: &[Vec<u8>]) -> Option<Blocked> {
        let name = words.first()?.to_ascii_lowercase();
        let kind = if name.starts_with(b"bz") {
            WaitKind::ZSet
        } else {
            WaitKind::List
        };
        let (first, count_at, count): (usize, _, usize) = match name.as_slice() {
            b"blpop" | b"brpop" | b"bzpopmin" | b"bzpopmax" => {
                (1, None, words.len().checked_sub(2)?)
            }
            b"blmove" | b"brpoplpush" => (1, None, 1),
            b"blmpop" | b"bzmpop" => {
                let count = std::str::from_utf8(words.get(2)?).ok()?.parse().ok()?;
                (3, Some(2), count)
            }
            _ => return None,
        };
        let keys = words.get(first..first.checked_add(count)?)?.to_vec();
        Some(Blocked {
            kind,
            keys,
            first,
            count_at,
        })
    }

    /// The command run on `key` alone: what Redis serves a waiter from the key readied.
    fn on_key(&self, words: &[Vec<u8>], key: &[u8]) -> Vec<Vec<u8>> {
        let mut one = words[..self.first].to_vec();
        if let Some(at) = self.count_at {
            one[at] = b"1".to_vec();
        }
        one.push(key.to_vec());
        one.extend_from_slice(&words[self.first + self.keys.len()..]);
        one
    }
}

/// One client waiting in a blocking command.
pub struct Waiter {
    words: Vec<Vec<u8>>,
    /// What it waits on.
    blocked: Blocked,
    /// The database it waits in.
    db: usize,
    /// The client, which CLIENT KILL may have killed before it left the queue.
    client: Arc<ClientInfo>,
    /// The client's socket, to see whether it hung up before serving it.
    socket: Option<TcpStream>,
    /// The client's session, lent to the queue while it waits, and the reply once served.
    state: Mutex<(Session, Option<Reply>)>,
}

/// The waiters, longest-waiting first. Only touched with the store locked.
#[derive(Default)]
pub struct Waiters(Mutex<VecDeque<Arc<Waiter>>>);

impl Waiters {
    /// Serves the waiters what `readied` (and then what serving them readies) gives them, key
    /// by key as Redis's `handleClientsBlockedOnKeys` does; true if any was served.
    pub fn serve(&self, store: &mut Store, mut readied: Vec<Readied>) -> bool {
        let mut any = false;
        while !readied.is_empty() {
            for (db, key) in self.waited_keys(readied) {
                any |= self.serve_key(store, db, &key);
            }
            readied = store.take_readied();
        }
        any
    }

    /// The keys some waiter waits on among `readied`, each once, in the order they were
    /// readied; a swapped database readies every key waited on in it.
    fn waited_keys(&self, readied: Vec<Readied>) -> Vec<(usize, Vec<u8>)> {
        let queue = lock(&self.0);
        let mut keys: Vec<(usize, Vec<u8>)> = Vec::new();
        let mut add = |db: usize, key: &[u8]| {
            if !keys.iter().any(|(d, k)| *d == db && k == key) {
                keys.push((db, key.to_vec()));
            }
        };
        for change in readied {
            match change {
                Readied::Key { db, key } => {
                    if queue
                        .iter()
                        .any(|w| w.db == db && w.blocked.keys.contains(&key))
                    {
                        add(db, &key);
                    }
                }
                Readied::Database(db) => {
                    for waiter in queue.iter().filter(|w| w.db == db) {
                        for key in &waiter.blocked.keys {
                            add(db, key);
                        }
                    }
                }
            }
        }
        keys
    }

    /// Serves the waiters on `key` in database `db`, longest-waiting first, while the key
    /// holds something of their kind; true if any was served.
    fn serve_key(&self, store: &mut Store, db: usize, key: &[u8]) -> bool {
        let waiting: Vec<Arc<Waiter>> = lock(&self.0)
            .iter()
            .filter(|w| w.db == db && w.blocked.keys.iter().any(|k| k == key))
            .cloned()
            .collect();
        let mut served = Vec::new();
        for waiter in waiting {
            if waiter.client.killed.load(Ordering::Acquire) || waiter.hung_up() {
                continue;
            }
            let mut state = lock(&waiter.state);
            let (session, reply) = &mut *state;
            if reply.is_some() {
                continue;
            }
            let kind = store.exec_in(session, &[&b"TYPE"[..], key]);
            if kind == Reply::Status("none".into()) {
                break;
            }
            if kind != Reply::Status(waiter.blocked.kind.type_name().into()) {
                continue;
            }
            let got = store.exec_in(session, &waiter.blocked.on_key(&waiter.words, key));
            if got == Reply::Nil {
                continue;
            }
            *reply = Some(got);
            drop(state);
            served.push(waiter);
        }
        lock(&self.0).retain(|w| !served.iter().any(|s| Arc::ptr_eq(s, w)));
        !served.is_empty()
    }

    /// CLIENT UNBLOCK: ends client `id`'s wait with `reply` if it is waiting and not served
    /// yet (with the store locked, so no push can serve it meanwhile); whether it was.
    pub fn unblock(&self, id: u64, reply: Reply) -> bool {
        let queue = lock(&self.0);
        let Some(waiter) = queue.iter().find(|w| w.client.id == id) else {
            return false;
        };
        let mut state = lock(&waiter.state);
        if state.1.is_some() || waiter.client.killed.load(Ordering::Acquire) {
            return false;
        }
        state.1 = Some(reply);
        true
    }

    fn push(&self, waiter: Arc<Waiter>) {
        lock(&self.0).push_back(waiter);
    }

    fn remove(&self, waiter: &Arc<Waiter>) {
        lock(&self.0).retain(|w| !Arc::ptr_eq(w, waiter));
    }
}

impl Waiter {
    /// Whether the client closed its end of the connection with nothing sent ahead unread (a
    /// peek sees that data first; the waiting thread reads it ahead within a [`SLICE`] and then
    /// sees the end). Redis frees such a client as soon as it reads the end of its stream; the
    /// waiting thread here looks only once per [`SLICE`], and an element served meanwhile would
    /// be taken from the list and written to no one.
    /// Only called with the store locked, as the waiting thread reads its socket only then, so
    /// the two never change its read timeout under each other.
    fn hung_up(&self) -> bool {
        let Some(socket) = &self.socket else {
            return false;
        };
        if socket.set_read_timeout(Some(GLANCE)).is_err() {
            return true;
        }
        let mut byte = [0u8; 1];
        let closed = loop {
            match socket.peek(&mut byte) {
                Ok(n) => break n == 0,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => break !nothing_yet(&e),
            }
        };
        let _ = socket.set_read_timeout(None);
        closed
    }
}

/// How long a look at a waiting client's socket waits for bytes. A read timeout rather than
/// non-blocking mode, which every handle on the socket shares: the client's writer thread may be
/// sending its earlier replies meanwhile, and must not find its writes refused.
const GLANCE: Duration = Duration::from_micros(1);

/// Whether a read that failed only found nothing to read yet.
fn nothing_yet(error: &std::io::Error) -> bool {
    matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)
}

/// The timeout as a duration (`None`: forever), read as the store reads it
/// ([`parse_timeout`]), which has already refused a bad one.
fn timeout_of(word: &[u8]) -> Option<Duration> {
    match parse_timeout(word) {
        Ok(Timeout::Ms(ms)) => Some(Duration::from_millis(ms.min(MAX_WAIT_MS))),
        _ => None,
    }
}

/// The longest a waiting client waits here, about 31 years.
const MAX_WAIT_MS: u64 = 1_000_000_000_000;

impl Conn {
    /// Runs a blocking command; `None` when the client went away (or was killed) meanwhile.
    pub(super) fn blocking(&mut self, name: &[u8], words: Vec<Vec<u8>>) -> Option<Frame> {
        let position = timeout_position(name, &words)?;
        let deadline = timeout_of(&words[position]).map(|t| Instant::now() + t);
        // Its own handle on the shared state: the store's guard outlives reads of the socket.
        let shared = self.shared.clone();
        let mut store = match shared.lock_store() {
            Ok(store) => store,
            Err(busy) => return Some(busy),
        };
        shared.tick(&mut store);
        let first = store.exec_in(&mut self.session, &words);
        if first != Reply::Nil || deadline.is_some_and(|d| Instant::now() >= d) {
            // A pop that moved an element (BLMOVE) may itself serve someone.
            shared.serve_waiters(&mut store);
            return Some(shape(&words, first));
        }
        let Some(blocked) = Blocked::of(&words) else {
            return Some(shape(&words, first));
        };
        let waiter = Arc::new(Waiter {
            blocked,
            db: self.session.db(),
            words: words.clone(),
            client: self.info.clone(),
            socket: self.reader.try_clone().ok(),
            state: Mutex::new((std::mem::take(&mut self.session), None)),
        });
        shared.waiters.push(waiter.clone());
        shared.blocked.fetch_add(1, Ordering::AcqRel);
        lock(&self.info.state).blocked = true;
        let result = loop {
            let slice = deadline.map_or(SLICE, |d| {
                d.saturating_duration_since(Instant::now()).min(SLICE)
            });
            store = match shared.changed.wait_timeout(store, slice) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
            if let Some(reply) = lock(&waiter.state).1.take() {
                break Some(reply);
            }
            if self.info.killed.load(Ordering::Acquire) || self.peer_closed() {
                break None;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                // The clock moves on in the store too: a lease may have lapsed meanwhile.
                shared.tick(&mut store);
                break Some(Reply::Nil);
            }
        };
        shared.waiters.remove(&waiter);
        self.session = std::mem::take(&mut lock(&waiter.state).0);
        shared.blocked.fetch_sub(1, Ordering::AcqRel);
        lock(&self.info.state).blocked = false;
        drop(store);
        result.map(|reply| shape(&words, reply))
    }

    /// Whether the client hung up while this connection was not reading. What it sent ahead
    /// meanwhile is read into the connection's buffer, to run once the wait is over, so that
    /// a hang-up behind it is seen.
    fn peer_closed(&mut self) -> bool {
        if self.reader.set_read_timeout(Some(GLANCE)).is_err() {
            return true;
        }
        let mut chunk = [0u8; 4096];
        let closed = loop {
            if self.pending.len() >= READ_AHEAD_LIMIT {
                break false;
            }
            match self.reader.read(&mut chunk) {
                Ok(0) => break true,
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => break !nothing_yet(&e),
            }
        };
        let _ = self.reader.set_read_timeout(None);
        closed
    }
}
