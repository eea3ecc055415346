//! Sorted-set lines: scores, score ranges and lex ranges, valid and not.

use super::{owned, Dice, INTEGERS, MEMBERS};

pub const SCORES: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "1.5",
    "0.1",
    "-0",
    "inf",
    "-inf",
    "+inf",
    "1e3",
    "3",
    "2.5",
    "0x10",
    "1e-5",
    "123456789.123",
    "nan",
    "x",
    "",
    " 1",
    "1e400",
];
pub const BOUNDS: &[&str] = &[
    "0", "1", "2", "(1", "(2", "-inf", "+inf", "inf", "(", "(-inf", "3", "(3", "1.5", "x", "",
];
pub const LEX: &[&str] = &["-", "+", "[a", "(a", "[b", "(bb", "[c", "[x", "a", ""];

/// The commands ministore has had from the start.
pub fn line(dice: &mut Dice) -> Vec<String> {
    let key = dice.key();
    let line: Vec<&str> = match dice.below(12) {
        0..=3 => {
            let mut line = vec!["ZADD", key];
            let flags = ["NX", "XX", "GT", "LT", "CH", "INCR"];
            for _ in 0..dice.below(3) {
                line.push(flags[dice.below(flags.len())]);
            }
            for _ in 0..1 + dice.below(3) {
                line.push(dice.pick(SCORES));
                line.push(dice.pick(MEMBERS));
            }
            line
        }
        4..=6 => {
            let (kind, range) = match dice.below(3) {
                0 => (None, INTEGERS),
                1 => (Some("BYSCORE"), BOUNDS),
                _ => (Some("BYLEX"), LEX),
            };
            let mut line = vec!["ZRANGE", key, dice.pick(range), dice.pick(range)];
            line.extend(kind);
            if dice.chance(30) {
                line.push("REV");
            }
            if dice.chance(30) {
                line.extend(["LIMIT", dice.pick(INTEGERS), dice.pick(INTEGERS)]);
            }
            if dice.chance(40) {
                line.push("WITHSCORES");
            }
            line
        }
        7 => {
            let mut line = vec!["ZRANGEBYSCORE", key, dice.pick(BOUNDS), dice.pick(BOUNDS)];
            if dice.chance(40) {
                line.push("WITHSCORES");
            }
            if dice.chance(40) {
                line.extend(["LIMIT", dice.pick(INTEGERS), dice.pick(INTEGERS)]);
            }
            line
        }
        8 => vec!["ZREM", key, dice.pick(MEMBERS), dice.pick(MEMBERS)],
        9 => match dice.below(4) {
            0 => vec!["ZSCORE", key, dice.pick(MEMBERS)],
            1 => vec!["ZCARD", key],
            2 => vec!["ZPOPMIN", key],
            _ => vec!["ZPOPMIN", key, dice.pick(INTEGERS)],
        },
        10 => match dice.below(3) {
            0 => vec!["ZINCRBY", key, dice.pick(SCORES), dice.pick(MEMBERS)],
            1 => vec!["ZCOUNT", key, dice.pick(BOUNDS), dice.pick(BOUNDS)],
            _ => vec![dice.pick(&["ZRANK", "ZREVRANK"]), key, dice.pick(MEMBERS)],
        },
        _ => match dice.below(2) {
            0 => vec![
                "ZREVRANGE",
                key,
                dice.pick(INTEGERS),
                dice.pick(INTEGERS),
                "WITHSCORES",
            ],
            _ => vec![
                "ZREVRANGEBYSCORE",
                key,
                dice.pick(BOUNDS),
                dice.pick(BOUNDS),
            ],
        },
    };
    owned(&line)
}

/// ZPOPMAX, ZMSCORE, the lex commands, the ZREMRANGEBY family and ZRANGESTORE.
pub fn more(dice: &mut Dice) -> Vec<String> {
    let key = dice.key();
    let other = dice.key();
    let line: Vec<&str> = match dice.below(9) {
        0 if dice.chance(50) => vec!["ZPOPMAX", key],
        0 => vec!["ZPOPMAX", key, dice.pick(INTEGERS)],
        1 => vec!["ZMSCORE", key, dice.pick(MEMBERS), dice.pick(MEMBERS)],
        2 => {
            let mut line = vec![
                dice.pick(&["ZRANGEBYLEX", "ZREVRANGEBYLEX"]),
                key,
                dice.pick(LEX),
                dice.pick(LEX),
            ];
            if dice.chance(30) {
                line.extend(["LIMIT", dice.pick(INTEGERS), dice.pick(INTEGERS)]);
            }
            line
        }
        3 => vec!["ZLEXCOUNT", key, dice.pick(LEX), dice.pick(LEX)],
        4 => vec![
            "ZREMRANGEBYSCORE",
            key,
            dice.pick(BOUNDS),
            dice.pick(BOUNDS),
        ],
        5 => vec![
            "ZREMRANGEBYRANK",
            key,
            dice.pick(INTEGERS),
            dice.pick(INTEGERS),
        ],
        6 => vec!["ZREMRANGEBYLEX", key, dice.pick(LEX), dice.pick(LEX)],
        7 => {
            let (kind, range) = match dice.below(3) {
                0 => (None, INTEGERS),
                1 => (Some("BYSCORE"), BOUNDS),
                _ => (Some("BYLEX"), LEX),
            };
            let mut line = vec![
                "ZRANGESTORE",
                other,
                key,
                dice.pick(range),
                dice.pick(range),
            ];
            line.extend(kind);
            if dice.chance(30) {
                line.push("REV");
            }
            line
        }
        _ => vec!["ZMSCORE", key, dice.pick(MEMBERS)],
    };
    owned(&line)
}

/// ZUNIONSTORE and ZINTERSTORE, whose inputs may be sorted sets or sets.
pub fn setops(dice: &mut Dice) -> Vec<String> {
    let key = dice.key();
    let other = dice.key();
    let mut line = vec![
        dice.pick(&["ZUNIONSTORE", "ZINTERSTORE"]),
        other,
        dice.pick(&["1", "2", "0", "x"]),
        key,
        dice.key(),
    ];
    if dice.chance(30) {
        line.extend(["WEIGHTS", dice.pick(SCORES), dice.pick(SCORES)]);
    }
    if dice.chance(30) {
        line.extend(["AGGREGATE", dice.pick(&["SUM", "MIN", "MAX", "AVG"])]);
    }
    owned(&line)
}
