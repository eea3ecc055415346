//! `CodeBlock`: a code sample with syntax highlighting, tokenised at render time by `highlight`;
//! `code_markup`: the same block as markup, for code known only at run time.

#[cfg(feature = "views")]
use leptos::prelude::*;

use super::highlight::{highlight, Lang};
use super::markup::Markup;
#[cfg(feature = "views")]
use crate::content::model::CodeSample;

/// A `<pre><code>` block whose coloured runs are `<span class="tok-…">`; the text is exactly the
/// sample's (trailing newlines trimmed). The block scrolls sideways on narrow screens and can be
/// focused so keyboard users can scroll it too.
#[cfg(feature = "views")]
#[component]
pub fn CodeBlock(
    /// The code and the rules to highlight it with.
    sample: &'static CodeSample,
) -> impl IntoView {
    let lang = sample.lang;
    let label = lang.label();
    view! {
        <div class="code-block" data-lang=label>
            <span class="code-lang" aria-hidden="true">{label}</span>
            // A group, not a region: the page has several blocks of one language, and landmarks must
            // have unique names (axe: landmark-unique).
            <pre tabindex="0" role="group" aria-label=lang.description()>
                <code inner_html=runs_markup(lang, sample.text).finish()></code>
            </pre>
        </div>
    }
}

/// [`CodeBlock`] for text known only at run time, as markup: a script of the lock checker's
/// catalogue, which renders without a view library. A test holds the two alike.
pub fn code_markup(lang: Lang, text: &str) -> Markup {
    let label = lang.label();
    let mut m = Markup::new();
    m.open("div", &[("class", "code-block"), ("data-lang", label)])
        .element(
            "span",
            &[("class", "code-lang"), ("aria-hidden", "true")],
            label,
        )
        .open(
            "pre",
            &[
                ("tabindex", "0"),
                ("role", "group"),
                ("aria-label", lang.description()),
            ],
        )
        .open("code", &[]);
    m.append(runs_markup(lang, text));
    m.close("code").close("pre").close("div");
    m
}

/// The code's coloured runs (`<span class="tok-…">`, text elsewhere), trailing newlines trimmed.
fn runs_markup(lang: Lang, text: &str) -> Markup {
    let mut m = Markup::new();
    for token in highlight(lang, text.trim_end()) {
        match token.kind.class() {
            None => m.text(token.text),
            Some(class) => m.element("span", &[("class", class)], token.text),
        };
    }
    m
}

#[cfg(test)]
mod tests {
    use leptos::prelude::*;

    use super::{code_markup, CodeBlock};
    use crate::components::markup::normalized;
    use crate::content::model::CodeSample;

    static SAMPLE: CodeSample = CodeSample {
        lang: super::Lang::Lua,
        text: "if redis.call('GET', KEYS[1]) == ARGV[1] then\n  return redis.call(\"DEL\", KEYS[1]) -- a < b & c\nend\n\n",
    };

    #[test]
    fn the_markup_of_code_known_at_run_time_is_the_blocks() {
        let built = view! { <CodeBlock sample=&SAMPLE /> }.to_html();
        assert_eq!(
            normalized(&built),
            normalized(&code_markup(SAMPLE.lang, SAMPLE.text).finish())
        );
    }

    #[test]
    fn the_code_shows_exactly_its_text_with_markup_characters_escaped() {
        let markup = code_markup(SAMPLE.lang, SAMPLE.text).finish();
        let code = &markup[markup.find("<code>").expect("a code element") + "<code>".len()
            ..markup.rfind("</code>").expect("closed")];
        assert!(!code.contains("< b") && !code.contains("& c"), "{code}");
        let mut text = String::new();
        let mut in_tag = false;
        for c in code.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        let shown = text
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
        assert_eq!(shown, SAMPLE.text.trim_end());
    }
}
