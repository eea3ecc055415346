//! The page's stable hooks (README, "Embedding the page and the stable hooks") as selectors, and what
//! the two hover figures' readouts must say at rest and for each choice: one copy for every browser
//! test that visits them.

use lockdive_contract::hooks::{
    with_value, CHOICE_SELECTOR, FIGURE_SELECTOR, INTERACTIVE, READOUT_SELECTOR, SELECTED, SLOT,
    SLOT_LIVE, SLOT_SELECTOR, STATIC_VERDICTS_SELECTOR, WRITER,
};
use lockdive_contract::Figure;

use super::Expect;

// Written out as constants for the tests' `format!`s and `within`s; the test at the end holds each
// equal to the contract's hook and the scenario's name for the choice.
pub const LOST_LOCK: &str = r#"figure[data-figure="lost-lock"]"#;
pub const FENCE: &str = r#"figure[data-figure="fence"]"#;
pub const ATTEMPTS: &str = r#"figure[data-figure="attempts"]"#;
pub const BLIND_DEL: &str = r#"[data-release="blind-del"]"#;
pub const TOKEN_CHECKED: &str = r#"[data-release="token-checked"]"#;
/// Figure 1's scenario player.
pub const LOST_LOCK_PLAYER: &str = r#"figure[data-figure="lost-lock"] [data-player]"#;

/// Every figure target: the two releases, the three writers, and the attempts figure's moves.
/// Every figure target: the two releases, the three writers, and the attempts figure's moves.
pub const CHOICE_TARGETS: &str =
    "[data-release], [data-writer], figure[data-figure] [data-complete], \
                                  figure[data-figure] [data-retry]";

/// Nothing selected in figure 1: the setup, and what to do.
pub const LOST_LOCK_IDLE: Expect = Expect {
    says: &["stalled past its lease", "B took the same key", "hover"],
    never: &["exclusion broken", "lock stands"],
};
pub const BLIND_DEL_OUTCOME: Expect = Expect {
    says: &[
        "deletes B's lock",
        "the key is empty",
        "two clients now proceed",
        "exclusion broken",
    ],
    never: &["lock stands", "hover"],
};
pub const TOKEN_CHECKED_OUTCOME: Expect = Expect {
    says: &[r#"reads "xyz" ≠ "abc""#, "returns 0", "B's lock stands"],
    never: &["exclusion broken", "deletes", "hover"],
};

/// Nothing selected in figure 2: the resource has seen 34.
pub const FENCE_IDLE: Expect = Expect {
    says: &["has accepted token 34", "hover a writer"],
    never: &["rejected", "max seen becomes"],
};
pub const WRITER_33_OUTCOME: Expect = Expect {
    says: &["33 < 34", "rejected"],
    never: &["accepted,", "max seen becomes", "hover"],
};
pub const WRITER_34_OUTCOME: Expect = Expect {
    says: &["34 ≥ 34", "accepted"],
    never: &["rejected", "max seen becomes", "hover"],
};
pub const WRITER_35_OUTCOME: Expect = Expect {
    says: &["35 > 34", "accepted", "max seen becomes 35"],
    never: &["rejected", "hover"],
};

/// A figure-2 writer's button, `[data-writer="33"]`.
pub fn writer(token: u8) -> String {
    with_value(WRITER, &token.to_string())
}

/// A script for the page with the contract's hooks put in for its placeholders, so a probe never
/// spells a hook itself: `@FIGURE@` (`[data-figure]`), `@LOST_LOCK@` and `@FENCE@` (those figures),
/// `@READOUT@`, `@STATIC_VERDICTS@`, `@CHOICE@` (`.fig-choice`), `@SLOT@` (a lab slot), and the
/// attribute names `@SLOT_NAME@`, `@SLOT_LIVE@`, `@SELECTED@` and `@INTERACTIVE@`. The selectors hold double quotes: put them in
/// single-quoted JS strings.
pub fn script(template: &str) -> String {
    [
        ("@FIGURE@", FIGURE_SELECTOR.to_string()),
        ("@LOST_LOCK@", Figure::LostLock.selector()),
        ("@FENCE@", Figure::Fence.selector()),
        ("@READOUT@", READOUT_SELECTOR.to_string()),
        ("@STATIC_VERDICTS@", STATIC_VERDICTS_SELECTOR.to_string()),
        ("@CHOICE@", CHOICE_SELECTOR.to_string()),
        ("@SLOT@", SLOT_SELECTOR.to_string()),
        ("@SLOT_NAME@", SLOT.to_string()),
        ("@SLOT_LIVE@", SLOT_LIVE.to_string()),
        ("@SELECTED@", SELECTED.to_string()),
        ("@INTERACTIVE@", INTERACTIVE.to_string()),
    ]
    .iter()
    .fold(template.to_string(), |js, (placeholder, hook)| {
        js.replace(placeholder, hook)
    })
}

/// `target` inside `container`, as one selector.
pub fn within(container: &str, target: &str) -> String {
    format!("{container} {target}")
}

#[cfg(test)]
mod tests {
    use lockdive::scenarios::lost_lock::ReleaseChoice;
    use lockdive_contract::hooks::{with_value, RELEASE};
    use lockdive_contract::Figure;

    use lockdive_contract::hooks::{
        FIGURE_SELECTOR, PLAYER_SELECTOR, RELEASE_SELECTOR, WRITER_SELECTOR,
    };

    use super::{
        ATTEMPTS, BLIND_DEL, CHOICE_TARGETS, FENCE, LOST_LOCK, LOST_LOCK_PLAYER, TOKEN_CHECKED,
    };

    #[test]
    fn the_selectors_are_the_contracts_hooks() {
        assert_eq!(LOST_LOCK, Figure::LostLock.selector());
        assert_eq!(FENCE, Figure::Fence.selector());
        assert_eq!(ATTEMPTS, Figure::Attempts.selector());
        assert_eq!(
            LOST_LOCK_PLAYER,
            format!("{} {PLAYER_SELECTOR}", Figure::LostLock.selector())
        );
        assert_eq!(
            CHOICE_TARGETS,
            format!(
                "{RELEASE_SELECTOR}, {WRITER_SELECTOR}, figure{FIGURE_SELECTOR} [data-complete], \
                 figure{FIGURE_SELECTOR} [data-retry]"
            )
        );
        assert_eq!(
            BLIND_DEL,
            with_value(RELEASE, ReleaseChoice::BlindDel.hook())
        );
        assert_eq!(
            TOKEN_CHECKED,
            with_value(RELEASE, ReleaseChoice::TokenChecked.hook())
        );
    }
}
