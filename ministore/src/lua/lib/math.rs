//! The `math` library: floor, ceil, max, min, abs, sqrt, fmod, huge, pi.

use super::super::interp::Fault;
use super::{one, Args, Builtin};
use crate::lua::value::Value;

/// A `math.*` function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Floor,
    Ceil,
    Max,
    Min,
    Abs,
    Sqrt,
    Fmod,
}

/// Every field of the `math` table.
pub const NAMES: &[&str] = &[
    "floor", "ceil", "max", "min", "abs", "sqrt", "fmod", "huge", "pi",
];

/// `math.name`.
pub fn field(name: &[u8]) -> Value {
    let f = match name {
        b"floor" => Func::Floor,
        b"ceil" => Func::Ceil,
        b"max" => Func::Max,
        b"min" => Func::Min,
        b"abs" => Func::Abs,
        b"sqrt" => Func::Sqrt,
        b"fmod" => Func::Fmod,
        b"huge" => return Value::Num(f64::INFINITY),
        b"pi" => return Value::Num(std::f64::consts::PI),
        _ => return Value::Nil,
    };
    Value::Builtin(Builtin::Math(f))
}

impl Func {
    /// The function's name in Lua's argument errors.
    pub fn name(self) -> &'static str {
        match self {
            Func::Floor => "floor",
            Func::Ceil => "ceil",
            Func::Max => "max",
            Func::Min => "min",
            Func::Abs => "abs",
            Func::Sqrt => "sqrt",
            Func::Fmod => "fmod",
        }
    }
}

/// Runs a `math.*` function.
pub fn call(f: Func, args: Vec<Value>, line: u32) -> Result<Vec<Value>, Fault> {
    let a = Args {
        v: &args,
        f: Builtin::Math(f),
        line,
    };
    match f {
        Func::Floor => one(Value::Num(a.number(1)?.floor())),
        Func::Ceil => one(Value::Num(a.number(1)?.ceil())),
        Func::Abs => one(Value::Num(a.number(1)?.abs())),
        Func::Sqrt => one(Value::Num(a.number(1)?.sqrt())),
        Func::Fmod => {
            let x = a.number(1)?;
            let y = a.number(2)?;
            one(Value::Num(x % y))
        }
        Func::Max | Func::Min => {
            let mut best = a.number(1)?;
            for n in 2..=args.len() {
                let x = a.number(n)?;
                if (f == Func::Max && x > best) || (f == Func::Min && x < best) {
                    best = x;
                }
            }
            one(Value::Num(best))
        }
    }
}
