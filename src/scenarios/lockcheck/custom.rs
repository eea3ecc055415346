//! A lock built from what the learner pastes: [`LockSpec::custom`].
//!
//! Each text is either **Lua** — it mentions `redis.call`, `redis.pcall` or `return` — run as
//! `EVAL <text> 1 <key> <token> <ttl_ms>`, so the script sees `KEYS[1]` = the lock's key,
//! `ARGV[1]` = the client's token and `ARGV[2]` = the lease in milliseconds; or **command
//! templates**: one redis-cli command line per line (blank lines and `#` comments skipped), each
//! its own step, with the placeholders `{key}`, `{token}`, `{ttl_ms}`, `{ttl_s}` (the lease in
//! whole seconds, rounded up) and `{client}` (`a`, `b`, `c`); `{{` and `}}` are literal braces.
//!
//! Success rule for every custom step: a reply counts when it is not an error, nil, integer 0 or
//! the string `0` (so `OK`, `1`, a token, a non-empty array of such). An operation goes on to its
//! next line only while replies count, and succeeds when its last line's reply counts. Without
//! an acquire text the lock takes the key with `SET {key} {token} NX PX {ttl_ms}`.

use std::sync::Arc;

use ministore::cli::split_line;
use ministore::{Reply, Store};

use super::catalogue::C_TOKEN;
use super::spec::{
    Call, FencingSource, LockSpec, Op, OpKind, OpStep, SpecError, Success, Template, TemplateError,
    MAX_OP_STEPS,
};
use crate::scenarios::lost_lock::{A_TOKEN, B_TOKEN, LOCK_KEY};

/// Commands a template may not send: they change the connection's state (SELECT, MULTI,
/// WATCH…), which a counterexample replayed on one connection could not keep apart per client,
/// or the clock the explorer runs (DEBUG SLEEP).
const CONNECTION_COMMANDS: [&str; 14] = [
    "SELECT",
    "MULTI",
    "EXEC",
    "DISCARD",
    "WATCH",
    "UNWATCH",
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
            .map(|text| parse_op(OpKind::Extend, text))
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
        let words = split_line(raw).map_err(|_| SpecError::UnbalancedQuotes { op, line })?;
        let templates = words
            .iter()
            .map(|w| {
                Template::parse(&String::from_utf8_lossy(w)).map_err(|e| match e {
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
            continue;
        };
        let command = String::from_utf8_lossy(first).to_ascii_uppercase();
        if CONNECTION_COMMANDS.contains(&command.as_str()) {
            return Err(SpecError::UnsupportedCommand { op, line, command });
        }
        steps.push(OpStep {
            call: Call::Command(templates),
            success: Success::Truthy,
            on_refusal: None,
        });
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

fn lua_op(op: OpKind, text: &str) -> Result<Op, SpecError> {
    if let Reply::Error(error) = Store::new().script_load(text) {
        return Err(SpecError::ScriptCompile { op, error });
    }
    let arg = |word: &str| Template::parse(word).unwrap_or_else(|_| Template::literal(word));
    Ok(Op {
        steps: vec![OpStep {
            call: Call::Script {
                name: format!("{}.lua", op.name()),
                text: Arc::from(text),
                keys: vec![arg("{key}")],
                args: vec![arg("{token}"), arg("{ttl_ms}")],
            },
            success: Success::Truthy,
            on_refusal: None,
        }],
    })
}
