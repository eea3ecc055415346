//! Every conversion between Redis replies and Lua values, both ways, as Redis 7.0 performs them
//! (`nil bulk → false`, `{ok=…} → status`, numbers truncated to integers, …), in RESP2 and, after
//! `redis.setresp(3)`, in RESP3 (`{map=…}`, `{double=…}`, null → nil, booleans), plus the error
//! texts the Redis⇄Lua bridge itself produces.

use std::sync::Arc;

use super::number::number_to_integer;
use super::value::{Table, TableRef, Value};
use crate::float_parse::parse_f64;
use crate::frame::Frame;
use crate::numtext::format_number_g;
use crate::reply::Reply;

/// How deeply a returned table may nest before the reply is cut off with Redis's error for
/// running out of Lua stack. Redis gets there at 7 995 levels; the conversion here recurses on
/// the native stack, which a wasm page has 1 MiB of, so it stops at 100.
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

/// Redis → Lua in RESP2: integer → number, bulk → string, nil → false, array → table,
/// status → `{ok=…}`, error → `{err=…}`.
pub fn reply_to_value(reply: Reply) -> Value {
    match reply {
        Reply::Integer(i) => Value::Num(i as f64),
        Reply::Bulk(b) => Value::Str(Arc::from(b)),
        Reply::Nil => Value::Bool(false),
        Reply::Status(s) => single_field_table("ok", Value::str(s.as_bytes())),
        Reply::Error(e) => error_table(e),
        Reply::Array(items) => array_table(items.into_iter().map(reply_to_value)),
        resp3 => reply_to_value(resp3.to_resp2()),
    }
}

/// Redis → Lua in RESP3 (the frame a RESP3 client would get): as in RESP2, but null → nil,
/// boolean → boolean, map → `{map={k=v…}}`, set → `{set={member=true…}}`, double →
/// `{double=n}`, big number → `{big_number=text}`, verbatim string →
/// `{verbatim_string={string=text, format=fmt}}`.
pub fn frame_to_value(frame: Frame) -> Value {
    match frame {
        Frame::Simple(s) => single_field_table("ok", Value::str(s.as_bytes())),
        Frame::Error(e) => error_table(e),
        Frame::Integer(i) => Value::Num(i as f64),
        Frame::Bulk(b) => Value::Str(Arc::from(b)),
        Frame::NullBulk | Frame::NullArray => Value::Nil,
        Frame::Boolean(b) => Value::Bool(b),
        Frame::Array(items) | Frame::Push(items) => {
            array_table(items.into_iter().map(frame_to_value))
        }
        Frame::Pairs(pairs) => array_table(
            pairs
                .into_iter()
                .map(|(a, b)| array_table([frame_to_value(a), frame_to_value(b)])),
        ),
        Frame::Map(pairs) => {
            let map = TableRef::new();
            for (k, v) in pairs {
                // A reply's map keys are never nil or NaN, and a reply never reaches the cap.
                let _ = map.set(frame_to_value(k), frame_to_value(v));
            }
            single_field_table("map", Value::Table(map))
        }
        Frame::Set(items) => {
            let set = TableRef::new();
            for item in items {
                let _ = set.set(frame_to_value(item), Value::Bool(true));
            }
            single_field_table("set", Value::Table(set))
        }
        Frame::Double(text) => {
            let d = parse_f64(&text).unwrap_or(f64::NAN);
            single_field_table("double", Value::Num(d))
        }
        Frame::BigNumber(text) => single_field_table("big_number", Value::str(&text)),
        Frame::Verbatim { format, text } => {
            let inner = TableRef::new();
            let _ = inner.set(Value::str(b"string"), Value::str(&text));
            let _ = inner.set(Value::str(b"format"), Value::str(&format));
            single_field_table("verbatim_string", Value::Table(inner))
        }
    }
}

/// An array reply's table, its items set one by one at 1, 2, … as Redis sets them (a RESP3
/// null among them leaves a hole where Lua's rehash puts it).
fn array_table(items: impl IntoIterator<Item = Value>) -> Value {
    Value::Table(TableRef::from_table(Table::from_sequence(items)))
}

/// A table of one field, laid out as a new table's first set lays it out (one node).
fn single_field_table(field: &str, v: Value) -> Value {
    // One node cannot exceed the size cap.
    let mut t = Table::with_sizes(0, 1).unwrap_or_default();
    let _ = t.set(Value::str(field.as_bytes()), v);
    Value::Table(TableRef::from_table(t))
}

/// The `{err=text}` table Redis uses for error replies inside Lua.
pub fn error_table(text: String) -> Value {
    single_field_table("err", Value::str(text.as_bytes()))
}

/// `redis.error_reply(text)`: the first word is the error code unless the text is one word
/// (`"E2 bad"` → `E2 bad`, `"-X y"` → `X y`, `"-X"` → `ERR X`, `"oops"` → `ERR oops`).
pub fn error_reply_table(text: &[u8]) -> Value {
    // Redis copies the text as a C string: it ends at a NUL.
    let s = String::from_utf8_lossy(crate::args::c_string(text)).into_owned();
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

/// Lua → Redis: number → integer (truncated toward zero), string → bulk, `true` → 1 and
/// `false` → nil (with `resp` 3, the script's protocol: booleans), nil → nil; a table by the
/// first of its fields that fits, in Redis's order: `{err=string}` → error, `{ok=string}` →
/// status, `{double=number}`, `{big_number=string}`, `{verbatim_string={format=string,
/// string=string}}`, `{map=table}`, `{set=table}` (its keys); any other table → array up to the
/// first nil.
pub fn value_to_reply(v: &Value, resp: u8) -> Reply {
    to_reply(v, 0, resp)
}

fn to_reply(v: &Value, depth: usize, resp: u8) -> Reply {
    match v {
        Value::Bool(b) if resp == 3 => Reply::Bool(*b),
        Value::Nil | Value::Bool(false) => Reply::Nil,
        Value::Bool(true) => Reply::Integer(1),
        Value::Num(n) => Reply::Integer(number_to_integer(*n)),
        Value::Str(s) => Reply::Bulk(s.to_vec()),
        Value::Func(_) | Value::Builtin(_) | Value::Null | Value::Thread(_) => Reply::Nil,
        Value::Lib(_) => Reply::Array(Vec::new()),
        Value::Table(t) => {
            if depth >= MAX_REPLY_DEPTH {
                return Reply::Error(STACK_LIMIT.into());
            }
            if let Value::Str(e) = t.get_str("err") {
                // Redis sends it with addReplyErrorFormat: a CR or LF at the end is trimmed.
                return Reply::Error(crate::error::error_line(crate::args::c_string(&e)));
            }
            if let Value::Str(s) = t.get_str("ok") {
                return Reply::Status(one_line(&s));
            }
            if let Value::Num(d) = t.get_str("double") {
                return Reply::Double(d);
            }
            if let Value::Str(s) = t.get_str("big_number") {
                return Reply::BigNumber(
                    s.iter()
                        .map(|&b| if b == b'\r' || b == b'\n' { b' ' } else { b })
                        .collect(),
                );
            }
            if let Some(reply) = verbatim(t) {
                return reply;
            }
            if let Value::Table(map) = t.get_str("map") {
                let pairs = entries(&map)
                    .map(|(k, v)| (to_reply(&k, depth + 1, resp), to_reply(&v, depth + 1, resp)))
                    .collect();
                return Reply::Map(pairs);
            }
            if let Value::Table(set) = t.get_str("set") {
                let members = entries(&set)
                    .map(|(k, _)| to_reply(&k, depth + 1, resp))
                    .collect();
                return Reply::Set(members);
            }
            // Redis reads t[1], t[2], … raw up to the first nil, wherever the table keeps them.
            let mut items = Vec::new();
            for j in 1.. {
                let item = t.get(&Value::Num(j as f64));
                if item.is_nil() {
                    break;
                }
                items.push(to_reply(&item, depth + 1, resp));
            }
            Reply::Array(items)
        }
    }
}

/// `{verbatim_string={format=…, string=…}}` with both fields strings; the format is read as C
/// reads it (up to a zero byte) and cut or padded with spaces to three bytes.
fn verbatim(t: &TableRef) -> Option<Reply> {
    let Value::Table(inner) = t.get_str("verbatim_string") else {
        return None;
    };
    let (Value::Str(format), Value::Str(text)) = (inner.get_str("format"), inner.get_str("string"))
    else {
        return None;
    };
    let mut padded = [b' '; 3];
    for (slot, &b) in padded
        .iter_mut()
        .zip(format.iter().take_while(|&&b| b != 0))
    {
        *slot = b;
    }
    Some(Reply::Verbatim {
        format: padded,
        text: text.to_vec(),
    })
}

/// A table's entries in iteration order (`pairs`), collected first so that no borrow of the
/// table is held while its values are converted.
pub(crate) fn entries(t: &TableRef) -> impl Iterator<Item = (Value, Value)> {
    let table = t.0.borrow();
    let mut all = Vec::new();
    let mut at = 0;
    while let Some((next, k, v)) = table.next_from(at) {
        all.push((k, v));
        at = next;
    }
    all.into_iter()
}

/// A status or error text as Redis sends one from a script: read as a C string (up to a zero
/// byte), with CR and LF made spaces.
fn one_line(bytes: &[u8]) -> String {
    String::from_utf8_lossy(crate::args::c_string(bytes)).replace(['\r', '\n'], " ")
}

/// The error reply for a script that raised `value` on `line`, decorated as Redis 7.0 does:
/// non-table errors get the `ERR` code, and all get `script: <sha>, on <chunk>:<line>.` where the
/// chunk is `@user_script` or the source of the `loadstring` chunk the error was raised in.
pub fn raised_error_reply(value: &Value, source: &str, line: i64, sha: &str) -> Reply {
    // Redis's error handler writes the place into an error table (`err['source'] = …`, line 10
    // of its chunk `@err_handler_def`); on a read-only table (`_G`, a library, the strings'
    // metatable) that write fails, and the handler's own error is the one reported.
    let readonly = match value {
        Value::Lib(_) => true,
        Value::Table(t) => t.0.borrow().refuses_writes(),
        _ => false,
    };
    if readonly {
        return Reply::Error(format!(
            "ERR err_handler_def:10: {} script: {sha}, on @err_handler_def:10.",
            super::interp::READONLY_TABLE
        ));
    }
    // The chunk's source too: a `loadstring` chunk's own text may hold line breaks.
    let source = one_line(source.as_bytes());
    Reply::Error(format!(
        "{} script: {}, on {}:{}.",
        error_message(value),
        sha,
        source,
        line
    ))
}

/// The error reply for a value raised where Redis's error handler finds no Lua code to place
/// it in (a library function FCALL calls as the function itself): the message alone.
pub fn unplaced_error_reply(value: &Value) -> Reply {
    Reply::Error(error_message(value))
}

/// A raised value's message as Redis replies with it: an error table's `err` text, anything
/// else after `ERR`.
fn error_message(value: &Value) -> String {
    match value {
        Value::Table(t) => match t.get_str("err") {
            v @ (Value::Str(_) | Value::Num(_)) => {
                one_line(&v.to_str_bytes().unwrap_or_else(|| Arc::from(&b""[..])))
            }
            // Real Redis 7.0 crashes on an error table without an `err` string.
            _ => "ERR unknown error".into(),
        },
        other => format!("ERR {}", one_line(&other.to_display())),
    }
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
