//! The page budget benchmark: prints one table comparing the release build with a plain
//! static-HTML floor of the same page (scripts removed, so no wasm): page weight (gzip -9 of html,
//! css, js and wasm the page load fetches; each lab chunk, fetched on the first reach for one of
//! its parts, on a row of its own), first contentful paint, time to interactive and, per lab
//! chunk, the time from a reach for one of its parts to the chunk being live, under 4× CPU
//! throttling (DevTools protocol), and reach-to-readout latency (a hover's
//! pointerenter, a focus, a tap's pointerdown and click, to the readout's DOM change; 200 of each,
//! median and p99; beside them the harness's floor, the same reaches on its own choice on an empty
//! page), and the lock checker (`#check`) in the lab:
//! for each catalogue lock, the default bound explored in the browser (schedules per second, read
//! off the figure's own live line) and the longest gap between animation frames while it ran; and
//! the lab's live controls at frame rate: a slider step (real ArrowRight/ArrowLeft keys on the
//! stall and lease sliders) → the player's frame, a console command's Enter → its reply line, and
//! a fence commit → the readout and log, each from the input to the last DOM change it caused.
//! A command, not a test: `./scripts/pagebench.sh` builds the page and runs it (see README, "Page budget").

fn main() {
    if let Err(e) = bench::run() {
        eprintln!("pagebench: {e}");
        std::process::exit(1);
    }
}

mod bench {
    use std::error::Error;
    use std::path::{Path, PathBuf};
    use std::process::Command;
    use std::time::{Duration, Instant};

    use fantoccini::wd::TimeoutConfiguration;
    use fantoccini::Client;
    use serde_json::{json, Value};

    use lockdive_contract::hooks::{FIGURE, READOUT};
    use lockdive_contract::lab::LabChunk;
    use lockdive_contract::Figure;
    use lockdive_e2e::chromedriver::{cdp, ChromeDriver};
    use lockdive_e2e::dist_server::DistServer;
    use lockdive_e2e::hooks::{script, writer, FENCE, LOST_LOCK};
    use lockdive_e2e::reach_target;

    /// True once the first wasm has made the prerendered figures answer.
    const FIGURES_INTERACTIVE: &str =
        "return document.documentElement.hasAttribute('data-interactive');";

    /// A script that is true once `chunk` of the lab has taken its slots over.
    fn chunk_live(chunk: LabChunk) -> String {
        format!(
            "return document.documentElement.getAttribute('{}') === 'live';",
            chunk.state_attribute()
        )
    }

    type BenchResult<T = ()> = Result<T, Box<dyn Error>>;
    /// gzip bytes per file kind.
    type Weight = [(&'static str, u64)];
    /// gzip bytes per file kind of each lab chunk.
    type LabWeights = [(LabChunk, Vec<(&'static str, u64)>)];
    /// ms from a reach for each lab chunk's parts to the chunk being live.
    type LabTimes = [(LabChunk, f64)];
    /// Per hover: ms to the readout's change, None if it never changed.
    type Hovers = [Option<f64>];
    /// Per reach, in `Reach::ALL`'s order: each try's ms to the readout's change.
    type Reaches = [Vec<Option<f64>>];

    const LOADS: usize = 5;
    const HOVERS: usize = 200;
    const THROTTLE: f64 = 4.0;
    const HOVER_TARGETS: &str = "[data-release], [data-writer]";

    /// Which build a measurement is of.
    #[derive(Clone, Copy, PartialEq)]
    enum Build {
        /// The release build: prerendered HTML, then the wasm takes the figures live.
        Live,
        /// The same HTML and CSS with every script removed: what a reader without JavaScript gets.
        StaticFloor,
    }

    struct Loads {
        first_paint_ms: f64,
        ready_ms: f64,
    }

    pub fn run() -> BenchResult {
        let dist = std::env::args_os()
            .nth(1)
            .or_else(|| std::env::var_os("LOCKDIVE_DIST"))
            .map(PathBuf::from)
            .ok_or("give the release build's folder: `pagebench <dist>` (./scripts/pagebench.sh does it)")?;
        if !dist.join("index.html").is_file() {
            return Err(format!("{} holds no index.html", dist.display()).into());
        }
        let floor_dir = dist.with_file_name(format!(
            "{}-static-floor",
            dist.file_name().and_then(|n| n.to_str()).unwrap_or("dist")
        ));
        let html = std::fs::read_to_string(dist.join("index.html"))?;
        let prerendered = html.contains(&format!("{FIGURE}=\"{}\"", Figure::LostLock.hook()));

        let driver = ChromeDriver::start()?;
        let live = DistServer::start(&dist, "/live/")?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        runtime.block_on(async {
            let client = open_browser(&driver).await?;
            let outcome = async {
                // The floor: the prerendered HTML without scripts, or (no prerender yet) the DOM after mount.
                let floor_html = if prerendered {
                    strip_scripts(&html)
                } else {
                    serialise_after_mount(&client, &live.page_url).await?
                };
                write_floor(&dist, &floor_dir, &floor_html)?;
                let floor = DistServer::start(&floor_dir, "/floor/")?;
                let session = client.session_id().await?.ok_or("no session id")?;

                let live_weight = weight(&dist, Files::PageLoad)?;
                let lab_weights = LabChunk::ALL
                    .into_iter()
                    .map(|chunk| Ok((chunk, weight(&dist, Files::Lab(chunk))?)))
                    .collect::<BenchResult<Vec<_>>>()?;
                let floor_weight = weight(&floor_dir, Files::Floor)?;
                throttle(driver.port, &session, THROTTLE)?;
                let live_loads = loads(&client, &live.page_url, Build::Live).await?;
                let mut lab_ms = Vec::new();
                for chunk in LabChunk::ALL {
                    lab_ms.push((
                        chunk,
                        lab_after_reach(&client, &live.page_url, chunk).await?,
                    ));
                }
                let floor_loads = loads(&client, &floor.page_url, Build::StaticFloor).await?;
                let (mut reach_slow, mut harness_slow) = (Vec::new(), Vec::new());
                for reach in Reach::ALL {
                    reach_slow.push(reaches(&client, &live.page_url, Build::Live, reach).await?);
                    harness_slow.push(harness_floor(&client, reach).await?);
                }
                throttle(driver.port, &session, 1.0)?;
                let (mut reach_fast, mut harness_fast) = (Vec::new(), Vec::new());
                for reach in Reach::ALL {
                    reach_fast.push(reaches(&client, &live.page_url, Build::Live, reach).await?);
                    harness_fast.push(harness_floor(&client, reach).await?);
                }
                let floor_hover =
                    reaches(&client, &floor.page_url, Build::StaticFloor, Reach::Hover).await?;
                let checks_fast = check_lock_runs(&client, &live.page_url).await?;
                let controls_fast =
                    live_controls(&client, &live.page_url, (driver.port, &session)).await?;
                throttle(driver.port, &session, THROTTLE)?;
                let checks_slow = check_lock_runs(&client, &live.page_url).await?;
                let controls_slow =
                    live_controls(&client, &live.page_url, (driver.port, &session)).await?;
                throttle(driver.port, &session, 1.0)?;

                print_table(
                    prerendered,
                    (&live_weight, &floor_weight),
                    (&lab_weights, &lab_ms),
                    (&live_loads, &floor_loads),
                    (&reach_fast, &reach_slow, &floor_hover),
                );
                print_slowest(&reach_fast, &reach_slow);
                print_harness_floor(&harness_fast, &harness_slow);
                print_check_lock(&checks_fast, &checks_slow);
                print_live_controls(&controls_fast, &controls_slow);
                BenchResult::Ok(())
            }
            .await;
            let _ = client.close().await;
            outcome
        })
    }

    /// Slows the page's CPU `rate` times through DevTools (1.0: full speed).
    fn throttle(port: u16, session: &str, rate: f64) -> Result<serde_json::Value, String> {
        cdp(
            port,
            session,
            "Emulation.setCPUThrottlingRate",
            json!({ "rate": rate }),
        )
    }

    async fn open_browser(driver: &ChromeDriver) -> BenchResult<Client> {
        let client = driver
            .open_session(&["--disable-extensions"], serde_json::Map::new())
            .await?;
        // 200 hovers under 4x throttling outlast WebDriver's default 30 s script timeout.
        let mut timeouts = TimeoutConfiguration::default();
        timeouts.set_script(Some(Duration::from_secs(600)));
        client.update_timeouts(timeouts).await?;
        Ok(client)
    }

    /// Removes every `<script>…</script>` and the js/wasm preload links: the page with no JavaScript.
    fn strip_scripts(html: &str) -> String {
        let mut out = String::with_capacity(html.len());
        let mut rest = html;
        while let Some(start) = rest.find("<script") {
            out.push_str(&rest[..start]);
            rest = match rest[start..].find("</script>") {
                Some(end) => &rest[start + end + "</script>".len()..],
                None => "",
            };
        }
        out.push_str(rest);
        out.lines()
            .filter(|l| !(l.contains("rel=\"modulepreload\"") || l.contains("rel=\"preload\"")))
            .collect::<Vec<_>>()
            .join("\n")
    }

    async fn serialise_after_mount(client: &Client, url: &str) -> BenchResult<String> {
        client.goto(url).await?;
        wait_for(client, FIGURES_INTERACTIVE).await?;
        let html = client
            .execute(
                "return '<!doctype html>\\n' + document.documentElement.outerHTML;",
                vec![],
            )
            .await?;
        let html = html.as_str().ok_or("no outerHTML")?;
        Ok(strip_scripts(&html.replace(" data-interactive=\"\"", "")))
    }

    fn write_floor(dist: &Path, floor: &Path, html: &str) -> BenchResult {
        std::fs::create_dir_all(floor)?;
        for entry in std::fs::read_dir(floor)? {
            std::fs::remove_file(entry?.path())?;
        }
        for entry in std::fs::read_dir(dist)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "css") {
                if let Some(name) = path.file_name() {
                    std::fs::copy(&path, floor.join(name))?;
                }
            }
        }
        std::fs::write(floor.join("index.html"), html)?;
        Ok(())
    }

    /// Which files a weight counts.
    #[derive(Clone, Copy, PartialEq)]
    enum Files {
        /// What loading the page fetches: html, css, the first wasm and its js.
        PageLoad,
        /// One lab chunk (`<bin>-<hash>.js`, `_loader.js`, `_bg.wasm`), fetched only once the reader
        /// first reaches for one of its parts.
        Lab(LabChunk),
        /// The static floor: html and css.
        Floor,
    }

    /// gzip -9 bytes of the files `which` names, per kind.
    fn weight(folder: &Path, which: Files) -> BenchResult<Vec<(&'static str, u64)>> {
        let kinds: &[&'static str] = match which {
            Files::PageLoad => &["html", "css", "js", "wasm"],
            Files::Lab(_) => &["js", "wasm"],
            Files::Floor => &["html", "css"],
        };
        let mut sizes = Vec::new();
        for &kind in kinds {
            let mut total = 0;
            for entry in std::fs::read_dir(folder)? {
                let path = entry?.path();
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
                let counted = match which {
                    Files::Lab(chunk) => name.starts_with(&format!("{}-", chunk.bin())),
                    Files::PageLoad | Files::Floor => !name.starts_with("lab-"),
                };
                if counted && path.extension().is_some_and(|e| e == kind) {
                    let out = Command::new("gzip").arg("-9c").arg(&path).output()?;
                    if !out.status.success() {
                        return Err(format!("gzip failed on {}", path.display()).into());
                    }
                    total += out.stdout.len() as u64;
                }
            }
            sizes.push((kind, total));
        }
        Ok(sizes)
    }

    async fn wait_for(client: &Client, condition: &str) -> BenchResult {
        let started = Instant::now();
        while client.execute(condition, vec![]).await?.as_bool() != Some(true) {
            if started.elapsed() > Duration::from_secs(60) {
                return Err(format!("timed out waiting for: {condition}").into());
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        Ok(())
    }

    /// Median over `LOADS` fresh loads of: first contentful paint, and interactive (live) or the load
    /// event's end (static floor, whose figures never become live), in ms from navigation start.
    async fn loads(client: &Client, url: &str, build: Build) -> BenchResult<Loads> {
        let (mut paints, mut readies) = (Vec::new(), Vec::new());
        for _ in 0..LOADS {
            client.goto("about:blank").await?;
            client.goto(url).await?;
            let ready = match build {
                Build::Live => {
                    wait_for(
                        client,
                        "return performance.getEntriesByName('lockdive:interactive').length > 0;",
                    )
                    .await?;
                    "performance.getEntriesByName('lockdive:interactive')[0].startTime"
                }
                Build::StaticFloor => {
                    wait_for(client, "const n = performance.getEntriesByType('navigation')[0]; return !!n && n.loadEventEnd > 0;")
                        .await?;
                    "performance.getEntriesByType('navigation')[0].loadEventEnd"
                }
            };
            wait_for(
                client,
                "return performance.getEntriesByName('first-contentful-paint').length > 0;",
            )
            .await?;
            let times = client
                .execute(
                    &format!(
                        "return [performance.getEntriesByName('first-contentful-paint')[0].startTime, {ready}];"
                    ),
                    vec![],
                )
                .await?;
            paints.push(times[0].as_f64().ok_or("no paint time")?);
            readies.push(times[1].as_f64().ok_or("no ready time")?);
        }
        Ok(Loads {
            first_paint_ms: percentile(&mut paints, 50.0),
            ready_ms: percentile(&mut readies, 50.0),
        })
    }

    /// Reaches for one of `chunk`'s parts as a pointer does (a `pointerover` on its
    /// `reach_target`), which has the first wasm load the chunk; with `mark`, a performance mark of
    /// that name is set in the same script, just before.
    async fn reach_for(client: &Client, chunk: LabChunk, mark: Option<&str>) -> BenchResult<()> {
        client
            .execute(
                "if (arguments[1]) performance.mark(arguments[1]); \
                 document.querySelector(arguments[0]) \
                   .dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));",
                vec![json!(reach_target(chunk)), json!(mark)],
            )
            .await?;
        Ok(())
    }

    /// Median over `LOADS` fresh loads of the time from a pointer reaching for one of `chunk`'s
    /// parts (the first wasm then loads the chunk) to the chunk's mark, in ms.
    async fn lab_after_reach(client: &Client, url: &str, chunk: LabChunk) -> BenchResult<f64> {
        let mut times = Vec::new();
        for _ in 0..LOADS {
            client.goto("about:blank").await?;
            client.goto(url).await?;
            wait_for(
                client,
                "return performance.getEntriesByName('lockdive:interactive').length > 0;",
            )
            .await?;
            reach_for(client, chunk, Some("lockdive:reach")).await?;
            wait_for(
                client,
                &format!(
                    "return performance.getEntriesByName('{}').length > 0;",
                    chunk.mark()
                ),
            )
            .await?;
            let ms = client
                .execute(
                    "return performance.getEntriesByName(arguments[0])[0].startTime \
                       - performance.getEntriesByName('lockdive:reach')[0].startTime;",
                    vec![json!(chunk.mark())],
                )
                .await?;
            times.push(ms.as_f64().ok_or("no lab time")?);
        }
        Ok(percentile(&mut times, 50.0))
    }

    /// How a reader reaches a choice: each shows its readout.
    #[derive(Clone, Copy, PartialEq)]
    enum Reach {
        /// A mouse pointer enters the choice (`pointerenter`); it leaves again untimed.
        Hover,
        /// Keyboard focus lands on the choice (`focus()`); it is blurred again untimed.
        Focus,
        /// A finger taps it: a touch `pointerdown`, then the `click` a tap ends in. The choice
        /// stays pinned; the next tap on the figure is on another choice.
        Tap,
    }

    impl Reach {
        const ALL: [Reach; 3] = [Reach::Hover, Reach::Focus, Reach::Tap];

        /// The word the harness script switches on, and the tables print.
        fn name(self) -> &'static str {
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
    async fn reaches(
        client: &Client,
        url: &str,
        build: Build,
        reach: Reach,
    ) -> BenchResult<Vec<Option<f64>>> {
        client.goto("about:blank").await?;
        client.goto(url).await?;
        wait_for(
            client,
            match build {
                Build::Live => FIGURES_INTERACTIVE,
                Build::StaticFloor => "return document.readyState === 'complete';",
            },
        )
        .await?;
        timed_reaches(client, reach, Some(HOVER_TARGETS)).await
    }

    /// The harness's floor for `reach`: the same timing, on a page with nothing but the
    /// harness's own choice, whose handler writes one text node. What any page would show for
    /// a reach on this machine and browser; the page's rows, less this, are the page's own cost.
    async fn harness_floor(client: &Client, reach: Reach) -> BenchResult<Vec<Option<f64>>> {
        client.goto("about:blank").await?;
        client.goto(EMPTY_PAGE).await?;
        wait_for(client, "return document.readyState === 'complete';").await?;
        timed_reaches(client, reach, None).await
    }

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

    /// One lock explored in the browser: what the figure's live line said, the wall time from the
    /// click to the verdicts, and the longest gap between two animation frames meanwhile.
    struct CheckRun {
        lock: String,
        schedules: u64,
        states: u64,
        ms: f64,
        max_frame_gap_ms: f64,
    }

    /// Runs of each lock in the lab, best of `CHECK_ROUNDS` (by the live line's time).
    const CHECK_ROUNDS: usize = 3;
    const CHECK_FIGURE: &str = lockdive::components::figures::check_lock::hooks::FIGURE;

    /// Opens the page, picks the custom entry (which brings the lab), then for every catalogue
    /// lock: picks the custom entry again (the state goes idle), starts counting animation
    /// frames, clicks the lock and waits for `data-state="done"` on the live line.
    async fn check_lock_runs(client: &Client, url: &str) -> BenchResult<Vec<CheckRun>> {
        client.goto("about:blank").await?;
        client.goto(url).await?;
        wait_for(client, FIGURES_INTERACTIVE).await?;
        let ids: Vec<String> = lockdive::scenarios::lockcheck::catalogue::all()
            .into_iter()
            .map(|s| s.id)
            .collect();
        client
            .execute(
                &format!(
                    "document.querySelector('{CHECK_FIGURE} [data-lock=\"custom\"]').click();"
                ),
                vec![],
            )
            .await?;
        wait_for(client, &chunk_live(LabChunk::Check)).await?;
        let mut best: Vec<CheckRun> = Vec::new();
        for _ in 0..CHECK_ROUNDS {
            let runs = client
                .execute_async(
                    "const [figure, ids, done] = arguments;
                     const q = (css) => document.querySelector(`${figure} ${css}`);
                     const until = (ok) => new Promise(resolve => {
                         const poll = () => ok() ? resolve() : setTimeout(poll, 5);
                         poll();
                     });
                     (async () => {
                         const runs = [];
                         for (const id of ids) {
                             q(`[data-lock='custom']`).click();
                             await until(() => q('[data-check-progress]').dataset.state === 'idle');
                             await new Promise(r => setTimeout(r, 50));
                             const frames = [];
                             let counting = true;
                             const tick = (t) => { frames.push(t); if (counting) requestAnimationFrame(tick); };
                             requestAnimationFrame(tick);
                             await new Promise(r => requestAnimationFrame(r));
                             const start = performance.now();
                             q(`[data-lock='${id}']`).click();
                             await until(() => q('[data-check-progress]').dataset.state === 'done');
                             const end = performance.now();
                             await new Promise(r => requestAnimationFrame(r));
                             counting = false;
                             let gap = 0;
                             for (let i = 1; i < frames.length; i++) {
                                 if (frames[i] >= start - 20 && frames[i - 1] <= end + 20) {
                                     gap = Math.max(gap, frames[i] - frames[i - 1]);
                                 }
                             }
                             runs.push({ id, line: q('[data-check-progress]').innerText, wall: end - start, gap });
                         }
                         done(runs);
                     })();",
                    vec![json!(CHECK_FIGURE), json!(ids)],
                )
                .await?;
            for run in runs.as_array().ok_or("no check runs")? {
                let line = run["line"].as_str().unwrap_or_default();
                let parsed = parse_check_line(line)
                    .ok_or_else(|| format!("the live line reads {line:?}"))?;
                let lock = run["id"].as_str().unwrap_or_default().to_string();
                let gap = run["gap"].as_f64().unwrap_or(f64::NAN);
                let fresh = CheckRun {
                    lock,
                    schedules: parsed.0,
                    states: parsed.1,
                    ms: parsed.2,
                    max_frame_gap_ms: gap,
                };
                match best.iter_mut().find(|b| b.lock == fresh.lock) {
                    Some(kept) => {
                        // The frame gap is judged over every round: the worst one counts.
                        let gap = kept.max_frame_gap_ms.max(fresh.max_frame_gap_ms);
                        if fresh.ms < kept.ms {
                            *kept = fresh;
                        }
                        kept.max_frame_gap_ms = gap;
                    }
                    None => best.push(fresh),
                }
            }
        }
        Ok(best)
    }

    /// `explored N schedules (M states) in T ms` → (N, M, T).
    fn parse_check_line(line: &str) -> Option<(u64, u64, f64)> {
        let rest = line.trim().strip_prefix("explored ")?;
        let (schedules, rest) = rest.split_once(" schedules (")?;
        let (states, rest) = rest.split_once(" states) in ")?;
        let ms = rest.strip_suffix(" ms")?;
        Some((
            schedules.parse().ok()?,
            states.parse().ok()?,
            ms.parse().ok()?,
        ))
    }

    fn print_check_lock(fast: &[CheckRun], slow: &[CheckRun]) {
        println!(
            "\nlock checker in the lab (default bound, best of {CHECK_ROUNDS}; frame gap: the worst over all rounds)"
        );
        println!(
            "| lock | states | schedules | 1× CPU: ms | schedules/s | max frame gap | {THROTTLE}× CPU: ms | max frame gap |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|");
        for run in fast {
            let slow = slow.iter().find(|s| s.lock == run.lock);
            println!(
                "| {} | {} | {} | {:.0} | {:.0} | {:.0} ms | {} | {} |",
                run.lock,
                run.states,
                run.schedules,
                run.ms,
                run.schedules as f64 / (run.ms.max(1.0) / 1000.0),
                run.max_frame_gap_ms,
                slow.map_or("—".to_string(), |s| format!("{:.0}", s.ms)),
                slow.map_or("—".to_string(), |s| format!(
                    "{:.0} ms",
                    s.max_frame_gap_ms
                )),
            );
        }
    }

    /// The lab's live controls, each a list of ms per input (None: nothing changed within
    /// `SETTLE_CAP_MS`).
    struct LiveControls {
        /// Real ArrowRight/ArrowLeft presses on the stall and lease sliders → the player.
        slider: Vec<Option<f64>>,
        /// Which slider each step moved, and to what, e.g. `stall 13000`.
        slider_steps: Vec<String>,
        /// A command typed into figure 1's console, then Enter → its entry in the log.
        console: Vec<Option<f64>>,
        /// A writer's commit in figure 2 → the fence's readout, resource bar and log.
        fence: Vec<Option<f64>>,
    }

    /// The frame-rate target for every live control, at `THROTTLE`× CPU (issue: "live controls at
    /// frame rate").
    const FRAME_MS: f64 = 16.0;
    const CONSOLE_COMMANDS: usize = 120;
    const FENCE_COMMITS: usize = 120;
    const CONSOLE_LINES: [&str; 3] = ["GET resource:lock", "PING", "INCR n"];
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
    async fn live_controls(
        client: &Client,
        url: &str,
        devtools: (u16, &str),
    ) -> BenchResult<LiveControls> {
        client.goto("about:blank").await?;
        client.goto(url).await?;
        wait_for(client, FIGURES_INTERACTIVE).await?;
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
        let value = |hook: &'static str| {
            let css = format!("{player} input[data-slider=\"{hook}\"]");
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
        let (stall, lease) = (value("stall").await?, value("lease").await?);
        let sweeps = [
            ("stall", true, (STALL_RANGE.max - stall) / STALL_RANGE.step),
            ("lease", true, (LEASE_RANGE.max - lease) / LEASE_RANGE.step),
            (
                "stall",
                false,
                (STALL_RANGE.max - STALL_RANGE.min) / STALL_RANGE.step,
            ),
            (
                "lease",
                false,
                (LEASE_RANGE.max - LEASE_RANGE.min) / LEASE_RANGE.step,
            ),
        ];
        let (port, session) = devtools;
        let (mut times, mut labels) = (Vec::new(), Vec::new());
        let (mut at_stall, mut at_lease) = (stall, lease);
        for (hook, up, steps) in sweeps {
            client
                .execute(
                    "document.querySelector(arguments[0]).focus();",
                    vec![json!(format!("{player} input[data-slider=\"{hook}\"]"))],
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
                let (at, range) = if hook == "stall" {
                    (&mut at_stall, STALL_RANGE)
                } else {
                    (&mut at_lease, LEASE_RANGE)
                };
                *at = if up {
                    *at + range.step
                } else {
                    *at - range.step
                };
                labels.push(format!("{hook} {at}"));
            }
        }
        let (stall_now, lease_now) = (value("stall").await?, value("lease").await?);
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
        use lockdive::scenarios::share::MAX_FENCE_COMMITS;
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

    /// `p50 / p99 / max`, with how many inputs changed nothing; `judged`: marks a p99 over
    /// `FRAME_MS` (the target is at `THROTTLE`×).
    fn control_cell(times: &[Option<f64>], judged: bool) -> String {
        let mut measured: Vec<f64> = times.iter().flatten().copied().collect();
        if measured.is_empty() {
            return format!("no change in {} inputs", times.len());
        }
        let missed = times.len() - measured.len();
        let p50 = percentile(&mut measured, 50.0);
        let p99 = percentile(&mut measured, 99.0);
        let max = percentile(&mut measured, 100.0);
        let mut cell = format!("{p50:.1} / {p99:.1} / {max:.1} ms");
        if judged && p99 >= FRAME_MS {
            cell.push_str(" **over**");
        }
        if missed > 0 {
            cell.push_str(&format!(" ({missed} missed)"));
        }
        cell
    }

    /// The five slowest inputs of a run, each named by `name(index)`: is the tail a few cold
    /// inputs, or one kind of input that is always slow?
    fn slowest(times: &[Option<f64>], name: impl Fn(usize) -> String) -> String {
        let mut ranked: Vec<(usize, f64)> = times
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.map(|t| (i, t)))
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        ranked
            .iter()
            .take(5)
            .map(|(i, t)| format!("#{i} ({}) {t:.1} ms", name(*i)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn print_live_controls(fast: &LiveControls, slow: &LiveControls) {
        println!(
            "\nlive controls in the lab: input → last DOM change it caused (MutationObserver), p50 / p99 / max"
        );
        println!("| control | inputs | 1× CPU | {THROTTLE}× CPU | target |");
        println!("|---|---:|---|---|---|");
        let rows = [
            (
                "slider step (ArrowRight/ArrowLeft on stall and lease) → player frame",
                &fast.slider,
                &slow.slider,
            ),
            (
                "console: command + Enter → reply line",
                &fast.console,
                &slow.console,
            ),
            (
                "fence commit (writer activated) → readout and log",
                &fast.fence,
                &slow.fence,
            ),
        ];
        for (control, at_1x, at_slow) in rows {
            println!(
                "| {control} | {} | {} | {} | p99 < {FRAME_MS:.0} ms at {THROTTLE}× |",
                at_1x.len(),
                control_cell(at_1x, false),
                control_cell(at_slow, true),
            );
        }
        for (cpu, run) in [("1×", fast), (&format!("{THROTTLE}×"), slow)] {
            println!("\nslowest at {cpu} CPU:");
            println!(
                "  slider steps: {}",
                slowest(&run.slider, |i| run.slider_steps[i].clone())
            );
            println!(
                "  console lines: {}",
                slowest(&run.console, |i| CONSOLE_LINES[i % CONSOLE_LINES.len()]
                    .to_string())
            );
            // The log is reset when full, so commit i finds i % MAX_FENCE_COMMITS lines in it.
            println!(
                "  fence commits: {}",
                slowest(&run.fence, |i| format!(
                    "log of {}",
                    i % lockdive::scenarios::share::MAX_FENCE_COMMITS
                ))
            );
        }
    }

    fn percentile(values: &mut [f64], pct: f64) -> f64 {
        if values.is_empty() {
            return f64::NAN;
        }
        values.sort_by(f64::total_cmp);
        let rank = ((pct / 100.0) * values.len() as f64).ceil() as usize;
        values[rank.clamp(1, values.len()) - 1]
    }

    fn hover_cell(times: &[Option<f64>]) -> String {
        let mut measured: Vec<f64> = times.iter().flatten().copied().collect();
        if measured.is_empty() {
            return format!("no readout change in {} hovers", times.len());
        }
        let missed = times.len() - measured.len();
        let p50 = percentile(&mut measured, 50.0);
        let p99 = percentile(&mut measured, 99.0);
        let mut cell = format!("{p50:.2} / {p99:.2} ms");
        if missed > 0 {
            cell.push_str(&format!(" ({missed} missed)"));
        }
        cell
    }

    /// Which reaches the tail is made of: a p99 from one cold first reach reads differently from
    /// a target that is always slow. Reaches go round the five targets in page order.
    fn print_slowest(fast: &Reaches, slow: &Reaches) {
        for (times, rate) in [(fast, 1.0), (slow, THROTTLE)] {
            println!("\nslowest at {rate}× CPU:");
            for (reach, times) in Reach::ALL.iter().zip(times) {
                let tail = slowest(times, |i| format!("target {}", i % 5));
                println!("  {}: {tail}", reach.name());
            }
        }
    }

    /// The harness's floor: each reach on its own choice on the empty page, at both speeds.
    fn print_harness_floor(fast: &Reaches, slow: &Reaches) {
        println!("\nthe harness's floor (its own choice on an empty page; {HOVERS} of each):");
        println!("| reach | 1× CPU p50 / p99 | {THROTTLE}× CPU p50 / p99 |");
        println!("|---|---|---|");
        for ((reach, fast), slow) in Reach::ALL.iter().zip(fast).zip(slow) {
            println!(
                "| {} | {} | {} |",
                reach.name(),
                hover_cell(fast),
                hover_cell(slow)
            );
        }
    }

    fn kb(bytes: u64) -> String {
        format!("{:.1} KB", bytes as f64 / 1000.0)
    }

    fn weight_cell(sizes: &[(&str, u64)]) -> String {
        let total: u64 = sizes.iter().map(|(_, b)| b).sum();
        let parts: Vec<String> = sizes
            .iter()
            .map(|(k, b)| format!("{k} {}", kb(*b)))
            .collect();
        format!("{} ({})", kb(total), parts.join(" + "))
    }

    fn print_table(
        prerendered: bool,
        weights: (&Weight, &Weight),
        lab: (&LabWeights, &LabTimes),
        loads: (&Loads, &Loads),
        reaches: (&Reaches, &Reaches, &Hovers),
    ) {
        let mut rows = vec![
            (
                "page weight, gzip -9".to_string(),
                weight_cell(weights.0),
                weight_cell(weights.1),
                "≤ 120 KB in all",
            ),
            (
                format!("first contentful paint, {THROTTLE}× CPU (median of {LOADS})"),
                format!("{:.0} ms", loads.0.first_paint_ms),
                format!("{:.0} ms", loads.1.first_paint_ms),
                "not waiting for the wasm",
            ),
            (
                format!("figures interactive, {THROTTLE}× CPU (median of {LOADS})"),
                format!("{:.0} ms", loads.0.ready_ms),
                format!("never (load event {:.0} ms)", loads.1.ready_ms),
                "",
            ),
        ];
        // Each reach at both speeds; only a hover is tried on the static floor, where nothing
        // answers any of them.
        let (fast, slow, floor_hover) = reaches;
        for (i, reach) in Reach::ALL.iter().enumerate() {
            let name = reach.name();
            rows.push((
                format!("{name} → readout p50 / p99, {HOVERS} × {name}, 1× CPU"),
                hover_cell(&fast[i]),
                if *reach == Reach::Hover {
                    hover_cell(floor_hover)
                } else {
                    "—".to_string()
                },
                "",
            ));
            rows.push((
                format!("{name} → readout p50 / p99, {HOVERS} × {name}, {THROTTLE}× CPU"),
                hover_cell(&slow[i]),
                "—".to_string(),
                "p99 < 4 ms",
            ));
        }
        // Each lab chunk's weight and time to live, after the page-load rows.
        let (lab_weights, lab_ms) = lab;
        let lab_rows = lab_weights.iter().flat_map(|(chunk, weight)| {
            let (parts, reach) = match chunk {
                LabChunk::Figures => ("player, fence", "the player"),
                LabChunk::Store => ("whole store, consoles", "a console"),
                LabChunk::Check => ("whole store, lock checker", "a lock in the checker"),
            };
            let ms = lab_ms
                .iter()
                .find(|(c, _)| c == chunk)
                .map_or(f64::NAN, |(_, ms)| *ms);
            [
                (
                    format!(
                        "lab chunk `{}` ({parts}), gzip -9, fetched on first reach",
                        chunk.bin()
                    ),
                    weight_cell(weight),
                    "—".to_string(),
                    "not on the page load",
                ),
                (
                    format!(
                        "reach for {reach} → `{}` live, {THROTTLE}× CPU (median of {LOADS})",
                        chunk.bin()
                    ),
                    format!("{ms:.0} ms"),
                    "—".to_string(),
                    "",
                ),
            ]
        });
        let after_loads = 3;
        rows.splice(after_loads..after_loads, lab_rows);
        let floor = if prerendered {
            "static floor (prerendered HTML, no scripts)"
        } else {
            "static floor (DOM after mount, scripts removed)"
        };
        println!("| measure | release build (wasm) | {floor} | target |");
        println!("|---|---|---|---|");
        for (measure, live, stat, target) in rows {
            println!("| {measure} | {live} | {stat} | {target} |");
        }
    }
}
