//! The test oracle: the one place that starts a real `redis-server` for lockdive's tests and
//! ministore's tests and benchmarks, and the one place that decides what happens when a program
//! they need is missing.
//!
//! It owns:
//! - [`RedisServer`]: a `redis-server` on a free 127.0.0.1 port this process picked, with nothing
//!   persisted (`--save "" --appendonly no`, its files in a temporary directory) and `DEBUG`
//!   enabled (the transcripts use `DEBUG SLEEP`), ready once it answers `PING`, and killed, reaped
//!   and its directory removed on drop;
//! - the policy, [`required`] (and [`require`] for a program alone): under `CI=true` a missing
//!   program, or anything else a test needs and does not find, panics with how to get it;
//!   elsewhere one line on stderr says what was skipped and why, and the caller gets `None` and
//!   returns early;
//! - what the launchers shared: [`free_port`], [`answers_ping`], [`redis_cli`] and
//!   [`run_with_input`] (a program fed on stdin under a time limit).
//!
//! Only the standard library: it is a dev-dependency of the page and of ministore, the browser
//! tests' harness (`lockdive-e2e`) takes its policy, and the benchmarks (ministore's examples) use
//! it too.

use std::ffi::OsStr;
use std::fmt;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How to get every Redis program the tests and benchmarks run (`redis-tools` holds `redis-cli`
/// and `redis-benchmark`).
pub const INSTALL_HINT: &str =
    "install it with `sudo apt-get install redis-server redis-tools` (Debian's Redis 7.0)";

/// How long a started server has to answer `PING`.
const START_WITHIN: Duration = Duration::from_secs(10);

/// A program a test or benchmark needs is not there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// The program's name (`redis-server`).
    pub program: String,
    /// Why it counts as missing: the error starting it, or how `--version` exited.
    pub why: String,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not on PATH ({}); {INSTALL_HINT}",
            self.program, self.why
        )
    }
}

impl std::error::Error for Missing {}

/// Whether `program --version` runs and succeeds.
pub fn find(program: &str) -> Result<(), Missing> {
    let status = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match status {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(Missing {
            program: program.to_string(),
            why: format!("`{program} --version` exited with {status}"),
        }),
        Err(e) => Err(Missing {
            program: program.to_string(),
            why: e.to_string(),
        }),
    }
}

/// Whether this run is CI's: `CI=true`.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// The one policy for something a test needs and does not find: a program ([`Missing`]), or
/// anything else that says what is missing and how to get it (the browser tests' release build).
/// Under `CI=true` it panics (a suite that passes without its oracle proves nothing); elsewhere it
/// prints one line on stderr saying what is skipped and why, and returns `None` so the caller
/// returns early.
///
/// ```no_run
/// # fn a_test() {
/// use redis_oracle::{required, RedisServer};
/// let Some(server) = required(RedisServer::start()) else {
///     return;
/// };
/// # let _ = server;
/// # }
/// ```
#[track_caller]
pub fn required<T, E: fmt::Display>(found: Result<T, E>) -> Option<T> {
    match found {
        Ok(value) => Some(value),
        Err(missing) => {
            assert!(
                !under_ci(),
                "CI=true and {missing}: the test cannot run, and must not be skipped"
            );
            // libtest names each test's thread after the test.
            let thread = std::thread::current();
            let what = match thread.name() {
                Some(name) if name != "main" => name.to_string(),
                _ => std::env::args().next().unwrap_or_default(),
            };
            // Straight to stderr in one write, not `eprintln!`: libtest captures that for a
            // passing test, and a skip must be seen.
            let line = format!("skipped {what}: {missing}\n");
            let _ = std::io::stderr().lock().write_all(line.as_bytes());
            None
        }
    }
}

/// [`required`] for a program alone: `Some(())` when `program --version` runs.
pub fn require(program: &str) -> Option<()> {
    required(find(program))
}

/// A free TCP port on 127.0.0.1 (the kernel's pick; free when this returns).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("bind an ephemeral port on 127.0.0.1")
        .port()
}

/// Whether something on `127.0.0.1:port` answers an inline `PING` with `+PONG` within `within`.
pub fn answers_ping(port: u16, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    loop {
        if let Ok(mut conn) = TcpStream::connect(("127.0.0.1", port)) {
            let _ = conn.set_read_timeout(Some(Duration::from_millis(500)));
            let mut buf = [0u8; 7];
            if conn.write_all(b"PING\r\n").is_ok()
                && conn.read_exact(&mut buf).is_ok()
                && &buf == b"+PONG\r\n"
            {
                return true;
            }
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `redis-cli -p PORT ARGS…`, to run or to feed: any server on 127.0.0.1, Redis or ministore.
pub fn redis_cli<I, S>(port: u16, args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new("redis-cli");
    command.args(["-p", &port.to_string()]).args(args);
    command
}

/// Runs a program with `input` on stdin (written from another thread, so a long input cannot
/// dead-lock against a full stdout pipe) and kills it if it outlives `limit`.
pub fn run_with_input(mut command: Command, input: Vec<u8>, limit: Duration) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {command:?}: {e}"));
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || {
        // The program may exit early (a crash); a broken pipe is then expected.
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        buf
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().expect("poll child") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let status = child.wait().expect("reap killed child");
            eprintln!("redis-oracle: {command:?} ran past {limit:?} and was killed");
            break status;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let _ = writer.join();
    Output {
        status,
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
    }
}

/// A `redis-server` this process started on a free 127.0.0.1 port; killed, reaped and its
/// directory removed on drop.
pub struct RedisServer {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl RedisServer {
    /// Starts `redis-server` and waits until it answers `PING`. `Err` only when `redis-server`
    /// or `redis-cli` is missing (hand it to [`required`]); a server that is there but does not
    /// come up panics with its log.
    pub fn start() -> Result<RedisServer, Missing> {
        RedisServer::start_with(&[])
    }

    /// [`RedisServer::start`] with extra options after the oracle's own
    /// (`["--busy-reply-threshold", "200"]`).
    pub fn start_with(extra: &[&str]) -> Result<RedisServer, Missing> {
        find("redis-server")?;
        find("redis-cli")?;
        // The port is free when picked but may be taken before the server binds it: try again.
        let mut failures = Vec::new();
        for _ in 0..3 {
            match RedisServer::spawn(extra)? {
                Ok(server) => return Ok(server),
                Err(failure) => failures.push(failure),
            }
        }
        panic!(
            "redis-server did not start in 3 tries:\n{}",
            failures.join("\n")
        );
    }

    /// One try: the server answering `PING`, or what went wrong with its log.
    fn spawn(extra: &[&str]) -> Result<Result<RedisServer, String>, Missing> {
        let port = free_port();
        let dir = std::env::temp_dir().join(format!("redis-oracle-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create the server's temporary directory");
        let log_path = dir.join("redis.log");
        let log = std::fs::File::create(&log_path).expect("create the server's log");
        let spawned = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .args(["--enable-debug-command", "yes"])
            .args(extra)
            .arg("--dir")
            .arg(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::from(log.try_clone().expect("clone the log handle")))
            .stderr(Stdio::from(log))
            .spawn();
        let child = match spawned {
            Ok(child) => child,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&dir);
                if e.kind() == std::io::ErrorKind::NotFound {
                    return Err(Missing {
                        program: "redis-server".to_string(),
                        why: e.to_string(),
                    });
                }
                panic!("spawn redis-server: {e}");
            }
        };
        let mut server = RedisServer { child, port, dir };
        let deadline = Instant::now() + START_WITHIN;
        while Instant::now() < deadline {
            if answers_ping(port, Duration::ZERO) {
                return Ok(Ok(server));
            }
            if let Ok(Some(status)) = server.child.try_wait() {
                let log = std::fs::read_to_string(&log_path).unwrap_or_default();
                return Ok(Err(format!(
                    "redis-server on 127.0.0.1:{port} exited with {status}; its log:\n{log}"
                )));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let log = std::fs::read_to_string(&log_path).unwrap_or_default();
        Ok(Err(format!(
            "redis-server on 127.0.0.1:{port} did not answer PING within {START_WITHIN:?}; its log:\n{log}"
        )))
    }

    /// The loopback port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `redis-cli -p PORT ARGS…` against this server.
    pub fn cli<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        redis_cli(self.port, args)
    }

    /// Pipes the lines through `redis-cli --no-raw` (one per line) and returns what it printed.
    pub fn replay<S: AsRef<str>>(&self, lines: &[S]) -> String {
        let mut input = String::new();
        for line in lines {
            input.push_str(line.as_ref());
            input.push('\n');
        }
        let out = run_with_input(
            self.cli(["--no-raw"]),
            input.into_bytes(),
            Duration::from_secs(600),
        );
        assert!(out.status.success(), "redis-cli --no-raw failed: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `FLUSHALL` and `SCRIPT FLUSH`, so what comes next starts from an empty server.
    pub fn reset(&self) {
        for command in [&["FLUSHALL"][..], &["SCRIPT", "FLUSH"][..]] {
            let out = self.cli(command).output().expect("run redis-cli");
            let text = String::from_utf8_lossy(&out.stdout);
            assert_eq!(text.trim(), "OK", "redis-cli {command:?} failed: {text}");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_that_is_not_there_is_missing_with_its_reason() {
        let missing = find("redis-oracle-no-such-program").expect_err("not on PATH");
        assert_eq!(missing.program, "redis-oracle-no-such-program");
        assert!(missing.to_string().contains(INSTALL_HINT), "{missing}");
    }

    #[test]
    fn the_server_answers_and_is_gone_after_drop() {
        let Some(server) = required(RedisServer::start()) else {
            return;
        };
        let port = server.port();
        let out = server.cli(["SET", "k", "v"]).output().expect("redis-cli");
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "OK");
        assert_eq!(server.replay(&["GET k", "DEBUG SLEEP 0"]), "\"v\"\nOK\n");
        server.reset();
        assert_eq!(server.replay(&["DBSIZE"]), "(integer) 0\n");
        drop(server);
        assert!(!answers_ping(port, Duration::ZERO));
    }
}
