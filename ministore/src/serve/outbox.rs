//! A client's output: the bytes waiting to go out on its socket, written by a thread of the
//! client's own. Putting bytes in never waits for the socket, so a client that stops reading holds
//! up neither a client publishing to it (with the store locked) nor its own connection's reading
//! (a pipeline sent whole before any reply is read, as redis-py and Jedis send one). What waits is
//! bounded as in Redis 7.0's defaults (`client-output-buffer-limit`): nothing bounds a normal
//! client's, and a subscriber whose waiting output reaches 32 MB, or is found at 8 MB or more when
//! a message is put in more than 60 s after it first reached that, is closed. (Redis also checks
//! the 60 s once a second, with no message; here only a message does.)

use std::collections::VecDeque;
use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

use super::lock::lock;

/// A subscriber whose waiting output reaches this is closed at once (Redis's pubsub hard limit).
pub const SUBSCRIBER_HARD_LIMIT: usize = 32 * 1024 * 1024;

/// A subscriber whose waiting output stays at this or more for over [`SUBSCRIBER_SOFT_SECONDS`]
/// is closed.
pub const SUBSCRIBER_SOFT_LIMIT: usize = 8 * 1024 * 1024;

/// How long, in whole seconds, a subscriber's output may stay at [`SUBSCRIBER_SOFT_LIMIT`].
pub const SUBSCRIBER_SOFT_SECONDS: u64 = 60;

/// Whether more may be put in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// Open: bytes put in are written.
    Open,
    /// What is queued is written, then the socket is closed; nothing more is taken.
    CloseWhenSent,
    /// Closed: nothing more is written.
    Closed,
}

/// What is queued and whether the output is still open.
struct Queue {
    chunks: VecDeque<Vec<u8>>,
    /// Bytes queued or being written: Redis's output buffer, the part the socket has not taken.
    waiting: usize,
    /// Since when a subscriber's output has been over the soft limit.
    over_soft_since: Option<Instant>,
    end: End,
}

/// One client's output and the socket it goes to.
pub struct Outbox {
    queue: Mutex<Queue>,
    /// Signalled when bytes are queued or the output ends.
    ready: Condvar,
    /// The socket: the writer thread writes to it, and any thread may close it.
    socket: TcpStream,
}

/// A held outbox: what a caller puts in while it holds it goes out in that order, never
/// interleaved with another caller's.
pub struct Held<'a> {
    outbox: &'a Outbox,
    queue: MutexGuard<'a, Queue>,
}

impl Outbox {
    /// An open outbox for `socket`; [`Outbox::write_out`] must run (on a thread of its own) for
    /// anything put in to be written.
    pub fn new(socket: &TcpStream) -> std::io::Result<Outbox> {
        Ok(Outbox {
            queue: Mutex::new(Queue {
                chunks: VecDeque::new(),
                waiting: 0,
                over_soft_since: None,
                end: End::Open,
            }),
            ready: Condvar::new(),
            socket: socket.try_clone()?,
        })
    }

    /// Holds the outbox (the lock that orders everything put in).
    pub fn hold(&self) -> Held<'_> {
        Held {
            outbox: self,
            queue: lock(&self.queue),
        }
    }

    /// Writes what is queued to the socket until the output ends, then closes the socket. Runs
    /// on the client's writer thread; returns once the output is closed, or ended and all sent.
    pub fn write_out(&self) {
        loop {
            let batch = {
                let mut queue = lock(&self.queue);
                while queue.chunks.is_empty() && queue.end == End::Open {
                    queue = self
                        .ready
                        .wait(queue)
                        .unwrap_or_else(|poisoned| poisoned.into_inner());
                }
                if queue.end == End::Closed || queue.chunks.is_empty() {
                    break;
                }
                let mut batch = Vec::with_capacity(queue.waiting);
                for chunk in queue.chunks.drain(..) {
                    batch.extend_from_slice(&chunk);
                }
                batch
            };
            let written = (&self.socket).write_all(&batch).is_ok();
            let mut queue = lock(&self.queue);
            queue.waiting = queue.waiting.saturating_sub(batch.len());
            if !written {
                queue.close();
                break;
            }
        }
        let _ = self.socket.shutdown(Shutdown::Both);
    }

    /// Sends what is queued, then closes the socket; nothing put in later is sent.
    pub fn close_when_sent(&self) {
        self.hold().end_when_sent();
    }

    /// Closes the socket now, dropping what is queued (the reader then sees EOF).
    pub fn close_now(&self) {
        self.hold().close_now();
    }
}

impl Queue {
    fn close(&mut self) {
        self.end = End::Closed;
        self.chunks.clear();
    }
}

impl Held<'_> {
    /// Whether what is put in will be written.
    pub fn is_open(&self) -> bool {
        self.queue.end == End::Open
    }

    /// Queues `bytes`; false, queuing nothing, once the output is ended or closed.
    pub fn put(&mut self, bytes: &[u8]) -> bool {
        if !self.is_open() {
            return false;
        }
        self.queue.waiting += bytes.len();
        self.queue.chunks.push_back(bytes.to_vec());
        self.outbox.ready.notify_all();
        true
    }

    /// For a subscriber: whether its waiting output is over Redis's pubsub limits now, which
    /// starts the soft limit's count when it first reaches it (and stops it once under), as
    /// `checkClientOutputBufferLimits` counts: whole seconds, more than the limit's.
    pub fn over_subscriber_limits(&mut self, now: Instant) -> bool {
        let waiting = self.queue.waiting;
        if waiting < SUBSCRIBER_SOFT_LIMIT {
            self.queue.over_soft_since = None;
            return false;
        }
        let since = *self.queue.over_soft_since.get_or_insert(now);
        waiting >= SUBSCRIBER_HARD_LIMIT
            || now.duration_since(since).as_secs() > SUBSCRIBER_SOFT_SECONDS
    }

    /// Puts nothing more in: what is queued is sent, then the socket closes.
    pub fn end_when_sent(&mut self) {
        if self.queue.end == End::Open {
            self.queue.end = End::CloseWhenSent;
        }
        self.outbox.ready.notify_all();
    }

    /// Closes the socket now, dropping what is queued.
    pub fn close_now(&mut self) {
        self.queue.close();
        self.outbox.ready.notify_all();
        let _ = self.outbox.socket.shutdown(Shutdown::Both);
    }
}
