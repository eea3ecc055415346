//! Scripts calling the Lua libraries Redis 7.0 embeds, with arguments from small vocabularies:
//! Lua patterns through string.find/match/gsub/gmatch, cjson round trips, and bit operations.
//! Only calls whose results do not depend on table iteration order are generated.

use super::Dice;

const SUBJECTS: &[&str] = &[
    "hello world",
    "a1b22c333",
    "",
    "x(y)z",
    "aaa",
    "THE (quick) fox",
    "key:{tag}:1",
    "  padded  ",
    "f(a(b)c)d",
];
const PATTERNS: &[&str] = &[
    "%d+",
    "(%a+)",
    "^a",
    "a$",
    "[%w_]+",
    "%b()",
    "%f[%w]%w+",
    "(a)(b)",
    "()a()",
    "[^a-c]",
    "a-",
    "a*",
    "a?",
    ".-b",
    "%",
    "[a",
    "(",
    "%1",
    "(%d)%1",
    "%s*(.-)%s*$",
    "[%]]",
    "%u+",
    "o",
    ".",
    "[]",
    "%g",
    "((a)",
    "a)",
    "%z",
    "[%a-z]",
];
const REPLACEMENTS: &[&str] = &["%1", "<%0>", "x", "%%", "%2", "", "%", "[%1]"];
const INITS: &[&str] = &["1", "2", "-1", "-3", "0", "100", "x"];

fn eval(script: &str, args: &[&str]) -> Vec<String> {
    let mut line = vec!["EVAL".to_string(), script.to_string(), "0".to_string()];
    line.extend(args.iter().map(|a| a.to_string()));
    line
}

/// string.find / match / gsub / gmatch and a few plain string functions.
pub fn string(dice: &mut Dice) -> Vec<String> {
    let subject = dice.pick(SUBJECTS);
    let pattern = dice.pick(PATTERNS);
    match dice.below(8) {
        0 => eval(
            "return {string.find(ARGV[1], ARGV[2])}",
            &[subject, pattern],
        ),
        1 => eval(
            "return {string.find(ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4] == 'plain')}",
            &[
                subject,
                pattern,
                dice.pick(INITS),
                dice.pick(&["plain", "no"]),
            ],
        ),
        2 => eval(
            "return {string.match(ARGV[1], ARGV[2])}",
            &[subject, pattern],
        ),
        3 => eval(
            "local s, n = string.gsub(ARGV[1], ARGV[2], ARGV[3]) return {s, n}",
            &[subject, pattern, dice.pick(REPLACEMENTS)],
        ),
        4 => eval(
            "local s, n = string.gsub(ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])) return {s, n}",
            &[subject, pattern, dice.pick(REPLACEMENTS), dice.pick(INITS)],
        ),
        5 => eval(
            "local t = {} for a, b in string.gmatch(ARGV[1], ARGV[2]) do \
             t[#t + 1] = a t[#t + 1] = tostring(b) end return t",
            &[subject, pattern],
        ),
        6 => eval(
            "return string.gsub(ARGV[1], ARGV[2], {a = 'A', hello = false, x = 1})",
            &[subject, pattern],
        ),
        _ => eval(
            "return {string.sub(ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])), \
             string.upper(ARGV[1]), string.rep(ARGV[1], 2), string.len(ARGV[1]), \
             string.format('%q|%5.2f|%-4d|%x', ARGV[1], tonumber(ARGV[2]) or 0, 7, 255)}",
            &[subject, dice.pick(INITS), dice.pick(INITS)],
        ),
    }
}

const JSON: &[&str] = &[
    "[1,2,3]",
    "{\"a\":1}",
    "\"str\"",
    "[1.5,-0,1e300,0.1,100000000000000]",
    "[true,false,null]",
    "{\"a\":[{\"b\":\"c\"}]}",
    "\"\\u00e9\\n\\\"\"",
    "[",
    "{\"a\":}",
    "[1,[2,[3,[]]]]",
    "\"\\/\"",
    "{}",
    "[]",
    "  [ 1 , 2 ]  ",
    "nul",
    "[1,2,]",
    "123456789012345678",
    "-1.25e-7",
    "\"a\\tb\"",
    "[\"x\",{\"y\":[null]}]",
];

/// cjson.decode and cjson.encode(cjson.decode(…)).
pub fn cjson(dice: &mut Dice) -> Vec<String> {
    let json = dice.pick(JSON);
    match dice.below(3) {
        0 => eval("return cjson.encode(cjson.decode(ARGV[1]))", &[json]),
        1 => eval("return cjson.decode(ARGV[1])", &[json]),
        _ => eval(
            "local v = cjson.decode(ARGV[1]) return type(v) == 'table' and #v or tostring(v)",
            &[json],
        ),
    }
}

const BIT_NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "255",
    "4294967295",
    "2147483648",
    "2147483647",
    "1.5",
    "-5",
    "3000000000",
    "0x10",
    "x",
];

/// The bit library on small and edge numbers.
pub fn bit(dice: &mut Dice) -> Vec<String> {
    let a = dice.pick(BIT_NUMBERS);
    let b = dice.pick(BIT_NUMBERS);
    let shift = dice.pick(&["0", "1", "4", "31", "32", "-1"]);
    match dice.below(5) {
        0 => eval(
            "return {bit.band(tonumber(ARGV[1]), tonumber(ARGV[2])), \
             bit.bor(tonumber(ARGV[1]), tonumber(ARGV[2])), \
             bit.bxor(tonumber(ARGV[1]), tonumber(ARGV[2]))}",
            &[a, b],
        ),
        1 => eval(
            "return {bit.lshift(tonumber(ARGV[1]), tonumber(ARGV[2])), \
             bit.rshift(tonumber(ARGV[1]), tonumber(ARGV[2])), \
             bit.arshift(tonumber(ARGV[1]), tonumber(ARGV[2]))}",
            &[a, shift],
        ),
        2 => eval(
            "return {bit.tohex(tonumber(ARGV[1])), bit.tohex(tonumber(ARGV[1]), tonumber(ARGV[2]))}",
            &[a, dice.pick(&["2", "-4", "8", "0", "20"])],
        ),
        3 => eval(
            "return {bit.bnot(tonumber(ARGV[1])), bit.tobit(tonumber(ARGV[1])), \
             bit.rol(tonumber(ARGV[1]), 4), bit.ror(tonumber(ARGV[1]), 4), bit.bswap(tonumber(ARGV[1]))}",
            &[a],
        ),
        _ => eval("return bit.band(ARGV[1], ARGV[2])", &[a, b]),
    }
}

/// Payloads of ASCII bytes only (the words are UTF-8): positive fixints, several in a row.
const MSGPACK: &[&str] = &["\u{1}", "\u{7f}", "\u{0}", "", "abc", "\u{1}\u{2}\u{3}"];

/// cmsgpack round trips of values a script builds, and unpacking of small payloads.
pub fn cmsgpack(dice: &mut Dice) -> Vec<String> {
    match dice.below(4) {
        0 => eval(
            "return cmsgpack.pack(tonumber(ARGV[1]) or ARGV[1])",
            &[dice.pick(BIT_NUMBERS)],
        ),
        1 => eval(
            "return {cmsgpack.unpack(cmsgpack.pack({1, 'two', {3}, true, tonumber(ARGV[1]) or ARGV[1]}))}",
            &[dice.pick(BIT_NUMBERS)],
        ),
        2 => eval(
            "return cmsgpack.pack(cjson.decode(ARGV[1]))",
            &[dice.pick(&["[1,2,3]", "{\"a\":1}", "\"str\"", "[true,false]", "[1.5,-1]", "[]"])],
        ),
        _ => eval("return {cmsgpack.unpack(ARGV[1])}", &[dice.pick(MSGPACK)]),
    }
}

const STRUCT_FORMATS: &[&str] = &[
    ">I2", "<i4", "b", "B", ">h", "<H", ">i8", "s", "c3", "!4i2", ">d", "x", "Z",
];

/// struct.pack / unpack / size over a few formats.
pub fn structs(dice: &mut Dice) -> Vec<String> {
    let format = dice.pick(STRUCT_FORMATS);
    match dice.below(3) {
        0 => eval(
            "return struct.pack(ARGV[1], tonumber(ARGV[2]) or ARGV[2])",
            &[
                format,
                dice.pick(&["258", "-1", "65535", "1.5", "abc", "0"]),
            ],
        ),
        1 => eval(
            "return {struct.unpack(ARGV[1], ARGV[2])}",
            &[
                format,
                dice.pick(&["\u{1}\u{2}\u{3}\u{4}", "abcdefgh", "", "xyz\u{0}q"]),
            ],
        ),
        _ => eval("return struct.size(ARGV[1])", &[format]),
    }
}
