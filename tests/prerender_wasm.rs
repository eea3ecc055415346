//! The wasm's takeover of a prerendered page: exactly the nodes between the prerender's marks go,
//! everything else in `<body>` (Trunk's scripts, the test runner's own output) stays, and the app
//! mounted right after is the only copy of the page.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use lockdive::prerender::{remove_prerendered, END_MARK, START_MARK};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Document, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a document")
}

fn body() -> HtmlElement {
    document().body().expect("a body")
}

/// Appends a prerendered page (two top-level nodes between the marks) with a node on each side.
fn append_prerendered_page(inside: &str) {
    body()
        .insert_adjacent_html(
            "beforeend",
            &format!(
                "<p id=\"kept-before\">host</p><!--{START_MARK}-->{inside}<!--{END_MARK}-->\
                 <script id=\"kept-after\" type=\"text/plain\"></script>"
            ),
        )
        .expect("insert the prerendered page");
}

fn count(css: &str) -> u32 {
    document()
        .query_selector_all(css)
        .map(|nodes| nodes.length())
        .unwrap_or(0)
}

fn marks_left() -> usize {
    let mut left = 0;
    let mut next = body().first_child();
    while let Some(node) = next {
        next = node.next_sibling();
        let value = node.node_value().unwrap_or_default();
        if node.node_type() == web_sys::Node::COMMENT_NODE
            && (value == START_MARK || value == END_MARK)
        {
            left += 1;
        }
    }
    left
}

fn remove_by_id(id: &str) {
    if let Some(element) = document().get_element_by_id(id) {
        element.remove();
    }
}

#[wasm_bindgen_test]
fn the_takeover_removes_the_prerendered_nodes_and_nothing_else() {
    append_prerendered_page("<main class=\"stale\">old page</main><p class=\"stale\">more</p>");
    let runner_nodes = body().child_element_count();

    // The two marks and the two nodes between them.
    assert_eq!(remove_prerendered(), 4);
    assert_eq!(count(".stale"), 0, "a prerendered node survived");
    assert_eq!(marks_left(), 0, "a mark survived");
    assert_eq!(
        count("#kept-before"),
        1,
        "the node before the marks went too"
    );
    assert_eq!(
        count("#kept-after"),
        1,
        "the script after the marks went too"
    );
    assert_eq!(body().child_element_count(), runner_nodes - 2);
    remove_by_id("kept-before");
    remove_by_id("kept-after");
}

#[wasm_bindgen_test]
fn a_page_built_without_the_prerender_loses_nothing() {
    let before = body().child_nodes().length();
    assert_eq!(remove_prerendered(), 0);
    assert_eq!(body().child_nodes().length(), before);
}

#[wasm_bindgen_test]
async fn after_the_takeover_the_mounted_app_is_the_only_page() {
    append_prerendered_page("<main class=\"dive\">prerendered</main>");
    remove_prerendered();
    leptos::mount::mount_to_body(lockdive::App);
    TimeoutFuture::new(0).await;
    assert_eq!(count("main.dive"), 1, "one page after the takeover");
    assert_eq!(count("figure[data-figure=\"lost-lock\"]"), 1);
    assert_eq!(count("section[id=\"s1\"]"), 1);
    assert_eq!(marks_left(), 0);
    assert_eq!(count("#kept-before"), 1);
}
