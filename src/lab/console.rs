//! A console made live where the build left it: the prompt's Enter, ↑/↓ and pastes, the Run and
//! Reset buttons and the commands to try, wired to the console's model
//! (`scenarios::console::Console`), and the log's entries rendered from that model — the only
//! place they are rendered. Plain DOM calls, no view library: the store's chunk is ministore and
//! this file.

use std::cell::RefCell;
use std::rc::Rc;

use lockdive_first::dom::on;
use wasm_bindgen::JsCast;
use web_sys::{
    ClipboardEvent, Document, Element, Event, HtmlElement, HtmlInputElement, KeyboardEvent,
};

use crate::components::console::class;
use crate::scenarios::console::{paste, Console, ConsoleSeed, LogEntry, Paste, Tone, PROMPT};

/// One live console: its model, its prompt, and its log with the entries it shows, by id.
struct LiveConsole {
    console: RefCell<Console>,
    input: HtmlInputElement,
    log: Element,
    shown: RefCell<Vec<(u64, Element)>>,
}

/// Wires the console in `slot`, built for `seed`. Returns false, wiring nothing, if the slot
/// lacks one of the console's controls or its console is already wired.
pub fn enhance(slot: &Element, seed: ConsoleSeed) -> bool {
    let find = |name: &str| slot.query_selector(&class::selector(name)).ok().flatten();
    let input = find(class::INPUT).and_then(|e| e.dyn_into::<HtmlInputElement>().ok());
    let (Some(input), Some(log), Some(run), Some(reset)) = (
        input,
        find(class::LOG),
        find(class::RUN),
        find(class::RESET),
    ) else {
        return false;
    };
    if !super::wire_once(&log) {
        return false;
    }
    let live = Rc::new(LiveConsole {
        console: RefCell::new(Console::new(seed)),
        input,
        log,
        shown: RefCell::new(Vec::new()),
    });
    on(&live.input, "keydown", {
        let live = live.clone();
        move |event: Event| {
            if let Some(key) = event.dyn_ref::<KeyboardEvent>() {
                live.on_key(key);
            }
        }
    });
    on(&live.input, "paste", {
        let live = live.clone();
        move |event: Event| {
            if let Some(pasted) = event.dyn_ref::<ClipboardEvent>() {
                live.on_paste(pasted);
            }
        }
    });
    on(&run, "click", {
        let live = live.clone();
        move |_: Event| live.run_prompt()
    });
    on(&reset, "click", {
        let live = live.clone();
        move |_: Event| live.change(Console::reset)
    });
    for example in lockdive_first::dom::all::<HtmlElement>(
        slot.query_selector_all(&class::selector(class::EXAMPLE)),
    ) {
        // The line is the one the button shows.
        let line = example.text_content().unwrap_or_default();
        let live = live.clone();
        on(&example, "click", move |_: Event| live.fill(&line));
    }
    live.render();
    true
}

impl LiveConsole {
    /// Changes the model, then shows what its log now holds.
    fn change(&self, change: impl FnOnce(&mut Console)) {
        change(&mut self.console.borrow_mut());
        self.render();
    }

    /// Runs the prompt's line and clears the prompt.
    fn run_prompt(&self) {
        let line = self.input.value();
        self.input.set_value("");
        self.change(|console| {
            let _entry = console.submit(&line);
        });
    }

    /// Puts an example's line in the prompt, for the reader to run.
    fn fill(&self, line: &str) {
        self.input.set_value(line);
        let _ = self.input.focus();
    }

    /// Enter runs the line; ↑ and ↓ walk the history, which changes nothing the log shows.
    fn on_key(&self, event: &KeyboardEvent) {
        let recalled = match event.key().as_str() {
            "Enter" => {
                event.prevent_default();
                self.run_prompt();
                return;
            }
            "ArrowUp" => self.console.borrow_mut().history_up(&self.input.value()),
            "ArrowDown" => self.console.borrow_mut().history_down(),
            _ => return,
        };
        event.prevent_default();
        if let Some(line) = recalled {
            let end = u32::try_from(line.encode_utf16().count()).unwrap_or(u32::MAX);
            self.input.set_value(&line);
            let _ = self.input.set_selection_range(end, end);
        }
    }

    /// A paste goes where the console's paste rules say: into the prompt at the caret, or run as
    /// lines.
    fn on_paste(&self, event: &ClipboardEvent) {
        let Some(pasted) = event.clipboard_data().and_then(|d| d.get_data("text").ok()) else {
            return;
        };
        let value = self.input.value();
        let utf16: Vec<u16> = value.encode_utf16().collect();
        let at = |n: Option<u32>| (n.unwrap_or(0) as usize).min(utf16.len());
        let start = at(self.input.selection_start().ok().flatten());
        let end = at(self.input.selection_end().ok().flatten()).max(start);
        let before = String::from_utf16_lossy(&utf16[..start]);
        let after = String::from_utf16_lossy(&utf16[end..]);
        event.prevent_default();
        match paste(&before, &pasted) {
            Paste::Insert(text) => {
                let caret =
                    u32::try_from(before.encode_utf16().count() + text.encode_utf16().count())
                        .unwrap_or(u32::MAX);
                self.input.set_value(&format!("{before}{text}{after}"));
                let _ = self.input.set_selection_range(caret, caret);
            }
            Paste::RunLines(lines) => self.change(|console| console.submit_lines(&lines)),
        }
    }

    /// Brings the log in line with the model's: entries it no longer holds (scrolled away, cleared,
    /// reset) are removed, new ones appended; then the newest is scrolled into view.
    fn render(&self) {
        let console = self.console.borrow();
        let entries = console.log();
        let mut shown = self.shown.borrow_mut();
        shown.retain(|(id, element)| {
            let kept = entries.iter().any(|entry| entry.id == *id);
            if !kept {
                element.remove();
            }
            kept
        });
        let newest = shown.last().map(|(id, _)| *id);
        let Some(document) = self.log.owner_document() else {
            return;
        };
        for entry in entries.iter().filter(|e| newest.is_none_or(|n| e.id > n)) {
            if let Some(element) = entry_element(&document, entry) {
                let _ = self.log.append_child(&element);
                shown.push((entry.id, element));
            }
        }
        self.log.set_scroll_top(self.log.scroll_height());
    }
}

/// One logged command and what it printed, `div.console-entry`.
fn entry_element(document: &Document, entry: &LogEntry) -> Option<Element> {
    let element = |name: &str, classes: &[&str], text: Option<&str>| {
        let made = document.create_element(name).ok()?;
        if !classes.is_empty() {
            made.set_class_name(&classes.join(" "));
        }
        if text.is_some() {
            made.set_text_content(text);
        }
        Some(made)
    };
    let root = element("div", &[class::ENTRY], None)?;
    let line = element("div", &[class::INPUT_LINE], None)?;
    let prompt = element("span", &[class::PROMPT], Some(&format!("{PROMPT} ")))?;
    let _ = prompt.set_attribute("aria-hidden", "true");
    let command = element("span", &[], Some(&entry.input))?;
    let _ = line.append_child(&prompt);
    let _ = line.append_child(&command);
    let _ = root.append_child(&line);
    for out in &entry.output {
        let classes: &[&str] = match out.tone {
            Tone::Reply => &[class::OUTPUT],
            Tone::Error => &[class::OUTPUT, class::ERROR],
            Tone::Note => &[class::OUTPUT, class::NOTE],
        };
        let line = element("div", classes, Some(&out.text))?;
        let _ = root.append_child(&line);
    }
    Some(root)
}
