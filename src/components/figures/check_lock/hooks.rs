//! The check-lock figure's stable hooks as selectors (README, "Embedding the page and the stable
//! hooks"): the markup writes these attributes, and the browser tests and the page benchmark find
//! the figure's parts by these constants. The build's markup holds the picker and the static table
//! (`tests/prerender.rs` checks both); the lab puts in the verdict rows, the progress line and the
//! counterexample.

/// `figure[data-figure="check-lock"]`: the whole figure, static verdicts and live part. Written
/// out as a constant for the tests' `format!`s; a unit test holds it equal to the contract's
/// `Figure::CheckLock.selector()`.
pub const FIGURE: &str = r#"figure[data-figure="check-lock"]"#;

/// The catalogue's verdicts as the build computed them: one table, always visible.
pub use lockdive_contract::hooks::STATIC_VERDICTS_SELECTOR as STATIC_VERDICTS;

/// One catalogue row of the static table: `tr[data-static-lock="<id>"]`.
pub fn static_row(id: &str) -> String {
    format!(r#"tr[data-static-lock="{id}"]"#)
}

/// A picker button: `[data-lock="<id>"]` (`aria-pressed` says which is picked).
pub fn lock(id: &str) -> String {
    format!(r#"[data-lock="{id}"]"#)
}

/// Every picker button.
pub const LOCKS: &str = "[data-lock]";

/// The picked lock's verdict for one property: `[data-property="<hook>"]` with `data-verdict`.
pub fn property(hook: &str) -> String {
    format!(r#"[data-property="{hook}"]"#)
}

/// Every verdict row of the picked lock.
pub const PROPERTIES: &str = "[data-property]";

/// The `aria-live="polite"` line that announces the picked lock's verdicts.
pub use lockdive_contract::hooks::READOUT_SELECTOR as READOUT;

/// The live line: `explored N schedules (M states) in T ms`, with `data-state` `running` or `done`.
pub const PROGRESS: &str = "[data-check-progress]";

/// A broken property's button that opens its counterexample.
pub fn open_counterexample(hook: &str) -> String {
    format!(r#"[data-property="{hook}"] [data-open-counterexample]"#)
}

/// The open counterexample: its step list and its player.
pub const COUNTEREXAMPLE: &str = "[data-counterexample]";

/// The counterexample's steps, one `li` each (`aria-current="step"` on the shown one).
pub const COUNTEREXAMPLE_STEPS: &str = "[data-counterexample] ol li";

/// The step list (focusable: the arrow keys move through it).
pub const STEP_LIST: &str = "[data-counterexample] .ck-cx-steps";

/// The player's frame, which the lab fills as the shown step moves.
pub const FRAME: &str = "[data-counterexample] .pl-frame";

/// The player's back and forward buttons, the shown step's exchange, clock and store table.
pub const STEP_BACK: &str = "[data-counterexample] [data-step-back]";
pub const STEP_FORWARD: &str = "[data-counterexample] [data-step-forward]";
pub const STEP_NOW: &str = "[data-counterexample] [data-step-now]";
pub const STEP_CLOCK: &str = "[data-counterexample] [data-step-clock]";
pub const STEP_KEYS: &str = "[data-counterexample] [data-step-keys]";

/// A custom lock's text area: `textarea[data-script="acquire"|"release"|"extend"]`.
pub fn script(op: &str) -> String {
    format!(r#"textarea[data-script="{op}"]"#)
}

/// The custom lock's Check button.
pub const CHECK_BUTTON: &str = "[data-check-run]";

/// Why a custom lock could not be checked (ministore's error, inline).
pub const ERROR: &str = "[data-check-error]";

/// The picked catalogue lock's scripts as they run, and where they come from.
pub const SCRIPTS: &str = "[data-lock-scripts]";
pub const PROVENANCE: &str = "[data-provenance]";

#[cfg(test)]
mod tests {
    use lockdive_contract::Figure;

    #[test]
    fn the_figure_selector_is_the_contracts() {
        assert_eq!(super::FIGURE, Figure::CheckLock.selector());
    }

    #[test]
    fn the_selectors_name_the_attributes_the_markup_writes() {
        use super::super::{custom, explore, picker, verdicts};
        assert_eq!(super::lock("x"), format!(r#"[{}="x"]"#, picker::LOCK));
        assert_eq!(super::LOCKS, format!("[{}]", picker::LOCK));
        assert_eq!(super::PROGRESS, format!("[{}]", explore::PROGRESS));
        assert_eq!(super::CHECK_BUTTON, format!("[{}]", custom::CHECK_RUN));
        assert_eq!(
            super::script("release"),
            format!(r#"textarea[{}="release"]"#, custom::SCRIPT)
        );
        assert!(super::open_counterexample("p")
            .ends_with(&format!("[{}]", verdicts::OPEN_COUNTEREXAMPLE)));
    }
}
