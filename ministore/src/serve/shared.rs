//! What every connection thread shares: the one store behind its mutex (and the condition
//! blocked clients wait on), the clock mode, the table of connected clients that CLIENT LIST
//! and CLIENT KILL read, the pub/sub registry and the state of the running script.

use std::collections::BTreeMap;
use std::io::Write;
use std::net::SocketAddr;
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, TryLockError};
use std::time::{Duration, Instant};

use super::busy::ScriptRun;
use super::pubsub::PubSub;
use crate::frame::Frame;
use crate::Store;

/// How the store's clock moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockMode {
    /// Expiry in wall time: the store's clock follows a monotonic clock before each command.
    Real,
    /// The store's own virtual clock, moved only by `DEBUG SLEEP`.
    Virtual,
}

/// Locks a mutex even if a thread panicked while holding it: one client's panic must not take
/// the others' data down with it.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The server-wide state.
pub struct Shared {
    /// The one store every client talks to.
    pub store: Mutex<Store>,
    /// Signalled after a command ran while some client waits in a blocking pop.
    pub changed: Condvar,
    /// How many clients wait in a blocking command.
    pub blocked: AtomicUsize,
    /// Real or virtual clock.
    pub clock: ClockMode,
    started: Instant,
    /// Every connected client by id.
    pub clients: Mutex<BTreeMap<u64, Arc<ClientInfo>>>,
    next_id: AtomicU64,
    /// Channel and pattern subscriptions (shared with the store's PUBLISH delivery).
    pub pubsub: Arc<Mutex<PubSub>>,
    /// The script that is running, if any, for BUSY and SCRIPT KILL.
    pub script: ScriptRun,
    /// Set by SHUTDOWN; the accept loop stops.
    pub shutting_down: AtomicBool,
    /// Where the server listens (SHUTDOWN connects to it to wake the accept loop).
    pub listen_addr: OnceLock<SocketAddr>,
}

impl Shared {
    /// A fresh server state around `store`.
    pub fn new(store: Store, clock: ClockMode, busy_threshold: Duration) -> Shared {
        Shared {
            store: Mutex::new(store),
            changed: Condvar::new(),
            blocked: AtomicUsize::new(0),
            clock,
            started: Instant::now(),
            clients: Mutex::new(BTreeMap::new()),
            next_id: AtomicU64::new(1),
            pubsub: Arc::new(Mutex::new(PubSub::default())),
            script: ScriptRun::new(busy_threshold),
            shutting_down: AtomicBool::new(false),
            listen_addr: OnceLock::new(),
        }
    }

    /// The next client id (Redis's ids start at 1 and never repeat).
    pub fn next_client_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Brings the store's clock up to wall time (real clock only); it never moves back.
    pub fn tick(&self, store: &mut Store) {
        if self.clock == ClockMode::Real {
            let wall = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
            let now = store.now_ms();
            if wall > now {
                store.advance(wall - now);
            }
        }
    }

    /// Takes the store's lock, answering BUSY instead once a script has run past the
    /// threshold (until then a command waits for the script, as in Redis).
    pub fn lock_store(&self) -> Result<MutexGuard<'_, Store>, Frame> {
        loop {
            match self.store.try_lock() {
                Ok(guard) => return Ok(guard),
                Err(TryLockError::Poisoned(poisoned)) => return Ok(poisoned.into_inner()),
                Err(TryLockError::WouldBlock) => {}
            }
            if !self.script.running() {
                return Ok(lock(&self.store));
            }
            if let Some(busy) = self.script.busy_reply() {
                return Err(busy);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Wakes every waiting client so it notices it was killed (a waiter that misses this
    /// wakes within its next time slice anyway).
    pub fn wake_blocked_now(&self) {
        self.changed.notify_all();
    }

    /// Wakes the clients waiting in blocking commands so they retry.
    pub fn wake_blocked(&self) {
        if self.blocked.load(Ordering::Acquire) > 0 {
            self.changed.notify_all();
        }
    }
}

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
    /// The write half: replies and pushed messages go through it whole, never interleaved.
    writer: Mutex<TcpStream>,
    /// Set by CLIENT KILL: the connection closes at its next step.
    pub killed: AtomicBool,
    /// What CLIENT LIST shows and the owner updates.
    pub state: Mutex<ClientState>,
}

/// The mutable part of a client's description.
pub struct ClientState {
    /// CLIENT SETNAME's name (empty: none).
    pub name: Vec<u8>,
    /// The selected database.
    pub db: i64,
    /// Channels and patterns subscribed to.
    pub sub: usize,
    pub psub: usize,
    /// Commands queued in MULTI, or -1 outside MULTI.
    pub multi: i64,
    /// The last command, lowercase, `container|sub` for containers.
    pub last_cmd: String,
    last_active: Instant,
    /// Waiting in a blocking command.
    pub blocked: bool,
    /// 2 or 3.
    pub resp: u8,
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
            writer: Mutex::new(stream.try_clone()?),
            killed: AtomicBool::new(false),
            state: Mutex::new(ClientState {
                name: Vec::new(),
                db: 0,
                sub: 0,
                psub: 0,
                multi: -1,
                last_cmd: "NULL".to_string(),
                last_active: now,
                blocked: false,
                resp: 2,
            }),
        })
    }

    /// Writes bytes whole; a failed write closes the connection (the reader then sees EOF).
    pub fn send(&self, bytes: &[u8]) -> bool {
        if bytes.is_empty() {
            return true;
        }
        let mut writer = lock(&self.writer);
        if writer.write_all(bytes).is_ok() {
            return true;
        }
        let _ = writer.shutdown(Shutdown::Both);
        false
    }

    /// Sends one frame encoded for this client's protocol version.
    pub fn push(&self, frame: &Frame) -> bool {
        let resp3 = lock(&self.state).resp == 3;
        let mut out = Vec::new();
        frame.encode(resp3, &mut out);
        self.send(&out)
    }

    /// Closes the connection from another thread (CLIENT KILL).
    pub fn kill(&self) {
        self.killed.store(true, Ordering::Release);
        let _ = lock(&self.writer).shutdown(Shutdown::Both);
    }

    /// Whether the client listens to any channel or pattern.
    pub fn is_subscriber(&self) -> bool {
        let state = lock(&self.state);
        state.sub + state.psub > 0
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
        if state.sub + state.psub > 0 {
            flags.push('P');
        }
        if state.multi >= 0 {
            flags.push('x');
        }
        if state.blocked {
            flags.push('b');
        }
        if flags.is_empty() {
            flags.push('N');
        }
        format!(
            "id={} addr={} laddr={} fd={} name={} age={} idle={} flags={flags} db={} sub={} psub={} ssub=0 multi={} qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=1024 rbp=0 obl=0 oll=0 omem=0 tot-mem=0 events=r cmd={} user=default redir=-1 resp={}",
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
            state.multi,
            state.last_cmd,
            state.resp,
        )
    }
}
