//! Expiry on the virtual clock through the public `Store` API: EXPIRE/PEXPIRE with their
//! NX/XX/GT/LT conditions, TTL/PTTL, PERSIST, lazy expiry and what overwrites do to a lease.
//! Time moves only when a test calls `advance` or DEBUG SLEEP, so every value is exact.

use ministore::{Reply, Store};

fn error(text: &str) -> Reply {
    Reply::Error(text.to_string())
}

fn int(n: i64) -> Reply {
    Reply::Integer(n)
}

#[test]
fn ttl_and_pttl_report_missing_keys_and_keys_without_expiry() {
    let mut store = Store::new();
    assert_eq!(store.exec(&["TTL", "missing"]), int(-2));
    assert_eq!(store.exec(&["PTTL", "missing"]), int(-2));
    store.exec(&["SET", "k", "v"]);
    assert_eq!(store.exec(&["TTL", "k"]), int(-1));
    assert_eq!(store.exec(&["PTTL", "k"]), int(-1));
}

#[test]
fn ttl_rounds_the_remaining_milliseconds_to_the_nearest_second() {
    let mut store = Store::new();
    store.exec(&["SET", "k", "v", "PX", "1500"]);
    assert_eq!(store.exec(&["TTL", "k"]), int(2));
    store.advance(1);
    assert_eq!(store.exec(&["TTL", "k"]), int(1));
    assert_eq!(store.exec(&["PTTL", "k"]), int(1499));
}

#[test]
fn a_key_lives_through_its_deadline_and_vanishes_one_ms_later() {
    let mut store = Store::new();
    store.exec(&["SET", "k", "v"]);
    assert_eq!(store.exec(&["PEXPIRE", "k", "100"]), int(1));
    store.advance(100);
    assert_eq!(store.exec(&["PTTL", "k"]), int(0));
    assert_eq!(store.exec(&["GET", "k"]), Reply::bulk("v"));
    store.advance(1);
    assert_eq!(store.exec(&["GET", "k"]), Reply::Nil);
    assert_eq!(store.exec(&["PTTL", "k"]), int(-2));
    assert_eq!(store.exec(&["TYPE", "k"]), Reply::Status("none".into()));
    assert!(store.snapshot().is_empty());
}

#[test]
fn expire_conditions_nx_xx_gt_lt() {
    let mut store = Store::new();
    store.exec(&["SET", "k", "v"]);
    assert_eq!(store.exec(&["EXPIRE", "k", "100", "XX"]), int(0));
    assert_eq!(store.exec(&["EXPIRE", "k", "100", "GT"]), int(0));
    assert_eq!(store.exec(&["EXPIRE", "k", "100", "LT"]), int(1));
    assert_eq!(store.exec(&["EXPIRE", "k", "200", "NX"]), int(0));
    assert_eq!(store.exec(&["EXPIRE", "k", "200", "XX"]), int(1));
    assert_eq!(store.exec(&["EXPIRE", "k", "50", "GT"]), int(0));
    assert_eq!(store.exec(&["EXPIRE", "k", "300", "gt"]), int(1));
    assert_eq!(store.exec(&["EXPIRE", "k", "400", "LT"]), int(0));
    assert_eq!(store.exec(&["TTL", "k"]), int(300));
    assert_eq!(store.exec(&["EXPIRE", "missing", "10"]), int(0));
}

#[test]
fn expire_options_that_conflict_or_are_unknown_are_refused() {
    let mut store = Store::new();
    store.exec(&["SET", "k", "v"]);
    let nx_conflict = error("ERR NX and XX, GT or LT options at the same time are not compatible");
    assert_eq!(store.exec(&["EXPIRE", "k", "10", "NX", "XX"]), nx_conflict);
    assert_eq!(store.exec(&["EXPIRE", "k", "10", "NX", "LT"]), nx_conflict);
    assert_eq!(
        store.exec(&["EXPIRE", "k", "10", "GT", "LT"]),
        error("ERR GT and LT options at the same time are not compatible")
    );
    assert_eq!(
        store.exec(&["EXPIRE", "k", "abc", "FOO"]),
        error("ERR Unsupported option FOO")
    );
    assert_eq!(
        store.exec(&["EXPIRE", "k", "1.5"]),
        error("ERR value is not an integer or out of range")
    );
    assert_eq!(
        store.exec(&["EXPIRE", "k", "9223372036854775807"]),
        error("ERR invalid expire time in 'expire' command")
    );
    assert_eq!(
        store.exec(&["PEXPIRE", "k", "9223372036854775807"]),
        error("ERR invalid expire time in 'pexpire' command")
    );
    assert_eq!(store.exec(&["TTL", "k"]), int(-1));
}

#[test]
fn a_deadline_in_the_past_deletes_the_key_at_once() {
    let mut store = Store::new();
    store.exec(&["SET", "a", "v"]);
    store.exec(&["SET", "b", "v"]);
    assert_eq!(store.exec(&["EXPIRE", "a", "0"]), int(1));
    assert_eq!(store.exec(&["PEXPIRE", "b", "-5"]), int(1));
    assert_eq!(store.exec(&["EXISTS", "a", "b"]), int(0));
}

#[test]
fn persist_removes_a_lease() {
    let mut store = Store::new();
    store.exec(&["SET", "k", "v", "EX", "10"]);
    assert_eq!(store.exec(&["PERSIST", "k"]), int(1));
    assert_eq!(store.exec(&["PERSIST", "k"]), int(0));
    store.advance(20_000);
    assert_eq!(store.exec(&["GET", "k"]), Reply::bulk("v"));
}

#[test]
fn overwriting_clears_the_lease_but_incr_and_hset_keep_it() {
    let mut store = Store::new();
    store.exec(&["SET", "k", "v", "EX", "100"]);
    store.exec(&["SET", "k", "w"]);
    assert_eq!(store.exec(&["TTL", "k"]), int(-1));
    store.exec(&["SET", "n", "1", "EX", "100"]);
    store.exec(&["INCR", "n"]);
    assert_eq!(store.exec(&["TTL", "n"]), int(100));
    store.exec(&["HSET", "h", "f", "v"]);
    store.exec(&["EXPIRE", "h", "100"]);
    store.exec(&["HSET", "h", "g", "w"]);
    assert_eq!(store.exec(&["TTL", "h"]), int(100));
}

#[test]
fn a_lapsed_key_can_be_set_again_without_its_old_lease() {
    let mut store = Store::new();
    store.exec(&["SET", "resource:lock", "abc", "PX", "100"]);
    store.exec(&["DEBUG", "SLEEP", "0.2"]);
    assert_eq!(
        store.exec(&["SET", "resource:lock", "xyz", "NX"]),
        Reply::ok()
    );
    assert_eq!(store.exec(&["TTL", "resource:lock"]), int(-1));
}

#[test]
fn the_snapshot_shows_the_lease_left_and_hides_lapsed_keys() {
    let mut store = Store::new();
    store.exec(&["SET", "resource:lock", "abc", "NX", "PX", "30000"]);
    store.advance(12_345);
    let snapshot = store.snapshot();
    assert_eq!(snapshot.len(), 1);
    assert_eq!(snapshot[0].ttl_ms, Some(17_655));
    store.advance(17_656);
    assert!(store.snapshot().is_empty());
}
