//! What every library function works with: where it was called from ([`Site`]), its
//! arguments read with Lua 5.1's `bad argument #n to 'f' (…)` errors ([`Args`]), calls back
//! into Lua ([`call_from_lib`]), its results, and Lua's relative string positions.

use std::sync::Arc;

use crate::lua::handle::Builtin;
use crate::lua::interp::{bare_error, memory_error, runtime_error, Callee, Fault, Interp};
use crate::lua::lib_tables::make_lib;
use crate::lua::number::number_to_integer;
use crate::lua::value::{TableRef, Value, MAX_STRING_LEN};

/// How many values a library function's stack holds, its arguments included (Lua 5.1's
/// LUAI_MAXCSTACK): what `unpack` and `string.byte` can return.
pub const MAX_C_STACK: usize = 8000;

/// Where a builtin was called from.
#[derive(Debug, Clone, Copy)]
pub struct Site {
    /// The line of the call.
    pub line: u32,
    /// Called by a library function, not by Lua code (see `LibState::from_lib`).
    pub from_lib: bool,
}

/// Calls `f` from inside a library function, as Lua's C functions call back (see
/// `LibState::from_lib`).
pub fn call_from_lib(
    it: &mut Interp,
    f: &Value,
    args: Vec<Value>,
    line: u32,
) -> Result<Vec<Value>, Fault> {
    if let Value::Builtin(_) = f {
        it.libs.from_lib = true;
    }
    it.call_value(f, args, line, Callee::Unnamed)
}

/// Lua 5.1's relative string position (`posrelat`): negative counts from the end, and one
/// before the start is 0.
pub fn posrelat(pos: i64, len: usize) -> i64 {
    let pos = if pos < 0 {
        (len as i64).saturating_add(pos).saturating_add(1)
    } else {
        pos
    };
    pos.max(0)
}

/// Argument access with Lua 5.1's `bad argument #n to 'f' (…)` errors.
pub struct Args<'a> {
    /// The arguments.
    pub v: &'a [Value],
    /// The function they were passed to, which its errors name.
    pub f: Builtin,
    /// The line of the call.
    pub line: u32,
    /// Called by a library function: errors carry no position and no function name.
    pub from_lib: bool,
}

impl<'a> Args<'a> {
    pub fn new(v: &'a [Value], f: Builtin, site: Site) -> Self {
        Args {
            v,
            f,
            line: site.line,
            from_lib: site.from_lib,
        }
    }

    /// Lua's `luaL_error` from this function: positioned at the calling line, or without a
    /// position when a library function called it.
    pub fn error(&self, msg: &str) -> Fault {
        if self.from_lib {
            bare_error(self.line, msg)
        } else {
            runtime_error(self.line, msg)
        }
    }

    pub fn bad(&self, n: usize, msg: &str) -> Fault {
        // Called from a library function, Lua knows no name for the function.
        let name = if self.from_lib { "?" } else { self.f.name() };
        self.error(&format!("bad argument #{} to '{}' ({})", n, name, msg))
    }

    pub fn got(&self, n: usize) -> &'static str {
        match self.v.get(n - 1) {
            None => "no value",
            Some(v) => v.type_name(),
        }
    }

    pub fn any(&self, n: usize) -> Result<Value, Fault> {
        self.v
            .get(n - 1)
            .cloned()
            .ok_or_else(|| self.bad(n, "value expected"))
    }

    pub fn number(&self, n: usize) -> Result<f64, Fault> {
        match self.v.get(n - 1).and_then(|v| v.to_number()) {
            Some(x) => Ok(x),
            None => Err(self.bad(n, &format!("number expected, got {}", self.got(n)))),
        }
    }

    pub fn int(&self, n: usize) -> Result<i64, Fault> {
        Ok(number_to_integer(self.number(n)?))
    }

    pub fn opt_int(&self, n: usize, default: i64) -> Result<i64, Fault> {
        match self.v.get(n - 1) {
            None | Some(Value::Nil) => Ok(default),
            Some(_) => self.int(n),
        }
    }

    pub fn string(&self, n: usize) -> Result<Arc<[u8]>, Fault> {
        match self.v.get(n - 1).and_then(|v| v.to_str_bytes()) {
            Some(s) => Ok(s),
            None => Err(self.bad(n, &format!("string expected, got {}", self.got(n)))),
        }
    }

    pub fn function(&self, n: usize) -> Result<Value, Fault> {
        match self.v.get(n - 1) {
            Some(f @ (Value::Func(_) | Value::Builtin(_))) => Ok(f.clone()),
            _ => Err(self.bad(n, &format!("function expected, got {}", self.got(n)))),
        }
    }

    pub fn table(&self, n: usize) -> Result<TableRef, Fault> {
        match self.v.get(n - 1) {
            Some(Value::Table(t)) => Ok(t.clone()),
            // A library table handed to pairs/next/… is materialised as a fresh copy, read-only
            // like the library itself (`table.insert(string, x)` is refused as Redis refuses it).
            Some(Value::Lib(lib)) => {
                let copy = make_lib(*lib);
                copy.0.borrow_mut().locked = true;
                Ok(copy)
            }
            _ => Err(self.bad(n, &format!("table expected, got {}", self.got(n)))),
        }
    }
}

pub fn one(v: Value) -> Result<Vec<Value>, Fault> {
    Ok(vec![v])
}

pub fn string_result(bytes: Vec<u8>, line: u32) -> Result<Vec<Value>, Fault> {
    if bytes.len() > MAX_STRING_LEN {
        return Err(memory_error(line));
    }
    one(Value::Str(Arc::from(bytes)))
}
