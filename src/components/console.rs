//! `StoreConsole`: a redis-cli-like prompt under a figure, over its own copy of that figure's
//! store. The line rules, history and pastes live in `scenarios::console`; this view only wires
//! keys (Enter, ↑, ↓), pastes and buttons to it and renders the log.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;

use crate::scenarios::console::{paste, Console, ConsoleSeed, LogEntry, Paste, Tone, PROMPT};

/// The class an output line gets: errors are red (and already say `(error)`), notes muted.
fn tone_class(tone: Tone) -> &'static str {
    match tone {
        Tone::Reply => "console-out",
        Tone::Error => "console-out console-error",
        Tone::Note => "console-out console-note",
    }
}

/// One command and what it printed.
#[component]
fn ConsoleEntry(
    /// The logged command and its output.
    entry: LogEntry,
) -> impl IntoView {
    view! {
        <div class="console-entry">
            <div class="console-in">
                <span class="console-prompt" aria-hidden="true">{PROMPT}" "</span>
                <span>{entry.input}</span>
            </div>
            {entry
                .output
                .into_iter()
                .map(|line| view! { <div class=tone_class(line.tone)>{line.text}</div> })
                .collect_view()}
        </div>
    }
}

/// Buttons that put an example command into the prompt (the learner still presses Enter).
#[component]
fn ConsoleExamples(
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

/// The console, `[data-console="<figure>"]`: a label, the `aria-live` log and an `<input>`.
#[component]
pub fn StoreConsole(
    /// Which figure's store the console starts from.
    seed: ConsoleSeed,
) -> impl IntoView {
    let console = StoredValue::new_local(Console::new(seed));
    let log = RwSignal::new(Vec::<LogEntry>::new());
    let input = NodeRef::<html::Input>::new();
    let log_box = NodeRef::<html::Div>::new();
    let input_id = format!("console-{}", seed.hook());

    let refresh = move || log.set(console.with_value(|c| c.log().to_vec()));
    let run_prompt = move || {
        let Some(el) = input.get() else { return };
        let line = el.value();
        el.set_value("");
        console.update_value(|c| {
            let _entry = c.submit(&line);
        });
        refresh();
    };
    let on_keydown = move |e: ev::KeyboardEvent| {
        let Some(el) = input.get() else { return };
        let recalled = match e.key().as_str() {
            "Enter" => {
                e.prevent_default();
                run_prompt();
                return;
            }
            "ArrowUp" => console
                .try_update_value(|c| c.history_up(&el.value()))
                .flatten(),
            "ArrowDown" => console.try_update_value(|c| c.history_down()).flatten(),
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
            Paste::RunLines(lines) => {
                console.update_value(|c| c.submit_lines(&lines));
                refresh();
            }
        }
    };
    let reset = move |_| {
        console.update_value(Console::reset);
        refresh();
    };
    // Keep the newest entry in view as the log grows.
    Effect::new(move |_| {
        log.track();
        if let Some(el) = log_box.get() {
            el.set_scroll_top(el.scroll_height());
        }
    });

    view! {
        <section class="console" data-console=seed.hook() aria-label=seed.label()>
            <p class="console-label">{seed.label()}</p>
            <ConsoleExamples seed input />
            <div
                class="console-log"
                role="log"
                aria-live="polite"
                aria-label="Console output"
                node_ref=log_box
                data-console-log
            >
                <For each=move || log.get() key=|entry| entry.id let:entry>
                    <ConsoleEntry entry />
                </For>
            </div>
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
                    aria-describedby=format!("console-help-{}", seed.hook())
                    node_ref=input
                    on:keydown=on_keydown
                    on:paste=on_paste
                />
                <button type="button" class="console-button" on:click=move |_| run_prompt()>"Run"</button>
                <button type="button" class="console-button" on:click=reset>"Reset"</button>
            </div>
            <p class="console-help" id=format!("console-help-{}", seed.hook())>
                "Enter runs the line, ↑/↓ walk the history. A pasted multi-line script becomes one quoted "
                <code>"EVAL"</code>
                " argument; add its key count, keys and arguments after it."
            </p>
        </section>
    }
}
