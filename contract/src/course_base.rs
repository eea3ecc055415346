//! The one base URL every link to another course page hangs off, and how it is chosen: the
//! `?course-base=` query parameter if it is acceptable, else `<meta name="lockdive:course-base">`,
//! else the site root. The page crate resolves its `course:` links with it as it renders; the
//! first wasm re-points the prerendered ones (`<a data-course>`) when the query moves the base.

/// The `<meta name=...>` an embedding site sets to move every course link at once.
pub const META: &str = "lockdive:course-base";

/// The query parameter that overrides the meta tag for one page load: `?course-base=...`.
pub const PARAM: &str = "course-base";

/// The base used when no meta tag says otherwise: course paths from the site root.
pub const DEFAULT: &str = "/";

/// Joins a base and a slug with exactly one `/` between them; an empty base counts as `"/"`.
pub fn join_base(base: &str, slug: &str) -> String {
    let base = base.trim();
    let base = if base.is_empty() { DEFAULT } else { base };
    let slug = slug.trim_start_matches('/');
    if base.ends_with('/') {
        format!("{base}{slug}")
    } else {
        format!("{base}/{slug}")
    }
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
        .unwrap_or_else(|| DEFAULT.to_string())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_and_a_slug_meet_at_one_slash() {
        assert_eq!(join_base("/", "r2.02/"), "/r2.02/");
        assert_eq!(
            join_base("https://x.example/c", "/r2.02/"),
            "https://x.example/c/r2.02/"
        );
        assert_eq!(join_base("  ", "r2.02/"), "/r2.02/");
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
    fn the_page_carries_the_meta_tag() {
        assert!(include_str!("../../index.html").contains(&format!("<meta name=\"{META}\"")));
    }
}
