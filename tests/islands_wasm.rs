//! The live side of the prerendered page: on a page built from `App`'s markup with no listeners
//! (as the build's HTML is), the course links are re-pointed at the page's base (the first wasm
//! does it as it starts), and `mount_lab` makes the figures live in their slots, leaves the prose
//! nodes as they were, and carries over what the reader did before it arrived (typed text, a moved
//! slider, a click or Enter kept for it).
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use leptos::mount::mount_to;
use lockdive::islands::{mount_lab, PendingAction, PENDING_ATTRIBUTE};
use lockdive::links::relink_course_pages;
use lockdive::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Document, Element, FocusEvent, FocusEventInit, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a document")
}

fn find(root: &Element, css: &str) -> Element {
    root.query_selector(css)
        .expect("a valid selector")
        .unwrap_or_else(|| panic!("no {css}"))
}

/// The text of the first element under `root` matching `css`.
fn text(root: &Element, css: &str) -> String {
    find(root, css).text_content().unwrap_or_default()
}

/// A stand-in for the build's HTML: `App` rendered, then copied without its listeners.
async fn prerendered_page() -> HtmlElement {
    let live: HtmlElement = document()
        .create_element("div")
        .expect("a div")
        .unchecked_into();
    document()
        .body()
        .expect("a body")
        .append_child(&live)
        .expect("appended");
    let handle = mount_to(live.clone(), App);
    TimeoutFuture::new(0).await;
    let copy: HtmlElement = live
        .clone_node_with_deep(true)
        .expect("a deep copy")
        .unchecked_into();
    drop(handle);
    live.remove();
    document()
        .body()
        .expect("a body")
        .append_child(&copy)
        .expect("appended");
    copy
}

#[wasm_bindgen_test]
async fn the_builds_course_links_follow_the_pages_course_base() {
    let page = prerendered_page().await;
    let stale_link = find(&page, "nav.related a[data-course]");
    stale_link
        .set_attribute("href", "https://stale.example/r2.02/")
        .expect("href");
    relink_course_pages(&document());
    assert_eq!(
        stale_link.get_attribute("href").as_deref(),
        Some("/r2.02/"),
        "the course link follows the page's course base"
    );
    page.remove();
}

#[wasm_bindgen_test]
async fn the_lab_takes_the_figures_over_in_place_and_the_prose_stays_as_built() {
    let page = prerendered_page().await;
    let heading = find(&page, "#s1 h2");
    let readout_before = find(&page, "figure[data-figure=\"lost-lock\"] [data-readout]");

    assert_eq!(
        mount_lab(),
        4,
        "the three figures and the lock checker's live part"
    );
    TimeoutFuture::new(0).await;

    assert!(heading.is_connected(), "a prose node was replaced");
    assert!(
        !readout_before.is_connected(),
        "the prerendered figure stayed beside the live one"
    );
    assert_eq!(
        page.query_selector_all("figure[data-figure]")
            .expect("a valid selector")
            .length(),
        4,
        "one live copy of each figure (the lock checker's stays, its live part replaced)"
    );

    let checked = find(&page, "[data-release=\"token-checked\"]");
    let event = FocusEvent::new_with_focus_event_init_dict("focus", &FocusEventInit::new())
        .expect("a focus event");
    checked.dispatch_event(&event).expect("dispatched");
    TimeoutFuture::new(0).await;
    let readout = text(&page, "figure[data-figure=\"lost-lock\"] [data-readout]");
    assert!(
        readout.contains("→ (integer) 0"),
        "the live figure answers focus"
    );
    let root = document().document_element().expect("<html>");
    assert_eq!(root.get_attribute("data-lab").as_deref(), Some("live"));
    page.remove();
}

#[wasm_bindgen_test]
async fn what_the_reader_did_before_the_lab_arrived_is_carried_over() {
    let page = prerendered_page().await;
    // Typed into the first console and pressed Enter; moved the lease slider; clicked writer 35.
    let console: HtmlInputElement =
        find(&page, "[data-console=\"lost-lock\"] input").unchecked_into();
    console.set_value("GET resource:lock");
    console
        .set_attribute(PENDING_ATTRIBUTE, PendingAction::Enter.attribute())
        .expect("marked");
    let lease: HtmlInputElement = find(&page, "input[data-slider=\"lease\"]").unchecked_into();
    lease.set_value("4000");
    find(&page, "[data-writer=\"35\"]")
        .set_attribute(PENDING_ATTRIBUTE, PendingAction::Click.attribute())
        .expect("marked");

    assert_eq!(mount_lab(), 4);
    TimeoutFuture::new(0).await;

    let log = text(&page, "[data-console=\"lost-lock\"] [data-console-log]");
    assert!(
        log.contains("GET resource:lock") && log.contains("\"xyz\""),
        "the kept Enter ran the typed line: {log}"
    );
    let live_lease: HtmlInputElement = find(&page, "input[data-slider=\"lease\"]").unchecked_into();
    assert_eq!(
        live_lease.value(),
        "4000",
        "the slider stays where it was moved"
    );
    let player = text(&page, "[data-player]");
    assert!(
        player.contains("4000 ms"),
        "the player took the moved lease: {player}"
    );
    let fence_log = text(&page, "ol[data-fence-log]");
    assert!(
        fence_log.contains("token 35"),
        "the kept click committed writer 35: {fence_log}"
    );
    page.remove();
    // The commit wrote the fence into the URL fragment; the next test's page starts clean.
    web_sys::window()
        .expect("a window")
        .location()
        .set_hash("")
        .expect("hash cleared");
}

#[wasm_bindgen_test]
async fn the_keyboard_focus_stays_where_the_reader_left_it() {
    let page = prerendered_page().await;
    let timeline: HtmlElement = find(&page, "[data-player-timeline]").unchecked_into();
    timeline.focus().expect("focused");

    assert_eq!(mount_lab(), 4);
    TimeoutFuture::new(0).await;

    let live_timeline = find(&page, "[data-player-timeline]");
    assert!(
        !timeline.is_connected(),
        "the build's timeline was replaced"
    );
    assert_eq!(
        document().active_element(),
        Some(live_timeline),
        "the focus moved to the live timeline"
    );
    page.remove();
}
