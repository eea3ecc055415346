//! C's `strtod` as glibc reads the front of a string: decimal and hex numbers, `inf`,
//! `infinity` and `nan`, with a sign (for `cjson.decode`'s numbers).

use crate::float_parse::parse_f64;

/// C's `strtod` on the front of `s`: decimal and hex numbers, `inf`/`infinity`/`nan`, with a
/// sign. The value and how many bytes it took, or None when nothing is a number.
pub fn strtod(s: &[u8]) -> Option<(f64, usize)> {
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let mut i = 0;
    let negative = at(0) == b'-';
    if matches!(at(0), b'+' | b'-') {
        i += 1;
    }
    let sign = if negative { -1.0 } else { 1.0 };
    let lower = |from: usize, n: usize| s.get(from..from + n).map(|w| w.to_ascii_lowercase());
    if lower(i, 3).as_deref() == Some(b"inf") {
        let len = if lower(i, 8).as_deref() == Some(b"infinity") {
            8
        } else {
            3
        };
        return Some((sign * f64::INFINITY, i + len));
    }
    if lower(i, 3).as_deref() == Some(b"nan") {
        let mut end = i + 3;
        if at(end) == b'(' {
            let mut j = end + 1;
            while at(j).is_ascii_alphanumeric() || at(j) == b'_' {
                j += 1;
            }
            if at(j) == b')' {
                end = j + 1;
            }
        }
        return Some((sign * f64::NAN, end));
    }
    if at(i) == b'0' && at(i + 1) | 0x20 == b'x' {
        if let Some((v, len)) = hex_float(&s[i + 2..]) {
            return Some((sign * v, i + 2 + len));
        }
        // "0x" without hex digits is the number 0 followed by "x".
        return Some((0.0 * sign, i + 1));
    }
    let start = i;
    let digits = |mut j: usize| {
        while at(j).is_ascii_digit() {
            j += 1;
        }
        j
    };
    let int_end = digits(i);
    let mut end = int_end;
    if at(end) == b'.' {
        end = digits(end + 1);
    }
    if end == start || (end == start + 1 && at(start) == b'.') {
        return None;
    }
    if at(end) | 0x20 == b'e' {
        let mut j = end + 1;
        if matches!(at(j), b'+' | b'-') {
            j += 1;
        }
        if at(j).is_ascii_digit() {
            end = digits(j);
        }
    }
    let v = parse_f64(&s[start..end])?;
    Some((sign * v, end))
}

/// The digits of a hex float after `0x`: mantissa, optional fraction and `p` exponent.
fn hex_float(s: &[u8]) -> Option<(f64, usize)> {
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let mut i = 0;
    let mut v = 0f64;
    let mut any = false;
    while let Some(d) = (at(i) as char).to_digit(16) {
        v = v * 16.0 + d as f64;
        i += 1;
        any = true;
    }
    if at(i) == b'.' {
        let mut scale = 1.0 / 16.0;
        let mut j = i + 1;
        while let Some(d) = (at(j) as char).to_digit(16) {
            v += d as f64 * scale;
            scale /= 16.0;
            j += 1;
            any = true;
        }
        if any {
            i = j;
        }
    }
    if !any {
        return None;
    }
    if at(i) | 0x20 == b'p' {
        let mut j = i + 1;
        let neg = at(j) == b'-';
        if matches!(at(j), b'+' | b'-') {
            j += 1;
        }
        if at(j).is_ascii_digit() {
            let mut e: i32 = 0;
            while at(j).is_ascii_digit() {
                e = e.saturating_mul(10).saturating_add((at(j) - b'0') as i32);
                j += 1;
            }
            v *= 2f64.powi(if neg { -e } else { e });
            i = j;
        }
    }
    Some((v, i))
}
