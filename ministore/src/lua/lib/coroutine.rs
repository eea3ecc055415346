//! The `coroutine` library as Lua 5.1 has it: create, resume, yield, status, wrap, running.
//! How a coroutine suspends and resumes is the interpreter's business (`interp/coroutine.rs`);
//! this file checks arguments and shapes results and errors as Lua 5.1's `lbaselib.c` does.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use super::super::interp::{runtime_error, Fault, Interp};
use super::args::{one, Args, Site};
use crate::lua::ast::FuncBody;
use crate::lua::handle::Builtin;
use crate::lua::value::{Closure, Coroutine, Value};

pub use crate::lua::handle::CoroutineFunc as Func;

thread_local! {
    /// The body of every function `coroutine.wrap` makes: `return resume(co, ...)`, with both
    /// names captured. Lua's is a C function; this one is Lua code that calls a builtin, which
    /// looks one level further up for the caller's position.
    static WRAP_BODY: Option<Arc<FuncBody>> =
        super::super::parser::parse_chunk(b"return resume(co, ...)", "@user_script").ok();
}

/// True for the Lua closures that stand in for Lua's C functions (wrap's and gmatch's
/// iterators): `coroutine.create` refuses them as it refuses any C function, and a call of one
/// in tail position keeps its caller's frame, as a C function's does.
pub(crate) fn is_native_closure(closure: &Closure) -> bool {
    let wrap = WRAP_BODY.with(|b| b.as_ref().is_some_and(|b| Arc::ptr_eq(b, &closure.body)));
    wrap || super::strmatch::is_gmatch_body(&closure.body)
}

/// Runs a `coroutine.*` function.
pub fn call(it: &mut Interp, f: Func, args: Vec<Value>, site: Site) -> Result<Vec<Value>, Fault> {
    let a = Args::new(&args, Builtin::Coroutine(f), site);
    match f {
        Func::Create => one(Value::Thread(Coroutine::new(lua_function(&a)?))),
        Func::Wrap => wrap(&a),
        Func::Resume => {
            let co = coroutine(&a)?;
            Ok(match it.resume(&co, args[1..].to_vec(), a.line)? {
                Ok(mut values) => {
                    values.insert(0, Value::Bool(true));
                    values
                }
                Err(error) => vec![Value::Bool(false), error],
            })
        }
        Func::Yield => {
            let line = a.line;
            Err(it.yield_values(args, line))
        }
        Func::Status => {
            let co = coroutine(&a)?;
            one(Value::str(it.status(&co).as_bytes()))
        }
        Func::Running => one(it.running()),
        Func::WrapResume => wrap_resume(it, &a),
    }
}

/// Argument 1 as a Lua function (not a builtin), as `create` and `wrap` need.
fn lua_function(a: &Args) -> Result<Rc<Closure>, Fault> {
    match a.v.first() {
        Some(Value::Func(closure)) if !is_native_closure(closure) => Ok(closure.clone()),
        _ => Err(a.bad(1, "Lua function expected")),
    }
}

/// Argument 1 as a coroutine.
fn coroutine(a: &Args) -> Result<Rc<Coroutine>, Fault> {
    match a.v.first() {
        Some(Value::Thread(co)) => Ok(co.clone()),
        _ => Err(a.bad(1, "coroutine expected")),
    }
}

/// `coroutine.wrap(f)`: a function that resumes a new coroutine running `f` with its
/// arguments and returns what it yields, raising its errors instead of returning them.
fn wrap(a: &Args) -> Result<Vec<Value>, Fault> {
    let co = Coroutine::new(lua_function(a)?);
    let Some(body) = WRAP_BODY.with(Clone::clone) else {
        return Err(runtime_error(a.line, "wrap unavailable"));
    };
    let cell = |v: Value| Rc::new(RefCell::new(v));
    let resume = Value::Builtin(Builtin::Coroutine(Func::WrapResume));
    one(Value::Func(Rc::new(Closure {
        body,
        captured: vec![
            (Arc::from("resume"), cell(resume)),
            (Arc::from("co"), cell(Value::Thread(co))),
        ],
    })))
}

/// The inside of a wrapped function: resume, and pass an error on with the caller's position
/// in front when it is a string or number (Lua's `luaL_where(L, 1)` in `auxwrap`).
fn wrap_resume(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let co = coroutine(a)?;
    let error = match it.resume(&co, a.v[1..].to_vec(), a.line)? {
        Ok(values) => return Ok(values),
        Err(error) => error,
    };
    // Level 1 is the wrapper's own Lua body; its caller is level 2.
    let line = it.level_line(2).unwrap_or(a.line);
    // `lua_concat` makes the result a string even when the place is empty (a library function
    // called the wrapper) and the error a number.
    let value = match &error {
        Value::Str(_) | Value::Num(_) => {
            let mut text = it.where_prefix(2).unwrap_or_default().into_bytes();
            text.extend_from_slice(&error.to_str_bytes().unwrap_or_default());
            Value::str(&text)
        }
        _ => error,
    };
    Err(Fault::Error { value, line })
}
