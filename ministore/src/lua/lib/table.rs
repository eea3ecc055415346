//! The `table` library as Lua 5.1 has it: insert, remove, concat, sort, maxn, getn, setn,
//! foreach, foreachi. Every read and write is raw, as in Lua 5.1's C library.

use std::sync::Arc;

use super::super::interp::{bare_error, memory_error, Fault, Interp};
use super::args::{call_from_lib, one, string_result, Args, Site};
use crate::lua::handle::Builtin;
use crate::lua::value::{TableRef, Value, MAX_STRING_LEN};

pub use crate::lua::handle::TableFunc as Func;

fn geti(t: &TableRef, i: i64) -> Value {
    t.get(&Value::Num(i as f64))
}

fn seti(t: &TableRef, i: i64, v: Value, line: u32) -> Result<(), Fault> {
    t.set(Value::Num(i as f64), v)
        .map_err(|_| memory_error(line))
}

/// Runs a `table.*` function.
pub fn call(it: &mut Interp, f: Func, args: Vec<Value>, site: Site) -> Result<Vec<Value>, Fault> {
    let line = site.line;
    let a = Args::new(&args, Builtin::Table(f), site);
    match f {
        Func::Insert => insert(it, &a),
        Func::Remove => remove(it, &a),
        Func::Getn => one(Value::Num(a.table(1)?.len() as f64)),
        Func::Setn => {
            a.table(1)?;
            Err(a.error("'setn' is obsolete"))
        }
        Func::Maxn => {
            let t = a.table(1)?;
            let table = t.0.borrow();
            let mut max = 0.0;
            let mut cursor = 0;
            while let Some((next, k, _)) = table.next_from(cursor) {
                if let Value::Num(n) = k {
                    if n > max {
                        max = n;
                    }
                }
                cursor = next;
            }
            one(Value::Num(max))
        }
        Func::Concat => concat(it, &a),
        Func::Sort => super::sort::sort(it, &a),
        Func::Foreach => foreach(it, &a),
        Func::Foreachi => {
            let t = a.table(1)?;
            let n = t.len() as i64;
            let f = a.function(2)?;
            for i in 1..=n {
                let r = first(call_from_lib(
                    it,
                    &f,
                    vec![Value::Num(i as f64), geti(&t, i)],
                    line,
                )?);
                if !r.is_nil() {
                    return one(r);
                }
            }
            Ok(Vec::new())
        }
    }
}

fn first(v: Vec<Value>) -> Value {
    v.into_iter().next().unwrap_or_default()
}

fn foreach(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let t = a.table(1)?;
    let f = a.function(2)?;
    let mut cursor = 0;
    loop {
        let entry = t.0.borrow().next_from(cursor);
        let Some((next, k, v)) = entry else {
            return Ok(Vec::new());
        };
        let r = first(call_from_lib(it, &f, vec![k.clone(), v], a.line)?);
        if !r.is_nil() {
            return one(r);
        }
        // The function may have changed the table: go on from the key, as `next` does.
        cursor = match t.0.borrow().cursor_after(&k) {
            Some(c) => c,
            None if next > 0 => return Err(bare_error(a.line, "invalid key to 'next'")),
            None => return Ok(Vec::new()),
        };
    }
}

fn insert(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let t = a.table(1)?;
    let line = a.line;
    let mut e = t.len() as i64 + 1;
    // Redis's read-only tables (`_G`, the metatables it locks) refuse the write, after the
    // arguments are checked. Their array parts are empty, so no other table function writes
    // to them.
    let writable = |it: &Interp| {
        if t.0.borrow().refuses_writes() {
            Err(it.readonly_error(line))
        } else {
            Ok(())
        }
    };
    let (pos, value) = match a.v.len() {
        2 => {
            writable(it)?;
            (e, a.v[1].clone())
        }
        3 => {
            // luaL_checkint: the integer cut to a C int.
            let pos = a.int(2)? as i32 as i64;
            writable(it)?;
            if pos > e {
                e = pos;
            }
            let mut i = e;
            while i > pos {
                it.step(line)?;
                seti(&t, i, geti(&t, i - 1), line)?;
                i -= 1;
            }
            (pos, a.v[2].clone())
        }
        _ => return Err(a.error("wrong number of arguments to 'insert'")),
    };
    seti(&t, pos, value, line)?;
    Ok(Vec::new())
}

fn remove(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let t = a.table(1)?;
    let e = t.len() as i64;
    let pos = a.opt_int(2, e)? as i32 as i64;
    if !(1 <= pos && pos <= e) {
        return Ok(Vec::new());
    }
    it.charge((e - pos) as u64 / 16, a.line)?;
    let removed = geti(&t, pos);
    for i in pos..e {
        seti(&t, i, geti(&t, i + 1), a.line)?;
    }
    seti(&t, e, Value::Nil, a.line)?;
    one(removed)
}

fn concat(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let line = a.line;
    let sep = match a.v.get(1) {
        None | Some(Value::Nil) => Arc::from(&b""[..]),
        Some(_) => a.string(2)?,
    };
    let t = a.table(1)?;
    let i = a.opt_int(3, 1)? as i32 as i64;
    let j = match a.v.get(3) {
        None | Some(Value::Nil) => t.len() as i64,
        Some(_) => a.int(4)? as i32 as i64,
    };
    let mut out = Vec::new();
    let mut k = i;
    while k <= j {
        it.step(line)?;
        match geti(&t, k) {
            v @ (Value::Str(_) | Value::Num(_)) => {
                out.extend_from_slice(&v.to_str_bytes().unwrap_or_else(|| Arc::from(&b""[..])))
            }
            other => {
                return Err(a.error(&format!(
                    "invalid value ({}) at index {} in table for 'concat'",
                    other.type_name(),
                    k
                )))
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
