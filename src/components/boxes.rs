//! The set-apart blocks: the "Notes on Valkey" aside, pull-quotes, summary callouts and the door box.

use leptos::prelude::*;

use super::rich_text::RichText;
use crate::content::model::{Aside, Callout, Door};

/// A side note (`<aside>`) with its label above the body.
#[component]
pub fn NoteAside(
    /// The label and the note.
    aside: &'static Aside,
) -> impl IntoView {
    view! {
        <aside class="note">
            <p class="note-label">{aside.label}</p>
            <p class="note-body">
                <RichText markup=aside.body />
            </p>
        </aside>
    }
}

/// A pull-quote: the section's point in one sentence.
#[component]
pub fn PullQuote(
    /// The sentence.
    text: &'static str,
) -> impl IntoView {
    view! {
        <blockquote class="pull-quote">
            <p>{text}</p>
        </blockquote>
    }
}

/// A boxed summary ("the pattern", "attempts in EchoMQ").
#[component]
pub fn CalloutBox(
    /// The title and summary.
    callout: &'static Callout,
) -> impl IntoView {
    view! {
        <aside class="callout">
            <h3 class="callout-title">
                <RichText markup=callout.title />
            </h3>
            <p>
                <RichText markup=callout.body />
            </p>
        </aside>
    }
}

/// The door box: where this dive hands over to another course.
#[component]
pub fn DoorBox(
    /// Kicker, title and explanation.
    door: &'static Door,
) -> impl IntoView {
    view! {
        <aside class="door">
            <p class="door-kicker">{door.kicker}</p>
            <h3 class="door-title">{door.title}</h3>
            <p>
                <RichText markup=door.body />
            </p>
        </aside>
    }
}
