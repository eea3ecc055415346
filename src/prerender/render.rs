//! Native rendering of the page for `src/bin/prerender.rs`: the page's `App` (which the wasm tests
//! mount; no lab chunk does), rendered by leptos' `ssr` side with every scenario run in ministore
//! now, at build time, and spliced into the `<body>` of the index.html Trunk produced.

use std::fmt;
use std::sync::Arc;

use hydration_context::SsrSharedContext;
use leptos::prelude::*;

use super::{END_MARK, START_MARK};
use crate::links::set_prerender_meta_base;
use crate::App;
use lockdive_contract::course_base::META as COURSE_BASE_META;

/// Stack for the rendering thread. A spawned thread's default (2 MiB) is tight for an unoptimised
/// build rendering the whole page's nested views; the main thread's 8 MiB is ample, so match it twice.
const RENDER_STACK_BYTES: usize = 16 * 1024 * 1024;

/// Why the page could not be prerendered into an HTML file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrerenderError {
    /// The file has no `<body>` tag to put the page into.
    NoBody,
    /// The file holds an opening mark without its closing one, so the old page cannot be replaced.
    UnclosedMark,
    /// Rendering the page failed (a component panicked); the message says where.
    Render(String),
}

impl fmt::Display for PrerenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrerenderError::NoBody => f.write_str("the HTML file has no <body> tag"),
            PrerenderError::UnclosedMark => write!(
                f,
                "the HTML file has <!--{START_MARK}--> without <!--{END_MARK}-->"
            ),
            PrerenderError::Render(why) => write!(f, "rendering the page failed: {why}"),
        }
    }
}

impl std::error::Error for PrerenderError {}

/// `index_html` (Trunk's output) with the page prerendered into its `<body>`; course links use the
/// file's own `lockdive:course-base` meta tag, as the wasm will when it reads that tag.
pub fn prerender_page(index_html: &str) -> Result<String, PrerenderError> {
    let meta_base = meta_content(index_html, COURSE_BASE_META);
    // A thread of its own: the course base is read once per thread, on first use.
    let rendered = std::thread::Builder::new()
        .name("prerender".into())
        .stack_size(RENDER_STACK_BYTES)
        .spawn(move || {
            set_prerender_meta_base(meta_base.as_deref());
            render_app()
        })
        .map_err(|e| PrerenderError::Render(format!("cannot start the rendering thread: {e}")))?
        .join()
        .map_err(|panic| {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a component panicked".to_string());
            PrerenderError::Render(why)
        })?;
    into_page(index_html, &rendered)
}

/// The page's markup as the wasm would build it on first mount, with the figures' static verdicts
/// computed by running their scenarios in ministore.
pub fn render_app() -> String {
    // A server-side shared context makes `is_server()` true for everything the page builds, so
    // window listeners (figure selections) are skipped rather than reaching for a missing window.
    let owner = Owner::new_root(Some(Arc::new(SsrSharedContext::new())));
    let html = owner.with(|| view! { <App /> }.to_html());
    owner.unset();
    html
}

/// `index_html` with `app_html` placed first in its `<body>`, fenced by the marks the wasm looks
/// for. A page prerendered before has its old nodes replaced, so running twice changes nothing.
pub fn into_page(index_html: &str, app_html: &str) -> Result<String, PrerenderError> {
    let start_comment = format!("<!--{START_MARK}-->");
    let end_comment = format!("<!--{END_MARK}-->");
    let fenced = format!("{start_comment}{app_html}{end_comment}");
    if let Some(start) = index_html.find(&start_comment) {
        let end = index_html[start..]
            .find(&end_comment)
            .map(|at| start + at + end_comment.len())
            .ok_or(PrerenderError::UnclosedMark)?;
        return Ok(format!(
            "{}{fenced}{}",
            &index_html[..start],
            &index_html[end..]
        ));
    }
    let body_open = body_content_start(index_html).ok_or(PrerenderError::NoBody)?;
    Ok(format!(
        "{}{fenced}{}",
        &index_html[..body_open],
        &index_html[body_open..]
    ))
}

/// The `content` of the first `<meta name="{name}" content="…">`, entities decoded.
fn meta_content(html: &str, name: &str) -> Option<String> {
    let mut rest = html;
    while let Some(at) = rest.find("<meta") {
        let tag_end = rest[at..].find('>').map_or(rest.len(), |e| at + e + 1);
        let tag = &rest[at..tag_end];
        if attribute(tag, "name").as_deref() == Some(name) {
            return attribute(tag, "content");
        }
        rest = &rest[tag_end..];
    }
    None
}

/// The quoted value of `name=` in one start tag, entities decoded.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let mut from = 0;
    while let Some(at) = tag[from..].find(name).map(|a| from + a) {
        from = at + name.len();
        let starts_word = tag[..at].ends_with(|c: char| c.is_whitespace());
        let after = tag[from..].trim_start();
        let (true, Some(value)) = (starts_word, after.strip_prefix('=')) else {
            continue;
        };
        let value = value.trim_start();
        let quote = value.chars().next().filter(|q| *q == '"' || *q == '\'')?;
        let inner = &value[1..];
        let end = inner.find(quote)?;
        return Some(
            inner[..end]
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&"),
        );
    }
    None
}

/// Byte offset just past the `<body …>` start tag (any case, any attributes).
fn body_content_start(html: &str) -> Option<usize> {
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("<body") {
        let tag = from + at;
        let after_name = tag + "<body".len();
        // `<bodyx>` is another tag; the name ends at whitespace, `>` or `/`.
        match lower.as_bytes().get(after_name) {
            Some(b'>' | b'/') | Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0c') => {
                return lower[after_name..].find('>').map(|gt| after_name + gt + 1);
            }
            _ => from = after_name,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_goes_first_into_the_body_between_the_marks() {
        let page = into_page(
            "<html><head></head><BODY class=\"x\"><script>boot()</script></body></html>",
            "<main>dive</main>",
        );
        assert_eq!(
            page,
            Ok(
                "<html><head></head><BODY class=\"x\"><!--lockdive:prerendered--><main>dive</main>\
                <!--/lockdive:prerendered--><script>boot()</script></body></html>"
                    .to_string()
            )
        );
    }

    #[test]
    fn prerendering_twice_replaces_the_first_page() {
        let once = into_page("<body></body>", "<p>old</p>").unwrap_or_default();
        let twice = into_page(&once, "<p>new</p>");
        assert_eq!(
            twice,
            Ok(
                "<body><!--lockdive:prerendered--><p>new</p><!--/lockdive:prerendered--></body>"
                    .to_string()
            )
        );
    }

    #[test]
    fn the_course_base_is_read_from_the_pages_meta_tag() {
        let html = "<head><meta charset=\"utf-8\" />\n<meta\n  name=\"lockdive:course-base\"\n  \
                    content=\"https://learn.example.org/c?a=1&amp;b=2\" /></head>";
        assert_eq!(
            meta_content(html, COURSE_BASE_META),
            Some("https://learn.example.org/c?a=1&b=2".to_string())
        );
        assert_eq!(
            meta_content("<meta name='other' content='x'>", COURSE_BASE_META),
            None
        );
    }

    #[test]
    fn a_file_without_a_body_is_refused() {
        assert_eq!(
            into_page("<html><bodyguard></bodyguard></html>", "<p/>"),
            Err(PrerenderError::NoBody)
        );
    }

    #[test]
    fn an_opening_mark_without_its_end_is_refused() {
        assert_eq!(
            into_page("<body><!--lockdive:prerendered--><p>", "<p/>"),
            Err(PrerenderError::UnclosedMark)
        );
    }
}
