//! `parse_f64` against core's `str::parse::<f64>`, which it replaces: the same acceptance and
//! the same bits (NaN compared by `is_nan` and sign) on printed doubles, random digit strings,
//! exact halfway points between neighbouring doubles and their near misses, the subnormal and
//! overflow boundaries, and malformed text.

use super::*;
use proptest::prelude::*;

/// Whether `parse_f64` and core agree on `text`, with what each gave when they do not.
fn agrees(text: &str) -> Result<(), String> {
    let ours = parse_f64(text.as_bytes());
    let core = text.parse::<f64>().ok();
    let same = match (ours, core) {
        (Some(a), Some(b)) if a.is_nan() || b.is_nan() => {
            a.is_nan() && b.is_nan() && a.is_sign_negative() == b.is_sign_negative()
        }
        (Some(a), Some(b)) => a.to_bits() == b.to_bits(),
        (None, None) => true,
        _ => false,
    };
    if same {
        Ok(())
    } else {
        Err(format!("{text:?}: parse_f64 {ours:?}, core {core:?}"))
    }
}

fn assert_agrees(text: &str) {
    if let Err(diff) = agrees(text) {
        panic!("{diff}");
    }
}

/// `mantissa × 2^exponent` written exactly, as `digits` or `digits e-k`.
fn exact_decimal(mantissa: u64, exponent: i64) -> (BigUint, i64) {
    if exponent >= 0 {
        return (BigUint::from_u64(mantissa).shl(exponent as usize), 0);
    }
    // m / 2^k = m × 5^k / 10^k.
    let mut digits = BigUint::from_u64(mantissa);
    for _ in 0..exponent.unsigned_abs() {
        digits.mul_small_add(5, 0);
    }
    (digits, exponent)
}

/// The exact point halfway between the finite double `bits` and the next one up (past
/// `f64::MAX` that is the overflow threshold), as decimal digits and a power of ten.
fn halfway_above(bits: u64) -> (BigUint, i64) {
    let (mantissa, exponent) = super::binary_parts(f64::from_bits(bits));
    exact_decimal(2 * mantissa + 1, exponent - 1)
}

fn written(digits: &BigUint, exponent: i64) -> String {
    format!("{}e{exponent}", digits.to_decimal())
}

#[test]
fn fast_path_and_everyday_numbers() {
    for text in [
        "0",
        "-0",
        "+0",
        "1",
        "-1",
        "12345",
        "0.1",
        "0.2",
        "0.3",
        "1.5",
        "3.14159",
        "100",
        "1e3",
        "1E3",
        "2.5e-3",
        "1.",
        ".5",
        "-.5",
        "+.5",
        "5.e2",
        "007",
        "0.000001",
        "123456789012345",
        "9007199254740992",
        "9007199254740993",
        "1e22",
        "1e23",
        "1e-22",
        "1e-23",
        "0.30000000000000004",
        "1.2345678901234567e-10",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999",
        "1e38",
        "1e39",
        "340282366920938463463374607431768211455",
    ] {
        assert_agrees(text);
    }
}

#[test]
fn subnormal_and_overflow_boundaries() {
    let min_subnormal = f64::from_bits(1);
    let max_subnormal = f64::from_bits((1 << 52) - 1);
    for value in [min_subnormal, max_subnormal, f64::MIN_POSITIVE, f64::MAX] {
        for text in [
            format!("{value:e}"),
            format!("{value:.17e}"),
            format!("{value:.40e}"),
        ] {
            assert_agrees(&text);
        }
    }
    for text in [
        "4.9406564584124654e-324",
        "5e-324",
        "3e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "2e-324",
        "1e-324",
        "1e-400",
        "2.2250738585072011e-308",
        "2.2250738585072012e-308",
        "2.2250738585072014e-308",
        "2.225073858507201136057409796709131975934819546351645648e-308",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "1.797693134862315807937289714053e308",
        "1.797693134862315807937289714054e308",
        "1.8e308",
        "1e309",
        "-1e309",
        "1e99999999999999999999999",
        "1e-99999999999999999999999",
        "0e99999999999999999999999",
        "-0e-5",
    ] {
        assert_agrees(text);
    }
    // The exact points halfway below 2^-1074 (ties to zero), between the last subnormal and
    // the smallest normal (ties up into it), and above f64::MAX (ties to infinity).
    for bits in [0, (1 << 52) - 1, f64::MAX.to_bits()] {
        let (digits, exponent) = halfway_above(bits);
        assert_agrees(&written(&digits, exponent));
    }
}

#[test]
fn digits_past_the_800th_still_decide_a_tie() {
    // Halfway between 1 and the next double, then hundreds of zeros: a tie (to even, 1)
    // until a nonzero digit far past the 800th makes it round up.
    let (digits, exponent) = halfway_above(1f64.to_bits());
    let text = digits.to_decimal();
    let zeros = "0".repeat(900);
    assert_agrees(&format!("{text}{zeros}e{}", exponent - 900));
    assert_agrees(&format!("{text}{zeros}1e{}", exponent - 901));
    let long_zero = format!("0.{}1e1000", "0".repeat(1200));
    assert_agrees(&long_zero);
    assert_agrees(&format!("{}e-1000", "1".repeat(2000)));
}

#[test]
fn text_outside_the_grammar_is_refused_like_core() {
    for text in [
        "",
        "+",
        "-",
        ".",
        "+.",
        "-.",
        "e",
        "e5",
        ".e5",
        "1e",
        "1e+",
        "1e-",
        "1e+-5",
        "1..2",
        "1.2.3",
        " 1",
        "1 ",
        "1_000",
        "0x10",
        "1,5",
        "١",
        "inf",
        "INF",
        "-Inf",
        "+infinity",
        "Infinity",
        "infinit",
        "infinityy",
        "nan",
        "NaN",
        "-nan",
        "+NAN",
        "nan(1)",
        "in",
        "na",
        "--1",
        "+-1",
        "1e5.0",
        "1f",
        "∞",
    ] {
        assert_agrees(text);
    }
}

fn any_double() -> impl Strategy<Value = f64> {
    any::<u64>().prop_map(f64::from_bits)
}

/// `[sign] digits [. digits] [e [sign] digits]` with up to 40 digits and exponents in ±400.
fn digit_strings() -> impl Strategy<Value = String> {
    (
        prop::sample::select(&["", "-", "+"][..]),
        "[0-9]{1,40}",
        any::<prop::sample::Index>(),
        any::<bool>(),
        prop::option::of(-400i32..=400),
        prop::sample::select(&["e", "E"][..]),
    )
        .prop_map(|(sign, digits, point, with_point, exponent, e)| {
            let mut text = format!("{sign}{digits}");
            if with_point {
                text.insert(sign.len() + point.index(digits.len() + 1), '.');
            }
            if let Some(exponent) = exponent {
                text.push_str(&format!("{e}{exponent}"));
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn printed_doubles_read_back_like_core(value in any_double(), extra in "[0-9]{0,12}", precision in 17usize..60) {
        for text in [
            format!("{value}"),
            format!("{value:e}"),
            format!("{value:.17e}"),
            format!("{value:.precision$e}"),
            format!("{value:.17}"),
        ] {
            prop_assert_eq!(agrees(&text), Ok(()));
        }
        if value.is_finite() {
            // Extra digits after the shortest round trip's mantissa.
            let shortest = format!("{value:e}");
            let (mantissa, exponent) = shortest.split_once('e').expect("an exponent");
            let point = if mantissa.contains('.') { "" } else { "." };
            let text = format!("{mantissa}{point}{extra}e{exponent}");
            prop_assert_eq!(agrees(&text), Ok(()));
        }
    }

    #[test]
    fn random_digit_strings_read_like_core(text in digit_strings()) {
        prop_assert_eq!(agrees(&text), Ok(()));
    }

    #[test]
    fn halfway_points_and_near_misses_read_like_core(
        bits in 0u64..0x7ff0_0000_0000_0000,
        keep in 17usize..40,
    ) {
        let (digits, exponent) = halfway_above(bits);
        // The exact tie, one unit of its last digit below and above, and the tie cut short.
        let one = BigUint::from_u64(1);
        prop_assert_eq!(agrees(&written(&digits, exponent)), Ok(()));
        prop_assert_eq!(agrees(&written(&digits.sub(&one), exponent)), Ok(()));
        prop_assert_eq!(agrees(&written(&digits.add(&one), exponent)), Ok(()));
        let text = digits.to_decimal();
        if text.len() > keep {
            let cut = text.len() - keep;
            prop_assert_eq!(agrees(&format!("{}e{}", &text[..keep], exponent + cut as i64)), Ok(()));
        }
    }

    #[test]
    fn malformed_text_is_refused_like_core(text in "[-+.eE0-9infatyINFATYx _]{0,12}") {
        prop_assert_eq!(agrees(&text), Ok(()));
    }
}
