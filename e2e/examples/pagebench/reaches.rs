//! Reach → readout latency: hover, focus and tap on the page's choices, timed to the readout's
//! first DOM change, and the harness's floor (the same reaches on its own choice on an empty page),
//! so the page's own cost is the difference; and the hover's cost in a loop, the handler's own
//! time with the browser's pauses averaged out.

use fantoccini::Client;
use serde_json::{json, Value};

use lockdive_contract::hooks::READOUT;
use lockdive_e2e::hooks::script;

use crate::browser::{figures_interactive, fresh_load};
use crate::{BenchResult, Build, HOVERS};

const HOVER_TARGETS: &str = "[data-release], [data-writer]";

/// How a reader reaches a choice: each shows its readout.
#[derive(Clone, Copy, PartialEq)]
pub enum Reach {
    /// A mouse pointer enters the choice (`pointerenter`); it leaves again untimed.
    Hover,
    /// Keyboard focus lands on the choice (`focus()`); it is blurred again untimed.
    Focus,
    /// A finger taps it: a touch `pointerdown`, then the `click` a tap ends in. The choice
    /// stays pinned; the next tap on the figure is on another choice.
    Tap,
}

impl Reach {
    pub const ALL: [Reach; 3] = [Reach::Hover, Reach::Focus, Reach::Tap];

    /// The word the harness script switches on, and the tables print.
    pub fn name(self) -> &'static str {
        match self {
            Reach::Hover => "hover",
            Reach::Focus => "focus",
            Reach::Tap => "tap",
        }
    }
}

/// A reach (`reach`) → the readout's first DOM change, per reach, in ms (None: the readout
/// never changed), `HOVERS` of them round the choices in page order. Before the timed ones,
/// the harness times itself a few rounds on a choice of its own, off the page's figures, so
/// its own script is compiled: the first timed reaches pay for the page's code only.
pub async fn reaches(
    client: &Client,
    url: &str,
    build: Build,
    reach: Reach,
) -> BenchResult<Vec<Option<f64>>> {
    let ready = match build {
        Build::Live => figures_interactive(),
        Build::StaticFloor => PAGE_COMPLETE.to_string(),
    };
    fresh_load(client, url, &ready).await?;
    timed_reaches(client, reach, Some(HOVER_TARGETS)).await
}

/// Every kind of reach on the page at `url`, each beside the harness's floor for it, at the
/// speed the browser runs at now: the page's rows and the floor's, in `Reach::ALL`'s order.
pub async fn reaches_and_floor(
    client: &Client,
    url: &str,
) -> BenchResult<(Vec<Vec<Option<f64>>>, Vec<Vec<Option<f64>>>)> {
    let (mut page, mut floor) = (Vec::new(), Vec::new());
    for reach in Reach::ALL {
        page.push(reaches(client, url, Build::Live, reach).await?);
        floor.push(harness_floor(client, reach).await?);
    }
    Ok((page, floor))
}

/// The harness's floor for `reach`: the same timing, on a page with nothing but the
/// harness's own choice, whose handler writes one text node. What any page would show for
/// a reach on this machine and browser; the page's rows, less this, are the page's own cost.
pub async fn harness_floor(client: &Client, reach: Reach) -> BenchResult<Vec<Option<f64>>> {
    fresh_load(client, EMPTY_PAGE, PAGE_COMPLETE).await?;
    timed_reaches(client, reach, None).await
}

/// A script that is true once a page without the first wasm has loaded.
const PAGE_COMPLETE: &str = "return document.readyState === 'complete';";

/// A page with no content, style or script of its own.
const EMPTY_PAGE: &str = "data:text/html,<!doctype html><title>floor</title>";

/// `HOVERS` timed reaches round the page's choices matching `selector`, or (`None`) all on
/// the harness's own choice.
async fn timed_reaches(
    client: &Client,
    reach: Reach,
    selector: Option<&str>,
) -> BenchResult<Vec<Option<f64>>> {
    let times = client
        .execute_async(
            &script(
                "const [selector, count, mode, readoutAttribute, done] = arguments;
             const act = (target, on) => {
                 if (mode === 'hover') {
                     target.dispatchEvent(new PointerEvent(on ? 'pointerenter' : 'pointerleave',
                         { pointerType: 'mouse', isPrimary: true }));
                 } else if (mode === 'focus') {
                     on ? target.focus() : target.blur();
                 } else if (on) {
                     target.dispatchEvent(new PointerEvent('pointerdown',
                         { pointerType: 'touch', isPrimary: true, bubbles: true }));
                     target.click();
                 }
             };
             // Resolves with ms from reaching `target` (or leaving it) to its readout's first mutation.
             const timed = (target, on) => new Promise(resolve => {
                 const readout = target.closest('figure').querySelector('@READOUT@');
                 let timer;
                 const observer = new MutationObserver(() => {
                     const elapsed = performance.now() - start;
                     observer.disconnect(); clearTimeout(timer); resolve(elapsed);
                 });
                 observer.observe(readout, { childList: true, subtree: true, characterData: true, attributes: true });
                 timer = setTimeout(() => { observer.disconnect(); resolve(null); }, 250);
                 const start = performance.now();
                 act(target, on);
             });
             // The harness's own choice, off screen, answering every kind of reach.
             const own = document.createElement('figure');
             own.setAttribute('aria-hidden', 'true');
             own.style.cssText = 'position: fixed; left: -9999px; top: 0';
             const ownReadout = document.createElement('p');
             ownReadout.setAttribute(readoutAttribute, '');
             const ownButton = document.createElement('button');
             ownButton.type = 'button';
             own.append(ownReadout, ownButton);
             document.body.append(own);
             let flips = 0;
             for (const name of ['pointerenter', 'pointerleave', 'focus', 'blur', 'click']) {
                 ownButton.addEventListener(name, () => { ownReadout.textContent = String(flips++); });
             }
             (async () => {
                 for (let i = 0; i < 3; i++) {
                     await timed(ownButton, true);
                     await timed(ownButton, false);
                 }
                 const targets = selector ? [...document.querySelectorAll(selector)] : [ownButton];
                 if (selector) own.remove();
                 const times = [];
                 for (let i = 0; i < count; i++) {
                     const target = targets[i % targets.length];
                     times.push(await timed(target, true));
                     if (mode !== 'tap') await timed(target, false);
                     await new Promise(r => setTimeout(r, 0));
                 }
                 done(times);
             })();",
            ),
            vec![
                json!(selector),
                json!(HOVERS),
                json!(reach.name()),
                json!(READOUT),
            ],
        )
        .await?;
    Ok(times
        .as_array()
        .ok_or("reach run returned no list")?
        .iter()
        .map(Value::as_f64)
        .collect())
}

/// Hovers in one loop, to time the first wasm's hover handler apart from the browser's pauses:
/// so many that a throttled page's pauses average out.
pub const LOOP_HOVERS: usize = 3000;

/// What a hover costs the page, in µs per hover: `LOOP_HOVERS` `pointerenter`s dispatched in one
/// synchronous loop round the same choices as [`reaches`] (the event's construction and dispatch
/// included), and the same on the harness's own button, whose handler writes one text node.
pub struct HoverCost {
    pub page_us: f64,
    pub own_us: f64,
}

/// Times [`HoverCost`] on a fresh load of `url`.
pub async fn hover_cost(client: &Client, url: &str) -> BenchResult<HoverCost> {
    fresh_load(client, url, &figures_interactive()).await?;
    let costs = client
        .execute(
            "const [selector, count] = arguments;
             const enter = target => target.dispatchEvent(
                 new PointerEvent('pointerenter', { pointerType: 'mouse', isPrimary: true }));
             const perHover = targets => {
                 for (let i = 0; i < 50; i++) enter(targets[i % targets.length]);
                 const start = performance.now();
                 for (let i = 0; i < count; i++) enter(targets[i % targets.length]);
                 return (performance.now() - start) / count * 1000;
             };
             const page = perHover([...document.querySelectorAll(selector)]);
             const own = document.createElement('button');
             const text = document.createElement('p');
             own.style.cssText = text.style.cssText = 'position: fixed; left: -9999px; top: 0';
             document.body.append(own, text);
             let flips = 0;
             own.addEventListener('pointerenter', () => { text.textContent = String(flips++); });
             const ownCost = perHover([own]);
             own.remove(); text.remove();
             return [page, ownCost];",
            vec![json!(HOVER_TARGETS), json!(LOOP_HOVERS)],
        )
        .await?;
    let cost = |at: usize| {
        costs
            .get(at)
            .and_then(Value::as_f64)
            .ok_or("the hover loop returned no time")
    };
    Ok(HoverCost {
        page_us: cost(0)?,
        own_us: cost(1)?,
    })
}
