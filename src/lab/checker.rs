//! The lock checker made live where the build left it: picks, the reader's own lock and its Check
//! button, the verdict rows' counterexample buttons and the counterexample player, wired to the
//! explorer (`scenarios::lockcheck::Explorer`) with one listener per kind of event on the live
//! part. Each change of state is shown by [`LiveChecker::show`]: attributes and texts set in
//! place, and each region's markup (`components::figures::check_lock`) put in when what it shows
//! changed, so the control the reader used keeps its focus. Plain DOM calls, no view library.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use lockdive_contract::hooks::{READOUT_SELECTOR, TONE};
use lockdive_first::dom::{all, now_ms, on};
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement, HtmlTextAreaElement, KeyboardEvent};

use super::{reached, set_if_changed, set_text};
use crate::components::figures::check_lock::{
    self, counterexample, custom, explore, hooks, picker, scripts, verdicts, CheckState, Counts,
    Region, CUSTOM_ID,
};
use crate::components::markup::truth;
use crate::scenarios::lockcheck::{catalogue, Bound, Explorer, LockSpec};

/// The live checker: the catalogue, what is picked, the exploration's state, the open
/// counterexample and its shown step, and what each region shows.
struct LiveChecker {
    root: Element,
    locks: Vec<LockSpec>,
    picked: RefCell<Option<String>>,
    state: RefCell<CheckState>,
    /// The open counterexample: its property's index in the report.
    open: Cell<Option<usize>>,
    /// The counterexample's shown step.
    at: Cell<usize>,
    /// Counts picks and checks: a slice of an exploration the reader has moved on from does
    /// nothing, and a region keyed by it is rendered anew for each report.
    generation: Cell<u64>,
    /// What each region shows, by key (`Region` order).
    shown: RefCell<[String; 5]>,
}

/// Wires the checker built in `slot`. Returns false, wiring nothing, if the slot holds none or
/// its checker is already wired.
pub fn enhance(slot: &Element) -> bool {
    let Some(root) = slot.query_selector(check_lock::LIVE).ok().flatten() else {
        return false;
    };
    if !super::wire_once(&root) {
        return false;
    }
    let live = Rc::new(LiveChecker {
        root,
        locks: catalogue::all(),
        picked: RefCell::new(None),
        state: RefCell::new(CheckState::Idle),
        open: Cell::new(None),
        at: Cell::new(0),
        generation: Cell::new(0),
        shown: RefCell::new(Default::default()),
    });
    on(&live.root, "click", {
        let live = live.clone();
        move |event: Event| live.on_click(&event)
    });
    on(&live.root, "keydown", {
        let live = live.clone();
        move |event: Event| {
            if let Some(key) = event.dyn_ref::<KeyboardEvent>() {
                live.on_key(key);
            }
        }
    });
    true
}

/// `[name]`.
fn having(name: &str) -> String {
    format!("[{name}]")
}

impl LiveChecker {
    fn find(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).ok().flatten()
    }

    fn on_click(self: &Rc<Self>, event: &Event) {
        if let Some(button) = reached(event, &having(picker::LOCK)) {
            if let Some(id) = button.get_attribute(picker::LOCK) {
                self.pick(&id);
            }
        } else if let Some(button) = reached(event, &having(verdicts::OPEN_COUNTEREXAMPLE)) {
            self.toggle_counterexample(property_of(&button).as_deref());
        } else if reached(event, hooks::STEP_BACK).is_some() {
            self.nudge(-1);
        } else if reached(event, hooks::STEP_FORWARD).is_some() {
            self.nudge(1);
        } else if let Some(item) = reached(event, hooks::COUNTEREXAMPLE_STEPS) {
            let before = all::<Element>(self.root.query_selector_all(hooks::COUNTEREXAMPLE_STEPS))
                .iter()
                .position(|li| *li == item);
            if let Some(at) = before {
                self.step_to(at);
            }
        } else if reached(event, &having(custom::CHECK_RUN)).is_some() {
            self.check_custom();
        }
    }

    /// ← → ↑ ↓ Home End on the counterexample's step list (or a step in it).
    fn on_key(&self, key: &KeyboardEvent) {
        if reached(key, hooks::STEP_LIST).is_none() {
            return;
        }
        match key.key().as_str() {
            "ArrowRight" | "ArrowDown" => self.nudge(1),
            "ArrowLeft" | "ArrowUp" => self.nudge(-1),
            "Home" => self.step_to(0),
            "End" => self.step_to(usize::MAX),
            _ => return,
        }
        key.prevent_default();
    }

    /// The reader picked the lock `id`: a catalogue lock is explored at once, their own opens
    /// the editor.
    fn pick(self: &Rc<Self>, id: &str) {
        self.open.set(None);
        *self.picked.borrow_mut() = Some(id.to_string());
        if id == CUSTOM_ID {
            self.cancel();
            self.set_state(CheckState::Editing);
            return;
        }
        match self.locks.iter().find(|spec| spec.id == id).cloned() {
            Some(spec) => self.start(spec),
            None => self.set_state(CheckState::Failed(format!("no lock called {id:?}"))),
        }
    }

    /// Check pressed: the texts' lock is explored, or why it cannot be is shown.
    fn check_custom(self: &Rc<Self>) {
        if matches!(*self.state.borrow(), CheckState::Running(_)) {
            return;
        }
        let text = |op: &str| {
            self.find(&hooks::script(op))
                .and_then(|e| e.dyn_into::<HtmlTextAreaElement>().ok())
                .map(|area| area.value())
                .unwrap_or_default()
        };
        let ttl = self
            .find(&having(custom::TTL))
            .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
            .map(|input| input.value())
            .unwrap_or_default();
        self.open.set(None);
        match custom::custom_spec(&text("acquire"), &text("release"), &text("extend"), &ttl) {
            Ok(spec) => self.start(spec),
            Err(error) => {
                self.cancel();
                self.set_state(CheckState::Failed(error));
            }
        }
    }

    /// Drops whatever exploration is running.
    fn cancel(&self) {
        self.generation.set(self.generation.get() + 1);
    }

    /// Explores `spec` under the default bound, replacing any running exploration: the first
    /// slice now, the rest after the browser's turns.
    fn start(self: &Rc<Self>, spec: LockSpec) {
        self.cancel();
        match Explorer::new(&spec, Bound::default()) {
            Ok(explorer) => {
                self.set_state(CheckState::Running(Counts::default()));
                self.drive(self.generation.get(), explorer, now_ms());
            }
            Err(error) => self.set_state(CheckState::Failed(error.to_string())),
        }
    }

    /// One slice of the exploration, then the next after a zero timeout, until it is done.
    fn drive(self: &Rc<Self>, generation: u64, mut explorer: Explorer, started: f64) {
        if self.generation.get() != generation {
            return;
        }
        let slice_start = now_ms();
        let progress = loop {
            let progress = explorer.run(explore::STATES_PER_CALL);
            if progress.done || now_ms() - slice_start >= explore::SLICE_MS {
                break progress;
            }
        };
        let counts = Counts::of(progress, now_ms() - started);
        if progress.done {
            self.set_state(CheckState::Done(Arc::new(explorer.report()), counts));
        } else {
            self.set_state(CheckState::Running(counts));
            let live = self.clone();
            gloo_timers::callback::Timeout::new(0, move || {
                live.drive(generation, explorer, started)
            })
            .forget();
        }
    }

    fn set_state(&self, state: CheckState) {
        *self.state.borrow_mut() = state;
        self.show();
    }

    /// Opens the counterexample of the property with that hook, or closes it if it is open.
    fn toggle_counterexample(&self, hook: Option<&str>) {
        let index = match &*self.state.borrow() {
            CheckState::Done(report, _) => report
                .properties
                .iter()
                .position(|p| Some(p.property.hook()) == hook),
            _ => None,
        };
        let Some(index) = index else {
            return;
        };
        self.open
            .set((self.open.get() != Some(index)).then_some(index));
        self.show();
    }

    fn nudge(&self, delta: isize) {
        self.step_to(self.at.get().saturating_add_signed(delta));
    }

    /// Shows step `at` of the open counterexample (its last, if there are fewer).
    fn step_to(&self, at: usize) {
        let state = self.state.borrow();
        let CheckState::Done(report, _) = &*state else {
            return;
        };
        let Some(steps) = self
            .open
            .get()
            .and_then(|i| report.properties.get(i))
            .and_then(|p| p.counterexample.as_ref())
            .map(|c| &c.steps)
        else {
            return;
        };
        let at = at.min(steps.len().saturating_sub(1));
        self.at.set(at);
        for (i, item) in all::<Element>(self.root.query_selector_all(hooks::COUNTEREXAMPLE_STEPS))
            .iter()
            .enumerate()
        {
            let _ = item
                .class_list()
                .toggle_with_force(counterexample::CURRENT, i == at);
            if i == at {
                let _ = item.set_attribute("aria-current", "step");
            } else {
                let _ = item.remove_attribute("aria-current");
            }
        }
        self.set_attribute(hooks::STEP_BACK, "aria-disabled", truth(at == 0));
        self.set_attribute(
            hooks::STEP_FORWARD,
            "aria-disabled",
            truth(at + 1 >= steps.len()),
        );
        if let Some(frame) = self.find(hooks::FRAME) {
            frame.set_inner_html(&counterexample::frame(steps, at).finish());
        }
    }

    /// Shows the state: the picker's pressed button, the readout, the progress line, the Check
    /// button, the editor, and every region whose content changed.
    fn show(&self) {
        let picked = self.picked.borrow().clone();
        let state = self.state.borrow();
        for button in all::<Element>(self.root.query_selector_all(&having(picker::LOCK))) {
            let pressed = button.get_attribute(picker::LOCK) == picked;
            set_if_changed(&button, "aria-pressed", truth(pressed));
        }
        if let Some(readout) = self.find(READOUT_SELECTOR) {
            set_if_changed(&readout, TONE, verdicts::readout_tone(&state));
            set_text(&readout, &verdicts::readout_text(&state, picked.as_deref()));
        }
        let running = matches!(*state, CheckState::Running(_));
        if let Some(progress) = self.find(&having(explore::PROGRESS)) {
            set_if_changed(&progress, explore::STATE, explore::phase(&state));
            set_if_changed(&progress, "aria-busy", truth(running));
            set_text(&progress, &explore::line(&state));
        }
        let editing = picked.as_deref() == Some(CUSTOM_ID);
        if editing {
            // Filled once, then only hidden: what the reader typed stays.
            self.fill(Region::Custom, CUSTOM_ID.to_string(), || {
                Some(custom::custom_editor().finish())
            });
        }
        if let Some(editor) = self
            .find(&Region::Custom.selector())
            .and_then(|e| e.dyn_into::<HtmlElement>().ok())
        {
            if editor.hidden() == editing {
                editor.set_hidden(!editing);
            }
        }
        self.set_attribute(&having(custom::CHECK_RUN), "aria-disabled", truth(running));

        let generation = self.generation.get();
        let spec = picked
            .as_deref()
            .and_then(|id| self.locks.iter().find(|spec| spec.id == id));
        self.fill(
            Region::Scripts,
            spec.map_or(String::new(), |s| s.id.clone()),
            || spec.map(|s| scripts::lock_scripts(s).finish()),
        );
        let error = match &*state {
            CheckState::Failed(error) => error.clone(),
            _ => String::new(),
        };
        // Keyed by the check as well: the same error from another press of Check is put in
        // again, so its alert is read out again.
        let key = if error.is_empty() {
            String::new()
        } else {
            format!("{generation}:{error}")
        };
        self.fill(Region::Error, key, || {
            (!error.is_empty()).then(|| custom::check_error(&error).finish())
        });
        let report = match &*state {
            CheckState::Done(report, _) => Some(report),
            _ => None,
        };
        self.fill(
            Region::Verdicts,
            report.map_or(String::new(), |_| generation.to_string()),
            || report.map(|r| verdicts::verdict_rows(r).finish()),
        );
        let open = report.and(self.open.get());
        let opened = self.fill(
            Region::Counterexample,
            open.map_or(String::new(), |i| format!("{generation}:{i}")),
            || {
                let index = open?;
                counterexample::counterexample(report?, index).map(|m| m.finish())
            },
        );
        if opened {
            self.at.set(0);
        }
        if let Some(report) = report {
            for button in all::<Element>(
                self.root
                    .query_selector_all(&having(verdicts::OPEN_COUNTEREXAMPLE)),
            ) {
                let hook = property_of(&button);
                let Some((index, property)) = report
                    .properties
                    .iter()
                    .enumerate()
                    .find(|(_, p)| Some(p.property.hook()) == hook.as_deref())
                else {
                    continue;
                };
                let steps = property
                    .counterexample
                    .as_ref()
                    .map_or(0, |c| c.steps.len());
                let is_open = open == Some(index);
                set_if_changed(&button, "aria-expanded", truth(is_open));
                set_text(&button, &verdicts::open_label(steps, is_open));
            }
        }
    }

    /// Puts `render`'s markup in `region` (empties it for `None`) when `key` differs from what it
    /// shows. Returns whether it did.
    fn fill(&self, region: Region, key: String, render: impl FnOnce() -> Option<String>) -> bool {
        let slot = region as usize;
        if self.shown.borrow()[slot] == key {
            return false;
        }
        if let Some(element) = self.find(&region.selector()) {
            element.set_inner_html(&render().unwrap_or_default());
        }
        self.shown.borrow_mut()[slot] = key;
        true
    }

    fn set_attribute(&self, selector: &str, name: &str, value: &str) {
        if let Some(element) = self.find(selector) {
            set_if_changed(&element, name, value);
        }
    }
}

/// The property of the verdict row `element` is in.
fn property_of(element: &Element) -> Option<String> {
    element
        .closest(hooks::PROPERTIES)
        .ok()
        .flatten()?
        .get_attribute(verdicts::PROPERTY)
}
