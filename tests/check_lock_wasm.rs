//! The lock checker's live part in headless Chromium (a debug wasm build), as the build leaves it
//! and made live by the checker's chunk (`lab::check::LAB`): the picker, the custom editor and its
//! inline error, a small lock explored in slices to the verdicts the explorer reports, and its
//! counterexample player. The catalogue's full runs are checked on the release build
//! (e2e/tests/check_lock.rs).
#![cfg(target_arch = "wasm32")]

mod dom;

use dom::{key_down, tick, Mounted};
use leptos::prelude::*;
use lockdive::components::figures::check_lock::{hooks, Region};
use lockdive::components::figures::{CheckLockLive, LivePart, LiveSlot};
use lockdive::lab::check;
use lockdive::scenarios::lockcheck::{catalogue, LockSpec};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// The checker as the build renders it, in its slot, with no listeners.
async fn built_checker() -> Mounted {
    Mounted::built(|| {
        view! {
            <LiveSlot part=LivePart::CheckLock>
                <CheckLockLive />
            </LiveSlot>
        }
    })
    .await
}

/// The built checker made live by the checker's chunk.
async fn live_checker() -> Mounted {
    let fig = built_checker().await;
    assert_eq!(check::LAB.mount_in(&fig.root), 1, "the checker made live");
    fig
}

/// Waits for the exploration the page runs in slices to finish.
async fn explored(fig: &Mounted) {
    let progress = fig.find(hooks::PROGRESS);
    let mut waited = 0;
    while progress.get_attribute("data-state").as_deref() != Some("done") {
        assert!(
            waited < 1200,
            "not done after a minute: {:?}",
            progress.text_content()
        );
        gloo_timers::future::TimeoutFuture::new(50).await;
        waited += 1;
    }
}

#[wasm_bindgen_test]
async fn the_picker_offers_every_catalogue_lock_and_the_readers_own_nothing_picked() {
    let fig = live_checker().await;
    for spec in catalogue::all() {
        let button = fig.find(&hooks::lock(&spec.id));
        assert_eq!(
            button.get_attribute("aria-pressed").as_deref(),
            Some("false")
        );
    }
    assert_eq!(fig.count(&hooks::lock("custom")), 1);
    assert_eq!(fig.count(hooks::READOUT), 1);
    assert_eq!(
        fig.find(hooks::READOUT)
            .get_attribute("aria-live")
            .as_deref(),
        Some("polite")
    );
    assert_eq!(fig.count(hooks::PROPERTIES), 0, "no verdicts before a pick");
}

#[wasm_bindgen_test]
async fn a_script_that_does_not_compile_is_refused_inline_with_the_checkers_words() {
    let broken = "return redis.call('GET', KEYS[1]";
    let refusal = LockSpec::custom(None, broken, None, 10_000)
        .expect_err("does not compile")
        .to_string();
    let fig = live_checker().await;
    fig.find(&hooks::lock("custom")).click();
    tick().await;
    for op in ["acquire", "release", "extend"] {
        assert_eq!(fig.count(&hooks::script(op)), 1, "a text area for {op}");
    }
    let release = fig.find(&hooks::script("release"));
    js_sys::Reflect::set(&release, &"value".into(), &broken.into()).expect("typed");
    fig.find(hooks::CHECK_BUTTON).click();
    tick().await;
    let error = fig.text(hooks::ERROR);
    assert!(error.contains(&refusal), "{error:?} vs {refusal:?}");
    assert_eq!(fig.count(hooks::PROPERTIES), 0);
    // Check again: the same error is put in anew, so its alert is read out again.
    let first = fig.find(hooks::ERROR);
    fig.find(hooks::CHECK_BUTTON).click();
    tick().await;
    let again = fig.find(hooks::ERROR);
    assert!(
        !again.is_same_node(Some(&first)),
        "the alert is put in again"
    );
    assert_eq!(fig.text(hooks::ERROR), error);
    assert_eq!(
        fig.find(&hooks::lock("custom"))
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
}

#[wasm_bindgen_test]
async fn a_picked_lock_is_explored_in_slices_to_the_explorers_verdicts() {
    use lockdive::scenarios::lockcheck::{check, Bound};

    let spec = catalogue::by_id("fenced").expect("in the catalogue");
    let report = check(&spec, Bound::default()).expect("checks");
    let fig = live_checker().await;
    fig.find(&hooks::lock("fenced")).click();
    tick().await;
    explored(&fig).await;
    let rows: Vec<(String, String)> = fig
        .all(hooks::PROPERTIES)
        .iter()
        .map(|row| {
            (
                row.get_attribute("data-property").unwrap_or_default(),
                row.get_attribute("data-verdict").unwrap_or_default(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = report
        .properties
        .iter()
        .map(|p| (p.property.hook().to_string(), p.verdict.hook().to_string()))
        .collect();
    assert_eq!(rows, want);
    let line = fig.text(hooks::PROGRESS);
    assert!(
        line.contains(&format!(
            "explored {} schedules ({} states)",
            report.schedules, report.states
        )),
        "{line}"
    );
}

#[wasm_bindgen_test]
async fn a_counterexample_opens_steps_by_its_list_and_closes_again() {
    use lockdive::scenarios::lockcheck::{check, Bound, Property};

    let property = Property::NeverDeletesAnothers;
    let spec = catalogue::by_id("blind-del").expect("in the catalogue");
    let report = check(&spec, Bound::default()).expect("checks");
    let steps = report
        .property(property)
        .counterexample
        .clone()
        .expect("blind DEL deletes another's lock")
        .steps;
    let fig = live_checker().await;
    fig.find(&hooks::lock("blind-del")).click();
    explored(&fig).await;
    let open = fig.find(&hooks::open_counterexample(property.hook()));
    assert_eq!(
        open.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    open.click();
    assert_eq!(open.get_attribute("aria-expanded").as_deref(), Some("true"));
    assert_eq!(
        open.text_content().unwrap_or_default(),
        format!("Hide the counterexample ({} steps)", steps.len())
    );
    assert_eq!(fig.count(hooks::COUNTEREXAMPLE_STEPS) as usize, steps.len());
    let back = fig.find(hooks::STEP_BACK);
    assert_eq!(back.get_attribute("aria-disabled").as_deref(), Some("true"));
    // A click on the list's last item shows the breaking step.
    let items = fig.all(hooks::COUNTEREXAMPLE_STEPS);
    let last = items.last().expect("steps");
    last.query_selector("button")
        .expect("a selector")
        .expect("the item's button")
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    assert_eq!(last.get_attribute("aria-current").as_deref(), Some("step"));
    assert_eq!(
        fig.text(hooks::STEP_NOW),
        format!(
            "Step {} of {}: {}",
            steps.len(),
            steps.len(),
            steps[steps.len() - 1].note
        )
    );
    assert_eq!(
        fig.find(hooks::STEP_FORWARD)
            .get_attribute("aria-disabled")
            .as_deref(),
        Some("true")
    );
    assert_eq!(
        back.get_attribute("aria-disabled").as_deref(),
        Some("false")
    );
    assert_eq!(
        fig.all(hooks::COUNTEREXAMPLE_STEPS)
            .iter()
            .filter(|li| li.has_attribute("aria-current"))
            .count(),
        1,
        "one step is current"
    );
    // The keys work from a step's button too: Home goes back to the first step.
    let step_button: web_sys::Element = last
        .query_selector("button")
        .expect("a selector")
        .expect("the item's button");
    key_down(&step_button, "Home", true);
    assert!(fig.text(hooks::STEP_NOW).starts_with("Step 1 of"));
    fig.find(hooks::STEP_FORWARD).click();
    assert!(fig.text(hooks::STEP_NOW).starts_with("Step 2 of"));
    assert_eq!(
        fig.text(hooks::STEP_CLOCK),
        format!("t = {} ms", steps[1].clock_ms)
    );
    back.click();
    assert!(fig.text(hooks::STEP_NOW).starts_with("Step 1 of"));
    fig.find(hooks::STEP_FORWARD).click();
    open.click();
    assert_eq!(
        open.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    assert_eq!(fig.count(hooks::COUNTEREXAMPLE), 0, "closed");
    // Opened again, it starts from its first step.
    open.click();
    assert!(fig.text(hooks::STEP_NOW).starts_with("Step 1 of"));
    fig.find(hooks::STEP_FORWARD).click();
    assert!(fig.text(hooks::STEP_NOW).starts_with("Step 2 of"));
    assert_eq!(
        fig.all(hooks::COUNTEREXAMPLE_STEPS)
            .iter()
            .position(|li| li.has_attribute("aria-current")),
        Some(1)
    );
}

#[wasm_bindgen_test]
async fn the_readers_texts_stay_while_they_look_at_another_lock() {
    let fig = live_checker().await;
    assert_eq!(fig.count("[data-custom]"), 0, "no editor until picked");
    fig.find(&hooks::lock("custom")).click();
    let editor = fig.find(&Region::Custom.selector());
    assert!(!editor.has_attribute("hidden"));
    assert_eq!(fig.count("[data-custom]"), 1);
    let release = fig.find(&hooks::script("release"));
    let typed = "return redis.call('DEL', KEYS[1])";
    js_sys::Reflect::set(&release, &"value".into(), &typed.into()).expect("typed");
    fig.find(&hooks::lock("token-checked")).click();
    assert!(editor.has_attribute("hidden"));
    assert_eq!(fig.count(hooks::SCRIPTS), 1, "the picked lock's scripts");
    fig.find(&hooks::lock("custom")).click();
    assert_eq!(fig.count(hooks::SCRIPTS), 0);
    let kept = js_sys::Reflect::get(&fig.find(&hooks::script("release")), &"value".into())
        .expect("a value");
    assert_eq!(kept.as_string().as_deref(), Some(typed));
}

#[wasm_bindgen_test]
async fn a_pick_made_before_the_chunk_arrived_is_carried_out_once_it_has() {
    use lockdive_contract::hooks::PENDING;
    use lockdive_contract::lab::PendingAction;

    let fig = built_checker().await;
    let custom = fig.find(&hooks::lock("custom"));
    custom
        .set_attribute(PENDING, PendingAction::Click.attribute())
        .expect("kept");
    assert_eq!(check::LAB.mount_in(&fig.root), 1);
    assert_eq!(
        custom.get_attribute("aria-pressed").as_deref(),
        Some("true")
    );
    assert!(!custom.has_attribute(PENDING), "carried out once");
    assert_eq!(fig.count("[data-custom]"), 1, "the editor is open");
    assert_eq!(check::LAB.mount_in(&fig.root), 0, "wired once");
}
