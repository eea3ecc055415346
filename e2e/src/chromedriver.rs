//! Debian's chromedriver, started on a free 127.0.0.1 port in a process group of its own, and the headless
//! Chromium session every test and the benchmark open through it. Dropping it kills the whole group, so the
//! Chromium it launched dies with it even when a test panics half-way.

use std::error::Error;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use fantoccini::{Client, ClientBuilder};

pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// A running chromedriver plus the fresh profile folder its browser uses.
pub struct ChromeDriver {
    pub port: u16,
    /// A new, empty `--user-data-dir` for this browser only.
    pub profile_dir: PathBuf,
    child: Child,
}

impl ChromeDriver {
    /// Starts chromedriver and waits until it reports ready.
    pub fn start() -> Result<Self, String> {
        installed()?;
        let port = free_port().map_err(|e| format!("no free port for chromedriver: {e}"))?;
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let profile_dir =
            std::env::temp_dir().join(format!("lockdive-e2e-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&profile_dir)
            .map_err(|e| format!("cannot create {}: {e}", profile_dir.display()))?;
        // Chromium makes scratch folders under TMPDIR and removes them only on a clean exit; the
        // browser is killed when the driver is dropped, so they go in the profile, removed then.
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .env("TMPDIR", &profile_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start {CHROMEDRIVER}: {e}"))?;
        let driver = Self {
            port,
            profile_dir,
            child,
        };
        driver.wait_until_ready(Duration::from_secs(20))?;
        Ok(driver)
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Opens a WebDriver session on headless Chromium: the flags every browser run here shares (no
    /// sandbox, GPU, first-run or background traffic; this driver's fresh profile; a 1280×900 window)
    /// plus `extra_args`, and any further capabilities (e.g. `goog:loggingPrefs`).
    pub async fn open_session(
        &self,
        extra_args: &[&str],
        mut capabilities: serde_json::Map<String, serde_json::Value>,
    ) -> Result<Client, Box<dyn Error>> {
        let mut args = vec![
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            format!("--user-data-dir={}", self.profile_dir.display()),
            "--window-size=1280,900".into(),
        ];
        args.extend(extra_args.iter().map(|a| a.to_string()));
        capabilities.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({ "binary": CHROMIUM, "args": args }),
        );
        // fantoccini without TLS features takes a plain HTTP connector: chromedriver is on 127.0.0.1.
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(capabilities)
            .connect(&self.url())
            .await?;
        Ok(client)
    }

    fn wait_until_ready(&self, limit: Duration) -> Result<(), String> {
        let started = Instant::now();
        while started.elapsed() < limit {
            if let Ok(status) = http_request(self.port, "GET", "/status", None) {
                if status.contains("\"ready\":true") {
                    return Ok(());
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(format!(
            "chromedriver did not become ready within {limit:?}"
        ))
    }
}

/// Whether Debian's chromium and chromedriver are where the harness starts them; `Err` says which
/// is missing and how to install it.
pub fn installed() -> Result<(), String> {
    for program in [CHROMEDRIVER, CHROMIUM] {
        if !PathBuf::from(program).is_file() {
            return Err(format!(
                "{program} is missing: install Debian's chromium and chromium-driver \
                 (./scripts/test.sh does it for you)"
            ));
        }
    }
    Ok(())
}

/// Everything the browser wrote to its console since the last call (needs `goog:loggingPrefs`), from
/// the chromedriver on `port`. Each entry is chromedriver's JSON (`level`, `message`, `source`).
pub fn browser_log(port: u16, session_id: &str) -> Result<Vec<serde_json::Value>, String> {
    let body = http_request(
        port,
        "POST",
        &format!("/session/{session_id}/se/log"),
        Some(r#"{"type":"browser"}"#),
    )
    .map_err(|e| format!("reading the browser log failed: {e}"))?;
    let reply: serde_json::Value = serde_json::from_str(&body)
        .map_err(|e| format!("browser log reply is not JSON ({e}): {body}"))?;
    match reply.get("value").and_then(|v| v.as_array()) {
        Some(entries) => Ok(entries.clone()),
        None => Err(format!("chromedriver gave no browser log: {body}")),
    }
}

/// Runs one Chrome DevTools Protocol command through chromedriver and returns its result.
pub fn cdp(
    port: u16,
    session_id: &str,
    command: &str,
    params: serde_json::Value,
) -> Result<serde_json::Value, String> {
    let request = serde_json::json!({ "cmd": command, "params": params }).to_string();
    let body = http_request(
        port,
        "POST",
        &format!("/session/{session_id}/goog/cdp/execute"),
        Some(&request),
    )
    .map_err(|e| format!("CDP {command} failed: {e}"))?;
    let reply: serde_json::Value = serde_json::from_str(&body)
        .map_err(|e| format!("CDP {command} reply is not JSON ({e})"))?;
    match reply.get("value") {
        Some(value) if value.get("error").is_none() => Ok(value.clone()),
        _ => Err(format!("CDP {command} failed: {body}")),
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        // The negative pid addresses the group: chromedriver and every Chromium process it started.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile_dir);
    }
}

fn free_port() -> io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// One HTTP/1.1 exchange; returns the response body. chromedriver keeps the connection open whatever
/// the request says, so the body is read by its Content-Length rather than to end of stream.
fn http_request(port: u16, method: &str, path: &str, body: Option<&str>) -> io::Result<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let body = body.unwrap_or("");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut reader = BufReader::new(stream);
    let mut content_length = 0;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "response ended in its head",
            ));
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                content_length = value.trim().parse().map_err(|_| {
                    io::Error::new(io::ErrorKind::InvalidData, format!("bad header {header:?}"))
                })?;
            }
        }
    }
    let mut response = vec![0; content_length];
    reader.read_exact(&mut response)?;
    String::from_utf8(response).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Decodes standard base64 (the encoding CDP uses for screenshots).
pub fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    fn sextet(c: u8) -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some(u32::from(c - b'A')),
            b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    }
    let digits: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut group = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            let value = sextet(c).ok_or_else(|| format!("not base64: byte {c}"))?;
            group |= value << (18 - 6 * i);
        }
        let bytes = group.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    Ok(out)
}
