//! The dive's text, all of it, as data: one module per section plus the header.
//!
//! Prose is written in a small inline markup (`inline`): `` `code` `` for commands, keys and file
//! references, `[label](href)` for links, with `course:<slug>` hrefs for other course pages.
//! Components render this data; `tests/content.rs` checks it against the author's brief.

pub mod check_lock;
pub mod header;
pub mod inline;
pub mod model;
pub mod s1_blind_del;
pub mod s2_token_release;
pub mod s3_fencing;
pub mod s4_attempts;
pub mod s5_recap;
pub mod s6_references;

use model::{Dive, Figure};

/// The dive R2.02.2, in the brief's order.
pub static DIVE: Dive = Dive {
    header: &header::HEADER,
    lead_figure: Figure::LostLock,
    sections: [
        &s1_blind_del::SECTION,
        &s2_token_release::SECTION,
        &s3_fencing::SECTION,
        &s4_attempts::SECTION,
        &s5_recap::SECTION,
        &s6_references::SECTION,
    ],
    check: &check_lock::SECTION,
};
