//! The `redis` library: call, pcall, error_reply, status_reply, sha1hex, log, the replication
//! controls Redis 7.0 keeps for old scripts, and their constants.

use super::super::convert;
use super::super::interp::{Fault, Interp};
use super::{one, Args, Builtin, Site};
use crate::lua::value::{TableRef, Value};

/// A `redis.*` function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Call,
    Pcall,
    ErrorReply,
    StatusReply,
    Sha1Hex,
    Log,
    ReplicateCommands,
    SetRepl,
}

/// Every field of the `redis` table.
pub const NAMES: &[&str] = &[
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
];

/// `redis.name`.
pub fn field(name: &[u8]) -> Value {
    let f = match name {
        b"call" => Func::Call,
        b"pcall" => Func::Pcall,
        b"error_reply" => Func::ErrorReply,
        b"status_reply" => Func::StatusReply,
        b"sha1hex" => Func::Sha1Hex,
        b"log" => Func::Log,
        b"replicate_commands" => Func::ReplicateCommands,
        b"set_repl" => Func::SetRepl,
        b"REPL_NONE" => return Value::Num(0.0),
        b"REPL_AOF" => return Value::Num(1.0),
        b"REPL_SLAVE" | b"REPL_REPLICA" => return Value::Num(2.0),
        b"REPL_ALL" => return Value::Num(3.0),
        b"LOG_DEBUG" => return Value::Num(0.0),
        b"LOG_VERBOSE" => return Value::Num(1.0),
        b"LOG_NOTICE" => return Value::Num(2.0),
        b"LOG_WARNING" => return Value::Num(3.0),
        _ => return Value::Nil,
    };
    Value::Builtin(Builtin::Redis(f))
}

impl Func {
    /// The function's name in Lua's argument errors.
    pub fn name(self) -> &'static str {
        match self {
            Func::Call => "call",
            Func::Pcall => "pcall",
            Func::ErrorReply => "error_reply",
            Func::StatusReply => "status_reply",
            Func::Sha1Hex => "sha1hex",
            Func::Log => "log",
            Func::ReplicateCommands => "replicate_commands",
            Func::SetRepl => "set_repl",
        }
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
    let a = Args::new(&args, Builtin::Redis(f), site);
    match f {
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
            let s = a.string(1)?;
            one(Value::str(
                sha1_smol::Sha1::from(&s[..])
                    .digest()
                    .to_string()
                    .as_bytes(),
            ))
        }
        Func::Log => Ok(Vec::new()),
        // Redis 7 always replicates effects; these remain for old scripts.
        Func::ReplicateCommands => one(Value::Bool(true)),
        Func::SetRepl => match args.len() {
            1 => Ok(Vec::new()),
            _ => Err(Fault::Error {
                value: convert::error_table("ERR redis.set_repl() requires two arguments.".into()),
                line,
            }),
        },
    }
}
