//! Course links in the browser: the page's course base as this page load sets it (the
//! `?course-base=` query, else `<meta name="lockdive:course-base">`, by
//! `lockdive_contract::course_base`'s rules), and the prerendered links re-pointed at it. The lab's
//! renderer asks [`course_base`] too, so both wasm modules link alike.

use lockdive_contract::course_base::{choose_course_base, join_base, META, PARAM};
use lockdive_contract::hooks::{COURSE, COURSE_SELECTOR};
use web_sys::{Document, Element};

use crate::dom;

/// The course base for this page load. Read once: the URL's query and the meta tag are static for
/// the life of the page.
pub fn course_base() -> String {
    thread_local! {
        static BASE: String = choose_course_base(query_base().as_deref(), meta_base().as_deref());
    }
    BASE.with(Clone::clone)
}

/// Re-points every prerendered course link (`<a data-course="slug">`, resolved at build time against
/// the meta tag) at this page load's [`course_base`], which `?course-base=` may have moved.
pub fn relink(document: &Document) {
    let base = course_base();
    for link in dom::all::<Element>(document.query_selector_all(COURSE_SELECTOR)) {
        if let Some(slug) = link.get_attribute(COURSE) {
            let _ = link.set_attribute("href", &join_base(&base, &slug));
        }
    }
}

fn query_base() -> Option<String> {
    let href = web_sys::window()?.location().href().ok()?;
    web_sys::Url::new(&href).ok()?.search_params().get(PARAM)
}

fn meta_base() -> Option<String> {
    let document = web_sys::window()?.document()?;
    let meta = document
        .query_selector(&format!("meta[name=\"{META}\"]"))
        .ok()??;
    let content = meta.get_attribute("content")?;
    let content = content.trim();
    (!content.is_empty()).then(|| content.to_string())
}
