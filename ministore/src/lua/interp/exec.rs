//! Statements: blocks and scoping, assignment (to locals, through `__newindex`, never to
//! globals), the control structures and `return`.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use super::{runtime_error, Fault, Frame, Interp};
use crate::lua::ast::{Block, CondBlock, Expr, ExprKind, Stat, StatKind};
use crate::lua::value::{Cell, Value};

/// How a block finished.
pub(super) enum Flow {
    Normal,
    Break,
    Return(Vec<Value>),
    /// `return e` with one single-valued expression: no Vec for the commonest return.
    ReturnOne(Value),
}

impl Interp<'_> {
    pub(super) fn exec_block(&mut self, block: &Block, frame: &mut Frame) -> Result<Flow, Fault> {
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
            StatKind::Local { names, exprs } => self.exec_local(names, exprs, frame),
            StatKind::Assign { targets, exprs } => self.exec_assign(targets, exprs, frame),
            StatKind::Call(e) => {
                match &e.kind {
                    ExprKind::Call { func, args } => {
                        self.call_expr(func, args, e.line, frame)?;
                    }
                    _ => {
                        self.eval_multi(e, frame)?;
                    }
                }
                Ok(Flow::Normal)
            }
            StatKind::If { arms, otherwise } => self.exec_if(arms, otherwise.as_ref(), frame),
            StatKind::While { cond, body } => self.exec_while(cond, body, line, frame),
            StatKind::Repeat { body, cond } => self.exec_repeat(body, cond, line, frame),
            StatKind::NumericFor {
                var,
                start,
                limit,
                step,
                body,
            } => {
                let bounds = [start, limit];
                self.exec_numeric_for(var, bounds, step.as_ref(), body, line, frame)
            }
            StatKind::GenericFor { names, exprs, body } => {
                self.exec_generic_for(names, exprs, body, line, frame)
            }
            StatKind::Do(body) => self.exec_block(body, frame),
            StatKind::LocalFunction { name, func } => {
                let cell: Cell = Rc::new(RefCell::new(Value::Nil));
                frame.locals.push((name.clone(), cell.clone()));
                let closure = self.closure(func, frame);
                *cell.borrow_mut() = closure;
                Ok(Flow::Normal)
            }
            StatKind::Function { target, func } => {
                let closure = self.closure(func, frame);
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
        arms: &[CondBlock],
        otherwise: Option<&Block>,
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        for arm in arms {
            if self.eval(&arm.cond, frame)?.truthy() {
                return self.exec_block(&arm.body, frame);
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

    #[inline(never)]
    fn exec_numeric_for(
        &mut self,
        name: &Arc<str>,
        [start, limit]: [&Expr; 2],
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
                ExprKind::Call { func, args } => {
                    match self.call_expr(func, args, only.line, frame)? {
                        super::call::CallResult::One(v) => Flow::ReturnOne(v),
                        super::call::CallResult::Many(values) => Flow::Return(values),
                    }
                }
                ExprKind::Method { .. } | ExprKind::Vararg => {
                    Flow::Return(self.eval_multi(only, frame)?)
                }
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

    /// Evaluates the table and key of an assignment target before any value is stored.
    fn place(&mut self, target: &Expr, frame: &mut Frame) -> Result<Option<(Value, Value)>, Fault> {
        match &target.kind {
            ExprKind::Index { obj, key } => {
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
            (Some((obj, key)), ExprKind::Index { obj: obj_expr, .. }) => {
                self.set_index(&obj, key, v, target.line, || {
                    super::eval::describe(obj_expr, frame)
                })
            }
            (_, ExprKind::Name(name)) => match frame.lookup(name) {
                Some((cell, _)) => {
                    *cell.borrow_mut() = v;
                    Ok(())
                }
                // Redis makes the globals table read-only: every global assignment fails.
                None => Err(runtime_error(
                    target.line,
                    "Attempt to modify a readonly table",
                )),
            },
            _ => Err(runtime_error(target.line, "syntax error")),
        }
    }

    pub(super) fn assign(
        &mut self,
        target: &Expr,
        v: Value,
        frame: &mut Frame,
    ) -> Result<(), Fault> {
        let place = self.place(target, frame)?;
        self.store(place, target, v, frame)
    }
}
