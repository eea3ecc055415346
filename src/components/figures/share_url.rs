//! The URL fragment as the figures' shareable state: read once when a figure is created, written
//! back with `history.replaceState` whenever a learner changes something — one history entry, no
//! scroll, no `hashchange`. Parsing and clamping live in `scenarios::share`; this is only the web glue.

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
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        /// `history.replaceState(null, "", url)`: a bound global, so no extra web-sys feature.
        #[wasm_bindgen(js_namespace = history, js_name = replaceState, catch)]
        fn replace_state(data: &JsValue, unused: &str, url: &str) -> Result<(), JsValue>;
    }

    fn url() -> Option<String> {
        web_sys::window()?.document()?.url().ok()
    }

    /// The fragment with its `#`, or an empty string.
    pub fn fragment() -> String {
        url()
            .and_then(|u| u.find('#').map(|at| u[at..].to_string()))
            .unwrap_or_default()
    }

    /// Replaces the current history entry's fragment; an empty one drops the `#`.
    pub fn replace_fragment(fragment: &str) {
        let Some(url) = url() else {
            return;
        };
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
