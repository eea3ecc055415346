//! Figure 2's side of the hand-over: the lab's one committed fence per figure, shared by the
//! figure's live parts; the commits the first wasm asks for on the figure (`hooks::COMMIT`,
//! `hooks::COMMIT_EVENT`), each taken once; and the word back once the readout sources show the new
//! state (`hooks::OUTCOMES_EVENT`).

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::{CustomEvent, CustomEventInit, Element, Event};

use lockdive_contract::hooks::{COMMIT, COMMIT_EVENT, OUTCOMES_EVENT};

use crate::components::figures::FenceLive;

/// The hand-over the figures' chunk mounts figure 2's parts with.
pub const HANDOVER: super::FenceHandover = super::FenceHandover { live_for, connect };

/// The figure's committed fence, made when its first part is mounted.
pub fn live_for(fences: &mut Vec<(Element, FenceLive)>, figure: Element) -> FenceLive {
    if let Some((_, live)) = fences.iter().find(|(f, _)| *f == figure) {
        return *live;
    }
    let live = FenceLive::new();
    fences.push((figure, live));
    live
}

/// Connects the mounted parts to the figure: takes a commit asked for before the lab was live,
/// listens for the next ones, and tells the first wasm whenever the readout sources changed (once
/// now, for a state a shared link opened on).
pub fn connect(figure: &Element, live: FenceLive) {
    let asked = figure.clone();
    lockdive_first::dom::on(figure, COMMIT_EVENT, move |_: Event| {
        take_commit(&asked, live)
    });
    let told = figure.clone();
    Effect::new(move |_| {
        // Every commit and reset changes the board; the commit just made, if any, rides along.
        live.board.track();
        let committed = live.just_committed.get().map(|outcome| outcome.token);
        let told = told.clone();
        leptos::task::spawn_local(async move {
            // The sources' DOM updates are queued as microtasks before this one: one more turn of
            // the microtask queue and they have landed, before the browser paints.
            leptos::task::tick().await;
            announce_outcomes(&told, committed);
        });
    });
    take_commit(figure, live);
}

/// Takes the commit the figure asks for, if any, and carries it out.
fn take_commit(figure: &Element, live: FenceLive) {
    let Some(key) = figure.get_attribute(COMMIT) else {
        return;
    };
    let _ = figure.remove_attribute(COMMIT);
    if let Ok(token) = key.parse::<i64>() {
        live.commit(token);
    }
}

/// Fires [`OUTCOMES_EVENT`] on the figure, with the committed writer's key as its detail.
fn announce_outcomes(figure: &Element, committed: Option<i64>) {
    let init = CustomEventInit::new();
    let detail = committed.map_or(JsValue::NULL, |token| JsValue::from_str(&token.to_string()));
    init.set_detail(&detail);
    if let Ok(event) = CustomEvent::new_with_event_init_dict(OUTCOMES_EVENT, &init) {
        let _ = figure.dispatch_event(&event);
    }
}
