//! A tiny static file server for the release build's dist folder, on 127.0.0.1 at a port the OS picks.
//! It serves the folder under a sub-path, never at `/`, so a page that asks for an absolute asset URL fails:
//! that is how the e2e test proves dist works from any folder of any web server.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

/// Serves one dist folder until dropped.
pub struct DistServer {
    /// The page's address, e.g. `http://127.0.0.1:41234/courses/r2.02.2/`.
    pub page_url: String,
    port: u16,
    stopping: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

impl DistServer {
    /// Serves `dist` under `mount` (a path like `/courses/r2.02.2/`, with both slashes).
    pub fn start(dist: &Path, mount: &'static str) -> io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        let stopping = Arc::new(AtomicBool::new(false));
        let root = dist.to_path_buf();
        let stop_flag = Arc::clone(&stopping);
        let acceptor = thread::spawn(move || {
            for stream in listener.incoming() {
                if stop_flag.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(stream) = stream {
                    let root = root.clone();
                    thread::spawn(move || {
                        // A browser that hangs up mid-response is not a test failure.
                        let _ = serve_one(stream, &root, mount);
                    });
                }
            }
        });
        Ok(Self {
            page_url: format!("http://127.0.0.1:{port}{mount}"),
            port,
            stopping,
            acceptor: Some(acceptor),
        })
    }
}

impl Drop for DistServer {
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        // The acceptor blocks in accept(): one last connection wakes it so it sees the flag and returns.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

fn serve_one(mut stream: TcpStream, root: &Path, mount: &str) -> io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Drain the headers; nothing in them changes what a static server answers.
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }

    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let path = target.split(['?', '#']).next().unwrap_or("");

    if method != "GET" && method != "HEAD" {
        return respond(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET only\n",
            true,
        );
    }
    if path == mount.trim_end_matches('/') {
        let location = format!("Location: {mount}\r\n");
        return respond_with(
            &mut stream,
            "301 Moved Permanently",
            &location,
            "text/plain",
            b"",
            true,
        );
    }
    let Some(file) = resolve(root, mount, path) else {
        return respond(
            &mut stream,
            "404 Not Found",
            "text/plain",
            b"not found\n",
            true,
        );
    };
    match std::fs::read(&file) {
        Ok(body) => respond(
            &mut stream,
            "200 OK",
            content_type(&file),
            &body,
            method == "GET",
        ),
        Err(_) => respond(
            &mut stream,
            "404 Not Found",
            "text/plain",
            b"not found\n",
            true,
        ),
    }
}

/// Maps a request path to a file inside `root`, refusing anything outside the mount or the folder.
fn resolve(root: &Path, mount: &str, path: &str) -> Option<PathBuf> {
    let relative = percent_decode(path.strip_prefix(mount)?)?;
    let mut file = root.to_path_buf();
    for segment in relative.split('/').filter(|s| !s.is_empty()) {
        if segment == ".." || segment == "." || segment.contains('\\') {
            return None;
        }
        file.push(segment);
    }
    if file.is_dir() {
        file.push("index.html");
    }
    file.is_file().then_some(file)
}

fn percent_decode(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = raw.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Browsers refuse `WebAssembly.instantiateStreaming` without `application/wasm`, so this must be exact.
fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn respond(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
    with_body: bool,
) -> io::Result<()> {
    respond_with(stream, status, "", content_type, body, with_body)
}

fn respond_with(
    stream: &mut TcpStream,
    status: &str,
    extra_headers: &str,
    content_type: &str,
    body: &[u8],
    with_body: bool,
) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{extra_headers}\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if with_body {
        stream.write_all(body)?;
    }
    stream.flush()
}
