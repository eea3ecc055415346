//! Lua's two conversions between numbers and the outside world that the lexer, the values and
//! the libraries all apply: text to number as Lua 5.1 reads it, and number to integer as
//! Redis's Lua bridge casts it. Nothing here knows about values or the interpreter.

use crate::strtod::{is_c_space, strtod};

/// Lua 5.1's string→number conversion (`luaO_str2d`): C's `strtod` must read something, and
/// only whitespace may follow what it read. glibc's `strtod` reads hex itself (`0x10`, `0x1.8p3`),
/// so Lua's fallback to `strtoul` when `strtod` stops at an `x` never finds more: it stops at or
/// before that `x`.
pub fn parse_number(bytes: &[u8]) -> Option<f64> {
    // Lua converts the C string: a NUL ends it.
    let bytes = bytes.split(|&c| c == 0).next().unwrap_or_default();
    let read = strtod(bytes);
    if read.consumed == 0 {
        return None;
    }
    bytes[read.consumed..]
        .iter()
        .all(|&c| is_c_space(c))
        .then_some(read.value)
}

/// C's `(int)` of a double as x86-64 code computes it: truncation toward zero, and i32::MIN for
/// NaN or values out of range.
pub fn number_to_i32(x: f64) -> i32 {
    if x.is_nan() || x <= -2_147_483_649.0 || x >= 2_147_483_648.0 {
        i32::MIN
    } else {
        x as i32
    }
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
