//! The shape of the dive as data: header, sections and the blocks inside them.
//!
//! Content modules fill these types with the brief's text; components only render them, so every
//! word of the brief's on the page lives in `src/content/` and a native test can check it against
//! the brief. The figures' sentences come from their scenarios' runs (`src/scenarios/`), and the
//! controls' labels from the components.

use crate::components::highlight::Lang;
use crate::links::CoursePage;

/// Which interactive figure a [`Block::Figure`] places: its name is a DOM hook the first wasm, the
/// lab and the tests share, so it lives in the contract.
pub use lockdive_contract::Figure;

/// The whole dive, in reading order.
#[derive(Debug)]
pub struct Dive {
    /// Kicker, title, lede and grounding line.
    pub header: &'static Header,
    /// The interactive figure that opens the dive, before §1.
    pub lead_figure: Figure,
    /// §1 … §6, in the brief's order.
    pub sections: [&'static Section; 6],
    /// The lock checker's section (`#check`), not one of the brief's: the page puts it after §5,
    /// and §1–§6 keep their numbers.
    pub check: &'static Section,
}

impl Dive {
    /// Every section in page order: §1–§5, the lock checker, §6.
    pub fn in_page_order(&self) -> [&'static Section; 7] {
        let s = &self.sections;
        [s[0], s[1], s[2], s[3], s[4], self.check, s[5]]
    }
}

/// The top of the page.
#[derive(Debug)]
pub struct Header {
    /// The small line above the title (course code and dive).
    pub kicker: &'static str,
    /// The page's one `<h1>`.
    pub title: &'static str,
    /// The opening paragraph (inline markup).
    pub lede: &'static str,
    /// Where the pattern is grounded in real code (inline markup; file refs as code).
    pub grounding: &'static str,
}

/// One numbered section of the dive.
#[derive(Debug)]
pub struct Section {
    /// The anchor: `s1` … `s6`.
    pub id: &'static str,
    /// The visible number: `§1` … `§6`.
    pub number: &'static str,
    /// The section heading (inline markup).
    pub heading: &'static str,
    /// The line under the heading naming the source (inline markup; may be a link).
    pub source: &'static str,
    /// The section's body, in order.
    pub blocks: &'static [Block],
}

/// One piece of a section's body.
#[derive(Debug)]
pub enum Block {
    /// A paragraph of prose (inline markup).
    Para(&'static str),
    /// A highlighted code block.
    Code(CodeSample),
    /// A numbered scenario: each step has a short label and a sentence.
    Steps(&'static [Step]),
    /// A side note, e.g. "Notes on Valkey" (body is inline markup).
    Aside(Aside),
    /// A pull-quote restating the section's point.
    PullQuote(&'static str),
    /// Where an interactive figure goes.
    Figure(Figure),
    /// A boxed summary such as "the pattern" (body is inline markup).
    Callout(Callout),
    /// The box pointing to another course.
    Door(Door),
    /// The cited sources, with what each is for.
    Sources(SourceList),
    /// Links to the other pages of this course.
    Related(RelatedList),
}

/// Source text shown as a code block.
#[derive(Debug)]
pub struct CodeSample {
    /// Which highlighter rules apply.
    pub lang: Lang,
    /// The code, exactly as shown.
    pub text: &'static str,
}

/// One step of a numbered scenario.
#[derive(Debug)]
pub struct Step {
    /// Who does what, in two or three words ("A acquires").
    pub label: &'static str,
    /// The step in a sentence (inline markup).
    pub text: &'static str,
}

/// A side note with its label.
#[derive(Debug)]
pub struct Aside {
    /// The label, e.g. "Notes on Valkey".
    pub label: &'static str,
    /// The note (inline markup, usually ending in a link).
    pub body: &'static str,
}

/// A boxed summary.
#[derive(Debug)]
pub struct Callout {
    /// The box's title ("the pattern").
    pub title: &'static str,
    /// The summary (inline markup).
    pub body: &'static str,
}

/// The box that opens onto another course.
#[derive(Debug)]
pub struct Door {
    /// The small line above the title ("door · the EchoMQ course").
    pub kicker: &'static str,
    /// The box's title.
    pub title: &'static str,
    /// The explanation (inline markup).
    pub body: &'static str,
}

/// The cited sources.
#[derive(Debug)]
pub struct SourceList {
    /// The list's heading ("Sources").
    pub heading: &'static str,
    /// The sources, in the brief's order.
    pub items: &'static [Source],
}

/// One cited source.
#[derive(Debug)]
pub struct Source {
    /// The linked title ("Redis — Distributed Locks").
    pub title: &'static str,
    /// Where it lives.
    pub href: &'static str,
    /// What the dive uses it for.
    pub note: &'static str,
}

/// Links to the rest of the course.
#[derive(Debug)]
pub struct RelatedList {
    /// The nav's heading ("Related in this course").
    pub heading: &'static str,
    /// The pages, in the brief's order.
    pub items: &'static [Related],
}

/// One related course page.
#[derive(Debug)]
pub struct Related {
    /// The linked title ("R2.02.1 · SET NX PX").
    pub title: &'static str,
    /// Which page (resolved against the course base).
    pub page: CoursePage,
    /// What the reader finds there.
    pub note: &'static str,
}
