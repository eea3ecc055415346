//! `ScenarioSteps`: the numbered scenario of §1, each step a short label and a sentence.

use leptos::prelude::*;

use super::rich_text::RichText;
use crate::content::model::Step;

/// An `<ol>`: the list numbers the steps, the label names who acts.
#[component]
pub fn ScenarioSteps(
    /// The steps, in order.
    steps: &'static [Step],
) -> impl IntoView {
    view! {
        <ol class="scenario-steps">
            {steps
                .iter()
                .map(|step| {
                    view! {
                        <li>
                            <span class="step-label">{step.label}":"</span>
                            " "
                            <RichText markup=step.text />
                        </li>
                    }
                })
                .collect_view()}
        </ol>
    }
}
