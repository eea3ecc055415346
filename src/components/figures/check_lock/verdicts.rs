//! The picked lock's verdicts: the announced summary (`[data-readout]`, `aria-live="polite"`)
//! and one row per property (`[data-property]` with `data-verdict`), each with the property's
//! line, the explorer's note, where the dive teaches it, and for a broken one the button that
//! opens its counterexample. All of it read from the explorer's `CheckReport`.

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::READOUT;

use super::{CheckState, CUSTOM_ID};
use crate::components::figures::readout::Mark;
use crate::components::rich_text::RichText;
use crate::content::check_lock::lesson;
use crate::scenarios::lockcheck::{CheckReport, PropertyReport, Verdict};

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
    let over = format!(
        "{name}: {holding} of {} properties hold over {} schedules",
        report.properties.len(),
        report.schedules
    );
    let mut said = if broken.is_empty() {
        over
    } else {
        format!("{over}; broken: {}", broken.join("; "))
    };
    if report.cap_reached {
        said.push_str(&format!(
            " — exploring stopped at {} states, so the verdicts cover only the schedules explored",
            report.states
        ));
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

/// `[data-readout]`: what the figure is doing, announced politely when it changes to a verdict.
#[component]
pub fn Summary(
    /// The picked lock's id.
    picked: RwSignal<Option<String>>,
    /// The figure's state.
    state: RwSignal<CheckState>,
) -> impl IntoView {
    let name = move || {
        picked.with(|p| match p.as_deref() {
            Some(CUSTOM_ID) => "your lock".to_string(),
            Some(id) => id.to_string(),
            None => String::new(),
        })
    };
    let text = move || {
        state.with(|s| match s {
            CheckState::Idle => {
                "Pick a lock to check it: its scripts, then a verdict for each property."
                    .to_string()
            }
            CheckState::Editing => {
                "Paste a release (and optionally an acquire and an extend), then press Check."
                    .to_string()
            }
            CheckState::Running(_) => format!("Checking {}…", name()),
            CheckState::Done(report, _) => summary(&report.lock_name, report),
            CheckState::Failed(_) => {
                format!("{} could not be checked: see the error below.", name())
            }
        })
    };
    let tone = move || {
        state.with(|s| match s {
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
        })
    };
    view! {
        <p class="fig-readout ck-summary" {..custom_attribute(READOUT, true)} aria-live="polite" data-tone=tone>
            {text}
        </p>
    }
}

/// The explorer's note, its closing section anchor (`… (#s3)`, as the CLI prints it) made a link
/// to that section (`§3`).
fn note_view(note: &str) -> AnyView {
    let anchored = note
        .strip_suffix(')')
        .and_then(|rest| rest.rsplit_once(" (#"))
        .filter(|(_, id)| id.starts_with('s') && id[1..].chars().all(|c| c.is_ascii_digit()));
    match anchored {
        Some((text, id)) => {
            let href = format!("#{id}");
            let label = format!("§{}", &id[1..]);
            view! { {text.to_string()} " (" <a href=href>{label}</a> ")" }.into_any()
        }
        None => note.to_string().into_any(),
    }
}

/// The rows, `ul[data-verdicts]`, once a report is in.
#[component]
pub fn VerdictRows(
    /// The figure's state.
    state: RwSignal<CheckState>,
    /// Which property's counterexample is open (its index in the report).
    open: RwSignal<Option<usize>>,
) -> impl IntoView {
    move || {
        state.with(|s| match s {
            CheckState::Done(report, _) => {
                let rows = report
                    .properties
                    .iter()
                    .enumerate()
                    .map(|(index, property)| view! { <VerdictRow index property=property.clone() open /> })
                    .collect_view();
                Some(view! { <ul class="ck-verdicts" data-verdicts>{rows}</ul> })
            }
            _ => None,
        })
    }
}

/// One property's row.
#[component]
fn VerdictRow(
    /// Its place in the report.
    index: usize,
    /// The explorer's report on it.
    property: PropertyReport,
    /// Which counterexample is open.
    open: RwSignal<Option<usize>>,
) -> impl IntoView {
    let mark = mark(property.verdict);
    let steps = property.counterexample.as_ref().map(|c| c.steps.len());
    let button = steps.map(|steps| {
        let expanded = move || (open.get() == Some(index)).to_string();
        let label = move || {
            if open.get() == Some(index) {
                format!("Hide the counterexample ({steps} steps)")
            } else {
                format!("Show the counterexample ({steps} steps)")
            }
        };
        view! {
            <button
                type="button"
                class="ck-open"
                data-open-counterexample
                aria-expanded=expanded
                aria-controls="ck-counterexample"
                on:click=move |_| open.update(|o| *o = if *o == Some(index) { None } else { Some(index) })
            >
                {label}
            </button>
        }
    });
    view! {
        <li
            class="ck-verdict"
            data-property=property.property.hook()
            data-verdict=property.verdict.hook()
            data-tone=mark.tone()
        >
            <span class="fig-mark">
                <span aria-hidden="true">{mark.icon()}</span>
                " "
                {mark.word.clone()}
            </span>
            " "
            <span class="ck-property">{property.property.label()}</span>
            <span class="ck-note">{property.note.as_deref().map(note_view)}</span>
            <span class="ck-lesson">
                <RichText markup=lesson(property.property) />
            </span>
            {button}
        </li>
    }
}
