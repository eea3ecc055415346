//! What every connection thread shares: the one store behind its mutex (and the condition
//! blocked clients wait on), the clock mode, the table of connected clients that CLIENT LIST
//! and CLIENT KILL read, the pub/sub registry and the state of the running script. Each part
//! is defined where it lives (`client`, `pubsub`, `busy`); this file ties them together.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, TryLockError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::blocking::Waiters;
use super::busy::ScriptRun;
use super::client::ClientInfo;
use super::lock::lock;
use super::pubsub::PubSub;
use crate::frame::Frame;
use crate::keyspace::CLOCK_EPOCH_MS;
use crate::Store;

/// How the store's clock moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockMode {
    /// Expiry in wall time: the store's clock reads the machine's Unix time when the server
    /// starts and follows a monotonic clock from there, before each command.
    Real,
    /// The store's own virtual clock, moved only by `DEBUG SLEEP`.
    Virtual,
}

/// The server-wide state.
pub struct Shared {
    /// The one store every client talks to.
    pub store: Mutex<Store>,
    /// Signalled when a waiting client was served, and on CLIENT KILL.
    pub changed: Condvar,
    /// The clients waiting in blocking commands, served by whichever connection runs a
    /// command next.
    pub waiters: Waiters,
    /// How many clients wait in a blocking command.
    pub blocked: AtomicUsize,
    /// Real or virtual clock.
    pub clock: ClockMode,
    started: Instant,
    /// On the real clock, how far the machine's Unix time was past the store's epoch when the
    /// server started, in ms; 0 on the virtual clock.
    started_past_epoch_ms: u64,
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
            waiters: Waiters::default(),
            blocked: AtomicUsize::new(0),
            clock,
            started: Instant::now(),
            started_past_epoch_ms: match clock {
                ClockMode::Real => unix_ms_past_epoch(SystemTime::now()),
                ClockMode::Virtual => 0,
            },
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

    /// How long the server has run.
    pub fn uptime(&self) -> Duration {
        self.started.elapsed()
    }

    /// Brings the store's clock up to wall time (real clock only); it never moves back, even if
    /// the machine's clock is set back.
    pub fn tick(&self, store: &mut Store) {
        if self.clock == ClockMode::Real {
            let elapsed = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
            let wall = self.started_past_epoch_ms.saturating_add(elapsed);
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

    /// Waits, as [`Shared::lock_store`] does, while a script runs: `Err(BUSY)` once it has run
    /// past the threshold. For the commands the server answers without the store that Redis
    /// does not let through while a script is busy (CLIENT, the SUBSCRIBE family, PUBSUB).
    pub fn wait_for_script(&self) -> Result<(), Frame> {
        while self.script.running() {
            if let Some(busy) = self.script.busy_reply() {
                return Err(busy);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(())
    }

    /// Wakes every waiting client so it notices it was killed (a waiter that misses this
    /// wakes within its next time slice anyway).
    pub fn wake_blocked_now(&self) {
        self.changed.notify_all();
    }

    /// Serves the waiting clients a command (just run, with the store still locked) may have
    /// freed, and wakes those served.
    pub fn serve_waiters(&self, store: &mut Store) {
        // Taken whether or not anyone waits: what no one waited on when it happened is no one's.
        let readied = store.take_readied();
        if self.blocked.load(Ordering::Acquire) > 0 && self.waiters.serve(store, readied) {
            self.changed.notify_all();
        }
    }
}

/// How many ms `now` is past the store's clock epoch (0 if before it): what the store's clock
/// reads at Unix time `now`.
fn unix_ms_past_epoch(now: SystemTime) -> u64 {
    let unix_ms = now
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    unix_ms.saturating_sub(CLOCK_EPOCH_MS.unsigned_abs())
}
