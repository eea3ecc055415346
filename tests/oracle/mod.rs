//! The oracle the scenario tests replay through: a real redis-server on a free 127.0.0.1 port
//! (DEBUG enabled, stopped on drop) and `redis-cli --no-raw` to print its replies. A missing
//! server fails the test under CI=true; elsewhere the replay is skipped with a note.

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A redis-server this test started.
pub struct RedisServer {
    child: Child,
    port: u16,
}

impl RedisServer {
    /// Starts the server and waits until it accepts connections; `None` (with a note) when
    /// redis-server is missing outside CI.
    pub fn start() -> Option<RedisServer> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port on 127.0.0.1");
        let spawned = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .args(["--enable-debug-command", "yes"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let child = match spawned {
            Ok(child) => child,
            Err(e) => {
                assert!(
                    std::env::var("CI").as_deref() != Ok("true"),
                    "redis-server is required under CI=true: {e}"
                );
                eprintln!("redis-server not found ({e}); skipping the real-Redis replay");
                return None;
            }
        };
        let server = RedisServer { child, port };
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "redis-server did not start on port {port}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(server)
    }

    /// Pipes the lines through `redis-cli --no-raw` and returns what it printed.
    pub fn replay(&self, lines: &[String]) -> String {
        let mut cli = Command::new("redis-cli")
            .args(["-p", &self.port.to_string(), "--no-raw"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("redis-cli (redis-tools) is installed beside redis-server");
        let mut input = lines.join("\n");
        input.push('\n');
        // Written from another thread: redis-cli answers as it reads, and a long transcript would
        // fill its stdout pipe while this thread still writes.
        let mut stdin = cli.stdin.take().expect("piped stdin");
        let writer = std::thread::spawn(move || {
            stdin
                .write_all(input.as_bytes())
                .expect("commands written to redis-cli");
        });
        let out = cli.wait_with_output().expect("redis-cli ran");
        writer.join().expect("the writer thread finished");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
