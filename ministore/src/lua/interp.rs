//! The evaluator: walks the AST with Lua 5.1 semantics (scoping, closures, multiple results,
//! coercions), counts every step against the budget, caps call depth, and words runtime errors
//! the way Lua 5.1 does (`attempt to call local 'x' (a nil value)`).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use super::ast::{BinOp, Block, Expr, ExprKind, FuncBody, Stat, StatKind, TableField, UnOp};
use super::lib::{self, Builtin};
use super::value::{Cell, Closure, TableRef, Value, MAX_STRING_LEN};
use super::{CommandHost, ScriptInputs};

/// How much native recursion a script may cause before it fails with "stack overflow": a Lua
/// call costs [`CALL_NESTING`] units and every nested compound expression [`EXPR_NESTING`].
/// Plain recursion such as `return 1 + f(n - 1)` stops after about 115 calls. Measured native
/// stack per unit: well under 1 KiB in a release build (a 1 MiB wasm stack has room to spare)
/// and up to about 1.4 KiB unoptimised (inside the 2 MiB of a debug test thread).
pub const MAX_NESTING: u32 = 1400;
/// Nesting units one Lua function call costs (its frames are several times an expression's).
pub const CALL_NESTING: u32 = 8;
/// Nesting units one level of compound expression costs.
pub const EXPR_NESTING: u32 = 2;

/// Why evaluation stopped abnormally.
#[derive(Debug)]
pub enum Fault {
    /// A Lua error: the error value and the line it was raised on (catchable by `pcall`).
    Error { value: Value, line: u32 },
    /// The step budget ran out on this line (not catchable).
    Budget { line: u32 },
}

/// How a block finished.
enum Flow {
    Normal,
    Break,
    Return(Vec<Value>),
    /// `return e` with one single-valued expression: no Vec for the commonest return.
    ReturnOne(Value),
}

/// What a call expression produced: one value (the `redis.call` fast path) or a list.
enum CallResult {
    One(Value),
    Many(Vec<Value>),
}

/// `redis.call` arguments up to this many are evaluated into a stack array, not a Vec.
const INLINE_ARGS: usize = 6;

/// `KEYS` or `ARGV`: the caller's items, read in place, and the table made from them once the
/// script uses the name as a table (`#KEYS`, `ipairs(ARGV)`, `KEYS[1] = …`).
struct Inputs<'h> {
    items: &'h dyn ScriptInputs,
    table: Option<TableRef>,
}

impl Inputs<'_> {
    /// The table, built on first use; the same table for the rest of the run.
    fn table(&mut self) -> TableRef {
        self.table
            .get_or_insert_with(|| array_of(self.items))
            .clone()
    }

    /// `KEYS[key]`: from the table once there is one, else straight from the caller's items.
    fn get(&self, key: &Value) -> Value {
        if let Some(t) = &self.table {
            return t.get(key);
        }
        match key {
            // `as usize` saturates; the round trip keeps only exact integers 1..=count.
            Value::Num(n) if *n >= 1.0 && (*n as usize) as f64 == *n => {
                let i = *n as usize;
                if i <= self.items.count() {
                    Value::Str(self.items.shared_item(i - 1))
                } else {
                    Value::Nil
                }
            }
            _ => Value::Nil,
        }
    }
}

/// The library table a global name is.
fn library_named(name: &str) -> Option<Lib> {
    match name {
        "redis" => Some(Lib::Redis),
        "string" => Some(Lib::String),
        "table" => Some(Lib::Table),
        "math" => Some(Lib::Math),
        _ => None,
    }
}

/// Which of `KEYS`/`ARGV` a global name is.
fn input_slot(name: &str) -> Option<usize> {
    match name {
        "KEYS" => Some(0),
        "ARGV" => Some(1),
        _ => None,
    }
}

/// The variables visible in one function activation.
pub struct Frame<'c> {
    locals: Vec<(Arc<str>, Cell)>,
    captured: &'c [(Arc<str>, Cell)],
}

impl Frame<'_> {
    fn lookup(&self, name: &str) -> Option<(&Cell, bool)> {
        if let Some((_, c)) = self.locals.iter().rev().find(|(n, _)| &**n == name) {
            return Some((c, true));
        }
        self.captured
            .iter()
            .rev()
            .find(|(n, _)| &**n == name)
            .map(|(_, c)| (c, false))
    }
}

/// One script run: the host, the budget, and the (read-only) globals.
pub struct Interp<'h> {
    pub host: &'h mut dyn CommandHost,
    steps: u64,
    budget: u64,
    depth: u32,
    nesting: u32,
    /// `KEYS` and `ARGV`.
    inputs: [Inputs<'h>; 2],
}

/// The library tables. They are read-only and identical in every run, so they are not built as
/// tables at all: indexing one is a static lookup (see [`lib::lib_get`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lib {
    Redis = 0,
    String = 1,
    Table = 2,
    Math = 3,
}

impl<'h> Interp<'h> {
    pub fn new(
        host: &'h mut dyn CommandHost,
        keys: &'h dyn ScriptInputs,
        argv: &'h dyn ScriptInputs,
        budget: u64,
    ) -> Self {
        Interp {
            host,
            steps: 0,
            budget,
            depth: 0,
            nesting: 0,
            inputs: [
                Inputs {
                    items: keys,
                    table: None,
                },
                Inputs {
                    items: argv,
                    table: None,
                },
            ],
        }
    }

    /// Runs the main chunk and returns its first result (nil when it returns nothing).
    pub fn run_chunk(&mut self, body: &FuncBody) -> Result<Value, Fault> {
        let mut frame = Frame {
            locals: Vec::new(),
            captured: &[],
        };
        match self.exec_block(&body.body, &mut frame)? {
            Flow::Return(mut v) => Ok(if v.is_empty() {
                Value::Nil
            } else {
                v.swap_remove(0)
            }),
            Flow::ReturnOne(v) => Ok(v),
            _ => Ok(Value::Nil),
        }
    }

    fn enter(&mut self, line: u32, units: u32) -> Result<(), Fault> {
        if self.nesting + units > MAX_NESTING {
            return Err(runtime_error(line, "stack overflow"));
        }
        self.nesting += units;
        Ok(())
    }

    /// How many Lua function calls are active (0 in the main chunk).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Counts one step and stops the script once the budget is spent.
    #[inline]
    pub fn step(&mut self, line: u32) -> Result<(), Fault> {
        self.steps += 1;
        if self.steps > self.budget {
            return Err(Fault::Budget { line });
        }
        Ok(())
    }

    /// Steps left before the budget runs out.
    pub fn remaining(&self) -> u64 {
        self.budget.saturating_sub(self.steps)
    }

    /// Charges `n` steps at once (for library functions doing work proportional to their input).
    pub fn charge(&mut self, n: u64, line: u32) -> Result<(), Fault> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.budget {
            return Err(Fault::Budget { line });
        }
        Ok(())
    }

    fn global(&mut self, name: &str, line: u32) -> Result<Value, Fault> {
        if let Some(lib) = library_named(name) {
            return Ok(Value::Lib(lib));
        }
        Ok(match name {
            "KEYS" => Value::Table(self.inputs[0].table()),
            "ARGV" => Value::Table(self.inputs[1].table()),
            _ => match lib::global_function(name) {
                Some(b) => Value::Builtin(b),
                None => {
                    return Err(runtime_error(
                        line,
                        &format!(
                            "Script attempted to access nonexistent global variable '{}'",
                            name
                        ),
                    ))
                }
            },
        })
    }

    fn exec_block(&mut self, block: &Block, frame: &mut Frame) -> Result<Flow, Fault> {
        let mark = frame.locals.len();
        let mut result = Ok(Flow::Normal);
        for stat in block {
            match self.exec(stat, frame) {
                Ok(Flow::Normal) => {}
                other => {
                    result = other;
                    break;
                }
            }
        }
        frame.locals.truncate(mark);
        result
    }

    // Each statement kind runs in its own non-inlined function: in a tree walker the recursion
    // goes through `exec`/`eval`, and keeping their frames small keeps deep scripts off the
    // end of a 1 MiB wasm stack.
    fn exec(&mut self, stat: &Stat, frame: &mut Frame) -> Result<Flow, Fault> {
        let line = stat.line;
        self.step(line)?;
        match &stat.kind {
            StatKind::Local(names, exprs) => self.exec_local(names, exprs, frame),
            StatKind::Assign(targets, exprs) => self.exec_assign(targets, exprs, frame),
            StatKind::Call(e) => {
                match &e.kind {
                    ExprKind::Call(fexpr, args) => {
                        self.call_expr(fexpr, args, e.line, frame)?;
                    }
                    _ => {
                        self.eval_multi(e, frame)?;
                    }
                }
                Ok(Flow::Normal)
            }
            StatKind::If(arms, otherwise) => self.exec_if(arms, otherwise.as_ref(), frame),
            StatKind::While(cond, body) => self.exec_while(cond, body, line, frame),
            StatKind::Repeat(body, cond) => self.exec_repeat(body, cond, line, frame),
            StatKind::NumericFor(name, start, limit, step, body) => {
                self.exec_numeric_for(name, start, limit, step.as_ref(), body, line, frame)
            }
            StatKind::GenericFor(names, exprs, body) => {
                self.exec_generic_for(names, exprs, body, line, frame)
            }
            StatKind::Do(body) => self.exec_block(body, frame),
            StatKind::LocalFunction(name, body) => {
                let cell: Cell = Rc::new(RefCell::new(Value::Nil));
                frame.locals.push((name.clone(), cell.clone()));
                let closure = self.closure(body, frame);
                *cell.borrow_mut() = closure;
                Ok(Flow::Normal)
            }
            StatKind::Function(target, body) => {
                let closure = self.closure(body, frame);
                self.assign(target, closure, frame)?;
                Ok(Flow::Normal)
            }
            StatKind::Return(exprs) => self.exec_return(exprs, frame),
            StatKind::Break => Ok(Flow::Break),
        }
    }

    #[inline(never)]
    fn exec_local(
        &mut self,
        names: &[Arc<str>],
        exprs: &[Expr],
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        let values = self.eval_list(exprs, frame, names.len())?;
        for (name, v) in names.iter().zip(values) {
            frame.locals.push((name.clone(), Rc::new(RefCell::new(v))));
        }
        Ok(Flow::Normal)
    }

    #[inline(never)]
    fn exec_assign(
        &mut self,
        targets: &[Expr],
        exprs: &[Expr],
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        if targets.len() == 1 && exprs.len() == 1 {
            let v = self.eval(&exprs[0], frame)?;
            self.assign(&targets[0], v, frame)?;
        } else {
            // Lua evaluates all right-hand sides (and table/key operands) before assigning.
            let mut places = Vec::with_capacity(targets.len());
            for t in targets {
                places.push(self.place(t, frame)?);
            }
            let values = self.eval_list(exprs, frame, targets.len())?;
            for ((place, target), v) in places.into_iter().zip(targets).zip(values) {
                self.store(place, target, v, frame)?;
            }
        }
        Ok(Flow::Normal)
    }

    #[inline(never)]
    fn exec_if(
        &mut self,
        arms: &[(Expr, Block)],
        otherwise: Option<&Block>,
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        for (cond, body) in arms {
            if self.eval(cond, frame)?.truthy() {
                return self.exec_block(body, frame);
            }
        }
        match otherwise {
            Some(body) => self.exec_block(body, frame),
            None => Ok(Flow::Normal),
        }
    }

    #[inline(never)]
    fn exec_while(
        &mut self,
        cond: &Expr,
        body: &Block,
        line: u32,
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        while self.eval(cond, frame)?.truthy() {
            self.step(line)?;
            match self.exec_block(body, frame)? {
                Flow::Normal => {}
                Flow::Break => break,
                ret => return Ok(ret),
            }
        }
        Ok(Flow::Normal)
    }

    #[inline(never)]
    fn exec_repeat(
        &mut self,
        body: &Block,
        cond: &Expr,
        line: u32,
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        loop {
            self.step(line)?;
            // The condition sees the body's locals, so the scope is handled here.
            let mark = frame.locals.len();
            let mut flow = Flow::Normal;
            for s in body {
                match self.exec(s, frame) {
                    Ok(Flow::Normal) => {}
                    Ok(f) => {
                        flow = f;
                        break;
                    }
                    Err(e) => {
                        frame.locals.truncate(mark);
                        return Err(e);
                    }
                }
            }
            let done = match flow {
                Flow::Normal => self.eval(cond, frame).map(|v| v.truthy()),
                Flow::Break => Ok(true),
                ret => {
                    frame.locals.truncate(mark);
                    return Ok(ret);
                }
            };
            frame.locals.truncate(mark);
            if done? {
                return Ok(Flow::Normal);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn exec_numeric_for(
        &mut self,
        name: &Arc<str>,
        start: &Expr,
        limit: &Expr,
        step: Option<&Expr>,
        body: &Block,
        line: u32,
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        let start = self.for_number(start, frame, "initial value")?;
        let limit = self.for_number(limit, frame, "limit")?;
        let step = match step {
            Some(s) => self.for_number(s, frame, "step")?,
            None => 1.0,
        };
        let mut i = start;
        while (step > 0.0 && i <= limit) || (step <= 0.0 && i >= limit) {
            self.step(line)?;
            frame
                .locals
                .push((name.clone(), Rc::new(RefCell::new(Value::Num(i)))));
            let flow = self.exec_block(body, frame);
            frame.locals.pop();
            match flow? {
                Flow::Normal => {}
                Flow::Break => break,
                ret => return Ok(ret),
            }
            i += step;
        }
        Ok(Flow::Normal)
    }

    #[inline(never)]
    fn exec_generic_for(
        &mut self,
        names: &[Arc<str>],
        exprs: &[Expr],
        body: &Block,
        line: u32,
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        let mut init = self.eval_list(exprs, frame, 3)?.into_iter();
        let f = init.next().unwrap_or_default();
        let state = init.next().unwrap_or_default();
        let mut control = init.next().unwrap_or_default();
        loop {
            self.step(line)?;
            let results = self.call_value(&f, vec![state.clone(), control.clone()], line, None)?;
            let first = results.first().cloned().unwrap_or_default();
            if first.is_nil() {
                return Ok(Flow::Normal);
            }
            control = first;
            let mark = frame.locals.len();
            let mut results = results.into_iter();
            for name in names {
                let v = results.next().unwrap_or_default();
                frame.locals.push((name.clone(), Rc::new(RefCell::new(v))));
            }
            let flow = self.exec_block(body, frame);
            frame.locals.truncate(mark);
            match flow? {
                Flow::Normal => {}
                Flow::Break => return Ok(Flow::Normal),
                ret => return Ok(ret),
            }
        }
    }

    #[inline(never)]
    fn exec_return(&mut self, exprs: &[Expr], frame: &mut Frame) -> Result<Flow, Fault> {
        if let [only] = exprs {
            return Ok(match &only.kind {
                ExprKind::Call(fexpr, args) => {
                    match self.call_expr(fexpr, args, only.line, frame)? {
                        CallResult::One(v) => Flow::ReturnOne(v),
                        CallResult::Many(values) => Flow::Return(values),
                    }
                }
                ExprKind::Method(..) => Flow::Return(self.eval_multi(only, frame)?),
                _ => Flow::ReturnOne(self.eval(only, frame)?),
            });
        }
        Ok(Flow::Return(self.eval_list(exprs, frame, 0)?))
    }

    fn for_number(&mut self, e: &Expr, frame: &mut Frame, what: &str) -> Result<f64, Fault> {
        let v = self.eval(e, frame)?;
        v.to_number()
            .ok_or_else(|| runtime_error(e.line, &format!("'for' {} must be a number", what)))
    }

    fn closure(&self, body: &Arc<FuncBody>, frame: &Frame) -> Value {
        let mut captured = Vec::with_capacity(frame.captured.len() + frame.locals.len());
        captured.extend(frame.captured.iter().cloned());
        captured.extend(frame.locals.iter().cloned());
        Value::Func(Rc::new(Closure {
            body: body.clone(),
            captured,
        }))
    }

    /// Evaluates the table and key of an assignment target before any value is stored.
    fn place(&mut self, target: &Expr, frame: &mut Frame) -> Result<Option<(Value, Value)>, Fault> {
        match &target.kind {
            ExprKind::Index(obj, key) => {
                let o = self.eval(obj, frame)?;
                let k = self.eval(key, frame)?;
                Ok(Some((o, k)))
            }
            _ => Ok(None),
        }
    }

    fn store(
        &mut self,
        place: Option<(Value, Value)>,
        target: &Expr,
        v: Value,
        frame: &mut Frame,
    ) -> Result<(), Fault> {
        match (place, &target.kind) {
            (Some((obj, key)), ExprKind::Index(obj_expr, _)) => {
                self.set_index(&obj, obj_expr, key, v, frame, target.line)
            }
            (_, ExprKind::Name(name)) => match frame.lookup(name) {
                Some((cell, _)) => {
                    *cell.borrow_mut() = v;
                    Ok(())
                }
                None => Err(runtime_error(
                    target.line,
                    "Attempt to modify a readonly table",
                )),
            },
            _ => Err(runtime_error(target.line, "syntax error")),
        }
    }

    fn assign(&mut self, target: &Expr, v: Value, frame: &mut Frame) -> Result<(), Fault> {
        let place = self.place(target, frame)?;
        self.store(place, target, v, frame)
    }

    fn set_index(
        &mut self,
        obj: &Value,
        obj_expr: &Expr,
        key: Value,
        v: Value,
        frame: &Frame,
        line: u32,
    ) -> Result<(), Fault> {
        self.charge(key.weight(), line)?;
        match obj {
            Value::Table(t) => t.set(key, v).map_err(|m| {
                if m == "not enough memory" {
                    memory_error(line)
                } else {
                    runtime_error(line, m)
                }
            }),
            Value::Lib(_) => Err(runtime_error(line, "Attempt to modify a readonly table")),
            other => Err(type_error(
                line,
                "index",
                describe(obj_expr, frame).as_deref(),
                other,
            )),
        }
    }

    /// Evaluates an expression list to exactly `want` values (0 = all, expanding a trailing call).
    fn eval_list(
        &mut self,
        exprs: &[Expr],
        frame: &mut Frame,
        want: usize,
    ) -> Result<Vec<Value>, Fault> {
        let mut out = Vec::with_capacity(exprs.len().max(want));
        for (i, e) in exprs.iter().enumerate() {
            if i + 1 == exprs.len() && e.is_multi() {
                out.extend(self.eval_multi(e, frame)?);
            } else {
                out.push(self.eval(e, frame)?);
            }
        }
        if want > 0 {
            out.resize(want, Value::Nil);
        }
        Ok(out)
    }

    /// Evaluates a call expression to all of its results.
    fn eval_multi(&mut self, e: &Expr, frame: &mut Frame) -> Result<Vec<Value>, Fault> {
        match &e.kind {
            ExprKind::Call(fexpr, args) => match self.call_expr(fexpr, args, e.line, frame)? {
                CallResult::One(v) => Ok(vec![v]),
                CallResult::Many(values) => Ok(values),
            },
            ExprKind::Method(obj_expr, name, args) => {
                self.step(e.line)?;
                self.call_method(obj_expr, name, args, e.line, frame)
            }
            _ => {
                self.step(e.line)?;
                Ok(vec![self.eval(e, frame)?])
            }
        }
    }

    /// Evaluates `f(args)`. `redis.call`/`redis.pcall` with a few plain arguments — nearly every
    /// call a Redis script makes — take a path that allocates nothing for the arguments or the
    /// result list.
    #[inline(never)]
    fn call_expr(
        &mut self,
        fexpr: &Expr,
        args: &[Expr],
        line: u32,
        frame: &mut Frame,
    ) -> Result<CallResult, Fault> {
        self.step(line)?;
        let f = self.eval(fexpr, frame)?;
        if let Value::Builtin(b @ (Builtin::REDIS_CALL | Builtin::REDIS_PCALL)) = f {
            if args.len() <= INLINE_ARGS && !args.last().is_some_and(Expr::is_multi) {
                let mut values: [Value; INLINE_ARGS] = Default::default();
                for (slot, arg) in values.iter_mut().zip(args) {
                    *slot = self.eval(arg, frame)?;
                }
                return lib::redis_call(self, b, &values[..args.len()], line).map(CallResult::One);
            }
        }
        let args = self.eval_list(args, frame, 0)?;
        self.call_value(&f, args, line, Some((fexpr, frame)))
            .map(CallResult::Many)
    }

    #[inline(never)]
    fn call_method(
        &mut self,
        obj_expr: &Expr,
        name: &Arc<str>,
        args: &[Expr],
        line: u32,
        frame: &mut Frame,
    ) -> Result<Vec<Value>, Fault> {
        let obj = self.eval(obj_expr, frame)?;
        let key = Value::Str(Arc::from(name.as_bytes()));
        let f = self.index(&obj, key, line, || describe(obj_expr, frame))?;
        let mut all = Vec::with_capacity(args.len() + 1);
        all.push(obj);
        all.extend(self.eval_list(args, frame, 0)?);
        if matches!(f, Value::Func(_) | Value::Builtin(_)) {
            self.call_value(&f, all, line, None)
        } else {
            Err(type_error(
                line,
                "call",
                Some(&format!("method '{}'", name)),
                &f,
            ))
        }
    }

    /// Calls a function value with arguments.
    pub fn call_value(
        &mut self,
        f: &Value,
        args: Vec<Value>,
        line: u32,
        callee: Option<(&Expr, &Frame)>,
    ) -> Result<Vec<Value>, Fault> {
        match f {
            Value::Builtin(b) => lib::call_builtin(self, *b, args, line),
            Value::Func(closure) => {
                self.enter(line, CALL_NESTING)?;
                self.depth += 1;
                let result = self.call_closure(closure, args);
                self.depth -= 1;
                self.nesting -= CALL_NESTING;
                result
            }
            other => {
                let desc = callee.and_then(|(e, fr)| describe(e, fr));
                Err(type_error(line, "call", desc.as_deref(), other))
            }
        }
    }

    fn call_closure(
        &mut self,
        closure: &Rc<Closure>,
        args: Vec<Value>,
    ) -> Result<Vec<Value>, Fault> {
        let mut frame = Frame {
            locals: Vec::with_capacity(closure.body.params.len()),
            captured: &closure.captured,
        };
        let mut args = args.into_iter();
        for p in &closure.body.params {
            frame.locals.push((
                p.clone(),
                Rc::new(RefCell::new(args.next().unwrap_or_default())),
            ));
        }
        match self.exec_block(&closure.body.body, &mut frame)? {
            Flow::Return(v) => Ok(v),
            Flow::ReturnOne(v) => Ok(vec![v]),
            _ => Ok(Vec::new()),
        }
    }

    /// `obj[key]` with Lua's rules: tables index raw, strings index the string library.
    fn index(
        &mut self,
        obj: &Value,
        key: Value,
        line: u32,
        desc: impl FnOnce() -> Option<String>,
    ) -> Result<Value, Fault> {
        self.charge(key.weight(), line)?;
        match obj {
            Value::Table(t) => Ok(t.get(&key)),
            Value::Str(_) => Ok(lib::lib_get(Lib::String, &key)),
            Value::Lib(lib) => Ok(lib::lib_get(*lib, &key)),
            other => Err(type_error(line, "index", desc().as_deref(), other)),
        }
    }

    /// Evaluates an expression to one value.
    pub fn eval(&mut self, e: &Expr, frame: &mut Frame) -> Result<Value, Fault> {
        self.step(e.line)?;
        match &e.kind {
            ExprKind::Nil => Ok(Value::Nil),
            ExprKind::True => Ok(Value::Bool(true)),
            ExprKind::False => Ok(Value::Bool(false)),
            ExprKind::Number(n) => Ok(Value::Num(*n)),
            ExprKind::Str(s) => Ok(Value::Str(s.clone())),
            ExprKind::Name(name) => match frame.lookup(name) {
                Some((cell, _)) => Ok(cell.borrow().clone()),
                None => self.global(name, e.line),
            },
            _ => {
                self.enter(e.line, EXPR_NESTING)?;
                let result = self.eval_compound(e, frame);
                self.nesting -= EXPR_NESTING;
                result
            }
        }
    }

    fn eval_compound(&mut self, e: &Expr, frame: &mut Frame) -> Result<Value, Fault> {
        match &e.kind {
            ExprKind::Index(obj, key) => self.eval_index(obj, key, e.line, frame),
            ExprKind::Call(fexpr, args) => {
                Ok(match self.call_expr(fexpr, args, e.line, frame)? {
                    CallResult::One(v) => v,
                    CallResult::Many(values) => values.into_iter().next().unwrap_or_default(),
                })
            }
            ExprKind::Method(..) => Ok(self
                .eval_multi(e, frame)?
                .into_iter()
                .next()
                .unwrap_or_default()),
            ExprKind::Function(body) => Ok(self.closure(body, frame)),
            ExprKind::Paren(inner) => self.eval(inner, frame),
            ExprKind::Unary(op, operand) => self.eval_unary(*op, operand, e.line, frame),
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, e.line, frame),
            ExprKind::Table(fields) => self.table(fields, frame, e.line),
            _ => Ok(Value::Nil),
        }
    }

    #[inline(never)]
    fn eval_index(
        &mut self,
        obj: &Expr,
        key: &Expr,
        line: u32,
        frame: &mut Frame,
    ) -> Result<Value, Fault> {
        // Fast paths with the same steps as the general one: `KEYS[i]` / `ARGV[i]` read the
        // caller's items in place, and `redis.call`-style fields of an unshadowed library are a
        // static lookup without evaluating the name and the key string.
        if let ExprKind::Name(name) = &obj.kind {
            if let Some(slot) = input_slot(name) {
                if frame.lookup(name).is_none() {
                    self.step(obj.line)?;
                    let k = self.eval(key, frame)?;
                    self.charge(k.weight(), line)?;
                    return Ok(self.inputs[slot].get(&k));
                }
            }
            if let (Some(lib), ExprKind::Str(field)) = (library_named(name), &key.kind) {
                if frame.lookup(name).is_none() {
                    self.step(obj.line)?;
                    self.step(key.line)?;
                    self.charge((field.len() / 1024) as u64, line)?;
                    return Ok(lib::lib_field(lib, field));
                }
            }
        }
        let o = self.eval(obj, frame)?;
        let k = self.eval(key, frame)?;
        self.index(&o, k, line, || describe(obj, frame))
    }

    #[inline(never)]
    fn eval_unary(
        &mut self,
        op: UnOp,
        operand: &Expr,
        line: u32,
        frame: &mut Frame,
    ) -> Result<Value, Fault> {
        let v = self.eval(operand, frame)?;
        Ok(match op {
            UnOp::Not => Value::Bool(!v.truthy()),
            UnOp::Neg => match v.to_number() {
                Some(n) => Value::Num(-n),
                None => {
                    return Err(type_error(
                        line,
                        "perform arithmetic on",
                        describe(operand, frame).as_deref(),
                        &v,
                    ))
                }
            },
            UnOp::Len => match &v {
                Value::Str(s) => Value::Num(s.len() as f64),
                Value::Table(t) => Value::Num(t.len() as f64),
                other => {
                    return Err(type_error(
                        line,
                        "get length of",
                        describe(operand, frame).as_deref(),
                        other,
                    ))
                }
            },
        })
    }

    #[inline(never)]
    fn table(
        &mut self,
        fields: &[TableField],
        frame: &mut Frame,
        line: u32,
    ) -> Result<Value, Fault> {
        let t = TableRef::new();
        // Positional items, nils included, are stored together at the end, as Lua's SETLIST
        // stores them after the keyed fields: `{1, nil, 3}` has `#` 3, as in Lua 5.1.
        let mut items = Vec::new();
        for (i, field) in fields.iter().enumerate() {
            match field {
                TableField::Item(e) => {
                    if i + 1 == fields.len() && e.is_multi() {
                        items.extend(self.eval_multi(e, frame)?);
                    } else {
                        items.push(self.eval(e, frame)?);
                    }
                }
                TableField::Keyed(k, v) => {
                    let key = self.eval(k, frame)?;
                    let value = self.eval(v, frame)?;
                    t.set(key, value).map_err(|m| {
                        if m == "not enough memory" {
                            memory_error(line)
                        } else {
                            runtime_error(line, m)
                        }
                    })?;
                }
            }
        }
        t.0.borrow_mut()
            .set_positional(items)
            .map_err(|_| memory_error(line))?;
        Ok(Value::Table(t))
    }

    #[inline(never)]
    fn binary(
        &mut self,
        op: BinOp,
        l: &Expr,
        r: &Expr,
        line: u32,
        frame: &mut Frame,
    ) -> Result<Value, Fault> {
        match op {
            BinOp::And => {
                let a = self.eval(l, frame)?;
                return if a.truthy() {
                    self.eval(r, frame)
                } else {
                    Ok(a)
                };
            }
            BinOp::Or => {
                let a = self.eval(l, frame)?;
                return if a.truthy() {
                    Ok(a)
                } else {
                    self.eval(r, frame)
                };
            }
            _ => {}
        }
        let a = self.eval(l, frame)?;
        let b = self.eval(r, frame)?;
        // Comparing or coercing long strings is work proportional to their length.
        self.charge(a.weight().max(b.weight()), line)?;
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Pow => {
                match (a.to_number(), b.to_number()) {
                    (Some(x), Some(y)) => Ok(Value::Num(arith(op, x, y))),
                    (None, _) => Err(operand_error(line, "perform arithmetic on", l, frame, &a)),
                    (_, None) => Err(operand_error(line, "perform arithmetic on", r, frame, &b)),
                }
            }
            BinOp::Concat => self.concat(&a, &b, l, r, line, frame),
            BinOp::Eq => Ok(Value::Bool(a.raw_eq(&b))),
            BinOp::Ne => Ok(Value::Bool(!a.raw_eq(&b))),
            BinOp::Lt => less_than(&a, &b, line).map(Value::Bool),
            BinOp::Gt => less_than(&b, &a, line).map(Value::Bool),
            BinOp::Le => less_equal(&a, &b, line).map(Value::Bool),
            BinOp::Ge => less_equal(&b, &a, line).map(Value::Bool),
            BinOp::And | BinOp::Or => Ok(Value::Nil),
        }
    }

    #[inline(never)]
    fn concat(
        &mut self,
        a: &Value,
        b: &Value,
        l: &Expr,
        r: &Expr,
        line: u32,
        frame: &Frame,
    ) -> Result<Value, Fault> {
        let (x, y) = match (a.to_str_bytes(), b.to_str_bytes()) {
            (Some(x), Some(y)) => (x, y),
            (None, _) => return Err(operand_error(line, "concatenate", l, frame, a)),
            (_, None) => return Err(operand_error(line, "concatenate", r, frame, b)),
        };
        if x.len() + y.len() > MAX_STRING_LEN {
            return Err(memory_error(line));
        }
        self.charge(((x.len() + y.len()) / 1024) as u64, line)?;
        let mut s = Vec::with_capacity(x.len() + y.len());
        s.extend_from_slice(&x);
        s.extend_from_slice(&y);
        Ok(Value::Str(Arc::from(s)))
    }
}

#[inline(never)]
fn operand_error(line: u32, op: &str, operand: &Expr, frame: &Frame, v: &Value) -> Fault {
    type_error(line, op, describe(operand, frame).as_deref(), v)
}

fn arith(op: BinOp, x: f64, y: f64) -> f64 {
    match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => x / y,
        BinOp::Mod => x - (x / y).floor() * y,
        BinOp::Pow => x.powf(y),
        _ => f64::NAN,
    }
}

fn order_error(a: &Value, b: &Value, line: u32) -> Fault {
    let (t1, t2) = (a.type_name(), b.type_name());
    if t1 == t2 {
        runtime_error(line, &format!("attempt to compare two {} values", t1))
    } else {
        runtime_error(line, &format!("attempt to compare {} with {}", t1, t2))
    }
}

fn less_than(a: &Value, b: &Value, line: u32) -> Result<bool, Fault> {
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => Ok(x < y),
        (Value::Str(x), Value::Str(y)) => Ok(x < y),
        _ => Err(order_error(a, b, line)),
    }
}

fn less_equal(a: &Value, b: &Value, line: u32) -> Result<bool, Fault> {
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => Ok(x <= y),
        (Value::Str(x), Value::Str(y)) => Ok(x <= y),
        _ => Err(order_error(a, b, line)),
    }
}

fn array_of(items: &dyn ScriptInputs) -> TableRef {
    let t = TableRef::new();
    t.0.borrow_mut().array = (0..items.count())
        .map(|i| Value::Str(items.shared_item(i)))
        .collect();
    t
}

/// How Lua names the variable an operand came from, for error messages.
fn describe(e: &Expr, frame: &Frame) -> Option<String> {
    match &e.kind {
        ExprKind::Name(n) => Some(match frame.lookup(n) {
            Some((_, true)) => format!("local '{}'", n),
            Some((_, false)) => format!("upvalue '{}'", n),
            None => format!("global '{}'", n),
        }),
        ExprKind::Index(_, k) => match &k.kind {
            ExprKind::Str(s) => Some(format!("field '{}'", String::from_utf8_lossy(s))),
            _ => None,
        },
        _ => None,
    }
}

/// A Lua runtime error raised at `line`, positioned like Lua's own (`user_script:N: msg`).
pub fn runtime_error(line: u32, msg: &str) -> Fault {
    Fault::Error {
        value: Value::str(format!("user_script:{}: {}", line, msg).as_bytes()),
        line,
    }
}

/// Lua's out-of-memory error, which carries no position.
pub fn memory_error(line: u32) -> Fault {
    Fault::Error {
        value: Value::str(b"not enough memory"),
        line,
    }
}

/// `attempt to <op> <local 'x'> (a <type> value)`.
pub fn type_error(line: u32, op: &str, desc: Option<&str>, v: &Value) -> Fault {
    match desc {
        Some(d) => runtime_error(
            line,
            &format!("attempt to {} {} (a {} value)", op, d, v.type_name()),
        ),
        None => runtime_error(
            line,
            &format!("attempt to {} a {} value", op, v.type_name()),
        ),
    }
}
