//! The script's library, one file per Lua library: [`base`] (tonumber, tostring, type, pairs,
//! pcall, error, …), [`string`] (with [`strmatch`] for patterns and [`format`]), [`table`]
//! (with [`sort`]), [`math`], [`coroutine`], [`redis`], and Redis's extra libraries [`cjson`]
//! (with [`json_decode`]), [`cmsgpack`], [`bit`] and `struct` ([`lstruct`]), with what they all
//! work with (arguments, errors, results) in [`args`]. This file owns [`NATIVES`], the entry
//! points the interpreter runs builtins through: a call goes to its library's file. What the
//! library tables hold and what each builtin is called are in `lib_tables.rs`, the state the
//! libraries keep during a run in `lib_state.rs`: both sit below the interpreter, which reads
//! the one and carries the other.
//!
//! Without the `full` feature only [`base`], [`string`] (without `format` and the pattern
//! functions) and [`redis`] are compiled: the other libraries' globals do not exist, so a script
//! naming one gets Redis's nonexistent-global error.

mod args;
mod base;
#[cfg(feature = "full")]
mod bit;
#[cfg(feature = "full")]
mod cjson;
#[cfg(feature = "full")]
mod cmsgpack;
#[cfg(feature = "full")]
mod coroutine;
#[cfg(feature = "full")]
mod format;
#[cfg(feature = "full")]
mod json_decode;
#[cfg(feature = "full")]
mod lstruct;
#[cfg(feature = "full")]
mod math;
mod redis;
#[cfg(feature = "full")]
mod sort;
mod string;
#[cfg(feature = "full")]
mod strmatch;
#[cfg(feature = "full")]
mod table;

use super::handle::Builtin;
use super::interp::{Fault, Interp, Natives};
use super::value::{Closure, Value};
use args::Site;

/// Whether `closure` stands in for one of Lua's C functions (coroutine.wrap's and gmatch's
/// iterators), which a call treats as C: in tail position it keeps its caller's frame.
pub(crate) fn stands_for_c(closure: &Closure) -> bool {
    #[cfg(feature = "full")]
    return coroutine::is_native_closure(closure);
    #[cfg(not(feature = "full"))]
    {
        let _ = closure;
        false
    }
}

/// How the interpreter runs builtins: handed to it when a run's interpreter is built.
pub const NATIVES: Natives = Natives {
    call: call_builtin,
    redis_call: redis::redis_call,
};

/// Runs a built-in function.
fn call_builtin(
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
        #[cfg(feature = "full")]
        Builtin::Table(f) => table::call(it, f, args, site),
        #[cfg(feature = "full")]
        Builtin::Math(f) => math::call(it, f, args, site),
        #[cfg(feature = "full")]
        Builtin::Cjson(f) => cjson::call(it, f, args, site),
        #[cfg(feature = "full")]
        Builtin::Bit(f) => bit::call(f, args, site),
        #[cfg(feature = "full")]
        Builtin::Cmsgpack(f) => cmsgpack::call(it, f, args, site),
        #[cfg(feature = "full")]
        Builtin::Struct(f) => lstruct::call(it, f, args, site),
        #[cfg(feature = "full")]
        Builtin::Coroutine(f) => coroutine::call(it, f, args, site),
    }
}
