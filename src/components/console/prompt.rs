//! The console's prompt row and its help: the `<input>` with Enter, ↑/↓ and pastes wired to the
//! console's line rules, and the Run and Reset buttons.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;

use crate::scenarios::console::{paste, Console, ConsoleSeed, Paste, PROMPT};

/// The prompt, `div.console-prompt-row`, and the help it is described by, `p.console-help`.
#[component]
pub fn ConsolePrompt(
    /// Which figure's console this is (the ids of the input and its help).
    seed: ConsoleSeed,
    /// The console the prompt runs lines in.
    console: RwSignal<Console, LocalStorage>,
    /// The prompt's `<input>`, which the examples fill too.
    input: NodeRef<html::Input>,
) -> impl IntoView {
    let input_id = format!("console-{}", seed.hook());
    let help_id = format!("console-help-{}", seed.hook());

    let run_prompt = move || {
        let Some(el) = input.get() else { return };
        let line = el.value();
        el.set_value("");
        console.update(|c| {
            let _entry = c.submit(&line);
        });
    };
    let on_keydown = move |e: ev::KeyboardEvent| {
        let Some(el) = input.get() else { return };
        // Walking the history changes nothing the page shows, so it notifies nobody.
        let recalled = match e.key().as_str() {
            "Enter" => {
                e.prevent_default();
                run_prompt();
                return;
            }
            "ArrowUp" => console
                .try_update_untracked(|c| c.history_up(&el.value()))
                .flatten(),
            "ArrowDown" => console.try_update_untracked(|c| c.history_down()).flatten(),
            _ => return,
        };
        e.prevent_default();
        if let Some(line) = recalled {
            let end = u32::try_from(line.len()).unwrap_or(u32::MAX);
            el.set_value(&line);
            let _ = el.set_selection_range(end, end);
        }
    };
    let on_paste = move |e: ev::ClipboardEvent| {
        let Some(el) = input.get() else { return };
        let Some(pasted) = e.clipboard_data().and_then(|d| d.get_data("text").ok()) else {
            return;
        };
        let value = el.value();
        let utf16: Vec<u16> = value.encode_utf16().collect();
        let at = |n: Option<u32>| (n.unwrap_or(0) as usize).min(utf16.len());
        let start = at(el.selection_start().ok().flatten());
        let end = at(el.selection_end().ok().flatten()).max(start);
        let before = String::from_utf16_lossy(&utf16[..start]);
        let after = String::from_utf16_lossy(&utf16[end..]);
        e.prevent_default();
        match paste(&before, &pasted) {
            Paste::Insert(text) => {
                let caret =
                    u32::try_from(before.encode_utf16().count() + text.encode_utf16().count())
                        .unwrap_or(u32::MAX);
                el.set_value(&format!("{before}{text}{after}"));
                let _ = el.set_selection_range(caret, caret);
            }
            Paste::RunLines(lines) => console.update(|c| c.submit_lines(&lines)),
        }
    };
    let reset = move |_| console.update(Console::reset);

    view! {
        <div class="console-prompt-row">
            <label class="console-prompt" for=input_id.clone()>{PROMPT}</label>
            <input
                id=input_id
                class="console-input"
                type="text"
                autocomplete="off"
                autocapitalize="off"
                spellcheck="false"
                enterkeyhint="send"
                aria-describedby=help_id.clone()
                node_ref=input
                on:keydown=on_keydown
                on:paste=on_paste
            />
            <button type="button" class="console-button" on:click=move |_| run_prompt()>"Run"</button>
            <button type="button" class="console-button" on:click=reset>"Reset"</button>
        </div>
        <p class="console-help" id=help_id>
            "Enter runs the line, ↑/↓ walk the history. A pasted multi-line script becomes one quoted "
            <code>"EVAL"</code>
            " argument; add its key count, keys and arguments after it."
        </p>
    }
}
