//! The lock scenarios of dive R2.02.2 §1–§2, run against the store: A acquires with
//! `SET resource:lock abc NX PX 30000`, stalls past its lease (the virtual clock moves, nothing
//! sleeps), B takes the key with `xyz`, and A releases — blindly with DEL, or with the brief's
//! token-checked Lua release.

use ministore::{Reply, Store, ValueSnapshot};

const LOCK: &str = "resource:lock";
const LEASE_MS: u64 = 30_000;

/// The brief's safe release, verbatim (§2).
const TOKEN_CHECKED_RELEASE: &str = "if redis.call(\"GET\", KEYS[1]) == ARGV[1] then
  return redis.call(\"DEL\", KEYS[1])
else
  return 0
end";

fn acquire(store: &mut Store, token: &str) -> Reply {
    store.exec(&["SET", LOCK, token, "NX", "PX", "30000"])
}

fn token_checked_release(store: &mut Store, token: &str) -> Reply {
    store.eval(TOKEN_CHECKED_RELEASE, &[LOCK], &[token])
}

/// Steps 1–3 of §1: A acquires, stalls past its lease, B acquires the same key.
fn after_b_takes_over() -> Store {
    let mut store = Store::new();
    assert_eq!(
        acquire(&mut store, "abc"),
        Reply::ok(),
        "A acquires on an empty store"
    );
    store.advance(LEASE_MS + 1);
    assert_eq!(
        store.exec(&["GET", LOCK]),
        Reply::Nil,
        "A's lease has lapsed"
    );
    assert_eq!(
        acquire(&mut store, "xyz"),
        Reply::ok(),
        "B acquires the lapsed key"
    );
    store
}

#[test]
fn b_cannot_acquire_while_a_holds_the_lease() {
    let mut store = Store::new();
    assert_eq!(acquire(&mut store, "abc"), Reply::ok());
    store.advance(LEASE_MS - 1);
    assert_eq!(
        acquire(&mut store, "xyz"),
        Reply::Nil,
        "NX refuses while A's lease runs"
    );
    assert_eq!(store.exec(&["GET", LOCK]), Reply::bulk("abc"));
    assert_eq!(store.exec(&["PTTL", LOCK]), Reply::Integer(1));
}

#[test]
fn a_stalling_past_its_lease_lets_the_key_lapse_on_its_own() {
    let mut store = Store::new();
    assert_eq!(acquire(&mut store, "abc"), Reply::ok());
    // Redis expires a key once the clock is strictly past its deadline: at the deadline
    // itself the key still exists with PTTL 0.
    store.advance(LEASE_MS);
    assert_eq!(store.exec(&["PTTL", LOCK]), Reply::Integer(0));
    assert_eq!(store.exec(&["GET", LOCK]), Reply::bulk("abc"));
    store.advance(1);
    assert_eq!(store.exec(&["GET", LOCK]), Reply::Nil);
    assert_eq!(store.exec(&["EXISTS", LOCK]), Reply::Integer(0));
    assert_eq!(store.exec(&["PTTL", LOCK]), Reply::Integer(-2));
    assert!(
        store.snapshot().is_empty(),
        "nothing is held once the lease lapsed"
    );
}

#[test]
fn b_takes_the_same_key_with_its_own_token_and_a_fresh_lease() {
    let mut store = after_b_takes_over();
    assert_eq!(store.exec(&["GET", LOCK]), Reply::bulk("xyz"));
    assert_eq!(store.exec(&["TTL", LOCK]), Reply::Integer(30));
    let held = store.snapshot();
    assert_eq!(held.len(), 1);
    assert_eq!(held[0].key, LOCK.as_bytes());
    assert_eq!(held[0].value, ValueSnapshot::String(b"xyz".to_vec()));
    assert_eq!(held[0].ttl_ms, Some(LEASE_MS));
}

#[test]
fn a_blind_del_after_takeover_deletes_bs_lock() {
    let mut store = after_b_takes_over();
    assert_eq!(
        store.exec(&["DEL", LOCK]),
        Reply::Integer(1),
        "A's DEL finds a lock to delete: B's"
    );
    assert_eq!(store.exec(&["GET", LOCK]), Reply::Nil, "B's lock is gone");
    assert!(store.snapshot().is_empty());
    // Exclusion is broken: B still believes it holds the lock, yet a third client gets it too.
    assert_eq!(acquire(&mut store, "c-token"), Reply::ok());
}

#[test]
fn a_token_checked_release_after_takeover_returns_0_and_bs_lock_stands() {
    let mut store = after_b_takes_over();
    store.advance(1_000);
    assert_eq!(
        token_checked_release(&mut store, "abc"),
        Reply::Integer(0),
        "A reads xyz, not abc: no-op"
    );
    assert_eq!(store.exec(&["GET", LOCK]), Reply::bulk("xyz"));
    assert_eq!(
        store.exec(&["PTTL", LOCK]),
        Reply::Integer(29_000),
        "B's lease is untouched"
    );
    assert_eq!(
        acquire(&mut store, "c-token"),
        Reply::Nil,
        "exclusion holds: a third client is refused"
    );
}

#[test]
fn b_releases_its_own_lock_with_its_token() {
    let mut store = after_b_takes_over();
    assert_eq!(token_checked_release(&mut store, "abc"), Reply::Integer(0));
    assert_eq!(token_checked_release(&mut store, "xyz"), Reply::Integer(1));
    assert_eq!(store.exec(&["EXISTS", LOCK]), Reply::Integer(0));
    assert_eq!(
        token_checked_release(&mut store, "xyz"),
        Reply::Integer(0),
        "releasing twice is a no-op"
    );
}

#[test]
fn a_releases_its_own_lock_while_its_lease_holds() {
    let mut store = Store::new();
    assert_eq!(acquire(&mut store, "abc"), Reply::ok());
    store.advance(LEASE_MS / 2);
    assert_eq!(token_checked_release(&mut store, "abc"), Reply::Integer(1));
    assert_eq!(
        acquire(&mut store, "xyz"),
        Reply::ok(),
        "the key is free for B at once"
    );
}

#[test]
fn the_release_runs_the_same_through_script_load_and_evalsha() {
    let mut store = after_b_takes_over();
    let sha = match store.exec(&["SCRIPT", "LOAD", TOKEN_CHECKED_RELEASE]) {
        Reply::Bulk(sha) => String::from_utf8(sha).expect("a SHA1 is ASCII hex"),
        other => panic!("SCRIPT LOAD replied {other:?}"),
    };
    assert_eq!(
        sha, "c7634f8c5c1d9ef2d68e601354a9a81a4d03bb5d",
        "Redis's SHA1 of the script text"
    );
    assert_eq!(
        store.exec(&["SCRIPT", "EXISTS", &sha]),
        Reply::Array(vec![Reply::Integer(1)])
    );
    assert_eq!(
        store.exec(&["EVALSHA", &sha, "1", LOCK, "abc"]),
        Reply::Integer(0)
    );
    assert_eq!(store.exec(&["GET", LOCK]), Reply::bulk("xyz"));
    assert_eq!(
        store.exec(&["EVALSHA", &sha, "1", LOCK, "xyz"]),
        Reply::Integer(1)
    );
    assert_eq!(store.exec(&["GET", LOCK]), Reply::Nil);
}

#[test]
fn a_fresh_store_has_never_seen_the_release_script() {
    let mut store = Store::new();
    assert_eq!(
        store.exec(&[
            "EVALSHA",
            "c7634f8c5c1d9ef2d68e601354a9a81a4d03bb5d",
            "1",
            LOCK,
            "abc"
        ]),
        Reply::Error("NOSCRIPT No matching script. Please use EVAL.".to_string())
    );
}

#[test]
fn debug_sleep_stalls_a_past_its_lease_on_the_virtual_clock() {
    let mut store = Store::new();
    assert_eq!(
        store.exec(&["SET", LOCK, "abc", "NX", "PX", "200"]),
        Reply::ok()
    );
    assert_eq!(store.exec(&["DEBUG", "SLEEP", "0.3"]), Reply::ok());
    assert_eq!(store.now_ms(), 300);
    assert_eq!(store.exec(&["GET", LOCK]), Reply::Nil);
}
