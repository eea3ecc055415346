//! Every conversion between Redis replies and Lua values, both ways, as Redis 7.0 performs them
//! (`nil bulk → false`, `{ok=…} → status`, numbers truncated to integers, …), plus the error texts
//! the Redis⇄Lua bridge itself produces.

use std::sync::Arc;

use super::value::{format_number_g, number_to_integer, TableRef, Value};
use crate::reply::Reply;

/// How deeply a returned table may nest before the reply is cut off (Redis runs out of Lua stack).
const MAX_REPLY_DEPTH: usize = 100;

/// `redis.call()` with no arguments.
pub const NO_ARGUMENTS: &str = "ERR Please specify at least one argument for this redis lib call";
/// `redis.call` with an argument that is neither a string nor a number.
pub const BAD_ARGUMENT_TYPE: &str =
    "ERR Lua redis lib command arguments must be strings or integers";
/// A returned table nested too deeply (e.g. a table containing itself).
pub const STACK_LIMIT: &str = "ERR reached lua stack limit";

/// Calls `run` with `redis.call`'s Lua arguments as a command line: strings borrowed as they
/// are, numbers printed with 17 significant digits (`0.1` → `0.10000000000000001`); anything
/// else is refused with Redis's error text. Short lines are built on the stack.
pub fn with_command_words<R>(
    args: &[Value],
    run: impl FnOnce(&[&[u8]]) -> R,
) -> Result<R, &'static str> {
    const INLINE: usize = 8;
    if args.is_empty() {
        return Err(NO_ARGUMENTS);
    }
    // Numbers are printed first, so that every word can then be borrowed.
    let mut printed: Vec<Vec<u8>> = Vec::new();
    for a in args {
        match a {
            Value::Str(_) => {}
            Value::Num(n) => printed.push(number_argument(*n).into_bytes()),
            _ => return Err(BAD_ARGUMENT_TYPE),
        }
    }
    let mut printed = printed.iter();
    let mut inline: [&[u8]; INLINE] = [&[]; INLINE];
    let mut spilled: Vec<&[u8]> = Vec::new();
    let words: &mut [&[u8]] = if args.len() <= INLINE {
        &mut inline[..args.len()]
    } else {
        spilled.resize(args.len(), &[]);
        &mut spilled
    };
    for (word, a) in words.iter_mut().zip(args) {
        *word = match a {
            Value::Str(s) => s,
            _ => printed.next().map_or(&[][..], Vec::as_slice),
        };
    }
    Ok(run(words))
}

fn number_argument(n: f64) -> String {
    format_number_g(n, 17)
}

/// Redis → Lua: integer → number, bulk → string, nil → false, array → table,
/// status → `{ok=…}`, error → `{err=…}`.
pub fn reply_to_value(reply: Reply) -> Value {
    match reply {
        Reply::Integer(i) => Value::Num(i as f64),
        Reply::Bulk(b) => Value::Str(Arc::from(b)),
        Reply::Nil => Value::Bool(false),
        Reply::Status(s) => single_field_table("ok", Value::str(s.as_bytes())),
        Reply::Error(e) => error_table(e),
        Reply::Array(items) => {
            let t = TableRef::new();
            t.0.borrow_mut().array = items.into_iter().map(reply_to_value).collect();
            // A false element cannot end the array part, but trailing nils never occur here.
            Value::Table(t)
        }
    }
}

fn single_field_table(field: &str, v: Value) -> Value {
    let t = TableRef::new();
    // A fresh table with one field cannot exceed its size cap.
    let _ = t.set(Value::str(field.as_bytes()), v);
    Value::Table(t)
}

/// The `{err=text}` table Redis uses for error replies inside Lua.
pub fn error_table(text: String) -> Value {
    single_field_table("err", Value::str(text.as_bytes()))
}

/// `redis.error_reply(text)`: the first word is the error code unless the text is one word
/// (`"E2 bad"` → `E2 bad`, `"-X y"` → `X y`, `"-X"` → `ERR X`, `"oops"` → `ERR oops`).
pub fn error_reply_table(text: &[u8]) -> Value {
    let s = String::from_utf8_lossy(text).into_owned();
    // Redis first prefixes a missing '-', then reads "-CODE msg" (no space: the code is ERR).
    let rest = s.strip_prefix('-').unwrap_or(&s);
    let (code, msg) = match rest.split_once(' ') {
        Some((code, msg)) => (code.to_string(), msg.to_string()),
        None => ("ERR".to_string(), rest.to_string()),
    };
    let msg = msg.trim_matches(|c| c == '\r' || c == '\n');
    error_table(format!("{} {}", code, msg))
}

/// The `err` field of an error table, if the value is one.
pub fn error_text(v: &Value) -> Option<Vec<u8>> {
    match v {
        Value::Table(t) => match t.get_str("err") {
            Value::Str(s) => Some(s.to_vec()),
            _ => None,
        },
        _ => None,
    }
}

/// Lua → Redis: number → integer (truncated toward zero), string → bulk, `true` → 1,
/// `false`/nil → nil, `{err=…}` → error, `{ok=…}` → status, other tables → array up to the first nil.
pub fn value_to_reply(v: &Value) -> Reply {
    to_reply(v, 0)
}

fn to_reply(v: &Value, depth: usize) -> Reply {
    match v {
        Value::Nil | Value::Bool(false) => Reply::Nil,
        Value::Bool(true) => Reply::Integer(1),
        Value::Num(n) => Reply::Integer(number_to_integer(*n)),
        Value::Str(s) => Reply::Bulk(s.to_vec()),
        Value::Func(_) | Value::Builtin(_) | Value::Null => Reply::Nil,
        Value::Lib(_) => Reply::Array(Vec::new()),
        Value::Table(t) => {
            if depth >= MAX_REPLY_DEPTH {
                return Reply::Error(STACK_LIMIT.into());
            }
            if let Value::Str(e) = t.get_str("err") {
                return Reply::Error(one_line(&e));
            }
            if let Value::Str(s) = t.get_str("ok") {
                return Reply::Status(one_line(&s));
            }
            let table = t.0.borrow();
            // Redis stops at the first nil; the array part may hold one (`t[2] = nil`).
            Reply::Array(
                table
                    .array
                    .iter()
                    .take_while(|item| !item.is_nil())
                    .map(|item| to_reply(item, depth + 1))
                    .collect(),
            )
        }
    }
}

/// Redis replaces CR and LF in status and error texts with spaces.
fn one_line(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace(['\r', '\n'], " ")
}

/// The error reply for a script that raised `value` on `line`, decorated as Redis 7.0 does:
/// non-table errors get the `ERR` code, and all get `script: <sha>, on <chunk>:<line>.` where the
/// chunk is `@user_script` or the source of the `loadstring` chunk the error was raised in.
pub fn raised_error_reply(value: &Value, source: &str, line: u32, sha: &str) -> Reply {
    let msg = match value {
        Value::Table(t) => match t.get_str("err") {
            v @ (Value::Str(_) | Value::Num(_)) => {
                one_line(&v.to_str_bytes().unwrap_or_else(|| Arc::from(&b""[..])))
            }
            // Real Redis 7.0 crashes on an error table without an `err` string.
            _ => "ERR unknown error".into(),
        },
        other => format!("ERR {}", one_line(&other.to_display())),
    };
    Reply::Error(format!("{} script: {}, on {}:{}.", msg, sha, source, line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_become_command_arguments_with_17_digits() {
        assert_eq!(number_argument(0.1), "0.10000000000000001");
        assert_eq!(number_argument(3.0), "3");
        assert_eq!(number_argument(1.5), "1.5");
        assert_eq!(number_argument(1e20), "1e+20");
        assert_eq!(
            number_argument(123456789012345678.0),
            "1.2345678901234568e+17"
        );
    }

    #[test]
    fn error_reply_codes() {
        assert_eq!(
            error_text(&error_reply_table(b"oops")),
            Some(b"ERR oops".to_vec())
        );
        assert_eq!(
            error_text(&error_reply_table(b"-X y")),
            Some(b"X y".to_vec())
        );
        assert_eq!(
            error_text(&error_reply_table(b"-X")),
            Some(b"ERR X".to_vec())
        );
        assert_eq!(
            error_text(&error_reply_table(b"EMQSTALE complete token mismatch")),
            Some(b"EMQSTALE complete token mismatch".to_vec())
        );
    }
}
