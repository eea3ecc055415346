//! Reading the page's DOM from Rust, for both wasm modules (the lab uses it from here too): a
//! query's matches as a list of the element type the caller needs. A failed query (a selector
//! the browser refuses) or a node of another type reads as no match, never a panic.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::NodeList;

/// The nodes of a `query_selector_all` result that are a `T`, in document order.
pub fn all<T: JsCast>(matches: Result<NodeList, JsValue>) -> Vec<T> {
    let Ok(list) = matches else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<T>().ok())
        .collect()
}
