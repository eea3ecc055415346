//! Lua values as the interpreter sees them: nil, booleans, doubles, byte strings, tables (array and
//! hash parts), functions and coroutines, with Lua 5.1's number formatting (`%.14g`) and string→number coercion.
//! Values sit below the interpreter: a suspended coroutine keeps the interpreter's records of
//! where it stopped as an opaque [`Continuation`].

use std::any::Any;
use std::cell::{Ref, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use super::ast::FuncBody;
use super::handle::{Builtin, Lib};
use super::number::parse_number;
pub use super::table::Table;
use crate::numtext::format_number_g;

/// Largest string a script may build; past it the script fails with "not enough memory".
pub const MAX_STRING_LEN: usize = 32 * 1024 * 1024;

/// A shared, mutable variable slot: locals captured by closures share the same cell.
pub type Cell = Rc<RefCell<Value>>;

/// One Lua value.
#[derive(Clone, Debug, Default)]
pub enum Value {
    #[default]
    Nil,
    Bool(bool),
    Num(f64),
    Str(Arc<[u8]>),
    Table(TableRef),
    Func(Rc<Closure>),
    Builtin(Builtin),
    /// One of the read-only library tables (`redis`, `string`, `table`, `math`).
    Lib(Lib),
    /// The light userdata NULL, the only userdata a script meets (`cjson.null`, JSON's null).
    Null,
    /// A coroutine (`coroutine.create`).
    Thread(Rc<Coroutine>),
}

/// A reference to a table; equality is identity, as in Lua.
#[derive(Clone, Debug)]
pub struct TableRef(pub Rc<RefCell<Table>>);

impl TableRef {
    /// A new empty table.
    pub fn new() -> TableRef {
        TableRef::from_table(Table::default())
    }

    /// A reference to `table`.
    pub fn from_table(table: Table) -> TableRef {
        TableRef(Rc::new(RefCell::new(table)))
    }

    /// Reads `t[key]` raw (without metamethods).
    pub fn get(&self, key: &Value) -> Value {
        self.0.borrow().get(key)
    }

    /// Reads `t.name` for a string key.
    pub fn get_str(&self, name: &str) -> Value {
        self.0.borrow().get_str(name.as_bytes())
    }

    /// Writes `t[key] = value`; fails on a nil/NaN key or a table grown past its cap.
    pub fn set(&self, key: Value, value: Value) -> Result<(), &'static str> {
        self.0.borrow_mut().set(key, value)
    }

    /// The border `#t`, as Lua 5.1 finds it.
    pub fn len(&self) -> usize {
        self.0.borrow().border()
    }

    /// The metatable's field `event` (`__index`, `__add`, …), nil without a metatable.
    pub fn metamethod(&self, event: &str) -> Value {
        match &self.0.borrow().meta {
            Some(meta) => meta.get_str(event),
            None => Value::Nil,
        }
    }
}

impl Default for TableRef {
    fn default() -> Self {
        TableRef::new()
    }
}

/// A user function: its body and the variable cells it captured when it was created.
#[derive(Debug)]
pub struct Closure {
    pub body: Arc<FuncBody>,
    pub captured: Vec<(Arc<str>, Cell)>,
}

/// A coroutine (`coroutine.create`): the function it runs and how far it got. How a coroutine
/// runs, suspends and resumes is the interpreter's business (`interp/coroutine.rs`).
pub struct Coroutine {
    func: Rc<Closure>,
    progress: RefCell<Progress>,
}

impl std::fmt::Debug for Coroutine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Coroutine({:p})", self)
    }
}

/// Where a coroutine stands.
pub enum Progress {
    /// Created and not yet resumed.
    Fresh,
    /// Stopped at a yield, with what it takes to carry on from there.
    Yielded(Continuation),
    /// Running, or resuming another coroutine (then Lua calls it "normal").
    Active,
    /// Returned or failed.
    Dead,
}

/// What a coroutine stopped at a yield needs to carry on: the interpreter's records of the
/// constructs the yield unwound through. Only the interpreter makes and reads them, in a type
/// of its own; a coroutine just keeps them, without knowing that type.
pub struct Continuation(Box<dyn Any>);

impl Continuation {
    /// Keeps the interpreter's records.
    pub fn new<T: Any>(records: T) -> Continuation {
        Continuation(Box::new(records))
    }

    /// The records, when they are the `T` they were kept as.
    pub fn into_records<T: Any>(self) -> Option<T> {
        self.0.downcast().ok().map(|records| *records)
    }
}

impl Coroutine {
    /// A coroutine that will run `func` when first resumed.
    pub fn new(func: Rc<Closure>) -> Rc<Coroutine> {
        Rc::new(Coroutine {
            func,
            progress: RefCell::new(Progress::Fresh),
        })
    }

    /// A coroutine over `func` that has already returned.
    pub fn finished(func: Rc<Closure>) -> Rc<Coroutine> {
        Rc::new(Coroutine {
            func,
            progress: RefCell::new(Progress::Dead),
        })
    }

    /// The function the coroutine runs.
    pub fn function(&self) -> &Rc<Closure> {
        &self.func
    }

    /// Whether it has not been resumed yet.
    pub fn is_fresh(&self) -> bool {
        matches!(*self.progress.borrow(), Progress::Fresh)
    }

    /// Where it stands.
    pub fn progress(&self) -> Ref<'_, Progress> {
        self.progress.borrow()
    }

    /// Moves it on to `next`, handing back where it stood.
    pub fn advance(&self, next: Progress) -> Progress {
        self.progress.replace(next)
    }
}

/// Dropping a closure frees what it holds iteratively, as dropping a table does
/// ([`Table`]'s `Drop`).
impl Drop for Closure {
    fn drop(&mut self) {
        let pending: Vec<Value> = self
            .captured
            .drain(..)
            .filter_map(|(_, cell)| Rc::try_unwrap(cell).ok().map(RefCell::into_inner))
            .collect();
        drain(pending);
    }
}

/// Drops values one at a time, first emptying any table or closure that this is the last
/// reference to, so that nested structures never drop recursively.
pub(super) fn drain(mut pending: Vec<Value>) {
    while let Some(v) = pending.pop() {
        match v {
            Value::Table(t) => {
                if let Ok(cell) = Rc::try_unwrap(t.0) {
                    cell.into_inner().take_values(&mut pending);
                }
            }
            Value::Func(f) => {
                if let Ok(mut closure) = Rc::try_unwrap(f) {
                    for (_, cell) in closure.captured.drain(..) {
                        if let Ok(cell) = Rc::try_unwrap(cell) {
                            pending.push(cell.into_inner());
                        }
                    }
                }
            }
            other => drop(other),
        }
    }
}

impl Value {
    /// A string value from bytes.
    pub fn str(bytes: &[u8]) -> Value {
        Value::Str(Arc::from(bytes))
    }

    /// Extra steps an operation on this value costs: one per KiB of string, so that a script
    /// cannot do unbounded work per step by handling huge strings.
    pub fn weight(&self) -> u64 {
        match self {
            Value::Str(s) => (s.len() / 1024) as u64,
            _ => 0,
        }
    }

    /// True for nil.
    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }

    /// Lua truthiness: only nil and false are false.
    pub fn truthy(&self) -> bool {
        !matches!(self, Value::Nil | Value::Bool(false))
    }

    /// The name `type()` returns.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::Bool(_) => "boolean",
            Value::Num(_) => "number",
            Value::Str(_) => "string",
            Value::Table(_) | Value::Lib(_) => "table",
            Value::Func(_) | Value::Builtin(_) => "function",
            Value::Null => "userdata",
            Value::Thread(_) => "thread",
        }
    }

    /// The number this value is or coerces to (numeric strings), as Lua arithmetic sees it.
    pub fn to_number(&self) -> Option<f64> {
        match self {
            Value::Num(n) => Some(*n),
            Value::Str(s) => parse_number(s),
            _ => None,
        }
    }

    /// The string this value is or coerces to (numbers, `%.14g`), as `..` and the string library see it.
    pub fn to_str_bytes(&self) -> Option<Arc<[u8]>> {
        match self {
            Value::Str(s) => Some(s.clone()),
            Value::Num(n) => Some(Arc::from(format_number(*n).as_bytes())),
            _ => None,
        }
    }

    /// Lua's raw equality.
    pub fn raw_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Nil, Value::Nil) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Num(a), Value::Num(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => Arc::ptr_eq(a, b) || a == b,
            (Value::Table(a), Value::Table(b)) => Rc::ptr_eq(&a.0, &b.0),
            (Value::Func(a), Value::Func(b)) => Rc::ptr_eq(a, b),
            (Value::Builtin(a), Value::Builtin(b)) => a == b,
            (Value::Lib(a), Value::Lib(b)) => a == b,
            (Value::Null, Value::Null) => true,
            (Value::Thread(a), Value::Thread(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// What `tostring` prints.
    pub fn to_display(&self) -> Vec<u8> {
        match self {
            Value::Nil => b"nil".to_vec(),
            Value::Bool(b) => {
                if *b {
                    b"true".to_vec()
                } else {
                    b"false".to_vec()
                }
            }
            Value::Num(n) => format_number(*n).into_bytes(),
            Value::Str(s) => s.to_vec(),
            Value::Table(t) => addressed("table", Rc::as_ptr(&t.0) as *const () as usize as u64),
            Value::Func(f) => addressed("function", Rc::as_ptr(f) as *const () as usize as u64),
            // Lua prints C functions by address too; a stable pseudo-address per builtin.
            Value::Builtin(b) => addressed("function", PSEUDO_BASE + b.id() * 32),
            Value::Lib(l) => addressed("table", PSEUDO_BASE - 0x800 + *l as u64 * 32),
            // glibc prints a null pointer as "(nil)".
            Value::Null => b"userdata: (nil)".to_vec(),
            Value::Thread(co) => addressed("thread", Rc::as_ptr(co) as *const () as usize as u64),
        }
    }
}

/// Formats a number as Lua 5.1 does (`%.14g`): 3 → "3", 0.1 → "0.1", 1e100 → "1e+100".
pub fn format_number(n: f64) -> String {
    format_number_g(n, 14)
}

/// Where the pseudo-addresses of builtins and library tables start: below every address
/// [`addressed`] prints for an object.
const PSEUDO_BASE: u64 = 0x5554_0000_1000;

/// `kind: 0x…` as Redis's Lua prints an object with `%p` on x86-64 Linux, where a heap address
/// has twelve hex digits: a shorter address (wasm32's) is moved up into that range, so that a
/// script's `#tostring(t)` reads as it does in Redis.
fn addressed(kind: &str, address: u64) -> Vec<u8> {
    let shown = if address < 1 << 40 {
        0x5555_0000_0000 + address
    } else {
        address
    };
    format!("{kind}: 0x{shown:012x}").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lua::number::number_to_integer;

    #[test]
    fn numbers_print_like_lua_5_1() {
        assert_eq!(format_number(3.0), "3");
        assert_eq!(format_number(0.1), "0.1");
        assert_eq!(format_number(1e100), "1e+100");
        assert_eq!(format_number(1e15), "1e+15");
        assert_eq!(format_number(123456789012345.0), "1.2345678901234e+14");
        assert_eq!(format_number(2f64.powi(53)), "9.007199254741e+15");
        assert_eq!(format_number(1e-5), "1e-05");
        assert_eq!(format_number(-2.5e-10), "-2.5e-10");
        assert_eq!(format_number(0.1 + 0.2), "0.3");
        assert_eq!(format_number(12.5), "12.5");
        assert_eq!(format_number(-0.0), "-0");
        assert_eq!(format_number(f64::INFINITY), "inf");
    }

    #[test]
    fn strings_coerce_to_numbers_like_lua() {
        assert_eq!(parse_number(b"10"), Some(10.0));
        assert_eq!(parse_number(b" 12 "), Some(12.0));
        assert_eq!(parse_number(b"0x10"), Some(16.0));
        assert_eq!(parse_number(b"1e3"), Some(1000.0));
        assert_eq!(parse_number(b"abc"), None);
        assert_eq!(parse_number(b""), None);
        assert_eq!(parse_number(b"1 2"), None);
    }

    #[test]
    fn strings_read_as_glibcs_strtod_reads_them() {
        assert_eq!(parse_number(b"0x1p4"), Some(16.0));
        assert_eq!(parse_number(b"0X1P-2"), Some(0.25));
        assert_eq!(parse_number(b"-0x1.8p1"), Some(-3.0));
        assert_eq!(parse_number(b"\t-inf\n"), Some(f64::NEG_INFINITY));
        assert!(parse_number(b"nan(1)").is_some_and(f64::is_nan));
        assert!(parse_number(b"-nan").is_some_and(|n| n.is_nan() && n.is_sign_negative()));
        // What strtod leaves unread must be whitespace; a NUL ends the C string.
        for rejected in [&b"0x"[..], b"0x1p", b"1e", b"1e+", b".", b"nan(", b"5 x"] {
            assert_eq!(parse_number(rejected), None, "{rejected:?}");
        }
        assert_eq!(parse_number(b"7\0junk"), Some(7.0));
    }

    #[test]
    fn out_of_range_numbers_convert_to_the_minimum_integer() {
        assert_eq!(number_to_integer(3.99), 3);
        assert_eq!(number_to_integer(-3.99), -3);
        assert_eq!(number_to_integer(1e300), i64::MIN);
        assert_eq!(number_to_integer(f64::NAN), i64::MIN);
    }

    #[test]
    fn a_long_chain_of_nested_tables_drops_without_recursion() {
        let mut t = Value::Table(TableRef::new());
        for _ in 0..1_000_000 {
            let outer = TableRef::new();
            outer.set(Value::Num(1.0), t).unwrap();
            outer.set(Value::str(b"next"), Value::Nil).unwrap();
            t = Value::Table(outer);
        }
        drop(t);
    }
}
