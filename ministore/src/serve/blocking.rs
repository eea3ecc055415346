//! Blocking pops that really wait: BLPOP, BRPOP, BRPOPLPUSH, BLMOVE, BLMPOP, BZPOPMIN,
//! BZPOPMAX and BZMPOP run in the store, which answers nil when there is nothing to take. The
//! client then joins the queue of waiters and sleeps; as in Redis, the connection that runs a
//! command serves the waiters before the store is let go — longest-waiting first, each
//! command run again in its own client's session, again and again while one served frees
//! another — so a pusher's next command sees the list the waiters left. A waiter whose key
//! became another type meanwhile waits on, as in Redis 7.0. CLIENT UNBLOCK ends a wait as its
//! timeout would, or with an error. The waiter itself only looks at its timeout, its socket and
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
use crate::{Session, Store};

/// A waiting client looks at its socket and at CLIENT KILL this often.
const SLICE: Duration = Duration::from_millis(100);

/// Bytes a waiting client may send ahead before the server stops reading them (Redis reads a
/// blocked client's socket too, up to its query buffer limit).
const READ_AHEAD_LIMIT: usize = 64 * 1024 * 1024;

/// One client waiting in a blocking command.
pub struct Waiter {
    words: Vec<Vec<u8>>,
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
    /// Serves every waiter whose command now gets something, in queue order, over and over
    /// while one served may free another (a BLMOVE's push); true if any was.
    pub fn serve(&self, store: &mut Store) -> bool {
        let mut any = false;
        loop {
            let queue: Vec<Arc<Waiter>> = lock(&self.0).iter().cloned().collect();
            let mut served = Vec::new();
            for waiter in &queue {
                if waiter.client.killed.load(Ordering::Acquire) || waiter.hung_up() {
                    continue;
                }
                let mut state = lock(&waiter.state);
                let (session, reply) = &mut *state;
                if reply.is_some() {
                    continue;
                }
                let got = store.exec_in(session, &waiter.words);
                let waits = match got {
                    // Nothing to take yet.
                    Reply::Nil => true,
                    // The key is of another type now: Redis 7.0 leaves such a client waiting,
                    // but serves a move whose destination is of another type its WRONGTYPE.
                    Reply::Error(_) => !moves_onto_wrong_type(store, session, &waiter.words),
                    _ => false,
                };
                if !waits {
                    *reply = Some(got);
                    served.push(waiter.clone());
                }
            }
            if served.is_empty() {
                return any;
            }
            any = true;
            lock(&self.0).retain(|w| !served.iter().any(|s| Arc::ptr_eq(s, w)));
        }
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
    /// Whether the client closed its end of the connection. Redis frees such a client as soon
    /// as it reads the end of its stream; the waiting thread here looks only once per [`SLICE`],
    /// and an element served meanwhile would be taken from the list and written to no one.
    /// Only called with the store locked, as the waiting thread reads its socket only then, so
    /// the two never change its blocking mode under each other.
    fn hung_up(&self) -> bool {
        let Some(socket) = &self.socket else {
            return false;
        };
        if socket.set_nonblocking(true).is_err() {
            return true;
        }
        let mut byte = [0u8; 1];
        let closed = loop {
            match socket.peek(&mut byte) {
                Ok(n) => break n == 0,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => break e.kind() != ErrorKind::WouldBlock,
            }
        };
        let _ = socket.set_nonblocking(false);
        closed
    }
}

/// Whether a BLMOVE or BRPOPLPUSH that answered an error did so for its destination: its
/// source holds a list to take from. Redis serves such a waiter its WRONGTYPE and leaves the
/// element where it was (`serveClientBlockedOnList`); only a source of another type keeps it
/// waiting.
fn moves_onto_wrong_type(store: &mut Store, session: &mut Session, words: &[Vec<u8>]) -> bool {
    let moves = words.first().is_some_and(|name| {
        name.eq_ignore_ascii_case(b"blmove") || name.eq_ignore_ascii_case(b"brpoplpush")
    });
    moves
        && words.get(1).is_some_and(|source| {
            store.exec_in(session, &[b"TYPE".to_vec(), source.clone()])
                == Reply::Status("list".into())
        })
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
        let waiter = Arc::new(Waiter {
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
        if self.reader.set_nonblocking(true).is_err() {
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
                Err(e) => break e.kind() != ErrorKind::WouldBlock,
            }
        };
        let _ = self.reader.set_nonblocking(false);
        closed
    }
}
