//! How C's `printf("%.<n>g")` writes a double on glibc, the one number-to-text rule that both
//! the reply layer (Redis writes doubles as `%.17g`) and the script engine (Lua's `tostring` is
//! `%.14g`, cjson's precision is configurable) follow.

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
    if n.fract() == 0.0 && n.abs() < 10f64.powi(digits) {
        return format!("{}", n as i64);
    }
    format_g(n, digits as usize)
}

/// C's `%.<precision>g` for a finite, non-zero number.
fn format_g(n: f64, precision: usize) -> String {
    let p = precision.max(1);
    let sci = format!("{:.*e}", p - 1, n);
    let (mantissa, exp) = match sci.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse::<i32>().unwrap_or(0)),
        None => (sci.clone(), 0),
    };
    if exp < -4 || exp >= p as i32 {
        let m = strip_zeros(&mantissa);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{}{:02}", m, sign, exp.abs())
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        strip_zeros(&format!("{:.*}", decimals, n))
    }
}

fn strip_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}
