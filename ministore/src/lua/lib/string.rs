//! The `string` library: format, sub, len, upper, lower, rep, byte, char, reverse.

use super::super::interp::{memory_error, runtime_error, Fault, Interp};
use super::{one, string_result, Args, Builtin};
use crate::lua::value::{format_g, format_number, Value, MAX_STRING_LEN};

/// A `string.*` function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Format,
    Sub,
    Len,
    Upper,
    Lower,
    Rep,
    Byte,
    Char,
    Reverse,
}

/// Every field of the `string` table.
pub const NAMES: &[&str] = &[
    "format", "sub", "len", "upper", "lower", "rep", "byte", "char", "reverse",
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
        }
    }
}

/// Lua 5.1's relative string position: negative counts from the end.
fn str_pos(pos: i64, len: usize) -> i64 {
    if pos < 0 {
        len as i64 + pos + 1
    } else {
        pos
    }
}

/// Runs a `string.*` function.
pub fn call(it: &mut Interp, f: Func, args: Vec<Value>, line: u32) -> Result<Vec<Value>, Fault> {
    let a = Args {
        v: &args,
        f: Builtin::String(f),
        line,
    };
    match f {
        Func::Format => {
            let fmt = a.string(1)?;
            let out = format(&fmt, &a, it)?;
            string_result(out, line)
        }
        Func::Sub => {
            let s = a.string(1)?;
            let len = s.len();
            let mut i = str_pos(a.int(2)?, len);
            let mut j = str_pos(a.opt_int(3, -1)?, len);
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
            let i = str_pos(a.opt_int(2, 1)?, s.len()).max(1);
            let j = str_pos(a.opt_int(3, i)?, s.len()).min(s.len() as i64);
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
                let c = a.int(n)?;
                if !(0..=255).contains(&c) {
                    return Err(a.bad(n, "invalid value"));
                }
                out.push(c as u8);
            }
            one(Value::str(&out))
        }
    }
}

/// One `%…` conversion: its flags, width, precision and letter.
struct Spec {
    flags: String,
    width: usize,
    precision: Option<usize>,
    conv: u8,
}

/// Reads the conversion after a `%` at `fmt[*i]`.
fn parse_spec(fmt: &[u8], i: &mut usize, line: u32) -> Result<Spec, Fault> {
    let mut flags = String::new();
    while let Some(&f) = fmt.get(*i) {
        if b"-+ #0".contains(&f) {
            flags.push(f as char);
            *i += 1;
        } else {
            break;
        }
    }
    let mut width = 0usize;
    while let Some(d) = fmt.get(*i).filter(|d| d.is_ascii_digit()) {
        width = width * 10 + (d - b'0') as usize;
        *i += 1;
    }
    let mut precision: Option<usize> = None;
    if fmt.get(*i) == Some(&b'.') {
        *i += 1;
        let mut p = 0;
        while let Some(d) = fmt.get(*i).filter(|d| d.is_ascii_digit()) {
            p = p * 10 + (d - b'0') as usize;
            *i += 1;
        }
        precision = Some(p);
    }
    if width > 99 || precision.unwrap_or(0) > 99 {
        return Err(runtime_error(
            line,
            "invalid format (width or precision too long)",
        ));
    }
    let Some(&conv) = fmt.get(*i) else {
        return Err(runtime_error(line, "invalid option '%' to 'format'"));
    };
    *i += 1;
    Ok(Spec {
        flags,
        width,
        precision,
        conv,
    })
}

/// `string.format`: C printf conversions as Lua 5.1 supports them.
fn format(fmt: &[u8], a: &Args, it: &mut Interp) -> Result<Vec<u8>, Fault> {
    let mut out = Vec::new();
    let mut argn = 1;
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        if fmt.get(i) == Some(&b'%') {
            out.push(b'%');
            i += 1;
            continue;
        }
        let spec = parse_spec(fmt, &mut i, a.line)?;
        argn += 1;
        if argn > a.v.len() {
            return Err(a.bad(argn, "no value"));
        }
        let left = spec.flags.contains('-');
        let zero = spec.flags.contains('0') && !left;
        let body = convert_one(&spec, a, argn, it)?;
        pad(
            &mut out,
            body,
            spec.width,
            left,
            zero && !matches!(spec.conv, b's' | b'q' | b'c'),
        );
        if out.len() > MAX_STRING_LEN {
            return Err(memory_error(a.line));
        }
    }
    Ok(out)
}

/// The text of one conversion before padding.
fn convert_one(spec: &Spec, a: &Args, argn: usize, it: &mut Interp) -> Result<Vec<u8>, Fault> {
    let (flags, precision, conv) = (&spec.flags, spec.precision, spec.conv);
    Ok(match conv {
        b'd' | b'i' => {
            let n = a.int(argn)?;
            let mut s = n.unsigned_abs().to_string();
            if let Some(p) = precision {
                while s.len() < p {
                    s.insert(0, '0');
                }
            }
            sign_prefix(n < 0, flags, s).into_bytes()
        }
        b'u' => (a.int(argn)? as u64).to_string().into_bytes(),
        b'c' => vec![a.int(argn)? as u8],
        b'x' | b'X' | b'o' => {
            let n = a.int(argn)? as u64;
            let s = match conv {
                b'x' => format!("{:x}", n),
                b'X' => format!("{:X}", n),
                _ => format!("{:o}", n),
            };
            let s = if flags.contains('#') && n != 0 {
                match conv {
                    b'x' => format!("0x{}", s),
                    b'X' => format!("0X{}", s),
                    _ => format!("0{}", s),
                }
            } else {
                s
            };
            s.into_bytes()
        }
        b'e' | b'E' | b'f' | b'g' | b'G' => {
            let x = a.number(argn)?;
            let p = precision.unwrap_or(6);
            let s = if !x.is_finite() {
                format_number(x).trim_start_matches('-').to_string()
            } else {
                match conv {
                    b'f' => format!("{:.*}", p, x.abs()),
                    b'e' | b'E' => c_exp(x.abs(), p),
                    _ if x == 0.0 => "0".to_string(),
                    _ => format_g(x.abs(), p.max(1)),
                }
            };
            let s = if conv.is_ascii_uppercase() {
                s.to_ascii_uppercase()
            } else {
                s
            };
            sign_prefix(
                x.is_sign_negative() && x != 0.0 || (x == 0.0 && x.is_sign_negative()),
                flags,
                s,
            )
            .into_bytes()
        }
        b's' => {
            let s = a.string(argn)?;
            it.charge((s.len() / 1024) as u64, a.line)?;
            match precision {
                Some(p) if p < s.len() => s[..p].to_vec(),
                _ => s.to_vec(),
            }
        }
        b'q' => {
            let s = a.string(argn)?;
            let mut q = vec![b'"'];
            for &ch in s.iter() {
                match ch {
                    b'"' | b'\\' | b'\n' => {
                        q.push(b'\\');
                        q.push(ch);
                    }
                    b'\r' => q.extend_from_slice(b"\\r"),
                    0 => q.extend_from_slice(b"\\000"),
                    _ => q.push(ch),
                }
            }
            q.push(b'"');
            q
        }
        other => {
            return Err(runtime_error(
                a.line,
                &format!("invalid option '%{}' to 'format'", other as char),
            ))
        }
    })
}

fn sign_prefix(negative: bool, flags: &str, digits: String) -> String {
    if negative {
        format!("-{}", digits)
    } else if flags.contains('+') {
        format!("+{}", digits)
    } else if flags.contains(' ') {
        format!(" {}", digits)
    } else {
        digits
    }
}

fn c_exp(x: f64, p: usize) -> String {
    let s = format!("{:.*e}", p, x);
    match s.split_once('e') {
        Some((m, e)) => {
            let exp: i32 = e.parse().unwrap_or(0);
            format!("{}e{}{:02}", m, if exp < 0 { '-' } else { '+' }, exp.abs())
        }
        None => s,
    }
}

fn pad(out: &mut Vec<u8>, body: Vec<u8>, width: usize, left: bool, zero: bool) {
    if body.len() >= width {
        out.extend_from_slice(&body);
    } else if left {
        out.extend_from_slice(&body);
        out.resize(out.len() + width - body.len(), b' ');
    } else if zero {
        let (sign, digits) = match body.first() {
            Some(b'-' | b'+' | b' ') => body.split_at(1),
            _ => body.split_at(0),
        };
        out.extend_from_slice(sign);
        out.resize(out.len() + width - body.len(), b'0');
        out.extend_from_slice(digits);
    } else {
        out.resize(out.len() + width - body.len(), b' ');
        out.extend_from_slice(&body);
    }
}
