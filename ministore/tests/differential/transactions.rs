//! Transaction lines: MULTI, EXEC, DISCARD, WATCH and UNWATCH in among the other families'
//! lines, so commands get queued, EXECABORT happens and watched writes abort EXEC; and PUBLISH
//! and SPUBLISH.

use super::{owned, Dice};

pub fn line(dice: &mut Dice) -> Vec<String> {
    let line: Vec<&str> = match dice.below(8) {
        0 | 1 => vec!["MULTI"],
        2 | 3 => vec!["EXEC"],
        4 => vec!["DISCARD"],
        5 | 6 => vec!["WATCH", dice.key(), dice.key()],
        _ => vec!["WATCH", dice.key()],
    };
    owned(&line)
}

/// PUBLISH and SPUBLISH: no client subscribes here, so Redis counts 0 receivers.
pub fn publish(dice: &mut Dice) -> Vec<String> {
    owned(&[
        dice.pick(&["PUBLISH", "SPUBLISH"]),
        dice.pick(&["chan", ""]),
        dice.pick(&["msg", ""]),
    ])
}

/// UNWATCH, which Redis queues inside MULTI like any other command.
pub fn unwatch(_dice: &mut Dice) -> Vec<String> {
    owned(&["UNWATCH"])
}
