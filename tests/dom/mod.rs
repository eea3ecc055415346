//! What every wasm-bindgen test does to the DOM, in one place: mount a component into a fresh
//! element ([`Mounted`]) — live, or as on the page ([`Mounted::built`]: the build's markup made to
//! answer by the first wasm, then [`Mounted::with_lab`]) — wait a tick for the DOM to update, fire
//! the events a learner's pointer, keyboard or finger would, and read or set the URL fragment. A test file adds what its
//! own component needs (a figure's writers, the console's prompt) in its own `impl Mounted` block.
//!
//! Declared with `mod dom;` only from wasm-only test files (each carries
//! `#![cfg(target_arch = "wasm32")]`), so it never builds for the host.
// Each test file is its own crate and uses only some of these helpers; the rest would warn.
#![allow(dead_code)]

use gloo_timers::future::TimeoutFuture;
use leptos::mount::mount_to;
use leptos::prelude::*;
use lockdive_contract::choice_layers::LEAVE_GRACE_MS;
use lockdive_contract::hooks::{FIGURE, LAB_FIGURES, READOUT_SELECTOR, SELECTED};
use lockdive_contract::lab::LabState;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    Element, Event, EventInit, FocusEvent, FocusEventInit, HtmlElement, KeyboardEvent,
    KeyboardEventInit, PointerEvent, PointerEventInit,
};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = history, js_name = replaceState)]
    fn replace_state(data: &JsValue, unused: &str, url: &str);
}

/// A component mounted into its own element; dropping it unmounts the component and removes the
/// element, so each test starts from an empty page.
pub struct Mounted {
    /// The element the component is mounted into; queries are scoped to it.
    pub root: HtmlElement,
    _handle: Box<dyn std::any::Any>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

impl Mounted {
    /// Mounts `component` into a fresh `<div>` appended to the body. Leptos has not rendered
    /// reactive updates yet: await [`tick`] (or use [`Mounted::settled`]) before reading.
    pub fn new<F, N>(component: F) -> Mounted
    where
        F: FnOnce() -> N + 'static,
        N: IntoView + 'static,
    {
        let document = document();
        let root: HtmlElement = document
            .create_element("div")
            .expect("a div")
            .unchecked_into();
        document
            .body()
            .expect("a body")
            .append_child(&root)
            .expect("appended");
        let handle = mount_to(root.clone(), component);
        Mounted {
            root,
            _handle: Box::new(handle),
        }
    }

    /// An element already in the page (a copy of rendered markup, say) held as a mount: queries
    /// are scoped to it, and dropping it removes it.
    pub fn adopt(root: HtmlElement) -> Mounted {
        Mounted {
            root,
            _handle: Box::new(()),
        }
    }

    /// [`Mounted::new`], then one tick so the first render has settled.
    pub async fn settled<F, N>(component: F) -> Mounted
    where
        F: FnOnce() -> N + 'static,
        N: IntoView + 'static,
    {
        let mounted = Mounted::new(component);
        tick().await;
        mounted
    }

    /// `component` as the page has it before the lab: rendered as the build renders it, copied
    /// without the renderer's listeners (the build's HTML has none), and its figures made to
    /// answer by the first wasm. The figures' lab chunk counts as on its way
    /// (`<html data-lab-figures="loading">`), so a commit is kept for [`Mounted::with_lab`] instead
    /// of fetching a script the test page lacks.
    pub async fn built<F, N>(component: F) -> Mounted
    where
        F: FnOnce() -> N + 'static,
        N: IntoView + 'static,
    {
        let rendered = Mounted::settled(component).await;
        let root: HtmlElement = rendered
            .root
            .clone_node_with_deep(true)
            .expect("a deep copy")
            .unchecked_into();
        drop(rendered);
        document()
            .body()
            .expect("a body")
            .append_child(&root)
            .expect("appended");
        let html = document().document_element().expect("<html>");
        if !html.has_attribute(LAB_FIGURES) {
            html.set_attribute(LAB_FIGURES, LabState::Loading.attribute())
                .expect("marked");
        }
        lockdive_first::figure::enhance_all(&root);
        Mounted {
            root,
            _handle: Box::new(()),
        }
    }

    /// Every lab chunk mounts its live parts under the root, then one tick for them to settle.
    pub async fn with_lab(self) -> Mounted {
        lockdive::lab::figures::LAB.mount_in(&self.root);
        lockdive::lab::store::LAB.mount_in(&self.root);
        lockdive::lab::check::LAB.mount_in(&self.root);
        tick().await;
        self
    }

    /// The first element under the root matching `selector`; panics naming it when none does.
    pub fn find(&self, selector: &str) -> HtmlElement {
        self.root
            .query_selector(selector)
            .expect("a valid selector")
            .unwrap_or_else(|| panic!("no element matches {selector}"))
            .unchecked_into()
    }

    /// Every element under the root matching `selector`, in document order.
    pub fn all(&self, selector: &str) -> Vec<Element> {
        let list = self
            .root
            .query_selector_all(selector)
            .expect("a valid selector");
        (0..list.length())
            .filter_map(|i| list.item(i))
            .filter_map(|node| node.dyn_into::<Element>().ok())
            .collect()
    }

    pub fn count(&self, selector: &str) -> u32 {
        self.root
            .query_selector_all(selector)
            .expect("a valid selector")
            .length()
    }

    pub fn text(&self, selector: &str) -> String {
        self.find(selector).text_content().unwrap_or_default()
    }

    /// Asserts the mount holds exactly one `figure[data-figure=figure]` and in it exactly one
    /// `[data-readout]`, an `aria-live="polite"` region (the hooks README documents).
    pub fn assert_one_figure_with_a_live_readout(&self, figure: &str) {
        assert_eq!(self.count(&format!("figure[{FIGURE}=\"{figure}\"]")), 1);
        assert_eq!(self.count(READOUT_SELECTOR), 1, "{figure}: one readout");
        assert_eq!(
            self.find(READOUT_SELECTOR)
                .get_attribute("aria-live")
                .as_deref(),
            Some("polite"),
            "{figure}: the readout is announced politely"
        );
    }

    /// The figure's live readout (`[data-readout]`).
    pub fn readout(&self) -> String {
        self.text(READOUT_SELECTOR)
    }

    /// The choice the figure marks as selected (`data-selected` on its `<figure>`).
    pub fn selected(&self) -> Option<String> {
        self.find("figure").get_attribute(SELECTED)
    }
}

/// Yields to the browser once so Leptos can apply pending DOM updates.
pub async fn tick() {
    TimeoutFuture::new(0).await;
}

/// Waits for the next frame and the tasks queued from it: a figure writes its state into the URL
/// then.
pub async fn after_paint() {
    let painted = std::rc::Rc::new(std::cell::Cell::new(false));
    let flag = std::rc::Rc::clone(&painted);
    request_animation_frame(move || {
        set_timeout(move || flag.set(true), std::time::Duration::ZERO);
    });
    while !painted.get() {
        TimeoutFuture::new(5).await;
    }
}

/// Waits out the grace a hovering pointer's leave gets before it clears its choice
/// (`lockdive_contract::choice_layers::LEAVE_GRACE_MS`), plus a tick.
pub async fn past_leave_grace() {
    TimeoutFuture::new(LEAVE_GRACE_MS + 30).await;
}

/// Which device a synthetic pointer event claims to come from (its `pointerType`).
#[derive(Clone, Copy, Debug)]
pub enum PointerKind {
    Mouse,
    Touch,
}

impl PointerKind {
    fn pointer_type(self) -> &'static str {
        match self {
            PointerKind::Mouse => "mouse",
            PointerKind::Touch => "touch",
        }
    }
}

/// Fires a pointer event `kind` (e.g. `pointerenter`) at `target`. Real `pointerenter` and
/// `pointerleave` do not bubble and `pointerdown` does, so callers say which they mimic.
pub fn pointer(target: &Element, kind: &str, device: PointerKind, bubbles: bool) {
    let init = PointerEventInit::new();
    init.set_bubbles(bubbles);
    init.set_pointer_type(device.pointer_type());
    let event = PointerEvent::new_with_event_init_dict(kind, &init).expect("a pointer event");
    target.dispatch_event(&event).expect("dispatched");
}

/// Fires a focus event `kind` (`focus` or `blur`) at `target`.
pub fn focus(target: &Element, kind: &str) {
    let init = FocusEventInit::new();
    let event = FocusEvent::new_with_focus_event_init_dict(kind, &init).expect("a focus event");
    target.dispatch_event(&event).expect("dispatched");
}

/// Fires a bubbling `keydown` for `key` at `target`; `cancelable` lets the handler's
/// `preventDefault` take effect, as on a real key press in an input.
pub fn key_down(target: &Element, key: &str, cancelable: bool) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    if cancelable {
        init.set_cancelable(true);
    }
    let event =
        KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("a key event");
    target.dispatch_event(&event).expect("dispatched");
}

/// Escape pressed while `target` has focus.
pub fn escape(target: &Element) {
    key_down(target, "Escape", false);
}

/// Fires a plain bubbling event `kind` (e.g. `click` or `input`) at `target`.
pub fn bubbling_event(target: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict(kind, &init).expect("an event");
    target.dispatch_event(&event).expect("dispatched");
}

/// A tap or click: a mouse pointerdown, then the click the browser would follow it with.
pub fn tap(target: &HtmlElement) {
    pointer(target, "pointerdown", PointerKind::Mouse, true);
    target.click();
}

/// A tap on the page outside any figure target.
pub fn tap_elsewhere() {
    let body = document().body().expect("a body");
    pointer(&body, "pointerdown", PointerKind::Mouse, true);
    bubbling_event(&body, "click");
}

/// Replaces the test page's URL fragment with `fragment` (e.g. `#fence=35`) without a reload.
pub async fn set_fragment(fragment: &str) {
    // A figure's own write, due after the write gap and the next paint, lands first rather than
    // over this one.
    after_share_write().await;
    let url = document().url().expect("a URL");
    let base = url.split('#').next().unwrap_or_default().to_string();
    replace_state(&JsValue::NULL, "", &format!("{base}{fragment}"));
}

/// The test page's URL fragment including its `#`, or empty when there is none.
pub fn fragment() -> String {
    let url = document().url().expect("a URL");
    url.find('#')
        .map(|at| url[at..].to_string())
        .unwrap_or_default()
}

/// The fragment once the figures' pending write has landed: they write their state into the URL
/// after the frame their change is painted in, at most once per `share_url::WRITE_GAP_MS`.
pub async fn painted_fragment() -> String {
    after_share_write().await;
    fragment()
}

/// Waits until a write of the figures' state into the URL, asked for before this call, has
/// landed: the gap a write may wait out after the one before it, then the frame it waits for.
async fn after_share_write() {
    TimeoutFuture::new(lockdive::components::figures::share_url::WRITE_GAP_MS as u32 + 5).await;
    after_paint().await;
}
