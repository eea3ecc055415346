//! §6's lists: the cited sources (external links with what each is for) and the related course
//! pages (a `<nav>`, hrefs from the configured course base).

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::COURSE;

use crate::content::model::{RelatedList, SourceList};
use crate::links::{course_base, resolve_href_with};

/// The sources, each a link and a note.
#[component]
pub fn SourcesList(
    /// Heading and sources.
    sources: &'static SourceList,
) -> impl IntoView {
    view! {
        <div class="sources">
            <h3>{sources.heading}</h3>
            <ul class="reference-list">
                {sources
                    .items
                    .iter()
                    .map(|source| {
                        view! {
                            <li>
                                <a href=source.href>{source.title}</a>
                                " — "
                                <span class="reference-note">{source.note}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </div>
    }
}

/// The related course pages, as navigation.
#[component]
pub fn RelatedNav(
    /// Heading and pages.
    related: &'static RelatedList,
) -> impl IntoView {
    let base = course_base();
    view! {
        <nav class="related" aria-labelledby="related-title">
            <h3 id="related-title">{related.heading}</h3>
            <ul class="reference-list">
                {related
                    .items
                    .iter()
                    .map(|item| {
                        let href = resolve_href_with(&base, &item.page.markup_href());
                        view! {
                            <li>
                                <a {..custom_attribute(COURSE, item.page.slug())} href=href>{item.title}</a>
                                <span class="reference-note">{item.note}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </nav>
    }
}
