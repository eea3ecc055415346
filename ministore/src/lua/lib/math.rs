//! The `math` library of Lua 5.1 (with its 5.0 name `mod` for fmod), and Redis's generator
//! behind `math.random`: the 48-bit `lrand48` recurrence, so that after `math.randomseed(n)` the
//! draws are Redis's own. Each run starts from a seed its host gives (Redis 7.0 draws a fresh
//! one per script; ministore's store hands out reproducible ones).

use super::super::interp::{Fault, Interp};
use super::args::{one, Args, Site};
use crate::lua::handle::Builtin;
use crate::lua::lib_state::Rand48;
use crate::lua::value::Value;

pub use crate::lua::handle::MathFunc as Func;

/// C's `(int)` of a Lua number, as `luaL_checkint` gives it.
fn int32(a: &Args, n: usize) -> Result<i64, Fault> {
    Ok(a.int(n)? as i32 as i64)
}

/// Runs a `math.*` function.
pub fn call(it: &mut Interp, f: Func, args: Vec<Value>, site: Site) -> Result<Vec<Value>, Fault> {
    let a = Args::new(&args, Builtin::Math(f), site);
    let x = || a.number(1);
    // The two-argument functions check their second argument first: Redis's build evaluates
    // `fmod(luaL_checknumber(L, 1), luaL_checknumber(L, 2))`'s arguments right to left.
    let n = match f {
        Func::Abs => x()?.abs(),
        Func::Ceil => x()?.ceil(),
        Func::Floor => x()?.floor(),
        Func::Sqrt => x()?.sqrt(),
        Func::Sin => x()?.sin(),
        Func::Cos => x()?.cos(),
        Func::Tan => x()?.tan(),
        Func::Asin => x()?.asin(),
        Func::Acos => x()?.acos(),
        Func::Atan => x()?.atan(),
        Func::Atan2 => {
            let y = a.number(2)?;
            x()?.atan2(y)
        }
        Func::Exp => x()?.exp(),
        Func::Log => x()?.ln(),
        Func::Log10 => x()?.log10(),
        Func::Pow => {
            let y = a.number(2)?;
            x()?.powf(y)
        }
        Func::Fmod => {
            let y = a.number(2)?;
            x()? % y
        }
        Func::Cosh => x()?.cosh(),
        Func::Sinh => x()?.sinh(),
        Func::Tanh => x()?.tanh(),
        Func::Deg => x()? / (std::f64::consts::PI / 180.0),
        Func::Rad => x()? * (std::f64::consts::PI / 180.0),
        Func::Modf => {
            let v = x()?;
            let ip = v.trunc();
            // C's modf: the fraction has the sign of `v`, a zero one included (`modf(-2)` is
            // `-2, -0`), and is a zero for an infinity.
            let fp = if v.is_infinite() { 0.0 } else { v - ip }.copysign(v);
            return Ok(vec![Value::Num(ip), Value::Num(fp)]);
        }
        Func::Frexp => {
            let (m, e) = frexp(x()?);
            return Ok(vec![Value::Num(m), Value::Num(e as f64)]);
        }
        Func::Ldexp => {
            let e = int32(&a, 2)? as i32;
            ldexp(x()?, e)
        }
        Func::Min | Func::Max => {
            let mut best = x()?;
            for n in 2..=args.len() {
                let v = a.number(n)?;
                if (f == Func::Max && v > best) || (f == Func::Min && v < best) {
                    best = v;
                }
            }
            best
        }
        Func::Random => return random(it, &a),
        Func::RandomSeed => {
            *it.rand48() = Rand48::seeded(int32(&a, 1)? as i32);
            return Ok(Vec::new());
        }
    };
    one(Value::Num(n))
}

/// `math.random([m [, n]])` as Redis's Lua computes it.
fn random(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let rand = it.rand48();
    const MAX: f64 = i32::MAX as f64;
    let r = (rand.draw() % i32::MAX as u32) as f64 / MAX;
    let n = match a.v.len() {
        0 => r,
        1 => {
            let u = int32(a, 1)?;
            if u < 1 {
                return Err(a.bad(1, "interval is empty"));
            }
            (r * u as f64).floor() + 1.0
        }
        2 => {
            let l = int32(a, 1)?;
            let u = int32(a, 2)?;
            if l > u {
                return Err(a.bad(2, "interval is empty"));
            }
            // `u-l+1` in C ints, which wrap past 2^31 - 1.
            let span = (u as i32).wrapping_sub(l as i32).wrapping_add(1);
            (r * f64::from(span)).floor() + l as f64
        }
        _ => return Err(a.error("wrong number of arguments")),
    };
    one(Value::Num(n))
}

/// C's `frexp`: `x = m * 2^e` with `0.5 <= |m| < 1` (zero, infinities and NaN as they are).
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(x * f64::from_bits(0x4350_0000_0000_0000));
        return (m, e - 54);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (0x3fe << 52));
    (m, exp - 1022)
}

/// C's `ldexp`: `x * 2^e`, rounded once, without overflowing on the way.
fn ldexp(mut x: f64, mut e: i32) -> f64 {
    let two_1023 = f64::from_bits(0x7fe0_0000_0000_0000);
    // 2^-1022 * 2^53: scaling down in steps that keep the mantissa's bits.
    let down = f64::from_bits(0x0010_0000_0000_0000) * f64::from_bits(0x4340_0000_0000_0000);
    for _ in 0..2 {
        if e > 1023 {
            x *= two_1023;
            e -= 1023;
        } else if e < -1022 {
            x *= down;
            e += 1022 - 53;
        }
    }
    let e = e.clamp(-1022, 1023);
    x * f64::from_bits(((0x3ff + e) as u64) << 52)
}
