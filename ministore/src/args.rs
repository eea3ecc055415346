//! Reading command arguments the way Redis 7.0 does: an argument cursor for option lists, and
//! the number parsers whose quirks decide replies (`string2ll`'s strict integers, `strtod`
//! with Redis's extra checks for scores, and the looser `strtod` of score range bounds).

use crate::error::CommandError;
#[cfg(feature = "full")]
use crate::strtod::{is_c_space, strtod};

/// A cursor over one command line's words, for commands whose options come in any order.
pub(crate) struct ArgCursor<'a> {
    words: &'a [&'a [u8]],
    next: usize,
}

impl<'a> ArgCursor<'a> {
    /// A cursor positioned at `words[start]`.
    pub(crate) fn new(words: &'a [&'a [u8]], start: usize) -> ArgCursor<'a> {
        ArgCursor { words, next: start }
    }

    /// The next word, if any.
    pub(crate) fn next_word(&mut self) -> Option<&'a [u8]> {
        let word = self.words.get(self.next).copied()?;
        self.next += 1;
        Some(word)
    }

    /// The next word without consuming it.
    pub(crate) fn peek(&self) -> Option<&'a [u8]> {
        self.words.get(self.next).copied()
    }

    /// How many words are left.
    #[cfg(feature = "full")]
    pub(crate) fn remaining(&self) -> usize {
        self.words.len().saturating_sub(self.next)
    }

    /// The words not read yet.
    #[cfg(feature = "full")]
    pub(crate) fn rest(&self) -> &'a [&'a [u8]] {
        self.words.get(self.next..).unwrap_or(&[])
    }

    /// Skips `n` words.
    #[cfg(feature = "full")]
    pub(crate) fn skip(&mut self, n: usize) {
        self.next = self.next.saturating_add(n).min(self.words.len());
    }
}

/// Case-insensitive comparison of an argument with an option name. Redis compares with
/// `strcasecmp`, which reads the argument as a C string: `"NX\0junk"` is NX.
pub(crate) fn is(word: &[u8], name: &str) -> bool {
    c_string(word).eq_ignore_ascii_case(name.as_bytes())
}

/// An argument up to its first zero byte, as C string functions read it.
pub(crate) fn c_string(word: &[u8]) -> &[u8] {
    word.split(|&b| b == 0).next().unwrap_or(word)
}

/// An integer argument, or Redis's "not an integer" error.
pub(crate) fn int_arg(word: &[u8]) -> Result<i64, CommandError> {
    parse_int(word).ok_or(CommandError::NotInteger)
}

/// Redis's `string2ll`: an optional `-`, then `0` alone or digits without a leading zero, in
/// the i64 range. No `+`, no spaces, no `-0`.
pub(crate) fn parse_int(word: &[u8]) -> Option<i64> {
    let (negative, digits) = match word.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, word),
    };
    match digits {
        [] => return None,
        [b'0'] => return if negative { None } else { Some(0) },
        [b'1'..=b'9', ..] => {}
        _ => return None,
    }
    // Accumulate as a negative number so i64::MIN parses without overflow.
    let mut value: i64 = 0;
    for &digit in digits {
        if !digit.is_ascii_digit() {
            return None;
        }
        value = value
            .checked_mul(10)?
            .checked_sub(i64::from(digit - b'0'))?;
    }
    if negative {
        Some(value)
    } else {
        value.checked_neg()
    }
}

/// A score argument as `getDoubleFromObject` reads it: the whole word is one C `strtod`
/// number, without leading space, not NaN, and not out of the double range (`1e400`,
/// `1e-400`). `inf`, `+inf`, `-inf`, `1e3`, `.5`, `5.` and hex floats are fine.
#[cfg(feature = "full")]
pub(crate) fn parse_score(word: &[u8]) -> Option<f64> {
    if word.first().is_none_or(|b| is_c_space(*b)) {
        return None;
    }
    let parsed = strtod(word);
    if parsed.consumed != word.len() || parsed.value.is_nan() || parsed.range_error {
        return None;
    }
    Some(parsed.value)
}

/// A score argument, or Redis's "not a valid float" error.
#[cfg(feature = "full")]
pub(crate) fn score_arg(word: &[u8]) -> Result<f64, CommandError> {
    parse_score(word).ok_or(CommandError::NotFloat)
}

/// One end of a score range as `zslParseRange` reads it: `(` makes it exclusive; the rest is
/// C `strtod` up to the end of the C string, so leading spaces, an empty word (0) and
/// out-of-range values (±inf) pass; NaN does not. Returns `(value, exclusive)`.
#[cfg(feature = "full")]
pub(crate) fn parse_score_bound(word: &[u8]) -> Option<(f64, bool)> {
    // C stops at the first NUL byte.
    let word = match word.iter().position(|&b| b == 0) {
        Some(end) => &word[..end],
        None => word,
    };
    let (exclusive, number) = match word.split_first() {
        Some((b'(', rest)) => (true, rest),
        _ => (false, word),
    };
    let parsed = strtod(number);
    if parsed.consumed != number.len() || parsed.value.is_nan() {
        return None;
    }
    Some((parsed.value, exclusive))
}

/// Seconds for DEBUG SLEEP: C `strtod` with no checks at all, so garbage reads as 0.
#[cfg(feature = "full")]
pub(crate) fn parse_lenient_float(word: &[u8]) -> f64 {
    strtod(word).value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_parse_like_string2ll() {
        assert_eq!(parse_int(b"0"), Some(0));
        assert_eq!(parse_int(b"-12"), Some(-12));
        assert_eq!(parse_int(b"9223372036854775807"), Some(i64::MAX));
        assert_eq!(parse_int(b"-9223372036854775808"), Some(i64::MIN));
        for rejected in [
            &b""[..],
            b"-",
            b"+1",
            b" 1",
            b"1 ",
            b"01",
            b"-0",
            b"1.5",
            b"9223372036854775808",
            b"-9223372036854775809",
            b"1a",
        ] {
            assert_eq!(
                parse_int(rejected),
                None,
                "{:?}",
                String::from_utf8_lossy(rejected)
            );
        }
    }

    #[cfg(feature = "full")]
    #[test]
    fn scores_accept_what_strtod_reads_whole() {
        assert_eq!(parse_score(b"0.1"), Some(0.1));
        assert_eq!(parse_score(b"+inf"), Some(f64::INFINITY));
        assert_eq!(parse_score(b"-Infinity"), Some(f64::NEG_INFINITY));
        assert_eq!(parse_score(b".5"), Some(0.5));
        assert_eq!(parse_score(b"5."), Some(5.0));
        assert_eq!(parse_score(b"1E3"), Some(1000.0));
        assert_eq!(parse_score(b"0x10"), Some(16.0));
        assert_eq!(parse_score(b"0x1p-3"), Some(0.125));
        assert_eq!(parse_score(b"-0x1.8p1"), Some(-3.0));
        assert_eq!(parse_score(b"4.9e-324"), Some(4.9e-324));
    }

    #[cfg(feature = "full")]
    #[test]
    fn scores_reject_nan_spaces_and_out_of_range() {
        for rejected in [
            &b""[..],
            b"nan",
            b" 1",
            b"1 ",
            b"1e400",
            b"1e-400",
            b"abc",
            b"1e",
            b".",
            b"0x",
        ] {
            assert_eq!(
                parse_score(rejected),
                None,
                "{:?}",
                String::from_utf8_lossy(rejected)
            );
        }
    }

    #[cfg(feature = "full")]
    #[test]
    fn range_bounds_are_looser_than_scores() {
        assert_eq!(parse_score_bound(b"(1.5"), Some((1.5, true)));
        assert_eq!(parse_score_bound(b""), Some((0.0, false)));
        assert_eq!(parse_score_bound(b"("), Some((0.0, true)));
        assert_eq!(parse_score_bound(b" 1"), Some((1.0, false)));
        assert_eq!(parse_score_bound(b"1e999"), Some((f64::INFINITY, false)));
        assert_eq!(parse_score_bound(b"-inf"), Some((f64::NEG_INFINITY, false)));
        assert_eq!(parse_score_bound(b"2x"), None);
        assert_eq!(parse_score_bound(b"nan"), None);
        assert_eq!(parse_score_bound(b"   "), None);
    }

    #[cfg(feature = "full")]
    #[test]
    fn debug_sleep_seconds_read_garbage_as_zero() {
        assert_eq!(parse_lenient_float(b"abc"), 0.0);
        assert_eq!(parse_lenient_float(b"0.25s"), 0.25);
        assert_eq!(parse_lenient_float(b"1e"), 1.0);
    }
}
