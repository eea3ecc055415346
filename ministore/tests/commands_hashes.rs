//! Hash commands through the public `Store` API: HSET, HGET, HDEL, HEXISTS, HGETALL (in
//! insertion order), HINCRBY, HMGET and HLEN, as an EchoMQ job record uses them.

use ministore::{Reply, Store};

fn bulk(text: &str) -> Reply {
    Reply::bulk(text)
}

fn error(text: &str) -> Reply {
    Reply::Error(text.to_string())
}

fn flat(items: &[&str]) -> Reply {
    Reply::Array(items.iter().map(|item| bulk(item)).collect())
}

const WRONGTYPE: &str = "WRONGTYPE Operation against a key holding the wrong kind of value";

#[test]
fn hset_counts_new_fields_and_hgetall_keeps_insertion_order() {
    let mut store = Store::new();
    let created = store.exec(&[
        "HSET", "job:1", "state", "waiting", "attempts", "0", "payload", "{}",
    ]);
    assert_eq!(created, Reply::Integer(3));
    // Updating a field keeps its place; a new one goes last.
    assert_eq!(
        store.exec(&["HSET", "job:1", "state", "active", "owner", "w1"]),
        Reply::Integer(1)
    );
    assert_eq!(
        store.exec(&["HGETALL", "job:1"]),
        flat(&["state", "active", "attempts", "0", "payload", "{}", "owner", "w1"])
    );
}

#[test]
fn hdel_removes_fields_keeps_the_others_order_and_drops_an_emptied_hash() {
    let mut store = Store::new();
    store.exec(&["HSET", "h", "b", "1", "a", "2", "c", "3"]);
    assert_eq!(
        store.exec(&["HDEL", "h", "a", "nope", "a"]),
        Reply::Integer(1)
    );
    store.exec(&["HSET", "h", "a", "4"]);
    assert_eq!(
        store.exec(&["HGETALL", "h"]),
        flat(&["b", "1", "c", "3", "a", "4"])
    );
    assert_eq!(store.exec(&["HDEL", "h", "a", "b", "c"]), Reply::Integer(3));
    assert_eq!(store.exec(&["EXISTS", "h"]), Reply::Integer(0));
    assert_eq!(store.exec(&["HGETALL", "h"]), Reply::Array(vec![]));
}

#[test]
fn hget_hexists_hmget_and_hlen_read_fields() {
    let mut store = Store::new();
    store.exec(&["HSET", "h", "a", "1", "b", "2"]);
    assert_eq!(store.exec(&["HGET", "h", "a"]), bulk("1"));
    assert_eq!(store.exec(&["HGET", "h", "zz"]), Reply::Nil);
    assert_eq!(store.exec(&["HGET", "missing", "a"]), Reply::Nil);
    assert_eq!(store.exec(&["HEXISTS", "h", "b"]), Reply::Integer(1));
    assert_eq!(store.exec(&["HEXISTS", "h", "zz"]), Reply::Integer(0));
    assert_eq!(
        store.exec(&["HMGET", "h", "a", "zz", "b"]),
        Reply::Array(vec![bulk("1"), Reply::Nil, bulk("2")])
    );
    assert_eq!(
        store.exec(&["HMGET", "missing", "a"]),
        Reply::Array(vec![Reply::Nil])
    );
    assert_eq!(store.exec(&["HLEN", "h"]), Reply::Integer(2));
}

#[test]
fn hincrby_claims_an_attempt_and_refuses_non_integers_and_overflow() {
    let mut store = Store::new();
    assert_eq!(
        store.exec(&["HINCRBY", "job:1", "attempts", "1"]),
        Reply::Integer(1)
    );
    assert_eq!(
        store.exec(&["HINCRBY", "job:1", "attempts", "1"]),
        Reply::Integer(2)
    );
    assert_eq!(store.exec(&["HGET", "job:1", "attempts"]), bulk("2"));
    assert_eq!(
        store.exec(&["HINCRBY", "job:1", "attempts", "x"]),
        error("ERR value is not an integer or out of range")
    );
    store.exec(&[
        "HSET",
        "job:1",
        "state",
        "active",
        "big",
        "9223372036854775807",
    ]);
    assert_eq!(
        store.exec(&["HINCRBY", "job:1", "state", "1"]),
        error("ERR hash value is not an integer")
    );
    assert_eq!(
        store.exec(&["HINCRBY", "job:1", "big", "1"]),
        error("ERR increment or decrement would overflow")
    );
}

#[test]
fn hash_commands_on_a_string_are_wrongtype() {
    let mut store = Store::new();
    store.exec(&["SET", "s", "v"]);
    for line in [
        &["HSET", "s", "f", "v"][..],
        &["HGET", "s", "f"],
        &["HDEL", "s", "f"],
        &["HEXISTS", "s", "f"],
        &["HGETALL", "s"],
        &["HINCRBY", "s", "f", "1"],
        &["HMGET", "s", "f"],
        &["HLEN", "s"],
    ] {
        assert_eq!(store.exec(line), error(WRONGTYPE), "{line:?}");
    }
    // The increment is parsed before the key is looked at.
    assert_eq!(
        store.exec(&["HINCRBY", "s", "f", "x"]),
        error("ERR value is not an integer or out of range")
    );
}

#[test]
fn hset_needs_field_value_pairs() {
    let mut store = Store::new();
    let arity = error("ERR wrong number of arguments for 'hset' command");
    assert_eq!(store.exec(&["HSET", "h", "a"]), arity);
    assert_eq!(store.exec(&["HSET", "h", "a", "1", "b"]), arity);
    assert_eq!(store.exec(&["EXISTS", "h"]), Reply::Integer(0));
}

#[test]
fn hsetnx_only_adds_and_hkeys_hvals_keep_field_order() {
    let mut store = Store::new();
    store.exec(&["HSET", "h", "b", "1", "a", "2"]);
    assert_eq!(store.exec(&["HSETNX", "h", "a", "9"]), Reply::Integer(0));
    assert_eq!(store.exec(&["HSETNX", "h", "c", "3"]), Reply::Integer(1));
    assert_eq!(store.exec(&["HKEYS", "h"]), flat(&["b", "a", "c"]));
    assert_eq!(store.exec(&["HVALS", "h"]), flat(&["1", "2", "3"]));
    assert_eq!(store.exec(&["HKEYS", "missing"]), Reply::Array(vec![]));
}
