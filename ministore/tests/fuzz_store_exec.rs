//! Property tests over the command layer: random command lines (supported names in any case,
//! unknown names, and argument soups rich in edge values) never panic the store, and after
//! every command the snapshot agrees with what EXISTS, TYPE and PTTL report.

use ministore::{Reply, Session, Store, ValueSnapshot};
use proptest::prelude::*;

const COMMANDS: &[&str] = &[
    "PING",
    "ECHO",
    "FLUSHALL",
    "GET",
    "SET",
    "DEL",
    "EXISTS",
    "INCR",
    "INCRBY",
    "TYPE",
    "PEXPIRE",
    "EXPIRE",
    "PTTL",
    "TTL",
    "HSET",
    "HGET",
    "HDEL",
    "HEXISTS",
    "HGETALL",
    "HINCRBY",
    "HMGET",
    "HMSET",
    "HSTRLEN",
    "HINCRBYFLOAT",
    "HRANDFIELD",
    "HSCAN",
    "ZADD",
    "ZREM",
    "ZSCORE",
    "ZCARD",
    "ZRANGE",
    "ZRANGEBYSCORE",
    "ZPOPMIN",
    "ZPOPMAX",
    "ZMPOP",
    "BZPOPMIN",
    "BZPOPMAX",
    "BZMPOP",
    "ZMSCORE",
    "ZRANGEBYLEX",
    "ZREVRANGEBYLEX",
    "ZREVRANGEBYSCORE",
    "ZLEXCOUNT",
    "ZREMRANGEBYSCORE",
    "ZREMRANGEBYRANK",
    "ZREMRANGEBYLEX",
    "ZRANGESTORE",
    "ZUNIONSTORE",
    "ZINTERSTORE",
    "ZDIFFSTORE",
    "ZUNION",
    "ZINTER",
    "ZDIFF",
    "ZINTERCARD",
    "ZRANDMEMBER",
    "ZREVRANK",
    "ZSCAN",
    "LPUSH",
    "RPUSH",
    "LPUSHX",
    "RPUSHX",
    "LPOP",
    "RPOP",
    "LLEN",
    "LRANGE",
    "LINDEX",
    "LSET",
    "LINSERT",
    "LREM",
    "LTRIM",
    "LPOS",
    "LMOVE",
    "RPOPLPUSH",
    "LMPOP",
    "BLPOP",
    "BRPOP",
    "BLMOVE",
    "BRPOPLPUSH",
    "BLMPOP",
    "SADD",
    "SREM",
    "SCARD",
    "SISMEMBER",
    "SMISMEMBER",
    "SMEMBERS",
    "SINTER",
    "SUNION",
    "SDIFF",
    "SINTERSTORE",
    "SUNIONSTORE",
    "SDIFFSTORE",
    "SINTERCARD",
    "SMOVE",
    "SPOP",
    "SRANDMEMBER",
    "SSCAN",
    "EVAL",
    "EVALSHA",
    "EVAL_RO",
    "FUNCTION",
    "FCALL",
    "FCALL_RO",
    "EVALSHA_RO",
    "PUBLISH",
    "TIME",
    "SCRIPT",
    "DEBUG",
    "APPEND",
    "STRLEN",
    "GETRANGE",
    "SUBSTR",
    "SETRANGE",
    "GETDEL",
    "GETSET",
    "GETEX",
    "INCRBYFLOAT",
    "MSET",
    "MSETNX",
    "SETEX",
    "PSETEX",
    "LCS",
    "UNLINK",
    "TOUCH",
    "RENAME",
    "RENAMENX",
    "COPY",
    "EXPIREAT",
    "PEXPIREAT",
    "EXPIRETIME",
    "PEXPIRETIME",
    "KEYS",
    "SCAN",
    "RANDOMKEY",
    "OBJECT",
    "SORT",
    "SORT_RO",
    "MULTI",
    "EXEC",
    "DISCARD",
    "WATCH",
    "UNWATCH",
    "SELECT",
    "SWAPDB",
    "MOVE",
    "FLUSHDB",
    "DBSIZE",
    "set",
    "zAdd",
    "NOPE",
    "",
];

const ARGS: &[&str] = &[
    // keys, shared so commands collide on them (and on their types)
    "k",
    "h",
    "z",
    "l",
    "s",
    "resource:lock", // numbers and near-numbers
    "0",
    "1",
    "2",
    "-1",
    "10",
    "100",
    "1.5",
    "-0",
    "007",
    "0x10",
    " 1",
    "1e3",
    "inf",
    "-inf",
    "+inf",
    "nan",
    "(1",
    "(",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "1e308",
    "0.1",
    // options
    "NX",
    "XX",
    "EX",
    "PX",
    "GET",
    "KEEPTTL",
    "PERSIST",
    "REPLACE",
    "BY",
    "ALPHA",
    "DESC",
    "STORE",
    "#",
    "w_*",
    "h*->f",
    "DB",
    "MATCH",
    "LIST",
    "DELETE",
    "REPLACE",
    "WITHCODE",
    "f",
    "#!lua name=f\nredis.register_function('f', function(k, a) return redis.call('INCR', k[1] or 'k') end)",
    "#!lua name=g\nredis.register_function{function_name='g', callback=function() return redis.call('SET', 'k', 'v') end, flags={'no-writes'}}",
    "#!lua name=f\nwhile true do end",
    "COUNT",
    "TYPE",
    "ENCODING",
    "*",
    "h*",
    "[a-z]",
    "EXAT",
    "PXAT",
    "IDX",
    "LEN",
    "MINMATCHLEN",
    "WITHMATCHLEN",
    "WITHSCORES",
    "LIMIT",
    "GT",
    "LT",
    "CH",
    "INCR",
    "SLEEP",
    "LOAD",
    "EXISTS",
    "FLUSH",
    "nx",
    "px",
    "MATCH",
    "COUNT",
    "WITHVALUES",
    "MIN",
    "MAX",
    "WEIGHTS",
    "AGGREGATE",
    "BYLEX",
    "BYSCORE",
    "REV",
    "[a",
    "(b",
    "+",
    "-",
    "*",
    "[a-",
    "-4611686018427387904",
    "LEFT",
    "right",
    "BEFORE",
    "AFTER",
    "RANK",
    "MAXLEN",
    "0.001",
    "-9223372036854775807",
    // scripts and SHAs
    "return 1",
    "return redis.call('GET', KEYS[1])",
    "return redis.call('INCR', KEYS[1])",
    "return {1, 'a', {2}, false, true, 0.5}",
    "while true do end",
    "return redis.error_reply('MY err')",
    "return redis.pcall('HGET', KEYS[1])",
    "return ",
    "local t = {} for i = 1, 1e9 do t[i] = i end",
    "c7634f8c5c1d9ef2d68e601354a9a81a4d03bb5d", // odd bytes
    "",
    "\u{0}",
    "\u{ff}",
    "a b",
    "\n",
];

fn command_line() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let name = prop::sample::select(COMMANDS).prop_map(|n| n.as_bytes().to_vec());
    let arg = prop_oneof![
        4 => prop::sample::select(ARGS).prop_map(|a| a.as_bytes().to_vec()),
        1 => proptest::collection::vec(any::<u8>(), 0..6),
    ];
    (name, proptest::collection::vec(arg, 0..7)).prop_map(|(name, mut args)| {
        args.insert(0, name);
        args
    })
}

/// A step of a session: run a command, or let virtual time pass.
#[derive(Debug, Clone)]
enum Step {
    Exec(Vec<Vec<u8>>),
    Advance(u64),
}

fn session() -> impl Strategy<Value = Vec<Step>> {
    let step = prop_oneof![
        6 => command_line().prop_map(Step::Exec),
        1 => prop_oneof![0u64..2_000, Just(u64::MAX / 2), Just(u64::MAX)].prop_map(Step::Advance),
    ];
    proptest::collection::vec(step, 1..40)
}

fn type_name(value: &ValueSnapshot) -> &'static str {
    match value {
        ValueSnapshot::String(_) => "string",
        ValueSnapshot::Hash(_) => "hash",
        ValueSnapshot::ZSet(_) => "zset",
        ValueSnapshot::List(_) => "list",
        ValueSnapshot::Set(_) => "set",
    }
}

/// What the snapshot shows must be what the commands report, key by key; the checks run as a
/// client of their own (database 0, never in MULTI) so the session under test is left as it is.
fn check_snapshot_agrees_with_commands(store: &mut Store) -> Result<(), TestCaseError> {
    let mut checker = Session::new();
    let snapshot = store.snapshot();
    for pair in snapshot.windows(2) {
        prop_assert!(
            pair[0].key < pair[1].key,
            "snapshot not sorted by key: {:?}",
            pair
        );
    }
    for entry in &snapshot {
        let key = entry.key.clone();
        prop_assert_eq!(
            store.exec_in(&mut checker, &[b"EXISTS".to_vec(), key.clone()]),
            Reply::Integer(1)
        );
        prop_assert_eq!(
            store.exec_in(&mut checker, &[b"TYPE".to_vec(), key.clone()]),
            Reply::Status(type_name(&entry.value).to_string())
        );
        let pttl = match entry.ttl_ms {
            Some(ms) => i64::try_from(ms).unwrap_or(i64::MAX),
            None => -1,
        };
        prop_assert_eq!(
            store.exec_in(&mut checker, &[b"PTTL".to_vec(), key.clone()]),
            Reply::Integer(pttl)
        );
        if let ValueSnapshot::ZSet(members) = &entry.value {
            prop_assert!(!members.is_empty(), "an empty sorted set must not exist");
            for pair in members.windows(2) {
                let ordered =
                    pair[0].1 < pair[1].1 || (pair[0].1 == pair[1].1 && pair[0].0 < pair[1].0);
                prop_assert!(ordered, "sorted set out of order: {:?}", pair);
            }
        }
        if let ValueSnapshot::Hash(fields) = &entry.value {
            prop_assert!(!fields.is_empty(), "an empty hash must not exist");
        }
        if let ValueSnapshot::List(items) = &entry.value {
            prop_assert!(!items.is_empty(), "an empty list must not exist");
        }
        if let ValueSnapshot::Set(members) = &entry.value {
            prop_assert!(!members.is_empty(), "an empty set must not exist");
            let mut sorted = members.clone();
            sorted.sort();
            sorted.dedup();
            prop_assert_eq!(sorted.len(), members.len(), "a set holds each member once");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_sessions_never_panic_and_the_snapshot_stays_truthful(steps in session()) {
        let mut store = Store::new();
        // A small budget keeps `while true do end` and the 1e9 loop short.
        store.set_step_budget(2_000);
        for step in steps {
            match step {
                Step::Exec(args) => {
                    let reply = store.exec(&args);
                    let text = reply.to_cli_text();
                    prop_assert!(text.ends_with('\n'));
                }
                Step::Advance(ms) => store.advance(ms),
            }
            check_snapshot_agrees_with_commands(&mut store)?;
        }
    }

    #[test]
    fn the_same_session_gives_the_same_replies(steps in session()) {
        let replay = |steps: &[Step]| {
            let mut store = Store::new();
            store.set_step_budget(2_000);
            let mut replies = Vec::new();
            for step in steps {
                match step {
                    Step::Exec(args) => replies.push(store.exec(args)),
                    Step::Advance(ms) => store.advance(*ms),
                }
            }
            (replies, store.snapshot())
        };
        prop_assert_eq!(replay(&steps), replay(&steps));
    }
}

#[test]
fn runaway_scripts_from_the_command_line_are_stopped_with_an_error() {
    let mut store = Store::new();
    store.set_step_budget(2_000);
    for script in [
        "while true do end",
        "local t = {} for i = 1, 1e9 do t[i] = i end",
    ] {
        let reply = store.exec(&["EVAL", script, "0"]);
        assert!(reply.is_error(), "{script} returned {reply:?}");
    }
    assert_eq!(
        store.exec(&["PING"]),
        Reply::Status("PONG".to_string()),
        "the store still answers"
    );
}
