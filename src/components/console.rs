//! `StoreConsole`: a redis-cli-like prompt under a figure, over its own copy of that figure's
//! store. The build renders the console's shell — its label, the commands to try, an empty log,
//! the prompt and its help — and the store's lab chunk makes that markup live where it stands
//! (`lab::console`), rendering the log's entries itself. The line rules, history and pastes live
//! in `scenarios::console`; [`class`] names the elements the two sides find each other by.

views! {
    mod examples;
    mod log;
    mod prompt;

    use leptos::attr::custom::custom_attribute;
    use leptos::prelude::*;
    use lockdive_contract::hooks::CONSOLE;

    use crate::scenarios::console::ConsoleSeed;
    use examples::ConsoleExamples;
    use log::ConsoleLog;
    use prompt::ConsolePrompt;
}

/// The classes of the console's elements: the shell is built with them, the lab finds the
/// controls and renders the log's entries by them, and style/figures.css styles them.
pub mod class {
    /// An example command's button; its `<code>` is the line it puts in the prompt.
    pub const EXAMPLE: &str = "console-example";
    /// The log, `[data-console-log]`, which holds the entries.
    pub const LOG: &str = "console-log";
    /// One logged command and what it printed.
    pub const ENTRY: &str = "console-entry";
    /// The logged command's line.
    pub const INPUT_LINE: &str = "console-in";
    /// The prompt's text, before the input and before each logged command.
    pub const PROMPT: &str = "console-prompt";
    /// An output line; errors and notes add a class of their own.
    pub const OUTPUT: &str = "console-out";
    /// An output line that is an error reply (red, and it already says `(error)`).
    pub const ERROR: &str = "console-error";
    /// An output line that is a note, not a reply (muted).
    pub const NOTE: &str = "console-note";
    /// The prompt's `<input>`.
    pub const INPUT: &str = "console-input";
    /// The Run and Reset buttons: both are `console-button`s.
    pub const BUTTON: &str = "console-button";
    /// Run: runs the prompt's line, as Enter does.
    pub const RUN: &str = "console-run";
    /// Reset: back to the figure's store with an empty log.
    pub const RESET: &str = "console-reset";

    /// `.<class>`: the selector of one of the classes above.
    pub fn selector(class: &str) -> String {
        format!(".{class}")
    }
}

/// The console, `[data-console="<figure>"]`: a label, the examples, the `aria-live` log and the
/// prompt.
#[cfg(feature = "views")]
#[component]
pub fn StoreConsole(
    /// Which figure's store the console starts from.
    seed: ConsoleSeed,
) -> impl IntoView {
    let label = seed.label();
    let aria_label = label.clone();
    view! {
        <section class="console" {..custom_attribute(CONSOLE, seed.hook())} aria-label=aria_label>
            <p class="console-label">{label}</p>
            <ConsoleExamples seed />
            <ConsoleLog />
            <ConsolePrompt seed />
        </section>
    }
}
