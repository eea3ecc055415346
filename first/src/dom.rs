//! Reading and listening to the page's DOM from Rust, for both wasm modules (the lab uses it from
//! here too): a query's matches as a list of the element type the caller needs — a failed query
//! (a selector the browser refuses) or a node of another type reads as no match, never a panic —
//! a listener kept for the page's life, and the page's monotonic clock.

use wasm_bindgen::convert::FromWasmAbi;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{EventTarget, NodeList};

/// The nodes of a `query_selector_all` result that are a `T`, in document order.
pub fn all<T: JsCast>(matches: Result<NodeList, JsValue>) -> Vec<T> {
    let Ok(list) = matches else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<T>().ok())
        .collect()
}

/// Calls `handler` on every `name` event at `target` for the page's life: the parts of the page
/// both modules listen on stay as long, so the listener is never removed.
pub fn on<E: FromWasmAbi + 'static>(
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

/// The page's monotonic clock in ms, `performance.now()`; 0 where there is none.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}
