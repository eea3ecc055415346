//! The rules by which hover, a tap and keyboard focus decide what a figure shows, and what pressing
//! a choice does. The first wasm (`lockdive-first`'s `figure`) applies them to every figure's
//! choices for the page's life; the browser tests read their timings from here too.

/// How long a hovering pointer's leave waits before it clears its choice. A pointer crossing the
/// gap between two choices would otherwise show — and announce, through the `aria-live` readout —
/// the idle text for a moment; entering the next choice within the grace cancels the clear.
pub const LEAVE_GRACE_MS: u32 = 150;

/// A figure's selection, kept as three layers so one input clearing does not undo another:
/// the pointer's hover wins over a tap's pin, which wins over keyboard focus — but a focus that
/// arrives while the pointer rests on a choice takes the hover's place, being the newer input
/// (a reader who tabs to a writer and presses Enter commits the writer the figure shows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChoiceLayers<T> {
    hovered: Option<T>,
    pinned: Option<T>,
    focused: Option<T>,
}

impl<T> Default for ChoiceLayers<T> {
    fn default() -> Self {
        ChoiceLayers {
            hovered: None,
            pinned: None,
            focused: None,
        }
    }
}

/// What activating a choice's button (a click, Enter, Space, a tap) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// Show the choice until a tap elsewhere, blur or Esc.
    Pin,
    /// Carry the choice out (figure 2 commits the write).
    Commit,
}

/// The kind of pointer an event came from, as far as the rules care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointerKind {
    /// A mouse or a pen: it hovers before it presses.
    Hovering,
    /// A finger: it never hovers, so its `pointerenter` must not select.
    Touch,
}

impl PointerKind {
    /// The `PointerEvent.pointerType` of a finger; every other kind hovers.
    pub const TOUCH_TYPE: &'static str = "touch";

    /// From a `PointerEvent.pointerType`. The first wasm applies the same rule to the event's
    /// JS string without copying it (`pointer_kind` in `first/src/words.rs`).
    pub fn from_pointer_type(pointer_type: &str) -> Self {
        if pointer_type == Self::TOUCH_TYPE {
            PointerKind::Touch
        } else {
            PointerKind::Hovering
        }
    }
}

impl<T: Copy + PartialEq> ChoiceLayers<T> {
    /// The choice the figure shows now, if any.
    pub fn shown(&self) -> Option<T> {
        self.hovered.or(self.pinned).or(self.focused)
    }

    /// The pointer entered a choice's button.
    pub fn pointer_enter(&mut self, kind: PointerKind, choice: T) {
        if kind == PointerKind::Hovering {
            self.hovered = Some(choice);
        }
    }

    /// The pointer left a choice's button.
    pub fn pointer_leave(&mut self, kind: PointerKind) {
        if kind == PointerKind::Hovering {
            self.hovered = None;
        }
    }

    /// Keyboard (or programmatic) focus reached a choice's button; a hover goes (a pointer's
    /// press focuses the button it hovers, which shows the same choice).
    pub fn focus(&mut self, choice: T) {
        self.focused = Some(choice);
        self.hovered = None;
    }

    /// Focus left a choice's button: what focus and a tap set goes.
    pub fn blur(&mut self) {
        self.focused = None;
        self.pinned = None;
    }

    /// A press landed outside every choice of the figure.
    pub fn tap_elsewhere(&mut self) {
        self.pinned = None;
    }

    /// Esc: every layer clears.
    pub fn clear(&mut self) {
        *self = ChoiceLayers::default();
    }

    /// A choice's button was activated. `shown_at_press` says whether the choice was already shown
    /// when the pointer pressed (`None`: no press, the keyboard activated it). With `can_commit`,
    /// an activation commits only a choice that was already on show — a mouse previewed it by
    /// hovering, the keyboard by focus, a finger by its first tap — and otherwise pins it.
    pub fn activate(
        &mut self,
        choice: T,
        shown_at_press: Option<bool>,
        can_commit: bool,
    ) -> Activation {
        let was_shown = shown_at_press.unwrap_or_else(|| self.shown() == Some(choice));
        if can_commit && was_shown {
            Activation::Commit
        } else {
            self.pinned = Some(choice);
            Activation::Pin
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Activation, ChoiceLayers, PointerKind};

    #[test]
    fn hover_wins_over_a_pin_which_wins_over_focus() {
        let mut layers = ChoiceLayers::default();
        layers.focus(1);
        assert_eq!(layers.shown(), Some(1));
        layers.activate(2, Some(false), false);
        assert_eq!(layers.shown(), Some(2));
        layers.pointer_enter(PointerKind::Hovering, 3);
        assert_eq!(layers.shown(), Some(3));
        layers.pointer_leave(PointerKind::Hovering);
        assert_eq!(layers.shown(), Some(2), "leaving restores the pin");
        layers.tap_elsewhere();
        assert_eq!(layers.shown(), Some(1), "a tap elsewhere restores focus");
    }

    #[test]
    fn a_fingers_enter_does_not_select_but_its_tap_pins() {
        let mut layers = ChoiceLayers::default();
        layers.pointer_enter(PointerKind::Touch, 7);
        assert_eq!(layers.shown(), None);
        assert_eq!(layers.activate(7, Some(false), true), Activation::Pin);
        assert_eq!(layers.shown(), Some(7));
        assert_eq!(
            layers.activate(7, Some(true), true),
            Activation::Commit,
            "the second tap commits what the first one showed"
        );
    }

    #[test]
    fn focus_arriving_while_the_pointer_rests_on_another_choice_shows_and_commits_it() {
        let mut layers = ChoiceLayers::default();
        layers.pointer_enter(PointerKind::Hovering, 33);
        layers.focus(34);
        assert_eq!(layers.shown(), Some(34));
        assert_eq!(layers.activate(34, None, true), Activation::Commit);
        // The pointer moving onto a choice again is the newer input.
        layers.pointer_enter(PointerKind::Hovering, 35);
        assert_eq!(layers.shown(), Some(35));
        layers.pointer_leave(PointerKind::Hovering);
        assert_eq!(layers.shown(), Some(34), "leaving restores the focus");
    }

    #[test]
    fn a_keyboard_activation_commits_the_focused_choice() {
        let mut layers = ChoiceLayers::default();
        layers.focus(35);
        assert_eq!(layers.activate(35, None, true), Activation::Commit);
        assert_eq!(layers.activate(34, None, true), Activation::Pin);
    }

    #[test]
    fn without_a_commit_an_activation_only_pins() {
        let mut layers = ChoiceLayers::default();
        layers.pointer_enter(PointerKind::Hovering, 1);
        assert_eq!(layers.activate(1, Some(true), false), Activation::Pin);
    }

    #[test]
    fn esc_and_blur_clear_what_they_own() {
        let mut layers = ChoiceLayers::default();
        layers.focus(1);
        layers.activate(2, Some(false), false);
        layers.blur();
        assert_eq!(layers.shown(), None, "blur drops focus and the pin");
        layers.pointer_enter(PointerKind::Hovering, 3);
        layers.clear();
        assert_eq!(layers.shown(), None);
    }

    #[test]
    fn only_touch_is_a_finger() {
        assert_eq!(PointerKind::from_pointer_type("touch"), PointerKind::Touch);
        assert_eq!(
            PointerKind::from_pointer_type("mouse"),
            PointerKind::Hovering
        );
        assert_eq!(PointerKind::from_pointer_type("pen"), PointerKind::Hovering);
    }
}
