//! The console's prompt row and its help: the `<input>` and the Run and Reset buttons, which the
//! lab wires to the console's line rules (Enter, ↑/↓, pastes).

use leptos::prelude::*;

use super::class;
use crate::scenarios::console::{ConsoleSeed, PROMPT};

/// The prompt, `div.console-prompt-row`, and the help it is described by, `p.console-help`.
#[component]
pub fn ConsolePrompt(
    /// Which figure's console this is (the ids of the input and its help).
    seed: ConsoleSeed,
) -> impl IntoView {
    let input_id = format!("console-{}", seed.hook());
    let help_id = format!("console-help-{}", seed.hook());
    let button = |action: &str| format!("{} {action}", class::BUTTON);

    view! {
        <div class="console-prompt-row">
            // Three consoles share the prompt; a screen reader's list of fields tells them apart.
            <label class=class::PROMPT for=input_id.clone()>
                {PROMPT}
                <span class="fig-sr">{format!(" ({} console)", seed.hook())}</span>
            </label>
            <input
                id=input_id
                class=class::INPUT
                type="text"
                autocomplete="off"
                autocapitalize="off"
                spellcheck="false"
                enterkeyhint="send"
                aria-describedby=help_id.clone()
            />
            <button type="button" class=button(class::RUN)>"Run"</button>
            <button type="button" class=button(class::RESET)>"Reset"</button>
        </div>
        <p class="console-help" id=help_id>
            "Enter runs the line, ↑/↓ walk the history. A pasted multi-line script becomes one quoted "
            <code>"EVAL"</code>
            " argument; add its key count, keys and arguments after it."
        </p>
    }
}
