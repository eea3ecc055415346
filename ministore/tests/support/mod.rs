//! What the real-Redis tests share beyond the oracle itself (the redis-server, the policy for a
//! missing one and running a program with a time limit are `redis_oracle`'s): the marker
//! protocol that cuts two redis-cli-style outputs into per-command blocks and reports every
//! differing block, a `ministore serve` started the same way, both servers side by side, and a
//! raw RESP client.

#![allow(dead_code)] // each test binary uses a different part of it

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use redis_oracle::{answers_ping, free_port, required, RedisServer};

/// Marker the harness echoes after every command so both outputs can be cut per command.
pub const MARKER: &str = "@@conformance-line ";

/// One command line of a conformance file.
pub struct CommandLine {
    /// 1-based line number in its file.
    pub line_no: usize,
    /// The line as written.
    pub text: String,
}

pub fn command_lines(source: &str) -> Vec<CommandLine> {
    source
        .lines()
        .enumerate()
        .filter(|(_, line)| {
            let trimmed = line.trim_start();
            !trimmed.is_empty() && !trimmed.starts_with('#')
        })
        .map(|(i, line)| CommandLine {
            line_no: i + 1,
            text: line.to_string(),
        })
        .collect()
}

/// The input both sides get: every command followed by an ECHO of its line number.
pub fn marked_input(commands: &[CommandLine]) -> Vec<u8> {
    let mut input = String::new();
    for command in commands {
        let _ = writeln!(
            input,
            "{}\nECHO \"{MARKER}{}\"",
            command.text, command.line_no
        );
    }
    input.into_bytes()
}

/// Cuts an output into the lines each command printed, keyed by the marker that follows them.
pub fn split_by_marker(output: &str) -> Vec<(usize, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut current = Vec::new();
    for line in output.lines() {
        let marker = line
            .strip_prefix('"')
            .and_then(|l| l.strip_prefix(MARKER))
            .and_then(|l| l.strip_suffix('"'))
            .and_then(|n| n.parse::<usize>().ok());
        match marker {
            Some(line_no) => blocks.push((line_no, std::mem::take(&mut current))),
            None => current.push(line.to_string()),
        }
    }
    if !current.is_empty() {
        blocks.push((0, current));
    }
    blocks
}

/// Compares one file's two outputs and describes every mismatch.
pub fn diff_file(
    file: &Path,
    commands: &[CommandLine],
    expected: &Output,
    got: &Output,
) -> Vec<String> {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let expected_blocks: HashMap<usize, Vec<String>> =
        split_by_marker(&String::from_utf8_lossy(&expected.stdout))
            .into_iter()
            .collect();
    let got_blocks: HashMap<usize, Vec<String>> =
        split_by_marker(&String::from_utf8_lossy(&got.stdout))
            .into_iter()
            .collect();
    let mut problems = Vec::new();
    // Inside MULTI the marker ECHO is queued too, so the lines of a block print no marker of
    // their own; their replies are compared in the block of the line that ends it (EXEC).
    let last_marked = expected_blocks.keys().copied().max().unwrap_or(0);
    for command in commands {
        let queued_in_both = !expected_blocks.contains_key(&command.line_no)
            && !got_blocks.contains_key(&command.line_no)
            && command.line_no < last_marked;
        if queued_in_both {
            continue;
        }
        let Some(want) = expected_blocks.get(&command.line_no) else {
            problems.push(format!(
                "{name}:{}: redis-cli printed no reply block for `{}` (does the line quit redis-cli?)",
                command.line_no, command.text
            ));
            continue;
        };
        let have = got_blocks.get(&command.line_no);
        if have != Some(want) {
            let got_text = match have {
                Some(lines) => lines.join("\n            "),
                None => "<no reply block: ministore stopped before this line>".to_string(),
            };
            problems.push(format!(
                "{name}:{}: {}\n  expected: {}\n  got:      {}",
                command.line_no,
                command.text,
                want.join("\n            "),
                got_text
            ));
        }
    }
    if !got.status.success() || !got.stderr.is_empty() {
        problems.push(format!(
            "{name}: ministore exited with {} and stderr:\n{}",
            got.status,
            String::from_utf8_lossy(&got.stderr)
        ));
    }
    if let Some(trailing) = got_blocks.get(&0) {
        problems.push(format!(
            "{name}: ministore printed lines after the last command: {trailing:?}"
        ));
    }
    problems
}

/// A `ministore serve` this test started on a free port; killed on drop.
pub struct MinistoreServer {
    child: Child,
    /// The loopback port it listens on.
    pub port: u16,
}

impl MinistoreServer {
    /// Starts `ministore serve --port P` plus `extra` options and waits until it answers PING.
    pub fn start(extra: &[&str]) -> MinistoreServer {
        let port = free_port();
        let child = Command::new(env!("CARGO_BIN_EXE_ministore"))
            .args(["serve", "--port", &port.to_string()])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn ministore serve");
        let server = MinistoreServer { child, port };
        assert!(
            answers_ping(port, Duration::from_secs(10)),
            "ministore serve on 127.0.0.1:{port} did not answer PING within 10 s"
        );
        server
    }
}

impl Drop for MinistoreServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The two servers a client test runs against, by name: a fresh `ministore serve` and a fresh
/// redis-server, both started with the same busy-script threshold.
pub enum AnyServer {
    Ministore(MinistoreServer),
    Redis(RedisServer),
}

impl AnyServer {
    /// Its port.
    pub fn port(&self) -> u16 {
        match self {
            AnyServer::Ministore(s) => s.port,
            AnyServer::Redis(s) => s.port(),
        }
    }

    /// "ministore" or "redis-server", for assertion messages.
    pub fn name(&self) -> &'static str {
        match self {
            AnyServer::Ministore(_) => "ministore",
            AnyServer::Redis(_) => "redis-server",
        }
    }
}

/// Both servers, with the busy-reply threshold at `busy_ms` on each; `None` (the test returns)
/// when redis-server is missing outside CI, by [`redis_oracle::required`].
pub fn both_servers(busy_ms: u64) -> Option<[AnyServer; 2]> {
    let busy = busy_ms.to_string();
    let redis = required(RedisServer::start_with(&["--busy-reply-threshold", &busy]))?;
    Some([
        AnyServer::Ministore(MinistoreServer::start(&["--busy-reply-threshold", &busy])),
        AnyServer::Redis(redis),
    ])
}

/// A raw RESP connection for byte-exact checks.
pub struct RawClient {
    reader: std::io::BufReader<TcpStream>,
    writer: TcpStream,
}

impl RawClient {
    /// Connects to `127.0.0.1:port` with a 10 s read timeout.
    pub fn connect(port: u16) -> RawClient {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .expect("read timeout");
        let writer = stream.try_clone().expect("clone stream");
        RawClient {
            reader: std::io::BufReader::new(stream),
            writer,
        }
    }

    /// Sends bytes as they are.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).expect("write");
    }

    /// Sends one command as a multibulk.
    pub fn send(&mut self, words: &[&str]) {
        self.send_raw(&multibulk(words));
    }

    /// Sends one command and reads its (single-frame) reply.
    pub fn call(&mut self, words: &[&str]) -> String {
        self.send(words);
        self.read()
    }

    /// Reads one whole frame, returned as its raw text (lossy UTF-8).
    pub fn read(&mut self) -> String {
        let mut raw = Vec::new();
        read_frame(&mut self.reader, &mut raw).expect("read a reply frame");
        String::from_utf8_lossy(&raw).into_owned()
    }

    /// Reads until the server closes; what came before the close.
    pub fn read_to_close(&mut self) -> String {
        let mut rest = Vec::new();
        let _ = self.reader.read_to_end(&mut rest);
        String::from_utf8_lossy(&rest).into_owned()
    }

    /// The underlying stream, to set timeouts or shut down.
    pub fn stream(&self) -> &TcpStream {
        &self.writer
    }
}

/// `words` as a RESP multibulk request.
pub fn multibulk(words: &[&str]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", words.len()).into_bytes();
    for word in words {
        out.extend_from_slice(format!("${}\r\n{word}\r\n", word.len()).as_bytes());
    }
    out
}

/// Reads one RESP2/RESP3 frame's bytes into `raw`.
pub fn read_frame(reader: &mut impl std::io::BufRead, raw: &mut Vec<u8>) -> std::io::Result<()> {
    let start = raw.len();
    let n = reader.read_until(b'\n', raw)?;
    if n == 0 {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    let line = String::from_utf8_lossy(&raw[start..])
        .trim_end()
        .to_string();
    let (kind, rest) = line.split_at(1);
    let count: i64 = rest.parse().unwrap_or(0);
    match kind {
        "$" | "=" | "!" if count >= 0 => {
            let mut body = vec![0u8; usize::try_from(count).unwrap_or(0) + 2];
            reader.read_exact(&mut body)?;
            raw.extend_from_slice(&body);
        }
        "*" | "~" | ">" if count > 0 => {
            for _ in 0..count {
                read_frame(reader, raw)?;
            }
        }
        "%" if count > 0 => {
            for _ in 0..count * 2 {
                read_frame(reader, raw)?;
            }
        }
        _ => {}
    }
    Ok(())
}
