//! A lock built from what the learner pastes: [`LockSpec::custom`].
//!
//! Each text is either **Lua** — it mentions `redis.call`, `redis.pcall` or `return` — run as
//! `EVAL <text> 1 <key> <token> <ttl_ms>`, so the script sees `KEYS[1]` = the lock's key,
//! `ARGV[1]` = the client's token and `ARGV[2]` = the lease in milliseconds; or **command
//! templates**: one redis-cli command line per line (blank lines and `#` comments skipped), each
//! its own step, with the placeholders `{key}`, `{token}`, `{ttl_ms}`, `{ttl_s}` (the lease in
//! whole seconds, rounded up) and `{client}` (`a`, `b`, `c`); `{{` and `}}` are literal braces.
//! Each client sends on a connection of its own, so `WATCH`, `MULTI`, `EXEC`, `DISCARD` and
//! `UNWATCH` work as in Redis.
//!
//! Success rule for every custom step: a reply counts when it is not an error, nil, integer 0 or
//! the string `0` (so `OK`, `1`, a token, a non-empty array of such). A command line ending in
//! `== {token}` counts only when its reply is the client's token: the compare a client makes
//! after `GET`. An operation goes on to its next line only while replies count, and succeeds
//! when its last line's reply counts. A line may end with `else` and a command: what the client
//! sends, instead of going on, when the line's reply does not count (`UNWATCH` after a failed
//! compare); not on an operation's last line, whose refusal ends it. Without an acquire text the
//! lock takes the key with `SET {key} {token} NX PX {ttl_ms}`.

use std::sync::Arc;

use ministore::cli::{split_words, CliWord};
use ministore::{Reply, Store};

use super::catalogue::C_TOKEN;
use super::spec::{
    Call, Extend, FencingSource, LockSpec, Op, OpKind, OpStep, SpecError, Success, Template,
    TemplateError, MAX_OP_STEPS,
};
use crate::scenarios::lost_lock::{A_TOKEN, B_TOKEN, LOCK_KEY};

/// Commands a template may not send: SELECT (the checks read the lock's key in database 0),
/// HELLO (it switches the connection's protocol), RESET and QUIT (the connection is the
/// client's), the subscribe commands and MONITOR (the connection would answer no lock
/// commands), and DEBUG, whose SLEEP moves the clock only the checker's stalls move
/// ([`SpecError::UnsupportedCommand`] says which). A transaction's commands are allowed: each
/// client's connection is its own, and a counterexample says when its lines need one
/// connection per client ([`super::Counterexample::replays_on_one_connection`]).
const REFUSED_COMMANDS: [&str; 9] = [
    "SELECT",
    "SUBSCRIBE",
    "PSUBSCRIBE",
    "SSUBSCRIBE",
    "MONITOR",
    "RESET",
    "HELLO",
    "QUIT",
    "DEBUG",
];

impl LockSpec {
    /// A lock from pasted texts (see the module docs for the two forms and the success rule).
    /// The key is `resource:lock`, the tokens `abc`, `xyz`, `klm`; the lease is `ttl_ms`.
    pub fn custom(
        acquire: Option<&str>,
        release: &str,
        extend: Option<&str>,
        ttl_ms: u64,
    ) -> Result<LockSpec, SpecError> {
        if ttl_ms == 0 || ttl_ms > 86_400_000 {
            return Err(SpecError::BadTtl(ttl_ms));
        }
        let acquire = match acquire {
            Some(text) => parse_op(OpKind::Acquire, text)?,
            None => Op::command("SET {key} {token} NX PX {ttl_ms}", Success::Ok),
        };
        let extend = extend
            .map(|text| parse_op(OpKind::Extend, text).map(Extend::then_releases))
            .transpose()?;
        let release = parse_op(OpKind::Release, release)?;
        Ok(LockSpec {
            id: "custom".into(),
            name: "your lock".into(),
            key: LOCK_KEY.into(),
            ttl_ms,
            tokens: [A_TOKEN.into(), B_TOKEN.into(), C_TOKEN.into()],
            acquire,
            extend,
            release,
            fencing: FencingSource::None,
            provenance: None,
            note: None,
        })
    }
}

impl LockSpec {
    /// Names operation `op`'s pasted script `file` in its steps' short forms
    /// (`EVAL <mine.lua> 1 …`), as the CLI names a script after the file it read it from. An
    /// operation given as command lines, or left out, is left as it is.
    pub fn name_script(&mut self, op: OpKind, file: &str) {
        let op = match op {
            OpKind::Acquire => Some(&mut self.acquire),
            OpKind::Release => Some(&mut self.release),
            OpKind::Extend => self.extend.as_mut().map(|extend| &mut extend.op),
        };
        for step in op.into_iter().flat_map(|op| op.steps.iter_mut()) {
            if let Call::Script { name, .. } = &mut step.call {
                *name = file.to_string();
            }
        }
    }
}

/// Whether `text` reads as Lua rather than command lines.
pub fn is_lua(text: &str) -> bool {
    text.contains("redis.call")
        || text.contains("redis.pcall")
        || text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|word| word == "return")
}

fn parse_op(op: OpKind, text: &str) -> Result<Op, SpecError> {
    if text.trim().is_empty() {
        return Err(SpecError::Empty { op });
    }
    if is_lua(text) {
        return lua_op(op, text);
    }
    let mut steps = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        if raw.trim().is_empty() || raw.trim_start().starts_with('#') {
            continue;
        }
        steps.push(command_step(raw, op, line)?);
    }
    if steps.last().is_some_and(|step| step.on_refusal.is_some()) {
        return Err(SpecError::RefusalStepLast { op });
    }
    if steps.is_empty() {
        return Err(SpecError::Empty { op });
    }
    if steps.len() > MAX_OP_STEPS {
        return Err(SpecError::BadOpLength {
            op,
            steps: steps.len(),
        });
    }
    Ok(Op { steps })
}

/// One command line as a step: its command, `== {token}` after it for a compare with the
/// client's token, and `else` with the command sent when the step fails. `==` and `else` (in
/// any case) count only as words written without quotes: quoted, they are sent as they are.
fn command_step(raw: &str, op: OpKind, line: usize) -> Result<OpStep, SpecError> {
    let words = split_words(raw).map_err(|_| SpecError::UnbalancedQuotes { op, line })?;
    let bare = |word: &CliWord, text: &str| {
        !word.quoted && word.bytes.eq_ignore_ascii_case(text.as_bytes())
    };
    let (head, refusal) = match words.iter().position(|w| bare(w, "else")) {
        Some(i) if i == 0 || i + 1 == words.len() => return Err(SpecError::BadElse { op, line }),
        Some(i) => (&words[..i], Some(&words[i + 1..])),
        None => (&words[..], None),
    };
    if refusal.is_some_and(|words| words.iter().any(|w| bare(w, "=="))) {
        return Err(SpecError::BadCompare { op, line });
    }
    let (command, success) = match head.iter().position(|w| bare(w, "==")) {
        Some(i) => match &head[i + 1..] {
            [token] if i > 0 && token.bytes == b"{token}" => (&head[..i], Success::EqualsToken),
            _ => return Err(SpecError::BadCompare { op, line }),
        },
        None => (head, Success::Truthy),
    };
    Ok(OpStep {
        call: command_call(command, op, line)?,
        success,
        on_refusal: refusal
            .map(|words| command_call(words, op, line))
            .transpose()?,
    })
}

/// One command line's words as templates, or why the checker cannot send it.
fn command_call(words: &[CliWord], op: OpKind, line: usize) -> Result<Call, SpecError> {
    let templates = words
        .iter()
        .map(|w| {
            Template::parse(&String::from_utf8_lossy(&w.bytes)).map_err(|e| match e {
                TemplateError::Unclosed => SpecError::UnclosedPlaceholder { op, line },
                TemplateError::Unknown(placeholder) => SpecError::UnknownPlaceholder {
                    op,
                    line,
                    placeholder,
                },
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let Some(first) = words.first() else {
        return Err(SpecError::Empty { op });
    };
    let command = String::from_utf8_lossy(&first.bytes).to_ascii_uppercase();
    if REFUSED_COMMANDS.contains(&command.as_str()) {
        return Err(SpecError::UnsupportedCommand { op, line, command });
    }
    Ok(Call::Command(templates))
}

fn lua_op(op: OpKind, text: &str) -> Result<Op, SpecError> {
    if let Reply::Error(error) = Store::new().script_load(text) {
        return Err(SpecError::ScriptCompile { op, error });
    }
    let arg = |word: &str| Template::parse(word).unwrap_or_else(|_| Template::literal(word));
    Ok(Op {
        steps: vec![OpStep {
            call: Call::Script {
                // Not `release.lua`: that is §2's script, and the figure names a step's script
                // by its file.
                name: format!("your-{}.lua", op.name()),
                text: Arc::from(text),
                keys: vec![arg("{key}")],
                args: vec![arg("{token}"), arg("{ttl_ms}")],
            },
            success: Success::Truthy,
            on_refusal: None,
        }],
    })
}
