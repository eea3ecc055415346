//! Decimal text to `f64`, correctly rounded (to nearest, ties to even), in place of core's
//! `str::parse::<f64>`: the same text accepted, the same bits out, without the ~10 KB table of
//! powers of five core's parser (Eisel–Lemire) links into every wasm that parses a float.
//!
//! Three ways in, the cheapest that is exact first:
//! - Clinger's fast path: significant digits worth at most 2^53 and a power of ten up to 22 are
//!   both exact doubles, so one IEEE multiply or divide is the correctly rounded result;
//! - up to 19 significant digits and a power of ten up to about 10^27, or down to 10^-31:
//!   `10^e = 5^e × 2^e`, so the digits times or over `5^e` in 128 bits (a quotient of 54 bits
//!   or more, with its remainder as sticky), then the rounding below;
//! - anything else in big integers: `digits × 10^e` as a quotient of at least 64 bits and a
//!   sticky remainder. Digits past the 800th only count as "something nonzero below" (a point
//!   halfway between two doubles has at most 767 significant digits, so they never decide).
//!
//! Plain `digits [. digits]` text of up to 19 digits, the commonest kind, takes the first two in
//! a single pass over the bytes.
//!
//! The rounding handles the subnormal range (gradual underflow down to 2^-1074, rounding up
//! into the smallest normal) and overflows to infinity. [`DecimalText`] is the decimal grammar,
//! which `longdouble` reads `strtold`'s numbers with too.

use crate::bignum::BigUint;

/// 10^0 ..= 10^22, every one an exact double (10^23 is the first power of ten that is not).
const POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Significant digits the big-integer path keeps (more than the 767 that can matter).
const MAX_DIGITS: usize = 800;

/// An exponent's digits stop counting here: far past any double, long double or text length.
const EXPONENT_CAP: i64 = 100_000_000_000_000_000;

/// Reads the whole of `text` as `str::parse::<f64>` does: an optional sign, then
/// `digits [. digits] [(e|E) [sign] digits]` with at least one mantissa digit (`1.`, `.5`), or
/// `inf`, `infinity`, `nan` in any case. None for anything else (`1e`, `e5`, `.`, spaces).
pub(crate) fn parse_f64(text: &[u8]) -> Option<f64> {
    let (negative, body) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, text),
    };
    let magnitude = match plain_to_f64(body) {
        Some(value) => value,
        None => match DecimalText::scan(body) {
            Some(decimal) => decimal.to_f64(),
            None if body.eq_ignore_ascii_case(b"inf") || body.eq_ignore_ascii_case(b"infinity") => {
                f64::INFINITY
            }
            None if body.eq_ignore_ascii_case(b"nan") => f64::NAN,
            None => return None,
        },
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// The commonest numbers in one pass: `digits [. digits]`, no exponent, at most 19 digits (a
/// `u64`), then [`small_to_f64`]. None hands any other text to the general path.
fn plain_to_f64(body: &[u8]) -> Option<f64> {
    let mut value = 0u64;
    let mut digits = 0usize;
    let mut point = None;
    for &byte in body {
        match byte {
            b'0'..=b'9' if digits < 19 => {
                value = value * 10 + u64::from(byte - b'0');
                digits += 1;
            }
            b'.' if point.is_none() => point = Some(digits),
            _ => return None,
        }
    }
    if digits == 0 {
        return None;
    }
    if value == 0 {
        return Some(0.0);
    }
    let fraction_digits = digits - point.unwrap_or(digits);
    small_to_f64(value, -(fraction_digits as i64))
}

/// An unsigned decimal number as read from text: its significant digits and the power of ten
/// of the last one. The value is `integer fraction × 10^exponent`, digits run together.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DecimalText<'a> {
    /// The integer part's digits without leading zeros.
    integer: &'a [u8],
    /// The fraction's digits, without leading zeros when the integer part has no digits left.
    fraction: &'a [u8],
    /// The power of ten of the last digit (saturating far outside any range that matters).
    exponent: i64,
}

impl<'a> DecimalText<'a> {
    /// The whole of `text` as `digits [. digits] [(e|E) [sign] digits]`, with at least one
    /// mantissa digit; no sign in front (the caller takes it off).
    pub(crate) fn scan(text: &'a [u8]) -> Option<DecimalText<'a>> {
        let (integer, rest) = text.split_at(digit_run(text));
        let (fraction, rest) = match rest.split_first() {
            Some((b'.', after)) => after.split_at(digit_run(after)),
            _ => (&rest[..0], rest),
        };
        if integer.is_empty() && fraction.is_empty() {
            return None;
        }
        let written_exponent = match rest.split_first() {
            None => 0,
            Some((b'e' | b'E', after)) => exponent_part(after)?,
            Some(_) => return None,
        };
        let exponent = written_exponent.saturating_sub(fraction.len() as i64);
        let integer = skip_zeros(integer);
        let fraction = if integer.is_empty() {
            skip_zeros(fraction)
        } else {
            fraction
        };
        Some(DecimalText {
            integer,
            fraction,
            exponent,
        })
    }

    /// Whether every digit is zero.
    pub(crate) fn is_zero(&self) -> bool {
        self.integer.is_empty() && self.fraction.is_empty()
    }

    fn digit_count(&self) -> usize {
        self.integer.len() + self.fraction.len()
    }

    /// `n` with `10^(n-1) <= value < 10^n`, for a nonzero value.
    pub(crate) fn order(&self) -> i64 {
        self.exponent.saturating_add(self.digit_count() as i64)
    }

    /// The first `max_digits` significant digits as an integer and the power of ten of the
    /// last one. When nonzero digits are dropped, a final digit 1 stands for them, so the value
    /// stays strictly between its truncation and the next number of that many digits.
    pub(crate) fn significand(&self, max_digits: usize) -> (BigUint, i64) {
        let digits = self.integer.iter().chain(self.fraction);
        let mut value = BigUint::from_u64(0);
        let (mut chunk, mut chunk_len) = (0u32, 0u32);
        for &digit in digits.clone().take(max_digits) {
            chunk = chunk * 10 + u32::from(digit - b'0');
            chunk_len += 1;
            if chunk_len == 9 {
                value.mul_small_add(1_000_000_000, chunk);
                (chunk, chunk_len) = (0, 0);
            }
        }
        value.mul_small_add(10u32.pow(chunk_len), chunk);
        let dropped = self.digit_count().saturating_sub(max_digits);
        let mut exponent = self.exponent.saturating_add(dropped as i64);
        if digits.skip(max_digits).any(|&digit| digit != b'0') {
            value.mul_small_add(10, 1);
            exponent -= 1;
        }
        (value, exponent)
    }

    /// The value rounded to the nearest double, ties to even.
    fn to_f64(self) -> f64 {
        if self.is_zero() {
            return 0.0;
        }
        if self.digit_count() <= 19 {
            let append = |acc: u64, digits: &[u8]| {
                digits
                    .iter()
                    .fold(acc, |acc, &digit| acc * 10 + u64::from(digit - b'0'))
            };
            let digits = append(append(0, self.integer), self.fraction);
            if let Some(value) = small_to_f64(digits, self.exponent) {
                return value;
            }
        }
        // 10^309 is past the largest double; below 10^-330 is under half the smallest.
        let order = self.order();
        if order > 310 {
            return f64::INFINITY;
        }
        if order < -330 {
            return 0.0;
        }
        let (significand, exponent) = self.significand(MAX_DIGITS);
        let (quotient, binary_exponent, inexact) = binary_quotient(significand, exponent, 64);
        round_to_f64(quotient.low_u128(), binary_exponent, inexact)
    }
}

/// `digits × 10^exponent` (digits nonzero) when a machine-word computation is exact enough:
/// Clinger's fast path, or a product or quotient in 128 bits.
#[inline]
fn small_to_f64(digits: u64, exponent: i64) -> Option<f64> {
    if digits <= 1 << 53 && (-22..=22).contains(&exponent) {
        let power = POWERS_OF_TEN[exponent.unsigned_abs() as usize];
        return Some(if exponent >= 0 {
            digits as f64 * power
        } else {
            digits as f64 / power
        });
    }
    wide_to_f64(digits, exponent)
}

/// [`small_to_f64`] past Clinger's fast path: the product or quotient in 128 bits.
fn wide_to_f64(digits: u64, exponent: i64) -> Option<f64> {
    // 10^e = 5^e × 2^e: only the power of five takes arithmetic.
    let power_of_five = 5u128.checked_pow(u32::try_from(exponent.unsigned_abs()).ok()?)?;
    if exponent >= 0 {
        let product = power_of_five.checked_mul(u128::from(digits))?;
        return Some(round_to_f64(product, exponent, false));
    }
    // The digits shifted to fill 128 bits, over a power of five below 2^74 (up to 5^31): a
    // quotient of 54 bits or more, enough to round with the remainder as sticky.
    if power_of_five >> 74 != 0 {
        return None;
    }
    let shift = digits.leading_zeros() + 64;
    let scaled = u128::from(digits) << shift;
    Some(round_to_f64(
        scaled / power_of_five,
        exponent - i64::from(shift),
        !scaled.is_multiple_of(power_of_five),
    ))
}

/// `significand × 10^exponent` as `quotient × 2^binary_exponent`: the quotient of `bits` or
/// `bits + 1` bits rounded toward zero, and whether that dropped anything (the sticky bit).
pub(crate) fn binary_quotient(
    significand: BigUint,
    exponent: i64,
    bits: usize,
) -> (BigUint, i64, bool) {
    // 10^e = 5^e × 2^e: only the power of five takes big-integer arithmetic.
    if exponent >= 0 {
        let mut numerator = significand;
        numerator.mul_pow5(exponent.unsigned_abs());
        let shift = bits as i64 + 1 - numerator.bit_len() as i64;
        if shift >= 0 {
            return (numerator.shl(shift as usize), exponent - shift, false);
        }
        let (quotient, rest) = numerator.split_low_bits(shift.unsigned_abs() as usize);
        return (quotient, exponent - shift, !rest.is_zero());
    }
    let mut numerator = significand;
    let mut denominator = BigUint::pow5(exponent.unsigned_abs());
    let shift = (bits + denominator.bit_len()) as i64 - numerator.bit_len() as i64;
    if shift >= 0 {
        numerator = numerator.shl(shift as usize);
    } else {
        denominator = denominator.shl(shift.unsigned_abs() as usize);
    }
    let (quotient, inexact) = numerator.div_rem_is_nonzero(&denominator);
    (quotient, exponent - shift, inexact)
}

/// `(quotient + s) × 2^binary_exponent` rounded to the nearest double, ties to even, where `s`
/// is 0, or when `sticky` something strictly between 0 and 1 (then the quotient has at least
/// 54 bits). Subnormal results keep the bits down to 2^-1074; too large a value is infinity.
pub(crate) fn round_to_f64(quotient: u128, binary_exponent: i64, sticky: bool) -> f64 {
    if quotient == 0 {
        return 0.0;
    }
    let len = i64::from(128 - quotient.leading_zeros());
    // Bits to drop: to 53 significant bits, or fewer where that would go below 2^-1074.
    let drop = (len - 53).max(-1074 - binary_exponent);
    if drop > len {
        // Below 2^-1075, half the smallest subnormal: zero.
        return 0.0;
    }
    let mantissa = if drop <= 0 {
        quotient << drop.unsigned_abs()
    } else {
        let drop = drop as u32;
        let kept = quotient.checked_shr(drop).unwrap_or(0);
        let rest = quotient & u128::MAX.checked_shr(128 - drop).unwrap_or(0);
        let half = 1u128 << (drop - 1);
        let round_up = rest > half || (rest == half && (sticky || kept & 1 == 1));
        kept + u128::from(round_up)
    };
    // `mantissa × 2^(binary_exponent + drop)`, the exponent at least -1074 and the mantissa
    // below 2^53 (2^53 after a carry); the biased exponent field counts from 2^-1074, so the
    // sum also carries a full mantissa into the next binade or a subnormal into the normals.
    let field = (binary_exponent + drop + 1074) as u64;
    let bits = (field << 52) + mantissa as u64;
    if bits >= f64::INFINITY.to_bits() {
        f64::INFINITY
    } else {
        f64::from_bits(bits)
    }
}

fn digit_run(text: &[u8]) -> usize {
    text.iter().take_while(|b| b.is_ascii_digit()).count()
}

fn skip_zeros(digits: &[u8]) -> &[u8] {
    &digits[digits.iter().take_while(|&&d| d == b'0').count()..]
}

/// `[sign] digits`, the whole of `text`, saturating at [`EXPONENT_CAP`].
fn exponent_part(text: &[u8]) -> Option<i64> {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, text),
    };
    if digits.is_empty() || digit_run(digits) != digits.len() {
        return None;
    }
    let magnitude = digits.iter().fold(0i64, |acc, &digit| {
        (acc * 10 + i64::from(digit - b'0')).min(EXPONENT_CAP)
    });
    Some(if negative { -magnitude } else { magnitude })
}

/// A finite double's magnitude as `mantissa × 2^exponent`, exactly: the implicit bit added to a
/// normal one's fraction, a subnormal's as it is (at 2^-1074).
pub(crate) fn binary_parts(x: f64) -> (u64, i64) {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    }
}

#[cfg(test)]
mod tests;
