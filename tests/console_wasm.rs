//! The console in headless Chromium: type a command and press Enter, walk the history with ↑/↓,
//! see errors marked, and stop a runaway script without freezing the page.
#![cfg(target_arch = "wasm32")]

mod dom;

use dom::{key_down, tick, Mounted};
use leptos::prelude::*;
use lockdive::components::console::StoreConsole;
use lockdive::components::figures::{LivePart, LiveSlot};
use lockdive::lab::store;
use lockdive::scenarios::console::{Console, ConsoleSeed, MAX_LOG_ENTRIES};
use lockdive_contract::hooks::PENDING;
use lockdive_contract::lab::PendingAction;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{ClipboardEvent, ClipboardEventInit, DataTransfer, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A console seeded with `seed` as the build leaves it, in its slot, made live by the store's
/// chunk.
async fn mount_console(seed: ConsoleSeed) -> Mounted {
    let console = built_console(seed).await;
    assert_eq!(
        store::LAB.mount_in(&console.root),
        1,
        "one console made live"
    );
    console
}

/// The console as the build renders it, with no listeners.
async fn built_console(seed: ConsoleSeed) -> Mounted {
    Mounted::built(move || {
        view! {
            <LiveSlot part=LivePart::Console(seed)>
                <StoreConsole seed />
            </LiveSlot>
        }
    })
    .await
}

/// The console's prompt and log, read and driven as a learner would.
impl Mounted {
    fn input(&self) -> HtmlInputElement {
        self.find("[data-console] input").unchecked_into()
    }

    fn key(&self, key: &str) {
        key_down(&self.input(), key, true);
    }

    /// Types `line` into the prompt and presses Enter.
    async fn run(&self, line: &str) {
        self.input().set_value(line);
        self.key("Enter");
        tick().await;
    }

    fn log(&self) -> String {
        self.find("[data-console-log]")
            .text_content()
            .unwrap_or_default()
    }

    /// The output lines of the newest entry.
    fn last_output(&self) -> Vec<(String, String)> {
        let entries = self
            .root
            .query_selector_all(".console-entry")
            .expect("a valid selector");
        let last: HtmlElement = entries
            .item(entries.length().saturating_sub(1))
            .expect("an entry")
            .unchecked_into();
        let lines = last.query_selector_all(".console-out").expect("a selector");
        (0..lines.length())
            .filter_map(|i| lines.item(i))
            .map(|node| {
                let el: HtmlElement = node.unchecked_into();
                (el.text_content().unwrap_or_default(), el.class_name())
            })
            .collect()
    }
}

#[wasm_bindgen_test]
async fn the_console_has_its_hook_a_label_an_input_and_a_live_log() {
    let console = mount_console(ConsoleSeed::LostLock).await;
    let section = console.find("[data-console=\"lost-lock\"]");
    assert_eq!(
        section.get_attribute("aria-label").as_deref(),
        Some(ConsoleSeed::LostLock.label().as_str())
    );
    let log = console.find("[data-console-log]");
    assert_eq!(log.get_attribute("aria-live").as_deref(), Some("polite"));
    let input = console.input();
    let label = console.find("label[for]");
    assert_eq!(label.get_attribute("for"), Some(input.id()));
}

#[wasm_bindgen_test]
async fn typing_a_command_and_enter_prints_the_reply_as_redis_cli_does() {
    let console = mount_console(ConsoleSeed::LostLock).await;
    console.run("GET resource:lock").await;
    assert_eq!(console.input().value(), "", "the prompt is cleared");
    assert!(console.log().contains("GET resource:lock"));
    assert_eq!(
        console.last_output(),
        [("\"xyz\"".to_string(), "console-out".to_string())]
    );
    console
        .run("EVAL \"return redis.call('GET', KEYS[1]) == ARGV[1]\" 1 resource:lock xyz")
        .await;
    assert_eq!(console.last_output()[0].0, "(integer) 1");
}

#[wasm_bindgen_test]
async fn an_error_is_printed_with_its_text_and_marked_as_an_error() {
    let console = mount_console(ConsoleSeed::Fence).await;
    console.run("HGET resource:fence x").await;
    let out = console.last_output();
    assert!(out[0].0.starts_with("(error) WRONGTYPE"), "{out:?}");
    assert!(out[0].1.contains("console-error"));
}

#[wasm_bindgen_test]
async fn up_and_down_walk_the_history() {
    let console = mount_console(ConsoleSeed::Attempts).await;
    console.run("HGET emq:{mail}:job:42 state").await;
    console.run("HGET emq:{mail}:job:42 attempts").await;
    console.input().set_value("draft");
    console.key("ArrowUp");
    assert_eq!(console.input().value(), "HGET emq:{mail}:job:42 attempts");
    console.key("ArrowUp");
    assert_eq!(console.input().value(), "HGET emq:{mail}:job:42 state");
    console.key("ArrowDown");
    console.key("ArrowDown");
    assert_eq!(console.input().value(), "draft");
    console.input().set_value("");
    console.key("ArrowUp");
    console.key("Enter");
    tick().await;
    assert_eq!(console.last_output()[0].0, "\"2\"");
}

#[wasm_bindgen_test]
async fn a_runaway_script_is_stopped_and_the_page_keeps_answering() {
    let console = mount_console(ConsoleSeed::LostLock).await;
    let started = js_sys_now();
    console.run("EVAL \"while true do end\" 0").await;
    let took_ms = js_sys_now() - started;
    let out = console.last_output();
    assert!(out[0].0.starts_with("(error) "), "{out:?}");
    assert!(out[0].0.contains("step budget"), "{out:?}");
    assert!(out[0].1.contains("console-error"));
    web_sys::console::log_1(&format!("runaway script stopped after {took_ms:.0} ms").into());
    console.run("PING").await;
    assert_eq!(console.last_output()[0].0, "PONG");
}

#[wasm_bindgen_test]
async fn pasting_the_multi_line_release_script_after_eval_runs_it() {
    let console = mount_console(ConsoleSeed::LostLock).await;
    let input = console.input();
    input.set_value("EVAL ");
    let _ = input.set_selection_range(5, 5);
    let data = DataTransfer::new().expect("a DataTransfer");
    data.set_data("text", lockdive::scenarios::RELEASE_SCRIPT)
        .expect("clipboard text set");
    let init = ClipboardEventInit::new();
    init.set_clipboard_data(Some(&data));
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event = ClipboardEvent::new_with_event_init_dict("paste", &init).expect("a paste event");
    input.dispatch_event(&event).expect("dispatched");
    let pasted = input.value();
    assert!(pasted.starts_with("EVAL \"-- safe release"), "{pasted}");
    assert!(!pasted.contains('\n'), "one line: {pasted}");
    input.set_value(&format!("{pasted}1 resource:lock abc"));
    console.key("Enter");
    tick().await;
    assert_eq!(console.last_output()[0].0, "(integer) 0");
}

#[wasm_bindgen_test]
async fn reset_returns_to_the_figures_store() {
    let console = mount_console(ConsoleSeed::LostLock).await;
    console.run("DEL resource:lock").await;
    let reset: HtmlElement = console
        .root
        .query_selector(".console-reset")
        .expect("a selector")
        .expect("the reset button")
        .unchecked_into();
    reset.click();
    tick().await;
    assert_eq!(console.log(), "");
    console.run("GET resource:lock").await;
    assert_eq!(console.last_output()[0].0, "\"xyz\"");
}

#[wasm_bindgen_test]
async fn a_command_to_try_fills_the_prompt_and_enter_runs_it() {
    let console = mount_console(ConsoleSeed::Fence).await;
    let example = console.find(".console-example");
    let line = example.text_content().unwrap_or_default();
    assert!(line.starts_with("GET "), "{line}");
    example.click();
    assert_eq!(
        console.input().value(),
        line,
        "the prompt holds the example"
    );
    assert_eq!(console.log(), "", "nothing ran yet");
    console.key("Enter");
    tick().await;
    assert!(console.log().contains(&line));
    let expected = Console::new(ConsoleSeed::Fence).run(&line);
    assert_eq!(console.last_output()[0].0, expected[0].text);
}

#[wasm_bindgen_test]
async fn the_log_keeps_the_newest_entries_and_clear_empties_it() {
    let console = mount_console(ConsoleSeed::LostLock).await;
    let runs = MAX_LOG_ENTRIES + 5;
    for n in 0..runs {
        console.input().set_value(&format!("ECHO line-{n}"));
        console.key("Enter");
    }
    tick().await;
    assert_eq!(console.count(".console-entry") as usize, MAX_LOG_ENTRIES);
    let first = console
        .find(".console-entry")
        .text_content()
        .unwrap_or_default();
    assert!(
        first.contains("ECHO line-5"),
        "the oldest entries scrolled away: {first}"
    );
    assert_eq!(console.last_output()[0].0, format!("\"line-{}\"", runs - 1));
    console.run("clear").await;
    assert_eq!(console.count(".console-entry"), 0, "clear empties the log");
    console.run("PING").await;
    assert_eq!(console.count(".console-entry"), 1);
    assert_eq!(console.last_output()[0].0, "PONG");
}

#[wasm_bindgen_test]
async fn a_console_made_live_twice_still_runs_each_line_once() {
    let console = mount_console(ConsoleSeed::LostLock).await;
    assert_eq!(store::LAB.mount_in(&console.root), 0, "already live");
    console.run("INCR visits").await;
    assert_eq!(console.count(".console-entry"), 1);
    assert_eq!(console.last_output()[0].0, "(integer) 1");
}

#[wasm_bindgen_test]
async fn enter_kept_before_the_chunk_arrived_runs_the_typed_line_once() {
    let console = built_console(ConsoleSeed::LostLock).await;
    let input = console.input();
    input.set_value("INCR visits");
    input
        .set_attribute(PENDING, PendingAction::Enter.attribute())
        .expect("marked");
    let _ = input.focus();
    assert_eq!(store::LAB.mount_in(&console.root), 1);
    tick().await;
    assert_eq!(
        console.count(".console-entry"),
        1,
        "the kept Enter ran once"
    );
    assert_eq!(console.last_output()[0].0, "(integer) 1");
    assert_eq!(input.value(), "", "the prompt is cleared");
    assert!(!input.has_attribute(PENDING), "nothing is left to replay");
    assert!(input.is_connected(), "the built prompt is the live one");
}

/// Milliseconds from the page's clock (performance.now() is not in the enabled web-sys features).
fn js_sys_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}
