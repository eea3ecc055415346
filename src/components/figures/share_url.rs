//! The URL fragment as the figures' shareable state: read once when a figure is created, written
//! back with `history.replaceState` whenever a learner changes something — one history entry, no
//! scroll, no `hashchange`. Parsing and clamping live in `scenarios::share`; this is only the web glue.
//!
//! The write waits until the browser has painted what the learner's input changed, and comes at
//! most once per [`WRITE_GAP_MS`]: `replaceState` is a navigation the browser books (0.4–1.8 ms
//! each unthrottled, under a 4× slowed CPU 1–7 ms of a fence commit), Chromium drops a frame's
//! history writes beyond 200 in 10 s, and the link only needs to be right by the time someone
//! copies it. Until then the state it will hold is what `read` and `update` start from.

use crate::scenarios::share::SharedState;

/// The state the page was opened with (defaults when the fragment is an anchor or absent). It
/// is also what [`update`] starts from until the next `read`.
pub fn read() -> SharedState {
    let state = SharedState::parse(&page::fragment());
    page::keep(state.clone());
    state
}

/// Applies `change` to the figures' state (leaving the other figure's fields as they are) and
/// writes the result into the fragment, if it differs. The state is the one kept since [`read`],
/// not the fragment's: a section link the learner followed meanwhile (`#s3`) holds no state, and
/// reading it back would drop the other figure's.
pub fn update(change: impl FnOnce(&mut SharedState)) {
    let current = page::fragment();
    let mut state = page::kept().unwrap_or_else(|| SharedState::parse(&current));
    change(&mut state);
    let fragment = state.to_fragment();
    page::keep(state);
    if fragment != current {
        page::replace_fragment(&fragment);
    }
}

/// The least time between two writes of the fragment, in ms. Chromium lets a frame make 200
/// `pushState`/`replaceState` calls in 10 s and silently drops the rest until the 10 s are up, so
/// writing once a frame, a learner stepping a slider for a few seconds would leave the link stuck
/// at a state they had already left. At most one write per 100 ms is half that rate, and the
/// latest state is still written: at most this long after the write before it, then after the
/// next paint.
pub const WRITE_GAP_MS: f64 = 100.0;

// Writing at every gap for 10 s uses at most half of Chromium's 200.
const _: () = assert!(10_000.0 / WRITE_GAP_MS <= 100.0);

/// How long to wait from `now` before the next write may go ahead, given when the last one was
/// made (`None`: never); all in ms on one clock.
#[cfg(any(target_arch = "wasm32", test))]
fn wait_before_write(last: Option<f64>, now: f64) -> f64 {
    last.map_or(0.0, |last| (last + WRITE_GAP_MS - now).max(0.0))
}

#[cfg(target_arch = "wasm32")]
mod page {
    use std::cell::{Cell, RefCell};

    use lockdive_first::dom::now_ms;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    #[wasm_bindgen]
    extern "C" {
        /// `history.replaceState(null, "", url)`: a bound global, so no extra web-sys feature.
        #[wasm_bindgen(js_namespace = history, js_name = replaceState, catch)]
        fn replace_state(data: &JsValue, unused: &str, url: &str) -> Result<(), JsValue>;
    }

    use crate::scenarios::share::SharedState;

    thread_local! {
        /// The figures' state as `read` and `update` last left it.
        static KEPT: RefCell<Option<SharedState>> = const { RefCell::new(None) };
        /// The fragment `replace_fragment` was given and has not written yet.
        static UNWRITTEN: RefCell<Option<String>> = const { RefCell::new(None) };
        /// When the last write was made (`performance.now()`), if one was.
        static LAST_WRITE: Cell<Option<f64>> = const { Cell::new(None) };
    }

    fn url() -> Option<String> {
        web_sys::window()?.document()?.url().ok()
    }

    /// The fragment in the URL, with its `#`, or an empty string.
    fn written() -> String {
        url()
            .and_then(|u| u.find('#').map(|at| u[at..].to_string()))
            .unwrap_or_default()
    }

    /// Keeps `state` as the figures' state.
    pub fn keep(state: SharedState) {
        KEPT.set(Some(state));
    }

    /// The figures' state as last kept, if it was.
    pub fn kept() -> Option<SharedState> {
        KEPT.with_borrow(Clone::clone)
    }

    /// The fragment with its `#`, or an empty string: the one about to be written, if any.
    pub fn fragment() -> String {
        UNWRITTEN.with_borrow(Clone::clone).unwrap_or_else(written)
    }

    /// Replaces the current history entry's fragment (an empty one drops the `#`) once the next
    /// frame is painted and [`super::WRITE_GAP_MS`] have passed since the last write; the latest
    /// fragment given by then is the one written.
    pub fn replace_fragment(fragment: &str) {
        let Some(window) = web_sys::window() else {
            return;
        };
        let queued = UNWRITTEN.with_borrow_mut(|unwritten| unwritten.replace(fragment.to_string()));
        if queued.is_some() {
            return;
        }
        let wait = super::wait_before_write(LAST_WRITE.get(), now_ms());
        // The gap's timeout, then a frame, then a timeout queued from that frame's callback,
        // which runs after the frame's paint.
        let after_gap = Closure::once_into_js(|| {
            let after_paint = Closure::once_into_js(|| {
                if let Some(window) = web_sys::window() {
                    let write = Closure::once_into_js(write);
                    let _ = window.set_timeout_with_callback(write.unchecked_ref());
                }
            });
            if let Some(window) = web_sys::window() {
                let _ = window.request_animation_frame(after_paint.unchecked_ref());
            }
        });
        // `wait` is at most WRITE_GAP_MS, so the cast cannot overflow.
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
            after_gap.unchecked_ref(),
            wait.ceil() as i32,
        );
    }

    /// Writes the fragment waiting to be written, unless the URL already has it.
    fn write() {
        let Some(fragment) = UNWRITTEN.take() else {
            return;
        };
        let Some(url) = url() else {
            return;
        };
        if fragment == written() {
            return;
        }
        let base = url.split('#').next().unwrap_or_default();
        LAST_WRITE.set(Some(now_ms()));
        // A refused replaceState (e.g. a sandboxed iframe) only costs the shareable link.
        let _refused = replace_state(&JsValue::NULL, "", &format!("{base}{fragment}"));
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod page {
    use crate::scenarios::share::SharedState;

    /// No page outside the browser: nothing to keep.
    pub fn keep(_state: SharedState) {}

    /// No page outside the browser: nothing kept.
    pub fn kept() -> Option<SharedState> {
        None
    }

    /// No page outside the browser: no fragment.
    pub fn fragment() -> String {
        String::new()
    }

    /// No page outside the browser: nothing to write.
    pub fn replace_fragment(_fragment: &str) {}
}

#[cfg(test)]
mod tests {
    use super::{wait_before_write, WRITE_GAP_MS};

    #[test]
    fn the_first_write_waits_for_nothing_but_the_paint() {
        assert_eq!(wait_before_write(None, 5_000.0), 0.0);
    }

    #[test]
    fn a_write_soon_after_another_waits_out_the_gap() {
        assert_eq!(
            wait_before_write(Some(1_000.0), 1_030.0),
            WRITE_GAP_MS - 30.0
        );
        assert_eq!(wait_before_write(Some(1_000.0), 1_000.0), WRITE_GAP_MS);
    }

    #[test]
    fn a_write_after_the_gap_waits_for_nothing_but_the_paint() {
        assert_eq!(
            wait_before_write(Some(1_000.0), 1_000.0 + WRITE_GAP_MS),
            0.0
        );
        assert_eq!(wait_before_write(Some(1_000.0), 9_000.0), 0.0);
    }
}
