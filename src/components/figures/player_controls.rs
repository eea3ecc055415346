//! The player's controls as markup: the lease and stall sliders with their live values, the
//! release choice (switchable at any step), and the transport buttons (back, play/pause, forward).
//! The lab keeps these elements and sets their values, states and words in place, from the
//! functions here, so a control the learner holds keeps its focus and its drag.

use super::player_head::PlayHead;
use crate::components::markup::{truth, Markup};
use crate::scenarios::lost_lock::ReleaseChoice;
use crate::scenarios::player::{SliderRange, LEASE_RANGE, STALL_RANGE};

/// The sliders' attribute: `<input data-slider="lease">`. The markup writes it, and the lab's
/// player and the tests find a slider by it.
pub const SLIDER: &str = "data-slider";

/// Every slider: `input[data-slider]`.
pub const SLIDERS: &str = "input[data-slider]";

/// One of the two sliders, `input[data-slider=…]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slider {
    /// The lease every `SET … PX` asks for.
    Lease,
    /// How long A stalls after acquiring.
    Stall,
}

impl Slider {
    /// Both, in the order they are shown.
    pub const ALL: [Slider; 2] = [Slider::Lease, Slider::Stall];

    /// The `data-slider` hook, also the element id's suffix.
    pub fn hook(self) -> &'static str {
        match self {
            Slider::Lease => "lease",
            Slider::Stall => "stall",
        }
    }

    /// The visible label.
    fn label(self) -> &'static str {
        match self {
            Slider::Lease => "Lease (PX)",
            Slider::Stall => "A's stall",
        }
    }

    /// What the slider offers.
    pub fn range(self) -> SliderRange {
        match self {
            Slider::Lease => LEASE_RANGE,
            Slider::Stall => STALL_RANGE,
        }
    }

    /// The value it shows in `head`.
    pub fn value(self, head: &PlayHead) -> u64 {
        match self {
            Slider::Lease => head.lease_ms,
            Slider::Stall => head.stall_ms,
        }
    }

    /// Sets its value in `head`, clamped onto its range.
    pub fn set(self, head: &mut PlayHead, ms: u64) {
        let ms = self.range().clamp(ms);
        match self {
            Slider::Lease => head.lease_ms = ms,
            Slider::Stall => head.stall_ms = ms,
        }
    }

    /// `input[data-slider="<hook>"]`.
    pub fn selector(self) -> String {
        format!("input[{SLIDER}=\"{}\"]", self.hook())
    }

    /// `output[for="pl-<hook>"]`: the `<output>` showing the value.
    pub fn output_selector(self) -> String {
        format!("output[for=\"pl-{}\"]", self.hook())
    }
}

/// `8000 ms`: a slider's value as its `<output>` shows it.
pub fn value_text(ms: u64) -> String {
    format!("{ms} ms")
}

/// `8000 milliseconds`: a slider's `aria-valuetext`.
pub fn value_words(ms: u64) -> String {
    format!("{ms} milliseconds")
}

/// One labelled `<input type=range>` in milliseconds. Its `value` attribute (the default value)
/// is the build's: the learner moves the thumb afterwards, and the lab sets the value only where a
/// shared link says otherwise, never under a dragging pointer.
fn slider(slider: Slider, ms: u64) -> Markup {
    let id = format!("pl-{}", slider.hook());
    let range = slider.range();
    let (min, max, step, value) = (
        range.min.to_string(),
        range.max.to_string(),
        range.step.to_string(),
        ms.to_string(),
    );
    let mut m = Markup::new();
    m.open("div", &[("class", "pl-slider")])
        .open("label", &[("for", &id)])
        .text(slider.label())
        .element(
            "output",
            &[("for", &id), ("class", "pl-value")],
            &value_text(ms),
        )
        .close("label")
        .open(
            "input",
            &[
                ("type", "range"),
                ("id", &id),
                (SLIDER, slider.hook()),
                ("min", &min),
                ("max", &max),
                ("step", &step),
                ("value", &value),
                ("aria-valuetext", &value_words(ms)),
            ],
        )
        .close("div");
    m
}

/// `input[data-player-release=…]`: the release radios' hook.
pub const RELEASE: &str = "data-player-release";

/// `input[data-player-release="<hook>"]`: the release radio for `choice`.
pub fn release_radio(choice: ReleaseChoice) -> String {
    format!("input[{RELEASE}=\"{}\"]", choice.hook())
}

/// The sliders and the release choice.
pub fn knobs(head: &PlayHead) -> Markup {
    let mut m = Markup::new();
    m.open("div", &[("class", "pl-knobs")]);
    for which in Slider::ALL {
        m.append(slider(which, which.value(head)));
    }
    m.open("fieldset", &[("class", "pl-release")])
        .element("legend", &[], "A releases with");
    for choice in ReleaseChoice::ALL {
        let mut attributes = vec![
            ("type", "radio"),
            ("name", "pl-release"),
            (RELEASE, choice.hook()),
        ];
        if head.choice == choice {
            attributes.push(("checked", ""));
        }
        m.open("label", &[])
            .open("input", &attributes)
            .text(choice.label())
            .close("label");
    }
    m.close("fieldset").close("div");
    m
}

/// The back button.
pub const BACK: &str = "[data-player-back]";
/// The play/pause button.
pub const PLAY: &str = "[data-player-play]";
/// The play button's attribute saying whether the player is playing (`true`/`false`).
pub const PLAYING: &str = "data-playing";
/// The forward button.
pub const FORWARD: &str = "[data-player-forward]";

/// The play button's content: what pressing it does, `Play` or `Pause`, after a glyph screen
/// readers skip. Its name is the action, so it has no `aria-pressed`, which with a name that
/// changes too would be read out as "Pause, pressed".
pub fn play_label(playing: bool) -> Markup {
    let (glyph, word) = if playing {
        ("❚❚ ", "Pause")
    } else {
        ("▶ ", "Play")
    };
    let mut m = Markup::new();
    m.element("span", &[("aria-hidden", "true")], glyph)
        .text(word);
    m
}

/// Back, play/pause and forward. Buttons at an end say so with `aria-disabled` instead of
/// `disabled`, so keyboard focus is never thrown off a button the learner is pressing.
pub fn transport(head: &PlayHead) -> Markup {
    let mut m = Markup::new();
    m.open(
        "div",
        &[
            ("class", "pl-transport"),
            ("role", "group"),
            ("aria-label", "Player controls"),
        ],
    )
    .open(
        "button",
        &[
            ("type", "button"),
            ("data-player-back", ""),
            ("aria-disabled", truth(head.at_start())),
        ],
    )
    .element("span", &[("aria-hidden", "true")], "◀ ")
    .text("Back")
    .close("button")
    .open(
        "button",
        &[
            ("type", "button"),
            ("data-player-play", ""),
            (PLAYING, truth(head.playing)),
        ],
    )
    .append(play_label(head.playing))
    .close("button")
    .open(
        "button",
        &[
            ("type", "button"),
            ("data-player-forward", ""),
            ("aria-disabled", truth(head.at_end())),
        ],
    )
    .text("Forward")
    .element("span", &[("aria-hidden", "true")], " ▶")
    .close("button")
    .close("div");
    m
}
