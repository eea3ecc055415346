//! A differential check against real Redis: seeded random command lines over every command
//! family (valid ones, near misses and plain garbage) go to a redis-server started here on a
//! free 127.0.0.1 port and to a `Store`, and every reply must be equal.
//!
//! Lines whose outcome depends on real time passing are not generated: Redis's clock runs
//! while the test talks to it, ministore's virtual clock does not (so no TTL/PTTL reads, no
//! short leases, no EXPIRE GT/LT). `DIFFERENTIAL_ROUNDS=n` runs more rounds.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ministore::{Reply, Store};

/// Command lines per round; each round starts from an empty keyspace on both sides.
const LINES_PER_ROUND: usize = 1500;

/// A redis-server this test started; killed and its directory removed on drop.
struct RedisServer {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl RedisServer {
    fn start() -> RedisServer {
        let found = Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        assert!(
            found,
            "`redis-server` is not on PATH (CI={}), so ministore cannot be compared with real \
             Redis; install it with `sudo apt-get install redis-server redis-tools`",
            std::env::var("CI").unwrap_or_default()
        );
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("pick a free port")
            .port();
        let dir = std::env::temp_dir().join(format!(
            "ministore-differential-{}-{port}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("create the server's directory");
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .arg("--dir")
            .arg(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn redis-server");
        RedisServer { child, port, dir }
    }

    fn connect(&self) -> Resp {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Ok(stream) = TcpStream::connect(("127.0.0.1", self.port)) {
                stream
                    .set_read_timeout(Some(Duration::from_secs(10)))
                    .expect("set a read timeout");
                let mut resp = Resp {
                    reader: BufReader::new(stream.try_clone().expect("clone the stream")),
                    writer: stream,
                };
                if resp.call(&[b"PING".to_vec()]) == Reply::Status("PONG".into()) {
                    return resp;
                }
            }
            assert!(
                Instant::now() < deadline,
                "redis-server on port {} did not answer PING within 10 s",
                self.port
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A RESP2 connection: commands out as arrays of bulk strings, replies read back as [`Reply`].
struct Resp {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Resp {
    fn call(&mut self, words: &[Vec<u8>]) -> Reply {
        let mut out = format!("*{}\r\n", words.len()).into_bytes();
        for word in words {
            out.extend_from_slice(format!("${}\r\n", word.len()).as_bytes());
            out.extend_from_slice(word);
            out.extend_from_slice(b"\r\n");
        }
        self.writer
            .write_all(&out)
            .expect("send a command to redis");
        self.read_reply()
    }

    fn read_line(&mut self) -> String {
        let mut line = Vec::new();
        self.reader
            .read_until(b'\n', &mut line)
            .expect("read a reply line from redis");
        assert!(line.ends_with(b"\r\n"), "a truncated reply line from redis");
        line.truncate(line.len() - 2);
        String::from_utf8_lossy(&line).into_owned()
    }

    fn read_reply(&mut self) -> Reply {
        let line = self.read_line();
        let (kind, rest) = line.split_at(1);
        let number = || rest.parse::<i64>().expect("a length or integer from redis");
        match kind {
            "+" => Reply::Status(rest.to_string()),
            "-" => Reply::Error(rest.to_string()),
            ":" => Reply::Integer(number()),
            "$" if number() < 0 => Reply::Nil,
            "$" => {
                let len = usize::try_from(number()).expect("a bulk length");
                let mut bytes = vec![0; len + 2];
                self.reader
                    .read_exact(&mut bytes)
                    .expect("read a bulk string from redis");
                bytes.truncate(len);
                Reply::Bulk(bytes)
            }
            "*" if number() < 0 => Reply::Nil,
            "*" => Reply::Array((0..number()).map(|_| self.read_reply()).collect()),
            _ => panic!("unexpected reply line from redis: {line:?}"),
        }
    }
}

/// xorshift64*: a seeded, dependency-free source of choices, so a failure names its seed.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    fn pick<'a>(&mut self, options: &[&'a str]) -> &'a str {
        options[self.below(options.len())]
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const KEYS: &[&str] = &["k", "h", "z", "s", "lex", "n"];
const LONG_MEMBER: &str = "a-member-longer-than-the-64-bytes-that-redis-keeps-in-a-listpack-xxxx";
const MEMBERS: &[&str] = &["a", "b", "bb", "c", "apple", "x", "", LONG_MEMBER];
/// Hash fields stay short: a long one turns a Redis hash into a hashtable with random order.
const FIELDS: &[&str] = &["a", "b", "bb", "c", "apple", "x", ""];
const SCORES: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "1.5",
    "0.1",
    "-0",
    "inf",
    "-inf",
    "+inf",
    "1e3",
    "3",
    "2.5",
    "0x10",
    "1e-5",
    "123456789.123",
    "nan",
    "x",
    "",
    " 1",
    "1e400",
];
const BOUNDS: &[&str] = &[
    "0", "1", "2", "(1", "(2", "-inf", "+inf", "inf", "(", "(-inf", "3", "(3", "1.5", "x", "",
];
const INTEGERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "-2",
    "3",
    "10",
    "-10",
    "x",
    "1.5",
    "+1",
    "01",
    "9223372036854775807",
    "-9223372036854775808",
];
const LEX: &[&str] = &["-", "+", "[a", "(a", "[b", "(bb", "[c", "[x", "a", ""];
const VALUES: &[&str] = &[
    "v",
    "1",
    "2",
    "-5",
    "abc",
    "9223372036854775807",
    "0",
    "01",
    "",
];

fn words(parts: Vec<&str>) -> Vec<Vec<u8>> {
    parts.into_iter().map(|p| p.as_bytes().to_vec()).collect()
}

/// One random command line.
fn command_line(dice: &mut Dice) -> Vec<Vec<u8>> {
    let key = dice.pick(KEYS);
    let line: Vec<&str> = match dice.below(31) {
        0..=3 => {
            let mut line = vec!["ZADD", key];
            let flags = ["NX", "XX", "GT", "LT", "CH", "INCR"];
            for _ in 0..dice.below(3) {
                line.push(flags[dice.below(flags.len())]);
            }
            for _ in 0..1 + dice.below(3) {
                line.push(dice.pick(SCORES));
                line.push(dice.pick(MEMBERS));
            }
            line
        }
        4..=6 => {
            let (kind, range) = match dice.below(3) {
                0 => (None, INTEGERS),
                1 => (Some("BYSCORE"), BOUNDS),
                _ => (Some("BYLEX"), LEX),
            };
            let mut line = vec!["ZRANGE", key, dice.pick(range), dice.pick(range)];
            line.extend(kind);
            if dice.chance(30) {
                line.push("REV");
            }
            if dice.chance(30) {
                line.extend(["LIMIT", dice.pick(INTEGERS), dice.pick(INTEGERS)]);
            }
            if dice.chance(40) {
                line.push("WITHSCORES");
            }
            line
        }
        7 => {
            let mut line = vec!["ZRANGEBYSCORE", key, dice.pick(BOUNDS), dice.pick(BOUNDS)];
            if dice.chance(40) {
                line.push("WITHSCORES");
            }
            if dice.chance(40) {
                line.extend(["LIMIT", dice.pick(INTEGERS), dice.pick(INTEGERS)]);
            }
            line
        }
        8 => vec!["ZREM", key, dice.pick(MEMBERS), dice.pick(MEMBERS)],
        9 => vec!["ZSCORE", key, dice.pick(MEMBERS)],
        10 => vec!["ZCARD", key],
        11 if dice.chance(50) => vec!["ZPOPMIN", key],
        11 => vec!["ZPOPMIN", key, dice.pick(INTEGERS)],
        12 | 13 => {
            let mut line = vec!["SET", key, dice.pick(VALUES)];
            let options = ["NX", "XX", "GET", "KEEPTTL"];
            for _ in 0..dice.below(3) {
                line.push(options[dice.below(options.len())]);
            }
            if dice.chance(30) {
                line.push(dice.pick(&["EX", "PX"]));
                line.push(dice.pick(&["100000", "0", "-1", "x", "200000"]));
            }
            line
        }
        14 => vec!["GET", key],
        15 => vec![dice.pick(&["INCR", "DECR"]), key],
        16 => vec![dice.pick(&["INCRBY", "DECRBY"]), key, dice.pick(INTEGERS)],
        17 | 18 => {
            let mut line = vec!["HSET", key];
            for _ in 0..1 + dice.below(3) {
                line.push(dice.pick(FIELDS));
                line.push(dice.pick(VALUES));
            }
            line
        }
        19 => vec!["HGET", key, dice.pick(FIELDS)],
        20 => vec!["HDEL", key, dice.pick(FIELDS), dice.pick(FIELDS)],
        21 => vec!["HGETALL", key],
        22 => vec!["HINCRBY", key, dice.pick(FIELDS), dice.pick(INTEGERS)],
        23 => vec!["HMGET", key, dice.pick(FIELDS), dice.pick(FIELDS)],
        24 => vec![dice.pick(&["HEXISTS", "HLEN"]), key, dice.pick(FIELDS)],
        25 => vec![dice.pick(&["DEL", "EXISTS"]), key, dice.pick(KEYS)],
        26 => vec!["TYPE", key],
        27 => {
            let mut line = vec![
                dice.pick(&["EXPIRE", "PEXPIRE"]),
                key,
                dice.pick(&["100000", "0", "-1", "x"]),
            ];
            if dice.chance(30) {
                line.push(dice.pick(&["NX", "XX", "FOO"]));
            }
            line
        }
        28 => vec!["PERSIST", key],
        29 => match dice.below(8) {
            0 => vec!["ZINCRBY", key, dice.pick(SCORES), dice.pick(MEMBERS)],
            1 => vec!["ZCOUNT", key, dice.pick(BOUNDS), dice.pick(BOUNDS)],
            2 => vec![dice.pick(&["ZRANK", "ZREVRANK"]), key, dice.pick(MEMBERS)],
            3 => vec![
                "ZREVRANGE",
                key,
                dice.pick(INTEGERS),
                dice.pick(INTEGERS),
                "WITHSCORES",
            ],
            4 => vec![
                "ZREVRANGEBYSCORE",
                key,
                dice.pick(BOUNDS),
                dice.pick(BOUNDS),
            ],
            5 => vec!["HSETNX", key, dice.pick(FIELDS), dice.pick(VALUES)],
            6 => vec![dice.pick(&["HKEYS", "HVALS"]), key],
            _ => vec![dice.pick(&["MGET", "SETNX"]), key, dice.pick(KEYS)],
        },
        // Garbage: a known command with arbitrary words, or too few of them.
        _ => {
            let names = [
                "SET", "ZADD", "ZRANGE", "HSET", "GET", "ZPOPMIN", "EXPIRE", "NOPE",
            ];
            let mut line = vec![names[dice.below(names.len())]];
            for _ in 0..dice.below(5) {
                line.push(dice.pick(&[key, "NX", "1", "(1", "LIMIT", "WITHSCORES", "x", ""]));
            }
            line
        }
    };
    words(line)
}

fn show(words: &[Vec<u8>]) -> String {
    words
        .iter()
        .map(|w| format!("{:?}", String::from_utf8_lossy(w)))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn random_command_lines_get_the_same_replies_as_real_redis() {
    let server = RedisServer::start();
    let mut redis = server.connect();
    let rounds: u64 = std::env::var("DIFFERENTIAL_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(12);
    let mut compared = 0;
    for seed in 1..=rounds {
        assert_eq!(redis.call(&words(vec!["FLUSHALL"])), Reply::ok());
        let mut store = Store::new();
        let mut dice = Dice(0x9e37_79b9_7f4a_7c15 ^ seed.wrapping_mul(0x1000_0000_01b3));
        let mut history: Vec<String> = Vec::new();
        for line in 0..LINES_PER_ROUND {
            let command = command_line(&mut dice);
            let expected = redis.call(&command);
            let got = store.exec(&command);
            history.push(show(&command));
            let context = history[history.len().saturating_sub(8)..].join("\n  ");
            assert_eq!(
                got, expected,
                "seed {seed}, line {line}: ministore differs from Redis on the last of:\n  {context}"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, rounds as usize * LINES_PER_ROUND);
}
