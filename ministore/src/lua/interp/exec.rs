//! Statements: blocks and scoping, assignment (to locals, through `__newindex`, never to
//! globals), the control structures and `return`.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use super::outcome::{CallResult, Flow};
use super::saved::{lost_track, Saved};
use super::{runtime_error, Callee, Fault, Frame, Interp};
use crate::lua::ast::{Block, CondBlock, Expr, ExprKind, Stat, StatKind};
use crate::lua::value::{Cell, Value};

impl Interp<'_> {
    pub(super) fn exec_block(&mut self, block: &Block, frame: &mut Frame) -> Result<Flow, Fault> {
        let (start, mark) = self.resume_block(block)?.unwrap_or((0, frame.locals.len()));
        let result = self.exec_from(block, start, mark, frame);
        // A yield leaves the variables in place: the function's record takes them along.
        if !matches!(result, Err(Fault::Yield)) {
            frame.locals.truncate(mark);
        }
        result
    }

    /// A resumed block's statement to carry on from and where its variables start.
    fn resume_block(&mut self, block: &Block) -> Result<Option<(usize, usize)>, Fault> {
        let line = block.first().map_or(0, |s| s.line);
        self.resumed(line, |s| match s {
            Saved::Block { index, mark } => Some((index, mark)),
            _ => None,
        })
    }

    /// Runs a block's statements from `start`, leaving its variables (from `mark` on) in place.
    #[inline]
    fn exec_from(
        &mut self,
        block: &Block,
        start: usize,
        mark: usize,
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        for (index, stat) in block.iter().enumerate().skip(start) {
            match self.exec(stat, frame) {
                Ok(Flow::Normal) => {}
                Err(e) => return Err(self.suspend(e, Saved::Block { index, mark })),
                other => return other,
            }
        }
        Ok(Flow::Normal)
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
                        self.call_expr(func, args, e.line, frame, false)?;
                    }
                    _ => {
                        self.eval_multi(e, frame)?;
                    }
                }
                Ok(Flow::Normal)
            }
            StatKind::If { arms, otherwise } => self.exec_if(arms, otherwise.as_ref(), line, frame),
            StatKind::While { cond, body } => self.exec_while(cond, body, line, frame),
            StatKind::Repeat { body, cond } => self.exec_repeat(body, cond, line, frame),
            StatKind::NumericFor {
                var,
                start,
                limit,
                step,
                body,
                prep_line,
            } => {
                let bounds = [start, limit];
                let lines = (line, *prep_line);
                self.exec_numeric_for(var, bounds, step.as_ref(), body, lines, frame)
            }
            StatKind::GenericFor {
                names,
                exprs,
                body,
                call_line,
            } => self.exec_generic_for(names, exprs, body, (line, *call_line), frame),
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
        let line = targets.first().map_or(0, |t| t.line);
        if let ([target], [expr]) = (targets, exprs) {
            // As in Lua 5.1, the target's table and key come before the value.
            let place = match self.resumed(line, |s| match s {
                Saved::AssignOne(place) => Some(place),
                _ => None,
            })? {
                Some(Some(place)) => place,
                _ => self
                    .place(target, frame)
                    .map_err(|e| self.suspend(e, Saved::AssignOne(None)))?,
            };
            let v = match self.eval(expr, frame) {
                Ok(v) => v,
                Err(e) => return Err(self.suspend(e, Saved::AssignOne(Some(place)))),
            };
            self.store(place, target, v, frame)?;
        } else {
            // Lua evaluates all right-hand sides (and table/key operands) before assigning.
            let mut places = self
                .resumed(line, |s| match s {
                    Saved::AssignMany(places) => Some(places),
                    _ => None,
                })?
                .unwrap_or_else(|| Vec::with_capacity(targets.len()));
            for t in targets.iter().skip(places.len()) {
                match self.place(t, frame) {
                    Ok(place) => places.push(place),
                    Err(e) => return Err(self.suspend(e, Saved::AssignMany(places))),
                }
            }
            let values = match self.eval_list(exprs, frame, targets.len()) {
                Ok(values) => values,
                Err(e) => return Err(self.suspend(e, Saved::AssignMany(places))),
            };
            // Lua 5.1's compiler stores the last target first (`restassign` stores as its
            // recursion unwinds): `a, a = 1, 2` leaves 1, and `__newindex` sees the keys right
            // to left.
            for ((place, target), v) in places.into_iter().zip(targets).zip(values).rev() {
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
        line: u32,
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        let (first, in_body) = self
            .resumed(line, |s| match s {
                Saved::If { arm, in_body } => Some((arm, in_body)),
                _ => None,
            })?
            .unwrap_or((0, false));
        let mut chosen = None;
        if in_body {
            chosen = Some(first);
        } else {
            for (i, arm) in arms.iter().enumerate().skip(first) {
                let cond = self.eval(&arm.cond, frame).map_err(|e| {
                    self.suspend(
                        e,
                        Saved::If {
                            arm: i,
                            in_body: false,
                        },
                    )
                })?;
                if cond.truthy() {
                    chosen = Some(i);
                    break;
                }
            }
        }
        let arm = chosen.unwrap_or(arms.len());
        let body = match arms.get(arm) {
            Some(a) => &a.body,
            None => match otherwise {
                Some(body) => body,
                None => return Ok(Flow::Normal),
            },
        };
        self.exec_block(body, frame)
            .map_err(|e| self.suspend(e, Saved::If { arm, in_body: true }))
    }

    #[inline(never)]
    fn exec_while(
        &mut self,
        cond: &Expr,
        body: &Block,
        line: u32,
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        let mut in_body = self
            .resumed(line, |s| match s {
                Saved::While { in_body } => Some(in_body),
                _ => None,
            })?
            .unwrap_or(false);
        let mut first = !in_body;
        loop {
            if !in_body {
                let go = self
                    .eval(cond, frame)
                    .map_err(|e| self.suspend(e, Saved::While { in_body: false }))?;
                if !go.truthy() {
                    return Ok(Flow::Normal);
                }
                if first {
                    self.step(line)?;
                } else {
                    self.loop_step(line)?;
                }
            }
            first = false;
            in_body = false;
            match self.exec_block(body, frame) {
                Ok(Flow::Normal) => {}
                Ok(Flow::Break) => return Ok(Flow::Normal),
                Ok(ret) => return Ok(ret),
                Err(e) => return Err(self.suspend(e, Saved::While { in_body: true })),
            }
        }
    }

    #[inline(never)]
    fn exec_repeat(
        &mut self,
        body: &Block,
        cond: &Expr,
        line: u32,
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        let mut resumed = self.resumed(line, |s| match s {
            Saved::Repeat { cond_mark } => Some(cond_mark),
            _ => None,
        })?;
        let mut first = resumed.is_none();
        loop {
            // The condition sees the body's locals, so the scope is handled here.
            let (mark, flow) = match resumed.take() {
                // Resumed in the condition.
                Some(Some(mark)) => (mark, Flow::Normal),
                // Resumed in the body.
                Some(None) => {
                    let (start, mark) = self.resume_block(body)?.unwrap_or((0, frame.locals.len()));
                    (mark, self.repeat_body(body, start, mark, frame)?)
                }
                None => {
                    if first {
                        self.step(line)?;
                    } else {
                        self.loop_step(line)?;
                    }
                    first = false;
                    let mark = frame.locals.len();
                    (mark, self.repeat_body(body, 0, mark, frame)?)
                }
            };
            let done = match flow {
                Flow::Normal => match self.eval(cond, frame) {
                    Err(Fault::Yield) => {
                        let saved = Saved::Repeat {
                            cond_mark: Some(mark),
                        };
                        return Err(self.suspend(Fault::Yield, saved));
                    }
                    other => other.map(|v| v.truthy()),
                },
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

    /// The body of a `repeat` from statement `start`, its variables (from `mark` on) left for
    /// the condition unless it fails.
    fn repeat_body(
        &mut self,
        body: &Block,
        start: usize,
        mark: usize,
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        match self.exec_from(body, start, mark, frame) {
            Err(Fault::Yield) => Err(self.suspend(Fault::Yield, Saved::Repeat { cond_mark: None })),
            Err(e) => {
                frame.locals.truncate(mark);
                Err(e)
            }
            flow => flow,
        }
    }

    #[inline(never)]
    fn exec_numeric_for(
        &mut self,
        name: &Arc<str>,
        [start, limit]: [&Expr; 2],
        step: Option<&Expr>,
        body: &Block,
        (line, prep_line): (u32, u32),
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        /// Where a resumed loop carries on.
        enum At {
            Bounds(Vec<Value>),
            Body(f64, f64, f64),
        }
        let at = self.resumed(line, |s| match s {
            Saved::ForBounds(done) => Some(At::Bounds(done)),
            Saved::ForBody { i, limit, step } => Some(At::Body(i, limit, step)),
            _ => None,
        })?;
        let (mut i, limit, step, mut in_body) = match at {
            Some(At::Body(i, limit, step)) => (i, limit, step, true),
            bounds => {
                let mut done = match bounds {
                    Some(At::Bounds(done)) => done,
                    _ => Vec::with_capacity(3),
                };
                // Every bound is evaluated before any is checked (Lua 5.1's `OP_FORPREP`).
                let bounds = [Some(start), Some(limit), step];
                for e in bounds.into_iter().flatten().skip(done.len()) {
                    match self.eval(e, frame) {
                        Ok(v) => done.push(v),
                        Err(e) => return Err(self.suspend(e, Saved::ForBounds(done))),
                    }
                }
                let mut numbers = [0.0, 0.0, 1.0];
                for ((v, what), n) in done
                    .iter()
                    .zip(["initial value", "limit", "step"])
                    .zip(&mut numbers)
                {
                    *n = v.to_number().ok_or_else(|| {
                        runtime_error(prep_line, &format!("'for' {what} must be a number"))
                    })?;
                }
                match (done.len(), numbers) {
                    (2 | 3, [start, limit, step]) => (start, limit, step, false),
                    _ => return Err(lost_track(line)),
                }
            }
        };
        while in_body || (step > 0.0 && i <= limit) || (step <= 0.0 && i >= limit) {
            if !in_body {
                self.loop_step(line)?;
                frame
                    .locals
                    .push((name.clone(), Rc::new(RefCell::new(Value::Num(i)))));
            }
            in_body = false;
            let flow = self.exec_block(body, frame);
            if let Err(Fault::Yield) = flow {
                return Err(self.suspend(Fault::Yield, Saved::ForBody { i, limit, step }));
            }
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
        (line, call_line): (u32, u32),
        frame: &mut Frame,
    ) -> Result<Flow, Fault> {
        let resumed = self
            .resumed(line, |s| match s {
                Saved::GenericFor(state) => Some(state),
                _ => None,
            })?
            .flatten();
        let (f, state, mut control, mut in_body) = match resumed {
            Some((f, state, control, mark)) => (f, state, control, Some(mark)),
            None => {
                let init = self
                    .eval_list(exprs, frame, 3)
                    .map_err(|e| self.suspend(e, Saved::GenericFor(None)))?;
                let mut init = init.into_iter();
                let f = init.next().unwrap_or_default();
                let state = init.next().unwrap_or_default();
                let control = init.next().unwrap_or_default();
                (f, state, control, None)
            }
        };
        loop {
            let mark = match in_body.take() {
                Some(mark) => mark,
                None => {
                    self.loop_step(line)?;
                    // Lua 5.1 calls the iterator from C: no yield inside it.
                    let results = self.call_value(
                        &f,
                        vec![state.clone(), control.clone()],
                        call_line,
                        Callee::ForGenerator,
                    )?;
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
                    mark
                }
            };
            let flow = self.exec_block(body, frame);
            if let Err(Fault::Yield) = flow {
                let state = (f.clone(), state.clone(), control.clone(), mark);
                return Err(self.suspend(Fault::Yield, Saved::GenericFor(Some(state))));
            }
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
                    match self.call_expr(func, args, only.line, frame, true)? {
                        CallResult::One(v) => Flow::ReturnOne(v),
                        CallResult::Many(values) => Flow::Return(values),
                    }
                }
                ExprKind::Method {
                    obj,
                    name,
                    args,
                    name_line,
                } => {
                    let lines = (only.line, *name_line);
                    Flow::Return(self.call_method(obj, name, args, lines, frame, true)?)
                }
                ExprKind::Vararg => Flow::Return(self.eval_multi(only, frame)?),
                _ => Flow::ReturnOne(self.eval(only, frame)?),
            });
        }
        Ok(Flow::Return(self.eval_list(exprs, frame, 0)?))
    }

    /// Evaluates the table and key of an assignment target before any value is stored.
    fn place(&mut self, target: &Expr, frame: &mut Frame) -> Result<Option<(Value, Value)>, Fault> {
        match &target.kind {
            ExprKind::Index { obj, key } => {
                let o = self.first_operand(obj, frame)?;
                let k = self.second_operand(key, &o, frame)?;
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
                None => Err(runtime_error(target.line, super::READONLY_TABLE)),
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
