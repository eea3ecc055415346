//! A prerendered figure made to answer hover, focus, a tap and Esc by the same rules as the live
//! one (`lockdive_contract::choice_layers`): showing a choice lights its row, presses its button and swaps
//! the readout's content for the `<template data-readout-for>` the build rendered for it.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use wasm_bindgen::convert::FromWasmAbi;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, DocumentFragment, Element, EventTarget, HtmlElement, HtmlTemplateElement};

use lockdive_contract::choice_layers::{Activation, ChoiceLayers, PointerKind, LEAVE_GRACE_MS};
use lockdive_contract::hooks::{
    CHOICE_SELECTOR, COMMITS, FIGURE_SELECTOR, LIT, PATH, PATH_SELECTOR, READOUT_FOR,
    READOUT_FOR_SELECTOR, READOUT_SELECTOR, SELECTED, TONE,
};
use lockdive_contract::lab::PendingAction;

use crate::{dom, lab};

/// One choice of a prerendered figure: a `.fig-choice` button inside a `[data-path]` row. The
/// row's path is the key the figure's `data-selected` and the readout's template share.
struct Choice {
    button: HtmlElement,
    key: String,
    /// The button commits its choice (figure 2's writers), which needs the store: the lab.
    commits: bool,
}

/// One readout the build rendered: its key (`""` for the idle one), its tone and its content.
struct BuiltReadout {
    key: String,
    tone: Option<String>,
    content: DocumentFragment,
}

/// What one prerendered figure shows, and the elements it changes to show it — all read once, so
/// a hover asks the DOM for nothing and only writes.
struct PrerenderedFigure {
    figure: Element,
    readout: Element,
    readouts: Vec<BuiltReadout>,
    /// The `[data-path]` rows and their paths, lit when their choice is shown.
    rows: Vec<(Element, String)>,
    choices: Vec<Choice>,
    layers: ChoiceLayers<usize>,
    shown: Option<usize>,
    /// Whether the pressed choice was already shown when the press began (see `activate`).
    shown_at_press: Option<bool>,
    /// A hovering pointer's leave, waiting out [`LEAVE_GRACE_MS`]; dropping it cancels it.
    pending_leave: Option<Timeout>,
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
                        key,
                        commits,
                    })
                })
                .collect();
        let templates = figure.query_selector_all(READOUT_FOR_SELECTOR);
        let readouts = dom::all::<HtmlTemplateElement>(templates)
            .into_iter()
            .filter_map(|template| {
                Some(BuiltReadout {
                    key: template.get_attribute(READOUT_FOR)?,
                    tone: template.get_attribute(TONE),
                    content: template.content(),
                })
            })
            .collect();
        let rows = dom::all::<Element>(figure.query_selector_all(PATH_SELECTOR))
            .into_iter()
            .filter_map(|row| {
                let path = row.get_attribute(PATH)?;
                Some((row, path))
            })
            .collect();
        (!choices.is_empty()).then(|| PrerenderedFigure {
            figure,
            readout,
            readouts,
            rows,
            choices,
            layers: ChoiceLayers::default(),
            shown: None,
            shown_at_press: None,
            pending_leave: None,
        })
    }

    /// Brings the markup in line with what the layers show, if that changed.
    fn show(&mut self) {
        let now = self.layers.shown();
        if now == self.shown || !self.figure.is_connected() {
            return;
        }
        self.shown = now;
        let key = now
            .and_then(|index| self.choices.get(index))
            .map(|choice| choice.key.clone());
        // The readout first: it is what the reader reads and the screen reader announces.
        let wanted = key.as_deref().unwrap_or("");
        if let Some(built) = self.readouts.iter().find(|r| r.key == wanted) {
            if let Some(tone) = &built.tone {
                let _ = self.readout.set_attribute(TONE, tone);
            }
            if let Ok(copy) = built.content.clone_node_with_deep(true) {
                self.readout.replace_children_with_node_1(&copy);
            }
        }
        for (row, path) in &self.rows {
            let lit = key.as_deref() == Some(path.as_str());
            let _ = row.class_list().toggle_with_force(LIT, lit);
        }
        for (index, choice) in self.choices.iter().enumerate() {
            let pressed = if now == Some(index) { "true" } else { "false" };
            let _ = choice.button.set_attribute("aria-pressed", pressed);
        }
        let _ = match &key {
            Some(key) => self.figure.set_attribute(SELECTED, key),
            None => self.figure.remove_attribute(SELECTED),
        };
    }
}

/// Makes every prerendered figure of the page answer. Returns how many do.
pub fn enhance_all(document: &Document) -> usize {
    dom::all::<Element>(document.query_selector_all(FIGURE_SELECTOR))
        .into_iter()
        .filter_map(PrerenderedFigure::read)
        .map(|figure| listen_to(document, Rc::new(RefCell::new(figure))))
        .count()
}

/// Wires a figure's buttons, and the window's Esc and taps elsewhere, to its layers.
fn listen_to(document: &Document, figure: Rc<RefCell<PrerenderedFigure>>) {
    let buttons: Vec<HtmlElement> = figure
        .borrow()
        .choices
        .iter()
        .map(|c| c.button.clone())
        .collect();
    for (index, button) in buttons.into_iter().enumerate() {
        let kind = |e: &web_sys::PointerEvent| PointerKind::from_pointer_type(&e.pointer_type());
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
        let target = button.clone();
        on(
            &button,
            "click",
            changing(&figure, move |f, _: web_sys::MouseEvent| {
                let at_press = f.shown_at_press.take();
                let commits = f.choices.get(index).is_some_and(|c| c.commits);
                if f.layers.activate(index, at_press, commits) == Activation::Commit {
                    lab::request(&target, PendingAction::Click);
                }
            }),
        );
    }
    if let Some(window) = document.default_view() {
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
        // A figure the lab has taken over is detached; its old listeners stand down.
        let Ok(mut figure) = figure.try_borrow_mut() else {
            return;
        };
        if figure.figure.is_connected() {
            change(&mut figure, event);
            figure.show();
        }
    }
}

/// Listens for the page's lifetime (the lab's takeover detaches the figure, not the window).
fn on<E: FromWasmAbi + 'static>(
    target: &EventTarget,
    name: &str,
    handler: impl FnMut(E) + 'static,
) {
    let handler = Closure::<dyn FnMut(E)>::new(handler);
    if target
        .add_event_listener_with_callback(name, handler.as_ref().unchecked_ref())
        .is_ok()
    {
        handler.forget();
    }
}
