//! The text of a double as C's `printf` writes it on glibc: `%e`, `%f` and `%g` at any
//! precision, and the `%.<n>g` rule that both the reply layer (Redis writes doubles and scores
//! as `%.17g`) and the script engine (Lua's `tostring` is `%.14g`, cjson's precision is
//! configurable, `string.format` takes any) follow.
//!
//! The digits come from the number's exact decimal expansion, rounded half-to-even at the
//! requested digit, which is what glibc (and Rust's `{:.N}`, `{:.Ne}`) print. Every double is
//! an integer times a power of two, so the expansion needs nothing but multiplying a base-10⁹
//! number by small factors: far less code in the wasm than core's float formatting.

/// Formats a number as C's `%.{digits}g` prints a double on glibc: Lua's `tostring` is `%.14g`,
/// and Redis passes script numbers to commands as `%.17g`. Whole numbers below 10^digits print
/// as integers, which is what `%g` gives them.
pub(crate) fn format_number_g(n: f64, digits: i32) -> String {
    if n.is_nan() {
        // glibc prints the default quiet NaN that 0/0 produces with its sign bit set.
        return if n.is_sign_negative() {
            "-nan".into()
        } else {
            "nan".into()
        };
    }
    if n.is_infinite() {
        return if n > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if n == 0.0 {
        return if n.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    // The integer's own digits, without expanding the double: counters and timestamps are the
    // common case.
    if n.fract() == 0.0 && n.abs() < 10f64.powi(digits) {
        return (n as i64).to_string();
    }
    general(n, digits.max(0) as usize, false)
}

/// C's `%.{precision}e` of a finite number (`#` when `alt`): one digit, the point, `precision`
/// digits, and an exponent of at least two digits.
pub(crate) fn exponential(x: f64, precision: usize, alt: bool) -> String {
    let mut digits = Digits::exact(x);
    digits.round(precision as i64 + 1);
    let mut out = sign(x);
    digits.write_exponential(precision, alt, &mut out);
    out
}

/// C's `%.{precision}f` of a finite number (`#` when `alt`).
pub(crate) fn fixed(x: f64, precision: usize, alt: bool) -> String {
    let mut digits = Digits::exact(x);
    digits.round(digits.point + precision as i64);
    let mut out = sign(x);
    digits.write_fixed(precision, alt, &mut out);
    out
}

/// C's `%.{precision}g` of a finite number (`#` when `alt`): `precision` significant digits
/// (at least one), written as `%e` when the exponent is below -4 or at least the precision and
/// as `%f` otherwise, with trailing zeros (and a bare point) dropped unless `alt`.
pub(crate) fn general(x: f64, precision: usize, alt: bool) -> String {
    let precision = precision.max(1);
    let mut digits = Digits::exact(x);
    digits.round(precision as i64);
    let exponent = digits.exponent();
    let mut out = sign(x);
    if exponent < -4 || exponent >= precision as i64 {
        let shown = if alt {
            precision - 1
        } else {
            digits.digits.len().saturating_sub(1)
        };
        digits.write_exponential(shown, alt, &mut out);
    } else {
        let all = (precision as i64 - 1 - exponent) as usize;
        let shown = if alt {
            all
        } else {
            (digits.digits.len() as i64 - digits.point).max(0) as usize
        };
        digits.write_fixed(shown, alt, &mut out);
    }
    out
}

/// `-` for a negative number (and for `-0`, as C and Rust both print it).
fn sign(x: f64) -> String {
    if x.is_sign_negative() { "-" } else { "" }.to_string()
}

/// A non-negative decimal `0.DIGITS × 10^point`: ASCII digits without leading or trailing
/// zeros, none for zero.
struct Digits {
    digits: Vec<u8>,
    point: i64,
}

impl Digits {
    /// The exact decimal value of a finite `|x|`.
    fn exact(x: f64) -> Digits {
        let (mantissa, exponent) = crate::float_parse::binary_parts(x);
        if mantissa == 0 {
            return Digits {
                digits: Vec::new(),
                point: 0,
            };
        }
        // mantissa × 2^exponent is the integer mantissa × 2^exponent, or, for a negative
        // exponent, the integer mantissa × 5^-exponent with the point -exponent places from
        // its end.
        let mut limbs = vec![(mantissa % BASE) as u32, (mantissa / BASE) as u32];
        let fraction_digits = if exponent >= 0 {
            multiply_by_power(&mut limbs, 2, 29, exponent as u32);
            0
        } else {
            multiply_by_power(&mut limbs, 5, 13, exponent.unsigned_abs() as u32);
            -exponent
        };
        let mut digits = Vec::with_capacity(limbs.len() * 9);
        for &limb in limbs.iter().rev() {
            let mut group = [b'0'; 9];
            let mut rest = limb;
            for digit in group.iter_mut().rev() {
                *digit = b'0' + (rest % 10) as u8;
                rest /= 10;
            }
            digits.extend_from_slice(&group);
        }
        let leading = digits.iter().take_while(|&&d| d == b'0').count();
        digits.drain(..leading);
        let point = digits.len() as i64 - fraction_digits;
        let mut exact = Digits { digits, point };
        exact.trim();
        exact
    }

    /// The decimal exponent of the first digit, as `%e` prints it (0 for zero).
    fn exponent(&self) -> i64 {
        if self.digits.is_empty() {
            0
        } else {
            self.point - 1
        }
    }

    /// The digit at `index` (0 is the first), zero beyond either end.
    fn digit(&self, index: i64) -> u8 {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.digits.get(i).copied())
            .unwrap_or(b'0')
    }

    /// Keeps the first `keep` digits, rounding half-to-even on the exact value; a negative
    /// `keep` asks for a place above the first digit, which leaves zero.
    fn round(&mut self, keep: i64) {
        let Ok(keep) = usize::try_from(keep) else {
            self.digits.clear();
            return;
        };
        let Some(&next) = self.digits.get(keep) else {
            return;
        };
        // Trailing zeros are trimmed, so any digit after `next` makes the rest non-zero.
        let above_half = next > b'5' || (next == b'5' && self.digits.len() > keep + 1);
        let tie_to_odd = next == b'5' && keep > 0 && self.digits[keep - 1] % 2 == 1;
        self.digits.truncate(keep);
        if above_half || tie_to_odd {
            loop {
                match self.digits.last_mut() {
                    Some(b'9') => {
                        self.digits.pop();
                    }
                    Some(digit) => {
                        *digit += 1;
                        break;
                    }
                    None => {
                        self.digits.push(b'1');
                        self.point += 1;
                        break;
                    }
                }
            }
        }
        self.trim();
    }

    fn trim(&mut self) {
        while self.digits.last() == Some(&b'0') {
            self.digits.pop();
        }
    }

    /// The digits as `%e` writes them, `precision` after the point.
    fn write_exponential(&self, precision: usize, alt: bool, out: &mut String) {
        out.push(self.digit(0) as char);
        if precision > 0 || alt {
            out.push('.');
        }
        out.extend((1..=precision as i64).map(|i| self.digit(i) as char));
        let exponent = self.exponent();
        out.push_str(if exponent < 0 { "e-" } else { "e+" });
        if exponent.abs() < 10 {
            out.push('0');
        }
        out.push_str(&exponent.unsigned_abs().to_string());
    }

    /// The digits as `%f` writes them, `precision` after the point.
    fn write_fixed(&self, precision: usize, alt: bool, out: &mut String) {
        if self.point <= 0 || self.digits.is_empty() {
            out.push('0');
        } else {
            out.extend((0..self.point).map(|i| self.digit(i) as char));
        }
        if precision > 0 || alt {
            out.push('.');
        }
        let first = self.point;
        out.extend((first..first + precision as i64).map(|i| self.digit(i) as char));
    }
}

/// The base of the limbs `Digits::exact` multiplies in: nine decimal digits each.
const BASE: u64 = 1_000_000_000;

/// `limbs × base^power`, with `base^chunk` the largest power that fits a `u32`.
fn multiply_by_power(limbs: &mut Vec<u32>, base: u32, chunk: u32, mut power: u32) {
    while power >= chunk {
        multiply(limbs, base.pow(chunk));
        power -= chunk;
    }
    multiply(limbs, base.pow(power));
}

/// `limbs × factor`, limbs in base 10⁹, least significant first.
fn multiply(limbs: &mut Vec<u32>, factor: u32) {
    let mut carry = 0u64;
    for limb in limbs.iter_mut() {
        let product = u64::from(*limb) * u64::from(factor) + carry;
        *limb = (product % BASE) as u32;
        carry = product / BASE;
    }
    while carry > 0 {
        limbs.push((carry % BASE) as u32);
        carry /= BASE;
    }
}

#[cfg(test)]
mod tests {
    use super::{exponential, fixed, format_number_g, general, Digits};
    use proptest::prelude::*;

    /// C's `%.{precision}g` built on std's `{:.Ne}`, as the C standard defines it: the exponent
    /// X of the `%e` form at precision P - 1 picks `%e` (P - 1 decimals) or `%f` (P - 1 - X).
    fn reference_general(x: f64, precision: usize, alt: bool) -> String {
        let p = precision.max(1);
        let sci = format!("{:.*e}", p - 1, x);
        let exponent: i64 = sci.split_once('e').unwrap().1.parse().unwrap();
        let exponent = if x == 0.0 { 0 } else { exponent };
        let text = if exponent < -4 || exponent >= p as i64 {
            reference_exponential(x, p - 1, alt)
        } else {
            let mut text = format!("{:.*}", (p as i64 - 1 - exponent) as usize, x);
            if alt && !text.contains('.') {
                text.push('.');
            }
            text
        };
        if alt {
            return text;
        }
        let (mantissa, exp) = text.split_at(text.find('e').unwrap_or(text.len()));
        let mantissa = if mantissa.contains('.') {
            mantissa.trim_end_matches('0').trim_end_matches('.')
        } else {
            mantissa
        };
        format!("{mantissa}{exp}")
    }

    /// C's `%e` from std's `{:.Ne}`: a point for `#`, an exponent of two digits at least.
    fn reference_exponential(x: f64, precision: usize, alt: bool) -> String {
        let sci = format!("{:.*e}", precision, x);
        let (mantissa, exponent) = sci.split_once('e').unwrap();
        let exponent: i64 = exponent.parse().unwrap();
        let point = if alt && precision == 0 { "." } else { "" };
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}{point}e{sign}{:02}", exponent.unsigned_abs())
    }

    /// Finite doubles of every kind: any bit pattern, subnormals, zeros, near-integers, huge and
    /// tiny magnitudes, and halves (the ties of rounding).
    fn finite() -> impl Strategy<Value = f64> {
        prop_oneof![
            any::<u64>().prop_map(f64::from_bits),
            (0u64..1 << 52, any::<bool>())
                .prop_map(|(f, neg)| { f64::from_bits(f | if neg { 1 << 63 } else { 0 }) }),
            Just(0.0),
            Just(-0.0),
            (-1e6f64..1e6).prop_map(|x| x.round() + 0.5),
            (-1e6f64..1e6),
            (-30i32..30, 1u32..100_000).prop_map(|(e, m)| f64::from(m) * 10f64.powi(e)),
            (0u64..1 << 53, -1100i32..1000).prop_map(|(m, e)| m as f64 * 2f64.powi(e)),
            Just(f64::MAX),
            Just(f64::MIN_POSITIVE),
            Just(5e-324),
        ]
        .prop_filter("finite", |x| x.is_finite())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn exponential_matches_std(x in finite(), precision in 0usize..=40) {
            prop_assert_eq!(
                exponential(x, precision, false),
                reference_exponential(x, precision, false)
            );
            prop_assert_eq!(
                exponential(x, precision, true),
                reference_exponential(x, precision, true)
            );
        }

        #[test]
        fn fixed_matches_std(x in finite(), precision in 0usize..=40) {
            prop_assert_eq!(fixed(x, precision, false), format!("{:.*}", precision, x));
            let mut alt = format!("{:.*}", precision, x);
            if precision == 0 {
                alt.push('.');
            }
            prop_assert_eq!(fixed(x, precision, true), alt);
        }

        #[test]
        fn general_matches_c_rule(x in finite(), precision in 0usize..=40, alt in any::<bool>()) {
            prop_assert_eq!(general(x, precision, alt), reference_general(x, precision, alt));
        }
    }

    #[test]
    fn exact_expansion_of_extremes() {
        let min = Digits::exact(5e-324);
        assert_eq!(min.point, -323);
        assert_eq!(&min.digits[..10], b"4940656458");
        assert_eq!(min.digits.len(), 751);
        let max = Digits::exact(f64::MAX);
        assert_eq!(max.point, 309);
        assert_eq!(&max.digits[..10], b"1797693134");
        assert_eq!(Digits::exact(0.5).digits, b"5");
        assert_eq!(Digits::exact(1e21).digits, b"1");
        assert_eq!(Digits::exact(1e21).point, 22);
    }

    #[test]
    fn rounds_ties_to_even_on_the_exact_value() {
        assert_eq!(fixed(0.5, 0, false), "0");
        assert_eq!(fixed(1.5, 0, false), "2");
        assert_eq!(fixed(2.5, 0, false), "2");
        assert_eq!(fixed(-2.5, 0, false), "-2");
        assert_eq!(fixed(0.125, 2, false), "0.12");
        assert_eq!(fixed(0.375, 2, false), "0.38");
        // 2.675 is 2.67499999999999982236431605997495353221893310546875.
        assert_eq!(fixed(2.675, 2, false), "2.67");
        assert_eq!(fixed(9.5, 0, false), "10");
        assert_eq!(fixed(0.0004, 2, false), "0.00");
        assert_eq!(fixed(0.006, 2, false), "0.01");
        assert_eq!(fixed(0.005, 2, false), "0.01");
        assert_eq!(fixed(-0.0, 3, false), "-0.000");
        assert_eq!(exponential(0.0, 2, false), "0.00e+00");
        assert_eq!(exponential(9.96, 1, false), "1.0e+01");
        assert_eq!(exponential(1e100, 0, true), "1.e+100");
        assert_eq!(general(0.0, 6, true), "0.00000");
        assert_eq!(general(1e-5, 6, false), "1e-05");
        assert_eq!(general(0.0001, 6, false), "0.0001");
        assert_eq!(general(123456.5, 6, false), "123456");
        assert_eq!(general(1234567.0, 6, false), "1.23457e+06");
        assert_eq!(general(100.0, 3, true), "100.");
    }

    #[test]
    fn number_text_is_percent_g_with_whole_numbers_as_integers() {
        assert_eq!(format_number_g(0.1, 17), "0.10000000000000001");
        assert_eq!(format_number_g(0.1, 14), "0.1");
        assert_eq!(format_number_g(1e21, 17), "1e+21");
        assert_eq!(format_number_g(1e15, 14), "1e+15");
        assert_eq!(
            format_number_g(123456789012345678.0, 17),
            "1.2345678901234568e+17"
        );
        assert_eq!(format_number_g(-2.5, 14), "-2.5");
        assert_eq!(format_number_g(f64::NAN, 14), "nan");
        assert_eq!(format_number_g(-f64::NAN, 14), "-nan");
        assert_eq!(format_number_g(f64::NEG_INFINITY, 17), "-inf");
        assert_eq!(format_number_g(-0.0, 14), "-0");
    }
}
