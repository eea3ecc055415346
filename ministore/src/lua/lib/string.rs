//! The `string` library: sub, len, upper, lower, rep, byte, char, reverse, dump here; the
//! pattern functions (find, match, gmatch, gfind, gsub) in [`super::strmatch`] and `format` in
//! [`super::format`].

use super::super::interp::{memory_error, runtime_error, Fault, Interp};
use super::args::{one, posrelat, string_result, Args, Site, MAX_C_STACK};
#[cfg(feature = "full")]
use super::{format, strmatch};
use crate::lua::handle::Builtin;
use crate::lua::value::{Value, MAX_STRING_LEN};

pub use crate::lua::handle::StringFunc as Func;

/// Runs a `string.*` function.
pub fn call(it: &mut Interp, f: Func, args: Vec<Value>, site: Site) -> Result<Vec<Value>, Fault> {
    let line = site.line;
    let a = Args::new(&args, Builtin::String(f), site);
    match f {
        #[cfg(feature = "full")]
        Func::Format => format::format(it, &a),
        #[cfg(feature = "full")]
        Func::Find => strmatch::find(it, &a, true),
        #[cfg(feature = "full")]
        Func::Match => strmatch::find(it, &a, false),
        #[cfg(feature = "full")]
        Func::Gmatch => strmatch::gmatch(&a),
        #[cfg(feature = "full")]
        Func::GmatchStep => strmatch::gmatch_step(it, &a),
        #[cfg(feature = "full")]
        Func::Gsub => strmatch::gsub(it, &a),
        // Lua checks the argument first; ministore keeps no bytecode to dump, so every
        // function gets the refusal real Lua gives a C function.
        Func::Dump => match a.v.first() {
            Some(Value::Func(_) | Value::Builtin(_)) => {
                Err(a.error("unable to dump given function"))
            }
            _ => Err(a.bad(1, &format!("function expected, got {}", a.got(1)))),
        },
        Func::Sub => {
            let s = a.string(1)?;
            let len = s.len();
            let mut i = posrelat(a.int(2)?, len);
            let mut j = posrelat(a.opt_int(3, -1)?, len);
            if i < 1 {
                i = 1;
            }
            if j > len as i64 {
                j = len as i64;
            }
            if i > j {
                return one(Value::str(b""));
            }
            one(Value::str(&s[(i - 1) as usize..j as usize]))
        }
        Func::Len => one(Value::Num(a.string(1)?.len() as f64)),
        Func::Upper => one(Value::str(&a.string(1)?.to_ascii_uppercase())),
        Func::Lower => one(Value::str(&a.string(1)?.to_ascii_lowercase())),
        Func::Reverse => {
            let mut s = a.string(1)?.to_vec();
            s.reverse();
            one(Value::str(&s))
        }
        Func::Rep => {
            let s = a.string(1)?;
            // luaL_checkint: the count cut to a C int.
            let n = (a.int(2)? as i32).max(0) as u64;
            let total = (s.len() as u64).saturating_mul(n);
            if total > MAX_STRING_LEN as u64 {
                return Err(memory_error(line));
            }
            it.charge(total / 1024, line)?;
            string_result(s.repeat(n as usize), line)
        }
        Func::Byte => {
            let s = a.string(1)?;
            let i = posrelat(a.opt_int(2, 1)?, s.len());
            let j = posrelat(a.opt_int(3, i)?, s.len()).min(s.len() as i64);
            let i = i.max(1);
            if i > j {
                return Ok(Vec::new());
            }
            if a.v.len() + (j - i + 1) as usize > MAX_C_STACK {
                return Err(runtime_error(
                    line,
                    "stack overflow (string slice too long)",
                ));
            }
            Ok(s[(i - 1) as usize..j as usize]
                .iter()
                .map(|b| Value::Num(*b as f64))
                .collect())
        }
        Func::Char => {
            let mut out = Vec::with_capacity(args.len());
            for n in 1..=args.len() {
                // luaL_checkint: the integer cut to a C int.
                let c = a.int(n)? as i32;
                if !(0..=255).contains(&c) {
                    return Err(a.bad(n, "invalid value"));
                }
                out.push(c as u8);
            }
            one(Value::str(&out))
        }
    }
}
