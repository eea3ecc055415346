//! `RichText`: renders the content modules' inline markup as text, `<code>` and links.

views! {
    use leptos::attr::custom::custom_attribute;
    use leptos::either::EitherOf3;
    use leptos::prelude::*;
}
use lockdive_contract::hooks::COURSE;

use super::markup::Markup;
use crate::content::inline::{parse, Inline};
use crate::links::{resolve_href, COURSE_SCHEME};

/// Inline prose: plain runs as text, `` `code` `` as `<code>`, `[label](href)` as a link whose
/// `course:` href is resolved against the configured course base.
#[cfg(feature = "views")]
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

/// [`RichText`] as markup, for a part rendered without a view library (the lock checker's
/// verdict rows and its custom editor); a test holds the two alike for every markup it is given.
pub fn rich_markup(markup: &str) -> Markup {
    let mut m = Markup::new();
    for run in parse(markup) {
        match run {
            Inline::Text(text) => m.text(text),
            Inline::Code(code) => m.element("code", &[], code),
            Inline::Link { label, href } => match href.strip_prefix(COURSE_SCHEME) {
                Some(course) => m.element(
                    "a",
                    &[("href", &resolve_href(href)), (COURSE, course)],
                    label,
                ),
                None => m.element("a", &[("href", &resolve_href(href))], label),
            },
        };
    }
    m
}

#[cfg(test)]
mod tests {
    use leptos::prelude::*;

    use super::{rich_markup, RichText};
    use crate::components::markup::normalized;

    #[test]
    fn the_markup_version_renders_what_the_component_does() {
        let mut markups: Vec<&'static str> = crate::scenarios::lockcheck::Property::ALL
            .into_iter()
            .map(crate::content::check_lock::lesson)
            .collect();
        markups.push(crate::content::check_lock::CUSTOM_CONVENTION);
        markups.push("see [the course](course:r2.02.3/) & `a < b` — [§2](#s2)");
        for markup in markups {
            let built = view! { <p><RichText markup /></p> }.to_html();
            let string = format!("<p>{}</p>", rich_markup(markup).finish());
            assert_eq!(normalized(&built), normalized(&string), "{markup}");
        }
    }
}
