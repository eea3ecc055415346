//! The x87 80-bit `long double` arithmetic of Redis's INCRBYFLOAT and HINCRBYFLOAT, in
//! software: `strtold` (correctly rounded to a 64-bit significand), one addition, and
//! `printf("%.17Lf")` with Redis's trailing-zero trimming. Plain `f64` would print `1.1` as
//! `1.10000000000000009`; the extended format is what makes Redis print `1.1`.

use std::cmp::Ordering;

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
        if word
            .first()
            .is_none_or(|b| b.is_ascii_whitespace() || *b == 0x0b)
        {
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
            let parsed = crate::args::strtod(body);
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
    let bits = value.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (mantissa, exponent) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    normalize(value < 0.0, BigUint::from_u64(mantissa), exponent, false)
        .unwrap_or(LongDouble::zero(false))
}

/// `digits [. digits] [e [sign] digits]` (the sign already taken), correctly rounded.
fn parse_decimal(text: &[u8]) -> Option<LongDouble> {
    let mut digits: Vec<u8> = Vec::new();
    let mut decimal_exponent: i64 = 0;
    let mut at = 0;
    let mut any_digit = false;
    while let Some(&b) = text.get(at).filter(|b| b.is_ascii_digit()) {
        digits.push(b - b'0');
        any_digit = true;
        at += 1;
    }
    if text.get(at) == Some(&b'.') {
        at += 1;
        while let Some(&b) = text.get(at).filter(|b| b.is_ascii_digit()) {
            digits.push(b - b'0');
            decimal_exponent -= 1;
            any_digit = true;
            at += 1;
        }
    }
    if !any_digit {
        return None;
    }
    if matches!(text.get(at), Some(b'e' | b'E')) {
        let mut exp_at = at + 1;
        let exp_negative = text.get(exp_at) == Some(&b'-');
        if matches!(text.get(exp_at), Some(b'+' | b'-')) {
            exp_at += 1;
        }
        let start = exp_at;
        let mut exponent: i64 = 0;
        while let Some(&b) = text.get(exp_at).filter(|b| b.is_ascii_digit()) {
            exponent = (exponent * 10 + i64::from(b - b'0')).min(1_000_000);
            exp_at += 1;
        }
        if exp_at > start {
            decimal_exponent += if exp_negative { -exponent } else { exponent };
            at = exp_at;
        }
    }
    if at != text.len() {
        return None;
    }
    let first_nonzero = digits.iter().position(|&d| d != 0);
    let Some(first_nonzero) = first_nonzero else {
        return Some(LongDouble::zero(false));
    };
    let digits = &digits[first_nonzero..];
    // Magnitude in decimal orders: far outside the range is overflow or underflow.
    let order = digits.len() as i64 + decimal_exponent;
    if order > 4933 + 1 {
        return None;
    }
    if order < -4951 - 1 {
        return None;
    }
    let mut numerator = BigUint::from_u64(0);
    for &d in digits {
        numerator = numerator
            .mul_small(10)
            .add(&BigUint::from_u64(u64::from(d)));
    }
    let mut denominator = BigUint::from_u64(1);
    if decimal_exponent >= 0 {
        for _ in 0..decimal_exponent {
            numerator = numerator.mul_small(10);
        }
    } else {
        for _ in 0..decimal_exponent.unsigned_abs() {
            denominator = denominator.mul_small(10);
        }
    }
    // Scale so the quotient has at least 66 bits, then round it with the remainder as sticky.
    let shift = 66 + denominator.bit_len() as i64 - numerator.bit_len() as i64;
    let exponent = -shift;
    if shift > 0 {
        numerator = numerator.shl(shift as usize);
    } else {
        denominator = denominator.shl(shift.unsigned_abs() as usize);
    }
    let (quotient, inexact) = numerator.div_rem_is_nonzero(&denominator);
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

/// Just enough of an unsigned big integer (little-endian 32-bit limbs) for the above.
#[derive(Debug, Clone, PartialEq, Eq)]
struct BigUint(Vec<u32>);

impl BigUint {
    fn from_u64(n: u64) -> BigUint {
        let mut limbs = vec![n as u32, (n >> 32) as u32];
        trim(&mut limbs);
        BigUint(limbs)
    }

    fn low_u64(&self) -> u64 {
        let low = u64::from(self.0.first().copied().unwrap_or(0));
        let high = u64::from(self.0.get(1).copied().unwrap_or(0));
        low | (high << 32)
    }

    fn is_odd(&self) -> bool {
        self.0.first().is_some_and(|l| l & 1 == 1)
    }

    fn bit_len(&self) -> usize {
        match self.0.last() {
            None => 0,
            Some(top) => (self.0.len() - 1) * 32 + (32 - top.leading_zeros() as usize),
        }
    }

    fn mul_small(&self, factor: u32) -> BigUint {
        let mut carry = 0u64;
        let mut limbs = Vec::with_capacity(self.0.len() + 1);
        for &limb in &self.0 {
            let product = u64::from(limb) * u64::from(factor) + carry;
            limbs.push(product as u32);
            carry = product >> 32;
        }
        limbs.push(carry as u32);
        trim(&mut limbs);
        BigUint(limbs)
    }

    fn mul(&self, other: &BigUint) -> BigUint {
        let mut limbs = vec![0u32; self.0.len() + other.0.len() + 1];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in other.0.iter().enumerate() {
                let at = u64::from(limbs[i + j]) + u64::from(a) * u64::from(b) + carry;
                limbs[i + j] = at as u32;
                carry = at >> 32;
            }
            let mut k = i + other.0.len();
            while carry > 0 {
                let at = u64::from(limbs[k]) + carry;
                limbs[k] = at as u32;
                carry = at >> 32;
                k += 1;
            }
        }
        trim(&mut limbs);
        BigUint(limbs)
    }

    fn add(&self, other: &BigUint) -> BigUint {
        let len = self.0.len().max(other.0.len()) + 1;
        let mut limbs = Vec::with_capacity(len);
        let mut carry = 0u64;
        for i in 0..len {
            let sum = u64::from(self.0.get(i).copied().unwrap_or(0))
                + u64::from(other.0.get(i).copied().unwrap_or(0))
                + carry;
            limbs.push(sum as u32);
            carry = sum >> 32;
        }
        trim(&mut limbs);
        BigUint(limbs)
    }

    /// `self - other`, for `self >= other`.
    fn sub(&self, other: &BigUint) -> BigUint {
        let mut limbs = Vec::with_capacity(self.0.len());
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let mut diff =
                i64::from(self.0[i]) - i64::from(other.0.get(i).copied().unwrap_or(0)) - borrow;
            borrow = 0;
            if diff < 0 {
                diff += 1 << 32;
                borrow = 1;
            }
            limbs.push(diff as u32);
        }
        trim(&mut limbs);
        BigUint(limbs)
    }

    fn shl(&self, bits: usize) -> BigUint {
        if self.0.is_empty() {
            return self.clone();
        }
        let (whole, part) = (bits / 32, bits % 32);
        let mut limbs = vec![0u32; whole];
        let mut carry = 0u32;
        for &limb in &self.0 {
            if part == 0 {
                limbs.push(limb);
            } else {
                limbs.push((limb << part) | carry);
                carry = limb >> (32 - part);
            }
        }
        limbs.push(carry);
        trim(&mut limbs);
        BigUint(limbs)
    }

    /// `(self >> bits, self mod 2^bits)`.
    fn split_low_bits(&self, bits: usize) -> (BigUint, BigUint) {
        let (whole, part) = (bits / 32, bits % 32);
        let mut low: Vec<u32> = self.0.iter().take(whole).copied().collect();
        if part > 0 {
            if let Some(&limb) = self.0.get(whole) {
                low.push(limb & ((1u32 << part) - 1));
            }
        }
        trim(&mut low);
        let mut high = Vec::new();
        for i in whole..self.0.len() {
            let limb = self.0[i];
            let next = self.0.get(i + 1).copied().unwrap_or(0);
            if part == 0 {
                high.push(limb);
            } else {
                high.push((limb >> part) | (next << (32 - part)));
            }
        }
        trim(&mut high);
        (BigUint(high), BigUint(low))
    }

    /// The quotient (small: under 128 bits here) and whether a remainder is left.
    fn div_rem_is_nonzero(&self, divisor: &BigUint) -> (BigUint, bool) {
        let mut remainder = self.clone();
        let mut quotient = BigUint::from_u64(0);
        let top = self.bit_len().saturating_sub(divisor.bit_len());
        for bit in (0..=top).rev() {
            let shifted = divisor.shl(bit);
            if remainder.cmp(&shifted) != Ordering::Less {
                remainder = remainder.sub(&shifted);
                quotient = quotient.add(&BigUint::from_u64(1).shl(bit));
            }
        }
        let nonzero = !remainder.0.is_empty();
        (quotient, nonzero)
    }

    fn to_decimal(&self) -> String {
        if self.0.is_empty() {
            return "0".to_string();
        }
        let mut chunks = Vec::new();
        let mut rest = self.0.clone();
        while !rest.is_empty() {
            let mut remainder = 0u64;
            for limb in rest.iter_mut().rev() {
                let current = (remainder << 32) | u64::from(*limb);
                *limb = (current / 1_000_000_000) as u32;
                remainder = current % 1_000_000_000;
            }
            trim(&mut rest);
            chunks.push(remainder);
        }
        let mut text = String::new();
        for (i, chunk) in chunks.iter().rev().enumerate() {
            if i == 0 {
                text.push_str(&chunk.to_string());
            } else {
                text.push_str(&format!("{chunk:09}"));
            }
        }
        text
    }
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BigUint {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

fn trim(limbs: &mut Vec<u32>) {
    while limbs.last() == Some(&0) {
        limbs.pop();
    }
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
