//! The live side of the prerendered page: on a page built from `App`'s markup with no listeners
//! (as the build's HTML is), the course links are re-pointed at the page's base (the first wasm
//! does it as it starts), and the lab's `mount` makes the figures live in their slots, leaves the prose
//! nodes as they were, and carries over what the reader did before it arrived (typed text, a moved
//! slider, a click or Enter kept for it).
#![cfg(target_arch = "wasm32")]

mod dom;

use dom::{focus, tick, Mounted};
use leptos::prelude::document;
use lockdive::lab::mount as mount_lab;
use lockdive::App;
use lockdive_contract::hooks::{LAB, PENDING};
use lockdive_contract::lab::{LabState, PendingAction};
use lockdive_first::course_links::relink as relink_course_pages;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A stand-in for the build's HTML: `App` rendered, then copied without its listeners.
async fn prerendered_page() -> Mounted {
    let live = Mounted::settled(App).await;
    let copy: HtmlElement = live
        .root
        .clone_node_with_deep(true)
        .expect("a deep copy")
        .unchecked_into();
    drop(live);
    document()
        .body()
        .expect("a body")
        .append_child(&copy)
        .expect("appended");
    Mounted::adopt(copy)
}

#[wasm_bindgen_test]
async fn the_builds_course_links_follow_the_pages_course_base() {
    let page = prerendered_page().await;
    let stale_link = page.find("nav.related a[data-course]");
    stale_link
        .set_attribute("href", "https://stale.example/r2.02/")
        .expect("href");
    relink_course_pages(&document());
    assert_eq!(
        stale_link.get_attribute("href").as_deref(),
        Some("/r2.02/"),
        "the course link follows the page's course base"
    );
}

#[wasm_bindgen_test]
async fn the_lab_takes_the_figures_over_in_place_and_the_prose_stays_as_built() {
    let page = prerendered_page().await;
    let heading = page.find("#s1 h2");
    let readout_before = page.find("figure[data-figure=\"lost-lock\"] [data-readout]");

    assert_eq!(
        mount_lab(),
        4,
        "the three figures and the lock checker's live part"
    );
    tick().await;

    assert!(heading.is_connected(), "a prose node was replaced");
    assert!(
        !readout_before.is_connected(),
        "the prerendered figure stayed beside the live one"
    );
    assert_eq!(
        page.count("figure[data-figure]"),
        4,
        "one live copy of each figure (the lock checker's stays, its live part replaced)"
    );

    let checked = page.find("[data-release=\"token-checked\"]");
    focus(&checked, "focus");
    tick().await;
    let readout = page.text("figure[data-figure=\"lost-lock\"] [data-readout]");
    assert!(
        readout.contains("→ (integer) 0"),
        "the live figure answers focus"
    );
    let root = document().document_element().expect("<html>");
    assert_eq!(
        root.get_attribute(LAB).as_deref(),
        Some(LabState::Live.attribute())
    );
}

#[wasm_bindgen_test]
async fn what_the_reader_did_before_the_lab_arrived_is_carried_over() {
    let page = prerendered_page().await;
    // Typed into the first console and pressed Enter; moved the lease slider; clicked writer 35.
    let console: HtmlInputElement = page
        .find("[data-console=\"lost-lock\"] input")
        .unchecked_into();
    console.set_value("GET resource:lock");
    console
        .set_attribute(PENDING, PendingAction::Enter.attribute())
        .expect("marked");
    let lease: HtmlInputElement = page.find("input[data-slider=\"lease\"]").unchecked_into();
    lease.set_value("4000");
    page.find("[data-writer=\"35\"]")
        .set_attribute(PENDING, PendingAction::Click.attribute())
        .expect("marked");

    assert_eq!(mount_lab(), 4);
    tick().await;

    let log = page.text("[data-console=\"lost-lock\"] [data-console-log]");
    assert!(
        log.contains("GET resource:lock") && log.contains("\"xyz\""),
        "the kept Enter ran the typed line: {log}"
    );
    let live_lease: HtmlInputElement = page.find("input[data-slider=\"lease\"]").unchecked_into();
    assert_eq!(
        live_lease.value(),
        "4000",
        "the slider stays where it was moved"
    );
    let player = page.text("[data-player]");
    assert!(
        player.contains("4000 ms"),
        "the player took the moved lease: {player}"
    );
    let fence_log = page.text("ol[data-fence-log]");
    assert!(
        fence_log.contains("token 35"),
        "the kept click committed writer 35: {fence_log}"
    );
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
    let timeline = page.find("[data-player-timeline]");
    timeline.focus().expect("focused");

    assert_eq!(mount_lab(), 4);
    tick().await;

    let live_timeline = Element::from(page.find("[data-player-timeline]"));
    assert!(
        !timeline.is_connected(),
        "the build's timeline was replaced"
    );
    assert_eq!(
        document().active_element(),
        Some(live_timeline),
        "the focus moved to the live timeline"
    );
}
