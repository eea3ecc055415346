//! `string.format` as Lua 5.1 on glibc computes it: `%d %i %u %c %x %X %o %e %E %f %g %G %q %s
//! %%` with the flags `-+ #0`, a width and a precision of at most two digits each, C's casts of a
//! double to the integer a conversion takes, and Lua 5.1's errors.

use super::super::interp::{memory_error, Fault, Interp};
use super::args::{string_result, Args};
use crate::lua::number::{number_to_i32, number_to_integer};
use crate::lua::value::{Value, MAX_STRING_LEN};
use crate::numtext;

/// One `%…` conversion.
struct Spec {
    minus: bool,
    plus: bool,
    space: bool,
    hash: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
    conv: u8,
}

/// `luaL_error` from `string.format`: placed as every library function's error is. (An
/// option byte that is not UTF-8 becomes U+FFFD, as in every error text.)
fn error_bytes(a: &Args, msg: &[u8]) -> Fault {
    a.error(&String::from_utf8_lossy(msg))
}

/// Reads the flags, width and precision after a `%` (Lua's `scanformat`) and the conversion
/// letter (0 at the end of the format).
fn scan(fmt: &[u8], i: &mut usize, a: &Args) -> Result<Spec, Fault> {
    let at = |i: usize| fmt.get(i).copied().unwrap_or(0);
    let mut spec = Spec {
        minus: false,
        plus: false,
        space: false,
        hash: false,
        zero: false,
        width: 0,
        precision: None,
        conv: 0,
    };
    let start = *i;
    while b"-+ #0".contains(&at(*i)) && at(*i) != 0 {
        match at(*i) {
            b'-' => spec.minus = true,
            b'+' => spec.plus = true,
            b' ' => spec.space = true,
            b'#' => spec.hash = true,
            _ => spec.zero = true,
        }
        *i += 1;
    }
    if *i - start >= 6 {
        return Err(error_bytes(a, b"invalid format (repeated flags)"));
    }
    let digits = |i: &mut usize| {
        let mut n = 0;
        for _ in 0..2 {
            if at(*i).is_ascii_digit() {
                n = n * 10 + (at(*i) - b'0') as usize;
                *i += 1;
            }
        }
        n
    };
    spec.width = digits(i);
    if at(*i) == b'.' {
        *i += 1;
        spec.precision = Some(digits(i));
    }
    if at(*i).is_ascii_digit() {
        return Err(error_bytes(
            a,
            b"invalid format (width or precision too long)",
        ));
    }
    spec.conv = at(*i);
    *i += 1;
    Ok(spec)
}

/// `string.format`.
pub fn format(it: &mut Interp, a: &Args) -> Result<Vec<Value>, Fault> {
    let fmt = a.string(1)?;
    let mut out = Vec::new();
    let mut arg = 1;
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
        arg += 1;
        if arg > a.v.len() {
            return Err(a.bad(arg, "no value"));
        }
        let spec = scan(&fmt, &mut i, a)?;
        convert(it, a, arg, &spec, &mut out)?;
        if out.len() > MAX_STRING_LEN {
            return Err(memory_error(a.line));
        }
    }
    string_result(out, a.line)
}

/// C's `(unsigned long)` of a double as x86-64 code computes it.
fn double_to_u64(x: f64) -> u64 {
    const TWO63: f64 = 9_223_372_036_854_775_808.0;
    if x.is_nan() || x < TWO63 {
        number_to_integer(x) as u64
    } else {
        (number_to_integer(x - TWO63) as u64) ^ (1 << 63)
    }
}

/// Appends one conversion.
fn convert(
    it: &mut Interp,
    a: &Args,
    arg: usize,
    spec: &Spec,
    out: &mut Vec<u8>,
) -> Result<(), Fault> {
    match spec.conv {
        b'c' => {
            let c = number_to_i32(a.number(arg)?) as u8;
            let body = pad(spec, Vec::new(), vec![c], false);
            // sprintf's text is read back as a C string: a NUL ends it.
            let end = body.iter().position(|&b| b == 0).unwrap_or(body.len());
            out.extend_from_slice(&body[..end]);
        }
        b'd' | b'i' => {
            let n = number_to_integer(a.number(arg)?);
            let sign = sign_of(n < 0, spec);
            let digits = int_digits(n.unsigned_abs().to_string(), n == 0, spec);
            out.extend(pad(spec, sign, digits, spec.precision.is_none()));
        }
        b'o' | b'u' | b'x' | b'X' => {
            let n = double_to_u64(a.number(arg)?);
            let (digits, prefix) = match spec.conv {
                b'o' => (format!("{:o}", n), Vec::new()),
                b'u' => (n.to_string(), Vec::new()),
                b'x' if spec.hash && n != 0 => (format!("{:x}", n), b"0x".to_vec()),
                b'X' if spec.hash && n != 0 => (format!("{:X}", n), b"0X".to_vec()),
                b'x' => (format!("{:x}", n), Vec::new()),
                _ => (format!("{:X}", n), Vec::new()),
            };
            let mut digits = int_digits(digits, n == 0, spec);
            if spec.conv == b'o' && spec.hash && digits.first() != Some(&b'0') {
                digits.insert(0, b'0');
            }
            out.extend(pad(spec, prefix, digits, spec.precision.is_none()));
        }
        b'e' | b'E' | b'f' | b'g' | b'G' => {
            let x = a.number(arg)?;
            let sign = sign_of(x.is_sign_negative(), spec);
            let (body, finite) = float_body(x.abs(), spec);
            out.extend(pad(spec, sign, body, finite));
        }
        b'q' => quoted(&a.string(arg)?, out),
        b's' => {
            let s = a.string(arg)?;
            it.charge((s.len() / 1024) as u64, a.line)?;
            if spec.precision.is_none() && s.len() >= 100 {
                out.extend_from_slice(&s);
            } else {
                let end = s.iter().position(|&b| b == 0).unwrap_or(s.len());
                let end = spec.precision.map_or(end, |p| p.min(end));
                out.extend(pad(spec, Vec::new(), s[..end].to_vec(), false));
            }
        }
        other => {
            let mut msg = b"invalid option '%".to_vec();
            if other != 0 {
                msg.push(other);
            }
            msg.extend_from_slice(b"' to 'format'");
            return Err(error_bytes(a, &msg));
        }
    }
    Ok(())
}

fn sign_of(negative: bool, spec: &Spec) -> Vec<u8> {
    if negative {
        b"-".to_vec()
    } else if spec.plus {
        b"+".to_vec()
    } else if spec.space {
        b" ".to_vec()
    } else {
        Vec::new()
    }
}

/// An integer's digits with C's precision rule (at least that many digits; none for zero at
/// precision 0).
fn int_digits(digits: String, zero: bool, spec: &Spec) -> Vec<u8> {
    match spec.precision {
        Some(0) if zero => Vec::new(),
        Some(p) if digits.len() < p => {
            let mut v = vec![b'0'; p - digits.len()];
            v.extend_from_slice(digits.as_bytes());
            v
        }
        _ => digits.into_bytes(),
    }
}

/// Pads `prefix` + `body` to the width: left-justified, with zeros after the prefix (when
/// `zero_ok` and the `0` flag), or with spaces before.
fn pad(spec: &Spec, prefix: Vec<u8>, body: Vec<u8>, zero_ok: bool) -> Vec<u8> {
    let len = prefix.len() + body.len();
    let fill = spec.width.saturating_sub(len);
    let mut v = Vec::with_capacity(len + fill);
    if spec.minus {
        v.extend(prefix);
        v.extend(body);
        v.resize(v.len() + fill, b' ');
    } else if spec.zero && zero_ok {
        v.extend(prefix);
        v.resize(v.len() + fill, b'0');
        v.extend(body);
    } else {
        v.resize(fill, b' ');
        v.extend(prefix);
        v.extend(body);
    }
    v
}

/// `%e`/`%f`/`%g` of a non-negative number (the sign is added by the caller), and whether it is
/// finite (only finite numbers take the `0` flag).
fn float_body(x: f64, spec: &Spec) -> (Vec<u8>, bool) {
    let upper = spec.conv.is_ascii_uppercase();
    if !x.is_finite() {
        let text: &[u8] = match (x.is_nan(), upper) {
            (true, false) => b"nan",
            (true, true) => b"NAN",
            (false, false) => b"inf",
            (false, true) => b"INF",
        };
        return (text.to_vec(), false);
    }
    let p = spec.precision.unwrap_or(6);
    let mut s = match spec.conv.to_ascii_lowercase() {
        b'f' => numtext::fixed(x, p, spec.hash),
        b'e' => numtext::exponential(x, p, spec.hash),
        _ => numtext::general(x, p, spec.hash),
    };
    if upper {
        s.make_ascii_uppercase();
    }
    (s.into_bytes(), true)
}

/// `%q`: the string in double quotes, escaped so Lua reads it back.
fn quoted(s: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    for &ch in s {
        match ch {
            b'"' | b'\\' | b'\n' => {
                out.push(b'\\');
                out.push(ch);
            }
            b'\r' => out.extend_from_slice(b"\\r"),
            0 => out.extend_from_slice(b"\\000"),
            _ => out.push(ch),
        }
    }
    out.push(b'"');
}
