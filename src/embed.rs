//! How the page talks to whatever hosts it: in an iframe it posts its content height to the parent
//! (`{type: "lockdive:height", height}`) whenever that height changes, and once the figures are live it
//! says so (`data-interactive` on `<html>` and the `lockdive:interactive` performance mark).
//!
//! Embed mode itself (`?embed=1`: no chrome, transparent background, `?font=` for the host's font stack,
//! `?theme=`) is applied by the small script in `index.html`'s head, before the first paint, so an embed
//! never flashes the page's own background; `style/chrome.css` holds what it switches.

/// The `type` field of the height message a host listens for.
pub const HEIGHT_MESSAGE: &str = "lockdive:height";

/// The performance mark set once the figures answer the pointer and keyboard.
pub const INTERACTIVE_MARK: &str = "lockdive:interactive";

/// The performance mark set once the lab has taken the figures over (store, player, consoles live).
pub const LAB_MARK: &str = "lockdive:lab";

/// The element whose height is the content height: the page's `<main>`.
pub const CONTENT_SELECTOR: &str = "main.dive";

/// The height a host should give its iframe for content measuring `css_px` (rounded up, so the
/// frame never cuts the last sub-pixel line and never shows a scrollbar).
pub fn frame_height(css_px: f64) -> u32 {
    if css_px.is_finite() && css_px > 0.0 {
        css_px.ceil().min(f64::from(u32::MAX)) as u32
    } else {
        0
    }
}

/// Starts posting the content height to the parent window if the page is framed. Call once, after
/// the app has mounted (an `Effect`).
pub fn post_height_to_host() {
    #[cfg(target_arch = "wasm32")]
    web::post_height_to_host();
}

/// Marks the page interactive: the benchmark and the tests wait for this, not for a timeout.
pub fn announce_interactive() {
    #[cfg(target_arch = "wasm32")]
    web::announce_interactive();
}

/// Sets a performance mark, for the benchmark's timings.
pub fn mark(name: &str) {
    #[cfg(target_arch = "wasm32")]
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = name;
}

#[cfg(target_arch = "wasm32")]
mod web {
    use super::{frame_height, CONTENT_SELECTOR, HEIGHT_MESSAGE, INTERACTIVE_MARK};
    use std::cell::Cell;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    pub fn post_height_to_host() {
        let Some(window) = web_sys::window() else {
            return;
        };
        // Not framed: `parent` is the window itself and nobody listens.
        let Ok(Some(parent)) = window.parent() else {
            return;
        };
        if parent == window {
            return;
        }
        let Some(content) = window
            .document()
            .and_then(|d| d.query_selector(CONTENT_SELECTOR).ok().flatten())
        else {
            return;
        };
        let last = Cell::new(0u32);
        let measured = content.clone();
        let on_resize = Closure::<dyn FnMut()>::new(move || {
            let height = frame_height(measured.get_bounding_client_rect().height());
            if height != last.get() {
                last.set(height);
                post(&parent, height);
            }
        });
        let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) else {
            return;
        };
        observer.observe(&content);
        // Both live as long as the page: the observer fires for every later change in height.
        on_resize.forget();
        std::mem::forget(observer);
    }

    fn post(parent: &web_sys::Window, height: u32) {
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &"type".into(), &HEIGHT_MESSAGE.into());
        let _ = js_sys::Reflect::set(&message, &"height".into(), &height.into());
        // "*": the page cannot know who frames it, and its height is no secret. Hosts check the
        // message's origin and source (README, "Embedding").
        let _ = parent.post_message(&message, "*");
    }

    pub fn announce_interactive() {
        let Some(window) = web_sys::window() else {
            return;
        };
        if let Some(root) = window.document().and_then(|d| d.document_element()) {
            let _ = root.set_attribute("data-interactive", "");
        }
        super::mark(INTERACTIVE_MARK);
    }
}

#[cfg(test)]
mod tests {
    use super::frame_height;

    #[test]
    fn the_frame_height_rounds_up_so_no_line_is_cut() {
        assert_eq!(frame_height(1234.01), 1235);
        assert_eq!(frame_height(1234.0), 1234);
    }

    #[test]
    fn a_nonsense_measure_asks_for_no_height() {
        assert_eq!(frame_height(f64::NAN), 0);
        assert_eq!(frame_height(-3.0), 0);
        assert_eq!(frame_height(f64::INFINITY), 0);
    }
}
