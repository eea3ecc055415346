//! Figure 1's scenario player made live where the build left it: the sliders, the release radios,
//! the transport buttons and the timeline (its keys and its steps' buttons) change the player's
//! [`PlayHead`], and [`LivePlayer::show`] brings the markup in line with it — attributes and texts
//! set in place from the player's markup functions (`components::figures::player*`), the status
//! and the frame's exchange and keys put in when what they show changed — so the control the
//! learner holds keeps its focus and its drag. Each (lease, stall, release) is run once in
//! ministore (`TimelineCache`); a played step schedules the next; the shared link follows.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use gloo_timers::callback::Timeout;
use lockdive_first::dom::{all, on};
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement, KeyboardEvent};

use super::{reached, set_if_changed, set_text};
use crate::components::figures::player::{PLAY_STEP_MS, STEP};
use crate::components::figures::player_controls::{
    play_label, release_radio, value_text, value_words, Slider, BACK, FORWARD, PLAY, PLAYING,
    RELEASE, SLIDER, SLIDERS,
};
use crate::components::figures::player_frame::{
    clock_text, exchange, holder, key_rows, keys_caption, lease_left_style, pttl_text, shown_step,
    step_label, CLOCK, CURRENT, EXCHANGE, KEYS_BODY, KEYS_CAPTION, LEASE_BAR, LEASE_LEFT, NOTE,
    NOW, PTTL, TIMELINE,
};
use crate::components::figures::player_head::PlayHead;
use crate::components::figures::player_status::{status, STATUS};
use crate::components::figures::share_url;
use crate::components::markup::truth;
use crate::scenarios::lost_lock::ReleaseChoice;
use crate::scenarios::player::{Timeline, TimelineCache, STEP_COUNT};

/// The live player: its element, its state, the runs made so far and what the markup shows.
struct LivePlayer {
    root: Element,
    head: RefCell<PlayHead>,
    /// The head the shared link was last written for (or opened with).
    shared: RefCell<PlayHead>,
    cache: RefCell<TimelineCache>,
    /// The next played step, while playing; replacing it cancels the pending one, so stepping by
    /// hand while playing never double-advances.
    pending: RefCell<Option<Timeout>>,
    /// The run and head the markup shows now.
    shown: RefCell<Option<(Arc<Timeline>, PlayHead)>>,
    /// The markup last put in for the parts put in whole.
    markup: RefCell<ShownMarkup>,
}

/// What the parts the player puts in whole hold: empty until it first puts them in.
#[derive(Default)]
struct ShownMarkup {
    status: String,
    labels: Vec<String>,
    exchange: String,
    rows: String,
}

/// Wires the player built in `slot`. Returns false, wiring nothing, if the slot holds none or its
/// player is already wired.
pub fn enhance(slot: &Element) -> bool {
    let Some(root) = slot
        .query_selector(lockdive_contract::hooks::PLAYER_SELECTOR)
        .ok()
        .flatten()
    else {
        return false;
    };
    if !super::wire_once(&root) {
        return false;
    }
    let opened = PlayHead::from_shared(&share_url::read());
    let live = Rc::new(LivePlayer {
        root,
        head: RefCell::new(opened),
        shared: RefCell::new(opened),
        cache: RefCell::new(TimelineCache::default()),
        pending: RefCell::new(None),
        shown: RefCell::new(None),
        markup: RefCell::new(ShownMarkup::default()),
    });
    live.read_built();
    live.take_what_the_reader_set();
    live.show();
    for (name, handler) in [
        ("input", LivePlayer::on_input as fn(&Rc<LivePlayer>, &Event)),
        ("change", LivePlayer::on_change),
        ("click", LivePlayer::on_click),
        ("keydown", LivePlayer::on_key),
    ] {
        let live = live.clone();
        on(&live.root.clone(), name, move |event: Event| {
            handler(&live, &event)
        });
    }
    true
}

impl LivePlayer {
    fn find(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).ok().flatten()
    }

    fn input(&self, selector: &str) -> Option<HtmlInputElement> {
        self.find(selector)?.dyn_into().ok()
    }

    /// What the build put in the parts the player puts in whole: a part whose markup is the same
    /// is left as it stands.
    fn read_built(&self) {
        let mut shown = self.markup.borrow_mut();
        shown.status = self
            .find(STATUS)
            .map(|e| e.outer_html())
            .unwrap_or_default();
        shown.labels = self
            .steps()
            .iter()
            .map(|item| {
                item.query_selector("button")
                    .ok()
                    .flatten()
                    .map(|button| button.inner_html())
                    .unwrap_or_default()
            })
            .collect();
        shown.exchange = self
            .find(EXCHANGE)
            .map(|e| e.outer_html())
            .unwrap_or_default();
        shown.rows = self
            .find(KEYS_BODY)
            .map(|e| e.inner_html())
            .unwrap_or_default();
    }

    /// A slider the reader moved or a radio they picked before the chunk came (the build's
    /// default value or state changed) wins over the shared link; the others show the link's.
    fn take_what_the_reader_set(&self) {
        let mut head = self.head.borrow_mut();
        for slider in Slider::ALL {
            let Some(input) = self.input(&slider.selector()) else {
                continue;
            };
            if input.value() != input.default_value() {
                if let Ok(ms) = input.value().parse::<u64>() {
                    slider.set(&mut head, ms);
                }
            } else {
                input.set_value(&slider.value(&head).to_string());
            }
        }
        let radios: Vec<(ReleaseChoice, HtmlInputElement)> = ReleaseChoice::ALL
            .into_iter()
            .filter_map(|choice| {
                let radio = self.input(&release_radio(choice))?;
                Some((choice, radio))
            })
            .collect();
        if radios
            .iter()
            .any(|(_, r)| r.checked() != r.default_checked())
        {
            if let Some((choice, _)) = radios.iter().find(|(_, r)| r.checked()) {
                head.choice = *choice;
            }
        } else {
            for (choice, radio) in &radios {
                radio.set_checked(head.choice == *choice);
            }
        }
    }

    /// A slider moved: its value, clamped onto its range.
    fn on_input(self: &Rc<Self>, event: &Event) {
        let Some(input) =
            reached(event, SLIDERS).and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
        else {
            return;
        };
        let hook = input.get_attribute(SLIDER).unwrap_or_default();
        let (Some(slider), Ok(ms)) = (
            Slider::ALL.into_iter().find(|s| s.hook() == hook),
            input.value().parse::<u64>(),
        ) else {
            return;
        };
        self.change(&|head| slider.set(head, ms));
    }

    /// A release radio picked.
    fn on_change(self: &Rc<Self>, event: &Event) {
        let Some(radio) = reached(event, &format!("input[{RELEASE}]")) else {
            return;
        };
        let hook = radio.get_attribute(RELEASE).unwrap_or_default();
        if let Some(choice) = ReleaseChoice::ALL.into_iter().find(|c| c.hook() == hook) {
            self.change(&|head| head.choice = choice);
        }
    }

    /// Back, play/pause, forward, or a step on the timeline.
    fn on_click(self: &Rc<Self>, event: &Event) {
        if reached(event, BACK).is_some() {
            self.change(&|head| head.nudge(-1));
        } else if reached(event, PLAY).is_some() {
            self.change(&PlayHead::toggle);
        } else if reached(event, FORWARD).is_some() {
            self.change(&|head| head.nudge(1));
        } else if let Some(item) = reached(event, &format!("{TIMELINE} li")) {
            let at = self.steps().iter().position(|li| *li == item);
            if let Some(at) = at {
                self.change(&|head| head.step = at);
            }
        }
    }

    /// ← → ↑ ↓ Home End on the focused timeline.
    fn on_key(self: &Rc<Self>, event: &Event) {
        let Some(key) = event.dyn_ref::<KeyboardEvent>() else {
            return;
        };
        if reached(event, TIMELINE).is_none() {
            return;
        }
        match key.key().as_str() {
            "ArrowRight" | "ArrowDown" => self.change(&|head| head.nudge(1)),
            "ArrowLeft" | "ArrowUp" => self.change(&|head| head.nudge(-1)),
            "Home" => self.change(&|head| head.step = 0),
            "End" => self.change(&|head| head.step = STEP_COUNT - 1),
            _ => return,
        }
        key.prevent_default();
        // Focus on a step's button (a click put it there) follows the current step, so it never
        // rests on a step that is no longer current; focus on the list itself stays there.
        if reached(event, &format!("{TIMELINE} li")).is_some() {
            let step = self.head.borrow().step;
            let button = self
                .steps()
                .get(step)
                .and_then(|li| li.query_selector("button").ok().flatten())
                .and_then(|b| b.dyn_into::<HtmlElement>().ok());
            if let Some(button) = button {
                let _ = button.focus();
            }
        }
    }

    /// Changes the head, then shows it, schedules the next played step if the step or playback
    /// changed, and writes the shared link.
    fn change(self: &Rc<Self>, change: &dyn Fn(&mut PlayHead)) {
        let before = *self.head.borrow();
        {
            let mut head = self.head.borrow_mut();
            change(&mut head);
            if head.playing && head.at_end() {
                head.playing = false;
            }
        }
        self.show();
        let head = *self.head.borrow();
        if (head.step, head.playing) != (before.step, before.playing) {
            self.play_on();
        }
        let changed = {
            let shared = self.shared.borrow();
            (shared.step, shared.lease_ms, shared.stall_ms, shared.choice)
                != (head.step, head.lease_ms, head.stall_ms, head.choice)
        };
        if changed {
            *self.shared.borrow_mut() = head;
            share_url::update(|state| head.share(state));
        }
    }

    /// While playing, the next step comes in [`PLAY_STEP_MS`]; any change cancels the one pending.
    fn play_on(self: &Rc<Self>) {
        let playing = self.head.borrow().playing;
        let next = playing.then(|| {
            let live = self.clone();
            Timeout::new(PLAY_STEP_MS, move || live.change(&|head| head.nudge(1)))
        });
        // Called from the fired timer's own callback too, which this drops: wasm-bindgen frees a
        // closure only once it has returned.
        let _previous = self.pending.replace(next);
    }

    /// The timeline's items.
    fn steps(&self) -> Vec<Element> {
        all(self.root.query_selector_all(&format!("{TIMELINE} > li")))
    }

    /// Brings the markup in line with the head: what did not change is not touched.
    fn show(&self) {
        let head = *self.head.borrow();
        let timeline = self.cache.borrow_mut().get(head.setup(), head.choice);
        let shown = self.shown.borrow().clone();
        let new_run = shown
            .as_ref()
            .is_none_or(|(run, _)| !Arc::ptr_eq(run, &timeline));
        let before = shown.map(|(_, head)| head);
        set_if_changed(&self.root, STEP, &head.step.to_string());
        for slider in Slider::ALL {
            let ms = slider.value(&head);
            if let Some(output) = self.find(&slider.output_selector()) {
                set_text(&output, &value_text(ms));
            }
            if let Some(input) = self.find(&slider.selector()) {
                set_if_changed(&input, "aria-valuetext", &value_words(ms));
            }
        }
        if new_run {
            let markup = status(&timeline).finish();
            let mut shown = self.markup.borrow_mut();
            if shown.status != markup {
                if let Some(line) = self.find(STATUS) {
                    line.set_outer_html(&markup);
                }
                shown.status = markup;
            }
        }
        self.show_timeline(&timeline, &head, new_run);
        self.show_transport(&head);
        if new_run || before.is_none_or(|b| b.step != head.step) {
            self.show_frame(&timeline, &head);
        }
        *self.shown.borrow_mut() = Some((timeline, head));
    }

    /// The steps' words (for a new run) and which one is current.
    fn show_timeline(&self, timeline: &Timeline, head: &PlayHead, new_run: bool) {
        let mut shown = self.markup.borrow_mut();
        shown.labels.resize(timeline.steps.len(), String::new());
        for (i, item) in self.steps().iter().enumerate() {
            if let (true, Some(step), Some(label_shown)) =
                (new_run, timeline.steps.get(i), shown.labels.get_mut(i))
            {
                let label = step_label(timeline, step).finish();
                if *label_shown != label {
                    if let Ok(Some(button)) = item.query_selector("button") {
                        button.set_inner_html(&label);
                    }
                    *label_shown = label;
                }
            }
            let current = i == head.step;
            if item.class_list().contains(CURRENT) != current {
                let _ = item.class_list().toggle_with_force(CURRENT, current);
            }
            if current {
                set_if_changed(item, "aria-current", "step");
            } else if item.has_attribute("aria-current") {
                let _ = item.remove_attribute("aria-current");
            }
        }
    }

    /// Back and forward disabled at the ends; play showing Pause while playing.
    fn show_transport(&self, head: &PlayHead) {
        if let Some(back) = self.find(BACK) {
            set_if_changed(&back, "aria-disabled", truth(head.at_start()));
        }
        if let Some(forward) = self.find(FORWARD) {
            set_if_changed(&forward, "aria-disabled", truth(head.at_end()));
        }
        if let Some(play) = self.find(PLAY) {
            let playing = truth(head.playing);
            if play.get_attribute(PLAYING).as_deref() != Some(playing) {
                let _ = play.set_attribute(PLAYING, playing);
                play.set_inner_html(&play_label(head.playing).finish());
            }
        }
    }

    /// The clocks, the lease bar and the step's detail.
    fn show_frame(&self, timeline: &Timeline, head: &PlayHead) {
        let step = shown_step(timeline, head);
        if let Some(clock) = self.find(CLOCK) {
            set_text(&clock, &clock_text(step));
        }
        if let Some(pttl) = self.find(PTTL) {
            set_text(&pttl, &pttl_text(step));
        }
        if let Some(bar) = self.find(LEASE_BAR) {
            match holder(step) {
                Some(holder) => set_if_changed(&bar, "data-holder", &holder),
                None => {
                    let _ = bar.remove_attribute("data-holder");
                }
            }
        }
        if let Some(left) = self.find(LEASE_LEFT) {
            set_if_changed(
                &left,
                "style",
                &lease_left_style(step, timeline.setup.lease_ms),
            );
        }
        let Some(step) = step else {
            return;
        };
        let Some(now) = self.find(NOW) else {
            return;
        };
        set_text(&now, &timeline.title_of(step));
        let mut shown = self.markup.borrow_mut();
        let exchange = exchange(step).finish();
        if shown.exchange != exchange {
            match self.find(EXCHANGE) {
                Some(line) if exchange.is_empty() => line.remove(),
                Some(line) => line.set_outer_html(&exchange),
                None => {
                    let _ = now.insert_adjacent_html("afterend", &exchange);
                }
            }
            shown.exchange = exchange;
        }
        if let Some(caption) = self.find(KEYS_CAPTION) {
            set_text(&caption, &keys_caption(step));
        }
        let rows = key_rows(&step.keys).finish();
        if shown.rows != rows {
            if let Some(body) = self.find(KEYS_BODY) {
                body.set_inner_html(&rows);
            }
            shown.rows = rows;
        }
        if let Some(note) = self.find(NOTE) {
            set_text(&note, &timeline.note(step));
        }
    }
}
