//! An embedding site moves every course link with one `<meta name="lockdive:course-base">`.
//! Its own test binary: the base is read once per page, so the meta must exist before first use.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use leptos::mount::mount_to;
use lockdive::links::{course_base, COURSE_BASE_META};
use lockdive::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::HtmlElement;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn a_meta_course_base_moves_every_course_link() {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .expect("a document");
    let meta = document.create_element("meta").expect("a meta");
    meta.set_attribute("name", COURSE_BASE_META).expect("name");
    meta.set_attribute("content", "https://learn.example.org/course/")
        .expect("content");
    document
        .head()
        .expect("a head")
        .append_child(&meta)
        .expect("appended");

    let root: HtmlElement = document
        .create_element("div")
        .expect("a div")
        .unchecked_into();
    document
        .body()
        .expect("a body")
        .append_child(&root)
        .expect("appended");
    let _handle = mount_to(root.clone(), App);
    TimeoutFuture::new(0).await;

    assert_eq!(course_base(), "https://learn.example.org/course/");
    let links = root
        .query_selector_all("nav.related a, #s5 .section-source a, .door a")
        .expect("a valid selector");
    let hrefs: Vec<String> = (0..links.length())
        .filter_map(|i| links.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .filter_map(|a| a.get_attribute("href"))
        .collect();
    assert_eq!(hrefs.len(), 7);
    assert!(
        hrefs
            .iter()
            .all(|h| h.starts_with("https://learn.example.org/course/")),
        "{hrefs:?}"
    );
    assert!(hrefs.contains(&"https://learn.example.org/course/r2.02.3/".to_string()));
    root.remove();
}
