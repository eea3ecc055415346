//! Whether the player's run has the hazard: `[data-hazard="true"]` with the store's account of
//! how two clients came to believe they held the lock at once, otherwise what the store held
//! when A resumed that kept them apart.

use super::readout::Mark;
use crate::components::markup::Markup;
use crate::scenarios::lost_lock::Exclusion;
use crate::scenarios::player::Timeline;

/// The status line, `p.pl-status`.
pub const STATUS: &str = ".pl-status";

/// The status line in `div.pl-verdict`, a polite live region that stays in place while the lab
/// replaces the line inside it, so that a new lease, stall or release is announced with its
/// outcome (the frame's note, the other live region, names only the step shown).
pub fn verdict(timeline: &Timeline) -> Markup {
    let mut m = Markup::new();
    m.open(
        "div",
        &[
            ("class", "pl-verdict"),
            ("aria-live", "polite"),
            ("aria-atomic", "true"),
        ],
    )
    .append(status(timeline))
    .close("div");
    m
}

/// `p.pl-status[data-hazard]` when two clients believed they held the lock at once, marked as
/// figure 1 marks a release: ✗ when A's release broke exclusion itself, ⚠ when it did its part;
/// otherwise ✓ and why not.
pub fn status(timeline: &Timeline) -> Markup {
    let (mark, text) = match timeline.hazard() {
        Some(hazard) if timeline.exclusion() == Exclusion::BrokenByRelease => {
            (Mark::new(false, "hazard"), hazard)
        }
        Some(hazard) => (Mark::warn("hazard"), hazard),
        None => (Mark::new(true, "no hazard"), timeline.no_hazard()),
    };
    let hazard: &[(&str, &str)] = if mark.ok {
        &[]
    } else {
        &[("data-hazard", "true")]
    };
    let mut attributes = vec![("class", "pl-status")];
    attributes.extend_from_slice(hazard);
    attributes.push(("data-tone", mark.tone()));
    let mut m = Markup::new();
    m.open("p", &attributes)
        .open("span", &[("class", "fig-mark")])
        .element("span", &[("aria-hidden", "true")], mark.icon())
        .text(" ")
        .text(&mark.word)
        .close("span")
        .text(" ")
        .text(&text)
        .close("p");
    m
}
