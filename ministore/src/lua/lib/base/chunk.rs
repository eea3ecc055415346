//! Compiling Lua at run time: `loadstring(s, name)` and `load(reader, name)`, which answer a
//! function or `nil` and Lua's message (`[string "return 1+"]:1: unexpected symbol near
//! '<eof>'`), and Redis's `collectgarbage` / `gcinfo`, which have no collector to drive here.

use std::rc::Rc;

use crate::lua::interp::{chunk_id, Callee, Fault, Interp, SYNTAX_ID_SIZE};
use crate::lua::lib::args::{one, Args};
use crate::lua::parser;
use crate::lua::value::{Closure, Value, MAX_STRING_LEN};

/// Compiles `src` as a chunk named `name`: the function, or nil and the syntax error.
fn compile(src: &[u8], name: &str) -> Vec<Value> {
    match parser::parse_chunk(src, name) {
        Ok(body) => vec![Value::Func(Rc::new(Closure {
            body,
            captured: Vec::new(),
        }))],
        Err(e) => {
            let msg = format!("{}:{}: {}", chunk_id(name, SYNTAX_ID_SIZE), e.line, e);
            vec![Value::Nil, Value::str(msg.as_bytes())]
        }
    }
}

/// The optional chunk name in argument `n`.
fn chunk_name(a: &Args, n: usize, default: &[u8]) -> Result<String, Fault> {
    let name = match a.v.get(n - 1) {
        None | Some(Value::Nil) => default.to_vec(),
        Some(_) => a.string(n)?.to_vec(),
    };
    Ok(String::from_utf8_lossy(&name).into_owned())
}

/// `loadstring(s [, name])`; the chunk is named after its own source unless given a name.
pub(super) fn loadstring(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let src = a.string(1)?;
    let name = chunk_name(a, 2, &src)?;
    it.charge(src.len() as u64 / 64, a.line)?;
    Ok(compile(&src, &name))
}

/// `load(reader [, name])`: the source is the concatenation of the reader's results up to its
/// first nil or empty string.
pub(super) fn load(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let reader = match a.v.first() {
        Some(f @ (Value::Func(_) | Value::Builtin(_))) => f.clone(),
        _ => return Err(a.bad(1, &format!("function expected, got {}", a.got(1)))),
    };
    let name = chunk_name(a, 2, b"=(load)")?;
    let mut src = Vec::new();
    loop {
        it.step(a.line)?;
        // `lua_load` runs the reader protected: its error is `load`'s nil and message.
        let piece = match it.call_value(&reader, Vec::new(), a.line, Callee::Unnamed) {
            Ok(results) => results.into_iter().next().unwrap_or_default(),
            Err(fault) => return Ok(vec![Value::Nil, it.catch(fault)?]),
        };
        // `lua_tolstring`: a number piece is read as its text.
        let piece = match piece {
            Value::Num(_) => Value::str(&piece.to_display()),
            other => other,
        };
        match piece {
            Value::Nil => break,
            Value::Str(s) if s.is_empty() => break,
            Value::Str(s) => {
                if src.len() + s.len() > MAX_STRING_LEN {
                    return Err(crate::lua::interp::memory_error(a.line));
                }
                src.extend_from_slice(&s);
            }
            // `luaL_error` inside the protected load: placed at `load`'s caller, and caught.
            _ => {
                let mut msg = it.where_prefix(1).unwrap_or_default();
                msg.push_str("reader function must return a string");
                return Ok(vec![Value::Nil, Value::str(msg.as_bytes())]);
            }
        }
    }
    it.charge(src.len() as u64 / 64, a.line)?;
    Ok(compile(&src, &name))
}

/// `collectgarbage(opt [, arg])`: memory is reclaimed as soon as it is unreachable here, so
/// every option answers as an idle collector would; `setpause` and `setstepmul` keep their
/// setting in the interpreter's state and answer the one before (200 at first, Lua's
/// default).
pub(super) fn collectgarbage(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let opt = match a.v.first() {
        None | Some(Value::Nil) => b"collect".to_vec(),
        // `luaL_checkoption` compares the option as a C string, up to a NUL.
        Some(_) => crate::args::c_string(&a.string(1)?).to_vec(),
    };
    // `luaL_optint(L, 2, 0)`, read whatever the option.
    let arg = a.opt_int(2, 0)? as i32;
    match &opt[..] {
        b"collect" | b"stop" | b"restart" => one(Value::Num(0.0)),
        b"count" => one(Value::Num(GC_KBYTES)),
        // `step` answers whether the collector's cycle finished: on a fresh Redis Lua heap a
        // step of 10 KB or more finishes it, and so does a negative one (C's cast to an
        // unsigned size makes it huge). With garbage about, Redis's answer depends on how much.
        b"step" => one(Value::Bool(!(0..GC_STEP_FINISHES_KBYTES).contains(&arg))),
        b"setpause" => one(Value::Num(f64::from(std::mem::replace(
            &mut it.lua_state().gc_pause,
            arg,
        )))),
        b"setstepmul" => one(Value::Num(f64::from(std::mem::replace(
            &mut it.lua_state().gc_stepmul,
            arg,
        )))),
        other => Err(a.bad(
            1,
            &format!("invalid option '{}'", String::from_utf8_lossy(other)),
        )),
    }
}

/// What `gcinfo()` and `collectgarbage("count")` report, in KiB (a fresh Redis Lua state's size).
pub(super) const GC_KBYTES: f64 = 32.0;

/// The least `collectgarbage('step', n)` that finishes a cycle on Redis's fresh Lua heap.
const GC_STEP_FINISHES_KBYTES: i32 = 10;
