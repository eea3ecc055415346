//! The x87 80-bit `long double` arithmetic of Redis's INCRBYFLOAT and HINCRBYFLOAT, in
//! software: `strtold` (correctly rounded to a 64-bit significand), one addition, and
//! `printf("%.17Lf")` with Redis's trailing-zero trimming; and the blocking commands' timeout,
//! seconds times 1000 rounded up (`ceill`). Plain `f64` would print `1.1` as
//! `1.10000000000000009`; the extended format is what makes Redis print `1.1`.

use std::cmp::Ordering;

use crate::bignum::BigUint;
use crate::float_parse::{binary_quotient, DecimalText};
use crate::strtod::is_c_space;

/// A finite extended-precision value `(-1)^negative * significand * 2^exponent`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LongDouble {
    negative: bool,
    /// Zero, or a 64-bit significand with its top bit set.
    significand: u64,
    exponent: i32,
}

/// Largest exponent of a finite value (`LDBL_MAX` is `(2^64-1) * 2^16320`).
const MAX_EXPONENT: i32 = 16383 - 63;
/// Below this the value underflows (subnormals end at 2^-16445).
const MIN_EXPONENT: i32 = -16445 - 63;
/// Redis refuses longer numbers (`MAX_LONG_DOUBLE_CHARS`).
const MAX_CHARS: usize = 5 * 1024;

/// Why a number could not be read or kept.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum LongDoubleError {
    /// Not a number `strtold` reads whole, or out of range, or NaN.
    NotANumber,
    /// The value is ±infinity (parsed from `inf`, or an addition overflowed).
    Infinite,
}

impl LongDouble {
    /// Redis's `string2ld`: the whole word must be a number, without leading space; NaN,
    /// overflow and underflow to zero are refused. `inf` reads as [`LongDoubleError::Infinite`].
    pub(crate) fn parse(word: &[u8]) -> Result<LongDouble, LongDoubleError> {
        // `strtold` stops at a NUL byte, and Redis then refuses the word because the parse
        // did not reach its full length, so `"5\x00"` and `"inf\x00"` are not numbers.
        if word.is_empty() || word.len() >= MAX_CHARS || word.contains(&0) {
            return Err(LongDoubleError::NotANumber);
        }
        if word.first().is_none_or(|b| is_c_space(*b)) {
            return Err(LongDoubleError::NotANumber);
        }
        let (negative, body) = match word.split_first() {
            Some((b'-', rest)) => (true, rest),
            Some((b'+', rest)) => (false, rest),
            _ => (false, word),
        };
        let lower = body.to_ascii_lowercase();
        if lower == b"inf" || lower == b"infinity" {
            return Err(LongDoubleError::Infinite);
        }
        if lower.starts_with(b"0x") {
            // Hex floats: read through the f64 reader, exact for up to 53 significant bits.
            let parsed = crate::strtod::strtod(body);
            if parsed.consumed != body.len() || parsed.range_error || !parsed.value.is_finite() {
                return Err(LongDoubleError::NotANumber);
            }
            let value = from_f64(parsed.value);
            return Ok(LongDouble { negative, ..value });
        }
        let value = parse_decimal(body).ok_or(LongDoubleError::NotANumber)?;
        Ok(LongDouble { negative, ..value })
    }

    /// An integer as a long double (exact: every i64 fits in 64 bits).
    pub(crate) fn from_i64(n: i64) -> LongDouble {
        let magnitude = n.unsigned_abs();
        normalize(n < 0, BigUint::from_u64(magnitude), 0, false).unwrap_or(LongDouble::zero(false))
    }

    fn zero(negative: bool) -> LongDouble {
        LongDouble {
            negative,
            significand: 0,
            exponent: 0,
        }
    }

    /// `self + other`, rounded to nearest-even; infinite results are an error.
    pub(crate) fn add(self, other: LongDouble) -> Result<LongDouble, LongDoubleError> {
        if self.significand == 0 {
            return Ok(if other.significand == 0 {
                // -0 + -0 is -0; any other pair of zeros is +0.
                LongDouble::zero(self.negative && other.negative)
            } else {
                other
            });
        }
        if other.significand == 0 {
            return Ok(self);
        }
        let base = self.exponent.min(other.exponent);
        let a = BigUint::from_u64(self.significand).shl((self.exponent - base) as usize);
        let b = BigUint::from_u64(other.significand).shl((other.exponent - base) as usize);
        let (negative, sum) = if self.negative == other.negative {
            (self.negative, a.add(&b))
        } else {
            match a.cmp(&b) {
                Ordering::Equal => return Ok(LongDouble::zero(false)),
                Ordering::Greater => (self.negative, a.sub(&b)),
                Ordering::Less => (other.negative, b.sub(&a)),
            }
        };
        normalize(negative, sum, base, false).ok_or(LongDoubleError::Infinite)
    }

    /// `(long long) ceill(self * factor)` as x87 code computes it: the product rounded to a
    /// 64-bit significand, then the ceiling; `None` where the cast leaves `long long`'s range
    /// (x87 gives `LLONG_MIN` there). Redis turns a blocking command's seconds into
    /// milliseconds this way.
    pub(crate) fn mul_ceil_to_i64(self, factor: u32) -> Option<i64> {
        let mut magnitude = BigUint::from_u64(self.significand);
        magnitude.mul_small_add(factor, 0);
        let product = normalize(self.negative, magnitude, self.exponent, false)?;
        let (whole, fraction) = if product.exponent >= 0 {
            let shift = u32::try_from(product.exponent).ok()?;
            let whole = u128::from(product.significand).checked_shl(shift)?;
            if whole >> shift != u128::from(product.significand) {
                return None;
            }
            (whole, false)
        } else {
            let shift = product.exponent.unsigned_abs();
            if shift >= 64 {
                (0, product.significand != 0)
            } else {
                let whole = product.significand >> shift;
                (u128::from(whole), whole << shift != product.significand)
            }
        };
        if product.negative {
            // The ceiling of a negative number drops its fraction.
            0i64.checked_sub_unsigned(u64::try_from(whole).ok()?)
        } else {
            i64::try_from(whole + u128::from(fraction)).ok()
        }
    }

    /// `%.17Lf`, then Redis's `ld2string` human mode: trailing zeros (and a bare point)
    /// dropped, and `-0` written `0`.
    pub(crate) fn to_human(self) -> String {
        let mut text = self.fixed17();
        if text.contains('.') {
            let trimmed = text.trim_end_matches('0').trim_end_matches('.').len();
            text.truncate(trimmed);
        }
        if text == "-0" {
            text = "0".to_string();
        }
        text
    }

    /// `printf("%.17Lf")`: the exact value rounded half-to-even to 17 decimals.
    fn fixed17(self) -> String {
        let scale = BigUint::from_u64(100_000_000_000_000_000);
        let mut scaled = BigUint::from_u64(self.significand).mul(&scale);
        if self.exponent >= 0 {
            scaled = scaled.shl(self.exponent as usize);
        } else {
            let shift = self.exponent.unsigned_abs() as usize;
            let (quotient, remainder) = scaled.split_low_bits(shift);
            let half = BigUint::from_u64(1).shl(shift - 1);
            let round_up = match remainder.cmp(&half) {
                Ordering::Greater => true,
                Ordering::Less => false,
                Ordering::Equal => quotient.is_odd(),
            };
            scaled = if round_up {
                quotient.add(&BigUint::from_u64(1))
            } else {
                quotient
            };
        }
        let mut digits = scaled.to_decimal();
        while digits.len() < 18 {
            digits.insert(0, '0');
        }
        let point = digits.len() - 17;
        let sign = if self.negative { "-" } else { "" };
        format!("{sign}{}.{}", &digits[..point], &digits[point..])
    }
}

/// An f64 exactly as a long double.
fn from_f64(value: f64) -> LongDouble {
    if value == 0.0 {
        return LongDouble::zero(value.is_sign_negative());
    }
    let (mantissa, exponent) = crate::float_parse::binary_parts(value);
    // A double's exponent is within -1074..=971.
    normalize(
        value < 0.0,
        BigUint::from_u64(mantissa),
        exponent as i32,
        false,
    )
    .unwrap_or(LongDouble::zero(false))
}

/// `digits [. digits] [e [sign] digits]` (the sign already taken), correctly rounded.
fn parse_decimal(text: &[u8]) -> Option<LongDouble> {
    let decimal = DecimalText::scan(text)?;
    if decimal.is_zero() {
        return Some(LongDouble::zero(false));
    }
    // Magnitude in decimal orders: far outside the range is overflow or underflow.
    if !(-4951 - 1..=4933 + 1).contains(&decimal.order()) {
        return None;
    }
    // Every digit counts: a long double's halfway points can have thousands of them.
    let (digits, decimal_exponent) = decimal.significand(usize::MAX);
    // A quotient of at least 66 bits, rounded with what it dropped as sticky.
    let (quotient, exponent, inexact) = binary_quotient(digits, decimal_exponent, 66);
    let exponent = i32::try_from(exponent).ok()?;
    let value = normalize(false, quotient, exponent, inexact)?;
    if value.significand == 0 {
        return None;
    }
    Some(value)
}

/// Rounds `magnitude * 2^exponent` (plus a sticky "something nonzero below") to a 64-bit
/// significand, half-to-even. `None` when the result overflows; zero when it underflows.
fn normalize(
    negative: bool,
    magnitude: BigUint,
    exponent: i32,
    sticky: bool,
) -> Option<LongDouble> {
    let bits = magnitude.bit_len();
    if bits == 0 {
        return Some(LongDouble::zero(negative));
    }
    let (mut significand, mut exponent) = if bits <= 64 {
        let value = magnitude.low_u64();
        let shift = 64 - bits;
        (value << shift, exponent - shift as i32)
    } else {
        let drop = bits - 64;
        let (kept, rest) = magnitude.split_low_bits(drop);
        let half = BigUint::from_u64(1).shl(drop - 1);
        let round_up = match rest.cmp(&half) {
            Ordering::Greater => true,
            Ordering::Less => false,
            Ordering::Equal => sticky || kept.low_u64() & 1 == 1,
        };
        let mut significand = kept.low_u64();
        let mut exponent = exponent + drop as i32;
        if round_up {
            match significand.checked_add(1) {
                Some(next) => significand = next,
                None => {
                    significand = 1 << 63;
                    exponent += 1;
                }
            }
        }
        (significand, exponent)
    };
    if exponent > MAX_EXPONENT {
        return None;
    }
    if exponent < MIN_EXPONENT {
        significand = 0;
        exponent = 0;
    }
    Some(LongDouble {
        negative,
        significand,
        exponent,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(words: &[&str]) -> String {
        let mut total = LongDouble::zero(false);
        for word in words {
            let value = LongDouble::parse(word.as_bytes()).expect("a number");
            total = total.add(value).expect("finite");
        }
        total.to_human()
    }

    // Every expectation was printed by C's `printf("%.17Lf")` of `strtold` sums on x86-64,
    // and by HINCRBYFLOAT on redis-server 7.0.15.
    #[test]
    fn sums_print_like_x87_long_double() {
        assert_eq!(sum(&["1", "0.1"]), "1.1");
        assert_eq!(sum(&["0.1", "0.2"]), "0.3");
        assert_eq!(sum(&["1000.1"]), "1000.09999999999999998");
        assert_eq!(sum(&["123456.789"]), "123456.78900000000000148");
        assert_eq!(sum(&["12345678.123456789"]), "12345678.12345678899964696");
        assert_eq!(sum(&["1e10", "0.3"]), "10000000000.29999999981373549");
        assert_eq!(sum(&["3.14159265358979323846"]), "3.14159265358979324");
        assert_eq!(sum(&["1e-20"]), "0");
        assert_eq!(sum(&["-1e-20"]), "0");
        assert_eq!(sum(&["5e-5"]), "0.00005");
        assert_eq!(sum(&["10000000000000000000000"]), "10000000000000000000000");
        assert_eq!(sum(&["123456789012345678", "0.5"]), "123456789012345678.5");
        assert_eq!(sum(&["2.5", "1e3"]), "1002.5");
        assert_eq!(sum(&["3", "0x10"]), "19");
        assert_eq!(sum(&["-0.0"]), "0");
    }

    #[test]
    fn refuses_what_string2ld_refuses() {
        for word in ["", " 1", "1 ", "abc", "1e", "nan", "1e5000", "1e-5000", "."] {
            assert!(LongDouble::parse(word.as_bytes()).is_err(), "{word:?}");
        }
        assert_eq!(LongDouble::parse(b"-inf"), Err(LongDoubleError::Infinite));
    }
}
