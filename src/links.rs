//! Links to the other pages of the course, all resolved against ONE configurable base URL.
//!
//! The base defaults to `"/"` (course paths relative to the site root) and can be overridden by the
//! embedding site with `<meta name="lockdive:course-base" content="https://example.org/course/">` in
//! `index.html`, or per page load with the query parameter `?course-base=https://example.org/course/`
//! (an iframe embed sets it without rebuilding the page; it wins over the meta tag, and only an http(s)
//! URL or a path is taken — see [`course_base_from_query`]). Both are read once, on first use. The
//! slugs, appended to the base, are:
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

/// The `<meta name=...>` an embedding site sets to move every course link at once.
pub const COURSE_BASE_META: &str = "lockdive:course-base";

/// The query parameter that overrides the meta tag for one page load: `?course-base=...`.
pub const COURSE_BASE_PARAM: &str = "course-base";

/// The base used when no meta tag says otherwise: course paths from the site root.
pub const DEFAULT_COURSE_BASE: &str = "/";

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

/// Joins a base and a slug with exactly one `/` between them; an empty base counts as `"/"`.
pub fn join_base(base: &str, slug: &str) -> String {
    let base = base.trim();
    let base = if base.is_empty() {
        DEFAULT_COURSE_BASE
    } else {
        base
    };
    let slug = slug.trim_start_matches('/');
    if base.ends_with('/') {
        format!("{base}{slug}")
    } else {
        format!("{base}/{slug}")
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
/// content if the page has one, else [`DEFAULT_COURSE_BASE`].
pub fn course_base() -> String {
    thread_local! {
        // Read once: the URL's query and the meta tag are static for the life of the page.
        static BASE: String = choose_course_base(read_query_base().as_deref(), read_course_base().as_deref());
    }
    BASE.with(Clone::clone)
}

/// Picks the base from the query parameter's raw value and the meta tag's content, in that order.
pub fn choose_course_base(query: Option<&str>, meta: Option<&str>) -> String {
    query
        .and_then(course_base_from_query)
        .or_else(|| {
            meta.map(str::trim)
                .filter(|m| !m.is_empty())
                .map(str::to_string)
        })
        .unwrap_or_else(|| DEFAULT_COURSE_BASE.to_string())
}

/// Accepts a query-supplied base only if it is an `http(s)://` URL or a path (`/…`, `./…`, `../…`) with
/// no whitespace, quotes or angle brackets. Anyone can craft a query string, so `javascript:`, `data:`
/// and protocol-relative `//host` bases are refused (the meta tag, or the default, applies instead).
pub fn course_base_from_query(raw: &str) -> Option<String> {
    let base = raw.trim();
    let scheme_ok = base.starts_with("https://")
        || base.starts_with("http://")
        || (base.starts_with('/') && !base.starts_with("//"))
        || base.starts_with("./")
        || base.starts_with("../");
    let chars_ok = !base.chars().any(|c| {
        c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '<' | '>' | '`' | '\\')
    });
    (scheme_ok && chars_ok && base.len() <= 512).then(|| base.to_string())
}

/// Re-points every prerendered course link (`<a data-course="slug">`, resolved at build time against
/// the meta tag) at this page load's [`course_base`], which `?course-base=` may have moved.
#[cfg(target_arch = "wasm32")]
pub fn relink_course_pages(document: &web_sys::Document) {
    let base = course_base();
    let links = document.query_selector_all("a[data-course]");
    for link in crate::dom::all::<web_sys::Element>(links) {
        if let Some(slug) = link.get_attribute("data-course") {
            let _ = link.set_attribute("href", &join_base(&base, &slug));
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn read_query_base() -> Option<String> {
    let href = web_sys::window()?.location().href().ok()?;
    web_sys::Url::new(&href)
        .ok()?
        .search_params()
        .get(COURSE_BASE_PARAM)
}

#[cfg(not(target_arch = "wasm32"))]
fn read_query_base() -> Option<String> {
    None
}

#[cfg(target_arch = "wasm32")]
fn read_course_base() -> Option<String> {
    let document = web_sys::window()?.document()?;
    let selector = format!("meta[name=\"{COURSE_BASE_META}\"]");
    let meta = document.query_selector(&selector).ok()??;
    let content = meta.get_attribute("content")?;
    let content = content.trim();
    (!content.is_empty()).then(|| content.to_string())
}

#[cfg(not(target_arch = "wasm32"))]
thread_local! {
    /// The meta tag's content of the index.html being prerendered on this thread, if any.
    static PRERENDER_META_BASE: std::cell::RefCell<Option<String>> =
        const { std::cell::RefCell::new(None) };
}

/// Native builds have no document to read the meta tag from: the prerender (`crate::prerender`)
/// hands over the content of the one in the index.html it renders into, so the page it writes links
/// where the wasm's will. Takes effect only before this thread's first [`course_base`].
#[cfg(not(target_arch = "wasm32"))]
pub fn set_prerender_meta_base(content: Option<&str>) {
    PRERENDER_META_BASE.with(|base| *base.borrow_mut() = content.map(str::to_string));
}

#[cfg(not(target_arch = "wasm32"))]
fn read_course_base() -> Option<String> {
    // Tests and tools have no page: the default base applies unless the prerender set one.
    PRERENDER_META_BASE
        .with(|base| base.borrow().clone())
        .map(|content| content.trim().to_string())
        .filter(|content| !content.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_base_gives_root_relative_course_paths() {
        assert_eq!(
            resolve_href_with(DEFAULT_COURSE_BASE, "course:r2.02.3/"),
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
    fn a_course_base_query_parameter_wins_over_the_meta_tag() {
        assert_eq!(
            choose_course_base(Some("https://learn.example.org/c/"), Some("/meta/")),
            "https://learn.example.org/c/"
        );
        assert_eq!(choose_course_base(Some("../course/"), None), "../course/");
        assert_eq!(choose_course_base(None, Some(" /meta/ ")), "/meta/");
        assert_eq!(choose_course_base(None, Some("  ")), "/");
        assert_eq!(choose_course_base(None, None), "/");
    }

    #[test]
    fn a_hostile_course_base_query_falls_back_to_the_meta_tag() {
        for hostile in [
            "javascript:alert(1)//",
            "data:text/html,x",
            "//evil.example/",
            "https://x.example/\"><script>",
            "https://x.example/ a",
            "",
            "course",
        ] {
            assert_eq!(course_base_from_query(hostile), None, "{hostile:?}");
            assert_eq!(choose_course_base(Some(hostile), Some("/meta/")), "/meta/");
        }
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
