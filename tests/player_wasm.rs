//! Figure 1's scenario player in headless Chromium: each control (forward/back, play/pause, the
//! timeline's arrow keys, both sliders, the release switch) moves the player to the frame the
//! store run gives, the hazard shows only when the stall outlasts the lease, and the URL fragment
//! carries the player's state both ways.
#![cfg(target_arch = "wasm32")]

mod dom;

use dom::{bubbling_event, key_down, painted_fragment, set_fragment, tick, Mounted};
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use lockdive::components::figures::player_controls::{
    release_radio, Slider, BACK, FORWARD, PLAY, PLAYING,
};
use lockdive::components::figures::player_frame::{CLOCK, PTTL, TIMELINE};
use lockdive::components::figures::LostLockFigure;
use lockdive::scenarios::lost_lock::{LockSetup, LostLockOutcome, ReleaseChoice};
use lockdive_contract::hooks::READOUT_SELECTOR;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::HtmlElement;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen]
extern "C" {
    /// An `<input>`, reached through its `value` / `checked` properties (no extra web-sys feature).
    #[wasm_bindgen(extends = HtmlElement)]
    type FormInput;
    #[wasm_bindgen(method, getter)]
    fn value(this: &FormInput) -> String;
    #[wasm_bindgen(method, setter)]
    fn set_value(this: &FormInput, value: &str);
    #[wasm_bindgen(method, getter)]
    fn checked(this: &FormInput) -> bool;
}

/// The run the player shows for a lease, a stall and a release: the one lost-lock model.
fn model(lease_ms: u64, stall_ms: u64, choice: ReleaseChoice) -> LostLockOutcome {
    LostLockOutcome::run_with(LockSetup::new(lease_ms, stall_ms), choice)
}

/// The note of a run's last step (§1's step 5), as the model words it.
fn last_note(run: &LostLockOutcome) -> String {
    run.steps
        .last()
        .map(|step| run.note(step))
        .unwrap_or_default()
}

/// Figure 1's player, read and driven through its controls.
impl Mounted {
    /// The figure as the page has it once the figures' chunk is live: built, then made live
    /// where it stands.
    async fn figure() -> Mounted {
        Mounted::built(|| view! { <LostLockFigure /> })
            .await
            .with_lab()
            .await
    }

    fn step(&self) -> String {
        self.find("[data-player]")
            .get_attribute("data-player-step")
            .unwrap_or_default()
    }

    fn hazard(&self) -> bool {
        self.count("[data-player] [data-hazard=\"true\"]") == 1
    }

    async fn click(&self, selector: &str) {
        self.find(selector).click();
        tick().await;
    }

    /// Moves a slider as a drag would: sets its value and fires `input`.
    async fn slide(&self, slider: Slider, ms: u64) {
        let input: FormInput = self.find(&slider.selector()).unchecked_into();
        input.set_value(&ms.to_string());
        bubbling_event(&input, "input");
        tick().await;
    }

    async fn key_on_timeline(&self, key: &str) {
        key_down(&self.find(TIMELINE), key, false);
        tick().await;
    }

    fn slider(&self, slider: Slider) -> String {
        self.find(&slider.selector())
            .unchecked_into::<FormInput>()
            .value()
    }
}

#[wasm_bindgen_test]
async fn the_player_opens_on_step_0_of_the_briefs_run_with_the_hazard_shown() {
    set_fragment("").await;
    let fig = Mounted::figure().await;
    assert_eq!(fig.count("[data-player]"), 1);
    assert_eq!(
        fig.count(READOUT_SELECTOR),
        1,
        "the player adds no second readout"
    );
    assert_eq!(fig.count("[data-static-verdicts]"), 1);
    assert_eq!(fig.step(), "0");
    assert_eq!(fig.slider(Slider::Lease), "10000");
    assert_eq!(fig.slider(Slider::Stall), "12500");
    assert!(fig.text(".pl-slider").contains("10000 ms"), "live value");
    assert!(fig.hazard());
    assert_eq!(fig.text(CLOCK), "t = 0 ms");
    assert_eq!(fig.text(PTTL), "10000 ms");
    assert!(fig
        .text(".pl-frame")
        .contains("A> SET resource:lock abc NX PX 10000 → OK"));
    assert_eq!(fig.count(".pl-timeline li"), 5);
    assert_eq!(
        painted_fragment().await,
        "",
        "opening the page writes nothing into the URL"
    );
}

#[wasm_bindgen_test]
async fn forward_and_back_step_through_the_stores_frames() {
    set_fragment("").await;
    let fig = Mounted::figure().await;
    fig.click(BACK).await;
    assert_eq!(fig.step(), "0", "back at the start stays there");
    fig.click(FORWARD).await;
    assert_eq!(fig.step(), "1");
    // A's stall: the store expired A's lock at 10001 ms, inside the stall, and the frame shows
    // the store at that moment, as B finds it; A resumes at 12500 ms.
    assert_eq!(fig.text(CLOCK), "t = 10001 ms");
    assert_eq!(fig.text(PTTL), "-2 (no key)");
    assert!(fig.text(".pl-keys").contains("(empty: no live keys)"));
    assert!(fig
        .text(".pl-note")
        .contains("At t = 10001 ms, inside the stall"));
    fig.click(FORWARD).await;
    assert!(fig.text(".pl-keys").contains("\"xyz\""));
    assert_eq!(fig.text(CLOCK), "t = 10001 ms");
    fig.click(FORWARD).await;
    assert_eq!(fig.text(CLOCK), "t = 12500 ms");
    assert!(fig.text(".pl-note").contains("A deletes B's lock"));
    fig.click(FORWARD).await;
    fig.click(FORWARD).await;
    assert_eq!(fig.step(), "4", "forward at the end stays there");
    assert!(fig.text(".pl-now").contains("wrong lock"));
    assert!(fig
        .text(".pl-frame")
        .contains("SET resource:lock next NX PX 10000 → OK"));
    fig.click(BACK).await;
    assert_eq!(fig.step(), "3");
    assert_eq!(
        fig.find(BACK).get_attribute("aria-disabled").as_deref(),
        Some("false")
    );
}

#[wasm_bindgen_test]
async fn arrow_keys_home_and_end_move_along_the_focused_timeline() {
    set_fragment("").await;
    let fig = Mounted::figure().await;
    fig.key_on_timeline("ArrowRight").await;
    assert_eq!(fig.step(), "1");
    fig.key_on_timeline("End").await;
    assert_eq!(fig.step(), "4");
    fig.key_on_timeline("ArrowLeft").await;
    assert_eq!(fig.step(), "3");
    fig.key_on_timeline("Home").await;
    assert_eq!(fig.step(), "0");
    assert_eq!(
        fig.find(".pl-timeline li.is-current")
            .get_attribute("aria-current")
            .as_deref(),
        Some("step")
    );
    fig.click(".pl-timeline li:nth-child(3) button").await;
    assert_eq!(fig.step(), "2", "a click on a step jumps to it");
}

#[wasm_bindgen_test]
async fn the_hazard_appears_only_while_the_stall_outlasts_the_lease() {
    set_fragment("").await;
    let fig = Mounted::figure().await;
    let verdict = fig.find(".pl-verdict");
    assert_eq!(
        verdict.get_attribute("aria-live").as_deref(),
        Some("polite")
    );
    fig.slide(Slider::Stall, 6000).await;
    assert!(!fig.hazard(), "a 6 s stall fits a 10 s lease");
    assert!(fig.text(".pl-status").contains("no hazard"));
    // The new status is announced: it is inside the same live region, which the lab kept.
    assert!(verdict.is_connected());
    assert!(verdict.contains(Some(&fig.find(".pl-status"))));
    assert!(fig.text(".pl-slider:nth-child(2)").contains("6000 ms"));
    let within = model(10_000, 6_000, ReleaseChoice::BlindDel);
    assert!(fig.text(".pl-status").contains(&within.no_hazard()));
    fig.key_on_timeline("End").await;
    assert_eq!(fig.text(".pl-note"), last_note(&within));
    fig.key_on_timeline("ArrowLeft").await;
    let release = within
        .release_step()
        .map(|s| within.note(s))
        .unwrap_or_default();
    assert_eq!(fig.text(".pl-note"), release);
    assert!(release.contains("A deletes its own lock"));
    fig.slide(Slider::Stall, 10500).await;
    assert!(fig.hazard(), "half a second past the lease");
    fig.slide(Slider::Lease, 15000).await;
    assert!(!fig.hazard(), "a longer lease covers the stall again");
    assert!(fig.text(".pl-slider").contains("15000 ms"));
}

/// Focus that a click left on a step's button follows the current step as the arrows move it.
#[wasm_bindgen_test]
async fn focus_on_a_step_follows_the_current_step() {
    set_fragment("").await;
    let fig = Mounted::figure().await;
    let button = |at: usize| {
        fig.root
            .query_selector_all(&format!("{TIMELINE} > li button"))
            .expect("a selector")
            .item(at as u32)
            .expect("a step's button")
            .unchecked_into::<web_sys::HtmlElement>()
    };
    button(1).click();
    button(1).focus().expect("focusable");
    tick().await;
    assert_eq!(fig.step(), "1");
    key_down(&button(1), "ArrowRight", true);
    tick().await;
    assert_eq!(fig.step(), "2");
    let active = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .expect("something focused");
    assert!(
        active.is_same_node(Some(&button(2))),
        "focus moved to the current step"
    );
    set_fragment("").await;
}

#[wasm_bindgen_test]
async fn the_release_can_be_switched_at_the_last_step() {
    set_fragment("").await;
    let fig = Mounted::figure().await;
    let blind = model(10_000, 12_500, ReleaseChoice::BlindDel);
    let checked = model(10_000, 12_500, ReleaseChoice::TokenChecked);
    fig.key_on_timeline("End").await;
    assert_eq!(fig.text(".pl-note"), last_note(&blind));
    fig.click(&release_radio(ReleaseChoice::TokenChecked)).await;
    assert_eq!(fig.step(), "4", "switching keeps the position");
    assert!(fig
        .find(&release_radio(ReleaseChoice::TokenChecked))
        .unchecked_into::<FormInput>()
        .checked());
    assert_eq!(fig.text(".pl-note"), last_note(&checked));
    assert!(fig.text(".pl-keys").contains("\"xyz\""));
    let hazard = checked.hazard().unwrap_or_default();
    assert!(hazard.contains("B's lock stands"), "{hazard}");
    assert!(fig.text(".pl-status").contains(&hazard));
    fig.click(&release_radio(ReleaseChoice::BlindDel)).await;
    assert_eq!(fig.text(".pl-note"), last_note(&blind));
}

#[wasm_bindgen_test]
async fn play_advances_by_itself_and_pause_stops_it() {
    set_fragment("").await;
    let fig = Mounted::figure().await;
    fig.click(PLAY).await;
    assert_eq!(
        fig.find(PLAY).get_attribute(PLAYING).as_deref(),
        Some("true")
    );
    assert!(fig.text(PLAY).contains("Pause"));
    assert_eq!(fig.find(PLAY).get_attribute("aria-pressed"), None);
    TimeoutFuture::new(1_600).await;
    assert_eq!(fig.step(), "1", "one step after a play interval");
    fig.click(PLAY).await;
    assert!(fig.text(PLAY).contains("Play"));
    TimeoutFuture::new(1_600).await;
    assert_eq!(fig.step(), "1", "paused");
}

#[wasm_bindgen_test]
async fn a_change_writes_the_players_state_into_the_fragment() {
    set_fragment("#s2").await;
    let fig = Mounted::figure().await;
    assert_eq!(
        painted_fragment().await,
        "#s2",
        "a section anchor is left alone until the learner acts"
    );
    fig.click(FORWARD).await;
    fig.click(&release_radio(ReleaseChoice::TokenChecked)).await;
    fig.slide(Slider::Lease, 8000).await;
    assert_eq!(
        painted_fragment().await,
        "#play=1&lease=8000&stall=12500&release=token"
    );
    set_fragment("").await;
}

/// A section link followed after the page opened (`#s3`) holds no state: the next change still
/// writes the fence's commits the page was opened with beside the player's.
#[wasm_bindgen_test]
async fn a_section_link_followed_meanwhile_does_not_drop_the_other_figures_state() {
    set_fragment("#fence=35").await;
    let fig = Mounted::figure().await;
    set_fragment("#s3").await;
    fig.slide(Slider::Lease, 8000).await;
    assert_eq!(
        painted_fragment().await,
        "#play=0&lease=8000&stall=12500&release=blind&fence=35"
    );
    set_fragment("").await;
}

#[wasm_bindgen_test]
async fn a_shared_link_opens_the_player_where_it_was_and_bad_values_fall_back() {
    set_fragment("#play=4&lease=4000&stall=2000&release=token&fence=35").await;
    let fig = Mounted::figure().await;
    assert_eq!(fig.step(), "4");
    assert_eq!(fig.slider(Slider::Lease), "4000");
    assert_eq!(fig.slider(Slider::Stall), "2000");
    assert!(!fig.hazard());
    assert!(fig
        .find(&release_radio(ReleaseChoice::TokenChecked))
        .unchecked_into::<FormInput>()
        .checked());
    drop(fig);

    set_fragment("#play=999&lease=-5&stall=abc&release=%3Cscript%3E").await;
    let fig = Mounted::figure().await;
    assert_eq!(fig.step(), "4", "clamped onto the timeline");
    assert_eq!(fig.slider(Slider::Lease), "10000");
    assert_eq!(fig.slider(Slider::Stall), "12500");
    assert!(fig
        .find(&release_radio(ReleaseChoice::BlindDel))
        .unchecked_into::<FormInput>()
        .checked());
    set_fragment("").await;
}
