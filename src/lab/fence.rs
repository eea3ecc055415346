//! Figure 2 made live where the build left it: the figure's one committed fence (a
//! [`FenceLedger`], from the shared link's commits), the commits the first wasm asks for on the
//! figure (`hooks::COMMIT`, `hooks::COMMIT_EVENT`), each taken once and in order (a press on a
//! full log is refused, and the readout says so), and the reset button. After each commit and
//! reset the live parts are brought in line from the fence's markup functions
//! (`components::figures::fence_*`) — the max seen, the reset's state, the writers' roles and
//! the caption's token set in place, a lane or the what-ifs' readout sources put in when what
//! they say changed, the last press's source in place of the one before, the log's new line
//! appended — and the first wasm is told the readout sources changed (`hooks::OUTCOMES_EVENT`).

use std::cell::RefCell;
use std::rc::Rc;

use lockdive_first::dom::on;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CustomEvent, CustomEventInit, Element, Event};

use lockdive_contract::hooks::{
    asked_commits, with_value, CHOICE_LABEL_SELECTOR, COMMIT, COMMITTED_SELECTOR, COMMIT_EVENT,
    OUTCOMES_EVENT, WRITER,
};

use super::{set_if_changed, set_text};
use crate::components::figures::fence_drawing::{
    lane, max_seen_text, reset_disabled, MAX_SEEN, RESET,
};
use crate::components::figures::fence_log::{log_entry, log_note, LOG, LOG_NOTE};
use crate::components::figures::fence_readout::{
    committed_source, refused_source, what_if_sources,
};
use crate::components::figures::share_url;
use crate::components::figures::LivePart;
use crate::scenarios::fence::{
    caption, max_seen_in_setup, FenceBoard, FenceLedger, FenceOutcome, LogFull, Writer,
};

/// What a press on a writer came to: its write committed, or refused with nothing run because the
/// log was full. The readout shows it while the writer stays on show.
#[derive(Clone)]
enum LastPress {
    Committed(FenceOutcome),
    Refused(Writer),
}

impl LastPress {
    fn writer(&self) -> Writer {
        match self {
            LastPress::Committed(outcome) => outcome.writer,
            LastPress::Refused(writer) => *writer,
        }
    }
}

/// The figure's committed fence and its live parts' slots.
struct LiveFence {
    figure: Element,
    /// The store after every commit so far, with its log: a commit runs one more write against it
    /// rather than the log's scripts again.
    ledger: RefCell<FenceLedger>,
    /// What the last press on a writer came to, until a reset or the next press.
    last_press: RefCell<Option<LastPress>>,
    /// The token the resource had seen before any commit (what a reset returns to).
    seen: Option<i64>,
    slots: Vec<(LivePart, Element)>,
    /// Each writer's label (its token and role, which move with the fence), found once.
    labels: Vec<(Writer, Element)>,
    /// The figure's caption, which names the token the resource has seen.
    caption: Option<Element>,
    /// The resource's max seen, its reset button and the log, found once.
    max_seen: Option<Element>,
    reset: Option<Element>,
    log: Option<Element>,
    /// The markup each slot holds (by position in `slots`; for the readout sources, the what-ifs'
    /// part), and how many lines the log shows.
    shown: RefCell<(Vec<String>, Option<usize>)>,
}

/// Makes figure 2's live parts in `slots` (each with its part) live, with `figure`'s one fence.
/// Returns false, wiring nothing, if there are none or the figure is already wired.
pub fn enhance(figure: &Element, slots: Vec<(LivePart, Element)>) -> bool {
    if slots.is_empty() || !super::wire_once(figure) {
        return false;
    }
    let ledger = FenceLedger::replay(&share_url::read().fence);
    let board = ledger.board();
    // The build renders the fence with no commits: with none in the link either, each part the
    // lab puts in whole already holds what the lab would put there, and is left as it stands.
    let built_matches = ledger.log().is_empty();
    let shown = slots
        .iter()
        .map(|(part, _)| match whole_markup(*part, &board) {
            Some(markup) if built_matches => markup,
            _ => String::new(),
        })
        .collect();
    let find = |wanted: LivePart, css: &str| {
        slots
            .iter()
            .filter(|(part, _)| *part == wanted)
            .find_map(|(_, slot)| slot.query_selector(css).ok().flatten())
    };
    let (max_seen, reset, log) = (
        find(LivePart::FenceResource, MAX_SEEN),
        find(LivePart::FenceResource, RESET),
        find(LivePart::FenceLog, LOG),
    );
    // The log's lines as built.
    let built_log = log.as_ref().map(|log| log.child_element_count() as usize);
    let labels = Writer::ALL
        .into_iter()
        .filter_map(|writer| {
            let css = format!(
                "{} {CHOICE_LABEL_SELECTOR}",
                with_value(WRITER, &writer.hook())
            );
            figure
                .query_selector(&css)
                .ok()
                .flatten()
                .map(|label| (writer, label))
        })
        .collect();
    let live = Rc::new(LiveFence {
        figure: figure.clone(),
        ledger: RefCell::new(ledger),
        last_press: RefCell::new(None),
        seen: max_seen_in_setup(),
        slots,
        labels,
        caption: figure.query_selector("figcaption").ok().flatten(),
        max_seen,
        reset,
        log,
        shown: RefCell::new((shown, built_log)),
    });
    if let Some(reset) = &live.reset {
        let live = live.clone();
        on(reset, "click", move |_: Event| live.reset());
    }
    let asked = live.clone();
    on(figure, COMMIT_EVENT, move |_: Event| {
        asked.take_commit();
    });
    // The commits asked for before the lab was live, if any, else the state the link opened on:
    // one word to the first wasm either way.
    if !live.take_commit() {
        live.show_board(&board);
    }
    true
}

impl LiveFence {
    /// Takes the commits the figure asks for, if any, and carries them out in order, then shows
    /// the fence once. Returns whether there were any (and so whether it showed the fence).
    fn take_commit(&self) -> bool {
        let Some(asked) = self.figure.get_attribute(COMMIT) else {
            return false;
        };
        let _ = self.figure.remove_attribute(COMMIT);
        let mut last = None;
        let mut committed_any = false;
        for writer in asked_commits(&asked)
            .filter_map(|key| key.parse::<i64>().ok())
            .filter_map(Writer::with_token)
        {
            let press = self.commit(writer);
            committed_any |= matches!(press, LastPress::Committed(_));
            last = Some(press);
        }
        let Some(last) = last else {
            return false;
        };
        *self.last_press.borrow_mut() = Some(last);
        self.show();
        if committed_any {
            let tokens = self.ledger.borrow().log().iter().map(|o| o.token).collect();
            share_url::update(|state| state.fence = tokens);
        }
        true
    }

    /// Commits `writer`'s write, unless the log is full.
    fn commit(&self, writer: Writer) -> LastPress {
        let mut ledger = self.ledger.borrow_mut();
        match ledger.commit(writer) {
            Ok(outcome) => LastPress::Committed(outcome.clone()),
            Err(LogFull) => LastPress::Refused(writer),
        }
    }

    /// Empties the log: the fence returns to `seen`. An empty log stays as it is.
    fn reset(&self) {
        if self.ledger.borrow().log().is_empty() {
            return;
        }
        *self.ledger.borrow_mut() = FenceLedger::new();
        *self.last_press.borrow_mut() = None;
        self.show();
        share_url::update(|state| state.fence.clear());
    }

    /// Brings every live part in line with the fence, then tells the first wasm.
    fn show(&self) {
        let board = self.ledger.borrow().board();
        self.show_board(&board);
    }

    /// Brings every live part in line with `board`, the fence's now, then tells the first wasm,
    /// with the writer last pressed, if any.
    fn show_board(&self, board: &FenceBoard) {
        let pressed = self.last_press.borrow().clone();
        for (writer, label) in &self.labels {
            set_text(label, &writer.label(board.max_seen));
        }
        if let Some(line) = &self.caption {
            set_text(line, &caption(board.max_seen));
        }
        let mut shown = self.shown.borrow_mut();
        for (at, (part, slot)) in self.slots.iter().enumerate() {
            match part {
                LivePart::FenceResource => {
                    if let Some(max) = &self.max_seen {
                        set_text(max, &max_seen_text(board));
                    }
                    if let Some(reset) = &self.reset {
                        set_if_changed(reset, "aria-disabled", reset_disabled(board));
                    }
                }
                LivePart::FenceLog => self.show_log(slot, board, &mut shown.1),
                LivePart::FenceReadouts => {
                    show_sources(slot, &mut shown.0[at], board, pressed.as_ref());
                }
                part => {
                    if let Some(markup) = whole_markup(*part, board) {
                        put_in(slot, &mut shown.0[at], markup);
                    }
                }
            }
        }
        drop(shown);
        // Told in a microtask: a commit is asked for from inside the first wasm's own click
        // handler, which is still running (and holding its figure) until the event returns.
        let figure = self.figure.clone();
        let token = pressed.map(|press| press.writer().token);
        let tell = Closure::once_into_js(move || announce(&figure, token));
        if let Some(window) = web_sys::window() {
            window.queue_microtask(tell.unchecked_ref());
        }
    }

    /// The log's lines — one appended after a commit (the lines before it stay as they are), all
    /// of them otherwise — and the line under the log, when its length changed.
    fn show_log(&self, slot: &Element, board: &FenceBoard, shown_len: &mut Option<usize>) {
        let Some(log) = &self.log else {
            return;
        };
        let len = board.log.len();
        match (*shown_len, board.log.last()) {
            (Some(before), _) if before == len => return,
            (Some(before), Some(last)) if before + 1 == len => {
                let _ = log.insert_adjacent_html("beforeend", &log_entry(last).finish());
            }
            _ => {
                let lines: String = board.log.iter().map(|o| log_entry(o).finish()).collect();
                log.set_inner_html(&lines);
            }
        }
        if let Ok(Some(old)) = slot.query_selector(LOG_NOTE) {
            old.remove();
        }
        let note = log_note(len, self.seen).finish();
        if !note.is_empty() {
            let _ = log.insert_adjacent_html("afterend", &note);
        }
        *shown_len = Some(len);
    }
}

/// Fires [`OUTCOMES_EVENT`] on the figure, with the pressed writer's key as its detail: the
/// sources are in place already, so the first wasm's read finds them current.
fn announce(figure: &Element, pressed: Option<i64>) {
    let init = CustomEventInit::new();
    let detail = pressed.map_or(JsValue::NULL, |token| JsValue::from_str(&token.to_string()));
    init.set_detail(&detail);
    if let Ok(event) = CustomEvent::new_with_event_init_dict(OUTCOMES_EVENT, &init) {
        let _ = figure.dispatch_event(&event);
    }
}

/// The markup of a part the lab puts in whole when it changes: a lane's outcome, or the readout
/// sources' what-ifs.
fn whole_markup(part: LivePart, board: &FenceBoard) -> Option<String> {
    match part {
        LivePart::FenceLane(writer) => Some(lane(writer, board).finish()),
        LivePart::FenceReadouts => Some(what_if_sources(board).finish()),
        _ => None,
    }
}

/// The readout sources: the what-ifs put in whole when they changed (`shown` is what they were
/// last given; a write the fence rejected leaves them as they were), and the last press's source
/// in place of the one before, so a commit parses one source, not all of them.
fn show_sources(
    slot: &Element,
    shown: &mut String,
    board: &FenceBoard,
    pressed: Option<&LastPress>,
) {
    if !put_in(slot, shown, what_if_sources(board).finish()) {
        if let Ok(Some(old)) = slot.query_selector(COMMITTED_SELECTOR) {
            old.remove();
        }
    }
    let source = match pressed {
        Some(LastPress::Committed(outcome)) => committed_source(outcome),
        Some(LastPress::Refused(writer)) => refused_source(*writer, board.max_seen),
        None => return,
    };
    let _ = slot.insert_adjacent_html("beforeend", &source.finish());
}

/// Puts `markup` into `slot` if it differs from what the slot was last given; returns whether it
/// did.
fn put_in(slot: &Element, shown: &mut String, markup: String) -> bool {
    if *shown == markup {
        return false;
    }
    slot.set_inner_html(&markup);
    *shown = markup;
    true
}
