//! Lua's base functions as Redis scripts see them: tonumber, type, ipairs, pairs, next,
//! unpack, select, rawget, rawset, rawequal here; the error functions (error, pcall, xpcall,
//! assert) in [`protect`], tostring and the metatable functions in [`meta`], and run-time
//! compilation (loadstring, load) with the collector stubs in [`chunk`].

mod chunk;
mod meta;
mod protect;

use super::super::interp::{bare_error, runtime_error, Fault, Interp};
use super::args::{one, Args, Site, MAX_C_STACK};
use crate::lua::handle::Builtin;
use crate::lua::value::Value;
use crate::strtod::{after_space_and_sign, is_c_space};

pub use crate::lua::handle::BaseFunc as Func;

/// Runs a base function.
pub fn call(it: &mut Interp, f: Func, args: Vec<Value>, site: Site) -> Result<Vec<Value>, Fault> {
    let a = Args::new(&args, Builtin::Base(f), site);
    match f {
        Func::ToNumber => tonumber(&a),
        Func::ToString => meta::tostring(it, &a),
        Func::Type => one(Value::str(a.any(1)?.type_name().as_bytes())),
        Func::Ipairs => {
            // The table itself is the state (a library table as it is, not its copy).
            a.table(1)?;
            Ok(vec![
                Value::Builtin(Builtin::Base(Func::IpairsStep)),
                a.v[0].clone(),
                Value::Num(0.0),
            ])
        }
        Func::IpairsStep => {
            let t = a.table(1)?;
            let i = a.number(2)? + 1.0;
            let v = t.get(&Value::Num(i));
            if v.is_nil() {
                one(Value::Nil)
            } else {
                Ok(vec![Value::Num(i), v])
            }
        }
        Func::Pairs => {
            // The table itself is the state (a library table as it is, not its copy).
            a.table(1)?;
            Ok(vec![
                Value::Builtin(Builtin::Base(Func::PairsNext)),
                a.v[0].clone(),
                Value::Nil,
            ])
        }
        Func::Next | Func::PairsNext => next(&a),
        Func::Unpack => unpack(it, &a),
        Func::Select => select(&a),
        Func::Pcall => protect::pcall(it, &a),
        Func::XPcall => protect::xpcall(it, &a),
        Func::Error => protect::error(it, &a),
        Func::Assert => protect::assert(&a),
        Func::RawGet => {
            let t = a.table(1)?;
            one(t.get(&a.any(2)?))
        }
        Func::RawSet => rawset(it, &a),
        Func::RawEqual => one(Value::Bool(a.any(1)?.raw_eq(&a.any(2)?))),
        Func::SetMetatable => meta::setmetatable(it, &a),
        Func::GetMetatable => meta::getmetatable(it, &a),
        Func::UndefinedGlobal => meta::undefined_global(&a),
        Func::LoadString => chunk::loadstring(it, &a),
        Func::Load => chunk::load(it, &a),
        Func::GcInfo => one(Value::Num(chunk::GC_KBYTES)),
        Func::CollectGarbage => chunk::collectgarbage(it, &a),
    }
}

fn tonumber(a: &Args) -> Result<Vec<Value>, Fault> {
    // luaL_optint: the base cut to a C int.
    let base = a.opt_int(2, 10)? as i32;
    if base == 10 {
        let v = a.any(1)?;
        return one(v.to_number().map(Value::Num).unwrap_or(Value::Nil));
    }
    let s = a.string(1)?;
    if !(2..=36).contains(&base) {
        return Err(a.bad(2, "base out of range"));
    }
    // Lua hands strtoul a C string: it ends at the first NUL.
    let s = s.split(|&c| c == 0).next().unwrap_or_default();
    one(match strtoul(s, base as u32) {
        Some((n, end)) if s[end..].iter().all(|&c| is_c_space(c)) => Value::Num(n as f64),
        _ => Value::Nil,
    })
}

/// C's `strtoul`: leading space, a sign, `0x` in base 16, then digits (saturating on overflow,
/// a minus sign negating modulo 2^64). The value and where the digits end, or None without a
/// digit.
fn strtoul(s: &[u8], base: u32) -> Option<(u64, usize)> {
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let (mut i, negative) = after_space_and_sign(s);
    if base == 16 && at(i) == b'0' && at(i + 1) | 0x20 == b'x' && at(i + 2).is_ascii_hexdigit() {
        i += 2;
    }
    let start = i;
    let mut n: u64 = 0;
    let mut overflow = false;
    while let Some(d) = (at(i) as char).to_digit(base) {
        match n
            .checked_mul(base as u64)
            .and_then(|m| m.checked_add(d as u64))
        {
            Some(m) => n = m,
            None => overflow = true,
        }
        i += 1;
    }
    if i == start {
        return None;
    }
    let n = match (overflow, negative) {
        (true, _) => u64::MAX,
        (false, true) => n.wrapping_neg(),
        (false, false) => n,
    };
    Some((n, i))
}

fn next(a: &Args) -> Result<Vec<Value>, Fault> {
    let t = a.table(1)?;
    let key = a.v.get(1).cloned().unwrap_or_default();
    let table = t.0.borrow();
    let cursor = match &key {
        Value::Nil => Some(0),
        k => table.cursor_after(k),
    };
    match cursor {
        // Raised inside the library function, so without a position.
        None => Err(bare_error(a.line, "invalid key to 'next'")),
        Some(c) => match table.next_from(c) {
            Some((_, k, v)) => Ok(vec![k, v]),
            None => one(Value::Nil),
        },
    }
}

fn unpack(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let t = a.table(1)?;
    // luaL_optint / luaL_checkint: C ints, so 2^31 wraps round.
    let i = a.opt_int(2, 1)? as i32;
    let j = match a.v.get(2) {
        None | Some(Value::Nil) => t.len() as i32,
        Some(_) => a.int(3)? as i32,
    };
    if i > j {
        return Ok(Vec::new());
    }
    // As Lua counts them in a C int, and its check that the results fit on a C function's
    // stack (LUAI_MAXCSTACK) beside the arguments already there.
    let n = j.wrapping_sub(i).wrapping_add(1);
    if n <= 0 || a.v.len() + n as usize > MAX_C_STACK {
        return Err(runtime_error(a.line, "too many results to unpack"));
    }
    it.charge(n as u64, a.line)?;
    Ok((i..=j).map(|k| t.get(&Value::Num(f64::from(k)))).collect())
}

fn select(a: &Args) -> Result<Vec<Value>, Fault> {
    let args = a.v;
    // Lua 5.1 looks only at the first character: `select('#x', …)` counts too.
    if let Some(Value::Str(s)) = args.first() {
        if s.first() == Some(&b'#') {
            return one(Value::Num((args.len() - 1) as f64));
        }
    }
    // luaL_checkint: the index cut to a C int.
    let i = a.int(1)? as i32 as i64;
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

/// `rawset(t, k, v)`: a write that skips `__newindex`, refused on Redis's read-only tables
/// (without a position: the error is raised inside the library function).
fn rawset(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let t = match a.v.first() {
        Some(Value::Table(t)) => t.clone(),
        Some(Value::Lib(_)) => return Err(it.readonly_error(a.line)),
        _ => return Err(a.bad(1, &format!("table expected, got {}", a.got(1)))),
    };
    if t.0.borrow().refuses_writes() {
        return Err(it.readonly_error(a.line));
    }
    let k = a.any(2)?;
    let v = a.any(3)?;
    t.set(k, v).map_err(|m| bare_error(a.line, m))?;
    one(Value::Table(t))
}
