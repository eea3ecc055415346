//! The evaluator: walks the AST with Lua 5.1 semantics (scoping, closures, varargs, multiple
//! results, coercions, metatables), counts every step against the budget, caps call depth, and
//! words and positions runtime errors the way Lua 5.1 does (`user_script:3: attempt to call
//! local 'x' (a nil value)`).
//!
//! Layout, from the bottom up: [`fault`] says what errors are, [`outcome`] how code finishes and
//! [`saved`] what a yield leaves behind; this file holds the run's state ([`Interp`]) and the
//! globals, [`steps`] the step budget and SCRIPT KILL; on top, [`exec`] runs statements, [`eval`] expressions, [`call`]
//! function calls, [`meta`] the metamethods, [`position`] works out where an error happened and
//! [`coroutine`] how a coroutine suspends and resumes.

mod call;
mod coroutine;
mod eval;
mod exec;
mod fault;
mod meta;
mod outcome;
mod position;
mod saved;
mod steps;

pub(crate) use call::Callee;
pub use fault::{
    bare_error, chunk_id, memory_error, runtime_error, type_error, Fault, C_BOUNDARY,
    SYNTAX_ID_SIZE,
};
use fault::{Activation, NATIVE};
pub(crate) use meta::READONLY_TABLE;
use outcome::Flow;
use saved::Control;
pub use steps::KILLED;

use std::sync::Arc;

use super::ast::FuncBody;
use super::convert;
use super::handle::{BaseFunc, Builtin, Lib};
use super::host::{CommandHost, ScriptInputs};
use super::lib_state::{LibState, LuaState, Rand48};
use super::lib_tables;
use super::value::{Cell, Table, TableRef, Value};

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
/// Nesting units a library function costs when it calls back into Lua (pcall, metamethods).
pub const NATIVE_NESTING: u32 = 4;
/// How many `__index` / `__newindex` tables a lookup follows before "loop in gettable".
const MAX_TAG_LOOP: usize = 100;

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

    /// Whether the script gave the table a metatable: then a read must go through its
    /// `__index`, not [`Self::get`].
    fn has_metatable(&self) -> bool {
        self.table
            .as_ref()
            .is_some_and(|t| t.0.borrow().meta.is_some())
    }

    /// `KEYS[key]` read raw: from the table once there is one, else straight from the caller's
    /// items.
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

/// KEYS or ARGV as a table: its items set at 1, 2, … as Redis sets them.
pub(crate) fn array_of(items: &dyn ScriptInputs) -> TableRef {
    TableRef::from_table(Table::from_sequence(
        (0..items.count()).map(|i| Value::Str(items.shared_item(i))),
    ))
}

/// The library table a global name is.
fn library_named(name: &str) -> Option<Lib> {
    match name {
        "redis" => Some(Lib::Redis),
        "string" => Some(Lib::String),
        #[cfg(feature = "full")]
        "table" => Some(Lib::Table),
        #[cfg(feature = "full")]
        "math" => Some(Lib::Math),
        #[cfg(feature = "full")]
        "cjson" => Some(Lib::Cjson),
        #[cfg(feature = "full")]
        "bit" => Some(Lib::Bit),
        #[cfg(feature = "full")]
        "cmsgpack" => Some(Lib::Cmsgpack),
        #[cfg(feature = "full")]
        "struct" => Some(Lib::Struct),
        #[cfg(feature = "full")]
        "coroutine" => Some(Lib::Coroutine),
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

/// Every global name Redis 7.0 defines, in the order `_G` lists them here; names this engine
/// does not provide are left out of `_G`.
const GLOBAL_NAMES: &[&str] = &[
    "KEYS",
    "ARGV",
    "_VERSION",
    "assert",
    #[cfg(feature = "full")]
    "bit",
    #[cfg(feature = "full")]
    "cjson",
    #[cfg(feature = "full")]
    "cmsgpack",
    "collectgarbage",
    #[cfg(feature = "full")]
    "coroutine",
    "error",
    "gcinfo",
    "getmetatable",
    "ipairs",
    "load",
    "loadstring",
    #[cfg(feature = "full")]
    "math",
    "next",
    "pairs",
    "pcall",
    "rawequal",
    "rawget",
    "rawset",
    "redis",
    "select",
    "setmetatable",
    "string",
    #[cfg(feature = "full")]
    "struct",
    #[cfg(feature = "full")]
    "table",
    "tonumber",
    "tostring",
    "type",
    "unpack",
    "xpcall",
];

/// How the interpreter runs builtins. It knows a builtin only by its [`Builtin`] handle; the
/// library layer above it hands over these entry points when a run's interpreter is built
/// (`lib::NATIVES`), and every call of a builtin goes through them.
#[derive(Clone, Copy)]
pub struct Natives {
    /// Runs any builtin.
    pub call: RunBuiltin,
    /// Runs `redis.call` or `redis.pcall` with arguments read in place: the path nearly every
    /// command a script sends takes, with no list allocated.
    pub redis_call: RunRedisCall,
}

/// Runs a builtin with its arguments, called from a line: its results, or what it raised.
pub type RunBuiltin = fn(&mut Interp, Builtin, Vec<Value>, u32) -> Result<Vec<Value>, Fault>;

/// Runs `redis.call` or `redis.pcall` with its arguments, called from a line: the reply as a
/// Lua value, or what it raised.
pub type RunRedisCall = fn(&mut Interp, Builtin, &[Value], u32) -> Result<Value, Fault>;

/// What a run is for, which decides the globals it sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunKind {
    /// A script (EVAL): every library, `KEYS` and `ARGV`.
    Script,
    /// FUNCTION LOAD running a library's top level: nothing but a reduced `redis`.
    Load,
    /// FCALL running a function: no `KEYS` or `ARGV` globals (the function gets them as its
    /// arguments).
    Function,
}

impl RunKind {
    /// FUNCTION LOAD running a library's top level. FUNCTION is `full`'s, so without it this is
    /// false where it is compiled, and the load-time paths are left out of the build.
    pub fn is_load(self) -> bool {
        cfg!(feature = "full") && self == RunKind::Load
    }

    /// FCALL running a function; likewise only ever true with `full`.
    pub fn is_function(self) -> bool {
        cfg!(feature = "full") && self == RunKind::Function
    }
}

/// The variables visible in one function activation, and its extra arguments (`...`).
pub struct Frame<'c> {
    locals: Vec<(Arc<str>, Cell)>,
    captured: &'c [(Arc<str>, Cell)],
    varargs: Vec<Value>,
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

/// One script run: the host, the budget, the call stack and the (read-only) globals.
pub struct Interp<'h> {
    pub host: &'h mut dyn CommandHost,
    steps: u64,
    budget: u64,
    nesting: u32,
    /// `KEYS` and `ARGV`.
    inputs: [Inputs<'h>; 2],
    /// The next call is a method call (`obj:f()`), whose argument errors do not count `self`.
    method_call: bool,
    /// `_G`, built on first use.
    globals: Option<TableRef>,
    /// The metatable every string shares (`{__index = string}`), built on first use.
    string_meta: Option<TableRef>,
    /// `_G`'s metatable (`{__index = <refuse undefined globals>}`), built on first use.
    globals_meta: Option<TableRef>,
    /// The chunk names functions were compiled from; 0 is the script's own.
    sources: Vec<Arc<str>>,
    stack: Vec<Activation>,
    /// The chunk the error now unwinding was raised in, for the reply's `on <chunk>:<line>`.
    fault_chunk: Option<u32>,
    /// What the run is for.
    pub kind: RunKind,
    /// How builtins run.
    natives: Natives,
    /// What the libraries keep during the run.
    pub libs: LibState,
    /// The coroutines being run and the state a yield or a resume carries.
    co: Control,
    /// SCRIPT KILL (or FUNCTION KILL) reached this run: as Redis 7.0's line hook does, every
    /// new line the script runs, every function it enters and every jump back to a loop's
    /// start raises the kill again. The line it was last raised on, until the script moves on.
    killed: Option<Option<u32>>,
}

/// A run's call stack and chunk-name list, handed from one run to the next by a caller that
/// runs scripts repeatedly (the script cache), so that a run does not allocate them anew.
/// Empty between runs: only their capacity is kept.
#[derive(Clone, Default)]
pub struct RunBuffers {
    sources: Vec<Arc<str>>,
    stack: Vec<Activation>,
}

impl<'h> Interp<'h> {
    /// A script run (see [`RunKind`]) with these inputs and step budget, running builtins
    /// through `natives`.
    pub fn new(
        host: &'h mut dyn CommandHost,
        keys: &'h dyn ScriptInputs,
        argv: &'h dyn ScriptInputs,
        budget: u64,
        natives: Natives,
    ) -> Self {
        Interp::reusing(host, keys, argv, budget, natives, RunBuffers::default())
    }

    /// [`Interp::new`] with the buffers of an earlier run; [`Interp::into_buffers`] hands them
    /// back.
    pub fn reusing(
        host: &'h mut dyn CommandHost,
        keys: &'h dyn ScriptInputs,
        argv: &'h dyn ScriptInputs,
        budget: u64,
        natives: Natives,
        buffers: RunBuffers,
    ) -> Self {
        let RunBuffers {
            mut sources,
            mut stack,
        } = buffers;
        sources.clear();
        stack.clear();
        Interp {
            host,
            steps: 0,
            budget,
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
            method_call: false,
            globals: None,
            string_meta: None,
            globals_meta: None,
            sources,
            stack,
            fault_chunk: None,
            kind: RunKind::Script,
            natives,
            libs: LibState::default(),
            co: Control::default(),
            killed: None,
        }
    }

    /// The interpreter's state kept between runs: the host's, or this run's own.
    pub fn lua_state(&mut self) -> &mut LuaState {
        match self.host.lua_state() {
            Some(state) => state,
            None => &mut self.libs.local,
        }
    }

    /// `math.random`'s generator: the host's, or this run's own.
    pub fn rand48(&mut self) -> &mut Rand48 {
        match self.host.rand48() {
            Some(rand) => rand,
            None => &mut self.libs.rand,
        }
    }

    /// The run's buffers, emptied (nothing of the run stays alive in them), for the next run.
    pub fn into_buffers(mut self) -> RunBuffers {
        let mut sources = std::mem::take(&mut self.sources);
        let mut stack = std::mem::take(&mut self.stack);
        sources.clear();
        stack.clear();
        RunBuffers { sources, stack }
    }

    /// Runs the main chunk and returns its first result (nil when it returns nothing).
    pub fn run_chunk(&mut self, body: &Arc<FuncBody>) -> Result<Value, Fault> {
        Ok(match self.call_body_flow(body, &[], Vec::new(), false)? {
            Flow::ReturnOne(v) => v,
            Flow::Return(results) => results.into_iter().next().unwrap_or_default(),
            Flow::Normal | Flow::Break => Value::Nil,
        })
    }

    /// The metatable all strings share: its `__index` is the string library. Locked, as Redis
    /// locks it.
    pub fn string_metatable(&mut self) -> TableRef {
        self.string_meta
            .get_or_insert_with(|| locked_metatable(Value::Lib(Lib::String)))
            .clone()
    }

    /// The metatable Redis gives `_G`: an `__index` that refuses undefined globals. One table
    /// for the run, locked, as Redis's is.
    pub fn globals_metatable(&mut self) -> TableRef {
        self.globals_meta
            .get_or_insert_with(|| {
                locked_metatable(Value::Builtin(Builtin::Base(BaseFunc::UndefinedGlobal)))
            })
            .clone()
    }

    fn enter(&mut self, line: u32, units: u32) -> Result<(), Fault> {
        if self.nesting + units > MAX_NESTING {
            return Err(runtime_error(line, "stack overflow"));
        }
        self.nesting += units;
        Ok(())
    }

    /// The value of global `name`: a library, `KEYS`/`ARGV`, `_G`, or a base function.
    fn global(&mut self, name: &str, line: u32) -> Result<Value, Fault> {
        match self.global_value(name) {
            Some(v) => Ok(v),
            None => Err(runtime_error(line, &nonexistent_global(name))),
        }
    }

    fn global_value(&mut self, name: &str) -> Option<Value> {
        // A library's top level (FUNCTION LOAD) sees nothing but its own `redis`.
        if self.kind.is_load() {
            return if name == "redis" {
                self.library(name).map(Value::Lib)
            } else {
                None
            };
        }
        if self.kind.is_function() && input_slot(name).is_some() {
            return None;
        }
        if let Some(lib) = self.library(name) {
            return Some(Value::Lib(lib));
        }
        Some(match name {
            "KEYS" => Value::Table(self.inputs[0].table()),
            "ARGV" => Value::Table(self.inputs[1].table()),
            "_G" => Value::Table(self.globals_table()),
            "_VERSION" => Value::str(b"Lua 5.1"),
            _ => Value::Builtin(lib_tables::global_function(name)?),
        })
    }

    /// The library global `name` is in this run: `redis` is the run's own (EVAL's, a
    /// function's, or FUNCTION LOAD's).
    pub(super) fn library(&self, name: &str) -> Option<Lib> {
        let lib = library_named(name)?;
        #[cfg(feature = "full")]
        if lib == Lib::Redis {
            if self.kind.is_load() {
                return Some(Lib::RedisLoad);
            }
            if self.kind.is_function() {
                return Some(Lib::RedisFunction);
            }
        }
        Some(lib)
    }

    /// `lib.field`; while a library loads, a field its `redis` lacks, or any other library, is
    /// reported as Redis reports it, as a missing global.
    pub(crate) fn lib_field(&self, lib: Lib, field: &[u8], line: u32) -> Result<Value, Fault> {
        let value = lib_tables::lib_field(lib, field);
        // FUNCTION LOAD's `redis` carries Redis's error metatable: a field it lacks is reported
        // as a missing global whenever it is read (by a function that kept the table, too).
        #[cfg(feature = "full")]
        if lib == Lib::RedisLoad {
            if value.is_nil() {
                return Err(runtime_error(
                    line,
                    &nonexistent_global(&String::from_utf8_lossy(field)),
                ));
            }
            return Ok(value);
        }
        if !self.kind.is_load() {
            return Ok(value);
        }
        // The fast path for `string.len` lands here without looking the library up.
        let name = [
            "string",
            "table",
            "math",
            "cjson",
            "bit",
            "cmsgpack",
            "struct",
            "coroutine",
        ]
        .into_iter()
        .find(|name| library_named(name) == Some(lib))
        .unwrap_or("?");
        Err(runtime_error(line, &nonexistent_global(name)))
    }

    /// `_G`: a read-only table of every global, built on first use. It does not hold itself
    /// (that cycle would never be freed): indexing it with "_G" answers it instead.
    fn globals_table(&mut self) -> TableRef {
        if let Some(t) = &self.globals {
            return t.clone();
        }
        let t = TableRef::new();
        for name in GLOBAL_NAMES {
            if let Some(v) = self.global_value(name) {
                // A fresh table of a few dozen entries cannot exceed its size cap.
                let _ = t.set(Value::str(name.as_bytes()), v);
            }
        }
        t.0.borrow_mut().readonly = true;
        self.globals = Some(t.clone());
        t
    }
}

/// A metatable of one `__index` that scripts cannot write.
fn locked_metatable(index: Value) -> TableRef {
    let t = TableRef::new();
    // A fresh one-entry table cannot exceed its size cap.
    let _ = t.set(Value::str(b"__index"), index);
    t.0.borrow_mut().locked = true;
    t
}

/// Redis's error for reading the global `key` nobody defined (`luaProtectedTableError`): the
/// name as C's `%s` prints it, up to a NUL; a key that is neither a string nor a number has an
/// error of its own.
pub(crate) fn undefined_global_message(key: &Value) -> String {
    if !matches!(key, Value::Str(_) | Value::Num(_)) {
        return "Second argument to luaProtectedTableError must be a string or number".into();
    }
    let name = key.to_display();
    nonexistent_global(&String::from_utf8_lossy(crate::args::c_string(&name)))
}

/// Redis's error for reading an undefined global.
fn nonexistent_global(name: &str) -> String {
    format!(
        "Script attempted to access nonexistent global variable '{}'",
        name
    )
}
