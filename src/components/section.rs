//! `DiveSection`: one numbered section with its deep-linkable anchor, heading, source line and body.

use leptos::prelude::*;

use super::blocks::BlockView;
use super::rich_text::RichText;
use crate::content::model::Section;

/// A `<section id="sN">` labelled by its heading. The section number is a visible link to the
/// section's own anchor, so a reader can copy a deep link.
#[component]
pub fn DiveSection(
    /// The section's text and blocks.
    section: &'static Section,
) -> impl IntoView {
    let heading_id = format!("{}-title", section.id);
    let labelled_by = heading_id.clone();
    let anchor = format!("#{}", section.id);
    view! {
        <section id=section.id class="dive-section" aria-labelledby=labelled_by>
            <header class="section-head">
                <a class="section-anchor" href=anchor title="Link to this section">
                    {anchor_text(section)}
                </a>
                <h2 id=heading_id>
                    <RichText markup=section.heading />
                </h2>
                <p class="section-source">
                    <RichText markup=section.source />
                </p>
            </header>
            {section.blocks.iter().map(|block| view! { <BlockView block /> }).collect_view()}
        </section>
    }
}

/// A section's number as its anchor shows it: `§1` is said as it is written; a symbol standing
/// for a number (the checker's `✓`) is hidden from screen readers, which hear the heading instead.
fn anchor_text(section: &'static Section) -> impl IntoView {
    if section.number.starts_with('§') {
        section.number.into_any()
    } else {
        view! {
            <span aria-hidden="true">{section.number}</span>
            <span class="fig-sr">
                <RichText markup=section.heading />
            </span>
        }
        .into_any()
    }
}
