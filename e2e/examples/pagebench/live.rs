//! The lab's live controls at frame rate: a slider step by real arrow keys → the player's frame, a
//! console command's Enter → its reply line, and a fence commit → the readout and log, each timed
//! in the page from the input to the last DOM change it caused.

use fantoccini::Client;
use serde_json::{json, Value};

use lockdive_contract::lab::LabChunk;
use lockdive_e2e::chromedriver::cdp;
use lockdive_e2e::hooks::{writer, FENCE, LOST_LOCK};

use crate::browser::{chunk_live, figures_interactive, fresh_load, reach_for, wait_for};
use crate::BenchResult;

/// The lab's live controls, each a list of ms per input (None: nothing changed within
/// `SETTLE_JS`'s `CAP`).
pub struct LiveControls {
    /// Real ArrowRight/ArrowLeft presses on the stall and lease sliders → the player.
    pub slider: Vec<Option<f64>>,
    /// Which slider each step moved, and to what, e.g. `stall 13000`.
    pub slider_steps: Vec<String>,
    /// A command typed into figure 1's console, then Enter → its entry in the log.
    pub console: Vec<Option<f64>>,
    /// A writer's commit in figure 2 → the fence's readout, resource bar and log.
    pub fence: Vec<Option<f64>>,
}

const CONSOLE_COMMANDS: usize = 120;
const FENCE_COMMITS: usize = 120;
pub const CONSOLE_LINES: [&str; 3] = ["GET resource:lock", "PING", "INCR n"];
const PLAYER: &str = "[data-player]";
/// The console under figure 1, `[data-console="lost-lock"]`.
const CONSOLE_HOOK: &str = "lost-lock";

/// The in-page clock every live control is timed with. `settle(root, act)` starts an observer
/// on `root`, takes `performance.now()`, runs `act` (the input) and resolves with the ms from
/// then to the **last** DOM mutation under `root` the `MutationObserver` saw before `root`
/// stayed quiet for `QUIET` ms — not the first, as the hover row does: a live control's
/// reactive updates land as several microtasks (the slider's own label first, the player's
/// frame later), and the reader has the answer only with the last. Synchronous work blocks the
/// quiet timer too, so it cannot end a measurement early. `null` if nothing changed by `CAP`.
/// `armed(root)` is the same clock for an input the browser delivers itself (a real key
/// through DevTools): a capture listener on `window` takes the start at the key's `keydown`,
/// the first script to see it, and `window.__settled()` resolves as `settle` does.
const SETTLE_JS: &str = "
    const QUIET = 50, CAP = 2000;
    const OPTIONS = { childList: true, subtree: true, characterData: true, attributes: true };
    const quiet = (clock, observer, resolve) => {
        const check = () => {
            const now = performance.now();
            if (clock.start !== null && clock.last !== null && now - clock.last >= QUIET) {
                observer.disconnect(); resolve(clock.last - clock.start);
            } else if (clock.start !== null && now - clock.start > CAP) {
                observer.disconnect();
                resolve(clock.last === null ? null : clock.last - clock.start);
            } else setTimeout(check, 5);
        };
        setTimeout(check, 5);
    };
    const settle = (root, act) => new Promise(resolve => {
        const clock = { start: null, last: null };
        const observer = new MutationObserver(() => { clock.last = performance.now(); });
        observer.observe(root, OPTIONS);
        clock.start = performance.now();
        act();
        quiet(clock, observer, resolve);
    });
    const armed = (root) => {
        const clock = { start: null, last: null };
        const observer = new MutationObserver(() => {
            if (clock.start !== null) clock.last = performance.now();
        });
        observer.observe(root, OPTIONS);
        const onKey = () => { if (clock.start === null) clock.start = performance.now(); };
        window.addEventListener('keydown', onKey, true);
        window.__settled = () => new Promise(resolve => {
            quiet(clock, observer, (ms) => {
                window.removeEventListener('keydown', onKey, true);
                resolve(ms);
            });
        });
    };
";

/// Opens the page, brings the store's and the figures' lab chunks (a pointer over figure 1's
/// console and over the player, as a reader's would) and waits for them to be live, then times
/// the three live controls.
pub async fn live_controls(
    client: &Client,
    url: &str,
    devtools: (u16, &str),
) -> BenchResult<LiveControls> {
    fresh_load(client, url, &figures_interactive()).await?;
    let chunks = [LabChunk::Store, LabChunk::Figures];
    for chunk in chunks {
        reach_for(client, chunk, None).await?;
    }
    for chunk in chunks {
        wait_for(client, &chunk_live(chunk)).await?;
    }
    let (slider, slider_steps) = slider_steps(client, devtools).await?;
    let console = console_commands(client).await?;
    let fence = fence_commits(client).await?;
    Ok(LiveControls {
        slider,
        slider_steps,
        console,
        fence,
    })
}

/// The player stepped once forward (step 2, A's stall: its clock reads the stall and the
/// lock's PTTL what is left of the lease), then, with the keyboard on the focused slider: stall up
/// to its maximum, lease up to its maximum, stall down to its minimum, lease down to its
/// minimum — about 150 steps, each a (lease, stall) pair the player has not run yet, so none
/// is served from its cache of runs. Each key is a real one (`Input.dispatchKeyEvent`): the
/// browser steps the range input and fires its `input` event as for a reader's keyboard.
async fn slider_steps(
    client: &Client,
    devtools: (u16, &str),
) -> BenchResult<(Vec<Option<f64>>, Vec<String>)> {
    use lockdive::components::figures::player_controls::Slider;
    use lockdive::scenarios::player::{LEASE_RANGE, STALL_RANGE};
    let player = format!("{LOST_LOCK} {PLAYER}");
    client
        .execute(
            "const p = document.querySelector(arguments[0]); \
             p.scrollIntoView({ block: 'center' }); \
             p.querySelector('[data-player-forward]').click();",
            vec![json!(player)],
        )
        .await?;
    wait_for(
        client,
        &format!(
            "return document.querySelector('{LOST_LOCK} {PLAYER}').dataset.playerStep === '1';"
        ),
    )
    .await?;
    let value = |slider: Slider| {
        let css = format!("{player} {}", slider.selector());
        async move {
            let v = client
                .execute(
                    "return Number(document.querySelector(arguments[0]).value);",
                    vec![json!(css)],
                )
                .await?;
            BenchResult::Ok(v.as_f64().ok_or("no slider value")? as u64)
        }
    };
    let (stall, lease) = (value(Slider::Stall).await?, value(Slider::Lease).await?);
    let sweeps = [
        (
            Slider::Stall,
            true,
            (STALL_RANGE.max - stall) / STALL_RANGE.step,
        ),
        (
            Slider::Lease,
            true,
            (LEASE_RANGE.max - lease) / LEASE_RANGE.step,
        ),
        (
            Slider::Stall,
            false,
            (STALL_RANGE.max - STALL_RANGE.min) / STALL_RANGE.step,
        ),
        (
            Slider::Lease,
            false,
            (LEASE_RANGE.max - LEASE_RANGE.min) / LEASE_RANGE.step,
        ),
    ];
    let (port, session) = devtools;
    let (mut times, mut labels) = (Vec::new(), Vec::new());
    let (mut at_stall, mut at_lease) = (stall, lease);
    for (slider, up, steps) in sweeps {
        client
            .execute(
                "document.querySelector(arguments[0]).focus();",
                vec![json!(format!("{player} {}", slider.selector()))],
            )
            .await?;
        let (key, code) = if up {
            ("ArrowRight", 39)
        } else {
            ("ArrowLeft", 37)
        };
        for _ in 0..steps {
            client
                .execute(
                    &format!("{SETTLE_JS} armed(document.querySelector(arguments[0]));"),
                    vec![json!(player)],
                )
                .await?;
            for kind in ["rawKeyDown", "keyUp"] {
                cdp(
                    port,
                    session,
                    "Input.dispatchKeyEvent",
                    json!({
                        "type": kind, "key": key, "code": key,
                        "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code,
                    }),
                )?;
            }
            let ms = client
                .execute_async(
                    "const done = arguments[0]; window.__settled().then(done);",
                    vec![],
                )
                .await?;
            times.push(ms.as_f64());
            let (at, range) = if slider == Slider::Stall {
                (&mut at_stall, STALL_RANGE)
            } else {
                (&mut at_lease, LEASE_RANGE)
            };
            *at = if up {
                *at + range.step
            } else {
                *at - range.step
            };
            labels.push(format!("{} {at}", slider.hook()));
        }
    }
    let (stall_now, lease_now) = (value(Slider::Stall).await?, value(Slider::Lease).await?);
    if (stall_now, lease_now) != (STALL_RANGE.min, LEASE_RANGE.min) {
        return Err(format!(
            "the keys left the sliders at stall {stall_now}, lease {lease_now} ms, not at their minimums"
        )
        .into());
    }
    Ok((times, labels))
}

/// Figure 1's console: `CONSOLE_COMMANDS` lines, the three of `CONSOLE_LINES` in turn, each
/// put in the prompt (untimed) and run by an Enter `keydown` dispatched on the input (the
/// prompt's own handler). Past `MAX_LOG_ENTRIES` the log drops its oldest entry as it adds one.
async fn console_commands(client: &Client) -> BenchResult<Vec<Option<f64>>> {
    let times = client
        .execute_async(
            &format!(
                "{SETTLE_JS}
                 const [hook, lines, count, done] = arguments;
                 const box = document.querySelector(`[data-console='${{hook}}']`);
                 const input = box.querySelector('input');
                 const log = box.querySelector('[data-console-log]');
                 input.scrollIntoView({{ block: 'center' }});
                 input.focus();
                 (async () => {{
                     const times = [];
                     for (let i = 0; i < count; i++) {{
                         const line = lines[i % lines.length];
                         input.value = line;
                         const ms = await settle(log, () => input.dispatchEvent(
                             new KeyboardEvent('keydown', {{ key: 'Enter', code: 'Enter', bubbles: true, cancelable: true }})));
                         const last = log.lastElementChild;
                         const answered = !!last && last.innerText.includes(line)
                             && last.querySelector('.console-out') !== null;
                         times.push(answered ? ms : null);
                     }}
                     done(times);
                 }})();"
            ),
            vec![
                json!(CONSOLE_HOOK),
                json!(CONSOLE_LINES),
                json!(CONSOLE_COMMANDS),
            ],
        )
        .await?;
    Ok(times
        .as_array()
        .ok_or("console run returned no list")?
        .iter()
        .map(Value::as_f64)
        .collect())
}

/// Figure 2: `FENCE_COMMITS` commits, writers 35, 33 and 34 in turn. Each writer is focused
/// first (untimed: focus shows its what-if, so the click that follows commits it, as Enter on
/// a focused writer does), then clicked; a commit that did not add a log line counts as
/// missed. The fence is reset (untimed) whenever its log is full (`MAX_FENCE_COMMITS`), so
/// every commit does work.
async fn fence_commits(client: &Client) -> BenchResult<Vec<Option<f64>>> {
    use lockdive::scenarios::fence::MAX_FENCE_COMMITS;
    let writers: Vec<String> = [35, 33, 34].into_iter().map(writer).collect();
    let times = client
        .execute_async(
            &format!(
                "{SETTLE_JS}
                 const [figureCss, writers, count, most, done] = arguments;
                 const figure = document.querySelector(figureCss);
                 const log = figure.querySelector('ol[data-fence-log]');
                 figure.scrollIntoView({{ block: 'center' }});
                 (async () => {{
                     const times = [];
                     for (let i = 0; i < count; i++) {{
                         if (log.children.length >= most) {{
                             await settle(figure, () => figure.querySelector('[data-fence-reset]').click());
                         }}
                         const button = figure.querySelector(writers[i % writers.length]);
                         await settle(figure, () => button.focus());
                         const before = log.children.length;
                         const ms = await settle(figure, () => button.click());
                         times.push(log.children.length === before + 1 ? ms : null);
                     }}
                     done(times);
                 }})();"
            ),
            vec![
                json!(FENCE),
                json!(writers),
                json!(FENCE_COMMITS),
                json!(MAX_FENCE_COMMITS),
            ],
        )
        .await?;
    Ok(times
        .as_array()
        .ok_or("fence run returned no list")?
        .iter()
        .map(Value::as_f64)
        .collect())
}
