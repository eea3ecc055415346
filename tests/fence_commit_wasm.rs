//! Figure 2's cumulative fence in headless Chromium: hover previews a write against the committed
//! state, a mouse click, Enter or a second tap commits it, the log lists every commit, reset
//! returns to "seen 34", and the committed writes travel in the URL fragment — on the figure as
//! the page has it once the lab is live: the first wasm answers the writers, the lab commits.
#![cfg(target_arch = "wasm32")]

mod dom;

use dom::{
    fragment, painted_fragment, past_leave_grace, pointer, set_fragment, tick, Mounted, PointerKind,
};
use leptos::prelude::*;
use lockdive::components::figures::FenceFigure;
use lockdive::scenarios::fence::{caption, LogFull, MAX_FENCE_COMMITS};
use lockdive_contract::hooks::{with_value, PATH, TONE};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::HtmlElement;

wasm_bindgen_test_configure!(run_in_browser);

const IDLE_34: &str =
    "The resource has accepted token 34. Hover a writer to read whether its token clears the fence.";

/// The fence figure's writers and log, driven by mouse and finger.
impl Mounted {
    async fn figure() -> Mounted {
        Mounted::built(|| view! { <FenceFigure /> })
            .await
            .with_lab()
            .await
    }

    fn writer(&self, token: u8) -> HtmlElement {
        self.find(&format!("[data-writer=\"{token}\"]"))
    }

    fn log(&self) -> Vec<String> {
        self.all("ol[data-fence-log] > li")
            .iter()
            .map(|li| li.text_content().unwrap_or_default())
            .collect()
    }

    fn max_seen(&self) -> String {
        self.text("[data-fence-max]")
    }

    /// A mouse moves onto the writer and clicks it.
    async fn mouse_click(&self, token: u8) {
        let target = self.writer(token);
        pointer(&target, "pointerenter", PointerKind::Mouse, false);
        pointer(&target, "pointerdown", PointerKind::Mouse, true);
        target.click();
        tick().await;
    }

    async fn mouse_leave(&self, token: u8) {
        pointer(
            &self.writer(token),
            "pointerleave",
            PointerKind::Mouse,
            false,
        );
        past_leave_grace().await;
    }

    /// A finger taps the writer: touch pointers send enter, down, then the click.
    async fn finger_tap(&self, token: u8) {
        let target = self.writer(token);
        pointer(&target, "pointerenter", PointerKind::Touch, false);
        pointer(&target, "pointerdown", PointerKind::Touch, true);
        target.click();
        pointer(&target, "pointerleave", PointerKind::Touch, false);
        tick().await;
    }
}

#[wasm_bindgen_test]
async fn after_35_is_committed_34_is_rejected_and_the_log_lists_both() {
    set_fragment("").await;
    let fig = Mounted::figure().await;
    assert_eq!(fig.readout(), IDLE_34);
    assert!(fig.log().is_empty());
    assert!(fig.text(".fw-ledger").contains("None yet"));

    fig.mouse_click(35).await;
    assert!(fig
        .readout()
        .contains("Committed — Writer 35 (next): 35 > 34, accepted, max seen becomes 35."));
    assert_eq!(fig.max_seen(), "35");
    assert_eq!(fig.log().len(), 1);
    assert!(fig.log()[0].contains("token 35: 35 > 34, accepted, max seen becomes 35"));
    assert!(fig.log()[0].contains("(integer) 35"));
    fig.mouse_leave(35).await;
    assert!(fig
        .readout()
        .starts_with("The resource has accepted token 35."));
    // The writers' roles move with the fence: 35's write is the one the resource holds now.
    let labels: Vec<String> = [33, 34, 35]
        .map(|token| fig.writer(token).text_content().unwrap_or_default())
        .to_vec();
    assert_eq!(labels, ["33 (paused)", "34 (stale)", "35 (current)"]);

    // Hover stays a what-if, now against "seen 35".
    let current = fig.writer(34);
    pointer(&current, "pointerenter", PointerKind::Mouse, false);
    tick().await;
    assert!(fig
        .readout()
        .contains("Writer 34 (stale): 34 < 35, rejected."));
    assert!(fig
        .readout()
        .contains("(error) FENCED token 34 < max seen 35"));
    assert_eq!(fig.log().len(), 1, "a hover commits nothing");
    assert!(fig
        .text(&format!("{} .fw-check", with_value(PATH, "34")))
        .contains("34 < 35"));

    fig.mouse_click(34).await;
    assert!(fig
        .readout()
        .contains("Committed — Writer 34 (stale): 34 < 35, rejected."));
    let log = fig.log();
    assert_eq!(log.len(), 2);
    assert!(log[1].contains("token 34: 34 < 35, rejected"));
    assert!(log[1].contains("(error) FENCED token 34 < max seen 35"));
    assert_eq!(fig.max_seen(), "35", "a rejected write leaves the max");
    assert_eq!(
        fig.find("ol[data-fence-log] > li:nth-child(2)")
            .get_attribute(TONE)
            .as_deref(),
        Some("bad")
    );

    let verdicts = fig.text("[data-static-verdicts]");
    assert!(
        verdicts.contains("34 (current) → 34 ≥ 34, accepted"),
        "still against seen 34"
    );
    assert!(verdicts.contains("35 (next) → 35 > 34, accepted, max seen becomes 35"));
    set_fragment("").await;
}

#[wasm_bindgen_test]
async fn a_first_tap_selects_and_a_second_tap_on_the_same_writer_commits() {
    set_fragment("").await;
    let fig = Mounted::figure().await;
    fig.finger_tap(35).await;
    assert!(fig
        .readout()
        .contains("Writer 35 (next): 35 > 34, accepted"));
    assert!(!fig.readout().contains("Committed"));
    assert!(fig.log().is_empty(), "one tap only previews");
    fig.finger_tap(35).await;
    assert!(fig.readout().contains("Committed — Writer 35 (next)"));
    assert_eq!(fig.log().len(), 1);
    fig.finger_tap(33).await;
    assert_eq!(
        fig.log().len(),
        1,
        "a tap on another writer selects it first"
    );
    assert!(fig.readout().contains("33 < 35, rejected"));
    set_fragment("").await;
}

#[wasm_bindgen_test]
async fn enter_on_a_focused_writer_commits_it() {
    set_fragment("").await;
    let fig = Mounted::figure().await;
    let next = fig.writer(35);
    next.focus().expect("focusable");
    tick().await;
    assert!(fig.readout().contains("35 > 34, accepted"));
    // Enter or Space on a focused button is a click without a pointer press.
    next.click();
    tick().await;
    assert_eq!(fig.log().len(), 1);
    assert_eq!(fig.max_seen(), "35");
    next.blur().expect("blurred");
    set_fragment("").await;
}

#[wasm_bindgen_test]
async fn reset_returns_the_fence_to_seen_34() {
    set_fragment("").await;
    let fig = Mounted::figure().await;
    assert_eq!(fig.text("figcaption"), caption(Some(34)));
    fig.mouse_click(35).await;
    fig.mouse_leave(35).await;
    assert_eq!(fig.max_seen(), "35");
    // The caption names the token the resource has seen now.
    assert!(fig
        .text("figcaption")
        .contains("the resource has seen token 35."));
    fig.find("[data-fence-reset]").click();
    tick().await;
    assert!(fig.log().is_empty());
    assert_eq!(fig.max_seen(), "34");
    assert_eq!(fig.text("figcaption"), caption(Some(34)));
    assert_eq!(fig.readout(), IDLE_34);
    assert_eq!(
        fig.writer(34).text_content().as_deref(),
        Some("34 (current)")
    );
    assert_eq!(fig.writer(35).text_content().as_deref(), Some("35 (next)"));
    assert!(fig
        .text(&format!("{} .fw-check", with_value(PATH, "34")))
        .contains("34 ≥ 34"));
    assert_eq!(painted_fragment().await, "", "nothing left to share");
}

#[wasm_bindgen_test]
async fn committed_writes_travel_in_the_url_fragment() {
    set_fragment("#s3").await;
    let fig = Mounted::figure().await;
    assert_eq!(fragment(), "#s3");
    fig.mouse_click(35).await;
    fig.mouse_click(34).await;
    assert_eq!(painted_fragment().await, "#fence=35,34");
    drop(fig);

    set_fragment("#play=2&fence=35,33,99,oops").await;
    let fig = Mounted::figure().await;
    let log = fig.log();
    assert_eq!(log.len(), 2, "unknown tokens are skipped: {log:?}");
    assert!(log[0].contains("token 35"));
    assert!(log[1].contains("token 33: 33 < 35, rejected"));
    assert_eq!(fig.max_seen(), "35");
    drop(fig);

    // One commit in the link: the log lists it once, whether or not the build had read it too.
    set_fragment("#fence=35").await;
    let fig = Mounted::figure().await;
    assert_eq!(fig.log().len(), 1, "{:?}", fig.log());
    set_fragment("").await;
}

#[wasm_bindgen_test]
async fn a_press_on_a_full_log_commits_nothing_and_the_readout_says_so() {
    let tokens = vec!["35"; MAX_FENCE_COMMITS].join(",");
    set_fragment(&format!("#fence={tokens}")).await;
    let fig = Mounted::figure().await;
    assert_eq!(fig.log().len(), MAX_FENCE_COMMITS);
    assert!(fig.text(".fw-ledger").contains(&LogFull::note()));

    fig.mouse_click(34).await;
    let refused = fig.readout();
    assert!(refused.contains("⚠ not committed"), "{refused}");
    assert!(
        refused.contains(&LogFull::refusal("34 (stale)")),
        "{refused}"
    );
    assert!(!refused.contains("Committed"), "{refused}");
    assert_eq!(
        fig.find("[data-readout]").get_attribute(TONE).as_deref(),
        Some("warn")
    );
    assert_eq!(fig.log().len(), MAX_FENCE_COMMITS, "nothing committed");
    assert_eq!(fig.max_seen(), "35");
    assert_eq!(painted_fragment().await, format!("#fence={tokens}"));

    // Off the writer, its hover is its what-if again; a second press is refused again.
    fig.mouse_leave(34).await;
    pointer(&fig.writer(34), "pointerenter", PointerKind::Mouse, false);
    tick().await;
    assert!(fig
        .readout()
        .contains("Writer 34 (stale): 34 < 35, rejected."));
    fig.mouse_leave(34).await;
    fig.mouse_click(35).await;
    let again = fig.readout();
    assert!(again.contains(&LogFull::refusal("35 (current)")), "{again}");
    assert_eq!(
        fig.all("template[data-committed]").len(),
        1,
        "one press's source"
    );
    fig.mouse_leave(35).await;

    // After a reset the refusal is gone, and the same press commits.
    fig.find("[data-fence-reset]").click();
    tick().await;
    assert_eq!(fig.all("template[data-committed]").len(), 0);
    assert!(!fig.text(".fw-ledger").contains(&LogFull::note()));
    fig.mouse_click(35).await;
    assert!(fig
        .readout()
        .contains("Committed — Writer 35 (next): 35 > 34, accepted, max seen becomes 35."));
    assert_eq!(fig.log().len(), 1);
    set_fragment("").await;
}
