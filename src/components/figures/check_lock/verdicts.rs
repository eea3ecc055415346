//! The picked lock's verdicts: the announced summary (`[data-readout]`, `aria-live="polite"`)
//! and one row per property (`[data-property]` with `data-verdict`), each with the property's
//! line, the explorer's note, where the dive teaches it, and for a broken one the button that
//! opens its counterexample. All of it read from the explorer's `CheckReport`.

use lockdive_contract::hooks::{READOUT, TONE};

use super::{CheckState, CUSTOM_ID};
use crate::components::figures::readout::Mark;
use crate::components::markup::Markup;
use crate::components::rich_text::rich_markup;
use crate::content::check_lock::lesson;
use crate::scenarios::lockcheck::{CheckReport, PropertyReport, Verdict};

/// The attribute of a verdict row, naming its property (`Property::hook`).
pub const PROPERTY: &str = "data-property";

/// The attribute of the button that opens a broken property's counterexample.
pub const OPEN_COUNTEREXAMPLE: &str = "data-open-counterexample";

/// ✓ holds / ✗ broken: the icon and the word carry it, colour only repeats it.
pub fn mark(verdict: Verdict) -> Mark {
    Mark::new(verdict == Verdict::Holds, verdict.hook())
}

/// The report in one sentence: how many properties hold, over how many schedules, and which
/// break.
pub fn summary(name: &str, report: &CheckReport) -> String {
    let broken: Vec<&str> = report
        .properties
        .iter()
        .filter(|p| p.verdict == Verdict::Broken)
        .map(|p| p.property.label())
        .collect();
    let holding = report.properties.len() - broken.len();
    // Schedules are counted once exploring completes; a capped run says what it covered.
    let explored = if report.cap_reached {
        format!("the {} states explored", report.states)
    } else {
        format!("{} schedules", report.schedules)
    };
    let mut over = format!(
        "{name}: {holding} of {} properties hold over {explored}",
        report.properties.len()
    );
    // A property that holds only because the lock lacks what it judges says so, as the table's
    // cell does ("the lock has no extend").
    let vacuous: Vec<&str> = report
        .properties
        .iter()
        .filter_map(PropertyReport::holds_only_because)
        .collect();
    match vacuous.as_slice() {
        [] => {}
        [why] => over.push_str(&format!(", one of them only because {why}")),
        whys => over.push_str(&format!(
            ", {} of them only because {}",
            whys.len(),
            whys.join(" and ")
        )),
    }
    let mut said = if broken.is_empty() {
        over
    } else {
        format!("{over}; broken: {}", broken.join("; "))
    };
    if report.cap_reached {
        said.push_str(
            " — exploring stopped at its cap, so the verdicts cover only the schedules through \
             those states",
        );
    }
    if let Some(fault) = &report.script_error {
        said.push_str(&format!(
            "; a step of the lock answered an error after {} steps: {}",
            fault.schedule.steps.len(),
            fault.error
        ));
    }
    said.push('.');
    said
}

/// Whose lock the readout names: the picked id, or "your lock".
fn picked_name(picked: Option<&str>) -> String {
    match picked {
        Some(CUSTOM_ID) => "your lock".to_string(),
        Some(id) => id.to_string(),
        None => String::new(),
    }
}

/// What the readout says in `state`, with `picked` the picked lock's id.
pub fn readout_text(state: &CheckState, picked: Option<&str>) -> String {
    match state {
        CheckState::Idle => {
            "Pick a lock to check it: its scripts, then a verdict for each property.".to_string()
        }
        CheckState::Editing => {
            "Paste a release (and optionally an acquire and an extend), then press Check."
                .to_string()
        }
        CheckState::Running(_) => format!("Checking {}…", picked_name(picked)),
        CheckState::Done(report, _) => summary(&report.lock_name, report),
        CheckState::Failed(_) => format!(
            "{} could not be checked: see the error below.",
            picked_name(picked)
        ),
    }
}

/// The readout's `data-tone`: `ok` when every property holds, `bad` for a broken one or an
/// error, `idle` otherwise.
pub fn readout_tone(state: &CheckState) -> &'static str {
    match state {
        CheckState::Done(report, _) => {
            if report
                .properties
                .iter()
                .all(|p| p.verdict == Verdict::Holds)
            {
                "ok"
            } else {
                "bad"
            }
        }
        CheckState::Failed(_) => "bad",
        _ => "idle",
    }
}

/// `[data-readout]`: what the figure is doing, announced politely when it changes to a verdict;
/// the lab changes its text and tone in place.
pub fn readout(state: &CheckState, picked: Option<&str>) -> Markup {
    let mut m = Markup::new();
    m.element(
        "p",
        &[
            ("class", "fig-readout ck-summary"),
            (READOUT, ""),
            ("aria-live", "polite"),
            (TONE, readout_tone(state)),
        ],
        &readout_text(state, picked),
    );
    m
}

/// The explorer's note, its closing section anchor (`… (#s3)`, as the CLI prints it) made a link
/// to that section (`§3`).
fn note_markup(note: &str, m: &mut Markup) {
    let anchored = note
        .strip_suffix(')')
        .and_then(|rest| rest.rsplit_once(" (#"))
        .filter(|(_, id)| id.starts_with('s') && id[1..].chars().all(|c| c.is_ascii_digit()));
    match anchored {
        Some((text, id)) => {
            m.text(text)
                .text(" (")
                .element(
                    "a",
                    &[("href", &format!("#{id}"))],
                    &format!("§{}", &id[1..]),
                )
                .text(")");
        }
        None => {
            m.text(note);
        }
    }
}

/// The label of the button that opens or hides a counterexample of `steps` steps.
pub fn open_label(steps: usize, open: bool) -> String {
    let verb = if open { "Hide" } else { "Show" };
    format!("{verb} the counterexample ({steps} steps)")
}

/// The rows, `ul[data-verdicts]`, every counterexample closed.
pub fn verdict_rows(report: &CheckReport) -> Markup {
    let mut m = Markup::new();
    m.open("ul", &[("class", "ck-verdicts"), ("data-verdicts", "")]);
    for property in &report.properties {
        verdict_row(property, &mut m);
    }
    m.close("ul");
    m
}

/// One property's row.
fn verdict_row(property: &PropertyReport, m: &mut Markup) {
    let mark = mark(property.verdict);
    m.open(
        "li",
        &[
            ("class", "ck-verdict"),
            (PROPERTY, property.property.hook()),
            ("data-verdict", property.verdict.hook()),
            (TONE, mark.tone()),
        ],
    )
    .open("span", &[("class", "fig-mark")])
    .element("span", &[("aria-hidden", "true")], mark.icon())
    .text(" ")
    .text(&mark.word)
    .close("span")
    .text(" ")
    .element(
        "span",
        &[("class", "ck-property")],
        property.property.label(),
    )
    .open("span", &[("class", "ck-note")]);
    if let Some(note) = &property.note {
        note_markup(note, m);
    }
    m.close("span")
        .open("span", &[("class", "ck-lesson")])
        .append(rich_markup(lesson(property.property)))
        .close("span");
    if let Some(counterexample) = &property.counterexample {
        m.element(
            "button",
            &[
                ("type", "button"),
                ("class", "ck-open"),
                (OPEN_COUNTEREXAMPLE, ""),
                ("aria-expanded", "false"),
                ("aria-controls", super::counterexample::ID),
            ],
            &open_label(counterexample.steps.len(), false),
        );
    }
    m.close("li");
}
