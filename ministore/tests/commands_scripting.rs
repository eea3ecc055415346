//! Scripting through the public `Store` API: EVAL, EVALSHA, SCRIPT LOAD/EXISTS/FLUSH, the
//! SHA1 script cache, the token-checked release, and what scripts may not call.

use ministore::{Reply, Store};

fn bulk(text: &str) -> Reply {
    Reply::bulk(text)
}

fn error(text: &str) -> Reply {
    Reply::Error(text.to_string())
}

/// The token-checked release of the dive: delete the lock only if it still holds our token.
const RELEASE: &str = "if redis.call('get', KEYS[1]) == ARGV[1] then\n  return redis.call('del', KEYS[1])\nelse\n  return 0\nend";

/// `SHA1("return 1")`, as Redis names that script.
const RETURN_ONE_SHA: &str = "e0e1f9fabfc9d4800c877a703b823ac0578ff8db";

#[test]
fn evalsha_of_an_unknown_script_is_noscript() {
    let mut store = Store::new();
    let noscript = error("NOSCRIPT No matching script. Please use EVAL.");
    assert_eq!(store.exec(&["EVALSHA", RETURN_ONE_SHA, "0"]), noscript);
    // A SHA of the wrong length is NOSCRIPT before numkeys is even read.
    assert_eq!(store.exec(&["EVALSHA", "abc", "x"]), noscript);
    assert_eq!(store.evalsha::<&str, &str>("abc", &[], &[]), noscript);
}

#[test]
fn numkeys_must_fit_the_arguments() {
    let mut store = Store::new();
    assert_eq!(
        store.exec(&["EVAL", "return 1", "2", "a"]),
        error("ERR Number of keys can't be greater than number of args")
    );
    assert_eq!(
        store.exec(&["EVAL", "return 1", "-1"]),
        error("ERR Number of keys can't be negative")
    );
    assert_eq!(
        store.exec(&["EVAL", "return 1", "x"]),
        error("ERR value is not an integer or out of range")
    );
}

#[test]
fn script_subcommands_check_their_own_arity_and_options() {
    let mut store = Store::new();
    assert_eq!(
        store.exec(&["SCRIPT", "LOAD"]),
        error("ERR wrong number of arguments for 'script|load' command")
    );
    assert_eq!(
        store.exec(&["SCRIPT", "nope"]),
        error("ERR unknown subcommand 'nope'. Try SCRIPT HELP.")
    );
    assert_eq!(
        store.exec(&["SCRIPT", "FLUSH", "a"]),
        error("ERR SCRIPT FLUSH only support SYNC|ASYNC option")
    );
    assert_eq!(
        store.exec(&["SCRIPT", "KILL"]),
        error("NOTBUSY No scripts in execution right now.")
    );
    assert_eq!(
        store.exec(&["SCRIPT", "EXISTS", RETURN_ONE_SHA, "x"]),
        Reply::Array(vec![Reply::Integer(0), Reply::Integer(0)])
    );
}

#[test]
fn script_load_caches_by_sha1_for_evalsha_until_flushed() {
    let mut store = Store::new();
    assert_eq!(
        store.exec(&["SCRIPT", "LOAD", "return 1"]),
        bulk(RETURN_ONE_SHA)
    );
    assert_eq!(
        store.exec(&[
            "SCRIPT",
            "EXISTS",
            RETURN_ONE_SHA,
            &RETURN_ONE_SHA.to_uppercase()
        ]),
        Reply::Array(vec![Reply::Integer(1), Reply::Integer(1)])
    );
    assert_eq!(
        store.exec(&["EVALSHA", RETURN_ONE_SHA, "0"]),
        Reply::Integer(1)
    );
    assert_eq!(store.exec(&["SCRIPT", "FLUSH"]), Reply::ok());
    assert!(store.exec(&["EVALSHA", RETURN_ONE_SHA, "0"]).is_error());
}

#[test]
fn eval_caches_the_script_it_ran() {
    let mut store = Store::new();
    assert_eq!(store.exec(&["EVAL", "return 1", "0"]), Reply::Integer(1));
    assert_eq!(
        store.exec(&["EVALSHA", RETURN_ONE_SHA, "0"]),
        Reply::Integer(1)
    );
}

#[test]
fn a_token_checked_release_after_takeover_returns_0_and_keeps_bs_lock() {
    let mut store = Store::new();
    store.exec(&["SET", "resource:lock", "abc", "NX", "PX", "30000"]);
    store.advance(30_001);
    store.exec(&["SET", "resource:lock", "xyz", "NX", "PX", "30000"]);
    assert_eq!(
        store.eval(RELEASE, &["resource:lock"], &["abc"]),
        Reply::Integer(0)
    );
    assert_eq!(store.exec(&["GET", "resource:lock"]), bulk("xyz"));
    assert_eq!(
        store.eval(RELEASE, &["resource:lock"], &["xyz"]),
        Reply::Integer(1)
    );
    assert_eq!(store.exec(&["EXISTS", "resource:lock"]), Reply::Integer(0));
}

#[test]
fn the_release_runs_by_sha_through_the_api() {
    let mut store = Store::new();
    let Reply::Bulk(sha) = store.script_load(RELEASE) else {
        panic!("SCRIPT LOAD of the release script did not return a SHA");
    };
    let sha = String::from_utf8(sha).expect("a SHA1 is hex");
    store.exec(&["SET", "resource:lock", "abc"]);
    assert_eq!(
        store.evalsha(&sha, &["resource:lock"], &["abc"]),
        Reply::Integer(1)
    );
}

#[test]
fn scripts_may_not_run_eval_script_or_debug() {
    let mut store = Store::new();
    for call in [
        "return redis.pcall('eval', 'return 1', '0')",
        "return redis.pcall('evalsha', 'e0e1f9fabfc9d4800c877a703b823ac0578ff8db', '0')",
        "return redis.pcall('script', 'flush')",
        "return redis.pcall('debug', 'sleep', '0')",
    ] {
        assert_eq!(
            store.eval::<&str, &str>(call, &[], &[]),
            error("ERR This Redis command is not allowed from script"),
            "{call}"
        );
    }
    assert_eq!(store.now_ms(), 0);
}

#[test]
fn scripts_get_the_scripting_wording_for_unknown_commands_and_bad_arity() {
    let mut store = Store::new();
    assert_eq!(
        store.eval::<&str, &str>("return redis.pcall('nosuch')", &[], &[]),
        error("ERR Unknown Redis command called from script")
    );
    assert_eq!(
        store.eval::<&str, &str>("return redis.pcall('get', 'a', 'b')", &[], &[]),
        error("ERR Wrong number of args calling Redis command from script")
    );
}

#[test]
fn a_script_sees_and_changes_the_same_keyspace() {
    let mut store = Store::new();
    store.exec(&["HSET", "job:1", "attempts", "1"]);
    let claim = "local n = redis.call('hincrby', KEYS[1], 'attempts', 1)\nredis.call('zadd', KEYS[2], ARGV[1], KEYS[1])\nreturn n";
    assert_eq!(
        store.eval(claim, &["job:1", "active"], &["5000"]),
        Reply::Integer(2)
    );
    assert_eq!(store.exec(&["ZSCORE", "active", "job:1"]), bulk("5000"));
}

#[test]
fn a_runaway_script_is_stopped_by_the_step_budget_and_the_store_stays_usable() {
    let mut store = Store::new();
    let runaway = store.eval::<&str, &str>(
        "redis.call('set', 'before', '1') while true do end",
        &[],
        &[],
    );
    assert!(runaway.is_error(), "{runaway:?}");
    // Redis does not roll back: the write made before the loop stays.
    assert_eq!(store.exec(&["GET", "before"]), bulk("1"));
    assert_eq!(store.exec(&["PING"]), Reply::Status("PONG".into()));
}

#[test]
fn the_default_budget_fits_a_loop_over_ten_thousand_jobs_and_a_lower_one_stops_it() {
    let mut store = Store::new();
    let reaper = "local n = 0 for i = 1, 10000 do n = n + redis.call('zadd', 'active', i, 'job:' .. i) end return n";
    assert_eq!(
        store.eval::<&str, &str>(reaper, &[], &[]),
        Reply::Integer(10_000)
    );
    store.set_step_budget(1_000);
    assert!(store.eval::<&str, &str>(reaper, &[], &[]).is_error());
}

#[test]
fn repeated_releases_each_see_their_own_key_and_token() {
    // Short KEYS/ARGV strings are kept between runs and reused when the bytes repeat: a run with
    // other bytes at the same position must still see its own.
    let mut store = Store::new();
    let sha = match store.script_load(RELEASE) {
        Reply::Bulk(sha) => String::from_utf8(sha).expect("hex"),
        other => panic!("SCRIPT LOAD replied {other:?}"),
    };
    store.exec(&["SET", "lock:a", "A"]);
    store.exec(&["SET", "lock:b", "B"]);
    assert_eq!(store.evalsha(&sha, &["lock:a"], &["B"]), Reply::Integer(0));
    assert_eq!(store.evalsha(&sha, &["lock:b"], &["B"]), Reply::Integer(1));
    assert_eq!(store.evalsha(&sha, &["lock:a"], &["B"]), Reply::Integer(0));
    assert_eq!(store.evalsha(&sha, &["lock:a"], &["A"]), Reply::Integer(1));
    assert_eq!(
        store.exec(&["EXISTS", "lock:a", "lock:b"]),
        Reply::Integer(0)
    );
    let echo = "return {KEYS[1], ARGV[1], ARGV[2]}";
    assert_eq!(
        store.eval(echo, &["k1"], &["x", "y"]),
        Reply::Array(vec![bulk("k1"), bulk("x"), bulk("y")])
    );
    assert_eq!(
        store.eval(echo, &["k2"], &["y"]),
        Reply::Array(vec![bulk("k2"), bulk("y")])
    );
}
