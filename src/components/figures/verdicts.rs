//! The static verdicts under a figure: every choice's outcome, always visible, so the figure
//! says everything without hover, focus or tap.

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::{STATIC_VERDICTS, TONE};

use super::readout::Mark;

/// One choice's outcome as the static list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerdictLine {
    /// ✓ or ✗ and its word.
    pub mark: Mark,
    /// The verdict sentence the scenario rendered (`33 (paused) → 33 < 34, rejected`).
    pub text: String,
}

/// The figure's only `[data-static-verdicts]` list.
#[component]
pub fn StaticVerdicts(
    /// One line per choice, in the order the figure offers them.
    lines: Vec<VerdictLine>,
) -> impl IntoView {
    view! {
        <div class="fig-verdicts" {..custom_attribute(STATIC_VERDICTS, true)}>
            <p class="fig-verdicts-title">"Static verdicts"</p>
            <ul>
                {lines
                    .into_iter()
                    .map(|line| {
                        view! {
                            // A ⚠ line's words read as a plain success; the mark's caution
                            // is said in words for a screen reader (✓ and ✗ lines say theirs).
                            <li {..custom_attribute(TONE, line.mark.tone())}>
                                <span class="fig-mark" aria-hidden="true">{line.mark.icon()}</span>
                                " "
                                {line.mark.warn.then(|| view! { <span class="fig-sr">"warning: "</span> })}
                                {line.text}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </div>
    }
}
