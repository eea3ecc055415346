//! Figure 2's drawing: the protected resource with the max seen the fence holds and its reset
//! button, and one lane per writer: its button (as built, for the first wasm) and what the fence
//! would do with its write now (a live part, against the committed state).

use lockdive_contract::hooks::TONE;

use super::fence_log::seen_text;
use super::fence_readout::mark;
use crate::components::markup::{truth, Markup};
use crate::scenarios::fence::{FenceBoard, FenceOutcome, Writer, FENCE_KEY};

views! {
    use leptos::attr::custom::custom_attribute;
    use leptos::prelude::*;
    use lockdive_contract::hooks::{CHOICE_LABEL, PATH, WRITER};

    use super::choice::ChoiceButton;
    use super::slot::{LivePart, MarkupSlot};
}

/// The max seen's element in the resource bar.
pub const MAX_SEEN: &str = "[data-fence-max]";

/// The reset button.
pub const RESET: &str = "[data-fence-reset]";

/// The drawing, `div.fw-drawing`: the resource above the three writer lanes.
#[cfg(feature = "views")]
#[component]
pub fn FenceDrawing(
    /// The fence as committed so far.
    board: FenceBoard,
    /// The token the resource had seen before any commit.
    seen: Option<i64>,
) -> impl IntoView {
    let resource = resource(&board, seen).finish();
    view! {
        <div class="fw-drawing" role="group" aria-label="Three writers present their fencing tokens">
            <MarkupSlot part=LivePart::FenceResource markup=resource />
            {Writer::ALL
                .into_iter()
                .map(|writer| view! { <WriterRow writer board=board.clone() /> })
                .collect_view()}
        </div>
    }
}

/// The resource bar's markup: the max seen as committed so far, and the reset button, which says
/// `aria-disabled` while there is nothing to reset. It sits above the readout: a press moves focus
/// off a writer, which shrinks the readout, and a button below it would slide away before the
/// click.
pub fn resource(board: &FenceBoard, seen: Option<i64>) -> Markup {
    let mut m = Markup::new();
    m.open("div", &[("class", "fw-resource")])
        .element(
            "span",
            &[("class", "fw-resource-name")],
            "protected resource",
        )
        .open("span", &[])
        .text("max seen: ")
        .element("code", &[], FENCE_KEY)
        .text(" = ")
        .element("strong", &[("data-fence-max", "")], &max_seen_text(board))
        .close("span")
        .element(
            "button",
            &[
                ("type", "button"),
                ("class", "fw-reset"),
                ("data-fence-reset", ""),
                ("aria-disabled", reset_disabled(board)),
            ],
            &format!("Reset to seen {}", seen_text(seen)),
        )
        .close("div");
    m
}

/// The max seen as the resource bar says it: the token, or `(nil)`.
pub fn max_seen_text(board: &FenceBoard) -> String {
    board
        .max_seen
        .map_or_else(|| "(nil)".to_string(), |m| m.to_string())
}

/// The reset button's `aria-disabled`: there is nothing to reset while the log is empty.
pub fn reset_disabled(board: &FenceBoard) -> &'static str {
    truth(board.log.is_empty())
}

/// One writer's lane, `[data-path]`: its choice button, then its outcome's slot. The row's tone
/// is its what-if's as built; the first wasm keeps it in step with the readout sources.
#[cfg(feature = "views")]
#[component]
fn WriterRow(
    /// The writer this lane is for.
    writer: Writer,
    /// The fence as committed so far.
    board: FenceBoard,
) -> impl IntoView {
    let tone = board.what_if(writer.token).map(|o| mark(o).tone());
    let outcome = lane(writer, &board).finish();
    view! {
        <div class="fw-row" {..custom_attribute(PATH, writer.hook())} {..custom_attribute(TONE, tone)}>
            <ChoiceButton commits=true {..custom_attribute(WRITER, writer.hook())}>
                <span class=CHOICE_LABEL>{writer.label(board.max_seen)}</span>
            </ChoiceButton>
            <MarkupSlot part=LivePart::FenceLane(writer) markup=outcome />
        </div>
    }
}

/// A lane's live part: the write travelling to the fence, and what the fence would do with it now,
/// against the committed state.
pub fn lane(writer: Writer, board: &FenceBoard) -> Markup {
    let outcome = board.what_if(writer.token);
    let mut m = Markup::new();
    m.open("div", &[("class", "fw-wire")])
        .element(
            "span",
            &[("class", "fw-write")],
            &format!("write(…, {})", writer.token),
        )
        .element(
            "span",
            &[("class", "fw-check")],
            &outcome.map(FenceOutcome::comparison).unwrap_or_default(),
        )
        .close("div");
    let result = outcome.map(mark);
    let tone = result.as_ref().map(|m| m.tone());
    let mut attributes = vec![("class", "fw-result")];
    if let Some(tone) = tone {
        attributes.push((TONE, tone));
    }
    m.open("div", &attributes)
        .open("span", &[("class", "fig-mark")]);
    if let Some(result) = &result {
        m.element("span", &[("aria-hidden", "true")], result.icon())
            .text(" ")
            .text(&result.word);
    }
    m.close("span")
        .element("span", &[("class", "fw-after")], &after_text(outcome))
        .close("div");
    m
}

/// What the write would leave as the max seen.
fn after_text(outcome: Option<&FenceOutcome>) -> String {
    match outcome.map(|o| (o.max_seen_before, o.max_seen_after)) {
        Some((Some(before), Some(after))) if before != after => {
            format!("max seen {before} → {after}")
        }
        Some((_, Some(after))) => format!("max seen stays {after}"),
        _ => "no max seen".to_string(),
    }
}
