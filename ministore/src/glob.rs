//! Redis's glob-style pattern matching (`stringmatchlen`), shared by every command that takes
//! a MATCH pattern or a glob: `*`, `?`, `[abc]`, `[^a-z]`, `\x` escapes, optionally ignoring
//! ASCII case. Matching is on bytes, as in Redis.

/// Whether `text` matches the glob `pattern` (case-sensitive).
pub(crate) fn matches(pattern: &[u8], text: &[u8]) -> bool {
    match_from(pattern, text, false, 0)
}

/// Whether `text` matches the glob `pattern`, ignoring ASCII case.
pub(crate) fn matches_nocase(pattern: &[u8], text: &[u8]) -> bool {
    match_from(pattern, text, true, 0)
}

/// Deeply nested stars could make matching exponential; Redis gives up past this nesting too.
const MAX_NESTING: usize = 1000;

fn fold(byte: u8, nocase: bool) -> u8 {
    if nocase {
        byte.to_ascii_lowercase()
    } else {
        byte
    }
}

fn match_from(pattern: &[u8], text: &[u8], nocase: bool, nesting: usize) -> bool {
    let mut give_up = false;
    match_inner(pattern, text, nocase, nesting, &mut give_up)
}

/// Walks pattern and text together while both have bytes left, as Redis does: so `*` does not
/// match the empty string, and a pattern left with only stars matches once the text is used up.
/// `give_up` is Redis's shortcut: once the rest after a star matched nowhere, no longer match
/// for an earlier star can help.
fn match_inner(
    mut pattern: &[u8],
    mut text: &[u8],
    nocase: bool,
    nesting: usize,
    give_up: &mut bool,
) -> bool {
    if nesting > MAX_NESTING {
        return false;
    }
    while !pattern.is_empty() && !text.is_empty() {
        match pattern[0] {
            b'*' => {
                while pattern.get(1) == Some(&b'*') {
                    pattern = &pattern[1..];
                }
                if pattern.len() == 1 {
                    return true;
                }
                while !text.is_empty() {
                    if match_inner(&pattern[1..], text, nocase, nesting + 1, give_up) {
                        return true;
                    }
                    if *give_up {
                        return false;
                    }
                    text = &text[1..];
                }
                *give_up = true;
                return false;
            }
            b'?' => text = &text[1..],
            b'[' => {
                let (matched, at) = match_class(pattern, text[0], nocase);
                if !matched {
                    return false;
                }
                text = &text[1..];
                // `at` is the index of the class's closing `]` (or of the last byte when the
                // class is left open), which the step below moves past.
                pattern = &pattern[at..];
            }
            first => {
                let literal = if first == b'\\' && pattern.len() >= 2 {
                    pattern = &pattern[1..];
                    pattern[0]
                } else {
                    first
                };
                if fold(literal, nocase) != fold(text[0], nocase) {
                    return false;
                }
                text = &text[1..];
            }
        }
        pattern = &pattern[1..];
        if text.is_empty() {
            while pattern.first() == Some(&b'*') {
                pattern = &pattern[1..];
            }
            break;
        }
    }
    pattern.is_empty() && text.is_empty()
}

/// A `[...]` class starting at `pattern[0] == b'['`: whether `byte` is in it, and the index of
/// its closing `]` (of the pattern's last byte when the class is never closed).
fn match_class(pattern: &[u8], byte: u8, nocase: bool) -> (bool, usize) {
    let mut at = 1;
    let negate = pattern.get(at) == Some(&b'^');
    if negate {
        at += 1;
    }
    let mut matched = false;
    loop {
        let left = pattern.len() - at.min(pattern.len());
        match pattern.get(at) {
            None => {
                at = pattern.len() - 1;
                break;
            }
            Some(b'\\') if left >= 2 => {
                at += 1;
                if pattern[at] == byte {
                    matched = true;
                }
            }
            Some(b']') => break,
            Some(&low) if left >= 3 && pattern[at + 1] == b'-' => {
                // Redis compares a range's bytes as C `char`s, signed on x86-64: 0x80–0xFF
                // sort below 0x00 (`[a-\xff]` holds `\x00` but not `\xe9`).
                let signed = |b: u8| i32::from(b as i8);
                let (mut start, mut end) = (signed(low), signed(pattern[at + 2]));
                if start > end {
                    std::mem::swap(&mut start, &mut end);
                }
                let lower =
                    |c: i32| u8::try_from(c).map_or(c, |b| i32::from(b.to_ascii_lowercase()));
                let (start, end, c) = if nocase {
                    (lower(start), lower(end), lower(signed(byte)))
                } else {
                    (start, end, signed(byte))
                };
                at += 2;
                if c >= start && c <= end {
                    matched = true;
                }
            }
            Some(&single) => {
                if fold(single, nocase) == fold(byte, nocase) {
                    matched = true;
                }
            }
        }
        at += 1;
    }
    (matched != negate, at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_and_question_marks() {
        assert!(matches(b"a*", b"abc"));
        assert!(matches(b"a*", b"a"));
        assert!(matches(b"*c", b"abc"));
        assert!(matches(b"a*c", b"ac"));
        assert!(matches(b"a?c", b"abc"));
        assert!(!matches(b"a?c", b"ac"));
        assert!(!matches(b"a*d", b"abc"));
        assert!(matches(b"**a**", b"xax"));
    }

    #[test]
    fn classes_ranges_negation_and_escapes() {
        assert!(matches(b"h[ae]llo", b"hello"));
        assert!(!matches(b"h[ae]llo", b"hillo"));
        assert!(matches(b"h[^e]llo", b"hallo"));
        assert!(!matches(b"h[^e]llo", b"hello"));
        assert!(matches(b"h[a-b]llo", b"hbllo"));
        assert!(matches(b"h[b-a]llo", b"hallo"));
        assert!(matches(b"h\\*llo", b"h*llo"));
        assert!(!matches(b"h\\*llo", b"hallo"));
        assert!(matches(b"[\\]]", b"]"));
        assert!(matches(b"a[b", b"ab"));
        assert!(!matches(b"*", b""));
    }

    #[test]
    fn case_folding() {
        assert!(matches_nocase(b"HEL*", b"hello"));
        assert!(!matches(b"HEL*", b"hello"));
    }
}
