//! List lines: pushes, pops with counts, ranges, edits and moves. No blocking forms outside a
//! transaction (a real BLPOP on an empty list would block the test's connection).

use super::{owned, Dice, INTEGERS, MEMBERS};

pub fn line(dice: &mut Dice) -> Vec<String> {
    let key = dice.key();
    let other = dice.key();
    let line: Vec<&str> = match dice.below(16) {
        0..=2 => {
            let mut line = vec![dice.pick(&["LPUSH", "RPUSH", "LPUSHX", "RPUSHX"]), key];
            for _ in 0..1 + dice.below(3) {
                line.push(dice.pick(MEMBERS));
            }
            line
        }
        3 if dice.chance(50) => vec![dice.pick(&["LPOP", "RPOP"]), key],
        3 => vec![dice.pick(&["LPOP", "RPOP"]), key, dice.pick(INTEGERS)],
        4 => vec!["LLEN", key],
        5 | 6 => vec!["LRANGE", key, dice.pick(INTEGERS), dice.pick(INTEGERS)],
        7 => vec!["LINDEX", key, dice.pick(INTEGERS)],
        8 => vec!["LSET", key, dice.pick(INTEGERS), dice.pick(MEMBERS)],
        9 => vec![
            "LINSERT",
            key,
            dice.pick(&["BEFORE", "AFTER", "x"]),
            dice.pick(MEMBERS),
            dice.pick(MEMBERS),
        ],
        10 => vec!["LREM", key, dice.pick(INTEGERS), dice.pick(MEMBERS)],
        11 => vec!["LTRIM", key, dice.pick(INTEGERS), dice.pick(INTEGERS)],
        12 => {
            let mut line = vec!["LPOS", key, dice.pick(MEMBERS)];
            if dice.chance(40) {
                line.extend(["RANK", dice.pick(&["1", "-1", "2", "0", "x"])]);
            }
            if dice.chance(40) {
                line.extend(["COUNT", dice.pick(&["0", "1", "2", "-1"])]);
            }
            if dice.chance(20) {
                line.extend(["MAXLEN", dice.pick(&["0", "1", "5"])]);
            }
            line
        }
        13 => vec![
            "LMOVE",
            key,
            other,
            dice.pick(&["LEFT", "RIGHT", "UP"]),
            dice.pick(&["LEFT", "RIGHT"]),
        ],
        14 => vec!["RPOPLPUSH", key, other],
        _ => {
            let mut line = vec![dice.pick(&["LPUSH", "RPUSH"]), key];
            for _ in 0..dice.below(6) {
                line.push(dice.pick(&["1", "2", "3", "10", "-4"]));
            }
            line
        }
    };
    owned(&line)
}
