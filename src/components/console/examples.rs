//! The console's "Commands to try": buttons that put an example command for the figure's store
//! into the prompt, where the learner still presses Enter.

use leptos::html;
use leptos::prelude::*;

use crate::scenarios::console::ConsoleSeed;

/// The examples, `details.console-examples`.
#[component]
pub fn ConsoleExamples(
    /// The figure whose examples these are.
    seed: ConsoleSeed,
    /// The prompt to fill.
    input: NodeRef<html::Input>,
) -> impl IntoView {
    view! {
        <details class="console-examples">
            <summary>"Commands to try"</summary>
            <ul>
                {seed
                    .examples()
                    .into_iter()
                    .map(|example| {
                        let shown = example.clone();
                        view! {
                            <li>
                                <button
                                    type="button"
                                    class="console-example"
                                    on:click=move |_| {
                                        if let Some(el) = input.get() {
                                            el.set_value(&example);
                                            let _ = el.focus();
                                        }
                                    }
                                >
                                    <code>{shown}</code>
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </details>
    }
}
