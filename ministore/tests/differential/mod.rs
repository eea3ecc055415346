//! The differential test's vocabulary: a seeded dice, the words command lines are made of, and
//! one generator per command family. Only lines whose reply Redis 7.0 makes deterministic are
//! generated: no reads of a remaining TTL, no random members, no SCAN cursors over hash tables.

pub mod hashes;
pub mod keys;
pub mod lists;
pub mod lua;
pub mod sets;
pub mod strings;
pub mod transactions;
pub mod zsets;

/// xorshift64*: a seeded, dependency-free source of choices, so a failure names its seed.
pub struct Dice(pub u64);

impl Dice {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    pub fn pick<'a>(&mut self, options: &[&'a str]) -> &'a str {
        options[self.below(options.len())]
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// A key of any type, so every family meets the others' values (WRONGTYPE included).
    pub fn key(&mut self) -> &'static str {
        self.pick(KEYS)
    }
}

pub const KEYS: &[&str] = &["k", "h", "z", "s", "l", "lex", "n"];
pub const LONG_MEMBER: &str =
    "a-member-longer-than-the-64-bytes-that-redis-keeps-in-a-listpack-xxxx";
pub const MEMBERS: &[&str] = &["a", "b", "bb", "c", "apple", "x", "", LONG_MEMBER];
/// Hash fields stay short: a long one turns a Redis hash into a hashtable with random order.
pub const FIELDS: &[&str] = &["a", "b", "bb", "c", "apple", "x", ""];
pub const INTEGERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "-2",
    "3",
    "10",
    "-10",
    "x",
    "1.5",
    "+1",
    "01",
    "9223372036854775807",
    "-9223372036854775808",
];
pub const VALUES: &[&str] = &[
    "v",
    "1",
    "2",
    "-5",
    "abc",
    "9223372036854775807",
    "0",
    "01",
    "",
    "1.5",
    "3.0e2",
];

/// Absolute times (seconds, milliseconds) are year 2100 or invalid, never in the past:
/// ministore's virtual clock does not start at the real date, so a timestamp before today
/// would be past for one side only.
pub const FAR_FUTURE_S: &[&str] = &["4102444800", "0", "-1", "x"];
pub const FAR_FUTURE_MS: &[&str] = &["4102444800000", "0", "-1", "x"];

/// A family of commands and how to make one random line of it.
pub struct Family {
    /// Its name in `DIFFERENTIAL_FAMILIES`.
    pub name: &'static str,
    /// How many of the dice's faces it gets.
    pub weight: usize,
    pub line: fn(&mut Dice) -> Vec<String>,
}

/// Every family, landed in ministore or not.
pub fn all() -> Vec<Family> {
    let family = |name, weight, line| Family { name, weight, line };
    vec![
        family("zsets", 12, zsets::line),
        family("zsets-more", 6, zsets::more),
        family("zsets-setops", 2, zsets::setops),
        family("strings", 8, strings::line),
        family("strings-more", 6, strings::more),
        family("strings-padding", 2, strings::padding),
        family("hashes", 8, hashes::line),
        family("hashes-more", 3, hashes::more),
        family("keys", 5, keys::line),
        family("keys-more", 5, keys::more),
        family("databases", 3, keys::databases),
        family("sort", 2, keys::sort),
        family("lists", 10, lists::line),
        family("sets", 8, sets::line),
        family("transactions", 4, transactions::line),
        family("unwatch", 1, transactions::unwatch),
        family("publish", 1, transactions::publish),
        family("lua-string", 4, lua::string),
        family("lua-cjson", 2, lua::cjson),
        family("lua-bit", 2, lua::bit),
        family("lua-cmsgpack", 2, lua::cmsgpack),
        family("lua-struct", 2, lua::structs),
        family("garbage", 2, garbage),
    ]
}

/// Commands whose array reply comes in the order of a Redis hash table (random per server):
/// both sides' replies are sorted before they are compared.
pub fn unordered(command: &str) -> bool {
    ["SMEMBERS", "SINTER", "SUNION", "SDIFF", "KEYS"]
        .iter()
        .any(|c| c.eq_ignore_ascii_case(command))
}

pub fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// A known command with arbitrary words, or too few of them.
fn garbage(dice: &mut Dice) -> Vec<String> {
    let key = dice.key();
    let names = [
        "SET", "ZADD", "ZRANGE", "HSET", "GET", "ZPOPMIN", "EXPIRE", "NOPE",
    ];
    let mut line = vec![names[dice.below(names.len())]];
    for _ in 0..dice.below(5) {
        line.push(dice.pick(&[key, "NX", "1", "(1", "LIMIT", "WITHSCORES", "x", ""]));
    }
    owned(&line)
}
