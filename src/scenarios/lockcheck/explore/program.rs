//! Each client's operations resolved into the command lines it sends, and how a line is
//! written as redis-cli reads it.

use ministore::{Reply, Store};

use super::super::spec::{AfterRefusedExtend, Call, ClientId, LockSpec, OpKind, OpStep, Success};

/// One command line a client sends, resolved for that client.
#[derive(Clone, Debug)]
pub(super) struct Line {
    /// What the explorer sends: `EVALSHA` for a script, loaded into the starting store so every
    /// state has it (the reply is the one `EVAL` gives, which the report shows and replays).
    pub(super) exec: Vec<Vec<u8>>,
    /// The script's text, for loading.
    pub(super) script: Option<String>,
    pub(super) line: String,
    pub(super) short: String,
    pub(super) success: Success,
    /// What the client sends next when the reply does not pass ([`OpStep::on_refusal`]).
    pub(super) on_refusal: Option<Box<Line>>,
}

/// One client's three operations, resolved.
#[derive(Clone, Debug)]
pub(super) struct Program {
    pub(super) token: Vec<u8>,
    pub(super) acquire: Vec<Line>,
    pub(super) extend: Vec<Line>,
    pub(super) release: Vec<Line>,
    /// Whether a refused extend is followed by the release.
    pub(super) releases_after_refused_extend: bool,
}

impl Program {
    pub(super) fn resolve(spec: &LockSpec, client: ClientId) -> Program {
        let lines = |kind: OpKind| -> Vec<Line> {
            spec.op(kind)
                .map(|op| {
                    op.steps
                        .iter()
                        .map(|step| Line::resolve_step(spec, client, step))
                        .collect()
                })
                .unwrap_or_default()
        };
        Program {
            token: spec.token(client).as_bytes().to_vec(),
            acquire: lines(OpKind::Acquire),
            extend: lines(OpKind::Extend),
            release: lines(OpKind::Release),
            releases_after_refused_extend: spec
                .extend
                .as_ref()
                .is_none_or(|extend| extend.after_refusal == AfterRefusedExtend::Releases),
        }
    }

    /// The lines of one operation.
    pub(super) fn op_lines(&self, op: OpKind) -> &[Line] {
        match op {
            OpKind::Acquire => &self.acquire,
            OpKind::Extend => &self.extend,
            OpKind::Release => &self.release,
        }
    }

    /// Every line the client may send, clean-ups included.
    pub(super) fn lines(&self) -> impl Iterator<Item = &Line> {
        self.acquire
            .iter()
            .chain(&self.extend)
            .chain(&self.release)
            .flat_map(|line| std::iter::once(line).chain(line.on_refusal.as_deref()))
    }
}

impl Line {
    fn resolve_step(spec: &LockSpec, client: ClientId, step: &OpStep) -> Line {
        let mut line = Line::resolve(spec, client, &step.call, step.success);
        line.on_refusal = step
            .on_refusal
            .as_ref()
            .map(|call| Box::new(Line::resolve(spec, client, call, Success::Always)));
        line
    }

    pub(super) fn resolve(
        spec: &LockSpec,
        client: ClientId,
        call: &Call,
        success: Success,
    ) -> Line {
        match call {
            Call::Command(templates) => {
                let words: Vec<String> =
                    templates.iter().map(|t| t.resolve(spec, client)).collect();
                let line = words
                    .iter()
                    .map(|w| cli_word(w.as_bytes()))
                    .collect::<Vec<_>>()
                    .join(" ");
                Line {
                    short: line.clone(),
                    line,
                    exec: words.into_iter().map(String::into_bytes).collect(),
                    script: None,
                    success,
                    on_refusal: None,
                }
            }
            Call::Script {
                name,
                text,
                keys,
                args,
            } => {
                let mut tail = vec![keys.len().to_string()];
                tail.extend(keys.iter().map(|t| t.resolve(spec, client)));
                tail.extend(args.iter().map(|t| t.resolve(spec, client)));
                let shown = tail
                    .iter()
                    .map(|w| cli_word(w.as_bytes()))
                    .collect::<Vec<_>>()
                    .join(" ");
                // A script that does not compile is sent as EVAL, so the error reply is EVAL's.
                let mut exec = match sha_of(text) {
                    Some(sha) => vec![b"EVALSHA".to_vec(), sha.into_bytes()],
                    None => vec![b"EVAL".to_vec(), text.as_bytes().to_vec()],
                };
                exec.extend(tail.into_iter().map(String::into_bytes));
                Line {
                    line: format!("EVAL {} {shown}", cli_word(text.as_bytes())),
                    short: format!("EVAL <{name}> {shown}"),
                    exec,
                    script: Some(text.to_string()),
                    success,
                    on_refusal: None,
                }
            }
        }
    }
}

/// The SHA1 `SCRIPT LOAD` gives `text`, or `None` if it does not compile.
pub(super) fn sha_of(text: &str) -> Option<String> {
    match Store::new().script_load(text) {
        Reply::Bulk(sha) => String::from_utf8(sha).ok(),
        _ => None,
    }
}

/// `bytes` as one redis-cli word: bare when that reads back the same, else double-quoted with
/// `\"`, `\\`, `\n`, `\r`, `\t` and `\xHH` escapes (which redis-cli turns back into the bytes).
pub fn cli_word(bytes: &[u8]) -> String {
    let bare = !bytes.is_empty()
        && bytes
            .iter()
            .all(|&b| b.is_ascii_graphic() && b != b'"' && b != b'\'' && b != b'\\');
    if bare {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    out.push('"');
    for &b in bytes {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b' '..=b'~' => out.push(char::from(b)),
            other => out.push_str(&format!("\\x{other:02x}")),
        }
    }
    out.push('"');
    out
}

/// The `DEBUG SLEEP` argument that moves ministore's clock just past a lease of `ttl_ms`
/// (a key set `PX ttl` is gone once the clock is strictly past its deadline).
pub(super) fn stall_seconds(ttl_ms: u64) -> String {
    for extra in 1..=3u64 {
        let ms = ttl_ms.saturating_add(extra);
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        let mut probe = Store::new();
        probe.exec(&["DEBUG", "SLEEP", text.as_str()]);
        if probe.now_ms() > ttl_ms {
            return text;
        }
    }
    format!("{}", ttl_ms / 1000 + 1)
}
