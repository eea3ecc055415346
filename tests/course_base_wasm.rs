//! An embedding site moves every course link with one `<meta name="lockdive:course-base">`.
//! Its own test binary: the base is read once per page, so the meta must exist before first use.
#![cfg(target_arch = "wasm32")]

mod dom;

use dom::Mounted;
use lockdive::links::course_base;
use lockdive::App;
use lockdive_contract::course_base::META as COURSE_BASE_META;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

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

    // Mounted only now: the base is read once, so the meta must already be in the head.
    let page = Mounted::settled(App).await;

    assert_eq!(course_base(), "https://learn.example.org/course/");
    let hrefs: Vec<String> = page
        .all("nav.related a, #s5 .section-source a, .door a")
        .iter()
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
}
