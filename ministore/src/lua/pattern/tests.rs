//! Unit tests of the pattern matcher alone.
use super::*;

/// `string.match(src, pat)` from position 0, anchored when the pattern starts with `^`: the
/// captures as strings (positions as numbers in text).
fn m(src: &str, pat: &str) -> Result<Option<Vec<String>>, PatternError> {
    let (pat, anchor) = match pat.strip_prefix('^') {
        Some(p) => (p, true),
        None => (pat, false),
    };
    let mut mt = Matcher::new(src.as_bytes(), pat.as_bytes(), 1_000_000);
    for s in 0..=src.len() {
        if let Some(e) = mt.match_at(s, 0)? {
            let caps = mt.captures(s, e, true)?;
            return Ok(Some(
                caps.into_iter()
                    .map(|c| match c {
                        Capture::Text(a, b) => src[a..b].to_string(),
                        Capture::Position(n) => n.to_string(),
                    })
                    .collect(),
            ));
        }
        if anchor {
            break;
        }
    }
    Ok(None)
}

fn one(src: &str, pat: &str) -> Option<String> {
    m(src, pat).unwrap().map(|v| v.join("|"))
}

#[test]
fn classes_and_sets() {
    assert_eq!(one("hello world", "%a+"), Some("hello".into()));
    assert_eq!(one("  x1", "%S+"), Some("x1".into()));
    assert_eq!(one("abc123", "%d+"), Some("123".into()));
    assert_eq!(one("abc123", "[%d]+"), Some("123".into()));
    assert_eq!(one("abc-123", "[a-c]+"), Some("abc".into()));
    assert_eq!(one("abc-123", "[^a-c]+"), Some("-123".into()));
    assert_eq!(one("a]b", "[]]"), Some("]".into()));
    assert_eq!(one("a]b", "[%]]"), Some("]".into()));
    assert_eq!(one("a-b", "[a-]+"), Some("a-".into()));
    assert_eq!(one("x.y", "%."), Some(".".into()));
    assert_eq!(one("AbC", "%u%l%u"), Some("AbC".into()));
    assert_eq!(one("a,b", "%p"), Some(",".into()));
    assert_eq!(one("ff0z", "%x+"), Some("ff0".into()));
    assert_eq!(one("a\0b", "%z"), Some("\0".into()));
    assert_eq!(one("\tx", "%c"), Some("\t".into()));
    assert_eq!(one("ab12", "%W"), None);
}

#[test]
fn anchors_and_quantifiers() {
    assert_eq!(one("hello", "^h"), Some("h".into()));
    assert_eq!(one("hello", "^e"), None);
    assert_eq!(one("hello", "o$"), Some("o".into()));
    assert_eq!(one("hello", "l$"), None);
    assert_eq!(one("a$b", "$b"), Some("$b".into()));
    assert_eq!(one("aaab", "a-b"), Some("aaab".into()));
    assert_eq!(one("<a><b>", "<.->"), Some("<a>".into()));
    assert_eq!(one("<a><b>", "<.*>"), Some("<a><b>".into()));
    assert_eq!(one("color colour", "colou?r"), Some("color".into()));
    assert_eq!(one("xyz", "a*"), Some("".into()));
    assert_eq!(one("xyz", "a+"), None);
}

#[test]
fn captures_and_back_references() {
    assert_eq!(one("key=val", "(%w+)=(%w+)"), Some("key|val".into()));
    assert_eq!(one("hello", "()ll()"), Some("3|5".into()));
    assert_eq!(one("say 'hi' now", "(['\"])(.-)%1"), Some("'|hi".into()));
    assert_eq!(one("abab", "(ab)%1"), Some("ab".into()));
    assert_eq!(one("f(a(b)c)d", "%b()"), Some("(a(b)c)".into()));
    assert_eq!(one("THE (quick) fox", "%f[%a]%a+"), Some("THE".into()));
    assert_eq!(one("THE (quick) fox", "%f[%l]%a+"), Some("quick".into()));
    assert_eq!(one("x", "((x))"), Some("x|x".into()));
}

#[test]
fn errors_are_worded_as_lua_words_them() {
    let bad = |p: &str| match m("abc", p) {
        Err(PatternError::Bad(e)) => e,
        other => panic!("{p:?} gave {other:?}"),
    };
    assert_eq!(bad("%"), "malformed pattern (ends with '%')");
    assert_eq!(bad("[a"), "malformed pattern (missing ']')");
    assert_eq!(bad("[a%"), "malformed pattern (missing ']')");
    assert_eq!(bad("%f"), "missing '[' after '%f' in pattern");
    assert_eq!(bad("%1"), "invalid capture index");
    assert_eq!(bad("(a)%2"), "invalid capture index");
    assert_eq!(bad("a)"), "invalid pattern capture");
    assert_eq!(bad("(a"), "unfinished capture");
    assert_eq!(bad("%b"), "unbalanced pattern");
    assert_eq!(bad(&"()".repeat(33)), "too many captures");
    assert_eq!(
        m(&"a".repeat(400), &"a?".repeat(400)),
        Err(PatternError::Bad("pattern too complex"))
    );
}

#[test]
fn a_runaway_match_stops_at_its_budget() {
    let src = "a".repeat(200);
    let pat = format!("{}b", "a*".repeat(20));
    let mut mt = Matcher::new(src.as_bytes(), pat.as_bytes(), 100_000);
    assert_eq!(mt.match_at(0, 0), Err(PatternError::Budget));
}
