//! String commands through the public `Store` API: GET, SET with NX/XX/GET/EX/PX/KEEPTTL,
//! the lock acquisition pattern on the virtual clock, and the INCR family with its errors.

use ministore::{Reply, Store};

fn bulk(text: &str) -> Reply {
    Reply::bulk(text)
}

fn error(text: &str) -> Reply {
    Reply::Error(text.to_string())
}

const WRONGTYPE: &str = "WRONGTYPE Operation against a key holding the wrong kind of value";
const NOT_INTEGER: &str = "ERR value is not an integer or out of range";

#[test]
fn get_of_a_missing_key_is_nil_and_set_stores_binary_values() {
    let mut store = Store::new();
    assert_eq!(store.exec(&["GET", "k"]), Reply::Nil);
    assert_eq!(
        store.exec(&[&b"SET"[..], b"k", b"\x00\xff\r\n"]),
        Reply::ok()
    );
    assert_eq!(
        store.exec(&["GET", "k"]),
        Reply::Bulk(b"\x00\xff\r\n".to_vec())
    );
}

#[test]
fn command_names_and_options_are_case_insensitive() {
    let mut store = Store::new();
    assert_eq!(
        store.exec(&["sEt", "k", "v", "nx", "px", "100"]),
        Reply::ok()
    );
    assert_eq!(store.exec(&["get", "k"]), bulk("v"));
}

#[test]
fn a_lock_acquired_with_set_nx_px_refuses_a_second_holder_until_the_lease_lapses() {
    let mut store = Store::new();
    let acquire_a = ["SET", "resource:lock", "abc", "NX", "PX", "30000"];
    let acquire_b = ["SET", "resource:lock", "xyz", "NX", "PX", "30000"];
    assert_eq!(store.exec(&acquire_a), Reply::ok());
    assert_eq!(store.exec(&acquire_b), Reply::Nil);
    assert_eq!(
        store.exec(&["PTTL", "resource:lock"]),
        Reply::Integer(30_000)
    );

    // The deadline itself still belongs to A: Redis expires a key once the clock is past it.
    store.advance(30_000);
    assert_eq!(store.exec(&["GET", "resource:lock"]), bulk("abc"));
    assert_eq!(store.exec(&acquire_b), Reply::Nil);

    store.advance(1);
    assert_eq!(store.exec(&["GET", "resource:lock"]), Reply::Nil);
    assert_eq!(store.exec(&acquire_b), Reply::ok());
    assert_eq!(store.exec(&["GET", "resource:lock"]), bulk("xyz"));
}

#[test]
fn set_xx_only_replaces_an_existing_key() {
    let mut store = Store::new();
    assert_eq!(store.exec(&["SET", "k", "v", "XX"]), Reply::Nil);
    assert_eq!(store.exec(&["EXISTS", "k"]), Reply::Integer(0));
    store.exec(&["SET", "k", "v"]);
    assert_eq!(store.exec(&["SET", "k", "w", "XX"]), Reply::ok());
    assert_eq!(store.exec(&["GET", "k"]), bulk("w"));
}

#[test]
fn set_get_returns_the_old_value_even_when_nx_refuses_the_write() {
    let mut store = Store::new();
    assert_eq!(store.exec(&["SET", "k", "first", "GET"]), Reply::Nil);
    assert_eq!(store.exec(&["SET", "k", "second", "GET"]), bulk("first"));
    assert_eq!(
        store.exec(&["SET", "k", "third", "NX", "GET"]),
        bulk("second")
    );
    assert_eq!(store.exec(&["GET", "k"]), bulk("second"));
    store.exec(&["HSET", "h", "f", "v"]);
    assert_eq!(store.exec(&["SET", "h", "v", "GET"]), error(WRONGTYPE));
    assert_eq!(store.exec(&["TYPE", "h"]), Reply::Status("hash".into()));
}

#[test]
fn set_without_get_overwrites_a_key_of_any_type() {
    let mut store = Store::new();
    store.exec(&["ZADD", "z", "1", "m"]);
    assert_eq!(store.exec(&["SET", "z", "v"]), Reply::ok());
    assert_eq!(store.exec(&["GET", "z"]), bulk("v"));
}

#[test]
fn conflicting_or_unknown_set_options_are_syntax_errors() {
    let mut store = Store::new();
    let syntax = error("ERR syntax error");
    for line in [
        &["SET", "k", "v", "NX", "XX"][..],
        &["SET", "k", "v", "XX", "NX"],
        &["SET", "k", "v", "EX", "10", "PX", "20"],
        &["SET", "k", "v", "KEEPTTL", "EX", "5"],
        &["SET", "k", "v", "EX", "5", "KEEPTTL"],
        &["SET", "k", "v", "EX"],
        &["SET", "k", "v", "FOO"],
    ] {
        assert_eq!(store.exec(line), syntax, "{line:?}");
    }
    // The same option twice is accepted; the last expiry wins.
    assert_eq!(
        store.exec(&["SET", "k", "v", "EX", "10", "EX", "20"]),
        Reply::ok()
    );
    assert_eq!(store.exec(&["TTL", "k"]), Reply::Integer(20));
}

#[test]
fn expire_times_that_are_not_positive_or_overflow_are_refused() {
    let mut store = Store::new();
    let invalid = error("ERR invalid expire time in 'set' command");
    assert_eq!(store.exec(&["SET", "k", "v", "EX", "0"]), invalid);
    assert_eq!(store.exec(&["SET", "k", "v", "PX", "-1"]), invalid);
    assert_eq!(
        store.exec(&["SET", "k", "v", "EX", "9223372036854775807"]),
        invalid
    );
    assert_eq!(
        store.exec(&["SET", "k", "v", "PX", "9223372036854775807"]),
        invalid
    );
    assert_eq!(
        store.exec(&["SET", "k", "v", "EX", "abc"]),
        error(NOT_INTEGER)
    );
    assert_eq!(store.exec(&["EXISTS", "k"]), Reply::Integer(0));
}

#[test]
fn keepttl_keeps_the_lease_and_a_plain_set_clears_it() {
    let mut store = Store::new();
    store.exec(&["SET", "k", "v", "PX", "5000"]);
    store.advance(1000);
    assert_eq!(store.exec(&["SET", "k", "w", "KEEPTTL"]), Reply::ok());
    assert_eq!(store.exec(&["PTTL", "k"]), Reply::Integer(4000));
    assert_eq!(store.exec(&["SET", "k", "x"]), Reply::ok());
    assert_eq!(store.exec(&["PTTL", "k"]), Reply::Integer(-1));
}

#[test]
fn incr_counts_from_zero_and_keeps_the_expiry() {
    let mut store = Store::new();
    assert_eq!(store.exec(&["INCR", "n"]), Reply::Integer(1));
    assert_eq!(store.exec(&["INCRBY", "n", "41"]), Reply::Integer(42));
    assert_eq!(store.exec(&["DECR", "n"]), Reply::Integer(41));
    assert_eq!(store.exec(&["DECRBY", "n", "-9"]), Reply::Integer(50));
    assert_eq!(store.exec(&["GET", "n"]), bulk("50"));
    store.exec(&["SET", "c", "5", "PX", "1000"]);
    assert_eq!(store.exec(&["INCR", "c"]), Reply::Integer(6));
    assert_eq!(store.exec(&["PTTL", "c"]), Reply::Integer(1000));
}

#[test]
fn incr_refuses_values_that_are_not_strict_integers() {
    let mut store = Store::new();
    for value in [
        "+1",
        " 1",
        "01",
        "-0",
        "1.5",
        "1e3",
        "",
        "9223372036854775808",
    ] {
        store.exec(&["SET", "n", value]);
        assert_eq!(
            store.exec(&["INCR", "n"]),
            error(NOT_INTEGER),
            "value {value:?}"
        );
    }
    assert_eq!(store.exec(&["INCRBY", "n", "x"]), error(NOT_INTEGER));
}

#[test]
fn increments_that_leave_the_i64_range_are_refused() {
    let mut store = Store::new();
    store.exec(&["SET", "n", "9223372036854775807"]);
    let overflow = error("ERR increment or decrement would overflow");
    assert_eq!(store.exec(&["INCR", "n"]), overflow);
    assert_eq!(store.exec(&["GET", "n"]), bulk("9223372036854775807"));
    store.exec(&["SET", "n", "-9223372036854775808"]);
    assert_eq!(store.exec(&["DECR", "n"]), overflow);
    assert_eq!(
        store.exec(&["DECRBY", "n", "-9223372036854775808"]),
        error("ERR decrement would overflow")
    );
}

#[test]
fn string_commands_on_a_hash_are_wrongtype_and_bad_arity_names_the_command() {
    let mut store = Store::new();
    store.exec(&["HSET", "h", "f", "v"]);
    assert_eq!(store.exec(&["GET", "h"]), error(WRONGTYPE));
    assert_eq!(store.exec(&["INCR", "h"]), error(WRONGTYPE));
    assert_eq!(
        store.exec(&["GET"]),
        error("ERR wrong number of arguments for 'get' command")
    );
    assert_eq!(
        store.exec(&["set", "k"]),
        error("ERR wrong number of arguments for 'set' command")
    );
}

#[test]
fn mget_shows_nil_for_missing_keys_and_other_types_and_setnx_only_creates() {
    let mut store = Store::new();
    store.exec(&["SET", "a", "1"]);
    store.exec(&["HSET", "h", "f", "v"]);
    assert_eq!(
        store.exec(&["MGET", "a", "h", "missing", "a"]),
        Reply::Array(vec![bulk("1"), Reply::Nil, Reply::Nil, bulk("1")])
    );
    assert_eq!(store.exec(&["SETNX", "a", "2"]), Reply::Integer(0));
    assert_eq!(store.exec(&["SETNX", "b", "2"]), Reply::Integer(1));
    assert_eq!(store.exec(&["GET", "a"]), bulk("1"));
    assert_eq!(store.exec(&["GET", "b"]), bulk("2"));
}
