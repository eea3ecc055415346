//! Hash lines. Fields stay short so Redis keeps hashes as listpacks, whose order is insertion
//! order.

use super::{owned, Dice, FIELDS, INTEGERS, VALUES};

/// The commands ministore has had from the start.
pub fn line(dice: &mut Dice) -> Vec<String> {
    let key = dice.key();
    let line: Vec<&str> = match dice.below(10) {
        0 | 1 => {
            let mut line = vec!["HSET", key];
            for _ in 0..1 + dice.below(3) {
                line.push(dice.pick(FIELDS));
                line.push(dice.pick(VALUES));
            }
            line
        }
        2 => vec!["HGET", key, dice.pick(FIELDS)],
        3 => vec!["HDEL", key, dice.pick(FIELDS), dice.pick(FIELDS)],
        4 => vec!["HGETALL", key],
        5 => vec!["HINCRBY", key, dice.pick(FIELDS), dice.pick(INTEGERS)],
        6 => vec!["HMGET", key, dice.pick(FIELDS), dice.pick(FIELDS)],
        7 => vec![dice.pick(&["HEXISTS", "HLEN"]), key, dice.pick(FIELDS)],
        8 => vec!["HSETNX", key, dice.pick(FIELDS), dice.pick(VALUES)],
        _ => vec![dice.pick(&["HKEYS", "HVALS"]), key],
    };
    owned(&line)
}

/// HINCRBYFLOAT, HSTRLEN, HMSET and a whole-hash HSCAN (a listpack answers in one page).
pub fn more(dice: &mut Dice) -> Vec<String> {
    let key = dice.key();
    let line: Vec<&str> = match dice.below(4) {
        0 => vec![
            "HINCRBYFLOAT",
            key,
            dice.pick(FIELDS),
            dice.pick(&["0.1", "1", "-2.5", "x", "1e3", "inf"]),
        ],
        1 => vec!["HSTRLEN", key, dice.pick(FIELDS)],
        2 => {
            let mut line = vec!["HMSET", key];
            for _ in 0..1 + dice.below(2) {
                line.extend([dice.pick(FIELDS), dice.pick(VALUES)]);
            }
            line
        }
        _ => {
            let mut line = vec!["HSCAN", key, "0"];
            if dice.chance(50) {
                line.extend(["MATCH", dice.pick(&["*", "a*", "?", "[ab]*", "b"])]);
            }
            line
        }
    };
    owned(&line)
}
