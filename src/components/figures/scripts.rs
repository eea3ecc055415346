//! The full scripts a figure runs, behind a `<details data-scripts>` disclosure: each shown from
//! the same `&'static str` the figure's store run executes, with the figure's words on what the
//! scripts are and lines a run produced about them.

use leptos::prelude::*;

use crate::components::code::CodeBlock;
use crate::content::model::CodeSample;

/// The disclosure, `details[data-scripts]`.
#[component]
pub fn ScriptsDisclosure(
    /// The summary line: what the scripts are.
    summary: String,
    /// Each script's file name and code sample (the executed text).
    scripts: Vec<(&'static str, &'static CodeSample)>,
    /// Sentences under the summary, rendered from store runs.
    notes: Vec<String>,
) -> impl IntoView {
    view! {
        <details class="at-scripts" data-scripts>
            <summary>{summary}</summary>
            {notes.into_iter().map(|note| view! { <p class="at-script-note">{note}</p> }).collect_view()}
            {scripts
                .into_iter()
                .map(|(name, sample)| {
                    view! {
                        <p class="at-script-name"><code>{name}</code></p>
                        <CodeBlock sample />
                    }
                })
                .collect_view()}
        </details>
    }
}
