//! The picker: one button per catalogue lock and one for the reader's own, `[data-lock="<id>"]`,
//! `aria-pressed` on the picked one. Buttons in a labelled group, all in the tab order (Tab and
//! Enter or Space, as any button); before the lab is live the first wasm keeps a click for the
//! lab to replay (`lockdive_contract::lab::PendingAction`).

use lockdive_contract::hooks::LOCK_PICKER;

use super::CUSTOM_ID;
use crate::components::markup::Markup;
use crate::scenarios::lockcheck::LockSpec;

/// The attribute that names a picker button's lock.
pub const LOCK: &str = "data-lock";

/// The picker, `[data-lock-picker]`, nothing picked: the lab sets `aria-pressed` as the reader
/// picks.
pub fn picker(locks: &[LockSpec]) -> Markup {
    let mut m = Markup::new();
    m.open(
        "div",
        &[
            ("class", "ck-picker"),
            ("role", "group"),
            ("aria-label", "Pick a lock to check"),
            (LOCK_PICKER, ""),
        ],
    );
    let entries = locks
        .iter()
        .map(|spec| (spec.id.as_str(), spec.name.as_str()))
        .chain(std::iter::once((CUSTOM_ID, "your own scripts")));
    for (id, name) in entries {
        m.open(
            "button",
            &[
                ("type", "button"),
                ("class", "ck-pick"),
                (LOCK, id),
                ("aria-pressed", "false"),
            ],
        )
        .element("span", &[("class", "ck-pick-name")], name)
        .element("code", &[("class", "ck-pick-id")], id)
        .close("button");
    }
    m.close("div");
    m
}
