//! The base library's error functions: `error` (levels, non-string values), `pcall`, `xpcall`
//! and `assert`, positioned as Lua 5.1 positions them.

use std::sync::Arc;

use crate::lua::interp::{runtime_error, Fault, Interp};
use crate::lua::lib::args::{call_from_lib, Args};
use crate::lua::value::Value;

/// `pcall(f, ...)`: `true` and f's results, or `false` and the error value.
/// Redis 7.0 replaces Lua's `pcall` with its own (`luaRedisPcall`), which, called with nothing,
/// tries to call the `true` it keeps for the result, and reads a table error's `err` field as
/// `lua_getfield` does (through `__index`; an error that raises is not caught): a string or a
/// number there is handed back in the table's place, anything else is left after it.
pub(super) fn pcall(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let Some(f) = a.v.first() else {
        let msg = Value::str(b"attempt to call a boolean value");
        return Ok(vec![Value::Bool(false), msg]);
    };
    let rest = a.v[1..].to_vec();
    match call_from_lib(it, f, rest, a.line) {
        Ok(mut results) => {
            results.insert(0, Value::Bool(true));
            Ok(results)
        }
        Err(fault) => {
            let value = it.catch(fault)?;
            if !matches!(value, Value::Table(_) | Value::Lib(_)) {
                return Ok(vec![Value::Bool(false), value]);
            }
            let err = it.index(&value, Value::str(b"err"), a.line, || None)?;
            Ok(match err {
                Value::Str(_) | Value::Num(_) => vec![Value::Bool(false), err],
                other => vec![Value::Bool(false), value, other],
            })
        }
    }
}

/// Lua 5.1's `LUAI_MAXCCALLS`: `luaD_call` refuses to nest deeper ("C stack overflow"), and an
/// eighth more raises the error-in-error-handling error.
const MAX_C_CALLS: u32 = 200;

/// `xpcall(f, handler)`: f's results after `true`, or `false` and what the handler makes of
/// the error value. As in Lua 5.1, a handler that is not a function, or one that keeps
/// failing, gives "error in error handling": each error the handler raises is handed to the
/// handler again, one C call deeper each time, until the depth runs out.
pub(super) fn xpcall(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let f = a.v.first().cloned().unwrap_or_default();
    let handler = a.any(2)?;
    let mut value = match call_from_lib(it, &f, Vec::new(), a.line) {
        Ok(mut results) => {
            results.insert(0, Value::Bool(true));
            return Ok(results);
        }
        Err(fault) => it.catch(fault)?,
    };
    let failed = || {
        Ok(vec![
            Value::Bool(false),
            Value::str(b"error in error handling"),
        ])
    };
    if !matches!(handler, Value::Func(_) | Value::Builtin(_)) {
        return failed();
    }
    // Lua counts the C calls under the error: the chunk's own call (or the coroutine's
    // resume), the library calls around `xpcall`, and `xpcall`'s call of `f`.
    let mut depth = it.c_calls() + 2;
    loop {
        depth += 1;
        if depth >= MAX_C_CALLS + MAX_C_CALLS / 8 {
            return failed();
        }
        if depth == MAX_C_CALLS {
            value = Value::str(b"C stack overflow");
            continue;
        }
        match call_from_lib(it, &handler, vec![value], a.line) {
            Ok(results) => {
                let handled = results.into_iter().next().unwrap_or_default();
                return Ok(vec![Value::Bool(false), handled]);
            }
            Err(fault) => value = it.catch(fault)?,
        }
    }
}

/// `error(value, level)`: a string or number message gets the position of the function
/// `level` steps up (1, the default: the caller of `error`; 0: none), as `luaL_where` gives
/// it — which turns a number into a string even where there is no position.
pub(super) fn error(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let line = a.line;
    let v = a.v.first().cloned().unwrap_or_default();
    // luaL_optint: the level cut to a C int.
    let level = a.opt_int(2, 1)? as i32 as i64;
    let value = match &v {
        Value::Str(_) | Value::Num(_) if level > 0 => {
            let text = v.to_str_bytes().unwrap_or_else(|| Arc::from(&b""[..]));
            let mut s = it
                .where_prefix(level as usize)
                .unwrap_or_default()
                .into_bytes();
            s.extend_from_slice(&text);
            Value::str(&s)
        }
        _ => v,
    };
    Err(Fault::Error { value, line })
}

/// `assert(v, message)`: its arguments when `v` is true, else an error with the message.
pub(super) fn assert(a: &Args) -> Result<Vec<Value>, Fault> {
    let v = a.any(1)?;
    if v.truthy() {
        return Ok(a.v.to_vec());
    }
    // luaL_optstring: an absent or nil message is the default one.
    let msg = match a.v.get(1) {
        Some(Value::Nil) | None => Arc::from(&b"assertion failed!"[..]),
        Some(m) => a
            .string(2)
            .map(|_| m.to_str_bytes().unwrap_or_else(|| Arc::from(&b""[..])))?,
    };
    Err(runtime_error(a.line, &String::from_utf8_lossy(&msg)))
}
