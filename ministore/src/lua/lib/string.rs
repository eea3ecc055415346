//! The `string` library: sub, len, upper, lower, rep, byte, char, reverse, dump here; the
//! pattern functions (find, match, gmatch, gfind, gsub) in [`super::strmatch`] and `format` in
//! [`super::format`].

use super::super::interp::{memory_error, Fault, Interp};
use super::{format, one, string_result, strmatch, Args, Builtin, Site};
use crate::lua::value::{Value, MAX_STRING_LEN};

pub use crate::lua::handle::StringFunc as Func;

/// Every field of the `string` table.
pub const NAMES: &[&str] = &[
    "format", "sub", "len", "upper", "lower", "rep", "byte", "char", "reverse", "find", "match",
    "gmatch", "gfind", "gsub", "dump",
];

/// `string.name`.
pub fn field(name: &[u8]) -> Value {
    let f = match name {
        b"format" => Func::Format,
        b"sub" => Func::Sub,
        b"len" => Func::Len,
        b"upper" => Func::Upper,
        b"lower" => Func::Lower,
        b"rep" => Func::Rep,
        b"byte" => Func::Byte,
        b"char" => Func::Char,
        b"reverse" => Func::Reverse,
        b"find" => Func::Find,
        b"match" => Func::Match,
        b"gmatch" => Func::Gmatch,
        b"gfind" => Func::Gfind,
        b"gsub" => Func::Gsub,
        b"dump" => Func::Dump,
        _ => return Value::Nil,
    };
    Value::Builtin(Builtin::String(f))
}

impl Func {
    /// The function's name in Lua's argument errors.
    pub fn name(self) -> &'static str {
        match self {
            Func::Format => "format",
            Func::Sub => "sub",
            Func::Len => "len",
            Func::Upper => "upper",
            Func::Lower => "lower",
            Func::Rep => "rep",
            Func::Byte => "byte",
            Func::Char => "char",
            Func::Reverse => "reverse",
            Func::Find => "find",
            Func::Match => "match",
            Func::Gmatch => "gmatch",
            Func::Gfind => "gfind",
            Func::Gsub => "gsub",
            Func::Dump => "dump",
            Func::GmatchStep => "gmatch_aux",
        }
    }
}

/// Lua 5.1's relative string position (`posrelat`): negative counts from the end, and one
/// before the start is 0.
pub fn posrelat(pos: i64, len: usize) -> i64 {
    let pos = if pos < 0 {
        (len as i64).saturating_add(pos).saturating_add(1)
    } else {
        pos
    };
    pos.max(0)
}

/// Runs a `string.*` function.
pub fn call(it: &mut Interp, f: Func, args: Vec<Value>, site: Site) -> Result<Vec<Value>, Fault> {
    let line = site.line;
    let a = Args::new(&args, Builtin::String(f), site);
    match f {
        Func::Format => format::format(it, &a),
        Func::Find => strmatch::find(it, &a, true),
        Func::Match => strmatch::find(it, &a, false),
        Func::Gmatch | Func::Gfind => strmatch::gmatch(&a),
        Func::GmatchStep => strmatch::gmatch_step(it, &a),
        Func::Gsub => strmatch::gsub(it, &a),
        Func::Dump => Err(a.error("unable to dump given function")),
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
            let n = a.int(2)?.max(0) as u64;
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
