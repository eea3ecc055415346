//! Property tests over the Lua libraries that parse their input: arbitrary Lua patterns against
//! arbitrary subjects (string.find, match, gmatch, gsub), arbitrary format strings and arbitrary
//! bytes for every decoder (cjson.decode, cmsgpack.unpack, struct.unpack) never panic, and a
//! bounded step budget ends every call quickly with a reply.

use std::time::{Duration, Instant};

use ministore::lua::{CommandHost, Script};
use ministore::Reply;
use proptest::prelude::*;

/// Enough for real work on short inputs, small enough that a pathological pattern stops fast.
const BUDGET: u64 = 200_000;

struct NoHost;

impl CommandHost for NoHost {
    fn call(&mut self, _args: &[&[u8]]) -> Reply {
        Reply::Nil
    }
}

/// Runs `src` with `argv` and checks it ended with a reply in bounded time.
fn run(src: &str, argv: &[Vec<u8>]) -> Reply {
    let script = Script::compile(src.as_bytes()).expect("fixed script compiles");
    let started = Instant::now();
    let reply = script.run("sha", &[], argv, &mut NoHost, BUDGET);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{src} with {argv:?} took {:?}",
        started.elapsed()
    );
    reply
}

/// Pattern text drawn mostly from the characters that mean something in a pattern.
fn pattern() -> impl Strategy<Value = Vec<u8>> {
    let atom = prop_oneof![
        4 => prop::sample::select(b"%()[]^$*+-?.abc019 ".to_vec()),
        2 => prop::sample::select(b"adlsuwxzpcADLSUWXZPCbf1234".to_vec()),
        1 => any::<u8>(),
    ];
    prop::collection::vec(atom, 0..24)
}

fn subject() -> impl Strategy<Value = Vec<u8>> {
    let atom = prop_oneof![
        4 => prop::sample::select(b"abc()[] 019%\0".to_vec()),
        1 => any::<u8>(),
    ];
    prop::collection::vec(atom, 0..64)
}

const PATTERN_SCRIPTS: &[&str] = &[
    "return {string.find(ARGV[1], ARGV[2])}",
    "return {string.find(ARGV[1], ARGV[2], 3, true)}",
    "return {string.match(ARGV[1], ARGV[2], -5)}",
    "local t = {} for a, b in string.gmatch(ARGV[1], ARGV[2]) do t[#t + 1] = tostring(a) if #t > 100 then break end end return t",
    "return {string.gsub(ARGV[1], ARGV[2], '<%0%1>')}",
    "return {string.gsub(ARGV[1], ARGV[2], function(a, b) return b end, 7)}",
    "return {string.gsub(ARGV[1], ARGV[2], {a = 'A'})}",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn patterns_never_panic(subject in subject(), pattern in pattern(), which in 0..PATTERN_SCRIPTS.len()) {
        run(PATTERN_SCRIPTS[which], &[subject, pattern]);
    }

    #[test]
    fn formats_never_panic(fmt in prop::collection::vec(prop::sample::select(b"%-+ #0123456789.dicuxXoeEfgGqs%zab".to_vec()), 0..24), n in any::<f64>(), s in subject()) {
        let n = n.to_string().into_bytes();
        run("return string.format(ARGV[1], ARGV[2], ARGV[3], ARGV[2], ARGV[3])", &[fmt.clone(), n.clone(), s.clone()]);
        run("return string.format(ARGV[1], tonumber(ARGV[2]) or 0, ARGV[3], -1/0, 0/0)", &[fmt, n, s]);
    }
}

/// Text drawn mostly from JSON's own characters.
fn json_text() -> impl Strategy<Value = Vec<u8>> {
    let atom = prop_oneof![
        6 => prop::sample::select(b"{}[]:,\"\\/ 0123456789.eE+-tfnulraxINbu\0".to_vec()),
        1 => any::<u8>(),
    ];
    prop::collection::vec(atom, 0..48)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn json_decoding_never_panics(text in json_text()) {
        run("local ok, v = pcall(cjson.decode, ARGV[1]) if ok then return cjson.encode(v) end return v", &[text]);
    }

    #[test]
    fn binary_decoders_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..48), fmt in prop::collection::vec(prop::sample::select(b"<>!=xbBhHlLiIfdsczT0123456789 ".to_vec()), 0..12)) {
        run("return {pcall(cmsgpack.unpack, ARGV[1])}", std::slice::from_ref(&bytes));
        run("return {pcall(cmsgpack.unpack_one, ARGV[1], 2)}", std::slice::from_ref(&bytes));
        run("return {pcall(struct.unpack, ARGV[2], ARGV[1])}", &[bytes, fmt]);
    }
}

#[test]
fn deep_json_is_refused_without_overflowing() {
    let text = "[".repeat(100_000).into_bytes();
    match run("return cjson.decode(ARGV[1])", &[text]) {
        Reply::Error(e) => assert!(e.contains("Found too many nested data structures"), "{e}"),
        other => panic!("expected the nesting error, got {other:?}"),
    }
    match run(
        "local t = {} for i = 1, 5000 do t = {t} end return cjson.encode(t)",
        &[],
    ) {
        Reply::Error(e) => assert!(e.contains("excessive nesting"), "{e}"),
        other => panic!("expected the nesting error, got {other:?}"),
    }
}

#[test]
fn a_pathological_pattern_ends_at_the_budget() {
    let subject = "a".repeat(5000).into_bytes();
    let pattern = format!("{}b", "a*".repeat(30)).into_bytes();
    match run("return string.find(ARGV[1], ARGV[2])", &[subject, pattern]) {
        Reply::Error(e) => assert!(e.contains("step budget"), "{e}"),
        other => panic!("expected the budget error, got {other:?}"),
    }
}

#[test]
fn deep_patterns_fail_with_pattern_too_complex() {
    let subject = "a".repeat(2000).into_bytes();
    let pattern = "a?".repeat(1000).into_bytes();
    match run("return string.match(ARGV[1], ARGV[2])", &[subject, pattern]) {
        Reply::Error(e) => assert!(e.contains("pattern too complex"), "{e}"),
        other => panic!("expected pattern too complex, got {other:?}"),
    }
}
