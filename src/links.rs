//! Links to the other pages of the course, all resolved against ONE configurable base URL.
//!
//! The base defaults to `"/"` (course paths relative to the site root) and can be overridden by the
//! embedding site with `<meta name="lockdive:course-base" content="https://example.org/course/">` in
//! `index.html`, or per page load with the query parameter `?course-base=https://example.org/course/`
//! (an iframe embed sets it without rebuilding the page; it wins over the meta tag, and only an http(s)
//! URL or a path is taken: `lockdive_contract::course_base` holds the rules, which the first wasm
//! follows too when it re-points the prerendered links). The slugs, appended to the base, are:
//!
//! | page                          | slug               | default href         |
//! |-------------------------------|--------------------|----------------------|
//! | R2.02 · Distributed locking   | `r2.02/`           | `/r2.02/`            |
//! | R2.02.1 · SET NX PX           | `r2.02.1/`         | `/r2.02.1/`          |
//! | R2.02.3 · Lease renewal       | `r2.02.3/`         | `/r2.02.3/`          |
//! | the EchoMQ protocol           | `echomq/protocol/` | `/echomq/protocol/`  |
//!
//! Content modules name a course page as `course:<slug>` in their inline markup; [`resolve_href`]
//! turns that into a real URL and passes every other href through untouched.

use lockdive_contract::course_base::join_base;

/// Markup prefix that marks an href as a course page (`course:r2.02.3/`).
pub const COURSE_SCHEME: &str = "course:";

/// A page elsewhere in the course that this dive links to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoursePage {
    /// R2.02, the distributed-locking module hub.
    ModuleHub,
    /// R2.02.1, where the lock is taken with `SET NX PX`.
    SetNxPx,
    /// R2.02.3, the next dive: keeping the lease fresh.
    LeaseRenewal,
    /// The EchoMQ course's protocol page (the worker-side lock plane).
    EchoMqProtocol,
}

impl CoursePage {
    /// Every course page this dive links to.
    pub const ALL: [CoursePage; 4] = [
        CoursePage::ModuleHub,
        CoursePage::SetNxPx,
        CoursePage::LeaseRenewal,
        CoursePage::EchoMqProtocol,
    ];

    /// The page's path relative to the course base.
    pub fn slug(self) -> &'static str {
        match self {
            CoursePage::ModuleHub => "r2.02/",
            CoursePage::SetNxPx => "r2.02.1/",
            CoursePage::LeaseRenewal => "r2.02.3/",
            CoursePage::EchoMqProtocol => "echomq/protocol/",
        }
    }

    /// The markup form content modules write, e.g. `course:r2.02.3/`.
    pub fn markup_href(self) -> String {
        format!("{COURSE_SCHEME}{}", self.slug())
    }
}

/// Turns a markup href into the URL the page renders: `course:<slug>` is joined to `base`, any
/// other href (https, http, `#s1`) is returned as written.
pub fn resolve_href_with(base: &str, href: &str) -> String {
    match href.strip_prefix(COURSE_SCHEME) {
        Some(slug) => join_base(base, slug),
        None => href.to_string(),
    }
}

/// [`resolve_href_with`] against the page's configured course base.
pub fn resolve_href(href: &str) -> String {
    resolve_href_with(&course_base(), href)
}

/// The course base URL: the `?course-base=` query parameter if it is acceptable, else the meta tag's
/// content if the page has one, else the site root (`lockdive_contract::course_base`). In the
/// browser it is read as the first wasm reads it, so both wasm modules link alike.
#[cfg(target_arch = "wasm32")]
pub fn course_base() -> String {
    lockdive_first::course_links::course_base()
}

/// The course base of the page being prerendered on this thread: the meta tag's content the
/// prerender handed over, else the site root. Tests and tools have no page: the default applies.
#[cfg(not(target_arch = "wasm32"))]
pub fn course_base() -> String {
    PRERENDER_META_BASE.with(|base| {
        lockdive_contract::course_base::choose_course_base(None, base.borrow().as_deref())
    })
}

#[cfg(not(target_arch = "wasm32"))]
thread_local! {
    /// The meta tag's content of the index.html being prerendered on this thread, if any.
    static PRERENDER_META_BASE: std::cell::RefCell<Option<String>> =
        const { std::cell::RefCell::new(None) };
}

/// Native builds have no document to read the meta tag from: the prerender (`crate::prerender`)
/// hands over the content of the one in the index.html it renders into, so the page it writes links
/// where the wasm's will.
#[cfg(not(target_arch = "wasm32"))]
pub fn set_prerender_meta_base(content: Option<&str>) {
    PRERENDER_META_BASE.with(|base| *base.borrow_mut() = content.map(str::to_string));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_base_gives_root_relative_course_paths() {
        assert_eq!(
            resolve_href_with(lockdive_contract::course_base::DEFAULT, "course:r2.02.3/"),
            "/r2.02.3/"
        );
        assert_eq!(course_base(), "/");
    }

    #[test]
    fn an_embedding_site_base_prefixes_every_course_page() {
        let base = "https://learn.example.org/course";
        let hrefs: Vec<String> = CoursePage::ALL
            .iter()
            .map(|page| resolve_href_with(base, &page.markup_href()))
            .collect();
        assert_eq!(
            hrefs,
            [
                "https://learn.example.org/course/r2.02/",
                "https://learn.example.org/course/r2.02.1/",
                "https://learn.example.org/course/r2.02.3/",
                "https://learn.example.org/course/echomq/protocol/",
            ]
        );
    }

    #[test]
    fn a_relative_base_keeps_links_relative() {
        assert_eq!(resolve_href_with("../", "course:r2.02.1/"), "../r2.02.1/");
        assert_eq!(resolve_href_with("", "course:r2.02/"), "/r2.02/");
    }

    #[test]
    fn external_and_anchor_hrefs_pass_through() {
        assert_eq!(
            resolve_href_with("/x/", "http://antirez.com/news/101"),
            "http://antirez.com/news/101"
        );
        assert_eq!(resolve_href_with("/x/", "#s2"), "#s2");
    }
}
