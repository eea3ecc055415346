//! `RichText`: renders the content modules' inline markup as text, `<code>` and links.

use leptos::attr::custom::custom_attribute;
use leptos::either::EitherOf3;
use leptos::prelude::*;
use lockdive_contract::hooks::COURSE;

use crate::content::inline::{parse, Inline};
use crate::links::{resolve_href, COURSE_SCHEME};

/// Inline prose: plain runs as text, `` `code` `` as `<code>`, `[label](href)` as a link whose
/// `course:` href is resolved against the configured course base.
#[component]
pub fn RichText(
    /// The markup to render (static content from `crate::content`).
    markup: &'static str,
) -> impl IntoView {
    parse(markup)
        .into_iter()
        .map(|run| match run {
            Inline::Text(text) => EitherOf3::A(text),
            Inline::Code(code) => EitherOf3::B(view! { <code>{code}</code> }),
            Inline::Link { label, href } => {
                // `data-course`: the wasm re-points the link if `?course-base=` moves the base.
                let course = href.strip_prefix(COURSE_SCHEME);
                EitherOf3::C(view! { <a href=resolve_href(href) {..custom_attribute(COURSE, course)}>{label}</a> })
            }
        })
        .collect_view()
}
