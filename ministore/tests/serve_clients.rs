//! Real clients against `ministore serve` and against redis-server 7.0 with the same test body
//! and the same expected results: the `redis` crate (RESP2 and RESP3), redis-cli over TCP, and
//! two clients racing for a lock with the page's own token-checked release script.

// The `ministore` binary and `serve` are part of the `full` feature.
#![cfg(feature = "full")]

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use redis::{Commands, Value};
use redis_oracle::{redis_cli, run_with_input};
use support::both_servers;

/// The brief's §2 release, exactly the text the page shows.
const RELEASE: &str = include_str!("../../src/scenarios/lua/release.lua");

fn connect(port: u16, resp3: bool) -> redis::Connection {
    let url = if resp3 {
        format!("redis://127.0.0.1:{port}/?protocol=resp3")
    } else {
        format!("redis://127.0.0.1:{port}/")
    };
    let client = redis::Client::open(url).expect("client");
    let con = client.get_connection().expect("connect");
    con.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    con
}

/// Everything a redis-rs client sees for a fixed session, as debug text.
fn transcript(port: u16, resp3: bool) -> Vec<String> {
    let mut con = connect(port, resp3);
    let mut log = Vec::new();
    let mut run = |con: &mut redis::Connection, words: &[&str]| {
        let mut cmd = redis::cmd(words[0]);
        for word in &words[1..] {
            cmd.arg(*word);
        }
        let reply: redis::RedisResult<Value> = cmd.query(con);
        log.push(format!("{words:?} -> {reply:?}"));
    };
    for words in [
        &["FLUSHALL"][..],
        &["SET", "lock", "token-a", "NX", "PX", "30000"],
        &["SET", "lock", "token-b", "NX", "PX", "30000"],
        &["GET", "lock"],
        &["EVAL", RELEASE, "1", "lock", "token-b"],
        &["EVAL", RELEASE, "1", "lock", "token-a"],
        &["GET", "lock"],
        &["INCR", "n"],
        &["INCRBY", "n", "41"],
        &["HSET", "h", "a", "1", "b", "2"],
        &["HGETALL", "h"],
        &["ZADD", "z", "1.5", "m", "0.25", "n"],
        &["ZSCORE", "z", "m"],
        &["ZRANGE", "z", "0", "-1", "WITHSCORES"],
        &["ZPOPMIN", "z"],
        &["GET", "h"],
        &["NOSUCHCOMMAND", "x"],
        &["SELECT", "3"],
        &["GET", "n"],
        &["SELECT", "0"],
        &["SET", "brief", "x", "PX", "100"],
    ] {
        run(&mut con, words);
    }
    // Expiry runs on the wall clock.
    thread::sleep(Duration::from_millis(250));
    run(&mut con, &["GET", "brief"]);
    run(&mut con, &["PTTL", "brief"]);
    let sha: String = redis::cmd("SCRIPT")
        .arg("LOAD")
        .arg(RELEASE)
        .query(&mut con)
        .expect("SCRIPT LOAD");
    let _: () = con.set("lock", "mine").expect("SET");
    let released: i64 = redis::cmd("EVALSHA")
        .arg(&sha)
        .arg(1)
        .arg("lock")
        .arg("mine")
        .query(&mut con)
        .expect("EVALSHA");
    log.push(format!("evalsha -> {released}"));
    let piped: redis::RedisResult<Vec<Value>> = redis::pipe()
        .cmd("SET")
        .arg("p")
        .arg("1")
        .cmd("INCR")
        .arg("p")
        .cmd("GET")
        .arg("p")
        .query(&mut con);
    log.push(format!("pipeline -> {piped:?}"));
    let atomic: redis::RedisResult<Vec<Value>> = redis::pipe()
        .atomic()
        .cmd("INCR")
        .arg("p")
        .cmd("HGETALL")
        .arg("h")
        .cmd("ZSCORE")
        .arg("z")
        .arg("m")
        .query(&mut con);
    log.push(format!("multi/exec -> {atomic:?}"));
    log
}

#[test]
fn redis_rs_gets_the_same_replies_from_both_servers() {
    let Some([ministore, redis]) = both_servers(5000) else {
        return;
    };
    for resp3 in [false, true] {
        let ours = transcript(ministore.port(), resp3);
        let theirs = transcript(redis.port(), resp3);
        for (a, b) in ours.iter().zip(&theirs) {
            assert_eq!(a, b, "resp3={resp3}");
        }
        assert_eq!(ours.len(), theirs.len());
    }
}

#[test]
fn redis_cli_over_tcp_prints_the_same() {
    let input = format!(
        "SET lock token-a NX PX 30000\nGET lock\nEVAL \"{}\" 1 lock token-a\nGET lock\nHSET h f v\nHGETALL h\nZADD z 2 m\nZRANGE z 0 -1 WITHSCORES\nCLIENT SETNAME cli\nCLIENT GETNAME\nPING\nNOSUCH\nHELLO 3\nHGETALL h\nZSCORE z m\nGET nothing\n",
        one_line_release()
    );
    let Some([ministore, redis]) = both_servers(5000) else {
        return;
    };
    let outputs: Vec<String> = [ministore.port(), redis.port()]
        .iter()
        .map(|port| {
            let command = redis_cli(*port, ["--no-raw"]);
            let out = run_with_input(command, input.clone().into_bytes(), Duration::from_secs(20));
            // The client id is the only line that may differ.
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(|line| {
                    if line.starts_with("4# \"id\"") {
                        "4# \"id\" => <id>"
                    } else {
                        line
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    assert_eq!(outputs[0], outputs[1]);
    assert!(
        outputs[0].contains("(integer) 1\n(nil)\n"),
        "the release deleted the lock: {}",
        outputs[0]
    );
    assert!(outputs[0].contains("1# \"f\" => \"v\""), "{}", outputs[0]);
}

/// A release that announces itself, as Redisson's unlock does: the token check of the
/// brief's release, then PUBLISH from inside the script; replies how many listeners heard it.
const UNLOCK_AND_PUBLISH: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return redis.call('PUBLISH', KEYS[2], KEYS[1])
end
return -1";

/// The release script on one line for redis-cli, its comment line dropped.
fn one_line_release() -> String {
    RELEASE
        .lines()
        .filter(|line| !line.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join(" ")
        .replace('"', "\\\"")
}

/// Two clients take turns on one lock: SET NX PX to acquire, the release script to let go.
/// Returns how many times a holder found someone else inside the critical section.
fn race_for_the_lock(port: u16) -> usize {
    let overlaps = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = ["alice", "bob"]
        .into_iter()
        .map(|me| {
            let overlaps = overlaps.clone();
            thread::spawn(move || {
                let mut con = connect(port, false);
                let sha: String = redis::cmd("SCRIPT")
                    .arg("LOAD")
                    .arg(RELEASE)
                    .query(&mut con)
                    .unwrap();
                for round in 0..60 {
                    let token = format!("{me}-{round}");
                    let deadline = Instant::now() + Duration::from_secs(20);
                    loop {
                        let got: Option<String> = redis::cmd("SET")
                            .arg("resource:lock")
                            .arg(&token)
                            .arg("NX")
                            .arg("PX")
                            .arg(5000)
                            .query(&mut con)
                            .unwrap();
                        if got.is_some() {
                            break;
                        }
                        assert!(Instant::now() < deadline, "{me} never got the lock");
                        thread::sleep(Duration::from_micros(200));
                    }
                    let inside: i64 = con.incr("inside", 1).unwrap();
                    if inside != 1 {
                        overlaps.fetch_add(1, Ordering::Relaxed);
                    }
                    let _: i64 = con.decr("inside", 1).unwrap();
                    let released: i64 = redis::cmd("EVALSHA")
                        .arg(&sha)
                        .arg(1)
                        .arg("resource:lock")
                        .arg(&token)
                        .query(&mut con)
                        .unwrap();
                    assert_eq!(released, 1, "{me} released its own lock");
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().expect("a racer failed");
    }
    overlaps.load(Ordering::Relaxed)
}

#[test]
fn two_clients_race_for_a_lock_with_the_brief_scripts() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let port = server.port();
        assert_eq!(race_for_the_lock(port), 0, "{}", server.name());
        // The lost-lock case: alice's lease runs out, bob takes the lock, and alice's late
        // release must not delete bob's.
        let mut alice = connect(port, false);
        let mut bob = connect(port, false);
        let set = |con: &mut redis::Connection, token: &str| -> Option<String> {
            redis::cmd("SET")
                .arg("resource:lock")
                .arg(token)
                .arg("NX")
                .arg("PX")
                .arg(150)
                .query(con)
                .unwrap()
        };
        assert!(set(&mut alice, "alice-token").is_some());
        thread::sleep(Duration::from_millis(300));
        assert!(
            set(&mut bob, "bob-token").is_some(),
            "{}: the lease expired",
            server.name()
        );
        let release = |con: &mut redis::Connection, token: &str| -> i64 {
            redis::cmd("EVAL")
                .arg(RELEASE)
                .arg(1)
                .arg("resource:lock")
                .arg(token)
                .query(con)
                .unwrap()
        };
        assert_eq!(release(&mut alice, "alice-token"), 0);
        let holder: Option<String> = bob.get("resource:lock").unwrap();
        assert_eq!(holder.as_deref(), Some("bob-token"));
        assert_eq!(release(&mut bob, "bob-token"), 1);
    }
}

#[test]
fn a_waiter_wakes_on_the_unlock_message() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let port = server.port();
        let mut holder = connect(port, false);
        let _: () = holder.set("resource:lock", "holder").unwrap();
        let waiter = thread::spawn(move || {
            let mut listen = connect(port, false);
            let mut con = connect(port, false);
            let mut pubsub = listen.as_pubsub();
            pubsub.subscribe("lock-released").unwrap();
            pubsub
                .set_read_timeout(Some(Duration::from_secs(10)))
                .unwrap();
            loop {
                let got: Option<String> = redis::cmd("SET")
                    .arg("resource:lock")
                    .arg("waiter")
                    .arg("NX")
                    .query(&mut con)
                    .unwrap();
                if got.is_some() {
                    return true;
                }
                let message = pubsub.get_message().expect("the unlock message");
                let payload: String = message.get_payload().unwrap();
                assert_eq!(payload, "resource:lock");
            }
        });
        // Wait until the waiter listens, then release and announce it.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let counts: Vec<Value> = redis::cmd("PUBSUB")
                .arg("NUMSUB")
                .arg("lock-released")
                .query(&mut holder)
                .unwrap();
            if counts.get(1) == Some(&Value::Int(1)) {
                break;
            }
            assert!(Instant::now() < deadline, "the waiter never subscribed");
            thread::sleep(Duration::from_millis(10));
        }
        // Released the way Redisson unlocks: the script deletes and publishes in one step.
        let released: i64 = redis::cmd("EVAL")
            .arg(UNLOCK_AND_PUBLISH)
            .arg(2)
            .arg("resource:lock")
            .arg("lock-released")
            .arg("holder")
            .query(&mut holder)
            .unwrap();
        assert_eq!(released, 1, "{}: one subscriber heard it", server.name());

        assert!(waiter.join().expect("the waiter failed"));
        let owner: Option<String> = holder.get("resource:lock").unwrap();
        assert_eq!(owner.as_deref(), Some("waiter"), "{}", server.name());
    }
}
