//! What the conformance suite cannot compare with a real server: the seeded random draws of
//! HRANDFIELD and ZRANDMEMBER, SCAN cursors over large collections, TIME on the virtual clock,
//! PUBLISH through an installed delivery, and blocking pops that never block.

use std::collections::BTreeSet;
use std::sync::Arc;

use ministore::{ChannelKind, Reply, Store};

fn bulks(reply: &Reply) -> Vec<Vec<u8>> {
    match reply {
        Reply::Array(items) => items
            .iter()
            .map(|item| match item {
                Reply::Bulk(bytes) => bytes.clone(),
                other => panic!("not a bulk: {other:?}"),
            })
            .collect(),
        other => panic!("not an array: {other:?}"),
    }
}

fn store_with_members() -> Store {
    let mut store = Store::new();
    let mut hset = vec!["HSET".to_string(), "h".to_string()];
    let mut zadd = vec!["ZADD".to_string(), "z".to_string()];
    for i in 0..10 {
        hset.extend([format!("f{i}"), format!("v{i}")]);
        zadd.extend([i.to_string(), format!("m{i}")]);
    }
    store.exec(&hset);
    store.exec(&zadd);
    store
}

#[test]
fn random_draws_repeat_for_the_same_seed_and_differ_for_another() {
    let draw = |seed: u64| {
        let mut store = store_with_members();
        store.seed_random(seed);
        (
            store.exec(&["HRANDFIELD", "h", "4"]),
            store.exec(&["ZRANDMEMBER", "z", "-6"]),
        )
    };
    assert_eq!(draw(7), draw(7));
    assert_ne!(draw(7), draw(8));
}

#[test]
fn a_positive_count_draws_distinct_members_and_a_negative_one_may_repeat() {
    let mut store = store_with_members();
    let fields = bulks(&store.exec(&["HRANDFIELD", "h", "6"]));
    assert_eq!(fields.len(), 6);
    assert_eq!(fields.iter().collect::<BTreeSet<_>>().len(), 6);
    let members = bulks(&store.exec(&["ZRANDMEMBER", "z", "-25"]));
    assert_eq!(members.len(), 25);
    assert!(members.iter().all(|m| m.starts_with(b"m")));
    let with_scores = bulks(&store.exec(&["ZRANDMEMBER", "z", "3", "WITHSCORES"]));
    assert_eq!(with_scores.len(), 6);
}

#[test]
fn scan_cursors_walk_a_large_hash_and_sorted_set_once() {
    // Past a listpack's size in Redis (a hash's 512 fields, a sorted set's 128 members), so
    // each is walked page by page.
    let mut store = Store::new();
    for i in 0..600 {
        store.exec(&["HSET", "big", &format!("field{i}"), "v"]);
    }
    for i in 0..300 {
        store.exec(&["ZADD", "bigz", &i.to_string(), &format!("member{i}")]);
    }
    for (command, key, expected) in [("HSCAN", "big", 600), ("ZSCAN", "bigz", 300)] {
        let mut cursor = "0".to_string();
        let mut seen = BTreeSet::new();
        let mut calls = 0;
        loop {
            let reply = store.exec(&[command, key, &cursor, "COUNT", "50"]);
            let Reply::Array(parts) = reply else {
                panic!("{command}: {reply:?}")
            };
            let Reply::Bulk(next) = &parts[0] else {
                panic!("{command}: cursor")
            };
            for pair in bulks(&parts[1]).chunks(2) {
                seen.insert(pair[0].clone());
            }
            calls += 1;
            cursor = String::from_utf8_lossy(next).into_owned();
            if cursor == "0" {
                break;
            }
        }
        assert_eq!(seen.len(), expected, "{command}");
        assert_eq!(calls, expected / 50, "{command}");
    }
}

#[test]
fn time_reads_the_virtual_clock() {
    let mut store = Store::new();
    let before = bulks(&store.exec(&["TIME"]));
    store.advance(1_500);
    let after = bulks(&store.exec(&["TIME"]));
    let seconds = |t: &[Vec<u8>]| String::from_utf8_lossy(&t[0]).parse::<i64>().unwrap_or(0);
    let micros = |t: &[Vec<u8>]| String::from_utf8_lossy(&t[1]).parse::<i64>().unwrap_or(0);
    let elapsed =
        (seconds(&after) - seconds(&before)) * 1_000_000 + micros(&after) - micros(&before);
    assert_eq!(elapsed, 1_500_000);
}

#[test]
fn publish_reaches_nobody_until_a_delivery_is_installed() {
    let mut store = Store::new();
    assert_eq!(store.exec(&["PUBLISH", "ch", "m"]), Reply::Integer(0));
    assert_eq!(store.exec(&["SPUBLISH", "ch", "m"]), Reply::Integer(0));
    // The delivery counts one receiver per matching part, and a hundred for the shard
    // namespace, so each reply shows what it was handed.
    store.on_publish(Arc::new(
        |kind: ChannelKind, channel: &[u8], message: &[u8]| {
            let shard = if kind == ChannelKind::Shard { 100 } else { 0 };
            shard + i64::from(channel == b"ch") + i64::from(message == b"m")
        },
    ));
    assert_eq!(store.exec(&["PUBLISH", "ch", "m"]), Reply::Integer(2));
    assert_eq!(store.exec(&["SPUBLISH", "ch", "x"]), Reply::Integer(101));
    let from_script = store.eval(
        "return redis.call('PUBLISH', 'ch', 'x')",
        &[""; 0],
        &[""; 0],
    );
    assert_eq!(from_script, Reply::Integer(1));
    let sharded_from_script = store.eval(
        "return redis.call('SPUBLISH', 'other', 'm')",
        &[""; 0],
        &[""; 0],
    );
    assert_eq!(sharded_from_script, Reply::Integer(101));
}

#[test]
fn blocking_zset_pops_wait_like_the_list_forms() {
    let mut store = Store::new();
    // A plain client waits out its timeout on the virtual clock, then gets nil.
    assert_eq!(store.exec(&["BZPOPMIN", "none", "1.5"]), Reply::Nil);
    assert_eq!(store.now_ms(), 1_500);
    // Timeout 0 would wait forever for a push no other client can make here.
    assert!(store.exec(&["BZMPOP", "0", "1", "none", "MAX"]).is_error());
    // Inside MULTI and in scripts they never wait.
    let from_script = store.eval(
        "return redis.call('BZMPOP', 0, 1, 'none', 'MIN')",
        &[""; 0],
        &[""; 0],
    );
    assert_eq!(from_script, Reply::Nil);
    assert_eq!(store.now_ms(), 1_500);
    store.exec(&["ZADD", "z", "1", "a"]);
    let popped = Reply::Array(vec![Reply::bulk("z"), Reply::bulk("a"), Reply::bulk("1")]);
    assert_eq!(store.exec(&["BZPOPMIN", "z", "0"]), popped);
}

#[test]
fn a_function_library_keeps_its_state_between_calls() {
    let mut store = Store::new();
    let code = "#!lua name=counter\nlocal n = 0\nredis.register_function('bump', function(keys, args) n = n + 1 return {n, keys[1], args[1]} end)";
    assert_eq!(
        store.exec(&["FUNCTION", "LOAD", code]),
        Reply::bulk("counter")
    );
    let bumped = |n| Reply::Array(vec![Reply::Integer(n), Reply::bulk("k"), Reply::bulk("a")]);
    assert_eq!(store.exec(&["FCALL", "bump", "1", "k", "a"]), bumped(1));
    // As in Redis, the library's top-level locals live on between calls…
    assert_eq!(store.exec(&["FCALL", "bump", "1", "k", "a"]), bumped(2));
    // …and a copy of the store carries on from its own copy of them.
    let mut copy = store.clone();
    assert_eq!(copy.exec(&["FCALL", "bump", "1", "k", "a"]), bumped(3));
    assert_eq!(copy.exec(&["FCALL", "bump", "1", "k", "a"]), bumped(4));
    assert_eq!(store.exec(&["FCALL", "bump", "1", "k", "a"]), bumped(3));
    // Replacing the library starts it afresh.
    store.exec(&["FUNCTION", "LOAD", "REPLACE", code]);
    assert_eq!(store.exec(&["FCALL", "bump", "1", "k", "a"]), bumped(1));
    let runaway =
        "#!lua name=spin\nredis.register_function('spin', function() while true do end end)";
    store.exec(&["FUNCTION", "LOAD", runaway]);
    store.set_step_budget(10_000);
    assert!(store.exec(&["FCALL", "spin", "0"]).is_error());
    assert_eq!(
        store.exec(&["FUNCTION", "LOAD", "#!lua name=top\nwhile true do end"]),
        Reply::Error("ERR Error registering functions: ERR FUNCTION LOAD timeout".into())
    );
}

#[test]
fn a_suspended_coroutine_in_a_function_library_is_dead_at_the_next_call() {
    // Redis keeps it suspended (the second FCALL answers "b"); a library's state is frozen
    // between calls without coroutine continuations (README, known differences).
    let mut store = Store::new();
    let code = "#!lua name=co\nlocal made\nredis.register_function('mk', function() made = coroutine.wrap(function() coroutine.yield('a') return 'b' end) return made() end)\nredis.register_function('again', function() return made() end)";
    assert_eq!(store.exec(&["FUNCTION", "LOAD", code]), Reply::bulk("co"));
    assert_eq!(store.exec(&["FCALL", "mk", "0"]), Reply::bulk("a"));
    let again = store.exec(&["FCALL", "again", "0"]);
    assert!(
        matches!(&again, Reply::Error(e) if e.contains("cannot resume dead coroutine")),
        "{again:?}"
    );
}
