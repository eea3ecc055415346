//! `ministore serve`: the store behind a real Redis protocol server over TCP (native only).
//!
//! One thread per connection, one shared [`Store`] behind a mutex. Each connection keeps its
//! own state — protocol version (RESP2, or RESP3 after `HELLO 3`), name, subscriptions, and the
//! store's per-client session — and reads inline or multibulk requests, pipelined or not.
//!
//! - [`resp`]: the request parser and Redis's protocol errors.
//! - replies on the wire are the crate's `frame` and `shape`: RESP3 types and which command
//!   sends which.
//! - `conn`: the connection loop and command routing; `client_cmd`, `subscribe`, `blocking`,
//!   `info`: HELLO/CLIENT/RESET, pub/sub, blocking pops that really wait, and INFO.
//! - `shared`, `client`, `busy`, `pubsub`: the state all connections share — the store, the
//!   client table and each client's description, the running script (BUSY, SCRIPT KILL) and
//!   the pub/sub registry; `lock` takes their mutexes without poisoning.
//! - `outbox`: each client's output, written by a thread of its own, with Redis's limits on a
//!   subscriber's.

mod blocking;
mod busy;
mod client;
mod client_cmd;
mod conn;
mod info;
mod lock;
mod outbox;
mod pubsub;
pub mod resp;
mod shared;
mod subscribe;

use std::io;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

pub use crate::frame::Frame;
pub use busy::DEFAULT_BUSY_THRESHOLD;
pub use shared::ClockMode;

use crate::Store;
use lock::lock;
use shared::Shared;

/// Stack of each connection thread: scripts run on it, so it gets what a main thread has.
const CONNECTION_STACK: usize = 8 * 1024 * 1024;

/// How `ministore serve` runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on.
    pub bind: String,
    /// Port to listen on (0: any free port).
    pub port: u16,
    /// Real (wall-time expiry) or virtual clock.
    pub clock: ClockMode,
    /// How long a script runs before other clients get BUSY.
    pub busy_threshold: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: "127.0.0.1".into(),
            port: 6379,
            clock: ClockMode::Real,
            busy_threshold: DEFAULT_BUSY_THRESHOLD,
        }
    }
}

/// A listening server; [`Server::run`] serves until SHUTDOWN.
pub struct Server {
    listener: TcpListener,
    shared: Arc<Shared>,
}

impl Server {
    /// Binds the listening socket and prepares an empty store.
    pub fn bind(config: &Config) -> io::Result<Server> {
        let listener = TcpListener::bind((config.bind.as_str(), config.port))?;
        let mut store = Store::new();
        // Redis has no step budget: a runaway script runs until SCRIPT KILL.
        store.set_step_budget(u64::MAX);
        let shared = Shared::new(store, config.clock, config.busy_threshold);
        {
            let mut store = lock(&shared.store);
            store.set_script_interrupt(shared.script.interrupt.clone());
            store.set_caller_waits(true);
            store.log_readied();
            let registry = shared.pubsub.clone();
            store.on_publish(Arc::new(
                move |kind: crate::ChannelKind, channel: &[u8], message: &[u8]| {
                    subscribe::deliver(&registry, kind, channel, message)
                },
            ));
        }
        Ok(Server {
            listener,
            shared: Arc::new(shared),
        })
    }

    /// Where the server listens.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Accepts connections, one thread each, until a client sends SHUTDOWN.
    pub fn run(self) -> io::Result<()> {
        let addr = self.listener.local_addr()?;
        let _ = self.shared.listen_addr.set(addr);
        for stream in self.listener.incoming() {
            if self.shared.shutting_down.load(Ordering::Acquire) {
                break;
            }
            let Ok(stream) = stream else {
                // Out of file descriptors and the like: let the moment pass.
                std::thread::sleep(Duration::from_millis(10));
                continue;
            };
            let shared = self.shared.clone();
            // Ids in the order clients connected, as Redis gives them.
            let id = shared.next_client_id();
            let spawned = std::thread::Builder::new()
                .name("ministore-client".into())
                .stack_size(CONNECTION_STACK)
                .spawn(move || conn::serve_connection(shared, stream, id));
            if spawned.is_err() {
                // No thread for it: the stream was moved into the closure and is dropped,
                // which closes the connection.
                continue;
            }
        }
        Ok(())
    }
}

impl Shared {
    /// SHUTDOWN: stops the accept loop and closes every connection.
    pub(crate) fn shut_down(&self) {
        self.shutting_down.store(true, Ordering::Release);
        self.script.interrupt.request_kill();
        for client in lock(&self.clients).values() {
            client.kill();
        }
        self.changed.notify_all();
        // Wake the accept loop with a connection of our own.
        if let Some(addr) = self.listen_addr.get() {
            let _ = TcpStream::connect_timeout(addr, Duration::from_secs(1));
        }
    }
}
