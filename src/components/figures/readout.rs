//! The live readout under a figure: one `aria-live` region that says the selected choice's
//! verdict (icon and word, never colour alone), its sentence and the store's evidence.

use leptos::prelude::*;

/// A verdict's mark: ✓ or ✗ plus the word that carries it for readers who cannot see colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Whether the outcome is the safe one (✓) or not (✗).
    pub ok: bool,
    /// The word shown beside the icon (`accepted`, `exclusion broken`, …).
    pub word: String,
}

impl Mark {
    /// `✓` or `✗`.
    pub fn icon(&self) -> &'static str {
        if self.ok {
            "✓"
        } else {
            "✗"
        }
    }

    /// `ok` or `bad`, for the stylesheet.
    pub fn tone(&self) -> &'static str {
        if self.ok {
            "ok"
        } else {
            "bad"
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
}

impl ReadoutText {
    /// The idle readout: a sentence and nothing else.
    pub fn idle(sentence: String) -> Self {
        ReadoutText {
            mark: None,
            sentence,
            evidence: Vec::new(),
        }
    }
}

/// The figure's only `[data-readout]`, announced politely to screen readers when it changes.
#[component]
pub fn Readout(
    /// The text to show; the figure switches it as the selection changes.
    #[prop(into)]
    text: Signal<ReadoutText>,
) -> impl IntoView {
    let mark = move || text.with(|t| t.mark.clone());
    view! {
        <div
            class="fig-readout"
            data-readout
            aria-live="polite"
            data-tone=move || mark().map_or("idle", |m| m.tone())
        >
            <p class="fig-readout-sentence">
                {move || {
                    mark()
                        .map(|m| {
                            view! {
                                <span class="fig-mark">
                                    <span aria-hidden="true">{m.icon()}</span>
                                    " "
                                    {m.word.clone()}
                                </span>
                                " "
                            }
                        })
                }}
                <span>{move || text.with(|t| t.sentence.clone())}</span>
            </p>
            <ul class="fig-evidence">
                {move || {
                    text.with(|t| {
                        t.evidence
                            .iter()
                            .map(|line| view! { <li><code>{line.clone()}</code></li> })
                            .collect_view()
                    })
                }}
            </ul>
        </div>
    }
}
