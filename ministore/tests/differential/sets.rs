//! Set lines. Redis 7.0 keeps small all-integer sets as intsets (sorted) and the rest as hash
//! tables (random order), so whole-set replies are compared sorted; SPOP and SRANDMEMBER,
//! random by nature, are not generated.

use super::{owned, Dice, MEMBERS};

const SET_MEMBERS: &[&str] = &["a", "b", "c", "1", "2", "10", "-3", "", "apple"];

pub fn line(dice: &mut Dice) -> Vec<String> {
    let key = dice.key();
    let other = dice.key();
    let line: Vec<&str> = match dice.below(12) {
        0..=2 => {
            let mut line = vec!["SADD", key];
            for _ in 0..1 + dice.below(4) {
                line.push(dice.pick(SET_MEMBERS));
            }
            line
        }
        3 => vec!["SREM", key, dice.pick(SET_MEMBERS), dice.pick(MEMBERS)],
        4 => vec!["SCARD", key],
        5 => vec!["SISMEMBER", key, dice.pick(SET_MEMBERS)],
        6 => vec![
            "SMISMEMBER",
            key,
            dice.pick(SET_MEMBERS),
            dice.pick(SET_MEMBERS),
        ],
        7 => vec!["SMEMBERS", key],
        8 => vec![dice.pick(&["SINTER", "SUNION", "SDIFF"]), key, other],
        9 => vec![
            dice.pick(&["SINTERSTORE", "SUNIONSTORE", "SDIFFSTORE"]),
            dice.key(),
            key,
            other,
        ],
        10 => {
            let mut line = vec![
                "SINTERCARD",
                dice.pick(&["1", "2", "0", "3", "x"]),
                key,
                other,
            ];
            if dice.chance(40) {
                line.extend(["LIMIT", dice.pick(&["0", "1", "-1", "x"])]);
            }
            line
        }
        _ => vec!["SMOVE", key, other, dice.pick(SET_MEMBERS)],
    };
    owned(&line)
}
