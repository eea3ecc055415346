//! Keyspace lines.

use super::{owned, Dice, FAR_FUTURE_MS, FAR_FUTURE_S};

const SECONDS: &[&str] = &["100000", "0", "-1", "x"];
const PATTERNS: &[&str] = &["*", "?", "l*", "[hk]", "[^k]*", "*e*", "\\*", "[a-"];

/// The commands ministore has had from the start.
pub fn line(dice: &mut Dice) -> Vec<String> {
    let key = dice.key();
    let line: Vec<&str> = match dice.below(4) {
        0 => vec![dice.pick(&["DEL", "EXISTS"]), key, dice.key()],
        1 => vec!["TYPE", key],
        2 => {
            let mut line = vec![dice.pick(&["EXPIRE", "PEXPIRE"]), key, dice.pick(SECONDS)];
            if dice.chance(30) {
                line.push(dice.pick(&["NX", "XX", "FOO"]));
            }
            line
        }
        _ => vec!["PERSIST", key],
    };
    owned(&line)
}

/// KEYS, RENAME(NX), UNLINK, COPY, TOUCH, EXPIREAT/PEXPIREAT and OBJECT ENCODING.
pub fn more(dice: &mut Dice) -> Vec<String> {
    let key = dice.key();
    let other = dice.key();
    let line: Vec<&str> = match dice.below(10) {
        0 | 1 => vec!["KEYS", dice.pick(PATTERNS)],
        2 | 3 => vec![dice.pick(&["RENAME", "RENAMENX"]), key, other],
        4 => vec![dice.pick(&["UNLINK", "TOUCH"]), key, other],
        5 => {
            let mut line = vec!["COPY", key, other];
            if dice.chance(40) {
                line.push("REPLACE");
            }
            if dice.chance(20) {
                line.extend(["DB", dice.pick(&["0", "1", "16", "x"])]);
            }
            line
        }
        6 if dice.chance(50) => vec!["EXPIREAT", key, dice.pick(FAR_FUTURE_S)],
        6 => vec!["PEXPIREAT", key, dice.pick(FAR_FUTURE_MS)],
        7 => vec!["OBJECT", "ENCODING", key],
        8 => vec!["KEYS", "*"],
        _ => vec!["EXISTS", key, other, key],
    };
    owned(&line)
}

/// SELECT among the 16 databases, DBSIZE, FLUSHDB, SWAPDB and MOVE.
pub fn databases(dice: &mut Dice) -> Vec<String> {
    let line: Vec<&str> = match dice.below(8) {
        0..=2 => vec!["SELECT", dice.pick(&["0", "1", "0", "15", "16", "-1", "x"])],
        3 => vec!["DBSIZE"],
        4 => vec![
            "SWAPDB",
            dice.pick(&["0", "1", "2"]),
            dice.pick(&["0", "1", "x"]),
        ],
        5 if dice.chance(30) => vec!["FLUSHDB"],
        5 => vec!["FLUSHDB", dice.pick(&["ASYNC", "SYNC", "x"])],
        _ => vec!["MOVE", dice.key(), dice.pick(&["0", "1", "2", "16", "x"])],
    };
    owned(&line)
}

/// SORT … ALPHA (LIMIT, ASC/DESC, STORE): the order is SORT's own, never the hash table's.
pub fn sort(dice: &mut Dice) -> Vec<String> {
    let key = dice.key();
    let other = dice.key();
    // Always ALPHA: Redis 7.0's numeric SORT reads `errno` without clearing it, so it fails
    // with "One or more scores can't be converted into double" after any earlier command's
    // float parse overflowed (ZADD k 1e400 …), a state no reply shows.
    let mut line = vec!["SORT", key, "ALPHA"];
    if dice.chance(30) {
        line.push(dice.pick(&["ASC", "DESC"]));
    }
    if dice.chance(30) {
        line.extend([
            "LIMIT",
            dice.pick(&["0", "1", "-1"]),
            dice.pick(&["2", "0", "-1"]),
        ]);
    }
    if dice.chance(20) {
        line.extend(["STORE", other]);
    }
    owned(&line)
}
