//! `bit` as Redis ships it (LuaBitOp 1.0.2): 32-bit operations on Lua numbers, results as
//! signed 32-bit numbers, arguments normalised as LuaBitOp does (rounded, then taken mod 2^32).

use super::super::interp::Fault;
use super::args::{one, Args, Site};
use crate::lua::handle::Builtin;
use crate::lua::value::Value;

pub use crate::lua::handle::BitFunc as Func;

/// Argument `n` as LuaBitOp reads it: adding 2^52+2^51 rounds to an integer whose low 32 bits
/// are the double's low mantissa bits.
fn barg(a: &Args, n: usize) -> Result<u32, Fault> {
    let x = a.number(n)?;
    Ok((x + 6_755_399_441_055_744.0).to_bits() as u32)
}

fn result(b: u32) -> Result<Vec<Value>, Fault> {
    one(Value::Num(b as i32 as f64))
}

/// Runs a `bit.*` function.
pub fn call(f: Func, args: Vec<Value>, site: Site) -> Result<Vec<Value>, Fault> {
    let a = Args::new(&args, Builtin::Bit(f), site);
    match f {
        Func::Tobit => result(barg(&a, 1)?),
        Func::Bnot => result(!barg(&a, 1)?),
        Func::Bswap => result(barg(&a, 1)?.swap_bytes()),
        Func::Band | Func::Bor | Func::Bxor => {
            // LuaBitOp reads the first argument, then the rest from the last one down, so a
            // bad argument is reported by the highest number.
            let mut b = barg(&a, 1)?;
            for n in (2..=args.len()).rev() {
                let y = barg(&a, n)?;
                b = match f {
                    Func::Band => b & y,
                    Func::Bor => b | y,
                    _ => b ^ y,
                };
            }
            result(b)
        }
        Func::Lshift | Func::Rshift | Func::Arshift | Func::Rol | Func::Ror => {
            let b = barg(&a, 1)?;
            let n = barg(&a, 2)? & 31;
            result(match f {
                Func::Lshift => b << n,
                Func::Rshift => b >> n,
                Func::Arshift => ((b as i32) >> n) as u32,
                Func::Rol => b.rotate_left(n),
                _ => b.rotate_right(n),
            })
        }
        Func::Tohex => {
            let mut b = barg(&a, 1)?;
            let n = if args.len() < 2 {
                8
            } else {
                barg(&a, 2)? as i32
            };
            let digits: &[u8; 16] = if n < 0 {
                b"0123456789ABCDEF"
            } else {
                b"0123456789abcdef"
            };
            let n = n.unsigned_abs().min(8) as usize;
            let mut buf = vec![0u8; n];
            for slot in buf.iter_mut().rev() {
                *slot = digits[(b & 15) as usize];
                b >>= 4;
            }
            one(Value::str(&buf))
        }
    }
}
