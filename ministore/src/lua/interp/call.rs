//! Function calls: Lua closures (parameters, varargs and Lua 5.1's `arg`), library functions
//! (with the call-stack entry that positions their errors), `__call`, and closure creation.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use super::outcome::{CallResult, Flow};
use super::saved::{CallAt, Saved};
use super::{type_error, Activation, Fault, Frame, Interp, CALL_NESTING, NATIVE, NATIVE_NESTING};
use crate::lua::ast::{Expr, ExprKind, FuncBody, Vararg};
use crate::lua::handle::Builtin;
use crate::lua::value::{Cell, Closure, Table, TableRef, Value};

/// `redis.call` arguments up to this many are evaluated into a stack array, not a Vec.
const INLINE_ARGS: usize = 6;

/// What called a function, as Lua 5.1 tells from the calling instruction: a library function's
/// argument errors name it by this (`bad argument #1 to 'f'` after `local f = string.rep`).
#[derive(Clone, Copy)]
pub enum Callee<'a, 'f> {
    /// A call expression's function, in the caller's frame.
    Expr(&'a Expr, &'a Frame<'f>),
    /// `obj:name(…)`.
    Method(&'a str),
    /// The iterator function of a `for … in`.
    ForGenerator,
    /// A metamethod, a library function's callback, a coroutine's body or a function FCALL
    /// runs: Lua knows no name for it (`?`).
    Unnamed,
}

impl Callee<'_, '_> {
    /// The name Lua's `getfuncname` finds: a variable's, a field's constant string key, a
    /// method's; none (`?`) for anything else.
    fn name(self) -> Option<String> {
        fn named(e: &Expr) -> Option<String> {
            match &e.kind {
                ExprKind::Name(n) => Some(n.to_string()),
                ExprKind::Index { key, .. } => match &key.kind {
                    // Lua prints the name with `%s`, which ends at a NUL.
                    ExprKind::Str(s) => {
                        Some(String::from_utf8_lossy(crate::args::c_string(s)).into_owned())
                    }
                    _ => None,
                },
                ExprKind::Paren(inner) => named(inner),
                _ => None,
            }
        }
        match self {
            Callee::Expr(e, _) => named(e),
            Callee::Method(name) => Some(name.to_string()),
            Callee::ForGenerator => Some("(for generator)".to_string()),
            Callee::Unnamed => None,
        }
    }
}

impl Interp<'_> {
    /// Evaluates `f(args)`. `redis.call`/`redis.pcall` with a few plain arguments — nearly every
    /// call a Redis script makes — take a path that allocates nothing for the arguments or the
    /// result list.
    #[inline(never)]
    pub(super) fn call_expr(
        &mut self,
        fexpr: &Expr,
        args: &[Expr],
        line: u32,
        frame: &mut Frame,
        tail: bool,
    ) -> Result<CallResult, Fault> {
        let f = match self.resumed(line, |s| match s {
            Saved::Call(at) => Some(at),
            _ => None,
        })? {
            None => {
                self.step(line)?;
                let f = self
                    .eval(fexpr, frame)
                    .map_err(|e| self.suspend(e, Saved::Call(CallAt::Func)))?;
                if let Some(result) = self.redis_call_inline(&f, args, line, frame) {
                    return result;
                }
                f
            }
            Some(CallAt::Func) => self
                .eval(fexpr, frame)
                .map_err(|e| self.suspend(e, Saved::Call(CallAt::Func)))?,
            Some(CallAt::Args(f)) => f,
            Some(CallAt::Calling(f)) => {
                return self
                    .resume_call(&f, line)
                    .map(CallResult::Many)
                    .map_err(|e| self.suspend(e, Saved::Call(CallAt::Calling(f.clone()))));
            }
        };
        let args = self
            .eval_list(args, frame, 0)
            .map_err(|e| self.suspend(e, Saved::Call(CallAt::Args(f.clone()))))?;
        self.call_yieldable(&f, args, line, Callee::Expr(fexpr, frame), tail)
            .map(CallResult::Many)
            .map_err(|e| self.suspend(e, Saved::Call(CallAt::Calling(f.clone()))))
    }

    /// `redis.call` / `redis.pcall` with a few single-valued arguments, evaluated into a stack
    /// array; `None` for any other call.
    fn redis_call_inline(
        &mut self,
        f: &Value,
        args: &[Expr],
        line: u32,
        frame: &mut Frame,
    ) -> Option<Result<CallResult, Fault>> {
        let Value::Builtin(b @ (Builtin::REDIS_CALL | Builtin::REDIS_PCALL)) = *f else {
            return None;
        };
        if args.len() > INLINE_ARGS || args.last().is_some_and(Expr::is_multi) {
            return None;
        }
        let mut values: [Value; INLINE_ARGS] = Default::default();
        for (i, arg) in args.iter().enumerate() {
            match self.eval(arg, frame) {
                Ok(v) => values[i] = v,
                Err(e) => {
                    // A yield in an argument resumes on the general path.
                    let e = self.suspend(e, Saved::List(values[..i].to_vec()));
                    return Some(Err(self.suspend(e, Saved::Call(CallAt::Args(f.clone())))));
                }
            }
        }
        let caller = self.note_call_line(line);
        Some(
            (self.natives.redis_call)(self, b, &values[..args.len()], line)
                .map(CallResult::One)
                .map_err(|e| self.resolve_native(e, caller)),
        )
    }

    /// Carries on with a call a coroutine yielded inside: replays into the function called, or,
    /// when this was the `yield` itself, returns what the coroutine was resumed with.
    fn resume_call(&mut self, f: &Value, line: u32) -> Result<Vec<Value>, Fault> {
        if self.replaying() {
            return self.call_yieldable(f, Vec::new(), line, Callee::Unnamed, false);
        }
        self.note_call_line(line);
        Ok(self.resumed_values())
    }

    /// `obj:name(args)` on `line` (its name read on `name_line`): one step of the budget, on a
    /// coroutine's replay too, then the object, the method and the arguments, and the call.
    #[inline(never)]
    pub(super) fn call_method(
        &mut self,
        obj_expr: &Expr,
        name: &Arc<str>,
        args: &[Expr],
        (line, name_line): (u32, u32),
        frame: &mut Frame,
        tail: bool,
    ) -> Result<Vec<Value>, Fault> {
        self.step(line)?;
        /// Where a resumed method call carries on.
        enum At {
            Object,
            Args(Value, Value),
            Calling(Value),
        }
        let at = self.resumed(line, |s| match s {
            Saved::MethodObject => Some(At::Object),
            Saved::MethodArgs { obj, f } => Some(At::Args(obj, f)),
            Saved::MethodCalling(f) => Some(At::Calling(f)),
            _ => None,
        })?;
        let (obj, f) = match at {
            None | Some(At::Object) => {
                let obj = self
                    .eval(obj_expr, frame)
                    .map_err(|e| self.suspend(e, Saved::MethodObject))?;
                let key = Value::Str(Arc::from(name.as_bytes()));
                let f = self.index(&obj, key, name_line, || {
                    super::eval::describe(obj_expr, frame)
                })?;
                (obj, f)
            }
            Some(At::Args(obj, f)) => (obj, f),
            Some(At::Calling(f)) => {
                // Only a call made again (the yield was deeper) is a method call to report.
                self.method_call = self.replaying();
                return self
                    .resume_call(&f, line)
                    .map_err(|e| self.suspend(e, Saved::MethodCalling(f.clone())));
            }
        };
        let rest = self.eval_list(args, frame, 0).map_err(|e| {
            self.suspend(
                e,
                Saved::MethodArgs {
                    obj: obj.clone(),
                    f: f.clone(),
                },
            )
        })?;
        let mut all = Vec::with_capacity(rest.len() + 1);
        all.push(obj);
        all.extend(rest);
        if matches!(f, Value::Func(_) | Value::Builtin(_))
            || !self.metamethod(&f, "__call").is_nil()
        {
            self.method_call = true;
            self.call_yieldable(&f, all, line, Callee::Method(name), tail)
                .map_err(|e| self.suspend(e, Saved::MethodCalling(f.clone())))
        } else {
            Err(type_error(
                line,
                "call",
                Some(&format!("method '{}'", name)),
                &f,
            ))
        }
    }

    /// Records the line the running Lua function calls from; returns the caller's entry.
    fn note_call_line(&mut self, line: u32) -> Activation {
        match self.stack.last_mut() {
            Some(top) => {
                if top.chunk != NATIVE {
                    top.line = line;
                }
                *top
            }
            None => Activation {
                chunk: NATIVE,
                line,
                tail: false,
            },
        }
    }

    /// How many calls on behalf of a library function or a metamethod enclose this point in
    /// the running coroutine (Lua 5.1's `nCcalls`, less the chunk's or the resume's own).
    pub fn c_calls(&self) -> u32 {
        self.co.c_calls
    }

    /// Calls a function value with arguments (a non-function through its `__call`) on behalf
    /// of a library function or a metamethod. As in Lua 5.1, which runs these through a C
    /// call, a coroutine cannot yield from inside such a call.
    pub fn call_value(
        &mut self,
        f: &Value,
        args: Vec<Value>,
        line: u32,
        callee: Callee,
    ) -> Result<Vec<Value>, Fault> {
        self.co.c_calls += 1;
        let result = self.call_yieldable(f, args, line, callee, false);
        self.co.c_calls -= 1;
        result
    }

    /// Calls a function value for the script itself (a call expression, `__call`, a
    /// coroutine's body): a coroutine may yield from inside. `tail`: the call is a `return`'s
    /// only expression, which Lua makes a tail call.
    pub(super) fn call_yieldable(
        &mut self,
        f: &Value,
        args: Vec<Value>,
        line: u32,
        callee: Callee,
        tail: bool,
    ) -> Result<Vec<Value>, Fault> {
        let caller = self.note_call_line(line);
        let method = std::mem::take(&mut self.method_call);
        match f {
            // A library function runs in its caller's frame even in tail position; only a Lua
            // function takes the frame over.
            Value::Builtin(b) => self.call_builtin(*b, args, line, caller, callee, method),
            Value::Func(closure) => {
                let tail = tail && !crate::lua::lib::stands_for_c(closure);
                self.enter(line, CALL_NESTING)?;
                let result = self.call_closure(closure, args, tail);
                self.nesting -= CALL_NESTING;
                result
            }
            other => {
                let handler = self.metamethod(other, "__call");
                if matches!(handler, Value::Func(_) | Value::Builtin(_)) {
                    let mut all = Vec::with_capacity(args.len() + 1);
                    all.push(other.clone());
                    all.extend(args);
                    return self.call_yieldable(&handler, all, line, Callee::Unnamed, tail);
                }
                let desc = match callee {
                    Callee::Expr(e, fr) => super::eval::describe(e, fr),
                    _ => None,
                };
                Err(self.vm_type_error(line, "call", desc.as_deref(), other))
            }
        }
    }

    fn call_builtin(
        &mut self,
        b: Builtin,
        args: Vec<Value>,
        line: u32,
        caller: Activation,
        callee: Callee,
        method: bool,
    ) -> Result<Vec<Value>, Fault> {
        self.enter(line, NATIVE_NESTING)?;
        self.stack.push(Activation {
            chunk: NATIVE,
            line,
            tail: false,
        });
        let result = (self.natives.call)(self, b, args, line);
        self.stack.pop();
        self.nesting -= NATIVE_NESTING;
        result.map_err(|e| {
            let e = named_by_caller(e, b, callee);
            let e = if method { self_not_counted(e) } else { e };
            self.resolve_native(e, caller)
        })
    }

    fn call_closure(
        &mut self,
        closure: &Rc<Closure>,
        args: Vec<Value>,
        tail: bool,
    ) -> Result<Vec<Value>, Fault> {
        self.entering_function();
        self.call_body(&closure.body, &closure.captured, args, tail)
    }

    /// Runs a function body with its captured variables and arguments, as one activation
    /// (entered by a tail call when `tail`).
    pub(super) fn call_body(
        &mut self,
        body: &Arc<FuncBody>,
        captured: &[(Arc<str>, Cell)],
        args: Vec<Value>,
        tail: bool,
    ) -> Result<Vec<Value>, Fault> {
        Ok(match self.call_body_flow(body, captured, args, tail)? {
            Flow::Return(v) => v,
            Flow::ReturnOne(v) => vec![v],
            Flow::Normal | Flow::Break => Vec::new(),
        })
    }

    /// [`Interp::call_body`], with the function's results as its `return` left them (one
    /// value without a Vec, for the commonest return).
    pub(super) fn call_body_flow(
        &mut self,
        body: &Arc<FuncBody>,
        captured: &[(Arc<str>, Cell)],
        args: Vec<Value>,
        tail: bool,
    ) -> Result<Flow, Fault> {
        let chunk = self.chunk_index(&body.source);
        let mut frame = match self.resumed(0, |s| match s {
            Saved::Body { locals, varargs } => Some((locals, varargs)),
            _ => None,
        })? {
            Some((locals, varargs)) => Frame {
                locals,
                captured,
                varargs,
            },
            None => bind_arguments(body, captured, args),
        };
        self.stack.push(Activation {
            chunk,
            line: 0,
            tail,
        });
        let result = self.exec_block(&body.body, &mut frame);
        self.stack.pop();
        match result {
            Ok(flow) => Ok(flow),
            Err(Fault::Yield) => Err(self.suspend(
                Fault::Yield,
                Saved::Body {
                    locals: frame.locals,
                    varargs: frame.varargs,
                },
            )),
            Err(e) => Err(self.resolve_lua(e, chunk)),
        }
    }

    pub(super) fn closure(&self, body: &Arc<FuncBody>, frame: &Frame) -> Value {
        let mut captured = Vec::with_capacity(frame.captured.len() + frame.locals.len());
        captured.extend(frame.captured.iter().cloned());
        captured.extend(frame.locals.iter().cloned());
        Value::Func(Rc::new(Closure {
            body: body.clone(),
            captured,
        }))
    }
}

/// A new activation's variables: the parameters, then for a vararg function its extra
/// arguments and Lua 5.1's `arg`.
fn bind_arguments<'c>(
    body: &FuncBody,
    captured: &'c [(Arc<str>, Cell)],
    args: Vec<Value>,
) -> Frame<'c> {
    let mut frame = Frame {
        // Room for the parameters and a vararg function's `arg`; none for a main chunk, whose
        // first `local`, if it has one, allocates.
        locals: Vec::with_capacity(
            body.params.len() + usize::from(matches!(body.vararg, Vararg::Dots | Vararg::Arg)),
        ),
        captured,
        varargs: Vec::new(),
    };
    let mut args = args.into_iter();
    for p in &body.params {
        frame.locals.push((
            p.clone(),
            Rc::new(RefCell::new(args.next().unwrap_or_default())),
        ));
    }
    if body.vararg.any() {
        frame.varargs = args.collect();
        let arg = match body.vararg {
            Vararg::Arg => compat_arg(&frame.varargs),
            _ => Value::Nil,
        };
        if body.vararg != Vararg::Chunk {
            frame
                .locals
                .push((Arc::from("arg"), Rc::new(RefCell::new(arg))));
        }
    }
    frame
}

/// Lua 5.1's `arg` table for a vararg function that never uses `...`: the extra arguments and
/// their count in `n`.
fn compat_arg(varargs: &[Value]) -> Value {
    // Sized as `adjust_varargs` sizes it; the extra arguments of one call fit the table's cap
    // (they came from a list).
    let mut table = Table::with_sizes(varargs.len(), 1).unwrap_or_default();
    for (i, v) in varargs.iter().enumerate() {
        let _ = table.set(Value::Num((i + 1) as f64), v.clone());
    }
    let _ = table.set(Value::str(b"n"), Value::Num(varargs.len() as f64));
    Value::Table(TableRef::from_table(table))
}

/// A library function's own argument error (`Args::bad`, which names the function `b`) names
/// it as its caller knows it, or `?`. Any other text, such as an `assert` message that reads
/// like one, is left as it is.
fn named_by_caller(fault: Fault, b: Builtin, callee: Callee) -> Fault {
    let Fault::Runtime { msg, line } = fault else {
        return fault;
    };
    let renamed = msg.strip_prefix("bad argument #").and_then(|rest| {
        let (n, tail) = rest.split_once(" to '")?;
        let (own, after) = tail.split_once("' (")?;
        if own != b.name() {
            return None;
        }
        let name = callee.name();
        Some(format!(
            "bad argument #{n} to '{}' ({after}",
            name.as_deref().unwrap_or("?")
        ))
    });
    Fault::Runtime {
        msg: renamed.unwrap_or(msg),
        line,
    }
}

/// Lua 5.1 does not count `self` in the argument errors of a method call (`s:rep()` reports
/// argument #1), and words an error in `self` itself as "calling 'f' on bad self".
fn self_not_counted(fault: Fault) -> Fault {
    let Fault::Runtime { msg, line } = fault else {
        return fault;
    };
    let renumbered = msg.strip_prefix("bad argument #").and_then(|rest| {
        let (n, tail) = rest.split_once(' ')?;
        let n: u32 = n.parse().ok()?;
        let tail = tail.strip_prefix("to ")?;
        Some(if n > 1 {
            format!("bad argument #{} to {}", n - 1, tail)
        } else {
            format!("calling {}", tail.replacen("' (", "' on bad self (", 1))
        })
    });
    Fault::Runtime {
        msg: renumbered.unwrap_or(msg),
        line,
    }
}
