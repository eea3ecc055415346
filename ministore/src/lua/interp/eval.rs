//! Expressions: constants, variables, `...`, indexing (with the `KEYS[i]` and `redis.call`
//! fast paths), calls, table constructors and the operators, and how Lua names an operand in
//! error messages.

use super::saved::Saved;
use super::{
    input_slot, memory_error, runtime_error, type_error, Fault, Frame, Interp, EXPR_NESTING,
};
use crate::lua::ast::{BinOp, Expr, ExprKind, TableField, UnOp};
use crate::lua::table::constructor_size;
use crate::lua::value::{Table, TableRef, Value};

impl Interp<'_> {
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
            ExprKind::Vararg => Ok(frame.varargs.first().cloned().unwrap_or_default()),
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
            ExprKind::Index { obj, key } => self.eval_index(obj, key, e.line, frame),
            ExprKind::Call { func, args } => {
                Ok(self.call_expr(func, args, e.line, frame, false)?.first())
            }
            ExprKind::Method { .. } => Ok(self
                .eval_multi(e, frame)?
                .into_iter()
                .next()
                .unwrap_or_default()),
            ExprKind::Function(body) => Ok(self.closure(body, frame)),
            ExprKind::Paren(inner) => self.eval(inner, frame),
            ExprKind::Unary { op, operand } => self.eval_unary(*op, operand, e.line, frame),
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, e.line, frame),
            ExprKind::Table(fields) => self.table(fields, frame, e.line),
            _ => Ok(Value::Nil),
        }
    }

    /// Evaluates an expression list to exactly `want` values (0 = all, expanding a trailing
    /// call or `...`).
    pub(super) fn eval_list(
        &mut self,
        exprs: &[Expr],
        frame: &mut Frame,
        want: usize,
    ) -> Result<Vec<Value>, Fault> {
        let mut out = match self.resumed(exprs.first().map_or(0, |e| e.line), |s| match s {
            Saved::List(values) => Some(values),
            _ => None,
        })? {
            Some(values) => values,
            None => Vec::with_capacity(exprs.len().max(want)),
        };
        // Every expression before the last gives one value, so the values so far say where
        // a resumed list carries on.
        for (i, e) in exprs.iter().enumerate().skip(out.len()) {
            let done = if i + 1 == exprs.len() && e.is_multi() {
                self.eval_multi(e, frame).map(|values| out.extend(values))
            } else {
                self.eval(e, frame).map(|v| out.push(v))
            };
            if let Err(fault) = done {
                return Err(self.suspend(fault, Saved::List(out)));
            }
        }
        if want > 0 {
            out.resize(want, Value::Nil);
        }
        Ok(out)
    }

    /// Evaluates a call or `...` to all of its values.
    pub(super) fn eval_multi(&mut self, e: &Expr, frame: &mut Frame) -> Result<Vec<Value>, Fault> {
        match &e.kind {
            ExprKind::Call { func, args } => {
                Ok(self.call_expr(func, args, e.line, frame, false)?.all())
            }
            ExprKind::Method {
                obj,
                name,
                args,
                name_line,
            } => self.call_method(obj, name, args, (e.line, *name_line), frame, false),
            ExprKind::Vararg => {
                self.step(e.line)?;
                self.charge(frame.varargs.len() as u64 / 8, e.line)?;
                Ok(frame.varargs.clone())
            }
            _ => {
                self.step(e.line)?;
                Ok(vec![self.eval(e, frame)?])
            }
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
                let in_place = frame.lookup(name).is_none() && !self.kind.is_function();
                if in_place && !self.inputs[slot].has_metatable() {
                    self.step(obj.line)?;
                    let k = self.eval(key, frame)?;
                    self.charge(k.weight(), line)?;
                    return Ok(self.inputs[slot].get(&k));
                }
            }
            if let (Some(lib), ExprKind::Str(field)) = (self.library(name), &key.kind) {
                if frame.lookup(name).is_none() {
                    self.step(obj.line)?;
                    self.step(key.line)?;
                    self.charge((field.len() / 1024) as u64, line)?;
                    return self.lib_field(lib, field, line);
                }
            }
        }
        let o = self.first_operand(obj, frame)?;
        let k = self.second_operand(key, &o, frame)?;
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
        match op {
            UnOp::Not => Ok(Value::Bool(!v.truthy())),
            UnOp::Neg => match v.to_number() {
                Some(n) => Ok(Value::Num(-n)),
                None => self.negate_meta(v, line, || describe(operand, frame)),
            },
            // Lua 5.1 has no `__len` for tables: `#` is always the raw border.
            UnOp::Len => match &v {
                Value::Str(s) => Ok(Value::Num(s.len() as f64)),
                Value::Table(t) => Ok(Value::Num(t.len() as f64)),
                // A library table has no array part and no key 1: its border is 0.
                Value::Lib(_) => Ok(Value::Num(0.0)),
                other => Err(type_error(
                    line,
                    "get length of",
                    describe(operand, frame).as_deref(),
                    other,
                )),
            },
        }
    }

    #[inline(never)]
    fn table(
        &mut self,
        fields: &[TableField],
        frame: &mut Frame,
        line: u32,
    ) -> Result<Value, Fault> {
        let resumed = self.resumed(line, |s| match s {
            Saved::Table {
                table,
                items,
                field,
                key,
            } => Some((table, items, field, key)),
            _ => None,
        })?;
        let (t, mut items, start, mut key) = match resumed {
            Some(state) => state,
            None => (new_constructed(fields, line)?, Vec::new(), 0, None),
        };
        // Lua's constructor sets each keyed field as it comes and holds positional items, nils
        // included, until 50 are pending (`LFIELDS_PER_FLUSH`) or the constructor ends, then
        // stores them in one `SETLIST`: `{1, nil, 3}` has `#` 3, and `{[1] = 'a', 'b'}` ends
        // with 'b' at 1.
        let mut flushed = fields[..start]
            .iter()
            .filter(|f| matches!(f, TableField::Item(_)))
            .count()
            - items.len();
        for (i, field) in fields.iter().enumerate().skip(start) {
            if items.len() == LIST_FLUSH {
                t.0.borrow_mut()
                    .set_list(flushed + 1, std::mem::take(&mut items))
                    .map_err(|_| memory_error(line))?;
                flushed += LIST_FLUSH;
            }
            // The key of `[k] = v` once evaluated, kept if `v` yields.
            let mut evaluated_key = None;
            let done = match field {
                TableField::Item(e) => {
                    if i + 1 == fields.len() && e.is_multi() {
                        self.eval_multi(e, frame).map(|values| items.extend(values))
                    } else {
                        self.eval(e, frame).map(|v| items.push(v))
                    }
                }
                TableField::Keyed {
                    key: kexpr,
                    value,
                    line: stored,
                } => {
                    let k = match key.take() {
                        Some(k) => Ok(k),
                        None => self.eval(kexpr, frame),
                    };
                    k.and_then(|k| match self.eval(value, frame) {
                        Ok(v) => t.set(k, v).map_err(|m| table_write_error(*stored, m)),
                        Err(e) => {
                            evaluated_key = Some(k);
                            Err(e)
                        }
                    })
                }
            };
            if let Err(e) = done {
                return Err(self.suspend(
                    e,
                    Saved::Table {
                        table: t,
                        items,
                        field: i,
                        key: evaluated_key,
                    },
                ));
            }
        }
        t.0.borrow_mut()
            .set_list(flushed + 1, items)
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
        if let BinOp::And | BinOp::Or = op {
            return self.and_or(op, l, r, frame);
        }
        let a = self.first_operand(l, frame)?;
        let b = self.second_operand(r, &a, frame)?;
        // Comparing or coercing long strings is work proportional to their length.
        self.charge(a.weight().max(b.weight()), line)?;
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Pow => {
                match (a.to_number(), b.to_number()) {
                    (Some(x), Some(y)) => Ok(Value::Num(arith(op, x, y))),
                    _ => self.arith_meta(op, a, b, line, [l, r], frame),
                }
            }
            BinOp::Concat => self.concat(a, b, line, [l, r], frame),
            BinOp::Eq => self.equals(&a, &b, line).map(Value::Bool),
            BinOp::Ne => self.equals(&a, &b, line).map(|eq| Value::Bool(!eq)),
            BinOp::Lt => self.less_than(&a, &b, line).map(Value::Bool),
            BinOp::Gt => self.less_than(&b, &a, line).map(Value::Bool),
            BinOp::Le => self.less_equal(&a, &b, line).map(Value::Bool),
            BinOp::Ge => self.less_equal(&b, &a, line).map(Value::Bool),
            BinOp::And | BinOp::Or => Ok(Value::Nil),
        }
    }
}

impl Interp<'_> {
    /// The first of two operands evaluated in order (`a` in `a + b`, `t` in `t[k]`, an
    /// assignment target's table): evaluated, or the value it had when a coroutine resumes
    /// inside the second.
    #[inline(always)]
    pub(super) fn first_operand(&mut self, e: &Expr, frame: &mut Frame) -> Result<Value, Fault> {
        let resumed = self.resumed(e.line, |s| match s {
            Saved::Pair(a) => Some(a),
            _ => None,
        })?;
        if let Some(Some(a)) = resumed {
            return Ok(a);
        }
        self.eval(e, frame)
            .map_err(|f| self.suspend(f, Saved::Pair(None)))
    }

    /// The second of two operands; a coroutine yielding inside it keeps the first.
    #[inline(always)]
    pub(super) fn second_operand(
        &mut self,
        e: &Expr,
        first: &Value,
        frame: &mut Frame,
    ) -> Result<Value, Fault> {
        self.eval(e, frame)
            .map_err(|f| self.suspend(f, Saved::Pair(Some(first.clone()))))
    }

    /// `l and r`, `l or r`: `r` only when `l` does not decide.
    fn and_or(&mut self, op: BinOp, l: &Expr, r: &Expr, frame: &mut Frame) -> Result<Value, Fault> {
        let in_rhs = self.resumed(l.line, |s| match s {
            Saved::Pair(a) => Some(a.is_some()),
            _ => None,
        })?;
        if in_rhs != Some(true) {
            let a = self
                .eval(l, frame)
                .map_err(|e| self.suspend(e, Saved::Pair(None)))?;
            if a.truthy() == (op == BinOp::Or) {
                return Ok(a);
            }
        }
        // The left operand's value is not needed again, only that it was evaluated.
        self.eval(r, frame)
            .map_err(|e| self.suspend(e, Saved::Pair(Some(Value::Nil))))
    }
}

/// Lua's arithmetic on two numbers.
pub(super) fn arith(op: BinOp, x: f64, y: f64) -> f64 {
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

/// The error a raw table write gives: a nil or NaN key, or a table past its size cap.
pub(super) fn table_write_error(line: u32, m: &str) -> Fault {
    if m == "not enough memory" {
        memory_error(line)
    } else {
        runtime_error(line, m)
    }
}

/// How Lua names the variable an operand came from, for error messages.
pub(super) fn describe(e: &Expr, frame: &Frame) -> Option<String> {
    match &e.kind {
        ExprKind::Name(n) => Some(match frame.lookup(n) {
            Some((_, true)) => format!("local '{}'", n),
            Some((_, false)) => format!("upvalue '{}'", n),
            None => format!("global '{}'", n),
        }),
        // Lua names a field by its key only when the key is a constant string.
        ExprKind::Index { key, .. } => match &key.kind {
            // Lua prints the key with `%s`, which ends at a NUL.
            ExprKind::Str(s) => Some(format!(
                "field '{}'",
                String::from_utf8_lossy(crate::args::c_string(s))
            )),
            _ => Some("field '?'".to_string()),
        },
        // Parentheses leave a variable in its register: `(a).x` still names local 'a'.
        ExprKind::Paren(inner) => describe(inner, frame),
        // Lua 5.1's debug information names the variable whose load last wrote the result's
        // register, following forward jumps from the expression's first instruction: after a
        // left operand the compiler drops (`1 and x`), or whose first jump lands on the right
        // operand (`(y and false) or x`), that is the right operand's.
        ExprKind::Binary { op, lhs, rhs } => match (op, layout(lhs)) {
            (BinOp::And, Layout::Constant(true) | Layout::JumpsTo(true))
            | (BinOp::Or, Layout::Constant(false) | Layout::JumpsTo(false)) => describe(rhs, frame),
            _ => None,
        },
        _ => None,
    }
}

/// How Lua 5.1 lays out an operand's code, as far as naming the next operand goes.
#[derive(Clone, Copy)]
enum Layout {
    /// A constant the compiler folds (its truthiness): no code, no jump.
    Constant(bool),
    /// The code's first jump leaves for the expression's true (`true`) or false exit.
    JumpsTo(bool),
    /// A value computed with no jump of its own; a test of it jumps to the exit the context
    /// asks for (a comparison's jump too).
    Computed,
}

/// `e`'s [`Layout`], by `lcode.c`: `luaK_goiftrue` emits nothing for a true constant and a
/// jump to the false exit for anything else, `luaK_goiffalse` the reverse, and `not` swaps
/// the exits.
fn layout(e: &Expr) -> Layout {
    if let Some(c) = folded(e) {
        return Layout::Constant(c.is_truthy());
    }
    match &e.kind {
        ExprKind::Paren(inner) => layout(inner),
        ExprKind::Unary {
            op: UnOp::Not,
            operand,
        } => match layout(operand) {
            Layout::JumpsTo(exit) => Layout::JumpsTo(!exit),
            Layout::Constant(truthy) => Layout::Constant(!truthy),
            Layout::Computed => Layout::Computed,
        },
        ExprKind::Binary {
            op: op @ (BinOp::And | BinOp::Or),
            lhs,
            rhs,
        } => {
            // The exit a test of the left operand jumps to, and the one that goes on to the
            // right operand: `and` goes on when true, `or` when false.
            let goes_on = *op == BinOp::And;
            match layout(lhs) {
                Layout::Constant(truthy) | Layout::JumpsTo(truthy) if truthy == goes_on => {
                    layout(rhs)
                }
                _ => Layout::JumpsTo(!goes_on),
            }
        }
        _ => Layout::Computed,
    }
}

/// A value Lua 5.1's compiler knows while it compiles an expression.
#[derive(Clone, Copy)]
enum Folded {
    Nil,
    False,
    True,
    Number(f64),
    Str,
}

impl Folded {
    fn is_truthy(self) -> bool {
        !matches!(self, Folded::Nil | Folded::False)
    }
}

/// What `e` compiles to when Lua 5.1 folds it into a constant (`lcode.c`): literals, `not` of a
/// constant, arithmetic on two numbers but for a division or modulo by zero and a NaN, and an
/// `and` or `or` whose left constant drops out; `None` for anything computed when it runs.
fn folded(e: &Expr) -> Option<Folded> {
    match &e.kind {
        ExprKind::Nil => Some(Folded::Nil),
        ExprKind::False => Some(Folded::False),
        ExprKind::True => Some(Folded::True),
        ExprKind::Number(n) => Some(Folded::Number(*n)),
        ExprKind::Str(_) => Some(Folded::Str),
        ExprKind::Paren(inner) => folded(inner),
        ExprKind::Unary { op, operand } => match (op, folded(operand)?) {
            (UnOp::Not, c) if c.is_truthy() => Some(Folded::False),
            (UnOp::Not, _) => Some(Folded::True),
            (UnOp::Neg, Folded::Number(n)) => Some(Folded::Number(-n)),
            _ => None,
        },
        ExprKind::Binary { op, lhs, rhs } => match op {
            BinOp::And => folded(lhs)
                .filter(|c| c.is_truthy())
                .and_then(|_| folded(rhs)),
            BinOp::Or => folded(lhs)
                .filter(|c| !c.is_truthy())
                .and_then(|_| folded(rhs)),
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Pow => {
                let (Folded::Number(x), Folded::Number(y)) = (folded(lhs)?, folded(rhs)?) else {
                    return None;
                };
                if y == 0.0 && matches!(op, BinOp::Div | BinOp::Mod) {
                    return None;
                }
                Some(arith(*op, x, y))
                    .filter(|r| !r.is_nan())
                    .map(Folded::Number)
            }
            _ => None,
        },
        _ => None,
    }
}

/// An operand's type error, naming the operand's variable when Lua would.
pub(super) fn operand_error(
    line: u32,
    op: &str,
    operand: &Expr,
    frame: &Frame,
    v: &Value,
) -> Fault {
    type_error(line, op, describe(operand, frame).as_deref(), v)
}

/// How many positional items a constructor holds before it stores them (`LFIELDS_PER_FLUSH`).
const LIST_FLUSH: usize = 50;

/// A constructor's new table, sized as Lua's `NEWTABLE` sizes it: the positional items but a
/// last multi-valued one, and the keyed fields, each count rounded as the compiler stores it.
fn new_constructed(fields: &[TableField], line: u32) -> Result<TableRef, Fault> {
    let keyed = fields
        .iter()
        .filter(|f| matches!(f, TableField::Keyed { .. }))
        .count();
    let mut positional = fields.len() - keyed;
    if let Some(TableField::Item(e)) = fields.last() {
        if e.is_multi() {
            positional -= 1;
        }
    }
    Table::with_sizes(constructor_size(positional), constructor_size(keyed))
        .map(TableRef::from_table)
        .map_err(|_| memory_error(line))
}
