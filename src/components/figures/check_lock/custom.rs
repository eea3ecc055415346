//! The reader's own lock: three text areas (`textarea[data-script="acquire"|"release"|"extend"]`;
//! acquire and extend optional), the lease, the calling convention beside them, and a Check
//! button. The lab puts the editor in its region the first time the reader picks "your own
//! scripts" and only hides it after, so what they type stays while they look at other locks (the
//! build leaves it out: it needs the lab to do anything). [`custom_spec`] reads the texts;
//! what it or ministore refuses is shown inline (`[data-check-error]`, `role="alert"`), never as
//! a broken page.

use crate::components::markup::Markup;
use crate::components::rich_text::rich_markup;
use crate::content::check_lock::CUSTOM_CONVENTION;
use crate::scenarios::lockcheck::{lease_out_of_range, LockSpec, OpKind};
use crate::scenarios::lost_lock::LEASE_MS;

/// The attribute of a text area, naming its operation.
pub const SCRIPT: &str = "data-script";

/// The attribute of the lease's field.
pub const TTL: &str = "data-check-ttl";

/// The attribute of the Check button.
pub const CHECK_RUN: &str = "data-check-run";

/// The lock the reader's texts describe, or why they do not describe one: `ttl` is the lease
/// field's text, and an empty acquire or extend means the lock has none.
pub fn custom_spec(
    acquire: &str,
    release: &str,
    extend: &str,
    ttl: &str,
) -> Result<LockSpec, String> {
    fn optional(text: &str) -> Option<&str> {
        (!text.trim().is_empty()).then_some(text)
    }
    let given = ttl.trim();
    let digits = given.strip_prefix('-').unwrap_or(given);
    let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let ttl_ms: u64 = match given.parse() {
        Ok(ms) => ms,
        // A whole number too large for the parse, or below zero, is out of range, not malformed.
        Err(_) if whole => return Err(lease_out_of_range(given)),
        Err(_) => {
            return Err(format!(
                "the lease must be a whole number of milliseconds, not {ttl:?}"
            ))
        }
    };
    LockSpec::custom(optional(acquire), release, optional(extend), ttl_ms)
        .map_err(|e| e.to_string())
}

/// One labelled text area.
fn script_area(op: OpKind, need: &str, placeholder: &str, m: &mut Markup) {
    let id = format!("ck-{}", op.name());
    m.open("div", &[("class", "ck-area")])
        .open("label", &[("for", &id)])
        .element("span", &[("class", "ck-area-name")], op.name())
        .text(" ")
        .element("span", &[("class", "ck-area-need")], need)
        .close("label")
        .element(
            "textarea",
            &[
                ("id", &id),
                (SCRIPT, op.name()),
                ("rows", "6"),
                ("spellcheck", "false"),
                ("autocomplete", "off"),
                ("placeholder", placeholder),
            ],
            "",
        )
        .close("div");
}

/// The editor, `[data-custom]`.
pub fn custom_editor() -> Markup {
    let mut m = Markup::new();
    m.open(
        "section",
        &[
            ("class", "ck-custom"),
            ("data-custom", ""),
            ("aria-label", "Your own lock"),
        ],
    )
    .open("p", &[("class", "ck-convention")])
    .append(rich_markup(CUSTOM_CONVENTION))
    .close("p")
    .open("div", &[("class", "ck-areas")]);
    script_area(
        OpKind::Acquire,
        "(optional)",
        "SET {key} {token} NX PX {ttl_ms}",
        &mut m,
    );
    script_area(
        OpKind::Release,
        "(required)",
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
        &mut m,
    );
    script_area(
        OpKind::Extend,
        "(optional)",
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0",
        &mut m,
    );
    m.close("div")
        .open("div", &[("class", "ck-run")])
        .element("label", &[("for", "ck-ttl")], "Lease (ms)")
        .open(
            "input",
            &[
                ("id", "ck-ttl"),
                ("type", "text"),
                ("inputmode", "numeric"),
                (TTL, ""),
                ("value", &LEASE_MS.to_string()),
            ],
        )
        .element(
            "button",
            &[
                ("type", "button"),
                ("class", "ck-check"),
                (CHECK_RUN, ""),
                ("aria-disabled", "false"),
            ],
            "Check",
        )
        .close("div")
        .close("section");
    m
}

/// `[data-check-error]`: why the picked lock could not be checked, inline (`role="alert"`).
pub fn check_error(error: &str) -> Markup {
    let mut m = Markup::new();
    m.open(
        "p",
        &[
            ("class", "ck-error"),
            ("role", "alert"),
            ("data-check-error", ""),
        ],
    )
    .open("span", &[("class", "fig-mark")])
    .element("span", &[("aria-hidden", "true")], "✗")
    .text(" not checked")
    .close("span")
    .text(" ")
    .text(error)
    .close("p");
    m
}
