//! Metatables as Lua 5.1 applies them: `__index` / `__newindex` chains (tables or functions,
//! at most [`MAX_TAG_LOOP`] links), the arithmetic events, `__unm`, `__concat`, `__eq`,
//! `__lt`, `__le`; the string library as every string's `__index`; and the read-only tables.

use std::sync::Arc;

use super::eval::{operand_error, table_write_error};
use super::{
    bare_error, memory_error, runtime_error, type_error, undefined_global_message, Callee, Fault,
    Frame, Interp, MAX_TAG_LOOP,
};
use crate::lua::ast::{BinOp, Expr};
use crate::lua::handle::Lib;
use crate::lua::lib_tables;
use crate::lua::value::{Value, MAX_STRING_LEN};

/// Redis's error for writing a read-only table.
pub const READONLY_TABLE: &str = "Attempt to modify a readonly table";

fn event_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "__add",
        BinOp::Sub => "__sub",
        BinOp::Mul => "__mul",
        BinOp::Div => "__div",
        BinOp::Mod => "__mod",
        _ => "__pow",
    }
}

impl Interp<'_> {
    /// The metamethod `event` of a value: only tables carry metatables a script can set.
    pub fn metamethod(&self, v: &Value, event: &str) -> Value {
        match v {
            Value::Table(t) => t.metamethod(event),
            _ => Value::Nil,
        }
    }

    /// Calls a metamethod and keeps its first result.
    fn call_meta(&mut self, h: &Value, args: Vec<Value>, line: u32) -> Result<Value, Fault> {
        Ok(self
            .call_value(h, args, line, Callee::Unnamed)?
            .into_iter()
            .next()
            .unwrap_or_default())
    }

    /// `obj[key]` with Lua's rules: tables raw first, then their `__index`; strings index the
    /// string library; library tables are a static lookup.
    pub fn index(
        &mut self,
        obj: &Value,
        key: Value,
        line: u32,
        desc: impl FnOnce() -> Option<String>,
    ) -> Result<Value, Fault> {
        self.charge(key.weight(), line)?;
        let mut current = obj.clone();
        let mut desc = Some(desc);
        for _ in 0..MAX_TAG_LOOP {
            let handler = match &current {
                Value::Table(t) => {
                    let (v, readonly) = {
                        let table = t.0.borrow();
                        (table.get(&key), table.readonly)
                    };
                    if !v.is_nil() {
                        return Ok(v);
                    }
                    if readonly {
                        return self.missing_global(&current, &key, line);
                    }
                    match t.metamethod("__index") {
                        Value::Nil => return Ok(Value::Nil),
                        h => h,
                    }
                }
                Value::Str(_) => return Ok(lib_tables::lib_get(Lib::String, &key)),
                Value::Lib(lib) => {
                    return match &key {
                        Value::Str(field) => self.lib_field(*lib, field, line),
                        #[cfg(feature = "full")]
                        _ if *lib == Lib::RedisLoad => {
                            Err(runtime_error(line, &undefined_global_message(&key)))
                        }
                        _ => Ok(Value::Nil),
                    }
                }
                other => {
                    let d = desc.take().and_then(|d| d());
                    return Err(self.vm_type_error(line, "index", d.as_deref(), other));
                }
            };
            desc = None;
            if matches!(handler, Value::Func(_) | Value::Builtin(_)) {
                return self.call_meta(&handler, vec![current, key], line);
            }
            current = handler;
        }
        Err(runtime_error(line, "loop in gettable"))
    }

    /// A key `_G` lacks: `_G._G` is `_G` itself, anything else is Redis's undefined-global error.
    fn missing_global(&mut self, globals: &Value, key: &Value, line: u32) -> Result<Value, Fault> {
        if matches!(key, Value::Str(s) if &s[..] == b"_G") {
            return Ok(globals.clone());
        }
        Err(runtime_error(line, &undefined_global_message(key)))
    }

    /// `obj[key] = v` with Lua's rules: a raw write when the key is present or there is no
    /// `__newindex`, else through it (a function is called, a table is written in turn).
    pub fn set_index(
        &mut self,
        obj: &Value,
        key: Value,
        v: Value,
        line: u32,
        desc: impl FnOnce() -> Option<String>,
    ) -> Result<(), Fault> {
        self.charge(key.weight(), line)?;
        let mut current = obj.clone();
        let mut desc = Some(desc);
        for _ in 0..MAX_TAG_LOOP {
            let handler = match &current {
                Value::Table(t) => {
                    let (present, readonly) = {
                        let table = t.0.borrow();
                        (!table.get(&key).is_nil(), table.refuses_writes())
                    };
                    if readonly {
                        return Err(runtime_error(line, READONLY_TABLE));
                    }
                    if !present {
                        // Lua sets the key's slot up (or refuses a nil or NaN key) before it
                        // looks for `__newindex`.
                        t.0.borrow_mut()
                            .touch(key.clone())
                            .map_err(|m| table_write_error(line, m))?;
                    }
                    let h = if present {
                        Value::Nil
                    } else {
                        t.metamethod("__newindex")
                    };
                    if h.is_nil() {
                        return t.set(key, v).map_err(|m| table_write_error(line, m));
                    }
                    h
                }
                Value::Lib(_) => return Err(runtime_error(line, READONLY_TABLE)),
                other => {
                    let d = desc.take().and_then(|d| d());
                    return Err(self.vm_type_error(line, "index", d.as_deref(), other));
                }
            };
            desc = None;
            if matches!(handler, Value::Func(_) | Value::Builtin(_)) {
                self.call_value(&handler, vec![current, key, v], line, Callee::Unnamed)?;
                return Ok(());
            }
            current = handler;
        }
        Err(runtime_error(line, "loop in settable"))
    }

    /// `-v` for a value that is not a number: its `__unm`, called as Lua 5.1 does with the
    /// operand twice.
    pub(super) fn negate_meta(
        &mut self,
        v: Value,
        line: u32,
        desc: impl FnOnce() -> Option<String>,
    ) -> Result<Value, Fault> {
        let h = self.metamethod(&v, "__unm");
        if h.is_nil() {
            return Err(type_error(
                line,
                "perform arithmetic on",
                desc().as_deref(),
                &v,
            ));
        }
        self.call_meta(&h, vec![v.clone(), v], line)
    }

    /// Arithmetic where an operand is not a number: the first operand's metamethod, else the
    /// second's, else an error naming the operand that is not a number.
    pub(super) fn arith_meta(
        &mut self,
        op: BinOp,
        a: Value,
        b: Value,
        line: u32,
        [l, r]: [&Expr; 2],
        frame: &Frame,
    ) -> Result<Value, Fault> {
        let event = event_name(op);
        let mut h = self.metamethod(&a, event);
        if h.is_nil() {
            h = self.metamethod(&b, event);
        }
        if h.is_nil() {
            return Err(if a.to_number().is_none() {
                operand_error(line, "perform arithmetic on", l, frame, &a)
            } else {
                operand_error(line, "perform arithmetic on", r, frame, &b)
            });
        }
        self.call_meta(&h, vec![a, b], line)
    }

    /// `a .. b`: strings and numbers join; otherwise either operand's `__concat`.
    pub(super) fn concat(
        &mut self,
        a: Value,
        b: Value,
        line: u32,
        [l, r]: [&Expr; 2],
        frame: &Frame,
    ) -> Result<Value, Fault> {
        let (x, y) = match (a.to_str_bytes(), b.to_str_bytes()) {
            (Some(x), Some(y)) => (x, y),
            (x, _) => {
                let mut h = self.metamethod(&a, "__concat");
                if h.is_nil() {
                    h = self.metamethod(&b, "__concat");
                }
                if !h.is_nil() {
                    return self.call_meta(&h, vec![a, b], line);
                }
                return Err(if x.is_none() {
                    operand_error(line, "concatenate", l, frame, &a)
                } else {
                    operand_error(line, "concatenate", r, frame, &b)
                });
            }
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

    /// `a == b`: raw equality, then for two tables their shared `__eq`.
    pub(super) fn equals(&mut self, a: &Value, b: &Value, line: u32) -> Result<bool, Fault> {
        if a.raw_eq(b) {
            return Ok(true);
        }
        let (Value::Table(x), Value::Table(y)) = (a, b) else {
            return Ok(false);
        };
        let h = x.metamethod("__eq");
        if h.is_nil() || !h.raw_eq(&y.metamethod("__eq")) {
            return Ok(false);
        }
        Ok(self
            .call_meta(&h, vec![a.clone(), b.clone()], line)?
            .truthy())
    }

    /// The order metamethod `event` both operands share, when they are of one type.
    fn order_handler(&self, a: &Value, b: &Value, event: &str) -> Option<Value> {
        if a.type_name() != b.type_name() {
            return None;
        }
        let h = self.metamethod(a, event);
        if h.is_nil() || !h.raw_eq(&self.metamethod(b, event)) {
            return None;
        }
        Some(h)
    }

    /// `a < b`: numbers and strings compared, else the operands' shared `__lt`. Also what
    /// `table.sort` compares by without a comparator.
    pub(crate) fn less_than(&mut self, a: &Value, b: &Value, line: u32) -> Result<bool, Fault> {
        match (a, b) {
            (Value::Num(x), Value::Num(y)) => Ok(x < y),
            (Value::Str(x), Value::Str(y)) => Ok(x < y),
            _ => match self.order_handler(a, b, "__lt") {
                Some(h) => Ok(self
                    .call_meta(&h, vec![a.clone(), b.clone()], line)?
                    .truthy()),
                None => Err(self.order_error(a, b, line)),
            },
        }
    }

    /// `a <= b`: `__le`, or failing that `not (b < a)` through `__lt`, as Lua 5.1 does.
    pub(super) fn less_equal(&mut self, a: &Value, b: &Value, line: u32) -> Result<bool, Fault> {
        match (a, b) {
            (Value::Num(x), Value::Num(y)) => Ok(x <= y),
            (Value::Str(x), Value::Str(y)) => Ok(x <= y),
            _ => {
                if let Some(h) = self.order_handler(a, b, "__le") {
                    return Ok(self
                        .call_meta(&h, vec![a.clone(), b.clone()], line)?
                        .truthy());
                }
                match self.order_handler(a, b, "__lt") {
                    Some(h) => Ok(!self
                        .call_meta(&h, vec![b.clone(), a.clone()], line)?
                        .truthy()),
                    None => Err(self.order_error(a, b, line)),
                }
            }
        }
    }

    /// Lua's error for `a < b` (or `<=`) without an order between them.
    fn order_error(&self, a: &Value, b: &Value, line: u32) -> Fault {
        let (t1, t2) = (a.type_name(), b.type_name());
        if t1 == t2 {
            self.vm_error(line, &format!("attempt to compare two {} values", t1))
        } else {
            self.vm_error(line, &format!("attempt to compare {} with {}", t1, t2))
        }
    }

    /// `rawset` and `setmetatable` on a read-only table: Redis's error, without a position
    /// (it is raised inside the library function).
    pub fn readonly_error(&self, line: u32) -> Fault {
        bare_error(line, READONLY_TABLE)
    }
}
