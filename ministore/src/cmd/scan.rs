//! What SCAN, HSCAN and ZSCAN share: Redis's cursor parsing, the `MATCH` and `COUNT` options,
//! and the walk a cursor follows. A collection Redis keeps compact (a listpack) is returned
//! whole with cursor 0, as Redis does. The keyspace and a larger hash or sorted set are walked
//! in the order of a fixed 64-bit hash of each element (ties by bytes), the cursor being the
//! hash of the next element to return and 0 once the walk is done: an element's place does not
//! move when others come and go, so one present for the whole walk is returned at least once,
//! whatever is added or deleted meanwhile, as Redis's cursor guarantees.

use std::hash::Hasher;

use crate::args::{int_arg, is};
use crate::error::CommandError;
use crate::glob;
use crate::keyspace::KeyHasher;
use crate::order;
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

/// Where an element sits in a hashed walk; never 0, which is the cursor of a finished walk.
fn position(element: &[u8]) -> u64 {
    let mut hasher = KeyHasher::default();
    hasher.write(element);
    hasher.finish().max(1)
}

/// One call of a hashed walk over `elements` (each with what the reply needs of it): the next
/// `count` elements at or past `cursor`, in the walk's order, and the cursor after them.
pub(crate) fn hashed_page<'a, T>(
    elements: impl Iterator<Item = (&'a [u8], T)>,
    cursor: u64,
    count: usize,
) -> (u64, Vec<(&'a [u8], T)>) {
    let mut walk: Vec<(u64, &[u8], T)> = elements
        .map(|(element, with)| (position(element), element, with))
        .filter(|(at, _, _)| cursor == 0 || *at >= cursor)
        .collect();
    order::sort_by(&mut walk, |a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    let mut next = walk.get(count).map_or(0, |(at, _, _)| *at);
    if next == cursor && cursor != 0 {
        // More than COUNT elements share one hash: step past them rather than loop.
        next = cursor.saturating_add(1);
    }
    walk.truncate(count);
    let page = walk.into_iter().map(|(_, element, with)| (element, with));
    (next, page.collect())
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
    fn a_hashed_walk_returns_what_stays_whatever_goes_meanwhile() {
        let all: Vec<Vec<u8>> = (0..100).map(|i| format!("e{i}").into_bytes()).collect();
        let mut present: Vec<&[u8]> = all.iter().map(Vec::as_slice).collect();
        let mut seen = Vec::new();
        let mut cursor = 0;
        loop {
            let (next, page) = hashed_page(present.iter().map(|e| (*e, ())), cursor, 7);
            assert!(page.len() <= 7);
            // Each element returned is deleted at once, as a cleanup loop does.
            for (element, ()) in page {
                seen.push(element.to_vec());
                present.retain(|e| *e != element);
            }
            if next == 0 {
                break;
            }
            cursor = next;
        }
        seen.sort();
        let mut want = all.clone();
        want.sort();
        assert_eq!(seen, want);
    }

    #[test]
    fn a_walk_over_nothing_ends_at_once() {
        let (next, page) = hashed_page(std::iter::empty::<(&[u8], ())>(), 0, 10);
        assert_eq!((next, page.len()), (0, 0));
    }
}
