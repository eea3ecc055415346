//! The script's library, one file per Lua library: [`base`] (tonumber, tostring, type, pairs,
//! pcall, error, …), [`string`] (with [`strmatch`] for patterns and [`format`]), [`table`]
//! (with [`sort`]), [`math`], [`coroutine`], [`redis`], and Redis's extra libraries [`cjson`]
//! (with [`json_decode`]), [`cmsgpack`], [`bit`] and `struct` ([`lstruct`]). This file owns
//! what is known about the [`Builtin`] handles (defined with the library enums in `handle.rs`): their
//! ids and names, the static lookup of library fields, the dispatch of a call to its library, the
//! per-run [`State`], and the argument helpers with Lua 5.1's `bad argument #n to 'f' (…)`
//! errors.

mod base;
mod bit;
mod cjson;
mod cmsgpack;
mod coroutine;
mod format;
mod json_decode;
mod lstruct;
mod math;
mod redis;
mod sort;
mod string;
mod strmatch;
mod strtod;
mod table;

use std::sync::Arc;

use super::interp::{bare_error, memory_error, runtime_error, Fault, Interp, Lib};
use super::number::number_to_integer;
use super::value::{TableRef, Value, MAX_STRING_LEN};

pub use super::handle::Builtin;
pub use redis::{load_field, redis_call};

impl Builtin {
    /// `redis.call`.
    pub const REDIS_CALL: Builtin = Builtin::Redis(redis::Func::Call);
    /// `redis.pcall`.
    pub const REDIS_PCALL: Builtin = Builtin::Redis(redis::Func::Pcall);

    /// A small number unique to this builtin (for table keys and printed addresses).
    pub fn id(self) -> u64 {
        let (family, f) = match self {
            Builtin::Base(f) => (0, f as u64),
            Builtin::Redis(f) => (1, f as u64),
            Builtin::String(f) => (2, f as u64),
            Builtin::Table(f) => (3, f as u64),
            Builtin::Math(f) => (4, f as u64),
            Builtin::Cjson(f) => (5, f as u64),
            Builtin::Bit(f) => (6, f as u64),
            Builtin::Cmsgpack(f) => (7, f as u64),
            Builtin::Struct(f) => (8, f as u64),
            Builtin::Coroutine(f) => (9, f as u64),
        };
        family << 6 | f
    }

    /// The name Lua's argument errors call the function by.
    fn name(self) -> &'static str {
        match self {
            Builtin::Base(f) => f.name(),
            Builtin::Redis(f) => f.name(),
            Builtin::String(f) => f.name(),
            Builtin::Table(f) => f.name(),
            Builtin::Math(f) => f.name(),
            Builtin::Cjson(f) => f.name(),
            Builtin::Bit(f) => f.name(),
            Builtin::Cmsgpack(f) => f.name(),
            Builtin::Struct(f) => f.name(),
            Builtin::Coroutine(f) => f.name(),
        }
    }
}

/// What the libraries keep for the length of one script run.
#[derive(Debug)]
pub struct State {
    /// `math.random`'s generator, seeded on first use.
    pub rand: Option<math::Rand48>,
    /// The protocol `redis.setresp` chose (2 until a script asks for 3): how `redis.call`'s
    /// replies reach the script, and how its Lua booleans reach the client.
    pub resp: u8,
    /// The settings the `cjson.encode_*`/`decode_*` functions change.
    pub cjson: cjson::Config,
    /// The builtin about to run is called by a library function (`pcall(f)`, a sort
    /// comparator, …), not by Lua code: Lua words its errors without a position.
    from_lib: bool,
    /// FUNCTION LOAD is running a library's top level: only `redis.register_function` and a
    /// few constants exist, and what it registers collects here.
    pub loading: Option<Vec<Registered>>,
    /// An FCALL is running: `KEYS` and `ARGV` are not globals (the function gets them as its
    /// arguments).
    pub in_function: bool,
}

/// A function a library registered while loading.
#[derive(Debug, Clone)]
pub struct Registered {
    /// Its name.
    pub name: Vec<u8>,
    /// The Lua function.
    pub callback: Value,
    /// Its `description`, if given.
    pub description: Option<Vec<u8>>,
    /// Its flags as given (`no-writes`, …).
    pub flags: Vec<&'static str>,
}

impl Default for State {
    fn default() -> Self {
        State {
            rand: None,
            resp: 2,
            cjson: cjson::Config::default(),
            from_lib: false,
            loading: None,
            in_function: false,
        }
    }
}

/// Where a builtin was called from.
#[derive(Debug, Clone, Copy)]
struct Site {
    line: u32,
    from_lib: bool,
}

/// Calls `f` from inside a library function, as Lua's C functions call back (see
/// [`State::from_lib`]).
fn call_from_lib(
    it: &mut Interp,
    f: &Value,
    args: Vec<Value>,
    line: u32,
) -> Result<Vec<Value>, Fault> {
    if let Value::Builtin(_) = f {
        it.libs.from_lib = true;
    }
    it.call_value(f, args, line, None)
}

/// The base function a global name refers to, if any.
pub fn global_function(name: &str) -> Option<Builtin> {
    base::lookup(name).map(Builtin::Base)
}

/// `lib[key]`: a static lookup in a library table.
pub fn lib_get(lib: Lib, key: &Value) -> Value {
    match key {
        Value::Str(name) => lib_field(lib, name),
        _ => Value::Nil,
    }
}

/// `lib.name`: a static lookup by the field's name.
pub fn lib_field(lib: Lib, name: &[u8]) -> Value {
    match lib {
        Lib::Redis => redis::field(name),
        Lib::String => string::field(name),
        Lib::Table => table::field(name),
        Lib::Math => math::field(name),
        Lib::Cjson => cjson::field(name),
        Lib::Bit => bit::field(name),
        Lib::Cmsgpack => cmsgpack::field(name),
        Lib::Struct => lstruct::field(name),
        Lib::Coroutine => coroutine::field(name),
    }
}

/// Builds a copy of one library table (for the rare script that iterates over one).
pub fn make_lib(lib: Lib) -> TableRef {
    let names: &[&str] = match lib {
        Lib::Redis => redis::NAMES,
        Lib::String => string::NAMES,
        Lib::Table => table::NAMES,
        Lib::Math => math::NAMES,
        Lib::Cjson => cjson::NAMES,
        Lib::Bit => bit::NAMES,
        Lib::Cmsgpack => cmsgpack::NAMES,
        Lib::Struct => lstruct::NAMES,
        Lib::Coroutine => coroutine::NAMES,
    };
    let t = TableRef::new();
    for name in names {
        let key = Value::str(name.as_bytes());
        let value = lib_get(lib, &key);
        // A fresh table of a few dozen entries cannot exceed its size cap.
        let _ = t.set(key, value);
    }
    t
}

/// Runs a built-in function.
pub fn call_builtin(
    it: &mut Interp,
    b: Builtin,
    args: Vec<Value>,
    line: u32,
) -> Result<Vec<Value>, Fault> {
    let site = Site {
        line,
        from_lib: std::mem::take(&mut it.libs.from_lib),
    };
    // Library functions copy, scan or hash their string arguments: charge for their length
    // (`redis_call` charges for its own).
    if !matches!(b, Builtin::REDIS_CALL | Builtin::REDIS_PCALL) {
        let weight: u64 = args.iter().map(Value::weight).sum();
        it.charge(weight, line)?;
    }
    match b {
        Builtin::Base(f) => base::call(it, f, args, site),
        Builtin::Redis(f) => redis::call(it, f, args, site),
        Builtin::String(f) => string::call(it, f, args, site),
        Builtin::Table(f) => table::call(it, f, args, site),
        Builtin::Math(f) => math::call(it, f, args, site),
        Builtin::Cjson(f) => cjson::call(it, f, args, site),
        Builtin::Bit(f) => bit::call(f, args, site),
        Builtin::Cmsgpack(f) => cmsgpack::call(it, f, args, site),
        Builtin::Struct(f) => lstruct::call(it, f, args, site),
        Builtin::Coroutine(f) => coroutine::call(it, f, args, site),
    }
}

/// Argument access with Lua 5.1's `bad argument #n to 'f' (…)` errors.
struct Args<'a> {
    v: &'a [Value],
    f: Builtin,
    line: u32,
    from_lib: bool,
}

impl<'a> Args<'a> {
    fn new(v: &'a [Value], f: Builtin, site: Site) -> Self {
        Args {
            v,
            f,
            line: site.line,
            from_lib: site.from_lib,
        }
    }

    /// Lua's `luaL_error` from this function: positioned at the calling line, or without a
    /// position when a library function called it.
    fn error(&self, msg: &str) -> Fault {
        if self.from_lib {
            bare_error(self.line, msg)
        } else {
            runtime_error(self.line, msg)
        }
    }

    fn bad(&self, n: usize, msg: &str) -> Fault {
        // Called from a library function, Lua knows no name for the function.
        let name = if self.from_lib { "?" } else { self.f.name() };
        self.error(&format!("bad argument #{} to '{}' ({})", n, name, msg))
    }

    fn got(&self, n: usize) -> &'static str {
        match self.v.get(n - 1) {
            None => "no value",
            Some(v) => v.type_name(),
        }
    }

    fn any(&self, n: usize) -> Result<Value, Fault> {
        self.v
            .get(n - 1)
            .cloned()
            .ok_or_else(|| self.bad(n, "value expected"))
    }

    fn number(&self, n: usize) -> Result<f64, Fault> {
        match self.v.get(n - 1).and_then(|v| v.to_number()) {
            Some(x) => Ok(x),
            None => Err(self.bad(n, &format!("number expected, got {}", self.got(n)))),
        }
    }

    fn int(&self, n: usize) -> Result<i64, Fault> {
        Ok(number_to_integer(self.number(n)?))
    }

    fn opt_int(&self, n: usize, default: i64) -> Result<i64, Fault> {
        match self.v.get(n - 1) {
            None | Some(Value::Nil) => Ok(default),
            Some(_) => self.int(n),
        }
    }

    fn string(&self, n: usize) -> Result<Arc<[u8]>, Fault> {
        match self.v.get(n - 1).and_then(|v| v.to_str_bytes()) {
            Some(s) => Ok(s),
            None => Err(self.bad(n, &format!("string expected, got {}", self.got(n)))),
        }
    }

    fn function(&self, n: usize) -> Result<Value, Fault> {
        match self.v.get(n - 1) {
            Some(f @ (Value::Func(_) | Value::Builtin(_))) => Ok(f.clone()),
            _ => Err(self.bad(n, &format!("function expected, got {}", self.got(n)))),
        }
    }

    fn table(&self, n: usize) -> Result<TableRef, Fault> {
        match self.v.get(n - 1) {
            Some(Value::Table(t)) => Ok(t.clone()),
            // A library table handed to pairs/next/… is materialised as a fresh copy.
            Some(Value::Lib(lib)) => Ok(make_lib(*lib)),
            _ => Err(self.bad(n, &format!("table expected, got {}", self.got(n)))),
        }
    }
}

fn one(v: Value) -> Result<Vec<Value>, Fault> {
    Ok(vec![v])
}

fn string_result(bytes: Vec<u8>, line: u32) -> Result<Vec<Value>, Fault> {
    if bytes.len() > MAX_STRING_LEN {
        return Err(memory_error(line));
    }
    one(Value::Str(Arc::from(bytes)))
}
