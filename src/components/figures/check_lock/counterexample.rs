//! A broken property's counterexample (`[data-counterexample]`): the explorer's shortest breaking
//! schedule as a step list — who did what, the command as sent, the store's reply — and a step
//! player over it like figure 1's: back and forward, the shown step's exchange, the virtual clock
//! and every key the store held after it (the same table figure 1's player shows). The lab moves
//! the shown step: it marks the list's current item, sets the buttons' `aria-disabled` and puts
//! [`frame`] in the frame.

use crate::components::figures::player_frame::key_table;
use crate::components::markup::{truth, Markup};
use crate::scenarios::cli_text;
use crate::scenarios::lockcheck::{CheckReport, ScheduleStep};

/// The section's id, which the rows' buttons name in `aria-controls`.
pub const ID: &str = "ck-counterexample";

/// The class of the list's shown step.
pub const CURRENT: &str = "is-current";

/// Who acted, as the list and the player say it: `A`, or `clock` for a stall.
fn actor(step: &ScheduleStep) -> &'static str {
    step.client.map_or("clock", |c| c.name())
}

/// The step's command as the actor sent it, then its reply.
fn exchange(step: &ScheduleStep, m: &mut Markup) {
    m.element(
        "code",
        &[],
        &format!("{}> {}", actor(step), step.sent.short),
    )
    .text(" → ")
    .element("code", &[], &cli_text(&step.sent.reply));
}

/// The property at `index`'s counterexample, its first step shown; `None` when it has none.
pub fn counterexample(report: &CheckReport, index: usize) -> Option<Markup> {
    let property = report.properties.get(index)?;
    let steps = &property.counterexample.as_ref()?.steps;
    let label = format!(
        "Counterexample: {} — the shortest schedule that breaks it",
        property.property.label()
    );
    let mut m = Markup::new();
    m.open(
        "section",
        &[
            ("class", "ck-cx"),
            ("id", ID),
            ("data-counterexample", ""),
            ("aria-label", &label),
        ],
    )
    .element("p", &[("class", "ck-cx-title")], &label)
    .open(
        "ol",
        &[
            ("class", "ck-cx-steps"),
            ("tabindex", "0"),
            (
                "aria-label",
                "Steps: ← and → move through them, Home and End jump to the ends",
            ),
        ],
    );
    for (i, step) in steps.iter().enumerate() {
        let current: &[(&str, &str)] = if i == 0 {
            &[("class", CURRENT), ("aria-current", "step")]
        } else {
            &[]
        };
        let mut attributes = current.to_vec();
        attributes.push(("data-action", step.action.hook()));
        m.open("li", &attributes)
            .open("button", &[("type", "button"), ("tabindex", "-1")])
            .element("span", &[("class", "ck-step-no")], &(i + 1).to_string())
            .element("span", &[("class", "ck-step-note")], &step.note)
            .element(
                "code",
                &[("class", "ck-step-line")],
                &format!("{}> {}", actor(step), step.sent.short),
            )
            .text(" → ")
            .element("code", &[], &cli_text(&step.sent.reply))
            .close("button")
            .close("li");
    }
    let last = steps.len() <= 1;
    m.close("ol")
        .open(
            "div",
            &[
                ("class", "pl-transport"),
                ("role", "group"),
                ("aria-label", "Counterexample player"),
            ],
        )
        .open(
            "button",
            &[
                ("type", "button"),
                ("data-step-back", ""),
                ("aria-disabled", "true"),
            ],
        )
        .element("span", &[("aria-hidden", "true")], "◀ ")
        .text("Back")
        .close("button")
        .open(
            "button",
            &[
                ("type", "button"),
                ("data-step-forward", ""),
                ("aria-disabled", truth(last)),
            ],
        )
        .text("Forward")
        .element("span", &[("aria-hidden", "true")], " ▶")
        .close("button")
        .close("div")
        .open("div", &[("class", "pl-frame"), ("aria-live", "polite")])
        .append(frame(steps, 0))
        .close("div")
        .close("section");
    Some(m)
}

/// The player's frame at step `at` of `steps`: what happened, the exchange, the virtual clock and
/// the store's keys after it.
pub fn frame(steps: &[ScheduleStep], at: usize) -> Markup {
    let mut m = Markup::new();
    let Some(step) = steps.get(at) else {
        return m;
    };
    m.element(
        "p",
        &[("class", "pl-now"), ("data-step-now", "")],
        &format!("Step {} of {}: {}", at + 1, steps.len(), step.note),
    )
    .open("p", &[("class", "pl-exchange")]);
    exchange(step, &mut m);
    m.close("p")
        .open("p", &[("class", "pl-clocks")])
        .open("span", &[])
        .text("virtual clock ")
        .element(
            "strong",
            &[("data-step-clock", "")],
            &format!("t = {} ms", step.clock_ms),
        )
        .close("span")
        .close("p")
        .append(key_table(
            &format!("The store after step {}", at + 1),
            &step.keys_after,
            &[("data-step-keys", "")],
        ));
    m
}
