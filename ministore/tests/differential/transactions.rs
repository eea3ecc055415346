//! Transaction lines: MULTI, EXEC, DISCARD, WATCH, UNWATCH and PUBLISH in among the other
//! families' lines, so commands get queued, EXECABORT happens and watched writes abort EXEC.

use super::{owned, Dice};

pub fn line(dice: &mut Dice) -> Vec<String> {
    let line: Vec<&str> = match dice.below(9) {
        0 | 1 => vec!["MULTI"],
        2 | 3 => vec!["EXEC"],
        4 => vec!["DISCARD"],
        5 | 6 => vec!["WATCH", dice.key(), dice.key()],
        7 => vec!["UNWATCH"],
        _ => vec!["PUBLISH", dice.pick(&["chan", ""]), dice.pick(&["msg", ""])],
    };
    owned(&line)
}
