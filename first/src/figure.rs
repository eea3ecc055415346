//! Every figure's choices, made to answer hover, focus, a tap and Esc by
//! `lockdive_contract::choice_layers`, for the page's whole life: showing a choice lights its row,
//! presses its button and swaps the readout's content for the choice's
//! `<template data-readout-for>` (its source). A commit is handed to the lab on the figure
//! (`hooks::COMMIT`, `hooks::COMMIT_EVENT`); when the lab has re-rendered a figure's sources
//! (`hooks::OUTCOMES_EVENT`) they are read again, and what the last press came to (its commit's
//! outcome, or its refusal) is shown from its own source while its choice stays on show.
//!
//! What a choice shows is read when the figure is, and written with the words of `words`; a
//! source's body is copied from its template the first time it is shown. After that, a hover, the
//! reach every reader makes, is a handful of DOM writes and nothing else.

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use js_sys::Array;
use wasm_bindgen::JsCast;
use web_sys::{
    CustomEvent, DomTokenList, Element, Event, EventInit, HtmlElement, HtmlTemplateElement,
};

use lockdive_contract::choice_layers::{Activation, ChoiceLayers, PointerKind, LEAVE_GRACE_MS};
use lockdive_contract::hooks::{
    ask_commit, CHOICE_SELECTOR, COMMIT, COMMITS, COMMITTED, COMMIT_EVENT, FIGURE_SELECTOR,
    OUTCOMES_EVENT, PATH, PATH_SELECTOR, READOUT_FOR, READOUT_FOR_SELECTOR, READOUT_SELECTOR, TONE,
};
use lockdive_contract::lab::LabChunk;

use crate::dom::{self, on};
use crate::lab;
use crate::words::{self, Word};

/// One choice of a prerendered figure: a `.fig-choice` button inside a `[data-path]` row. The
/// row's path is the key the figure's `data-selected` and the readout's template share.
struct Choice {
    button: HtmlElement,
    key: String,
    /// The key as the figure's `data-selected` is written.
    key_word: Word,
    /// The button commits its choice (figure 2's writers), which needs the store: the lab.
    commits: bool,
}

/// One readout source: its key (`""` for the idle one), whether it is what the last press came to
/// (`hooks::COMMITTED`) rather than the key's what-if, its tone, and its body: a copy of its
/// template's content made the first time it is shown, whose nodes are moved into the readout
/// whenever it is shown and out again when another is (moving them is a third of the work of
/// copying them on every show). A figure's sources are read when the figure is, and again when the lab says it
/// re-rendered them (`outcomes_changed`): the lab puts in new templates, never changes one in
/// place.
struct BuiltReadout {
    key: String,
    committed: bool,
    tone: Option<(String, Word)>,
    template: HtmlTemplateElement,
    body: OnceCell<Array>,
}

impl BuiltReadout {
    /// The source's body, copied from its template on first use.
    fn body(&self) -> &Array {
        self.body.get_or_init(|| body_of(&self.template))
    }
}

/// A `[data-path]` row, lit when its choice is shown.
struct Row {
    element: Element,
    classes: DomTokenList,
    path: String,
}

/// What one prerendered figure shows, and the elements it changes to show it — all read once
/// (each source's body on its first show), so a hover asks the DOM for nothing and only writes.
struct PrerenderedFigure {
    figure: Element,
    readout: Element,
    readouts: Vec<BuiltReadout>,
    /// The tone the readout has now (its `data-tone`), so an unchanged one is not written again.
    readout_tone: Option<String>,
    rows: Vec<Row>,
    choices: Vec<Choice>,
    layers: ChoiceLayers<usize>,
    shown: Option<usize>,
    /// Whether the pressed choice was already shown when the press began (see `activate`).
    shown_at_press: Option<bool>,
    /// A hovering pointer's leave, waiting out [`LEAVE_GRACE_MS`]; dropping it cancels it.
    pending_leave: Option<Timeout>,
    /// The choice whose press the lab last answered (committed or refused), until another one is
    /// shown.
    last_press: Option<String>,
}

impl PrerenderedFigure {
    /// Reads a figure's choices and readout; `None` for a figure without either.
    fn read(figure: Element) -> Option<Self> {
        let readout = figure.query_selector(READOUT_SELECTOR).ok().flatten()?;
        let choices: Vec<Choice> =
            dom::all::<HtmlElement>(figure.query_selector_all(CHOICE_SELECTOR))
                .into_iter()
                .filter_map(|button| {
                    let key = button
                        .closest(PATH_SELECTOR)
                        .ok()
                        .flatten()?
                        .get_attribute(PATH)?;
                    let commits = button.has_attribute(COMMITS);
                    Some(Choice {
                        button,
                        key_word: Word::new(&key),
                        key,
                        commits,
                    })
                })
                .collect();
        let readouts = read_sources(&figure);
        let rows = dom::all::<Element>(figure.query_selector_all(PATH_SELECTOR))
            .into_iter()
            .filter_map(|element| {
                let path = element.get_attribute(PATH)?;
                Some(Row {
                    classes: element.class_list(),
                    element,
                    path,
                })
            })
            .collect();
        (!choices.is_empty()).then(|| PrerenderedFigure {
            readout_tone: readout.get_attribute(TONE),
            figure,
            readout,
            readouts,
            rows,
            choices,
            layers: ChoiceLayers::default(),
            shown: None,
            shown_at_press: None,
            pending_leave: None,
            last_press: None,
        })
    }

    /// The lab re-rendered the sources: reads them again, with the press it answered (if any), and
    /// shows what they now say.
    fn outcomes_changed(&mut self, pressed: Option<String>) {
        self.readouts = read_sources(&self.figure);
        self.last_press = pressed;
        words::with(|words| {
            for row in &self.rows {
                let what_if = self
                    .readouts
                    .iter()
                    .find(|r| !r.committed && r.key == row.path);
                if let Some((_, tone)) = what_if.and_then(|r| r.tone.as_ref()) {
                    words::set(&row.element, &words.tone, tone);
                }
            }
        });
        self.render();
    }

    /// Brings the markup in line with what the layers show, if that changed.
    fn show(&mut self) {
        if self.layers.shown() != self.shown {
            self.render();
        }
    }

    /// Renders what the layers show: the readout, the lit row, the pressed button.
    fn render(&mut self) {
        let now = self.layers.shown();
        let before = std::mem::replace(&mut self.shown, now);
        let key = now.and_then(|index| self.choices.get(index));
        let key = key.map(|choice| choice.key.as_str());
        // A commit's outcome is shown until its choice is no longer on show.
        if self.last_press.is_some() && self.last_press.as_deref() != key {
            self.last_press = None;
        }
        let committed = self.last_press.is_some();
        words::with(|words| {
            // The readout first: it is what the reader reads and the screen reader announces.
            let wanted = key.unwrap_or("");
            if let Some(built) = self
                .readouts
                .iter()
                .find(|r| r.key == wanted && r.committed == committed)
            {
                if let Some((tone, word)) = &built.tone {
                    if self.readout_tone.as_ref() != Some(tone) {
                        words::set(&self.readout, &words.tone, word);
                        self.readout_tone = Some(tone.clone());
                    }
                }
                self.readout.replace_children_with_node(built.body());
            }
            if before == now {
                return;
            }
            // The rows, buttons and figure are written by this struct alone, and the build leaves
            // them unselected: only the choice shown before and the one shown now change.
            let old_key = before
                .and_then(|index| self.choices.get(index))
                .map(|choice| choice.key.as_str());
            for row in &self.rows {
                let path = Some(row.path.as_str());
                if old_key == path && key != path {
                    words::toggle(&row.classes, &words.lit, false);
                }
                if key == path && old_key != path {
                    words::toggle(&row.classes, &words.lit, true);
                }
            }
            for (index, pressed) in [(before, &words.no), (now, &words.yes)] {
                if let Some(choice) = index.and_then(|index| self.choices.get(index)) {
                    words::set(&choice.button, &words.pressed, pressed);
                }
            }
            match now.and_then(|index| self.choices.get(index)) {
                Some(choice) => words::set(&self.figure, &words.selected, &choice.key_word),
                None => words::remove(&self.figure, &words.selected),
            }
        });
    }
}

/// A figure's readout sources, in document order: which they are and their tones. Each body is
/// copied on its first show.
fn read_sources(figure: &Element) -> Vec<BuiltReadout> {
    dom::all::<HtmlTemplateElement>(figure.query_selector_all(READOUT_FOR_SELECTOR))
        .into_iter()
        .filter_map(|template| {
            Some(BuiltReadout {
                key: template.get_attribute(READOUT_FOR)?,
                committed: template.has_attribute(COMMITTED),
                tone: template.get_attribute(TONE).map(|tone| {
                    let word = Word::new(&tone);
                    (tone, word)
                }),
                template,
                body: OnceCell::new(),
            })
        })
        .collect()
}

/// A copy of a source's body, which every source holds in its `content` (the build's HTML, and
/// the lab's markup, put in as HTML), as the list of its top nodes.
fn body_of(template: &HtmlTemplateElement) -> Array {
    match template.content().clone_node_with_deep(true) {
        Ok(copy) => Array::from(&copy.child_nodes()),
        Err(_) => Array::new(),
    }
}

/// Makes every figure under `root` answer. Returns how many do.
pub fn enhance_all(root: &Element) -> usize {
    dom::all::<Element>(root.query_selector_all(FIGURE_SELECTOR))
        .into_iter()
        .filter_map(PrerenderedFigure::read)
        .map(|figure| listen_to(Rc::new(RefCell::new(figure))))
        .count()
}

/// Asks the lab to commit the figure's choice `key`, after any commits still waiting for it: taken
/// by a live lab at once, or with the others by the lab when it arrives.
fn request_commit(figure: &Element, key: &str) {
    let asked = ask_commit(figure.get_attribute(COMMIT).as_deref(), key);
    let _ = figure.set_attribute(COMMIT, &asked);
    if let Ok(event) = Event::new_with_event_init_dict(COMMIT_EVENT, &EventInit::new()) {
        let _ = figure.dispatch_event(&event);
    }
    if let Some(document) = figure.owner_document() {
        lab::load(&document, LabChunk::Figures);
    }
}

/// Wires a figure's buttons, the lab's word that its sources changed, and the window's Esc and
/// taps elsewhere, to its layers.
fn listen_to(figure: Rc<RefCell<PrerenderedFigure>>) {
    let buttons: Vec<HtmlElement> = figure
        .borrow()
        .choices
        .iter()
        .map(|c| c.button.clone())
        .collect();
    for (index, button) in buttons.into_iter().enumerate() {
        let kind = words::pointer_kind;
        on(
            &button,
            "pointerenter",
            changing(&figure, move |f, e| {
                f.pending_leave = None;
                f.layers.pointer_enter(kind(&e), index)
            }),
        );
        let leaving = Rc::clone(&figure);
        on(&button, "pointerleave", move |e: web_sys::PointerEvent| {
            leave_after_grace(&leaving, kind(&e))
        });
        on(
            &button,
            "pointerdown",
            changing(&figure, move |f, _: web_sys::PointerEvent| {
                f.shown_at_press = Some(f.layers.shown() == Some(index));
            }),
        );
        on(
            &button,
            "focus",
            changing(&figure, move |f, _: web_sys::FocusEvent| {
                f.layers.focus(index)
            }),
        );
        on(
            &button,
            "blur",
            changing(&figure, |f, _: web_sys::FocusEvent| f.layers.blur()),
        );
        on(
            &button,
            "click",
            changing(&figure, move |f, _: web_sys::MouseEvent| {
                let at_press = f.shown_at_press.take();
                let Some(choice) = f.choices.get(index) else {
                    return;
                };
                if f.layers.activate(index, at_press, choice.commits) == Activation::Commit {
                    request_commit(&f.figure, &choice.key);
                }
            }),
        );
    }
    let element = figure.borrow().figure.clone();
    let told = Rc::clone(&figure);
    on(&element, OUTCOMES_EVENT, move |event: Event| {
        let pressed = event
            .dyn_ref::<CustomEvent>()
            .and_then(|e| e.detail().as_string());
        if let Ok(mut figure) = told.try_borrow_mut() {
            if figure.figure.is_connected() {
                figure.outcomes_changed(pressed);
            }
        }
    });
    if let Some(window) = web_sys::window() {
        on(
            &window,
            "keydown",
            changing(&figure, |f, e: web_sys::KeyboardEvent| {
                if e.key() == "Escape" {
                    f.pending_leave = None;
                    f.layers.clear();
                }
            }),
        );
        on(
            &window,
            "pointerdown",
            changing(&figure, |f, e: web_sys::PointerEvent| {
                let on_choice = e
                    .target()
                    .and_then(|t| t.dyn_into::<Element>().ok())
                    .and_then(|el| el.closest(CHOICE_SELECTOR).ok().flatten())
                    .is_some_and(|choice| f.figure.contains(Some(&choice)));
                if !on_choice {
                    f.layers.tap_elsewhere();
                }
            }),
        );
    }
}

/// A hovering pointer left a choice: clear its hover once [`LEAVE_GRACE_MS`] has passed without it
/// entering another choice (whose `pointerenter` drops the pending clear).
fn leave_after_grace(figure: &Rc<RefCell<PrerenderedFigure>>, kind: PointerKind) {
    if kind != PointerKind::Hovering {
        return;
    }
    let later = Rc::clone(figure);
    // The fired timer stays in `pending_leave` until the next enter or leave replaces it: dropping
    // it from inside its own callback would free the closure that is running.
    let clear = Timeout::new(LEAVE_GRACE_MS, move || {
        if let Ok(mut figure) = later.try_borrow_mut() {
            if figure.figure.is_connected() {
                figure.layers.pointer_leave(PointerKind::Hovering);
                figure.show();
            }
        }
    });
    if let Ok(mut figure) = figure.try_borrow_mut() {
        figure.pending_leave = Some(clear);
    }
}

/// An event handler that changes the figure's layers, then shows the result.
fn changing<E>(
    figure: &Rc<RefCell<PrerenderedFigure>>,
    mut change: impl FnMut(&mut PrerenderedFigure, E) + 'static,
) -> impl FnMut(E) + 'static {
    let figure = Rc::clone(figure);
    move |event| {
        // A figure taken out of the page (a test's, say) stands down.
        let Ok(mut figure) = figure.try_borrow_mut() else {
            return;
        };
        if figure.figure.is_connected() {
            change(&mut figure, event);
            figure.show();
        }
    }
}
