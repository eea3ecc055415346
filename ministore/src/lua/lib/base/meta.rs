//! The base library's metatable functions: `setmetatable` (with `__metatable` protection and
//! Redis's read-only tables), `getmetatable` (strings share one metatable whose `__index` is
//! the string library) and `tostring` with `__tostring`.

use crate::lua::interp::{runtime_error, undefined_global_message, Callee, Fault, Interp};
use crate::lua::lib::args::{one, Args};
use crate::lua::value::Value;

pub(super) fn setmetatable(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let t = match a.v.first() {
        Some(Value::Table(t)) => t.clone(),
        Some(Value::Lib(_)) => return Err(it.readonly_error(a.line)),
        _ => return Err(a.bad(1, &format!("table expected, got {}", a.got(1)))),
    };
    let meta = match a.v.get(1) {
        Some(Value::Nil) => None,
        Some(Value::Table(m)) => Some(m.clone()),
        // A library table as a metatable: its read-only copy, which has no metamethods.
        Some(Value::Lib(_)) => Some(a.table(2)?),
        _ => return Err(a.bad(2, "nil or table expected")),
    };
    if !t.metamethod("__metatable").is_nil() {
        return Err(runtime_error(a.line, "cannot change a protected metatable"));
    }
    let mut table = t.0.borrow_mut();
    if table.refuses_writes() {
        return Err(it.readonly_error(a.line));
    }
    table.meta = meta;
    drop(table);
    one(Value::Table(t))
}

pub(super) fn getmetatable(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let v = a.any(1)?;
    let meta = match &v {
        Value::Table(t) => {
            let table = t.0.borrow();
            if table.readonly {
                Some(it.globals_metatable())
            } else {
                table.meta.clone()
            }
        }
        Value::Str(_) => Some(it.string_metatable()),
        _ => None,
    };
    let Some(meta) = meta else {
        return one(Value::Nil);
    };
    let protected = meta.get_str("__metatable");
    if !protected.is_nil() {
        return one(protected);
    }
    one(Value::Table(meta))
}

/// `_G`'s `__index`: Redis's error for reading a global nobody defined.
pub(super) fn undefined_global(a: &Args) -> Result<Vec<Value>, Fault> {
    let key = a.v.get(1).cloned().unwrap_or_default();
    Err(runtime_error(a.line, &undefined_global_message(&key)))
}

/// `tostring(v)`: a metatable's `__tostring` result as it is, else Lua's printed form.
pub(super) fn tostring(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let v = a.any(1)?;
    let h = it.metamethod(&v, "__tostring");
    if !h.is_nil() {
        let first = it.call_value(&h, vec![v], a.line, Callee::Unnamed)?;
        return one(first.into_iter().next().unwrap_or_default());
    }
    one(match v {
        Value::Str(_) => v,
        other => Value::str(&other.to_display()),
    })
}
