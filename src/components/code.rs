//! `CodeBlock`: a code sample with syntax highlighting, tokenised at render time by `highlight`.

use leptos::either::Either;
use leptos::prelude::*;

use super::highlight::{highlight, Lang};
use crate::content::model::CodeSample;

/// A `<pre><code>` block whose coloured runs are `<span class="tok-…">`; the text is exactly the
/// sample's (trailing newlines trimmed). The block scrolls sideways on narrow screens and can be
/// focused so keyboard users can scroll it too.
#[component]
pub fn CodeBlock(
    /// The code and the rules to highlight it with.
    sample: &'static CodeSample,
) -> impl IntoView {
    view! { <CodeText lang=sample.lang text=sample.text.to_string() /> }
}

/// [`CodeBlock`] for text known only at run time: a lock checker's script, the reader's own.
#[component]
pub fn CodeText(
    /// The rules to highlight it with.
    lang: Lang,
    /// The code, exactly as shown.
    text: String,
) -> impl IntoView {
    let label = lang.label();
    let runs = highlight(lang, text.trim_end())
        .into_iter()
        .map(|token| match token.kind.class() {
            None => Either::Left(token.text.to_string()),
            Some(class) => {
                Either::Right(view! { <span class=class>{token.text.to_string()}</span> })
            }
        })
        .collect_view();
    view! {
        <div class="code-block" data-lang=label>
            <span class="code-lang" aria-hidden="true">{label}</span>
            // A group, not a region: the page has several blocks of one language, and landmarks must
            // have unique names (axe: landmark-unique).
            <pre tabindex="0" role="group" aria-label=lang.description()>
                <code>{runs}</code>
            </pre>
        </div>
    }
}
