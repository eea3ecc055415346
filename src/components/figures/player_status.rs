//! Whether the player's run has the hazard: `[data-hazard="true"]` with the store's account of
//! how two clients came to believe they held the lock at once, otherwise what the store held
//! when A resumed that kept them apart.

use crate::components::markup::Markup;
use crate::scenarios::lost_lock::Exclusion;
use crate::scenarios::player::Timeline;

/// The status line, `p.pl-status`.
pub const STATUS: &str = ".pl-status";

/// `p.pl-status[data-hazard]` when two clients believed they held the lock at once, marked as
/// figure 1 marks a release: ✗ when A's release broke exclusion itself, ⚠ when it did its part;
/// otherwise why not.
pub fn status(timeline: &Timeline) -> Markup {
    let (attributes, icon, word, text): (&[(&str, &str)], _, _, _) = match timeline.hazard() {
        Some(hazard) if timeline.exclusion() == Exclusion::BrokenByRelease => (
            &[
                ("class", "pl-status"),
                ("data-hazard", "true"),
                ("data-tone", "bad"),
            ],
            "✗",
            " hazard",
            hazard,
        ),
        Some(hazard) => (
            &[
                ("class", "pl-status"),
                ("data-hazard", "true"),
                ("data-tone", "warn"),
            ],
            "⚠",
            " hazard",
            hazard,
        ),
        None => (
            &[("class", "pl-status"), ("data-tone", "ok")],
            "✓",
            " no hazard",
            timeline.no_hazard(),
        ),
    };
    let mut m = Markup::new();
    m.open("p", attributes)
        .open("span", &[("class", "fig-mark")])
        .element("span", &[("aria-hidden", "true")], icon)
        .text(word)
        .close("span")
        .text(" ")
        .text(&text)
        .close("p");
    m
}
