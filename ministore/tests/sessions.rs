//! The Session API a server uses: one shared store, one `Session` per client. What one client
//! selects, queues and watches is its own; another client's write spoils its WATCH.

use ministore::{Reply, Session, Store};

fn ok() -> Reply {
    Reply::ok()
}

#[test]
fn each_session_has_its_own_database() {
    let mut store = Store::new();
    let (mut a, mut b) = (Session::new(), Session::new());
    assert_eq!(store.exec_in(&mut a, &["SELECT", "3"]), ok());
    assert_eq!(a.db(), 3);
    assert_eq!(b.db(), 0);
    store.exec_in(&mut a, &["SET", "k", "in3"]);
    assert_eq!(store.exec_in(&mut b, &["GET", "k"]), Reply::Nil);
    store.exec_in(&mut b, &["SELECT", "3"]);
    assert_eq!(store.exec_in(&mut b, &["GET", "k"]), Reply::bulk("in3"));
    // The page's snapshot stays on database 0; snapshot_db shows the others.
    assert!(store.snapshot().is_empty());
    let three = store.snapshot_db(3);
    assert_eq!(three.len(), 1);
    assert_eq!(three[0].key, b"k");
    assert!(store.snapshot_db(Store::DATABASES).is_empty());
}

#[test]
fn another_clients_write_spoils_a_watch() {
    let mut store = Store::new();
    let (mut a, mut b) = (Session::new(), Session::new());
    store.exec_in(&mut a, &["WATCH", "lock"]);
    assert!(a.is_watching());
    store.exec_in(&mut a, &["MULTI"]);
    assert_eq!(
        store.exec_in(&mut a, &["SET", "lock", "a"]),
        Reply::Status("QUEUED".into())
    );
    assert!(a.in_multi());
    assert_eq!(a.queued_len(), 1);
    // b is not in a's MULTI: its command runs at once.
    assert_eq!(store.exec_in(&mut b, &["SET", "lock", "b"]), ok());
    assert_eq!(store.exec_in(&mut a, &["EXEC"]), Reply::Nil);
    assert!(!a.in_multi());
    assert!(!a.is_watching());
    assert_eq!(store.exec_in(&mut b, &["GET", "lock"]), Reply::bulk("b"));
}

#[test]
fn a_write_in_another_database_does_not_spoil_a_watch() {
    let mut store = Store::new();
    let (mut a, mut b) = (Session::new(), Session::new());
    store.exec_in(&mut a, &["WATCH", "k"]);
    store.exec_in(&mut b, &["SELECT", "1"]);
    store.exec_in(&mut b, &["SET", "k", "v"]);
    store.exec_in(&mut a, &["MULTI"]);
    store.exec_in(&mut a, &["GET", "k"]);
    assert_eq!(
        store.exec_in(&mut a, &["EXEC"]),
        Reply::Array(vec![Reply::Nil])
    );
}

#[test]
fn ending_a_session_forgets_its_watch_and_block() {
    let mut store = Store::new();
    let mut a = Session::new();
    store.exec_in(&mut a, &["SELECT", "2"]);
    store.exec_in(&mut a, &["WATCH", "k"]);
    store.exec_in(&mut a, &["MULTI"]);
    store.exec_in(&mut a, &["NOPE"]);
    assert!(a.multi_refused());
    store.end_session(&mut a);
    assert!(!a.in_multi() && !a.is_watching());
    assert_eq!(a.db(), 0);
    // A write after the watcher left touches nobody.
    assert_eq!(store.exec_in(&mut a, &["SET", "k", "v"]), ok());
}

#[test]
fn the_stores_own_session_carries_select_and_multi_between_exec_calls() {
    let mut store = Store::new();
    store.exec(&["SELECT", "1"]);
    store.exec(&["SET", "k", "v"]);
    assert!(store.snapshot().is_empty());
    assert_eq!(store.snapshot_db(1).len(), 1);
    // EVAL through the API runs in the store session's database too.
    assert_eq!(
        store.eval("return redis.call('GET', KEYS[1])", &["k"], &[] as &[&str]),
        Reply::bulk("v")
    );
    store.exec(&["MULTI"]);
    assert_eq!(store.exec(&["GET", "k"]), Reply::Status("QUEUED".into()));
    assert_eq!(store.exec(&["EXEC"]), Reply::Array(vec![Reply::bulk("v")]));
}

#[test]
fn a_scripts_select_does_not_leak_into_the_session() {
    let mut store = Store::new();
    let mut a = Session::new();
    let script = "redis.call('SELECT', 7) return redis.call('SET', 'k', 'v')";
    store.exec_in(&mut a, &["EVAL", script, "0"]);
    assert_eq!(a.db(), 0);
    assert_eq!(store.snapshot_db(7).len(), 1);
    assert!(store.snapshot().is_empty());
}

#[test]
fn clones_are_independent_across_databases() {
    let mut store = Store::new();
    store.exec(&["SELECT", "5"]);
    store.exec(&["SET", "k", "v"]);
    let copy = store.clone();
    store.exec(&["FLUSHALL"]);
    assert_eq!(copy.snapshot_db(5).len(), 1);
    assert!(store.snapshot_db(5).is_empty());
}

/// A clone shares its keys and WATCH lists with the original until either writes: a write on
/// either side (a SET, a HINCRBY, a lazy expiry, a DEL, an UNWATCH) must not show on the other.
#[test]
fn a_write_to_a_clone_reaches_neither_the_original_nor_its_watches() {
    let mut store = Store::new();
    store.exec(&["SET", "lock", "a", "PX", "100"]);
    store.exec(&["HSET", "h", "f", "1"]);
    let mut watching = Session::new();
    store.exec_in(&mut watching, &["WATCH", "lock"]);
    let transaction = |store: &mut Store, session: &mut Session| {
        store.exec_in(session, &["MULTI"]);
        store.exec_in(session, &["GET", "lock"]);
        store.exec_in(session, &["EXEC"])
    };

    let mut copy = store.clone();
    let mut copy_watching = watching.clone();
    copy.exec(&["SET", "lock", "b"]);
    copy.exec(&["HINCRBY", "h", "f", "5"]);
    assert_eq!(store.exec(&["GET", "lock"]), Reply::bulk("a"));
    assert_eq!(store.exec(&["PTTL", "lock"]), Reply::Integer(100));
    assert_eq!(store.exec(&["HGET", "h", "f"]), Reply::bulk("1"));
    assert_eq!(transaction(&mut copy, &mut copy_watching), Reply::Nil);
    assert_eq!(
        transaction(&mut store.clone(), &mut watching.clone()),
        Reply::Array(vec![Reply::bulk("a")])
    );

    // A read that finds the key expired deletes it: in the clone that read it, only.
    let mut later = store.clone();
    later.exec(&["DEBUG", "SLEEP", "0.2"]);
    assert_eq!(later.exec(&["GET", "lock"]), Reply::Nil);
    assert_eq!(store.exec(&["GET", "lock"]), Reply::bulk("a"));

    // And the other way round: the original's writes stay out of a clone made before them.
    let before = store.clone();
    store.exec(&["DEL", "lock"]);
    store.exec_in(&mut watching, &["UNWATCH"]);
    assert_eq!(before.snapshot().len(), 2);
    assert_eq!(store.snapshot().len(), 1);
}

/// One key's snapshot is that key's row of its database's snapshot; a missing or expired key
/// has none.
#[test]
fn one_keys_snapshot_is_its_row_of_the_whole() {
    let mut store = Store::new();
    store.exec(&["SET", "lock", "a", "PX", "100"]);
    store.exec(&["HSET", "h", "f", "1"]);
    store.exec(&["ZADD", "z", "2", "m"]);
    store.exec(&["SELECT", "2"]);
    store.exec(&["RPUSH", "l", "x", "y"]);
    store.exec(&["SELECT", "0"]);
    for db in [0, 2] {
        for row in store.snapshot_db(db) {
            assert_eq!(store.snapshot_key(db, &row.key), Some(row.clone()));
        }
    }
    assert_eq!(store.snapshot_key(0, b"missing"), None);
    assert_eq!(store.snapshot_key(2, b"lock"), None);
    assert_eq!(store.snapshot_key(Store::DATABASES, b"lock"), None);
    store.exec(&["DEBUG", "SLEEP", "0.2"]);
    assert_eq!(store.snapshot_key(0, b"lock"), None);
    assert_eq!(
        store.snapshot_key(0, b"h").map(|row| row.key),
        Some(b"h".to_vec())
    );
}
