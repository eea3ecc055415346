//! `DiveHeader`: the kicker, the page's one `<h1>`, the lede and the grounding line.

use leptos::prelude::*;

use super::rich_text::RichText;
use crate::content::model::Header;

/// The top of the article.
#[component]
pub fn DiveHeader(
    /// Kicker, title, lede and grounding text.
    header: &'static Header,
) -> impl IntoView {
    view! {
        <header class="dive-header">
            <p class="kicker">{header.kicker}</p>
            <h1>{header.title}</h1>
            <p class="lede">
                <RichText markup=header.lede />
            </p>
            <p class="grounding">
                <RichText markup=header.grounding />
            </p>
        </header>
    }
}
