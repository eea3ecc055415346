//! A store built without the `full` feature, as the course page's figures use it: the commands
//! figure 1 sends (`SET … NX PX`, `DEL`, `PTTL`) and the two scripts the figures run (read from
//! the page's sources) all work, and what the build cuts — every other command (hashes, sorted
//! sets, lists, MULTI, EVAL itself: the figures run scripts through `Store::eval`), the cjson
//! library, `string.format`, `redis.setresp` — answers as Redis answers for a command or a global
//! it does not have. The page's other scripts (the fenced acquire, the attempts scenario's) need
//! `full`: its tests run them there.

#![cfg(not(feature = "full"))]

use ministore::{KeySnapshot, Reply, Store, ValueSnapshot};

fn bulk(text: &str) -> Reply {
    Reply::bulk(text)
}

fn int(n: i64) -> Reply {
    Reply::Integer(n)
}

fn error(text: &str) -> Reply {
    Reply::Error(text.to_string())
}

/// Redis's reply to a script that failed on line 1 with `message`, naming the script's SHA1.
fn failed(message: &str, script: &str) -> Reply {
    let sha = sha1_hex(script);
    error(&format!("{message} script: {sha}, on @user_script:1."))
}

/// The SHA1 Redis names a script by, from SCRIPT LOAD.
fn sha1_hex(script: &str) -> String {
    match Store::new().script_load(script) {
        Reply::Bulk(sha) => String::from_utf8_lossy(&sha).into_owned(),
        other => panic!("SCRIPT LOAD replied {other:?}"),
    }
}

/// The lost-lock scenario's safe release: DEL only if the stored token is still ours.
const RELEASE: &str = include_str!("../../src/scenarios/lua/release.lua");

/// The fence figure's write: only a digits-only token at least the highest seen is accepted.
const FENCED_WRITE: &str = include_str!("../../src/scenarios/lua/fenced_write.lua");

/// Runs `script` as the figures run theirs (`Store::eval`), with no keys or arguments.
fn eval_bare(store: &mut Store, script: &str) -> Reply {
    store.eval::<&str, &str>(script, &[], &[])
}

#[test]
fn a_lease_is_taken_once_expires_on_the_clock_and_is_released_only_by_its_holder() {
    let mut store = Store::new();
    let acquire =
        |store: &mut Store, token: &str| store.exec(&["SET", "lock", token, "NX", "PX", "10000"]);
    assert_eq!(acquire(&mut store, "A"), Reply::ok());
    assert_eq!(acquire(&mut store, "B"), Reply::Nil);
    assert_eq!(store.exec(&["GET", "lock"]), bulk("A"));
    store.advance(4000);
    assert_eq!(store.exec(&["PTTL", "lock"]), int(6000));
    let held = KeySnapshot {
        key: b"lock".to_vec(),
        value: ValueSnapshot::String(b"A".to_vec()),
        ttl_ms: Some(6000),
    };
    assert_eq!(store.snapshot(), vec![held]);
    // A clone runs on its own clock: the figure probes the lease on one.
    let mut probe = store.clone();
    probe.advance(6001);
    assert_eq!(probe.exec(&["PTTL", "lock"]), int(-2));
    assert_eq!(store.exec(&["PTTL", "lock"]), int(6000));
    store.advance(6001);
    assert_eq!(store.exec(&["PTTL", "lock"]), int(-2));
    assert_eq!(acquire(&mut store, "B"), Reply::ok());
    let release = |store: &mut Store, token: &str| store.eval(RELEASE, &["lock"], &[token]);
    assert_eq!(release(&mut store, "A"), int(0));
    assert_eq!(store.exec(&["GET", "lock"]), bulk("B"));
    assert_eq!(release(&mut store, "B"), int(1));
    assert_eq!(store.exec(&["DEL", "lock"]), int(0));
}

#[test]
fn the_fence_accepts_a_newer_token_and_refuses_an_older_one() {
    let mut store = Store::new();
    let write = |store: &mut Store, token: &str, data: &str| {
        store.eval(FENCED_WRITE, &["fence", "data"], &[token, data])
    };
    assert_eq!(write(&mut store, "34", "from B"), int(34));
    assert_eq!(
        write(&mut store, "33", "from A"),
        error("FENCED token 33 < max seen 34")
    );
    assert_eq!(
        write(&mut store, "1e3", "from A"),
        error("ERR fencing tokens must be decimal integers of at most 15 digits")
    );
    assert_eq!(store.exec(&["GET", "fence"]), bulk("34"));
    assert_eq!(store.exec(&["GET", "data"]), bulk("from B"));
}

#[test]
fn a_cut_command_is_unknown_to_a_client_and_to_a_script() {
    let mut store = Store::new();
    assert_eq!(
        store.exec(&["HSET", "job", "state", "waiting"]),
        error("ERR unknown command 'HSET', with args beginning with: 'job' 'state' 'waiting' ")
    );
    assert_eq!(
        store.exec(&["ZADD", "wait", "0", "1"]),
        error("ERR unknown command 'ZADD', with args beginning with: 'wait' '0' '1' ")
    );
    assert_eq!(
        store.exec(&["LPUSH", "jobs", "a"]),
        error("ERR unknown command 'LPUSH', with args beginning with: 'jobs' 'a' ")
    );
    // The figures run their scripts through `Store::eval`, not the EVAL command.
    assert_eq!(
        store.exec(&["EVAL", "return 1", "0"]),
        error("ERR unknown command 'EVAL', with args beginning with: 'return 1' '0' ")
    );
    assert_eq!(
        store.exec(&["MULTI"]),
        error("ERR unknown command 'MULTI', with args beginning with: ")
    );
    // Without MULTI there is no block: the next command runs at once.
    assert_eq!(store.exec(&["SET", "k", "v"]), Reply::ok());
    let script = "return redis.call('HSET', KEYS[1], 'state', 'waiting')";
    assert_eq!(
        store.eval::<&str, &str>(script, &["job"], &[]),
        failed("ERR Unknown Redis command called from script", script)
    );
}

#[test]
fn a_cut_library_is_a_nonexistent_global_and_a_cut_function_is_nil() {
    let mut store = Store::new();
    let encode = "return cjson.encode({1, 2})";
    assert_eq!(
        eval_bare(&mut store, encode),
        failed(
            "ERR user_script:1: Script attempted to access nonexistent global variable 'cjson'",
            encode
        )
    );
    let format = "return string.format('%d', 7)";
    assert_eq!(
        eval_bare(&mut store, format),
        failed(
            "ERR user_script:1: attempt to call field 'format' (a nil value)",
            format
        )
    );
    let method = "local s = 'x' return s:gsub('x', 'y')";
    assert_eq!(
        eval_bare(&mut store, method),
        failed(
            "ERR user_script:1: attempt to call method 'gsub' (a nil value)",
            method
        )
    );
    let resp3 = "redis.setresp(3) return redis.call('GET', 'k')";
    assert_eq!(
        eval_bare(&mut store, resp3),
        failed(
            "ERR user_script:1: attempt to call field 'setresp' (a nil value)",
            resp3
        )
    );
    // What stays of `string` and `redis` is whole.
    let kept = "return string.len('abc') .. string.sub('abcdef', 2, 3) .. ('x'):rep(2)";
    assert_eq!(eval_bare(&mut store, kept), bulk("3bcxx"));
    let status = "return redis.status_reply(redis.sha1hex(''))";
    assert_eq!(
        eval_bare(&mut store, status),
        Reply::Status("da39a3ee5e6b4b0d3255bfef95601890afd80709".to_string())
    );
}
