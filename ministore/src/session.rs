//! What one client connection carries between its commands: the selected database, an open
//! MULTI block with the commands queued in it, and its WATCH list's id in the store. A server
//! holds one [`Session`] per client over one shared [`Store`](crate::Store) and runs each
//! command line with [`Store::exec_in`](crate::Store::exec_in); [`Store::exec`](crate::Store::exec)
//! uses a session the store keeps for itself.

use crate::keyspace::WatcherId;

/// One client connection's state.
///
/// ```
/// use ministore::{Reply, Session, Store};
/// let mut store = Store::new();
/// let (mut alice, mut bob) = (Session::new(), Session::new());
/// store.exec_in(&mut alice, &["WATCH", "lock"]);
/// store.exec_in(&mut alice, &["MULTI"]);
/// store.exec_in(&mut alice, &["SET", "lock", "alice"]);
/// store.exec_in(&mut bob, &["SET", "lock", "bob"]);
/// assert_eq!(store.exec_in(&mut alice, &["EXEC"]), Reply::Nil);
/// store.end_session(&mut alice);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Session {
    /// The selected database (SELECT), 0 to 15.
    pub(crate) db: usize,
    /// The open MULTI block, if any.
    pub(crate) multi: Option<Transaction>,
    /// This session's WATCH list in the store, once it has watched something.
    pub(crate) watcher: Option<WatcherId>,
    /// True while EXEC runs the queued commands: blocking commands must not wait then.
    pub(crate) in_exec: bool,
}

/// A MULTI block being queued.
#[derive(Debug, Clone, Default)]
pub(crate) struct Transaction {
    /// The queued command lines, in order.
    pub(crate) queued: Vec<Vec<Vec<u8>>>,
    /// A queued command was refused (unknown, wrong arity): EXEC replies EXECABORT.
    pub(crate) refused: bool,
}

impl Session {
    /// A fresh connection: database 0, no MULTI, no watched keys.
    pub fn new() -> Session {
        Session::default()
    }

    /// The selected database's index.
    pub fn db(&self) -> usize {
        self.db
    }

    /// True between MULTI and EXEC/DISCARD.
    pub fn in_multi(&self) -> bool {
        self.multi.is_some()
    }

    /// How many commands the open MULTI block has queued (0 without one).
    pub fn queued_len(&self) -> usize {
        self.multi.as_ref().map_or(0, |t| t.queued.len())
    }

    /// True once a refused command has doomed the open MULTI block to EXECABORT.
    pub fn multi_refused(&self) -> bool {
        self.multi.as_ref().is_some_and(|t| t.refused)
    }

    /// True while the session watches keys (WATCH without a later EXEC, DISCARD or UNWATCH).
    pub fn is_watching(&self) -> bool {
        self.watcher.is_some()
    }
}
