//! The live side of the prerendered page: on a page built from `App`'s markup with no listeners
//! (as the build's HTML is), the course links are re-pointed at the page's base (the first wasm
//! does it as it starts), the first wasm makes the figures' choices answer, and each lab chunk's
//! `mount` makes only its own parts (those that need the store) live where they stand — the
//! choices, captions, readouts and prose stay the build's, answered by one layer — keeps what the
//! reader did there before it arrived (typed text, a moved slider, the focus), carries out a click
//! or Enter kept for it, and carries out a commit the first wasm asked for, once.
#![cfg(target_arch = "wasm32")]

mod dom;

use dom::{focus, key_down, painted_fragment, pointer, set_fragment, tick, Mounted, PointerKind};
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::document;
use lockdive::components::figures::player_controls::{Slider, FORWARD};
use lockdive::components::figures::player_frame::TIMELINE;
use lockdive::components::figures::LivePart;
use lockdive::lab::{check, figures, store};
use lockdive::scenarios::fence::{FenceLedger, LogFull, MAX_FENCE_COMMITS};
use lockdive::App;
use lockdive_contract::hooks::{
    with_value, CHOICE_SELECTOR, COMMIT, COMMIT_EVENT, FIGURE, FIGURE_SELECTOR, OUTCOMES_EVENT,
    PATH, PENDING, READOUT_SELECTOR, SLOT, SLOT_LIVE, TONE, WRITER,
};
use lockdive_contract::lab::{LabChunk, LabState, PendingAction};
use lockdive_contract::Figure;
use lockdive_first::course_links::relink as relink_course_pages;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Event, HtmlElement, HtmlInputElement, MutationObserver, MutationObserverInit};

wasm_bindgen_test_configure!(run_in_browser);

/// A stand-in for the build's HTML as the first wasm leaves it, the lab on its way.
async fn prerendered_page() -> Mounted {
    Mounted::built(App).await
}

/// Every lab chunk takes the page over, as each does once a reader has reached for it.
fn mount_lab() -> usize {
    figures::LAB.mount() + store::LAB.mount() + check::LAB.mount()
}

#[wasm_bindgen_test]
async fn each_lab_chunk_mounts_only_its_own_parts() {
    let page = prerendered_page().await;
    // Each slot's prerendered content, by the chunk that owns the slot: a chunk's mount makes its
    // own slots live where they stand (`SLOT_LIVE` on the slot, the built content kept) and leaves
    // every other chunk's as built.
    let built: Vec<(LabChunk, HtmlElement, HtmlElement)> = LivePart::all()
        .into_iter()
        .filter_map(|part| {
            let name = part.slot_name();
            let chunk = LabChunk::of_slot(&name)?;
            let slot = page.find(&format!("[{SLOT}=\"{name}\"]"));
            let content = page.find(&format!("[{SLOT}=\"{name}\"] > *"));
            Some((chunk, slot, content))
        })
        .collect();
    assert_eq!(built.len(), LivePart::all().len(), "every part has a slot");
    let mut mounted = Vec::new();
    for (chunk, lab) in [
        (LabChunk::Figures, figures::LAB),
        (LabChunk::Store, store::LAB),
        (LabChunk::Check, check::LAB),
    ] {
        assert_eq!(lab.chunk, chunk);
        let own = built.iter().filter(|(c, _, _)| *c == chunk).count();
        assert!(own > 0, "{chunk:?} owns a part");
        assert_eq!(
            lab.mount_in(&page.root),
            own,
            "{chunk:?} mounts its own parts"
        );
        tick().await;
        mounted.push(chunk);
        for (owner, slot, content) in &built {
            assert_eq!(
                slot.has_attribute(SLOT_LIVE),
                mounted.contains(owner),
                "{owner:?}'s slot is live once {owner:?} has mounted (after {chunk:?})"
            );
            assert!(
                content.is_connected(),
                "{owner:?}'s built part stays where it stands after {chunk:?} mounted"
            );
        }
    }
    let again: usize = [figures::LAB, store::LAB, check::LAB]
        .iter()
        .map(|lab| lab.mount_in(&page.root))
        .sum();
    assert_eq!(again, 0, "a part already live is not wired again");
    drop(page);
}

#[wasm_bindgen_test]
async fn the_builds_course_links_follow_the_pages_course_base() {
    let page = prerendered_page().await;
    let stale_link = page.find("nav.related a[data-course]");
    stale_link
        .set_attribute("href", "https://stale.example/r2.02/")
        .expect("href");
    relink_course_pages(&document());
    assert_eq!(
        stale_link.get_attribute("href").as_deref(),
        Some("/r2.02/"),
        "the course link follows the page's course base"
    );
    drop(page);
}

#[wasm_bindgen_test]
async fn the_lab_mounts_only_its_parts_and_the_choices_stay_the_first_wasms() {
    let page = prerendered_page().await;
    let heading = page.find("#s1 h2");
    let built = |css: &str| page.all(css);
    let choices = built(CHOICE_SELECTOR);
    let figures = built(&format!("figure{FIGURE_SELECTOR}"));
    // The lock checker's readout is in its live part; the three figures' are the build's.
    let readouts = built(&format!(
        "figure:not({}) {READOUT_SELECTOR}",
        with_value(FIGURE, Figure::CheckLock.hook())
    ));
    let player_before = page.find("[data-player]");
    assert_eq!(
        choices.len(),
        2 + 3 + 3,
        "figure 1's releases, figure 2's writers, figure 3's transitions"
    );

    assert_eq!(
        mount_lab(),
        LivePart::all().len(),
        "every live part, each in its slot"
    );
    tick().await;

    assert!(heading.is_connected(), "a prose node was replaced");
    assert!(
        player_before.is_connected(),
        "the player is made live where it stands"
    );
    for element in choices.iter().chain(&figures).chain(&readouts) {
        assert!(
            element.is_connected(),
            "the lab replaced the build's {}",
            element.outer_html()
        );
    }
    assert_eq!(
        built(CHOICE_SELECTOR).len(),
        choices.len(),
        "no second set of choices"
    );
    assert_eq!(built(&format!("figure{FIGURE_SELECTOR}")).len(), 4);

    // One layer answers a hover: the readout's content is swapped once.
    let readout = page.find(&format!(
        "{} {READOUT_SELECTOR}",
        Figure::LostLock.selector()
    ));
    let changes = std::rc::Rc::new(std::cell::Cell::new(0));
    let counted = std::rc::Rc::clone(&changes);
    let on_change = Closure::<dyn FnMut(js_sys::Array)>::new(move |records: js_sys::Array| {
        counted.set(counted.get() + records.length());
    });
    let observer = MutationObserver::new(on_change.as_ref().unchecked_ref()).expect("an observer");
    let watch = MutationObserverInit::new();
    watch.set_child_list(true);
    observer
        .observe_with_options(&readout, &watch)
        .expect("observing");
    let checked = page.find("[data-release=\"token-checked\"]");
    pointer(&checked, "pointerenter", PointerKind::Mouse, false);
    TimeoutFuture::new(50).await;
    assert_eq!(changes.get(), 1, "the readout changed other than once");
    observer.disconnect();
    assert!(
        readout
            .text_content()
            .unwrap_or_default()
            .contains("→ (integer) 0"),
        "the figure answers after the lab"
    );
    pointer(&checked, "pointerleave", PointerKind::Mouse, false);

    focus(&page.find("[data-writer=\"33\"]"), "focus");
    tick().await;
    let fence_readout = page.text(&fence_readout());
    assert!(fence_readout.contains("rejected"), "{fence_readout}");
    let root = document().document_element().expect("<html>");
    for chunk in LabChunk::ALL {
        assert_eq!(
            root.get_attribute(chunk.state_attribute()).as_deref(),
            Some(LabState::Live.attribute())
        );
    }
    drop(page);
}

#[wasm_bindgen_test]
async fn a_commit_asked_for_before_the_lab_is_live_is_carried_out_once_and_hovers_follow_it() {
    let page = prerendered_page().await;
    let fence = page.find(&Figure::Fence.selector());
    let next: HtmlElement = page.find("[data-writer=\"35\"]").unchecked_into();
    pointer(&next, "pointerenter", PointerKind::Mouse, false);
    pointer(&next, "pointerdown", PointerKind::Mouse, true);
    next.click();
    assert_eq!(
        fence.get_attribute(COMMIT).as_deref(),
        Some("35"),
        "kept for the lab"
    );
    assert_eq!(
        page.count("ol[data-fence-log] > li"),
        0,
        "nothing committed yet"
    );

    // The first wasm hears once that the sources changed, with the commit.
    assert_eq!(
        mount_lab_hearing_outcomes(&fence).await,
        vec![Some("35".to_string())],
        "one word to the first wasm, with the commit"
    );
    // A stale wake-up after the commit was taken must not commit again.
    fence
        .dispatch_event(&Event::new(COMMIT_EVENT).expect("an event"))
        .expect("dispatched");
    tick().await;

    let after_35 = FenceLedger::replay(&[35]).board();
    let log = page.all("ol[data-fence-log] > li");
    assert_eq!(log.len(), 1, "the commit was carried out once");
    assert_eq!(log[0].get_attribute("data-token").as_deref(), Some("35"));
    assert!(!fence.has_attribute(COMMIT), "the request was taken");
    let committed = after_35.log.last().expect("the commit's outcome");
    let shown = page.text(&fence_readout());
    assert!(
        shown.contains(&format!("Committed — {}", committed.readout())),
        "the commit shows its outcome: {shown}"
    );

    // Another writer's hover is its what-if against the store after the commit.
    pointer(&next, "pointerleave", PointerKind::Mouse, false);
    let current = page.find("[data-writer=\"34\"]");
    pointer(&current, "pointerenter", PointerKind::Mouse, false);
    tick().await;
    let what_if = after_35.what_if(34).expect("writer 34's what-if");
    let shown = page.text(&fence_readout());
    assert!(shown.contains(&what_if.readout()), "{shown}");
    assert!(!shown.contains("Committed"), "{shown}");
    for line in what_if.evidence() {
        assert!(shown.contains(&line), "{line} missing from {shown}");
    }
    let tone = if what_if.accepted { "ok" } else { "bad" };
    assert_eq!(
        page.find(&format!(
            "{} {}",
            Figure::Fence.selector(),
            with_value(PATH, "34")
        ))
        .get_attribute(TONE)
        .as_deref(),
        Some(tone),
        "the lane's tone follows the committed store"
    );
    // Back on the committed writer, the hover is its what-if now, not the commit any more.
    pointer(&current, "pointerleave", PointerKind::Mouse, false);
    pointer(&next, "pointerenter", PointerKind::Mouse, false);
    tick().await;
    let again = after_35.what_if(35).expect("writer 35's what-if");
    assert!(page.text(&fence_readout()).contains(&again.readout()));
    pointer(&next, "pointerleave", PointerKind::Mouse, false);
    drop(page);
    web_sys::window()
        .expect("a window")
        .location()
        .set_hash("")
        .expect("hash cleared");
}

#[wasm_bindgen_test]
async fn every_commit_asked_for_before_the_lab_is_live_is_carried_out_in_order() {
    set_fragment("").await;
    let page = prerendered_page().await;
    let fence = page.find(&Figure::Fence.selector());
    press_writers(&page, &["35", "33"]);
    assert_eq!(
        fence.get_attribute(COMMIT).as_deref(),
        Some("35 33"),
        "both kept for the lab, oldest first"
    );
    assert_eq!(
        mount_lab_hearing_outcomes(&fence).await,
        vec![Some("33".to_string())],
        "one word to the first wasm, with the last press"
    );
    let expected = FenceLedger::replay(&[35, 33]).board();
    let log = page.all("ol[data-fence-log] > li");
    let tokens: Vec<Option<String>> = log
        .iter()
        .map(|li| li.get_attribute("data-token"))
        .collect();
    assert_eq!(tokens, [Some("35".to_string()), Some("33".to_string())]);
    for (line, outcome) in log.iter().zip(&expected.log) {
        let text = line.text_content().unwrap_or_default();
        assert!(text.contains(&outcome.log_line()), "{text}");
    }
    assert!(!fence.has_attribute(COMMIT), "the requests were taken");
    assert_eq!(page.text("[data-fence-max]"), "35");
    let last = expected.log.last().expect("33's outcome");
    let shown = page.text(&fence_readout());
    assert!(
        shown.contains(&format!("Committed — {}", last.readout())),
        "the last press, still on show, shows its outcome: {shown}"
    );
    assert_eq!(painted_fragment().await, "#fence=35,33");
    drop(page);
    set_fragment("").await;
}

#[wasm_bindgen_test]
async fn presses_before_the_lab_that_fill_the_log_commit_what_fits_and_the_last_is_refused() {
    let one_short = vec!["35"; MAX_FENCE_COMMITS - 1].join(",");
    set_fragment(&format!("#fence={one_short}")).await;
    let page = prerendered_page().await;
    press_writers(&page, &["35", "34"]);
    mount_lab();
    tick().await;
    let log = page.all("ol[data-fence-log] > li");
    assert_eq!(log.len(), MAX_FENCE_COMMITS, "35 fitted");
    assert_eq!(
        log.last()
            .and_then(|li| li.get_attribute("data-token"))
            .as_deref(),
        Some("35")
    );
    let shown = page.text(&fence_readout());
    assert!(shown.contains("not committed"), "{shown}");
    assert!(shown.contains(&LogFull::refusal("34 (stale)")), "{shown}");
    let full = vec!["35"; MAX_FENCE_COMMITS].join(",");
    assert_eq!(painted_fragment().await, format!("#fence={full}"));
    drop(page);
    set_fragment("").await;
}

/// Mounts every lab chunk, as `mount_lab` does, and returns what the lab told `figure` with
/// [`OUTCOMES_EVENT`] meanwhile: each event's detail.
async fn mount_lab_hearing_outcomes(figure: &HtmlElement) -> Vec<Option<String>> {
    let told = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let heard = told.clone();
    let on_outcomes =
        Closure::<dyn FnMut(web_sys::CustomEvent)>::new(move |event: web_sys::CustomEvent| {
            heard.borrow_mut().push(event.detail().as_string())
        });
    let listener = on_outcomes.as_ref().unchecked_ref();
    figure
        .add_event_listener_with_callback(OUTCOMES_EVENT, listener)
        .expect("listening");
    mount_lab();
    tick().await;
    figure
        .remove_event_listener_with_callback(OUTCOMES_EVENT, listener)
        .expect("no longer listening");
    let heard = told.borrow().clone();
    heard
}

/// A mouse presses each of figure 2's writers in turn, staying on the last.
fn press_writers(page: &Mounted, tokens: &[&str]) {
    for (at, token) in tokens.iter().enumerate() {
        let writer: HtmlElement = page.find(&with_value(WRITER, token)).unchecked_into();
        pointer(&writer, "pointerenter", PointerKind::Mouse, false);
        pointer(&writer, "pointerdown", PointerKind::Mouse, true);
        writer.click();
        if at + 1 < tokens.len() {
            pointer(&writer, "pointerleave", PointerKind::Mouse, false);
        }
    }
}

#[wasm_bindgen_test]
async fn what_the_reader_did_before_the_lab_arrived_is_carried_over() {
    let page = prerendered_page().await;
    // Typed into the first console and pressed Enter; moved the lease slider; stepped forward.
    let console: HtmlInputElement = page
        .find("[data-console=\"lost-lock\"] input")
        .unchecked_into();
    console.set_value("GET resource:lock");
    console
        .set_attribute(PENDING, PendingAction::Enter.attribute())
        .expect("marked");
    let lease: HtmlInputElement = page.find(&Slider::Lease.selector()).unchecked_into();
    lease.set_value("4000");
    page.find(FORWARD)
        .set_attribute(PENDING, PendingAction::Click.attribute())
        .expect("marked");

    mount_lab();
    tick().await;

    let log = page.text("[data-console=\"lost-lock\"] [data-console-log]");
    assert!(
        log.contains("GET resource:lock") && log.contains("\"xyz\""),
        "the kept Enter ran the typed line: {log}"
    );
    let live_lease: HtmlInputElement = page.find(&Slider::Lease.selector()).unchecked_into();
    assert_eq!(
        live_lease.value(),
        "4000",
        "the slider stays where it was moved"
    );
    let player = page.text("[data-player]");
    assert!(
        player.contains("4000 ms"),
        "the player took the moved lease: {player}"
    );
    assert_eq!(
        page.find("[data-player]")
            .get_attribute("data-player-step")
            .as_deref(),
        Some("1"),
        "the kept click stepped the player once"
    );
    drop(page);
}

#[wasm_bindgen_test]
async fn the_keyboard_focus_stays_where_the_reader_left_it() {
    set_fragment("").await;
    let page = prerendered_page().await;
    let timeline: HtmlElement = page.find(TIMELINE).unchecked_into();
    timeline.focus().expect("focused");

    mount_lab();
    tick().await;

    assert!(
        timeline.is_connected(),
        "the build's timeline is the live one"
    );
    assert_eq!(
        document().active_element(),
        Some(timeline.clone().into()),
        "the focus stays on the timeline"
    );
    key_down(&timeline, "ArrowRight", false);
    tick().await;
    assert_eq!(
        page.find("[data-player]")
            .get_attribute("data-player-step")
            .as_deref(),
        Some("1"),
        "and its keys step the player"
    );
    drop(page);
}

/// Figure 2's readout, found by the contract's hooks.
fn fence_readout() -> String {
    format!("{} {READOUT_SELECTOR}", Figure::Fence.selector())
}
