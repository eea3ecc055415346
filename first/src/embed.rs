//! How the page talks to whatever hosts it, in the browser: framed, it posts its content height to
//! the parent once at start and then whenever that height changes, and follows the theme and font
//! messages of a parent on the allow-list; once the figures answer it says so (`data-interactive`
//! on `<html>` and a performance mark). The messages, the allow-list's rules and the font rule are
//! `lockdive_contract::embed`'s. All of it runs in the first wasm, so a host is heard before the
//! lab loads; embed mode itself (`?embed=1`) is applied by index.html's head script.

use std::cell::Cell;

use lockdive_contract::embed::{
    choose_host_origins, frame_height, HostMessage, CONTENT_SELECTOR, HEIGHT_MESSAGE,
    HOST_FONT_PATTERN, HOST_ORIGIN_PARAM, HOST_ORIGIN_SELECTOR, INTERACTIVE_MARK,
};
use lockdive_contract::hooks::INTERACTIVE;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Whether the page is framed by another.
pub fn is_framed(window: &web_sys::Window) -> bool {
    framing_parent(window).is_some()
}

/// The parent window, if the page is framed (unframed, `parent` is the window itself).
fn framing_parent(window: &web_sys::Window) -> Option<web_sys::Window> {
    let parent = window.parent().ok().flatten()?;
    (parent != *window).then_some(parent)
}

/// Starts following the framing host's theme and font messages, if the page is framed and the
/// allow-list names at least one origin. Call before [`post_height_to_host`]: a host that answers
/// the first height message with its current theme is then always heard.
pub fn follow_host() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(parent) = framing_parent(&window) else {
        return;
    };
    let Some(document) = window.document() else {
        return;
    };
    let query = window
        .location()
        .href()
        .ok()
        .and_then(|href| web_sys::Url::new(&href).ok())
        .and_then(|url| url.search_params().get(HOST_ORIGIN_PARAM));
    let meta = document
        .query_selector(HOST_ORIGIN_SELECTOR)
        .ok()
        .flatten()
        .and_then(|meta| meta.get_attribute("content"));
    let origins = choose_host_origins(query.as_deref(), meta.as_deref());
    if origins.is_empty() {
        return;
    }
    let Some(root) = document
        .document_element()
        .and_then(|root| root.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return;
    };
    let font_rule = js_sys::RegExp::new(HOST_FONT_PATTERN, "");
    let parent = JsValue::from(parent);
    crate::dom::on(&window, "message", move |event: web_sys::MessageEvent| {
        // Only the window that frames this page, and only from an origin on the list.
        let from_parent = event
            .source()
            .is_some_and(|source| JsValue::from(source) == parent);
        if !from_parent || !origins.contains(&event.origin()) {
            return;
        }
        let data = event.data();
        let field = |name: &str| {
            data.is_object()
                .then(|| js_sys::Reflect::get(&data, &name.into()).ok())
                .flatten()
                .and_then(|value| value.as_string())
        };
        let kind = field("type");
        let theme = field("theme");
        match HostMessage::read(kind.as_deref(), theme.as_deref(), field("font")) {
            Some(HostMessage::Theme(choice)) => crate::theme::show(choice),
            Some(HostMessage::Font(font)) if font_rule.test(&font) => {
                let _ = root.style().set_property("--font-sans", &font);
            }
            _ => {}
        }
    });
}

/// Posts the content height to the parent window now and whenever it changes, if the page is
/// framed.
pub fn post_height_to_host() {
    let Some(window) = web_sys::window() else {
        return;
    };
    // Not framed: nobody listens.
    let Some(parent) = framing_parent(&window) else {
        return;
    };
    let Some(content) = window
        .document()
        .and_then(|d| d.query_selector(CONTENT_SELECTOR).ok().flatten())
    else {
        return;
    };
    let last = Cell::new(0u32);
    let measured = content.clone();
    let report = move || {
        let height = frame_height(measured.get_bounding_client_rect().height());
        if height != last.get() {
            last.set(height);
            post(&parent, height);
        }
    };
    // Once now, measured on the spot: Chromium skips the rendering of a cross-origin frame the
    // reader cannot see, and with it the observer's first callback, so a dive framed below the
    // fold would otherwise say nothing (not even that it listens) until scrolled to.
    report();
    let on_resize = Closure::<dyn FnMut()>::new(report);
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

/// Marks the page interactive: the benchmark and the tests wait for this, not for a timeout.
pub fn announce_interactive() {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Some(root) = window.document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute(INTERACTIVE, "");
    }
    mark(INTERACTIVE_MARK);
}

/// Sets a performance mark, for the benchmark's timings.
pub fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
}
