//! The readout under a figure: one `aria-live` region that says the shown choice's verdict (icon
//! and word, never colour alone), its sentence and the store's evidence; and its sources, one
//! `<template data-readout-for>` per choice, which the first wasm swaps into it.

use lockdive_contract::hooks::{COMMITTED, READOUT_FOR, TONE};

use crate::components::markup::Markup;

views! {
    use leptos::attr::custom::custom_attribute;
    use leptos::prelude::*;
    use lockdive_contract::hooks::READOUT;
}

/// A verdict's mark: ✓, ⚠ or ✗ plus the word that carries it for readers who cannot see colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Whether the outcome is the one wanted (✓), wanted but with a hazard it does not fix
    /// (⚠, `warn`), or not (✗).
    pub ok: bool,
    /// True for ⚠: the choice did what it should, but the run still has a hazard.
    pub warn: bool,
    /// The word shown beside the icon (`accepted`, `exclusion broken`, …).
    pub word: String,
}

impl Mark {
    /// ✓ when `ok`, ✗ otherwise.
    pub fn new(ok: bool, word: impl Into<String>) -> Mark {
        Mark {
            ok,
            warn: false,
            word: word.into(),
        }
    }

    /// ⚠: the choice did its part, but the run still has a hazard the readout names.
    pub fn warn(word: impl Into<String>) -> Mark {
        Mark {
            ok: false,
            warn: true,
            word: word.into(),
        }
    }

    /// `✓`, `⚠` or `✗`.
    pub fn icon(&self) -> &'static str {
        match (self.warn, self.ok) {
            (true, _) => "⚠",
            (false, true) => "✓",
            (false, false) => "✗",
        }
    }

    /// `ok`, `warn` or `bad`, for the stylesheet.
    pub fn tone(&self) -> &'static str {
        match (self.warn, self.ok) {
            (true, _) => "warn",
            (false, true) => "ok",
            (false, false) => "bad",
        }
    }
}

/// What a readout says at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadoutText {
    /// The verdict's mark; `None` while nothing is selected.
    pub mark: Option<Mark>,
    /// The sentence, rendered by the scenario from its run.
    pub sentence: String,
    /// Commands and replies as redis-cli prints them, and what the keys hold afterwards.
    pub evidence: Vec<String>,
    /// What the outcome does not cover, in short, pointing to [`FigureCaveat`] under the static
    /// verdicts, which says all of it with the link to §3 and stays visible while the readout
    /// shows this: the whole paragraph twice, one above the other, would only be read twice. The
    /// readout changes as focus and pointer move, so a link in it could not be reached anyway.
    pub caveat: Option<String>,
}

impl ReadoutText {
    /// `ok`, `warn`, `bad`, or `idle` while nothing is selected: the readout's `data-tone`.
    pub fn tone(&self) -> &'static str {
        self.mark.as_ref().map_or("idle", Mark::tone)
    }

    /// The idle readout: a sentence and nothing else.
    pub fn idle(sentence: String) -> Self {
        ReadoutText {
            mark: None,
            sentence,
            evidence: Vec::new(),
            caveat: None,
        }
    }
}

/// The figure's only `[data-readout]`, announced politely to screen readers when it changes. The
/// build renders it idle; the first wasm (`lockdive-first`) fills it from the sources.
#[cfg(feature = "views")]
#[component]
pub fn Readout(
    /// The text to show.
    text: ReadoutText,
) -> impl IntoView {
    view! {
        <div
            class="fig-readout"
            aria-live="polite"
            {..custom_attribute(TONE, text.tone())}
            {..custom_attribute(READOUT, true)}
            inner_html=readout_body(&text).finish()
        ></div>
    }
}

/// What a readout holds inside its region: the sentence with its mark, then the caveat if any,
/// then the evidence. The readout and every source of it (the build's and the lab's) are this
/// markup, so what the first wasm swaps in is what the build showed.
pub fn readout_body(text: &ReadoutText) -> Markup {
    let mut m = Markup::new();
    m.open("p", &[("class", "fig-readout-sentence")]);
    if let Some(mark) = &text.mark {
        m.open("span", &[("class", "fig-mark")])
            .element("span", &[("aria-hidden", "true")], mark.icon())
            .text(" ")
            .text(&mark.word)
            .close("span")
            .text(" ");
    }
    m.element("span", &[], &text.sentence).close("p");
    if let Some(caveat) = &text.caveat {
        m.element("p", &[("class", "fig-caveat")], caveat);
    }
    m.open("ul", &[("class", "fig-evidence")]);
    for line in &text.evidence {
        m.open("li", &[]).element("code", &[], line).close("li");
    }
    m.close("ul");
    m
}

/// Where the page takes up what an outcome does not cover: `§3 · Fencing a stale writer`.
#[cfg(feature = "views")]
fn section_3() -> (String, String) {
    let s3 = &crate::content::s3_fencing::SECTION;
    (
        format!("#{}", s3.id),
        format!("{} · {}", s3.number, s3.heading),
    )
}

/// The same caveat under a figure's static verdicts, always visible, with the link to §3.
#[cfg(feature = "views")]
#[component]
pub fn FigureCaveat(
    /// The sentence, which ends where the link continues it.
    caveat: String,
) -> impl IntoView {
    let (href, section) = section_3();
    view! { <p class="fig-caveat" data-caveat>{caveat} " " <a href=href>{section}</a> "."</p> }
}

/// Every readout the figure can show — the idle one (key `""`) and one per choice, keyed by the
/// choice's `data-path` — as inert `<template data-readout-for>`s: the readout's sources. The first
/// wasm (`lockdive-first`'s `figure`) swaps them into the readout on hover, so a hover needs no
/// store. A figure whose outcomes change with the store (figure 2) has them in a live part instead
/// ([`readout_template`]), which the lab renders again as the store changes.
#[cfg(feature = "views")]
#[component]
pub fn ReadoutTemplates(
    /// The readout with nothing selected.
    idle: ReadoutText,
    /// Each choice's key (its row's `data-path`) and readout.
    choices: Vec<(String, ReadoutText)>,
) -> impl IntoView {
    std::iter::once((String::new(), idle))
        .chain(choices)
        .map(|(key, text)| view! { <ReadoutTemplate key text /> })
        .collect_view()
}

/// One readout source. With `committed`, it is what the last press came to
/// (`lockdive_contract::hooks::COMMITTED`), shown instead of the key's what-if while the pressed
/// choice stays on show.
#[cfg(feature = "views")]
#[component]
pub fn ReadoutTemplate(
    /// The choice's key, `""` for the idle readout.
    key: String,
    /// What the readout says for it.
    text: ReadoutText,
) -> impl IntoView {
    view! {
        <template
            {..custom_attribute(READOUT_FOR, key)}
            {..custom_attribute(TONE, text.tone())}
            inner_html=readout_body(&text).finish()
        ></template>
    }
}

/// One readout source as markup, for a part the lab renders again (figure 2's): the same element as
/// [`ReadoutTemplate`], with `data-committed` when it is what the last press came to.
pub fn readout_template(key: &str, text: &ReadoutText, committed: bool) -> Markup {
    let mut attributes = vec![(READOUT_FOR, key), (TONE, text.tone())];
    if committed {
        attributes.push((COMMITTED, ""));
    }
    let mut m = Markup::new();
    m.open("template", &attributes)
        .append(readout_body(text))
        .close("template");
    m
}
