//! The page's DOM hooks that the first wasm reads: the attributes and classes the build writes into
//! its markup and that the first wasm, the lab and the tests find elements by. Each name is written
//! once, here; the selector for it is derived from the same literal. (Hooks only the lab and the
//! tests read are constants beside the markup function that writes them.) README ("Embedding the page and the stable
//! hooks") documents the ones embedders may rely on.

/// Defines, for each hook, its attribute's name and the `[name]` selector that finds it.
macro_rules! attributes {
    ($($(#[$doc:meta])* $name:ident, $selector:ident = $value:literal;)*) => {$(
        $(#[$doc])*
        pub const $name: &str = $value;
        #[doc = concat!("`[", $value, "]`: every element carrying [`", stringify!($name), "`].")]
        pub const $selector: &str = concat!("[", $value, "]");
    )*};
}

/// Defines, for each class hook, its name and the `.name` selector that finds it.
macro_rules! classes {
    ($($(#[$doc:meta])* $name:ident, $selector:ident = $value:literal;)*) => {$(
        $(#[$doc])*
        pub const $name: &str = $value;
        #[doc = concat!("`.", $value, "`: every element with the class [`", stringify!($name), "`].")]
        pub const $selector: &str = concat!(".", $value);
    )*};
}

/// The player's, the consoles' and the lock picker's panel attributes, as literals for
/// `crate::lab`'s selectors.
macro_rules! player_attribute {
    () => {
        "data-player"
    };
}
macro_rules! console_attribute {
    () => {
        "data-console"
    };
}
macro_rules! lock_picker_attribute {
    () => {
        "data-lock-picker"
    };
}

// A figure, its choices and its readout: what the first wasm reads to make a prerendered figure
// answer, what the live figure writes, and what the tests check.
attributes! {
    /// `<figure data-figure="lost-lock">`: a figure, named by [`Figure::hook`].
    FIGURE, FIGURE_SELECTOR = "data-figure";
    /// On a `<figure>`: the path of the choice it shows (absent while it shows none).
    SELECTED, SELECTED_SELECTOR = "data-selected";
    /// The figure's one readout, an `aria-live="polite"` region.
    READOUT, READOUT_SELECTOR = "data-readout";
    /// `<template data-readout-for="<path>">`: a readout the build rendered for one choice (`""`
    /// for the idle one), which the first wasm swaps in.
    READOUT_FOR, READOUT_FOR_SELECTOR = "data-readout-for";
    /// A readout's, a row's or a verdict's tone: `ok`, `warn`, `bad` or `idle`.
    TONE, TONE_SELECTOR = "data-tone";
    /// A choice's row: `data-path="<key>"`, the key `data-selected` and `data-readout-for` share.
    PATH, PATH_SELECTOR = "data-path";
    /// On a choice's button: it commits its choice (figure 2's writers), which needs the store.
    COMMITS, COMMITS_SELECTOR = "data-commits";
    /// The verdicts the build computed, outside the lab's slot, never re-rendered.
    STATIC_VERDICTS, STATIC_VERDICTS_SELECTOR = "data-static-verdicts";
    /// Figure 1's release buttons: `data-release="blind-del" | "token-checked"`.
    RELEASE, RELEASE_SELECTOR = "data-release";
    /// Figure 2's writer buttons: `data-writer="33"`.
    WRITER, WRITER_SELECTOR = "data-writer";
}

classes! {
    /// A choice's button, inside its `[data-path]` row.
    CHOICE, CHOICE_SELECTOR = "fig-choice";
    /// The words inside a choice's button (figure 2's writer and its role, which the lab
    /// relabels as the fence moves).
    CHOICE_LABEL, CHOICE_LABEL_SELECTOR = "fig-choice-label";
    /// On a `[data-path]` row while its choice is shown.
    LIT, LIT_SELECTOR = "is-lit";
}

// A commit crosses from the first wasm to the lab on the figure, and its outcomes come back.
attributes! {
    /// `<figure data-commit="35 33">`: the choices (their rows' `data-path`s) the first wasm asks
    /// the lab to commit, oldest first ([`ask_commit`], [`asked_commits`]). The lab removes it as
    /// it commits, so each request is carried out once, whether it was made before the lab was
    /// live or after; every press made before the lab arrives is kept.
    COMMIT, COMMIT_SELECTOR = "data-commit";
    /// On a `<template data-readout-for>`: what the last press came to (the outcome of its commit,
    /// or its refusal), shown while its choice stays on show; beside it, the same key's template
    /// is the what-if against the committed state.
    COMMITTED, COMMITTED_SELECTOR = "data-committed";
}

/// The most commits a figure keeps asked for while the lab has not taken them (it is not live, or
/// never arrives): one more than figure 2's log holds, so that every press the log could take is
/// kept, and the reader's latest press after them, which the readout then answers.
pub const MAX_ASKED_COMMITS: usize = 33;

/// A figure's [`COMMIT`] value (`asked`, if it has one) with `key` asked for after the others. At
/// [`MAX_ASKED_COMMITS`], `key` takes the last one's place. A key is a row's path, which holds no
/// space.
pub fn ask_commit(asked: Option<&str>, key: &str) -> String {
    // Written on the string itself, not through a list of keys: the first wasm links this, and
    // every byte of it is on the page load. The keys are one space apart, as this writes them.
    let mut kept = asked.unwrap_or_default();
    let spaces = |text: &str| text.bytes().filter(|b| *b == b' ').count();
    while !kept.is_empty() && spaces(kept) + 1 >= MAX_ASKED_COMMITS {
        let last = kept.bytes().rposition(|b| b == b' ').unwrap_or(0);
        kept = kept.get(..last).unwrap_or_default();
    }
    if kept.is_empty() {
        key.to_string()
    } else {
        format!("{kept} {key}")
    }
}

/// The keys a [`COMMIT`] value asks to commit, oldest first.
pub fn asked_commits(asked: &str) -> impl Iterator<Item = &str> {
    asked.split(' ').filter(|key| !key.is_empty())
}

/// Fired on the figure after [`COMMIT`] is set: wakes a live lab to take the request.
pub const COMMIT_EVENT: &str = "lockdive:commit";

/// Fired on a figure by the lab once it has re-rendered the figure's readout sources: the first
/// wasm re-reads them. The `CustomEvent`'s `detail` is the pressed choice's key when a press caused
/// it (committed or refused), `null` otherwise.
pub const OUTCOMES_EVENT: &str = "lockdive:outcomes";

// The lab's slots and the panels whose controls need the store.
attributes! {
    /// `<div data-island="<live part>">`: the slot of one live part, which the lab makes live
    /// where it stands (the names below). The attribute keeps the name embedders already rely on.
    SLOT, SLOT_SELECTOR = "data-island";
    /// On a slot once its lab chunk has made the part in it live, where the build left it.
    SLOT_LIVE, SLOT_LIVE_SELECTOR = "data-island-live";
    /// `<html data-lab-figures="…">`: where the figures' lab chunk stands
    /// (`crate::lab::LabChunk::Figures`, `crate::lab::LabState`).
    LAB_FIGURES, LAB_FIGURES_SELECTOR = "data-lab-figures";
    /// `<html data-lab-store="…">`: where the store's lab chunk (the consoles) stands.
    LAB_STORE, LAB_STORE_SELECTOR = "data-lab-store";
    /// `<html data-lab-check="…">`: where the lock checker's lab chunk stands.
    LAB_CHECK, LAB_CHECK_SELECTOR = "data-lab-check";
    /// On the control a click or Enter was made on before the lab was live, for it to replay.
    PENDING, PENDING_SELECTOR = "data-lab-pending";
}

/// The live parts' slot names, `data-island`'s values: figure 1's scenario player.
pub const PLAYER_SLOT: &str = "player";
/// `console-<figure hook>`: the console under a figure.
pub const CONSOLE_SLOT_PREFIX: &str = "console-";
/// Figure 2's resource bar: the max seen so far and the reset button.
pub const FENCE_RESOURCE_SLOT: &str = "fence-resource";
/// `fence-lane-<token>`: what the fence would do with one writer's write now.
pub const FENCE_LANE_SLOT_PREFIX: &str = "fence-lane-";
/// Figure 2's readout sources: the what-ifs against the committed fence and the last commit.
pub const FENCE_READOUTS_SLOT: &str = "fence-readouts";
/// Figure 2's commit log.
pub const FENCE_LOG_SLOT: &str = "fence-log";
/// The lock checker's picker, verdicts and counterexample: [`Figure::CheckLock`]'s hook.
pub const CHECK_LOCK_SLOT: &str = "check-lock";

/// The scenario player's panel.
pub const PLAYER: &str = player_attribute!();
/// `[data-player]`: the scenario player.
pub const PLAYER_SELECTOR: &str = concat!("[", player_attribute!(), "]");
/// A console's panel: `data-console="<figure>"`.
pub const CONSOLE: &str = console_attribute!();
/// `[data-console]`: every console.
pub const CONSOLE_SELECTOR: &str = concat!("[", console_attribute!(), "]");
/// The lock checker's picker, the group of its lock buttons.
pub const LOCK_PICKER: &str = lock_picker_attribute!();
/// `[data-lock-picker]`: the lock checker's picker.
pub const LOCK_PICKER_SELECTOR: &str = concat!("[", lock_picker_attribute!(), "]");

// The page around the figures.
attributes! {
    /// `<html data-theme="light" | "dark">`; absent: follow `prefers-color-scheme`.
    THEME, THEME_SELECTOR = "data-theme";
    /// The theme switch's buttons: `data-theme-choice="light" | "dark" | "system"`.
    THEME_CHOICE, THEME_CHOICE_SELECTOR = "data-theme-choice";
    /// `<html data-embed>`: embed mode (`?embed=1`), set by index.html's head script.
    EMBED, EMBED_SELECTOR = "data-embed";
    /// `<html data-interactive>`: the figures answer the pointer and keyboard.
    INTERACTIVE, INTERACTIVE_SELECTOR = "data-interactive";
    /// `<a data-course="<slug>">`: a link to another course page, re-pointed at the page's base.
    COURSE, COURSE_SELECTOR = "data-course";
}

/// Which interactive figure: the page's content places them, the build renders each in its lab
/// slot, and the lab makes its live parts live there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// Figure 1: blind DEL vs the token-checked release.
    LostLock,
    /// Figure 2: the fenced write against a resource that has seen token 34.
    Fence,
    /// Figure 3 (§4): EchoMQ's `attempts` fence refusing a reaped worker's stale complete.
    Attempts,
    /// The lock checker (`#check`): catalogue or custom locks, every schedule, five properties.
    CheckLock,
}

impl Figure {
    /// Every figure, in page order.
    pub const ALL: [Figure; 4] = [
        Figure::LostLock,
        Figure::Fence,
        Figure::Attempts,
        Figure::CheckLock,
    ];

    /// The figure's name: its `data-figure` value and its lab slot's.
    pub fn hook(self) -> &'static str {
        match self {
            Figure::LostLock => "lost-lock",
            Figure::Fence => "fence",
            Figure::Attempts => "attempts",
            Figure::CheckLock => CHECK_LOCK_SLOT,
        }
    }

    /// The figure a `data-figure` or slot name names.
    pub fn from_hook(name: &str) -> Option<Figure> {
        Figure::ALL.into_iter().find(|figure| figure.hook() == name)
    }

    /// `figure[data-figure="<hook>"]`.
    pub fn selector(self) -> String {
        format!("figure[{FIGURE}=\"{}\"]", self.hook())
    }

    /// `[data-island="<hook>"]`: the figure's lab slot.
    pub fn slot_selector(self) -> String {
        format!("[{SLOT}=\"{}\"]", self.hook())
    }
}

/// `[name="value"]`: the selector for one value of an attribute hook.
pub fn with_value(attribute: &str, value: &str) -> String {
    format!("[{attribute}=\"{value}\"]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_selector_is_made_from_its_name() {
        for (name, selector) in [
            (FIGURE, FIGURE_SELECTOR),
            (READOUT_FOR, READOUT_FOR_SELECTOR),
            (PATH, PATH_SELECTOR),
            (SLOT, SLOT_SELECTOR),
            (SLOT_LIVE, SLOT_LIVE_SELECTOR),
            (PLAYER, PLAYER_SELECTOR),
            (CONSOLE, CONSOLE_SELECTOR),
            (THEME_CHOICE, THEME_CHOICE_SELECTOR),
        ] {
            assert_eq!(selector, format!("[{name}]"));
        }
        assert_eq!(CHOICE_SELECTOR, format!(".{CHOICE}"));
        assert_eq!(LIT_SELECTOR, format!(".{LIT}"));
        assert_eq!(CHOICE_LABEL_SELECTOR, format!(".{CHOICE_LABEL}"));
    }

    #[test]
    fn commits_asked_for_are_kept_oldest_first_and_the_latest_press_always() {
        let mut asked = None;
        for key in ["35", "33", "35"] {
            asked = Some(ask_commit(asked.as_deref(), key));
        }
        assert_eq!(asked.as_deref(), Some("35 33 35"));
        assert_eq!(
            asked_commits(asked.as_deref().unwrap_or_default()).collect::<Vec<_>>(),
            ["35", "33", "35"]
        );
        assert_eq!(ask_commit(Some(""), "34"), "34");
        assert_eq!(asked_commits(" 33  34 ").collect::<Vec<_>>(), ["33", "34"]);
        assert_eq!(asked_commits("").count(), 0);
        // At the most a figure keeps, the latest press takes the last one's place.
        let mut asked = String::new();
        for _ in 0..MAX_ASKED_COMMITS {
            asked = ask_commit(Some(&asked), "34");
        }
        assert_eq!(asked_commits(&asked).count(), MAX_ASKED_COMMITS);
        let latest = ask_commit(Some(&asked), "35");
        let keys: Vec<&str> = asked_commits(&latest).collect();
        assert_eq!(keys.len(), MAX_ASKED_COMMITS);
        assert_eq!(
            keys[..MAX_ASKED_COMMITS - 1],
            vec!["34"; MAX_ASKED_COMMITS - 1]
        );
        assert_eq!(keys.last(), Some(&"35"));
    }

    #[test]
    fn a_figure_is_found_by_its_hook_and_by_nothing_else() {
        for figure in Figure::ALL {
            assert_eq!(Figure::from_hook(figure.hook()), Some(figure));
        }
        assert_eq!(Figure::from_hook("Fence"), None);
        assert_eq!(Figure::from_hook(""), None);
        assert_eq!(Figure::Fence.selector(), r#"figure[data-figure="fence"]"#);
        assert_eq!(
            Figure::CheckLock.slot_selector(),
            r#"[data-island="check-lock"]"#
        );
        assert_eq!(with_value(WRITER, "33"), r#"[data-writer="33"]"#);
    }
}
