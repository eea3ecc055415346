//! C's `strtod` as glibc reads the front of a string: leading whitespace, a sign, `inf`,
//! `infinity` and `nan`, hex floats and decimal floats. Redis reads scores and bounds through it,
//! Lua 5.1 reads numerals and `tonumber` through it, and `cjson` reads JSON numbers through it, so
//! all three read a number as the one C function would.

use crate::float_parse::{parse_f64, round_to_f64};

/// What C `strtod` made of the start of a string.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Strtod {
    /// The number read (0 when nothing could be read).
    pub(crate) value: f64,
    /// Bytes consumed, leading whitespace included; 0 when nothing could be read.
    pub(crate) consumed: usize,
    /// Whether C would set `ERANGE`: the value overflowed to ±inf or underflowed to 0.
    pub(crate) range_error: bool,
    /// Whether glibc would also set `ERANGE` for a nonzero result below the normal range that
    /// is not exact (a check such as SORT's, which refuses any `ERANGE`, sees this too). Every
    /// decimal such result counts as inexact: an exact one needs about 750 significant digits.
    pub(crate) tiny_inexact: bool,
}

/// C's `strtod` (glibc): leading whitespace, a sign, then `inf`/`infinity`/`nan`, a hex float
/// (`0x1.8p3`) or a decimal float; reads the longest prefix that is a number.
pub(crate) fn strtod(input: &[u8]) -> Strtod {
    const NOTHING: Strtod = Strtod {
        value: 0.0,
        consumed: 0,
        range_error: false,
        tiny_inexact: false,
    };
    let (at, negative) = after_space_and_sign(input);
    let sign = if negative { -1.0 } else { 1.0 };
    let rest = &input[at..];
    if starts_with_ignore_case(rest, b"infinity") {
        return finished(sign * f64::INFINITY, at + 8, false);
    }
    if starts_with_ignore_case(rest, b"inf") {
        return finished(sign * f64::INFINITY, at + 3, false);
    }
    if starts_with_ignore_case(rest, b"nan") {
        let mut end = at + 3;
        if input.get(end) == Some(&b'(') {
            let inner = input[end + 1..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count();
            if input.get(end + 1 + inner) == Some(&b')') {
                end += inner + 2;
            }
        }
        // glibc keeps the sign: "-nan" reads as a negative NaN, which prints as "-nan".
        return finished(if negative { -f64::NAN } else { f64::NAN }, end, false);
    }
    if let Some(hex) = hex_float(rest) {
        return Strtod {
            value: sign * hex.value,
            consumed: at + hex.consumed,
            ..hex
        };
    }
    match decimal_float(rest) {
        Some(decimal) => Strtod {
            value: sign * decimal.value,
            consumed: at + decimal.consumed,
            tiny_inexact: is_subnormal(decimal.value),
            ..decimal
        },
        None => NOTHING,
    }
}

/// Where C's number conversions (`strtod`, `strtol`, `strtoul`) start on the digits: past leading
/// whitespace and one optional sign. The index there, and whether the sign was `-`.
pub(crate) fn after_space_and_sign(input: &[u8]) -> (usize, bool) {
    let at = input.iter().take_while(|b| is_c_space(**b)).count();
    match input.get(at) {
        Some(b'-') => (at + 1, true),
        Some(b'+') => (at + 1, false),
        _ => (at, false),
    }
}

fn finished(value: f64, consumed: usize, range_error: bool) -> Strtod {
    Strtod {
        value,
        consumed,
        range_error,
        tiny_inexact: false,
    }
}

/// A nonzero value below the smallest normal double.
fn is_subnormal(value: f64) -> bool {
    value != 0.0 && value.abs() < f64::MIN_POSITIVE
}

/// `digits [. digits] [e [sign] digits]` with at least one mantissa digit, unsigned (the caller
/// applies the sign).
fn decimal_float(text: &[u8]) -> Option<Strtod> {
    let int_digits = count_digits(text);
    let mut at = int_digits;
    let mut frac_digits = 0;
    if text.get(at) == Some(&b'.') {
        frac_digits = count_digits(&text[at + 1..]);
        if int_digits > 0 || frac_digits > 0 {
            at += 1 + frac_digits;
        }
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    let mantissa_nonzero = text[..at].iter().any(|b| (b'1'..=b'9').contains(b));
    if matches!(text.get(at), Some(b'e' | b'E')) {
        let mut exp_at = at + 1;
        if matches!(text.get(exp_at), Some(b'+' | b'-')) {
            exp_at += 1;
        }
        let exp_digits = count_digits(&text[exp_at..]);
        if exp_digits > 0 {
            at = exp_at + exp_digits;
        }
    }
    // The prefix is in the form `parse_f64` reads, which rounds like glibc.
    let value = parse_f64(&text[..at])?;
    let range_error = value.is_infinite() || (value == 0.0 && mantissa_nonzero);
    Some(finished(value, at, range_error))
}

/// `0x` hexdigits `[. hexdigits] [p [sign] digits]`, unsigned (the caller applies the sign),
/// rounded once to the nearest double as glibc does, subnormals included.
fn hex_float(text: &[u8]) -> Option<Strtod> {
    if !(text.len() > 2 && text[0] == b'0' && (text[1] == b'x' || text[1] == b'X')) {
        return None;
    }
    let mut at = 2;
    // The digits as `mantissa × 2^shift`: the first 31 significant hex digits exactly (at most
    // 124 bits), any later non-zero digit only marking that something below them is non-zero.
    let mut mantissa: u128 = 0;
    let mut shift: i64 = 0;
    let mut sticky = false;
    let mut any_digit = false;
    let mut seen_point = false;
    while let Some(&byte) = text.get(at) {
        if let Some(digit) = (byte as char).to_digit(16) {
            any_digit = true;
            if mantissa >> 120 == 0 {
                mantissa = mantissa << 4 | u128::from(digit);
                if seen_point {
                    shift -= 4;
                }
            } else {
                sticky |= digit != 0;
                if !seen_point {
                    shift += 4;
                }
            }
        } else if byte == b'.' && !seen_point {
            seen_point = true;
        } else {
            break;
        }
        at += 1;
    }
    if !any_digit {
        return None;
    }
    let mut exponent: i64 = 0;
    if matches!(text.get(at), Some(b'p' | b'P')) {
        let mut exp_at = at + 1;
        let exp_negative = text.get(exp_at) == Some(&b'-');
        if matches!(text.get(exp_at), Some(b'+' | b'-')) {
            exp_at += 1;
        }
        let exp_digits = count_digits(&text[exp_at..]);
        if exp_digits > 0 {
            for &digit in &text[exp_at..exp_at + exp_digits] {
                exponent = (exponent * 10 + i64::from(digit - b'0')).min(100_000);
            }
            if exp_negative {
                exponent = -exponent;
            }
            at = exp_at + exp_digits;
        }
    }
    // With `sticky` set the mantissa has over 120 bits, as `round_to_f64` needs.
    let value = round_to_f64(mantissa, shift + exponent, sticky);
    let range_error = value.is_infinite() || (value == 0.0 && (mantissa != 0 || sticky));
    // A subnormal is `bits × 2^-1074`; the digits were `mantissa × 2^(shift + exponent)`.
    let exact = !sticky && {
        let bits = u128::from(value.to_bits());
        let scale = shift + exponent + 1074;
        if scale >= 0 {
            u32::try_from(scale)
                .ok()
                .and_then(|scale| mantissa.checked_shl(scale))
                .is_some_and(|scaled| scaled >> scale.unsigned_abs() == mantissa && scaled == bits)
        } else {
            u32::try_from(-scale).ok().is_some_and(|down| {
                down < 128 && mantissa.trailing_zeros() >= down && mantissa >> down == bits
            })
        }
    };
    Some(Strtod {
        tiny_inexact: is_subnormal(value) && !exact,
        ..finished(value, at, range_error)
    })
}

fn count_digits(text: &[u8]) -> usize {
    text.iter().take_while(|b| b.is_ascii_digit()).count()
}

fn starts_with_ignore_case(text: &[u8], prefix: &[u8]) -> bool {
    text.len() >= prefix.len() && text[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// C's `isspace` in the C locale.
pub(crate) fn is_c_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

#[cfg(test)]
mod tests {
    use super::strtod;

    /// glibc sets ERANGE for a subnormal result only when it is inexact (each case below was
    /// checked against SORT on a fresh Redis 7.0.15, which refuses a value on any ERANGE).
    #[test]
    fn only_inexact_subnormal_results_are_flagged() {
        for (text, inexact) in [
            ("0x1p-1074", false),
            ("-0x1p-1074", false),
            ("0x0.8p-1022", false),
            ("0x1.8p-1073", false),
            ("0x10p-1078", false),
            ("0x0.0000000000001p-1022", false),
            ("0x1p-1022", false),
            ("0x1.8p-1074", true),
            ("0x3p-1075", true),
            ("0x1.1p-1074", true),
            ("0x1.0000000000001p-1070", true),
            ("4.94e-324", true),
            ("1e-310", true),
            ("1e-300", false),
        ] {
            assert_eq!(strtod(text.as_bytes()).tiny_inexact, inexact, "{text}");
        }
    }
}
