//! Lexer tests: keywords, numbers, strings and escapes, long brackets, lines, Lua 5.1's error texts.

use super::*;

fn toks(src: &str) -> Vec<Tok> {
    tokenize(src.as_bytes())
        .unwrap()
        .into_iter()
        .map(|t| t.tok)
        .collect()
}

#[test]
fn keywords_names_and_symbols() {
    assert_eq!(
        toks("local x = a.b .. c ~= d"),
        vec![
            Tok::Local,
            Tok::Name("x".into()),
            Tok::Assign,
            Tok::Name("a".into()),
            Tok::Dot,
            Tok::Name("b".into()),
            Tok::DotDot,
            Tok::Name("c".into()),
            Tok::NotEq,
            Tok::Name("d".into()),
            Tok::Eof
        ]
    );
}

#[test]
fn numbers_in_every_form() {
    assert_eq!(
        toks("3 0.5 1e3 0x1F .5"),
        vec![
            Tok::Number(3.0),
            Tok::Number(0.5),
            Tok::Number(1000.0),
            Tok::Number(31.0),
            Tok::Number(0.5),
            Tok::Eof
        ]
    );
}

#[test]
fn string_escapes_decode() {
    assert_eq!(
        toks(r#""a\n\t\\\"\65\066x" 'it''s'"#)[0],
        Tok::Str(Arc::from(&b"a\n\t\\\"ABx"[..]))
    );
}

#[test]
fn long_strings_and_comments() {
    assert_eq!(
        toks("--[[ gone\n ]] [[\nline1\nline2]] --rest\n[==[a]]b]==]"),
        vec![
            Tok::Str(Arc::from(&b"line1\nline2"[..])),
            Tok::Str(Arc::from(&b"a]]b"[..])),
            Tok::Eof
        ]
    );
}

#[test]
fn a_shebang_is_not_lua() {
    // A script's `#!lua` line is the scripting command's (`Script::compile` strips it); for the
    // lexer, as for Lua 5.1's `loadstring`, `#` is the length operator.
    let (t, _) = tokens_until_error(b"#!lua\nreturn x");
    assert_eq!(t[0].tok, Tok::Hash);
}

#[test]
fn tokens_carry_their_line() {
    let t = tokenize(b"a\nb\r\n\nc").unwrap();
    assert_eq!(
        t.iter().map(|t| t.line).collect::<Vec<_>>(),
        vec![1, 2, 4, 4]
    );
}

#[test]
fn numerals_are_cut_as_lua_5_1_reads_them() {
    // Digits and dots, one exponent mark and its sign, then letters, digits and underscores.
    assert_eq!(
        toks("0x1p4 0xA.5 1e+2"),
        vec![
            Tok::Number(16.0),
            Tok::Number(10.0),
            Tok::Number(0.5),
            Tok::Number(100.0),
            Tok::Eof
        ]
    );
    for (src, near) in [
        ("return 0x1P-2", "0x1P"),
        ("return 0x.8", "0x"),
        ("return 1e+5e+3", "1e+5e"),
        ("return 5..2", "5..2"),
        ("return 1.2.3", "1.2.3"),
    ] {
        let e = tokenize(src.as_bytes()).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("malformed number near '{near}'"),
            "{src}"
        );
    }
}

#[test]
fn errors_are_worded_like_lua() {
    let e = tokenize(b"return 'abc").unwrap_err();
    assert_eq!(e.to_string(), "unfinished string near '<eof>'");
    let e = tokenize(b"return \"abc\ndef\"").unwrap_err();
    assert_eq!(e.to_string(), "unfinished string near '\"abc'");
    let e = tokenize(b"return 3x").unwrap_err();
    assert_eq!(e.to_string(), "malformed number near '3x'");
    let e = tokenize(b"return [[abc").unwrap_err();
    assert_eq!(e.to_string(), "unfinished long string near '<eof>'");
    let e = tokenize(b"--[[ abc").unwrap_err();
    assert_eq!(e.to_string(), "unfinished long comment near '<eof>'");
}
