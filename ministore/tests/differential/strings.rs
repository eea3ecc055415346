//! String lines: SET with its options, counters, and the rest of Redis 7.0's string commands.

use super::{owned, Dice, FAR_FUTURE_MS, FAR_FUTURE_S, INTEGERS, VALUES};

const FLOATS: &[&str] = &[
    "0.1",
    "1",
    "-1.5",
    "3.0e2",
    "1e308",
    "inf",
    "x",
    "",
    "5",
    "0",
    "-0.1",
    "1.23456789012345678",
];

/// The commands ministore has had from the start.
pub fn line(dice: &mut Dice) -> Vec<String> {
    let key = dice.key();
    let line: Vec<&str> = match dice.below(6) {
        0 | 1 => {
            let mut line = vec!["SET", key, dice.pick(VALUES)];
            let options = ["NX", "XX", "GET", "KEEPTTL"];
            for _ in 0..dice.below(3) {
                line.push(options[dice.below(options.len())]);
            }
            if dice.chance(30) {
                line.push(dice.pick(&["EX", "PX"]));
                line.push(dice.pick(&["100000", "0", "-1", "x", "200000"]));
            }
            line
        }
        2 => vec!["GET", key],
        3 => vec![dice.pick(&["INCR", "DECR"]), key],
        4 => vec![dice.pick(&["INCRBY", "DECRBY"]), key, dice.pick(INTEGERS)],
        _ => vec![dice.pick(&["MGET", "SETNX"]), key, dice.key()],
    };
    owned(&line)
}

/// APPEND, STRLEN, ranges, GETDEL/GETSET/GETEX, MSET/MSETNX, SETEX/PSETEX and SET's
/// absolute-time options.
pub fn more(dice: &mut Dice) -> Vec<String> {
    let key = dice.key();
    let line: Vec<&str> = match dice.below(12) {
        0 => vec!["APPEND", key, dice.pick(VALUES)],
        1 => vec!["STRLEN", key],
        2 => vec![
            dice.pick(&["GETRANGE", "SUBSTR"]),
            key,
            dice.pick(INTEGERS),
            dice.pick(INTEGERS),
        ],
        3 => vec![
            "SETRANGE",
            key,
            dice.pick(&["0", "1", "-1", "x"]),
            dice.pick(VALUES),
        ],
        4 => vec![dice.pick(&["GETDEL", "GETSET"]), key, dice.pick(VALUES)],
        5 => {
            let mut line = vec!["GETEX", key];
            match dice.below(4) {
                0 => line.push("PERSIST"),
                1 => line.extend([dice.pick(&["EX", "PX"]), dice.pick(&["100000", "0", "x"])]),
                2 => line.extend(["EXAT", dice.pick(FAR_FUTURE_S)]),
                _ => {}
            }
            line
        }
        6 => vec!["GETRANGE", key, "0", "-1"],
        7 => {
            let mut line = vec![dice.pick(&["MSET", "MSETNX"])];
            for _ in 0..1 + dice.below(3) {
                line.extend([dice.key(), dice.pick(VALUES)]);
            }
            if dice.chance(10) {
                line.push(dice.key());
            }
            line
        }
        8 => vec![
            dice.pick(&["SETEX", "PSETEX"]),
            key,
            dice.pick(&["100000", "0", "-1", "x"]),
            dice.pick(VALUES),
        ],
        9 if dice.chance(50) => vec![
            "SET",
            key,
            dice.pick(VALUES),
            "EXAT",
            dice.pick(FAR_FUTURE_S),
        ],
        9 => vec![
            "SET",
            key,
            dice.pick(VALUES),
            "PXAT",
            dice.pick(FAR_FUTURE_MS),
        ],
        10 => vec!["GETDEL", key],
        _ => vec![
            "SET",
            key,
            dice.pick(VALUES),
            "GET",
            dice.pick(&["NX", "XX", "KEEPTTL"]),
        ],
    };
    owned(&line)
}

/// INCRBYFLOAT, and SETRANGE past the end, which pads with zero bytes, then the commands that
/// parse numbers.
pub fn padding(dice: &mut Dice) -> Vec<String> {
    let key = dice.key();
    let line: Vec<&str> = match dice.below(4) {
        0 => vec!["SETRANGE", key, dice.pick(&["3", "10"]), dice.pick(VALUES)],
        1 => vec!["INCRBYFLOAT", key, dice.pick(FLOATS)],
        2 => vec![dice.pick(&["INCR", "DECR"]), key],
        _ => vec!["GET", key],
    };
    owned(&line)
}
