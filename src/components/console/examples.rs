//! The console's "Commands to try": buttons that put an example command for the figure's store
//! into the prompt (the lab wires them), where the learner still presses Enter.

use leptos::prelude::*;

use super::class;
use crate::scenarios::console::ConsoleSeed;

/// The examples, `details.console-examples`.
#[component]
pub fn ConsoleExamples(
    /// The figure whose examples these are.
    seed: ConsoleSeed,
) -> impl IntoView {
    view! {
        <details class="console-examples">
            <summary>"Commands to try"</summary>
            <ul>
                {seed
                    .examples()
                    .into_iter()
                    .map(|example| {
                        view! {
                            <li>
                                <button type="button" class=class::EXAMPLE>
                                    <code>{example}</code>
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </details>
    }
}
