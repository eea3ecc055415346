//! The script's library: `redis.*` (call, pcall, error_reply, status_reply), the base functions
//! (tonumber, tostring, type, ipairs, pairs, next, unpack, select, pcall, error, assert) and the
//! `table`, `string` and `math` functions Redis scripts use, with Lua 5.1's argument errors.

use std::sync::Arc;

use super::convert;
use super::interp::{memory_error, runtime_error, Fault, Interp, Lib};
use super::value::{format_g, format_number, number_to_integer, TableRef, Value, MAX_STRING_LEN};

/// Every built-in function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    RedisCall,
    RedisPcall,
    RedisErrorReply,
    RedisStatusReply,
    RedisSha1Hex,
    RedisLog,
    RedisReplicateCommands,
    RedisSetRepl,
    ToNumber,
    ToString,
    Type,
    Ipairs,
    IpairsStep,
    Pairs,
    Next,
    Unpack,
    Select,
    Pcall,
    Error,
    Assert,
    RawGet,
    RawSet,
    RawEqual,
    TableInsert,
    TableConcat,
    TableRemove,
    TableGetn,
    StringFormat,
    StringSub,
    StringLen,
    StringUpper,
    StringLower,
    StringRep,
    StringByte,
    StringChar,
    StringReverse,
    MathFloor,
    MathCeil,
    MathMax,
    MathMin,
    MathAbs,
    MathSqrt,
    MathFmod,
}

/// The base function a global name refers to, if any.
pub fn global_function(name: &str) -> Option<Builtin> {
    Some(match name {
        "tonumber" => Builtin::ToNumber,
        "tostring" => Builtin::ToString,
        "type" => Builtin::Type,
        "ipairs" => Builtin::Ipairs,
        "pairs" => Builtin::Pairs,
        "next" => Builtin::Next,
        "unpack" => Builtin::Unpack,
        "select" => Builtin::Select,
        "pcall" => Builtin::Pcall,
        "error" => Builtin::Error,
        "assert" => Builtin::Assert,
        "rawget" => Builtin::RawGet,
        "rawset" => Builtin::RawSet,
        "rawequal" => Builtin::RawEqual,
        _ => return None,
    })
}

/// `lib[key]`: a static lookup in a library table.
pub fn lib_get(lib: Lib, key: &Value) -> Value {
    match key {
        Value::Str(name) => lib_field(lib, name),
        _ => Value::Nil,
    }
}

/// `lib.name`: a static lookup by the field's name.
pub fn lib_field(lib: Lib, name: &[u8]) -> Value {
    let b = match (lib, name) {
        (Lib::Redis, b"call") => Builtin::RedisCall,
        (Lib::Redis, b"pcall") => Builtin::RedisPcall,
        (Lib::Redis, b"error_reply") => Builtin::RedisErrorReply,
        (Lib::Redis, b"status_reply") => Builtin::RedisStatusReply,
        (Lib::Redis, b"sha1hex") => Builtin::RedisSha1Hex,
        (Lib::Redis, b"log") => Builtin::RedisLog,
        (Lib::Redis, b"replicate_commands") => Builtin::RedisReplicateCommands,
        (Lib::Redis, b"set_repl") => Builtin::RedisSetRepl,
        (Lib::Redis, b"REPL_NONE") => return Value::Num(0.0),
        (Lib::Redis, b"REPL_AOF") => return Value::Num(1.0),
        (Lib::Redis, b"REPL_SLAVE" | b"REPL_REPLICA") => return Value::Num(2.0),
        (Lib::Redis, b"REPL_ALL") => return Value::Num(3.0),
        (Lib::Redis, b"LOG_DEBUG") => return Value::Num(0.0),
        (Lib::Redis, b"LOG_VERBOSE") => return Value::Num(1.0),
        (Lib::Redis, b"LOG_NOTICE") => return Value::Num(2.0),
        (Lib::Redis, b"LOG_WARNING") => return Value::Num(3.0),
        (Lib::String, b"format") => Builtin::StringFormat,
        (Lib::String, b"sub") => Builtin::StringSub,
        (Lib::String, b"len") => Builtin::StringLen,
        (Lib::String, b"upper") => Builtin::StringUpper,
        (Lib::String, b"lower") => Builtin::StringLower,
        (Lib::String, b"rep") => Builtin::StringRep,
        (Lib::String, b"byte") => Builtin::StringByte,
        (Lib::String, b"char") => Builtin::StringChar,
        (Lib::String, b"reverse") => Builtin::StringReverse,
        (Lib::Table, b"insert") => Builtin::TableInsert,
        (Lib::Table, b"concat") => Builtin::TableConcat,
        (Lib::Table, b"remove") => Builtin::TableRemove,
        (Lib::Table, b"getn") => Builtin::TableGetn,
        (Lib::Math, b"floor") => Builtin::MathFloor,
        (Lib::Math, b"ceil") => Builtin::MathCeil,
        (Lib::Math, b"max") => Builtin::MathMax,
        (Lib::Math, b"min") => Builtin::MathMin,
        (Lib::Math, b"abs") => Builtin::MathAbs,
        (Lib::Math, b"sqrt") => Builtin::MathSqrt,
        (Lib::Math, b"fmod") => Builtin::MathFmod,
        (Lib::Math, b"huge") => return Value::Num(f64::INFINITY),
        (Lib::Math, b"pi") => return Value::Num(std::f64::consts::PI),
        _ => return Value::Nil,
    };
    Value::Builtin(b)
}

/// Builds a copy of one library table (for the rare script that iterates over one).
pub fn make_lib(lib: Lib) -> TableRef {
    let names: &[&str] = match lib {
        Lib::Redis => &[
            "call",
            "pcall",
            "error_reply",
            "status_reply",
            "sha1hex",
            "log",
            "LOG_DEBUG",
            "LOG_VERBOSE",
            "LOG_NOTICE",
            "LOG_WARNING",
            "replicate_commands",
            "set_repl",
            "REPL_NONE",
            "REPL_AOF",
            "REPL_SLAVE",
            "REPL_REPLICA",
            "REPL_ALL",
        ],
        Lib::String => &[
            "format", "sub", "len", "upper", "lower", "rep", "byte", "char", "reverse",
        ],
        Lib::Table => &["insert", "concat", "remove", "getn"],
        Lib::Math => &[
            "floor", "ceil", "max", "min", "abs", "sqrt", "fmod", "huge", "pi",
        ],
    };
    let t = TableRef::new();
    for name in names {
        let key = Value::str(name.as_bytes());
        let value = lib_get(lib, &key);
        // A fresh table of a dozen entries cannot exceed its size cap.
        let _ = t.set(key, value);
    }
    t
}

fn name_of(b: Builtin) -> &'static str {
    match b {
        Builtin::RedisCall => "call",
        Builtin::RedisPcall => "pcall",
        Builtin::RedisErrorReply => "error_reply",
        Builtin::RedisStatusReply => "status_reply",
        Builtin::RedisSha1Hex => "sha1hex",
        Builtin::RedisLog => "log",
        Builtin::RedisReplicateCommands => "replicate_commands",
        Builtin::RedisSetRepl => "set_repl",
        Builtin::ToNumber => "tonumber",
        Builtin::ToString => "tostring",
        Builtin::Type => "type",
        Builtin::Ipairs => "ipairs",
        Builtin::IpairsStep => "?",
        Builtin::Pairs => "pairs",
        Builtin::Next => "next",
        Builtin::Unpack => "unpack",
        Builtin::Select => "select",
        Builtin::Pcall => "pcall",
        Builtin::Error => "error",
        Builtin::Assert => "assert",
        Builtin::RawGet => "rawget",
        Builtin::RawSet => "rawset",
        Builtin::RawEqual => "rawequal",
        Builtin::TableInsert => "insert",
        Builtin::TableConcat => "concat",
        Builtin::TableRemove => "remove",
        Builtin::TableGetn => "getn",
        Builtin::StringFormat => "format",
        Builtin::StringSub => "sub",
        Builtin::StringLen => "len",
        Builtin::StringUpper => "upper",
        Builtin::StringLower => "lower",
        Builtin::StringRep => "rep",
        Builtin::StringByte => "byte",
        Builtin::StringChar => "char",
        Builtin::StringReverse => "reverse",
        Builtin::MathFloor => "floor",
        Builtin::MathCeil => "ceil",
        Builtin::MathMax => "max",
        Builtin::MathMin => "min",
        Builtin::MathAbs => "abs",
        Builtin::MathSqrt => "sqrt",
        Builtin::MathFmod => "fmod",
    }
}

/// Argument access with Lua 5.1's `bad argument #n to 'f' (…)` errors.
struct Args<'a> {
    v: &'a [Value],
    f: Builtin,
    line: u32,
}

impl Args<'_> {
    fn bad(&self, n: usize, msg: &str) -> Fault {
        runtime_error(
            self.line,
            &format!("bad argument #{} to '{}' ({})", n, name_of(self.f), msg),
        )
    }

    fn got(&self, n: usize) -> &'static str {
        match self.v.get(n - 1) {
            None => "no value",
            Some(v) => v.type_name(),
        }
    }

    fn any(&self, n: usize) -> Result<Value, Fault> {
        self.v
            .get(n - 1)
            .cloned()
            .ok_or_else(|| self.bad(n, "value expected"))
    }

    fn number(&self, n: usize) -> Result<f64, Fault> {
        match self.v.get(n - 1).and_then(|v| v.to_number()) {
            Some(x) => Ok(x),
            None => Err(self.bad(n, &format!("number expected, got {}", self.got(n)))),
        }
    }

    fn int(&self, n: usize) -> Result<i64, Fault> {
        Ok(number_to_integer(self.number(n)?))
    }

    fn opt_int(&self, n: usize, default: i64) -> Result<i64, Fault> {
        match self.v.get(n - 1) {
            None | Some(Value::Nil) => Ok(default),
            Some(_) => self.int(n),
        }
    }

    fn string(&self, n: usize) -> Result<Arc<[u8]>, Fault> {
        match self.v.get(n - 1).and_then(|v| v.to_str_bytes()) {
            Some(s) => Ok(s),
            None => Err(self.bad(n, &format!("string expected, got {}", self.got(n)))),
        }
    }

    fn table(&self, n: usize) -> Result<TableRef, Fault> {
        match self.v.get(n - 1) {
            Some(Value::Table(t)) => Ok(t.clone()),
            // A library table handed to pairs/next/… is materialised as a fresh copy.
            Some(Value::Lib(lib)) => Ok(make_lib(*lib)),
            _ => Err(self.bad(n, &format!("table expected, got {}", self.got(n)))),
        }
    }
}

fn one(v: Value) -> Result<Vec<Value>, Fault> {
    Ok(vec![v])
}

fn string_result(bytes: Vec<u8>, line: u32) -> Result<Vec<Value>, Fault> {
    if bytes.len() > MAX_STRING_LEN {
        return Err(memory_error(line));
    }
    one(Value::Str(Arc::from(bytes)))
}

/// Lua 5.1's relative string position: negative counts from the end.
fn str_pos(pos: i64, len: usize) -> i64 {
    if pos < 0 {
        len as i64 + pos + 1
    } else {
        pos
    }
}

/// `redis.call` / `redis.pcall` (`b`) with these arguments: the command's reply as a Lua value;
/// `redis.call` raises an error reply instead of returning it. The words reach the host
/// borrowed from the argument strings, and its reply is passed on as it is.
pub fn redis_call(it: &mut Interp, b: Builtin, args: &[Value], line: u32) -> Result<Value, Fault> {
    // Library functions copy, scan or hash their string arguments: charge for their length.
    let weight: u64 = args.iter().map(Value::weight).sum();
    it.charge(weight, line)?;
    let (result, failed) = match convert::with_command_words(args, |words| it.host.call(words)) {
        Ok(reply) => {
            it.charge(1, line)?;
            let failed = reply.is_error();
            (convert::reply_to_value(reply), failed)
        }
        Err(text) => (convert::error_table(text.to_string()), true),
    };
    if failed && b == Builtin::RedisCall {
        return Err(Fault::Error {
            value: result,
            line,
        });
    }
    Ok(result)
}

/// Runs a built-in function.
pub fn call_builtin(
    it: &mut Interp,
    b: Builtin,
    args: Vec<Value>,
    line: u32,
) -> Result<Vec<Value>, Fault> {
    let a = Args {
        v: &args,
        f: b,
        line,
    };
    // Library functions copy, scan or hash their string arguments: charge for their length
    // (`redis_call` charges for its own).
    if !matches!(b, Builtin::RedisCall | Builtin::RedisPcall) {
        let weight: u64 = args.iter().map(Value::weight).sum();
        it.charge(weight, line)?;
    }
    match b {
        Builtin::RedisCall | Builtin::RedisPcall => redis_call(it, b, &args, line).map(|v| vec![v]),
        Builtin::RedisErrorReply => match args.as_slice() {
            [Value::Str(s)] => one(convert::error_reply_table(s)),
            _ => one(convert::error_table(
                "ERR wrong number or type of arguments".into(),
            )),
        },
        Builtin::RedisStatusReply => match args.as_slice() {
            [Value::Str(s)] => {
                let t = TableRef::new();
                let _ = t.set(Value::str(b"ok"), Value::Str(s.clone()));
                one(Value::Table(t))
            }
            _ => one(convert::error_table(
                "ERR wrong number or type of arguments".into(),
            )),
        },
        Builtin::RedisSha1Hex => {
            let s = a.string(1)?;
            one(Value::str(
                sha1_smol::Sha1::from(&s[..])
                    .digest()
                    .to_string()
                    .as_bytes(),
            ))
        }
        Builtin::RedisLog => Ok(Vec::new()),
        // Redis 7 always replicates effects; these remain for old scripts.
        Builtin::RedisReplicateCommands => one(Value::Bool(true)),
        Builtin::RedisSetRepl => match args.len() {
            1 => Ok(Vec::new()),
            _ => Err(Fault::Error {
                value: convert::error_table("ERR redis.set_repl() requires two arguments.".into()),
                line,
            }),
        },
        Builtin::ToNumber => {
            let v = a.any(1)?;
            match args.get(1) {
                None | Some(Value::Nil) => one(v.to_number().map(Value::Num).unwrap_or(Value::Nil)),
                Some(_) => {
                    let base = a.int(2)?;
                    if !(2..=36).contains(&base) {
                        return Err(a.bad(2, "base out of range"));
                    }
                    let s = v.to_str_bytes().ok_or_else(|| {
                        a.bad(1, &format!("string expected, got {}", v.type_name()))
                    })?;
                    let text = String::from_utf8_lossy(&s).trim().to_ascii_lowercase();
                    one(match i64::from_str_radix(&text, base as u32) {
                        Ok(n) => Value::Num(n as f64),
                        Err(_) => Value::Nil,
                    })
                }
            }
        }
        Builtin::ToString => {
            let v = a.any(1)?;
            one(match v {
                Value::Str(_) => v,
                other => Value::str(&other.to_display()),
            })
        }
        Builtin::Type => one(Value::str(a.any(1)?.type_name().as_bytes())),
        Builtin::Ipairs => {
            let t = a.table(1)?;
            Ok(vec![
                Value::Builtin(Builtin::IpairsStep),
                Value::Table(t),
                Value::Num(0.0),
            ])
        }
        Builtin::IpairsStep => {
            let t = a.table(1)?;
            let i = a.number(2)? + 1.0;
            let v = t.get(&Value::Num(i));
            if v.is_nil() {
                one(Value::Nil)
            } else {
                Ok(vec![Value::Num(i), v])
            }
        }
        Builtin::Pairs => {
            let t = a.table(1)?;
            Ok(vec![
                Value::Builtin(Builtin::Next),
                Value::Table(t),
                Value::Nil,
            ])
        }
        Builtin::Next => {
            let t = a.table(1)?;
            let key = args.get(1).cloned().unwrap_or_default();
            let table = t.0.borrow();
            let cursor = match &key {
                Value::Nil => Some(0),
                k => table.cursor_after(k),
            };
            match cursor {
                None => Err(runtime_error(line, "invalid key to 'next'")),
                Some(c) => match table.next_from(c) {
                    Some((_, k, v)) => Ok(vec![k, v]),
                    None => one(Value::Nil),
                },
            }
        }
        Builtin::Unpack => {
            let t = a.table(1)?;
            let i = a.opt_int(2, 1)?;
            let j = match args.get(2) {
                None | Some(Value::Nil) => t.len() as i64,
                Some(_) => a.int(3)?,
            };
            if i > j {
                return Ok(Vec::new());
            }
            let n = (j as i128 - i as i128 + 1) as u128;
            if n >= 8000 {
                return Err(runtime_error(line, "too many results to unpack"));
            }
            it.charge(n as u64, line)?;
            Ok((i..=j).map(|k| t.get(&Value::Num(k as f64))).collect())
        }
        Builtin::Select => {
            let n = a.any(1)?;
            if let Value::Str(s) = &n {
                if &s[..] == b"#" {
                    return one(Value::Num((args.len() - 1) as f64));
                }
            }
            let i = a.int(1)?;
            if i < 0 {
                let from = args.len() as i64 + i;
                if from < 1 {
                    return Err(a.bad(1, "index out of range"));
                }
                return Ok(args[from as usize..].to_vec());
            }
            if i == 0 {
                return Err(a.bad(1, "index out of range"));
            }
            Ok(args
                .get(i as usize..)
                .map(|s| s.to_vec())
                .unwrap_or_default())
        }
        Builtin::Pcall => {
            let f = a.any(1)?;
            let rest = args[1..].to_vec();
            match it.call_value(&f, rest, line, None) {
                Ok(mut results) => {
                    results.insert(0, Value::Bool(true));
                    Ok(results)
                }
                Err(Fault::Error { value, .. }) => {
                    // Redis's own pcall hands back the `err` text of error tables from redis.call.
                    let value = match convert::error_text(&value) {
                        Some(text) => Value::str(&text),
                        None => value,
                    };
                    Ok(vec![Value::Bool(false), value])
                }
                Err(budget) => Err(budget),
            }
        }
        Builtin::Error => {
            let v = args.first().cloned().unwrap_or_default();
            let level = a.opt_int(2, 1)?;
            let value = match (&v, level) {
                (Value::Str(_) | Value::Num(_), 1..) if level == 1 || it.depth() > 0 => {
                    let text = v.to_str_bytes().unwrap_or_else(|| Arc::from(&b""[..]));
                    let mut s = format!("user_script:{}: ", line).into_bytes();
                    s.extend_from_slice(&text);
                    Value::str(&s)
                }
                _ => v,
            };
            Err(Fault::Error { value, line })
        }
        Builtin::Assert => {
            let v = a.any(1)?;
            if v.truthy() {
                return Ok(args);
            }
            let msg = match args.get(1) {
                Some(m) => a
                    .string(2)
                    .map(|_| m.to_str_bytes().unwrap_or_else(|| Arc::from(&b""[..])))?,
                None => Arc::from(&b"assertion failed!"[..]),
            };
            Err(runtime_error(line, &String::from_utf8_lossy(&msg)))
        }
        Builtin::RawGet => {
            let t = a.table(1)?;
            one(t.get(&args.get(1).cloned().unwrap_or_default()))
        }
        Builtin::RawSet => {
            let t = a.table(1)?;
            let k = args.get(1).cloned().unwrap_or_default();
            let v = args.get(2).cloned().unwrap_or_default();
            t.set(k, v).map_err(|m| runtime_error(line, m))?;
            one(Value::Table(t))
        }
        Builtin::RawEqual => one(Value::Bool(a.any(1)?.raw_eq(&a.any(2)?))),
        Builtin::TableInsert => {
            let t = a.table(1)?;
            let mut table = t.0.borrow_mut();
            let n = table.border();
            match args.len() {
                2 => table.set(Value::Num((n + 1) as f64), args[1].clone()),
                3 => {
                    let pos = a.int(2)?;
                    let pos = if pos < 1 || pos as u64 > (n + 1) as u64 {
                        n as i64 + 1
                    } else {
                        pos
                    };
                    table.insert_at(pos as usize, args[2].clone())
                }
                _ => return Err(runtime_error(line, "wrong number of arguments to 'insert'")),
            }
            .map_err(|_| memory_error(line))?;
            Ok(Vec::new())
        }
        Builtin::TableRemove => {
            let t = a.table(1)?;
            let n = t.len() as i64;
            if n == 0 {
                return Ok(Vec::new());
            }
            let pos = a.opt_int(2, n)?;
            if pos < 1 || pos > n {
                return Ok(Vec::new());
            }
            let removed = t.0.borrow_mut().remove_at(pos as usize);
            one(removed)
        }
        Builtin::TableGetn => one(Value::Num(a.table(1)?.len() as f64)),
        Builtin::TableConcat => {
            let t = a.table(1)?;
            let sep = match args.get(1) {
                None | Some(Value::Nil) => Arc::from(&b""[..]),
                Some(_) => a.string(2)?,
            };
            let i = a.opt_int(3, 1)?;
            let j = match args.get(3) {
                None | Some(Value::Nil) => t.len() as i64,
                Some(_) => a.int(4)?,
            };
            let mut out = Vec::new();
            let mut k = i;
            while k <= j {
                it.step(line)?;
                match t.get(&Value::Num(k as f64)) {
                    v @ (Value::Str(_) | Value::Num(_)) => out.extend_from_slice(
                        &v.to_str_bytes().unwrap_or_else(|| Arc::from(&b""[..])),
                    ),
                    other => {
                        return Err(runtime_error(
                            line,
                            &format!(
                                "invalid value ({}) at index {} in table for 'concat'",
                                other.type_name(),
                                k
                            ),
                        ))
                    }
                }
                if k < j {
                    out.extend_from_slice(&sep);
                }
                if out.len() > MAX_STRING_LEN {
                    return Err(memory_error(line));
                }
                k += 1;
            }
            string_result(out, line)
        }
        Builtin::StringFormat => {
            let fmt = a.string(1)?;
            let out = format(&fmt, &a, it)?;
            string_result(out, line)
        }
        Builtin::StringSub => {
            let s = a.string(1)?;
            let len = s.len();
            let mut i = str_pos(a.int(2)?, len);
            let mut j = str_pos(a.opt_int(3, -1)?, len);
            if i < 1 {
                i = 1;
            }
            if j > len as i64 {
                j = len as i64;
            }
            if i > j {
                return one(Value::str(b""));
            }
            one(Value::str(&s[(i - 1) as usize..j as usize]))
        }
        Builtin::StringLen => one(Value::Num(a.string(1)?.len() as f64)),
        Builtin::StringUpper => one(Value::str(&a.string(1)?.to_ascii_uppercase())),
        Builtin::StringLower => one(Value::str(&a.string(1)?.to_ascii_lowercase())),
        Builtin::StringReverse => {
            let mut s = a.string(1)?.to_vec();
            s.reverse();
            one(Value::str(&s))
        }
        Builtin::StringRep => {
            let s = a.string(1)?;
            let n = a.int(2)?.max(0) as u64;
            let total = (s.len() as u64).saturating_mul(n);
            if total > MAX_STRING_LEN as u64 {
                return Err(memory_error(line));
            }
            it.charge(total / 1024, line)?;
            string_result(s.repeat(n as usize), line)
        }
        Builtin::StringByte => {
            let s = a.string(1)?;
            let i = str_pos(a.opt_int(2, 1)?, s.len()).max(1);
            let j = str_pos(a.opt_int(3, i)?, s.len()).min(s.len() as i64);
            if i > j {
                return Ok(Vec::new());
            }
            Ok(s[(i - 1) as usize..j as usize]
                .iter()
                .map(|b| Value::Num(*b as f64))
                .collect())
        }
        Builtin::StringChar => {
            let mut out = Vec::with_capacity(args.len());
            for n in 1..=args.len() {
                let c = a.int(n)?;
                if !(0..=255).contains(&c) {
                    return Err(a.bad(n, "invalid value"));
                }
                out.push(c as u8);
            }
            one(Value::str(&out))
        }
        Builtin::MathFloor => one(Value::Num(a.number(1)?.floor())),
        Builtin::MathCeil => one(Value::Num(a.number(1)?.ceil())),
        Builtin::MathAbs => one(Value::Num(a.number(1)?.abs())),
        Builtin::MathSqrt => one(Value::Num(a.number(1)?.sqrt())),
        Builtin::MathFmod => {
            let x = a.number(1)?;
            let y = a.number(2)?;
            one(Value::Num(x % y))
        }
        Builtin::MathMax | Builtin::MathMin => {
            let mut best = a.number(1)?;
            for n in 2..=args.len() {
                let x = a.number(n)?;
                if (b == Builtin::MathMax && x > best) || (b == Builtin::MathMin && x < best) {
                    best = x;
                }
            }
            one(Value::Num(best))
        }
    }
}

/// `string.format`: C printf conversions as Lua 5.1 supports them.
fn format(fmt: &[u8], a: &Args, it: &mut Interp) -> Result<Vec<u8>, Fault> {
    let mut out = Vec::new();
    let mut argn = 1;
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        if fmt.get(i) == Some(&b'%') {
            out.push(b'%');
            i += 1;
            continue;
        }
        let mut flags = String::new();
        while let Some(&f) = fmt.get(i) {
            if b"-+ #0".contains(&f) {
                flags.push(f as char);
                i += 1;
            } else {
                break;
            }
        }
        let mut width = 0usize;
        while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
            width = width * 10 + (d - b'0') as usize;
            i += 1;
        }
        let mut precision: Option<usize> = None;
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            let mut p = 0;
            while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
                p = p * 10 + (d - b'0') as usize;
                i += 1;
            }
            precision = Some(p);
        }
        if width > 99 || precision.unwrap_or(0) > 99 {
            return Err(runtime_error(
                a.line,
                "invalid format (width or precision too long)",
            ));
        }
        let Some(&conv) = fmt.get(i) else {
            return Err(runtime_error(a.line, "invalid option '%' to 'format'"));
        };
        i += 1;
        argn += 1;
        if argn > a.v.len() {
            return Err(a.bad(argn, "no value"));
        }
        let left = flags.contains('-');
        let zero = flags.contains('0') && !left;
        let body: Vec<u8> = match conv {
            b'd' | b'i' => {
                let n = a.int(argn)?;
                let mut s = n.unsigned_abs().to_string();
                if let Some(p) = precision {
                    while s.len() < p {
                        s.insert(0, '0');
                    }
                }
                sign_prefix(n < 0, &flags, s).into_bytes()
            }
            b'u' => (a.int(argn)? as u64).to_string().into_bytes(),
            b'c' => vec![a.int(argn)? as u8],
            b'x' | b'X' | b'o' => {
                let n = a.int(argn)? as u64;
                let s = match conv {
                    b'x' => format!("{:x}", n),
                    b'X' => format!("{:X}", n),
                    _ => format!("{:o}", n),
                };
                let s = if flags.contains('#') && n != 0 {
                    match conv {
                        b'x' => format!("0x{}", s),
                        b'X' => format!("0X{}", s),
                        _ => format!("0{}", s),
                    }
                } else {
                    s
                };
                s.into_bytes()
            }
            b'e' | b'E' | b'f' | b'g' | b'G' => {
                let x = a.number(argn)?;
                let p = precision.unwrap_or(6);
                let s = if !x.is_finite() {
                    format_number(x).trim_start_matches('-').to_string()
                } else {
                    match conv {
                        b'f' => format!("{:.*}", p, x.abs()),
                        b'e' | b'E' => c_exp(x.abs(), p),
                        _ if x == 0.0 => "0".to_string(),
                        _ => format_g(x.abs(), p.max(1)),
                    }
                };
                let s = if conv.is_ascii_uppercase() {
                    s.to_ascii_uppercase()
                } else {
                    s
                };
                sign_prefix(
                    x.is_sign_negative() && x != 0.0 || (x == 0.0 && x.is_sign_negative()),
                    &flags,
                    s,
                )
                .into_bytes()
            }
            b's' => {
                let s = a.string(argn)?;
                it.charge((s.len() / 1024) as u64, a.line)?;
                match precision {
                    Some(p) if p < s.len() => s[..p].to_vec(),
                    _ => s.to_vec(),
                }
            }
            b'q' => {
                let s = a.string(argn)?;
                let mut q = vec![b'"'];
                for &ch in s.iter() {
                    match ch {
                        b'"' | b'\\' | b'\n' => {
                            q.push(b'\\');
                            q.push(ch);
                        }
                        b'\r' => q.extend_from_slice(b"\\r"),
                        0 => q.extend_from_slice(b"\\000"),
                        _ => q.push(ch),
                    }
                }
                q.push(b'"');
                q
            }
            other => {
                return Err(runtime_error(
                    a.line,
                    &format!("invalid option '%{}' to 'format'", other as char),
                ))
            }
        };
        pad(
            &mut out,
            body,
            width,
            left,
            zero && !matches!(conv, b's' | b'q' | b'c'),
        );
        if out.len() > MAX_STRING_LEN {
            return Err(memory_error(a.line));
        }
    }
    Ok(out)
}

fn sign_prefix(negative: bool, flags: &str, digits: String) -> String {
    if negative {
        format!("-{}", digits)
    } else if flags.contains('+') {
        format!("+{}", digits)
    } else if flags.contains(' ') {
        format!(" {}", digits)
    } else {
        digits
    }
}

fn c_exp(x: f64, p: usize) -> String {
    let s = format!("{:.*e}", p, x);
    match s.split_once('e') {
        Some((m, e)) => {
            let exp: i32 = e.parse().unwrap_or(0);
            format!("{}e{}{:02}", m, if exp < 0 { '-' } else { '+' }, exp.abs())
        }
        None => s,
    }
}

fn pad(out: &mut Vec<u8>, body: Vec<u8>, width: usize, left: bool, zero: bool) {
    if body.len() >= width {
        out.extend_from_slice(&body);
    } else if left {
        out.extend_from_slice(&body);
        out.resize(out.len() + width - body.len(), b' ');
    } else if zero {
        let (sign, digits) = match body.first() {
            Some(b'-' | b'+' | b' ') => body.split_at(1),
            _ => body.split_at(0),
        };
        out.extend_from_slice(sign);
        out.resize(out.len() + width - body.len(), b'0');
        out.extend_from_slice(digits);
    } else {
        out.resize(out.len() + width - body.len(), b' ');
        out.extend_from_slice(&body);
    }
}
