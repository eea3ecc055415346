//! A store built without the `full` feature, as the course page's figures use it: the commands
//! they send and their own scripts (read from the page's sources) all work, and what the build cuts
//! (lists, MULTI, the cjson library, `string.format`) answers as Redis answers for a command or
//! a global it does not have.

#![cfg(not(feature = "full"))]

use ministore::{Reply, Store};

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

/// The fence figure's acquire: take the lock, then hand out the next fencing token.
const FENCED_ACQUIRE: &str = include_str!("../../src/scenarios/lua/fenced_acquire.lua");

/// The attempts scenario's claim: lease the oldest waiting job and bump its fence.
const CLAIM: &str = include_str!("../../src/scenarios/lua/emq_claim.lua");

/// The attempts scenario's complete: finish a job only for the worker holding its grant.
const COMPLETE: &str = include_str!("../../src/scenarios/lua/emq_complete.lua");

/// The attempts scenario's retry: hand a job back to the wait queue, fenced like complete.
const RETRY: &str = include_str!("../../src/scenarios/lua/emq_retry.lua");

/// The attempts scenario's reaper: every job whose lease ran out goes back to the wait queue.
const REAP: &str = include_str!("../../src/scenarios/lua/emq_reap.lua");

#[test]
fn a_lease_is_taken_once_expires_on_the_clock_and_is_released_only_by_its_holder() {
    let mut store = Store::new();
    let acquire =
        |store: &mut Store, token: &str| store.exec(&["SET", "lock", token, "NX", "PX", "30000"]);
    assert_eq!(acquire(&mut store, "A"), Reply::ok());
    assert_eq!(acquire(&mut store, "B"), Reply::Nil);
    assert_eq!(store.exec(&["GET", "lock"]), bulk("A"));
    assert_eq!(store.exec(&["PEXPIRE", "lock", "10000"]), int(1));
    store.advance(4000);
    assert_eq!(store.exec(&["PTTL", "lock"]), int(6000));
    store.advance(6001);
    assert_eq!(store.exec(&["PTTL", "lock"]), int(-2));
    assert_eq!(acquire(&mut store, "B"), Reply::ok());
    assert_eq!(store.exec(&["EVAL", RELEASE, "1", "lock", "A"]), int(0));
    assert_eq!(store.exec(&["EVAL", RELEASE, "1", "lock", "B"]), int(1));
    assert_eq!(store.exec(&["DEL", "lock"]), int(0));
}

#[test]
fn the_fence_accepts_a_newer_token_and_refuses_an_older_one() {
    let mut store = Store::new();
    let write = |store: &mut Store, token: &str, data: &str| {
        store.exec(&["EVAL", FENCED_WRITE, "2", "fence", "data", token, data])
    };
    assert_eq!(write(&mut store, "34", "from B"), int(34));
    assert_eq!(
        write(&mut store, "33", "from A"),
        error("FENCED token 33 < max seen 34")
    );
    assert_eq!(
        write(&mut store, "1e3", "from A"),
        error("ERR fencing tokens must be decimal integers (digits only)")
    );
    assert_eq!(store.exec(&["GET", "data"]), bulk("from B"));
}

#[test]
fn a_job_is_queued_claimed_fenced_and_reaped_with_hashes_and_sorted_sets() {
    let mut store = Store::new();
    let job = "emq:{q}:job:1";
    let fields = [
        "HSET", job, "payload", "p", "state", "waiting", "attempts", "0",
    ];
    assert_eq!(store.exec(&fields), int(3));
    assert_eq!(store.exec(&["ZADD", "emq:{q}:wait", "0", "1"]), int(1));
    assert_eq!(
        store.exec(&["ZPOPMIN", "emq:{q}:wait"]),
        Reply::Array(vec![bulk("1"), bulk("0")])
    );
    assert_eq!(store.exec(&["HINCRBY", job, "attempts", "1"]), int(1));
    assert_eq!(store.exec(&["ZADD", "emq:{q}:active", "500", "1"]), int(1));
    assert_eq!(store.exec(&["ZSCORE", "emq:{q}:active", "1"]), bulk("500"));
    let reap = [
        "EVAL",
        REAP,
        "2",
        "emq:{q}:active",
        "emq:{q}:wait",
        "emq:{q}:job:",
        "1000",
    ];
    assert_eq!(store.exec(&reap), Reply::Array(vec![bulk("1")]));
    assert_eq!(store.exec(&["HGET", job, "state"]), bulk("waiting"));
    assert_eq!(store.exec(&["ZREM", "emq:{q}:active", "1"]), int(0));
    assert_eq!(
        store.exec(&["ZRANGEBYSCORE", "emq:{q}:wait", "-inf", "+inf"]),
        Reply::Array(vec![bulk("1")])
    );
}

#[test]
fn the_attempts_scripts_claim_retry_and_complete_a_job_under_its_fence() {
    let mut store = Store::new();
    let (wait, active, job) = ("emq:{q}:wait", "emq:{q}:active", "emq:{q}:job:1");
    let fields = [
        "HSET", job, "payload", "p", "state", "waiting", "attempts", "0",
    ];
    assert_eq!(store.exec(&fields), int(3));
    assert_eq!(store.exec(&["ZADD", wait, "0", "1"]), int(1));
    let claim = ["EVAL", CLAIM, "2", wait, active, "emq:{q}:job:", "0", "500"];
    let granted = |att: i64| Reply::Array(vec![bulk("1"), bulk("p"), int(att)]);
    assert_eq!(store.exec(&claim), granted(1));
    let retry = ["EVAL", RETRY, "3", active, job, wait, "1", "1", "10"];
    assert_eq!(store.exec(&retry), int(1));
    assert_eq!(store.exec(&claim), granted(2));
    let complete = |att: &'static str| ["EVAL", COMPLETE, "2", active, job, "1", att];
    assert_eq!(
        store.exec(&complete("1")),
        error("EMQSTALE complete token mismatch")
    );
    assert_eq!(store.exec(&complete("2")), int(1));
    assert_eq!(store.exec(&["HGET", job, "state"]), bulk("completed"));
}

#[test]
fn the_fenced_acquire_hands_out_increasing_tokens_to_whoever_takes_the_lock() {
    let mut store = Store::new();
    let acquire = |store: &mut Store, token: &str| {
        store.exec(&["EVAL", FENCED_ACQUIRE, "2", "lock", "fence", token, "1000"])
    };
    assert_eq!(acquire(&mut store, "A"), int(1));
    assert_eq!(acquire(&mut store, "B"), int(0));
    store.advance(1001);
    assert_eq!(acquire(&mut store, "B"), int(2));
}

#[test]
fn a_cut_command_is_unknown_to_a_client_and_to_a_script() {
    let mut store = Store::new();
    assert_eq!(
        store.exec(&["LPUSH", "jobs", "a"]),
        error("ERR unknown command 'LPUSH', with args beginning with: 'jobs' 'a' ")
    );
    assert_eq!(
        store.exec(&["MULTI"]),
        error("ERR unknown command 'MULTI', with args beginning with: ")
    );
    // Without MULTI there is no block: the next command runs at once.
    assert_eq!(store.exec(&["SET", "k", "v"]), Reply::ok());
    let script = "return redis.call('LPUSH', KEYS[1], 'a')";
    assert_eq!(
        store.exec(&["EVAL", script, "1", "jobs"]),
        failed("ERR Unknown Redis command called from script", script)
    );
}

#[test]
fn a_cut_library_is_a_nonexistent_global_and_a_cut_string_function_is_nil() {
    let mut store = Store::new();
    let encode = "return cjson.encode({1, 2})";
    assert_eq!(
        store.exec(&["EVAL", encode, "0"]),
        failed(
            "ERR user_script:1: Script attempted to access nonexistent global variable 'cjson'",
            encode
        )
    );
    let format = "return string.format('%d', 7)";
    assert_eq!(
        store.exec(&["EVAL", format, "0"]),
        failed(
            "ERR user_script:1: attempt to call field 'format' (a nil value)",
            format
        )
    );
    let method = "local s = 'x' return s:gsub('x', 'y')";
    assert_eq!(
        store.exec(&["EVAL", method, "0"]),
        failed(
            "ERR user_script:1: attempt to call method 'gsub' (a nil value)",
            method
        )
    );
    // What stays of `string` is whole.
    let kept = "return string.len('abc') .. string.sub('abcdef', 2, 3) .. ('x'):rep(2)";
    assert_eq!(store.exec(&["EVAL", kept, "0"]), bulk("3bcxx"));
}
