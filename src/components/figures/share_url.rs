//! The URL fragment as the figures' shareable state: read once when a figure is created, written
//! back with `history.replaceState` whenever a learner changes something — one history entry, no
//! scroll, no `hashchange`. Parsing and clamping live in `scenarios::share`; this is only the web glue.
//!
//! The write waits until the browser has painted what the learner's input changed: `replaceState`
//! is a navigation the browser books (under a 4× slowed CPU it took 1–7 ms of a fence commit), and
//! the link only needs to be right by the time someone copies it. Until then the state it will
//! hold is what `read` and `update` start from.

use crate::scenarios::share::SharedState;

/// The state the page was opened with (defaults when the fragment is an anchor or absent).
pub fn read() -> SharedState {
    SharedState::parse(&page::fragment())
}

/// Applies `change` to the state in the fragment (leaving the other figure's fields as they
/// are) and writes the result back, if it differs.
pub fn update(change: impl FnOnce(&mut SharedState)) {
    let current = page::fragment();
    let mut state = SharedState::parse(&current);
    change(&mut state);
    let fragment = state.to_fragment();
    if fragment != current {
        page::replace_fragment(&fragment);
    }
}

#[cfg(target_arch = "wasm32")]
mod page {
    use std::cell::RefCell;

    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    #[wasm_bindgen]
    extern "C" {
        /// `history.replaceState(null, "", url)`: a bound global, so no extra web-sys feature.
        #[wasm_bindgen(js_namespace = history, js_name = replaceState, catch)]
        fn replace_state(data: &JsValue, unused: &str, url: &str) -> Result<(), JsValue>;
    }

    thread_local! {
        /// The fragment `replace_fragment` was given and has not written yet.
        static UNWRITTEN: RefCell<Option<String>> = const { RefCell::new(None) };
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

    /// The fragment with its `#`, or an empty string: the one about to be written, if any.
    pub fn fragment() -> String {
        UNWRITTEN.with_borrow(Clone::clone).unwrap_or_else(written)
    }

    /// Replaces the current history entry's fragment (an empty one drops the `#`) once the next
    /// frame is painted; the latest fragment given by then is the one written.
    pub fn replace_fragment(fragment: &str) {
        let queued = UNWRITTEN.with_borrow_mut(|unwritten| unwritten.replace(fragment.to_string()));
        if queued.is_none() {
            // A timeout queued from an animation frame callback runs after that frame's paint.
            let after_paint = Closure::once_into_js(|| {
                if let Some(window) = web_sys::window() {
                    let write = Closure::once_into_js(write);
                    let _ = window.set_timeout_with_callback(write.unchecked_ref());
                }
            });
            if let Some(window) = web_sys::window() {
                let _ = window.request_animation_frame(after_paint.unchecked_ref());
            }
        }
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
        // A refused replaceState (e.g. a sandboxed iframe) only costs the shareable link.
        let _refused = replace_state(&JsValue::NULL, "", &format!("{base}{fragment}"));
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod page {
    /// No page outside the browser: no fragment.
    pub fn fragment() -> String {
        String::new()
    }

    /// No page outside the browser: nothing to write.
    pub fn replace_fragment(_fragment: &str) {}
}
