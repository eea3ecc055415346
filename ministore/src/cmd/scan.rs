//! What HSCAN, ZSCAN (and the other SCAN forms) share: Redis's cursor parsing, the `MATCH` and
//! `COUNT` options, and the page a cursor selects. A collection Redis keeps compact (a
//! listpack) is returned whole with cursor 0, as Redis does; a larger one is walked in order,
//! the cursor being the position of the next element.

use crate::args::{int_arg, is};
use crate::error::CommandError;
use crate::glob;
use crate::reply::Reply;
use crate::strtod::is_c_space;

/// SCAN's options after the cursor.
pub(crate) struct ScanOptions<'a> {
    /// How many elements one call looks at (Redis's hint; at least 1).
    pub(crate) count: usize,
    /// The MATCH pattern, unless it is missing or `*`.
    pub(crate) pattern: Option<&'a [u8]>,
}

impl ScanOptions<'_> {
    /// Whether `element` passes the MATCH pattern.
    pub(crate) fn keeps(&self, element: &[u8]) -> bool {
        self.pattern
            .is_none_or(|pattern| glob::matches(pattern, element))
    }
}

/// A cursor as C's `strtoul` reads it in base 10, as Redis does: no leading space, an optional
/// sign (`-1` wraps to the largest cursor), nothing after the digits, no overflow.
pub(crate) fn parse_cursor(word: &[u8]) -> Result<u64, CommandError> {
    let invalid = CommandError::InvalidCursor;
    // C stops at a NUL byte.
    let word = match word.iter().position(|&b| b == 0) {
        Some(end) => &word[..end],
        None => word,
    };
    if word.first().is_some_and(|b| is_c_space(*b)) {
        return Err(invalid);
    }
    let (negative, digits) = match word.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, word),
    };
    if digits.is_empty() {
        // strtoul read nothing: the cursor is 0 only if nothing at all was there.
        return if word.is_empty() { Ok(0) } else { Err(invalid) };
    }
    let mut value: u64 = 0;
    for &digit in digits {
        if !digit.is_ascii_digit() {
            return Err(invalid);
        }
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(digit - b'0')))
            .ok_or(CommandError::InvalidCursor)?;
    }
    Ok(if negative {
        value.wrapping_neg()
    } else {
        value
    })
}

/// Reads `[MATCH pattern] [COUNT count]` from `words[start..]`, in any order and repeated.
pub(crate) fn parse_options<'a>(
    words: &[&'a [u8]],
    start: usize,
) -> Result<ScanOptions<'a>, CommandError> {
    let mut options = ScanOptions {
        count: 10,
        pattern: None,
    };
    let mut at = start;
    while at < words.len() {
        let room = words.len() - at;
        if is(words[at], "count") && room >= 2 {
            let count = int_arg(words[at + 1])?;
            if count < 1 {
                return Err(CommandError::Syntax);
            }
            options.count = usize::try_from(count).unwrap_or(usize::MAX);
        } else if is(words[at], "match") && room >= 2 {
            let pattern = words[at + 1];
            options.pattern = (pattern != b"*").then_some(pattern);
        } else {
            return Err(CommandError::Syntax);
        }
        at += 2;
    }
    Ok(options)
}

/// The positions one call returns out of `len` elements, and the cursor after them.
pub(crate) fn page(len: usize, cursor: u64, count: usize, compact: bool) -> (usize, usize, u64) {
    if compact {
        return (0, len, 0);
    }
    let start = usize::try_from(cursor).unwrap_or(usize::MAX).min(len);
    let end = start.saturating_add(count).min(len);
    let next = if end >= len { 0 } else { end as u64 };
    (start, end, next)
}

/// `[cursor, [elements…]]`.
pub(crate) fn reply(cursor: u64, elements: Vec<Reply>) -> Reply {
    Reply::Array(vec![
        Reply::Bulk(cursor.to_string().into_bytes()),
        Reply::Array(elements),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_read_like_strtoul() {
        assert_eq!(parse_cursor(b"0"), Ok(0));
        assert_eq!(parse_cursor(b""), Ok(0));
        assert_eq!(parse_cursor(b"+5"), Ok(5));
        assert_eq!(parse_cursor(b"-1"), Ok(u64::MAX));
        assert_eq!(parse_cursor(b"18446744073709551615"), Ok(u64::MAX));
        for bad in [
            &b"18446744073709551616"[..],
            b" 1",
            b"1 ",
            b"abc",
            b"-",
            b"0x1",
        ] {
            assert_eq!(parse_cursor(bad), Err(CommandError::InvalidCursor));
        }
    }

    #[test]
    fn pages_walk_in_order_and_end_at_zero() {
        assert_eq!(page(25, 0, 10, false), (0, 10, 10));
        assert_eq!(page(25, 20, 10, false), (20, 25, 0));
        assert_eq!(page(25, 99, 10, false), (25, 25, 0));
        assert_eq!(page(5, 3, 1, true), (0, 5, 0));
    }
}
