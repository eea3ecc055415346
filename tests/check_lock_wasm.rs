//! The lock checker's live part in headless Chromium (a debug wasm build): the picker, the custom
//! editor and its inline error, and a small lock explored in slices to the verdicts the explorer
//! reports. The catalogue's full runs are checked on the release build (e2e/tests/check_lock.rs).
#![cfg(target_arch = "wasm32")]

mod dom;

use dom::{bubbling_event, tick, Mounted};
use leptos::prelude::*;
use lockdive::components::figures::check_lock::hooks;
use lockdive::components::figures::CheckLockLive;
use lockdive::scenarios::lockcheck::{catalogue, LockSpec};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn the_picker_offers_every_catalogue_lock_and_the_readers_own_nothing_picked() {
    let fig = Mounted::new(|| view! { <CheckLockLive /> });
    tick().await;
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
    let fig = Mounted::new(|| view! { <CheckLockLive /> });
    tick().await;
    fig.find(&hooks::lock("custom")).click();
    tick().await;
    for op in ["acquire", "release", "extend"] {
        assert_eq!(fig.count(&hooks::script(op)), 1, "a text area for {op}");
    }
    let release = fig.find(&hooks::script("release"));
    js_sys::Reflect::set(&release, &"value".into(), &broken.into()).expect("typed");
    bubbling_event(&release, "input");
    fig.find(hooks::CHECK_BUTTON).click();
    tick().await;
    let error = fig.text(hooks::ERROR);
    assert!(error.contains(&refusal), "{error:?} vs {refusal:?}");
    assert_eq!(fig.count(hooks::PROPERTIES), 0);
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
    let fig = Mounted::new(|| view! { <CheckLockLive /> });
    tick().await;
    fig.find(&hooks::lock("fenced")).click();
    tick().await;
    // The first slice has run and the page got its turn: the live line says how far it got.
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
    tick().await;
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
