//! The `redis` library: call, pcall, error_reply, status_reply, sha1hex, log, acl_check_cmd,
//! setresp, the replication controls and debugger hooks Redis 7.0 keeps as no-ops for scripts,
//! and their constants (log levels, REPL_* flags, the server version).

use super::super::convert;
use super::super::interp::{Fault, Interp};
use super::args::{one, Site};
use crate::lua::handle::Builtin;
#[cfg(feature = "full")]
use crate::lua::lib_state::Registered;
use crate::lua::number::number_to_i32;
use crate::lua::value::{TableRef, Value};
use crate::shape::shape;

pub use crate::lua::handle::RedisFunc as Func;

/// The flags `redis.register_function` accepts.
#[cfg(feature = "full")]
const FUNCTION_FLAGS: &[&str] = &[
    "no-writes",
    "allow-oom",
    "allow-stale",
    "no-cluster",
    "allow-cross-slot-keys",
];

/// `redis.register_function(name, callback)` or `redis.register_function{function_name=…,
/// callback=…, flags={…}, description=…}`, with Redis's error texts.
#[cfg(feature = "full")]
fn register_function(it: &mut Interp, args: Vec<Value>, line: u32) -> Result<Vec<Value>, Fault> {
    let fail = |text: &str| Fault::Error {
        value: convert::error_table(format!("ERR {text}")),
        line,
    };
    // Redis looks for the load first, then reads the arguments.
    if !it.kind.is_load() {
        return Err(fail(
            "redis.register_function can only be called on FUNCTION LOAD command",
        ));
    }
    let registered = match args.as_slice() {
        [named @ (Value::Table(_) | Value::Lib(_))] => {
            let mut name = None;
            let mut callback = None;
            let mut description = None;
            let mut flags = Vec::new();
            let entries = match named {
                Value::Table(t) => convert::entries(t),
                // A library table (`redis` itself): its first key is none of the four.
                _ => return Err(fail("unknown argument given to redis.register_function")),
            };
            for (k, v) in entries {
                // Redis reads a string or number key as a C string, compared in any case.
                let key =
                    match &k {
                        Value::Str(_) | Value::Num(_) => k.to_str_bytes().unwrap_or_default(),
                        _ => return Err(fail(
                            "named argument key given to redis.register_function is not a string",
                        )),
                    };
                let key = crate::args::c_string(&key);
                let is = |word: &str| key.eq_ignore_ascii_case(word.as_bytes());
                if is("function_name") {
                    let Some(text) = v.to_str_bytes() else {
                        return Err(fail(
                            "function_name argument given to redis.register_function must be a string",
                        ));
                    };
                    name = Some(text.to_vec());
                } else if is("description") {
                    let Some(text) = v.to_str_bytes() else {
                        return Err(fail(
                            "description argument given to redis.register_function must be a string",
                        ));
                    };
                    description = Some(text.to_vec());
                } else if is("callback") {
                    if !matches!(v, Value::Func(_) | Value::Builtin(_)) {
                        return Err(fail(
                            "callback argument given to redis.register_function must be a function",
                        ));
                    }
                    callback = Some(v.clone());
                } else if is("flags") {
                    if !matches!(v, Value::Table(_) | Value::Lib(_)) {
                        return Err(fail("flags argument to redis.register_function must be a table representing function flags"));
                    }
                    flags = read_flags(it, &v, line)?.ok_or_else(|| fail("unknown flag given"))?;
                } else {
                    return Err(fail("unknown argument given to redis.register_function"));
                }
            }
            let Some(name) = name else {
                return Err(fail(
                    "redis.register_function must get a function name argument",
                ));
            };
            let Some(callback) = callback else {
                return Err(fail("redis.register_function must get a callback argument"));
            };
            Registered {
                name,
                callback,
                description,
                flags,
            }
        }
        [_] => {
            return Err(fail("calling redis.register_function with a single argument is only applicable to Lua table (representing named arguments)."));
        }
        [name, callback] => {
            if name.to_str_bytes().is_none() {
                return Err(fail(
                    "first argument to redis.register_function must be a string",
                ));
            }
            if !matches!(callback, Value::Func(_) | Value::Builtin(_)) {
                return Err(fail(
                    "second argument to redis.register_function must be a function",
                ));
            }
            Registered {
                name: name.to_str_bytes().map(|s| s.to_vec()).unwrap_or_default(),
                callback: callback.clone(),
                description: None,
                flags: Vec::new(),
            }
        }
        _ => return Err(fail("wrong number of arguments to redis.register_function")),
    };
    if !valid_name(&registered.name) {
        return Err(fail("Library names can only contain letters, numbers, or underscores(_) and must be at least one character long"));
    }
    let loaded = &mut it.libs.registered;
    if loaded.iter().any(|f| f.name == registered.name) {
        return Err(fail("Function already exists in the library"));
    }
    loaded.push(registered);
    Ok(Vec::new())
}

/// `flags={…}`: the flags at 1, 2, … up to the first nil, each read as `lua_gettable` reads it
/// (through `__index`) and matched in any case up to a zero byte; `None` for a value that is
/// not a known flag. Redis keeps them as bits, so they come back in its own order.
#[cfg(feature = "full")]
fn read_flags(
    it: &mut Interp,
    list: &Value,
    line: u32,
) -> Result<Option<Vec<&'static str>>, Fault> {
    let mut found = Vec::new();
    for i in 1u32.. {
        let flag = match it.index(list, Value::Num(f64::from(i)), line, || None) {
            // A library table refuses a missing key from C (`luaProtectedTableError`), and
            // called from C, as here, `luaL_error` finds no line to put before the message.
            Err(Fault::Runtime { msg, line }) if matches!(list, Value::Lib(_)) => {
                return Err(super::super::interp::bare_error(line, &msg))
            }
            read => read?,
        };
        if flag.is_nil() {
            break;
        }
        let known = match &flag {
            Value::Str(_) | Value::Num(_) => flag.to_str_bytes().and_then(|f| {
                let f = crate::args::c_string(&f);
                FUNCTION_FLAGS
                    .iter()
                    .find(|known| known.as_bytes().eq_ignore_ascii_case(f))
            }),
            _ => None,
        };
        match known {
            Some(known) => found.push(*known),
            None => return Ok(None),
        }
    }
    Ok(Some(
        FUNCTION_FLAGS
            .iter()
            .filter(|known| found.contains(known))
            .copied()
            .collect(),
    ))
}

/// Redis's rule for library and function names: letters, digits and `_`, at least one.
#[cfg(feature = "full")]
pub fn valid_name(name: &[u8]) -> bool {
    !name.is_empty() && name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

/// `redis.call` / `redis.pcall` (`b`) with these arguments: the command's reply as a Lua value
/// (by RESP3's rules after `redis.setresp(3)`, in the shape Redis gives that command in RESP3);
/// `redis.call` raises an error reply instead of returning it. The words reach the host
/// borrowed from the argument strings.
pub fn redis_call(it: &mut Interp, b: Builtin, args: &[Value], line: u32) -> Result<Value, Fault> {
    // Library functions copy, scan or hash their string arguments: charge for their length.
    let weight: u64 = args.iter().map(Value::weight).sum();
    it.charge(weight, line)?;
    // `redis.setresp` is `full`'s: without it, replies reach a script by RESP2's rules only.
    let resp3 = cfg!(feature = "full") && it.libs.resp == 3;
    let converted = convert::with_command_words(args, |words| {
        let reply = it.host.call(words);
        let failed = reply.is_error();
        let value = if resp3 {
            convert::frame_to_value(shape(words, reply))
        } else {
            convert::reply_to_value(reply)
        };
        (value, failed)
    });
    let (result, failed) = match converted {
        Ok((value, failed)) => {
            it.charge(1, line)?;
            if failed {
                // Redis marks the error reply of a command that ran, so that its error
                // statistics count it once: a script that looks through `redis.pcall`'s error
                // table finds the mark too. A call refused before any command ran has none.
                if let Value::Table(t) = &value {
                    let _ = t.set(Value::str(b"ignore_error_stats_update"), Value::Bool(true));
                }
            }
            (value, failed)
        }
        Err(text) => (convert::error_table(text.to_string()), true),
    };
    if failed && b == Builtin::REDIS_CALL {
        return Err(Fault::Error {
            value: result,
            line,
        });
    }
    Ok(result)
}

/// Runs a `redis.*` function.
pub fn call(it: &mut Interp, f: Func, args: Vec<Value>, site: Site) -> Result<Vec<Value>, Fault> {
    let line = site.line;
    match f {
        #[cfg(feature = "full")]
        Func::RegisterFunction => register_function(it, args, line),
        Func::Call | Func::Pcall => redis_call(it, Builtin::Redis(f), &args, line).map(|v| vec![v]),
        Func::ErrorReply => match args.as_slice() {
            [Value::Str(s)] => one(convert::error_reply_table(s)),
            _ => one(convert::error_table(
                "ERR wrong number or type of arguments".into(),
            )),
        },
        Func::StatusReply => match args.as_slice() {
            [Value::Str(s)] => {
                let t = TableRef::new();
                let _ = t.set(Value::str(b"ok"), Value::Str(s.clone()));
                one(Value::Table(t))
            }
            _ => one(convert::error_table(
                "ERR wrong number or type of arguments".into(),
            )),
        },
        Func::Sha1Hex => {
            if args.len() != 1 {
                return Err(raise("ERR wrong number of arguments", line));
            }
            // Redis hashes what lua_tolstring gives: nothing for a non-string.
            let s = args[0].to_str_bytes().unwrap_or_default();
            one(Value::str(
                sha1_smol::Sha1::from(&s[..])
                    .digest()
                    .to_string()
                    .as_bytes(),
            ))
        }
        Func::Log => {
            if args.len() < 2 {
                return Err(raise(
                    "ERR redis.log() requires two arguments or more.",
                    line,
                ));
            }
            let Some(level) = args[0].to_number() else {
                return Err(raise(
                    "ERR First argument must be a number (log level).",
                    line,
                ));
            };
            // `int level = lua_tonumber(…)`: NaN and out-of-range levels become INT_MIN.
            if !(0..=3).contains(&number_to_i32(level)) {
                return Err(raise("ERR Invalid debug level.", line));
            }
            // There is no server log to write to.
            Ok(Vec::new())
        }
        // Redis 7 always replicates effects; these remain for old scripts.
        Func::ReplicateCommands => one(Value::Bool(true)),
        Func::SetRepl => {
            if args.len() != 1 {
                return Err(raise("ERR redis.set_repl() requires two arguments.", line));
            }
            let flags = number_to_i32(args[0].to_number().unwrap_or(0.0));
            if flags & !3 != 0 {
                return Err(raise(
                    "ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.",
                    line,
                ));
            }
            Ok(Vec::new())
        }
        #[cfg(feature = "full")]
        Func::SetResp => {
            if args.len() != 1 {
                return Err(raise("ERR redis.setresp() requires one argument.", line));
            }
            let resp = args[0].to_number().unwrap_or(0.0) as i32;
            if resp != 2 && resp != 3 {
                return Err(raise("ERR RESP version must be 2 or 3.", line));
            }
            it.libs.resp = resp as u8;
            Ok(Vec::new())
        }
        Func::AclCheckCmd => acl_check_cmd(it, &args, line),
        // The debugger is never attached here, as outside `SCRIPT DEBUG` in Redis.
        Func::Breakpoint => one(Value::Bool(false)),
        Func::Debug => Ok(Vec::new()),
    }
}

/// An error reply raised as Redis's `redis` library raises it (an error table).
fn raise(text: &str, line: u32) -> Fault {
    Fault::Error {
        value: convert::error_table(text.into()),
        line,
    }
}

/// `redis.acl_check_cmd(cmd, ...)`: true when the command exists — every known command is
/// allowed to the default user, the only user here.
fn acl_check_cmd(it: &mut Interp, args: &[Value], line: u32) -> Result<Vec<Value>, Fault> {
    if args.is_empty() {
        return Err(raise(
            "ERR Please specify at least one argument for this redis lib call",
            line,
        ));
    }
    let mut words = Vec::with_capacity(args.len());
    for v in args {
        match v {
            Value::Str(_) | Value::Num(_) => words.push(v.to_str_bytes().unwrap_or_default()),
            _ => {
                return Err(raise(
                    "ERR Lua redis lib command arguments must be strings or integers",
                    line,
                ))
            }
        }
    }
    let words: Vec<&[u8]> = words.iter().map(|w| &w[..]).collect();
    if !it.host.command_exists(&words) {
        return Err(raise(
            "ERR Invalid command passed to redis.acl_check_cmd()",
            line,
        ));
    }
    one(Value::Bool(true))
}
