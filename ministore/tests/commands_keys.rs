//! Generic key commands through the public `Store` API: DEL, EXISTS, TYPE, FLUSHALL, unknown
//! commands, and the snapshot the page renders.

use ministore::{KeySnapshot, Reply, Store, ValueSnapshot};

fn error(text: &str) -> Reply {
    Reply::Error(text.to_string())
}

fn status(text: &str) -> Reply {
    Reply::Status(text.to_string())
}

#[test]
fn exists_counts_every_named_live_key_including_repeats() {
    let mut store = Store::new();
    store.exec(&["SET", "a", "1"]);
    store.exec(&["SET", "b", "2"]);
    assert_eq!(
        store.exec(&["EXISTS", "a", "b", "missing"]),
        Reply::Integer(2)
    );
    assert_eq!(store.exec(&["EXISTS", "a", "a", "a"]), Reply::Integer(3));
}

#[test]
fn del_counts_only_keys_it_removed() {
    let mut store = Store::new();
    store.exec(&["SET", "a", "1"]);
    store.exec(&["HSET", "h", "f", "v"]);
    assert_eq!(
        store.exec(&["DEL", "a", "a", "h", "missing"]),
        Reply::Integer(2)
    );
    assert_eq!(store.exec(&["EXISTS", "a", "h"]), Reply::Integer(0));
}

#[test]
fn a_blind_del_after_takeover_deletes_bs_lock() {
    let mut store = Store::new();
    store.exec(&["SET", "resource:lock", "abc", "NX", "PX", "30000"]);
    store.advance(30_001);
    assert_eq!(
        store.exec(&["SET", "resource:lock", "xyz", "NX", "PX", "30000"]),
        Reply::ok()
    );
    assert_eq!(store.exec(&["DEL", "resource:lock"]), Reply::Integer(1));
    assert_eq!(store.exec(&["GET", "resource:lock"]), Reply::Nil);
}

#[test]
fn type_names_each_kind_of_value() {
    let mut store = Store::new();
    store.exec(&["SET", "s", "v"]);
    store.exec(&["HSET", "h", "f", "v"]);
    store.exec(&["ZADD", "z", "1", "m"]);
    assert_eq!(store.exec(&["TYPE", "s"]), status("string"));
    assert_eq!(store.exec(&["TYPE", "h"]), status("hash"));
    assert_eq!(store.exec(&["TYPE", "z"]), status("zset"));
    assert_eq!(store.exec(&["TYPE", "missing"]), status("none"));
}

#[test]
fn flushall_empties_the_keyspace_and_takes_only_sync_or_async() {
    let mut store = Store::new();
    store.exec(&["SET", "a", "1"]);
    assert_eq!(store.exec(&["FLUSHALL", "nope"]), error("ERR syntax error"));
    assert_eq!(store.exec(&["EXISTS", "a"]), Reply::Integer(1));
    assert_eq!(store.exec(&["FLUSHALL", "ASYNC"]), Reply::ok());
    assert_eq!(store.exec(&["EXISTS", "a"]), Reply::Integer(0));
    assert!(store.snapshot().is_empty());
}

#[test]
fn unknown_commands_echo_their_arguments_like_redis() {
    let mut store = Store::new();
    assert_eq!(
        store.exec(&["FOO", "a", "b c"]),
        error("ERR unknown command 'FOO', with args beginning with: 'a' 'b c' ")
    );
    assert_eq!(
        store.exec(&["foo"]),
        error("ERR unknown command 'foo', with args beginning with: ")
    );
    assert!(store.exec(&["foo"]).is_unknown_command());
    assert!(!store.exec(&["GET"]).is_unknown_command());
    let empty: [&str; 0] = [];
    assert!(store.exec(&empty).is_error());
}

#[test]
fn arity_errors_name_the_command_in_lowercase() {
    let mut store = Store::new();
    assert_eq!(
        store.exec(&["DEL"]),
        error("ERR wrong number of arguments for 'del' command")
    );
    assert_eq!(
        store.exec(&["Exists"]),
        error("ERR wrong number of arguments for 'exists' command")
    );
    assert_eq!(
        store.exec(&["TYPE", "a", "b"]),
        error("ERR wrong number of arguments for 'type' command")
    );
}

#[test]
fn the_snapshot_lists_live_keys_by_name_with_values_and_leases() {
    let mut store = Store::new();
    store.exec(&["SET", "resource:lock", "abc", "PX", "30000"]);
    store.exec(&["HSET", "job:1", "state", "active", "attempts", "1"]);
    store.exec(&["ZADD", "active", "2", "job:2", "1", "job:1"]);
    store.exec(&["SET", "gone", "x", "PX", "10"]);
    store.advance(100);
    assert_eq!(
        store.snapshot(),
        vec![
            KeySnapshot {
                key: b"active".to_vec(),
                value: ValueSnapshot::ZSet(vec![
                    (b"job:1".to_vec(), 1.0),
                    (b"job:2".to_vec(), 2.0)
                ]),
                ttl_ms: None,
            },
            KeySnapshot {
                key: b"job:1".to_vec(),
                value: ValueSnapshot::Hash(vec![
                    (b"state".to_vec(), b"active".to_vec()),
                    (b"attempts".to_vec(), b"1".to_vec()),
                ]),
                ttl_ms: None,
            },
            KeySnapshot {
                key: b"resource:lock".to_vec(),
                value: ValueSnapshot::String(b"abc".to_vec()),
                ttl_ms: Some(29_900),
            },
        ]
    );
}

#[test]
fn a_cloned_store_runs_on_independently() {
    let mut store = Store::new();
    store.exec(&["SET", "resource:lock", "abc", "PX", "30000"]);
    let mut branch = store.clone();
    branch.advance(30_001);
    assert_eq!(branch.exec(&["GET", "resource:lock"]), Reply::Nil);
    assert_eq!(store.exec(&["GET", "resource:lock"]), Reply::bulk("abc"));
    assert_eq!(store.now_ms(), 0);
}
