//! Lua's two conversions between numbers and the outside world that the lexer, the values and
//! the libraries all apply: text to number as Lua 5.1 reads it, and number to integer as
//! Redis's Lua bridge casts it. Nothing here knows about values or the interpreter.

use crate::float_parse::parse_f64;

/// Lua 5.1's string→number conversion (`luaO_str2d`): surrounding whitespace allowed, decimal
/// (with exponent, `inf`, `nan` as glibc's strtod accepts) or `0x` hexadecimal.
pub fn parse_number(bytes: &[u8]) -> Option<f64> {
    // Lua converts the C string: a NUL ends it.
    let bytes = bytes.split(|&c| c == 0).next().unwrap_or_default();
    let s = std::str::from_utf8(bytes).ok()?;
    let t = s.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c'));
    if t.is_empty() {
        return None;
    }
    let (neg, body) = match t.as_bytes()[0] {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    if body.len() > 2 && (body.starts_with("0x") || body.starts_with("0X")) {
        let v = u64::from_str_radix(&body[2..], 16).ok()? as f64;
        return Some(if neg { -v } else { v });
    }
    if body.starts_with(['+', '-']) {
        return None;
    }
    let ok_chars = body
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'));
    let special = [&b"inf"[..], b"infinity", b"nan"]
        .iter()
        .any(|name| body.as_bytes().eq_ignore_ascii_case(name));
    if !ok_chars && !special {
        return None;
    }
    let v = parse_f64(body.as_bytes())?;
    Some(if neg { -v } else { v })
}

/// Converts a double to an integer the way Redis's Lua bridge does (C cast on x86-64):
/// truncation toward zero, and i64::MIN for NaN or values out of range.
pub fn number_to_integer(n: f64) -> i64 {
    // 2^63 is exactly representable; every double in [-2^63, 2^63) fits an i64.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if n.is_nan() || !(-LIMIT..LIMIT).contains(&n) {
        i64::MIN
    } else {
        n.trunc() as i64
    }
}
