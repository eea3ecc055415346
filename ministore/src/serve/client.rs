//! One connected client as the other connections see it: its address, its output (every reply
//! and pushed message goes in whole) and the description CLIENT LIST prints. PUBLISH, CLIENT KILL
//! and CLIENT LIST reach a client only through this.

use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::lock::lock;
use super::outbox::Outbox;
use crate::frame::Frame;

/// One connected client as the others see it (CLIENT LIST, CLIENT KILL, PUBLISH).
pub struct ClientInfo {
    /// CLIENT ID.
    pub id: u64,
    /// The peer's `ip:port`.
    pub addr: String,
    /// The server side's `ip:port`.
    pub laddr: String,
    /// The socket's file descriptor, for CLIENT LIST.
    pub fd: i64,
    created: Instant,
    /// The output: replies and pushed messages go in whole, never interleaved, and a thread
    /// of the client's own writes them out.
    pub outbox: Outbox,
    /// Set by CLIENT KILL, or when a subscriber's output passed its limit: the connection closes
    /// at its next step.
    pub killed: AtomicBool,
    /// How many times output was put in for it (replies, confirmations, messages).
    pub writes: AtomicU64,
    /// What CLIENT LIST shows and the owner updates.
    pub state: Mutex<ClientState>,
}

/// The mutable part of a client's description.
pub struct ClientState {
    /// CLIENT SETNAME's name (empty: none).
    pub name: Vec<u8>,
    /// The selected database.
    pub db: i64,
    /// Channels, patterns and shard channels subscribed to.
    pub sub: usize,
    pub psub: usize,
    pub ssub: usize,
    /// Commands queued in MULTI, or -1 outside MULTI.
    pub multi: i64,
    /// The last command, lowercase, `container|sub` for containers.
    pub last_cmd: String,
    last_active: Instant,
    /// Waiting in a blocking command.
    pub blocked: bool,
    /// 2 or 3.
    pub resp: u8,
    /// CLIENT NO-EVICT ON.
    pub no_evict: bool,
    /// Closes once something is written to it ([`super::conn::After::Linger`]).
    pub closing: bool,
}

impl ClientInfo {
    /// Describes a fresh connection on `stream`.
    pub fn new(id: u64, stream: &TcpStream) -> std::io::Result<ClientInfo> {
        let addr = stream
            .peer_addr()
            .map(|a| a.to_string())
            .unwrap_or_default();
        let laddr = stream
            .local_addr()
            .map(|a| a.to_string())
            .unwrap_or_default();
        #[cfg(unix)]
        let fd = i64::from(std::os::unix::io::AsRawFd::as_raw_fd(stream));
        #[cfg(not(unix))]
        let fd = -1;
        let now = Instant::now();
        Ok(ClientInfo {
            id,
            addr,
            laddr,
            fd,
            created: now,
            outbox: Outbox::new(stream)?,
            killed: AtomicBool::new(false),
            writes: AtomicU64::new(0),
            state: Mutex::new(ClientState {
                name: Vec::new(),
                db: 0,
                sub: 0,
                psub: 0,
                ssub: 0,
                multi: -1,
                last_cmd: "NULL".to_string(),
                last_active: now,
                blocked: false,
                resp: 2,
                no_evict: false,
                closing: false,
            }),
        })
    }

    /// Puts bytes in the output as its last: nothing put in later is sent, and the socket closes
    /// once they are (a QUIT's OK, a protocol error's reply).
    pub fn send_last(&self, bytes: &[u8]) {
        let mut held = self.outbox.hold();
        held.put(bytes);
        held.end_when_sent();
    }

    /// Puts bytes in the output whole; false once the output is closed.
    pub fn send(&self, bytes: &[u8]) -> bool {
        bytes.is_empty() || self.write_after(|| true, bytes)
    }

    /// Runs `register` (a subscription, which lets messages be pushed to this client), then
    /// writes `bytes` (its confirmation): a message the registration lets through waits for the
    /// confirmation, and once the client has read it every later publish reaches it, as on
    /// Redis's single thread.
    pub fn register_then_send(&self, register: impl FnOnce(), bytes: &[u8]) -> bool {
        self.write_after(
            || {
                register();
                true
            },
            bytes,
        )
    }

    /// Pushes a message encoded for this client's protocol version if `still_listens` says,
    /// once the output is held, that the client still listens where it was published: an
    /// UNSUBSCRIBE between the publish and the push drops the message rather than let it follow
    /// its confirmation. Whether the client still listened (the message counts as received, as
    /// in Redis, even if it takes the client's output past its limit and closes it).
    pub fn push_if(&self, still_listens: impl FnOnce() -> bool, frame: &Frame) -> bool {
        let resp3 = lock(&self.state).resp == 3;
        let mut out = Vec::new();
        frame.encode(resp3, &mut out);
        let mut listened = false;
        self.write_after(
            || {
                listened = still_listens();
                listened
            },
            &out,
        );
        listened
    }

    /// Holds the output, runs `first`, and puts `bytes` in whole unless it said no. Whether the
    /// bytes were put in. A subscriber whose output this takes past Redis's limits is closed
    /// (the bytes still count as put in, as a message counts as received in Redis).
    /// Lock order: this client's output, then the pub/sub registry (in `first`), then its
    /// state; nothing takes the registry and then an output.
    fn write_after(&self, first: impl FnOnce() -> bool, bytes: &[u8]) -> bool {
        let mut held = self.outbox.hold();
        if !first() {
            return false;
        }
        // A client that is to close once something is written to it closes instead, unwritten
        // to, as Redis drops what it would add to such a client's output.
        if lock(&self.state).closing {
            held.close_now();
            return false;
        }
        if !held.put(bytes) {
            return false;
        }
        self.writes.fetch_add(1, Ordering::AcqRel);
        if self.is_subscriber() && held.over_subscriber_limits(Instant::now()) {
            self.killed.store(true, Ordering::Release);
            held.close_now();
        }
        true
    }

    /// Closes the connection from another thread (CLIENT KILL), dropping its waiting output.
    pub fn kill(&self) {
        self.killed.store(true, Ordering::Release);
        self.outbox.close_now();
    }

    /// Whether the client listens to any channel, pattern or shard channel.
    pub fn is_subscriber(&self) -> bool {
        let state = lock(&self.state);
        state.sub + state.psub + state.ssub > 0
    }

    /// Records the command about to run, for CLIENT LIST's `cmd` and `idle`.
    pub fn touch(&self, command: String) {
        let mut state = lock(&self.state);
        state.last_cmd = command;
        state.last_active = Instant::now();
    }

    /// This client's line of CLIENT LIST, as Redis 7.0 formats it (without the newline).
    pub fn describe(&self) -> String {
        let state = lock(&self.state);
        let mut flags = String::new();
        if state.sub + state.psub + state.ssub > 0 {
            flags.push('P');
        }
        if state.multi >= 0 {
            flags.push('x');
        }
        if state.blocked {
            flags.push('b');
        }
        if state.closing {
            flags.push('c');
        }
        if state.no_evict {
            flags.push('e');
        }
        if flags.is_empty() {
            flags.push('N');
        }
        format!(
            "id={} addr={} laddr={} fd={} name={} age={} idle={} flags={flags} db={} sub={} psub={} ssub={} multi={} qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=1024 rbp=0 obl=0 oll=0 omem=0 tot-mem=0 events=r cmd={} user=default redir=-1 resp={}",
            self.id,
            self.addr,
            self.laddr,
            self.fd,
            String::from_utf8_lossy(&state.name),
            self.created.elapsed().as_secs(),
            state.last_active.elapsed().as_secs(),
            state.db,
            state.sub,
            state.psub,
            state.ssub,
            state.multi,
            state.last_cmd,
            state.resp,
        )
    }
}
