//! `StoreConsole`: a redis-cli-like prompt under a figure, over its own copy of that figure's
//! store. It owns the console's state; the line rules, history and pastes live in
//! `scenarios::console`, and `examples`, `log` and `prompt` render it and wire the reader to it.

mod examples;
mod log;
mod prompt;

use leptos::attr::custom::custom_attribute;
use leptos::html;
use leptos::prelude::*;
use lockdive_contract::hooks::CONSOLE;

use crate::scenarios::console::{Console, ConsoleSeed};
use examples::ConsoleExamples;
use log::ConsoleLog;
use prompt::ConsolePrompt;

/// The console, `[data-console="<figure>"]`: a label, the `aria-live` log and an `<input>`.
#[component]
pub fn StoreConsole(
    /// Which figure's store the console starts from.
    seed: ConsoleSeed,
) -> impl IntoView {
    let console = RwSignal::new_local(Console::new(seed));
    let log = Memo::new(move |_| console.with(|c| c.log().to_vec()));
    // Shared by the examples, which fill the prompt, and the prompt itself.
    let input = NodeRef::<html::Input>::new();

    let label = seed.label();
    let aria_label = label.clone();
    view! {
        <section class="console" {..custom_attribute(CONSOLE, seed.hook())} aria-label=aria_label>
            <p class="console-label">{label}</p>
            <ConsoleExamples seed input />
            <ConsoleLog log />
            <ConsolePrompt seed console input />
        </section>
    }
}
