//! `Store::state_key` and `Store::session_key`: the bytes two stores, and two connections, are
//! equal by. Stores that got to the same contents by different commands share a key; stores
//! that some command would still tell apart do not, and the tests show that command where one
//! reply tells them apart.

use ministore::{Reply, Store};

fn run(store: &mut Store, lines: &[&[&str]]) {
    for line in lines {
        store.exec(line);
    }
}

#[test]
fn stores_with_the_same_keys_leases_and_clock_share_a_key_however_they_got_there() {
    let mut direct = Store::new();
    run(
        &mut direct,
        &[
            &["SET", "lock", "xyz", "PX", "30000"],
            &["HSET", "h", "f", "1"],
        ],
    );
    let mut roundabout = Store::new();
    run(
        &mut roundabout,
        &[
            &["SET", "lock", "abc"],
            &["HSET", "h", "f", "1", "g", "2"],
            &["HDEL", "h", "g"],
            &["SET", "lock", "xyz", "PX", "30000"],
            &["SET", "gone", "soon", "PX", "10"],
            &["GET", "lock"],
        ],
    );
    // The key set PX 10 has lapsed by the time the other store's clock is there too.
    direct.advance(20);
    roundabout.advance(20);
    assert_eq!(direct.state_key(), roundabout.state_key());
}

#[test]
fn the_lease_and_the_clock_are_in_the_key() {
    let mut short = Store::new();
    short.exec(&["SET", "lock", "abc", "PX", "100"]);
    let mut long = Store::new();
    long.exec(&["SET", "lock", "abc", "PX", "200"]);
    assert_ne!(short.state_key(), long.state_key());
    assert_eq!(short.exec(&["PTTL", "lock"]), Reply::Integer(100));

    let mut later = Store::new();
    later.advance(1);
    assert_ne!(Store::new().state_key(), later.state_key());
}

#[test]
fn keys_in_other_databases_are_in_the_key() {
    let mut moved = Store::new();
    run(
        &mut moved,
        &[&["SET", "lock", "abc"], &["MOVE", "lock", "1"]],
    );
    let mut deleted = Store::new();
    run(&mut deleted, &[&["SET", "lock", "abc"], &["DEL", "lock"]]);
    assert_eq!(moved.snapshot(), deleted.snapshot());
    assert_ne!(moved.state_key(), deleted.state_key());
    // What tells them apart: database 1 has the key in one of them.
    assert_eq!(moved.exec(&["SWAPDB", "0", "1"]), Reply::ok());
    assert_eq!(deleted.exec(&["SWAPDB", "0", "1"]), Reply::ok());
    assert_eq!(moved.exec(&["GET", "lock"]), Reply::bulk("abc"));
    assert_eq!(deleted.exec(&["GET", "lock"]), Reply::Nil);
}

#[test]
fn the_random_draws_state_is_in_the_key() {
    let members = ["SADD", "bag", "a", "b", "c", "d", "e", "f", "g", "h"];
    let mut drawn = Store::new();
    run(&mut drawn, &[&members, &["SRANDMEMBER", "bag"]]);
    let mut untouched = Store::new();
    untouched.exec(&members);
    assert_eq!(drawn.snapshot(), untouched.snapshot());
    assert_ne!(drawn.state_key(), untouched.state_key());
    // The next draws differ: one store's generator has moved on.
    let draws = |store: &mut Store| -> Vec<Reply> {
        (0..8)
            .map(|_| store.exec(&["SRANDMEMBER", "bag"]))
            .collect()
    };
    assert_ne!(draws(&mut drawn), draws(&mut untouched));
}

#[test]
fn what_the_lua_interpreters_keep_between_scripts_is_in_the_key() {
    // One script, so both stores cache the same one; only ARGV[1] decides whether it changes
    // what the interpreter keeps.
    for change in [
        "math.random(1000)",
        "cjson.encode_number_precision(3)",
        "collectgarbage('setpause', 100)",
    ] {
        let script = format!("if ARGV[1] == 'yes' then {change} end");
        let mut changed = Store::new();
        changed.exec(&["EVAL", &script, "0", "yes"]);
        let mut untouched = Store::new();
        untouched.exec(&["EVAL", &script, "0", "no"]);
        assert_ne!(changed.state_key(), untouched.state_key(), "{change}");
    }
    // The next script tells such stores apart.
    let random = ["EVAL", "return math.random(1000)", "0"];
    let mut drawn = Store::new();
    drawn.exec(&random);
    assert_ne!(drawn.exec(&random), Store::new().exec(&random));
}

#[test]
fn cached_scripts_and_function_libraries_are_in_the_key() {
    let mut loaded = Store::new();
    let sha = loaded.script_load("return 1");
    assert_ne!(loaded.state_key(), Store::new().state_key());
    let Reply::Bulk(sha) = sha else {
        panic!("SCRIPT LOAD answered {sha:?}");
    };
    let evalsha = [b"EVALSHA".to_vec(), sha, b"0".to_vec()];
    assert_eq!(loaded.exec(&evalsha), Reply::Integer(1));
    assert!(Store::new().exec(&evalsha).is_error());

    // The same scripts, loaded in another order or after a SCRIPT FLUSH, are equal.
    let mut both = Store::new();
    both.script_load("return 1");
    both.script_load("return 2");
    let mut reversed = Store::new();
    reversed.script_load("return 3");
    assert_eq!(reversed.exec(&["SCRIPT", "FLUSH"]), Reply::ok());
    assert_eq!(reversed.state_key(), Store::new().state_key());
    reversed.script_load("return 2");
    reversed.script_load("return 1");
    assert_eq!(both.state_key(), reversed.state_key());

    let mut library = Store::new();
    let code = "#!lua name=locks\nredis.register_function('one', function() return 1 end)";
    assert_eq!(
        library.exec(&["FUNCTION", "LOAD", code]),
        Reply::bulk("locks")
    );
    assert_ne!(library.state_key(), Store::new().state_key());
    // Equal libraries, loaded by different routes, are equal.
    let mut reloaded = Store::new();
    run(
        &mut reloaded,
        &[
            &[
                "FUNCTION",
                "LOAD",
                "#!lua name=other\nredis.register_function('two', function() return 2 end)",
            ],
            &["FUNCTION", "DELETE", "other"],
            &["FUNCTION", "LOAD", code],
        ],
    );
    assert_eq!(library.state_key(), reloaded.state_key());

    // What a library keeps between calls is in the key: the next call tells the stores apart.
    let counter = "#!lua name=count\nlocal n = 0\n\
                   redis.register_function('bump', function() n = n + 1 return n end)";
    let mut bumped = Store::new();
    let mut fresh = Store::new();
    for store in [&mut bumped, &mut fresh] {
        assert_eq!(
            store.exec(&["FUNCTION", "LOAD", counter]),
            Reply::bulk("count")
        );
    }
    assert_eq!(bumped.state_key(), fresh.state_key());
    assert_eq!(bumped.exec(&["FCALL", "bump", "0"]), Reply::Integer(1));
    assert_ne!(bumped.state_key(), fresh.state_key());
    assert_ne!(
        bumped.exec(&["FCALL", "bump", "0"]),
        fresh.exec(&["FCALL", "bump", "0"])
    );
}

#[test]
fn a_values_encoding_is_in_the_key() {
    // APPEND leaves a raw string however short; SET of the same bytes is embstr.
    let mut appended = Store::new();
    run(&mut appended, &[&["SET", "k", "ab"], &["APPEND", "k", "c"]]);
    let mut set = Store::new();
    set.exec(&["SET", "k", "abc"]);
    assert_eq!(appended.snapshot(), set.snapshot());
    assert_ne!(appended.state_key(), set.state_key());
    assert_eq!(
        appended.exec(&["OBJECT", "ENCODING", "k"]),
        Reply::bulk("raw")
    );
    assert_eq!(
        set.exec(&["OBJECT", "ENCODING", "k"]),
        Reply::bulk("embstr")
    );
}

#[test]
fn values_of_different_types_never_share_bytes() {
    let mut hash = Store::new();
    hash.exec(&["HSET", "k", "", ""]);
    let mut list = Store::new();
    list.exec(&["RPUSH", "k", "", ""]);
    assert_ne!(hash.state_key(), list.state_key());
    let mut set = Store::new();
    set.exec(&["SADD", "k", "a"]);
    let mut zset = Store::new();
    zset.exec(&["ZADD", "k", "0", "a"]);
    assert_ne!(set.state_key(), zset.state_key());
}

#[test]
fn a_connections_key_holds_its_multi_block_and_its_watch_list_with_whether_exec_would_fail() {
    use ministore::Session;
    let mut store = Store::new();
    store.exec(&["SET", "lock", "abc"]);
    let fresh = store.session_key(&Session::new());

    let mut watching = Session::new();
    store.exec_in(&mut watching, &["WATCH", "lock"]);
    let watched = store.session_key(&watching);
    assert_ne!(watched, fresh);
    assert!(store.watching());

    // Another connection's write spoils the WATCH: EXEC would now fail.
    let mut other = Session::new();
    store.exec_in(&mut other, &["SET", "lock", "xyz"]);
    let spoiled = store.session_key(&watching);
    assert_ne!(spoiled, watched);

    store.exec_in(&mut watching, &["MULTI"]);
    let in_multi = store.session_key(&watching);
    store.exec_in(&mut watching, &["DEL", "lock"]);
    assert_ne!(store.session_key(&watching), in_multi);
    assert_eq!(store.exec_in(&mut watching, &["EXEC"]), Reply::Nil);
    assert_eq!(store.session_key(&watching), fresh);
    assert!(!store.watching());

    // A watched key whose lease runs out spoils the WATCH with no write at all.
    let mut expiring = Session::new();
    store.exec(&["SET", "lease", "abc", "PX", "100"]);
    store.exec_in(&mut expiring, &["WATCH", "lease"]);
    let live = store.session_key(&expiring);
    store.advance(101);
    assert_ne!(store.session_key(&expiring), live);
    store.exec_in(&mut expiring, &["MULTI"]);
    assert_eq!(store.exec_in(&mut expiring, &["EXEC"]), Reply::Nil);

    // WATCH lists taken in another order are equal.
    let (mut one, mut two) = (Session::new(), Session::new());
    store.exec_in(&mut one, &["WATCH", "a", "b"]);
    store.exec_in(&mut two, &["WATCH", "b"]);
    store.exec_in(&mut two, &["WATCH", "a"]);
    assert_eq!(store.session_key(&one), store.session_key(&two));
}
