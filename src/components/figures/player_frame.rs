//! What the player shows, as markup: the timeline of §1's five steps (←/→ step when it has focus)
//! and the current one — lease clock, command and reply, every key the store holds — all read from
//! the lost-lock model's run. The lab keeps the timeline's and the frame's elements and sets what
//! changes in them from the functions here.

use super::player_head::PlayHead;
use crate::components::markup::Markup;
use crate::scenarios::cli_text;
use crate::scenarios::lost_lock::{KeyRow, LockStep, LOCK_KEY};
use crate::scenarios::player::Timeline;
use ministore::ValueSnapshot;

/// The timeline, `ol[data-player-timeline]`.
pub const TIMELINE: &str = "[data-player-timeline]";

/// The class of the timeline's current step.
pub const CURRENT: &str = "is-current";

/// The five steps as a list; the current one is marked. Arrow keys, Home and End move.
pub fn timeline_list(timeline: &Timeline, head: &PlayHead) -> Markup {
    let mut m = Markup::new();
    m.open(
        "ol",
        &[
            ("class", "pl-timeline"),
            ("tabindex", "0"),
            ("data-player-timeline", ""),
            (
                "aria-label",
                "Timeline: ← and → step through it, Home and End jump to its ends",
            ),
        ],
    );
    for (i, step) in timeline.steps.iter().enumerate() {
        let current: &[(&str, &str)] = if i == head.step {
            &[("class", CURRENT), ("aria-current", "step")]
        } else {
            &[]
        };
        m.open("li", current)
            .open("button", &[("type", "button"), ("tabindex", "-1")])
            .append(step_label(timeline, step))
            .close("button")
            .close("li");
    }
    m.close("ol");
    m
}

/// A step's number, name and time, inside its button on the timeline.
pub fn step_label(timeline: &Timeline, step: &LockStep) -> Markup {
    let mut m = Markup::new();
    m.element("span", &[("class", "pl-no")], &step.number.to_string())
        .element(
            "span",
            &[("class", "pl-step-title")],
            &timeline.title_of(step),
        )
        .element("span", &[("class", "pl-t")], &step.time_label());
    m
}

/// The step shown in `timeline` at `head`'s position (the last, should the run be shorter).
pub fn shown_step<'t>(timeline: &'t Timeline, head: &PlayHead) -> Option<&'t LockStep> {
    let at = head.step.min(timeline.steps.len().saturating_sub(1));
    timeline.steps.get(at)
}

/// The virtual clock's element.
pub const CLOCK: &str = "[data-player-clock]";
/// The lock's PTTL's element.
pub const PTTL: &str = "[data-player-pttl]";
/// The lease bar, whose `data-holder` names the lock's value.
pub const LEASE_BAR: &str = ".pl-lease";
/// What is left of the lease, as the bar's width.
pub const LEASE_LEFT: &str = ".pl-lease-left";

/// `t = 1500 ms`.
pub fn clock_text(step: Option<&LockStep>) -> String {
    step.map(|s| format!("t = {} ms", s.clock_ms))
        .unwrap_or_default()
}

/// The lock's PTTL after the step: `8500 ms`, or what PTTL's negative answers mean, `-2 (no key)`
/// and `-1 (no expiry)`.
pub fn pttl_text(step: Option<&LockStep>) -> String {
    match step.map_or(-2, |s| s.lock_pttl) {
        -2 => "-2 (no key)".to_string(),
        -1 => "-1 (no expiry)".to_string(),
        ms => format!("{ms} ms"),
    }
}

/// The lease bar's `data-holder`: the lock's value in quotes, if a lock is held.
pub fn holder(step: Option<&LockStep>) -> Option<String> {
    step.and_then(|s| s.key_after.as_ref())
        .map(|k| format!("\"{}\"", k.value))
}

/// `width: 62.5%`: what is left of the lease, to a tenth of a percent, a tie to the even tenth
/// (in whole numbers: the figures' chunk needs no float formatting).
pub fn lease_left_style(step: Option<&LockStep>, lease_ms: u64) -> String {
    let left = step.map_or(0, |s| s.lock_pttl.max(0).unsigned_abs());
    let lease = lease_ms.max(1);
    let scaled = left.saturating_mul(1000);
    let (mut tenths, rest) = (scaled / lease, scaled % lease);
    if rest * 2 > lease || (rest * 2 == lease && tenths % 2 == 1) {
        tenths += 1;
    }
    let tenths = tenths.min(1000);
    format!("width: {}.{}%", tenths / 10, tenths % 10)
}

/// The current frame: the clocks, the lease bar, and the step's detail.
pub fn frame(timeline: &Timeline, head: &PlayHead) -> Markup {
    let step = shown_step(timeline, head);
    let mut m = Markup::new();
    m.open("div", &[("class", "pl-frame")])
        .open("div", &[("class", "pl-clocks")])
        .open("span", &[])
        .text("virtual clock ")
        .element("strong", &[("data-player-clock", "")], &clock_text(step))
        .close("span")
        .open("span", &[])
        .text("PTTL ")
        .text(LOCK_KEY)
        .text(" ")
        .element("strong", &[("data-player-pttl", "")], &pttl_text(step))
        .close("span")
        .close("div");
    let holder = holder(step);
    let mut bar = vec![("class", "pl-lease"), ("aria-hidden", "true")];
    if let Some(holder) = &holder {
        bar.push(("data-holder", holder));
    }
    let width = lease_left_style(step, timeline.setup.lease_ms);
    m.open("div", &bar)
        .element("div", &[("class", "pl-lease-left"), ("style", &width)], "")
        .close("div");
    if let Some(step) = step {
        m.append(frame_detail(timeline, step));
    }
    m.close("div");
    m
}

/// How many entries of a hash, sorted set, list or set the table shows before it counts the rest.
const SHOWN_ENTRIES: usize = 3;

/// A key's value as the player's table shows it: a string in quotes; a collection by its type and
/// size, then its first entries (a hash's fields with their values, a sorted set's members in
/// score order), so a reader can see whose token a lock kept as a field or member holds.
fn shown_value(value: &ValueSnapshot) -> String {
    match value {
        ValueSnapshot::String(bytes) => quoted(bytes),
        ValueSnapshot::Hash(fields) => entries(
            "hash",
            fields.len(),
            fields
                .iter()
                .map(|(f, v)| format!("{}: {}", quoted(f), quoted(v))),
        ),
        ValueSnapshot::ZSet(members) => entries(
            "zset",
            members.len(),
            members.iter().map(|(m, _)| quoted(m)),
        ),
        ValueSnapshot::List(items) => entries("list", items.len(), items.iter().map(|i| quoted(i))),
        ValueSnapshot::Set(items) => entries("set", items.len(), items.iter().map(|i| quoted(i))),
    }
}

fn quoted(bytes: &[u8]) -> String {
    format!("\"{}\"", String::from_utf8_lossy(bytes))
}

/// `zset of 2: "__write__", "abc"`, and `, … 2 more` past [`SHOWN_ENTRIES`].
fn entries(kind: &str, count: usize, shown: impl Iterator<Item = String>) -> String {
    let shown: Vec<String> = shown.take(SHOWN_ENTRIES).collect();
    if shown.is_empty() {
        return format!("{kind} of {count}");
    }
    let mut text = format!("{kind} of {count}: {}", shown.join(", "));
    if count > shown.len() {
        text.push_str(&format!(", … {} more", count - shown.len()));
    }
    text
}

/// A table of the store's keys, `table.pl-keys`: figure 1's player shows one after each step, and
/// so does the lock checker's counterexample player (whose table carries `extra` attributes).
pub fn key_table(caption: &str, keys: &[KeyRow], extra: &[(&str, &str)]) -> Markup {
    let mut attributes = vec![("class", "pl-keys")];
    attributes.extend_from_slice(extra);
    let mut m = Markup::new();
    m.open("table", &attributes)
        .element("caption", &[], caption)
        .open("thead", &[])
        .open("tr", &[])
        .element("th", &[("scope", "col")], "key")
        .element("th", &[("scope", "col")], "value")
        .element("th", &[("scope", "col")], "PTTL")
        .close("tr")
        .close("thead")
        .open("tbody", &[])
        .append(key_rows(keys))
        .close("tbody")
        .close("table");
    m
}

/// The store's keys after a step, one table row each.
pub fn key_rows(keys: &[KeyRow]) -> Markup {
    let mut m = Markup::new();
    if keys.is_empty() {
        m.open("tr", &[])
            .element("td", &[("colspan", "3")], "(empty: no live keys)")
            .close("tr");
    }
    for k in keys {
        let ttl = k
            .ttl_ms
            .map_or_else(|| "no expiry".to_string(), |ms| format!("{ms} ms"));
        m.open("tr", &[])
            .open("td", &[])
            .element("code", &[], &k.key)
            .close("td")
            .open("td", &[])
            .element("code", &[], &shown_value(&k.value))
            .close("td")
            .element("td", &[], &ttl)
            .close("tr");
    }
    m
}

/// The step's exchange, `p.pl-exchange`: who sent what and the store's reply; nothing for a step
/// without a command.
pub fn exchange(step: &LockStep) -> Markup {
    let mut m = Markup::new();
    if let Some(command) = &step.command {
        let reply = step.reply.as_ref().map(cli_text).unwrap_or_default();
        let actor = step.actor.map_or("", |a| a.name());
        m.open("p", &[("class", "pl-exchange")])
            .element("code", &[], &format!("{actor}> {command}"))
            .text(" → ")
            .element("code", &[], &reply)
            .close("p");
    }
    m
}

/// The step's exchange's element.
pub const EXCHANGE: &str = ".pl-exchange";
/// The frame's key table's caption.
pub const KEYS_CAPTION: &str = ".pl-frame .pl-keys caption";
/// The frame's key table's rows.
pub const KEYS_BODY: &str = ".pl-frame .pl-keys tbody";

/// The name of the step, `p.pl-now`.
pub const NOW: &str = ".pl-now";
/// What happened, `p.pl-note`, announced politely.
pub const NOTE: &str = ".pl-note";

/// The store's table's caption after a step.
pub fn keys_caption(step: &LockStep) -> String {
    format!("The store at t = {} ms", step.clock_ms)
}

/// One step's name, exchange, keys and note.
fn frame_detail(timeline: &Timeline, step: &LockStep) -> Markup {
    let mut m = Markup::new();
    m.element("p", &[("class", "pl-now")], &timeline.title_of(step))
        .append(exchange(step))
        .append(key_table(&keys_caption(step), &step.keys, &[]))
        .element(
            "p",
            &[("class", "pl-note"), ("aria-live", "polite")],
            &timeline.note(step),
        );
    m
}

#[cfg(test)]
mod tests {
    use super::{lease_left_style, shown_value};
    use crate::scenarios::lost_lock::{LostLockOutcome, ReleaseChoice};
    use crate::scenarios::player::PlayerSetup;
    use ministore::ValueSnapshot;

    #[test]
    fn the_lease_bar_is_what_is_left_of_the_lease_to_a_tenth_of_a_percent() {
        let run =
            LostLockOutcome::run_with(PlayerSetup::new(8_000, 7_500), ReleaseChoice::BlindDel);
        let mut step = run.steps[0].clone();
        for (pttl, width) in [
            (8_000, "width: 100.0%"),
            (500, "width: 6.2%"),
            (1_500, "width: 18.8%"),
            (1, "width: 0.0%"),
            (-2, "width: 0.0%"),
            (9_000, "width: 100.0%"),
        ] {
            step.lock_pttl = pttl;
            assert_eq!(lease_left_style(Some(&step), 8_000), width, "PTTL {pttl}");
        }
        assert_eq!(lease_left_style(None, 8_000), "width: 0.0%");
    }

    #[test]
    fn a_collection_shows_its_first_entries_so_a_token_in_it_can_be_read() {
        let zset = ValueSnapshot::ZSet(vec![
            (b"__write__".to_vec(), 300_000.0),
            (b"s+Cp9C=".to_vec(), 300_000.0),
        ]);
        assert_eq!(shown_value(&zset), "zset of 2: \"__write__\", \"s+Cp9C=\"");
        let hash = ValueSnapshot::Hash(vec![(b"uuid:1".to_vec(), b"1".to_vec())]);
        assert_eq!(shown_value(&hash), "hash of 1: \"uuid:1\": \"1\"");
        let list = ValueSnapshot::List((1..=5).map(|i| format!("j{i}").into_bytes()).collect());
        assert_eq!(
            shown_value(&list),
            "list of 5: \"j1\", \"j2\", \"j3\", … 2 more"
        );
        assert_eq!(shown_value(&ValueSnapshot::Set(vec![])), "set of 0");
    }
}
