//! Blocking pops that really wait: BLPOP, BRPOP, BRPOPLPUSH, BLMOVE, BLMPOP, BZPOPMIN,
//! BZPOPMAX and BZMPOP run in the store, which answers nil when there is nothing to take; the
//! connection then waits on the store's condition — woken by every other client's command —
//! and runs the command again until it gets something or its timeout passes (0: forever).

use std::io::ErrorKind;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::conn::Conn;
use super::lock::lock;
use crate::args::parse_lenient_float;
use crate::cmd::blocking::timeout_position;
use crate::frame::Frame;
use crate::reply::Reply;
use crate::shape::shape;

/// A waiting client looks at its socket and at CLIENT KILL this often.
const SLICE: Duration = Duration::from_millis(100);

/// The timeout as a duration (`None`: forever). The store has already refused bad timeouts.
fn timeout_of(word: &[u8]) -> Option<Duration> {
    let seconds = parse_lenient_float(word);
    (seconds.is_finite() && seconds > 0.0).then(|| Duration::from_secs_f64(seconds.min(1e9)))
}

impl Conn {
    /// Runs a blocking command; `None` when the client went away (or was killed) meanwhile.
    pub(super) fn blocking(&mut self, name: &[u8], words: Vec<Vec<u8>>) -> Option<Frame> {
        let position = timeout_position(name, &words)?;
        let deadline = timeout_of(&words[position]).map(|t| Instant::now() + t);
        let mut store = match self.shared.lock_store() {
            Ok(store) => store,
            Err(busy) => return Some(busy),
        };
        let mut waiting = false;
        let result = loop {
            self.shared.tick(&mut store);
            let reply = store.exec_in(&mut self.session, &words);
            if reply != Reply::Nil {
                break Some(reply);
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break Some(Reply::Nil);
            }
            if !waiting {
                waiting = true;
                self.shared.blocked.fetch_add(1, Ordering::AcqRel);
                lock(&self.info.state).blocked = true;
            }
            let slice = deadline.map_or(SLICE, |d| {
                d.saturating_duration_since(Instant::now()).min(SLICE)
            });
            store = match self.shared.changed.wait_timeout(store, slice) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
            if self.info.killed.load(Ordering::Acquire) || self.peer_closed() {
                break None;
            }
        };
        if waiting {
            self.shared.blocked.fetch_sub(1, Ordering::AcqRel);
            lock(&self.info.state).blocked = false;
        }
        drop(store);
        // A pop that moved an element (BLMOVE) may itself unblock someone.
        self.shared.wake_blocked();
        result.map(|reply| shape(&words, reply))
    }

    /// Whether the client hung up while this connection was not reading.
    fn peer_closed(&self) -> bool {
        if self.reader.set_nonblocking(true).is_err() {
            return true;
        }
        let mut probe = [0u8; 1];
        let closed = match self.reader.peek(&mut probe) {
            Ok(0) => true,
            Ok(_) => false,
            Err(e) => e.kind() != ErrorKind::WouldBlock,
        };
        let _ = self.reader.set_nonblocking(false);
        closed
    }
}
