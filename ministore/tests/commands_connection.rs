//! Connection and server commands through the public `Store` API: PING, ECHO and DEBUG SLEEP
//! moving the virtual clock.

use ministore::{Reply, Store};

fn error(text: &str) -> Reply {
    Reply::Error(text.to_string())
}

#[test]
fn ping_answers_pong_or_its_message() {
    let mut store = Store::new();
    assert_eq!(store.exec(&["PING"]), Reply::Status("PONG".into()));
    assert_eq!(store.exec(&["ping", "hello"]), Reply::bulk("hello"));
    assert_eq!(
        store.exec(&["PING", "a", "b"]),
        error("ERR wrong number of arguments for 'ping' command")
    );
}

#[test]
fn echo_returns_its_argument_byte_for_byte() {
    let mut store = Store::new();
    assert_eq!(
        store.exec(&[&b"ECHO"[..], b"\x00\xff"]),
        Reply::Bulk(b"\x00\xff".to_vec())
    );
    assert_eq!(
        store.exec(&["ECHO"]),
        error("ERR wrong number of arguments for 'echo' command")
    );
}

#[test]
fn debug_sleep_moves_the_virtual_clock_by_fractional_seconds() {
    let mut store = Store::new();
    assert_eq!(store.now_ms(), 0);
    assert_eq!(store.exec(&["DEBUG", "SLEEP", "0.25"]), Reply::ok());
    assert_eq!(store.now_ms(), 250);
    assert_eq!(store.exec(&["debug", "sleep", "2"]), Reply::ok());
    assert_eq!(store.now_ms(), 2250);
    // Redis reads the seconds with a bare strtod: garbage and negatives sleep 0.
    assert_eq!(store.exec(&["DEBUG", "SLEEP", "abc"]), Reply::ok());
    assert_eq!(store.exec(&["DEBUG", "SLEEP", "-5"]), Reply::ok());
    assert_eq!(store.now_ms(), 2250);
}

#[test]
fn debug_sleep_lets_a_lease_lapse() {
    let mut store = Store::new();
    store.exec(&["SET", "resource:lock", "abc", "NX", "PX", "200"]);
    store.exec(&["DEBUG", "SLEEP", "0.3"]);
    assert_eq!(store.exec(&["GET", "resource:lock"]), Reply::Nil);
}

#[test]
fn debug_without_a_known_subcommand_is_refused_as_redis_words_it() {
    let mut store = Store::new();
    assert_eq!(
        store.exec(&["DEBUG", "SLEEP"]),
        error("ERR unknown subcommand or wrong number of arguments for 'SLEEP'. Try DEBUG HELP.")
    );
    assert_eq!(
        store.exec(&["DEBUG", "nope", "1"]),
        error("ERR unknown subcommand or wrong number of arguments for 'nope'. Try DEBUG HELP.")
    );
    assert_eq!(
        store.exec(&["DEBUG"]),
        error("ERR wrong number of arguments for 'debug' command")
    );
}

#[test]
fn a_huge_sleep_saturates_the_clock_instead_of_panicking() {
    let mut store = Store::new();
    assert_eq!(store.exec(&["DEBUG", "SLEEP", "1e300"]), Reply::ok());
    store.advance(u64::MAX);
    assert_eq!(store.now_ms(), u64::MAX);
    assert_eq!(
        store.exec(&["SET", "k", "v", "EX", "10"]),
        Reply::Error("ERR invalid expire time in 'set' command".into())
    );
}
