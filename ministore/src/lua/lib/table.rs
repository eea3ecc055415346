//! The `table` library: insert, remove, concat, getn.

use std::sync::Arc;

use super::super::interp::{memory_error, runtime_error, Fault, Interp};
use super::{one, string_result, Args, Builtin};
use crate::lua::value::{Value, MAX_STRING_LEN};

/// A `table.*` function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Insert,
    Concat,
    Remove,
    Getn,
}

/// Every field of the `table` table.
pub const NAMES: &[&str] = &["insert", "concat", "remove", "getn"];

/// `table.name`.
pub fn field(name: &[u8]) -> Value {
    let f = match name {
        b"insert" => Func::Insert,
        b"concat" => Func::Concat,
        b"remove" => Func::Remove,
        b"getn" => Func::Getn,
        _ => return Value::Nil,
    };
    Value::Builtin(Builtin::Table(f))
}

impl Func {
    /// The function's name in Lua's argument errors.
    pub fn name(self) -> &'static str {
        match self {
            Func::Insert => "insert",
            Func::Concat => "concat",
            Func::Remove => "remove",
            Func::Getn => "getn",
        }
    }
}

/// Runs a `table.*` function.
pub fn call(it: &mut Interp, f: Func, args: Vec<Value>, line: u32) -> Result<Vec<Value>, Fault> {
    let a = Args {
        v: &args,
        f: Builtin::Table(f),
        line,
    };
    match f {
        Func::Insert => {
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
        Func::Remove => {
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
        Func::Getn => one(Value::Num(a.table(1)?.len() as f64)),
        Func::Concat => concat(it, &a),
    }
}

fn concat(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let line = a.line;
    let t = a.table(1)?;
    let sep = match a.v.get(1) {
        None | Some(Value::Nil) => Arc::from(&b""[..]),
        Some(_) => a.string(2)?,
    };
    let i = a.opt_int(3, 1)?;
    let j = match a.v.get(3) {
        None | Some(Value::Nil) => t.len() as i64,
        Some(_) => a.int(4)?,
    };
    let mut out = Vec::new();
    let mut k = i;
    while k <= j {
        it.step(line)?;
        match t.get(&Value::Num(k as f64)) {
            v @ (Value::Str(_) | Value::Num(_)) => {
                out.extend_from_slice(&v.to_str_bytes().unwrap_or_else(|| Arc::from(&b""[..])))
            }
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
