//! The page's DOM hooks: the attributes and classes the build writes into its markup and that the
//! first wasm, the lab and the tests find elements by. Each name is written once, here; the
//! selector for it is derived from the same literal. README ("Embedding the page and the stable
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

/// A choice's button class, as a literal for selectors built at compile time (`crate::lab`).
macro_rules! choice_class {
    () => {
        "fig-choice"
    };
}

/// The player's and the consoles' panel attributes, as literals for `crate::lab`'s selectors.
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

/// A choice's button, inside its `[data-path]` row.
pub const CHOICE: &str = choice_class!();
/// `.fig-choice`: every choice's button.
pub const CHOICE_SELECTOR: &str = concat!(".", choice_class!());

classes! {
    /// On a `[data-path]` row while its choice is shown.
    LIT, LIT_SELECTOR = "is-lit";
}

// The lab's slots and the panels whose controls need the store.
attributes! {
    /// `<div data-island="<figure hook>">`: the slot the lab mounts a figure into. The attribute
    /// keeps the name embedders already rely on.
    SLOT, SLOT_SELECTOR = "data-island";
    /// `<html data-lab="…">`: where the lab stands (`crate::lab::LabState`).
    LAB, LAB_SELECTOR = "data-lab";
    /// On the control a click or Enter was made on before the lab was live, for it to replay.
    PENDING, PENDING_SELECTOR = "data-lab-pending";
}

/// The scenario player's panel.
pub const PLAYER: &str = player_attribute!();
/// `[data-player]`: the scenario player.
pub const PLAYER_SELECTOR: &str = concat!("[", player_attribute!(), "]");
/// A console's panel: `data-console="<figure>"`.
pub const CONSOLE: &str = console_attribute!();
/// `[data-console]`: every console.
pub const CONSOLE_SELECTOR: &str = concat!("[", console_attribute!(), "]");

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
/// slot, and the lab mounts the live one there.
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
            Figure::CheckLock => "check-lock",
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
            (PLAYER, PLAYER_SELECTOR),
            (CONSOLE, CONSOLE_SELECTOR),
            (THEME_CHOICE, THEME_CHOICE_SELECTOR),
        ] {
            assert_eq!(selector, format!("[{name}]"));
        }
        assert_eq!(CHOICE_SELECTOR, format!(".{CHOICE}"));
        assert_eq!(LIT_SELECTOR, format!(".{LIT}"));
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
