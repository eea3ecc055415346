//! The browser harness the end-to-end tests (`e2e/tests/`) and the page benchmark
//! (`e2e/examples/pagebench/`) share: serves the release build, starts headless Chromium through
//! chromedriver, opens the page and waits for the app to mount, then hands the test a [`Page`] with
//! the moves a reader makes (pointer, keyboard, touch) and the reads a test needs (readout text,
//! screenshots, the console).
//!
//! The tests check the release build in `LOCKDIVE_DIST`, which ./scripts/test.sh makes and passes.
//! Without it, or without Chromium, [`with_page`] applies the tests' one policy
//! (`redis_oracle::required`): under `CI=true` the test fails saying what is missing; elsewhere one
//! line on stderr says what was skipped and why, and the test returns early.

pub mod chromedriver;
pub mod dist_server;
pub mod hooks;

use std::error::Error;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chromedriver::{base64_decode, browser_log, cdp, ChromeDriver};
use dist_server::DistServer;
use fantoccini::actions::{
    InputSource, KeyAction, KeyActions, MouseActions, PointerAction, TouchActions,
    MOUSE_BUTTON_LEFT,
};
use fantoccini::elements::Element;
use fantoccini::error::CmdError;
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use lockdive_contract::hooks::{CONSOLE_SELECTOR, PLAYER_SELECTOR, READOUT_SELECTOR};
use lockdive_contract::lab::LabChunk;
use redis_oracle::required;
use serde_json::json;

pub type E2eResult<T = ()> = Result<T, Box<dyn Error>>;

/// The folder the page is served from: not `/`, so only relative asset URLs load.
const MOUNT: &str = "/courses/distributed-locking/r2.02.2/";
/// How long a readout may take to show what the store run returned (Leptos updates the DOM asynchronously).
const READOUT_WAIT: Duration = Duration::from_secs(5);
const MOUNT_WAIT: Duration = Duration::from_secs(30);
const TEST_LIMIT: Duration = Duration::from_secs(180);
/// How often an action is tried on an element the lab may replace under it (see [`Page::on_element`]).
const TAKEOVER_TRIES: usize = 3;

/// Each test drives its own browser; one at a time keeps two shared cores from timing the page out.
static ONE_BROWSER_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Where the release build is: `LOCKDIVE_DIST`, set by ./scripts/test.sh after `trunk build --release`;
/// `Err` says how to make one. A folder given without a build in it is a mistake, not a skip.
fn release_build() -> Result<PathBuf, String> {
    let Some(dist) = std::env::var_os("LOCKDIVE_DIST").map(PathBuf::from) else {
        return Err(
            "LOCKDIVE_DIST is not set: the end-to-end tests check a release build. Run \
             ./scripts/test.sh, or `trunk build --release --dist target/e2e-dist` then \
             `LOCKDIVE_DIST=$PWD/target/e2e-dist cargo test -p lockdive-e2e`"
                .into(),
        );
    };
    assert!(
        dist.join("index.html").is_file(),
        "LOCKDIVE_DIST={} holds no index.html: build it with `trunk build --release --dist <dir>`",
        dist.display()
    );
    Ok(dist)
}

/// A path in the repository, from its root (the folder above this crate): `examples/host.html`,
/// `node_modules/axe-core/axe.min.js`.
pub fn repo_path(relative: &str) -> PathBuf {
    let this_crate = Path::new(env!("CARGO_MANIFEST_DIR"));
    this_crate
        .parent()
        .expect("e2e/ sits in the repository")
        .join(relative)
}

/// Writes `bytes` to `target/screenshots/<file_name>` (a PNG or the print PDF) and returns its path.
pub fn save_screenshot(file_name: &str, bytes: &[u8]) -> E2eResult<PathBuf> {
    let folder = repo_path("target/screenshots");
    std::fs::create_dir_all(&folder)?;
    let file = folder.join(file_name);
    std::fs::write(&file, bytes)?;
    Ok(file)
}

/// Runs one browser test: serve the build, open the page, wait for the mount, run `body`, then fail if
/// the console logged any error (a panic in wasm logs one through console_error_panic_hook).
pub fn with_page<F, Fut>(body: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: Future<Output = E2eResult>,
{
    with_page_loaded(Loading::App, body);
}

/// How a test's browser loads the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loading {
    /// Scripts run: wait until the app has mounted; the console must stay clean.
    App,
    /// JavaScript off (`--blink-settings=scriptEnabled=false`): only the HTML the build wrote.
    ScriptsOff,
}

/// [`with_page`] with the page loaded as `loading` says; for anything but [`Loading::App`] the test
/// gets the page once the document has loaded, and the console is not checked.
pub fn with_page_loaded<F, Fut>(loading: Loading, body: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: Future<Output = E2eResult>,
{
    let _turn = ONE_BROWSER_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let Some(dist) = required(release_build()) else {
        return;
    };
    let Some(()) = required(chromedriver::installed()) else {
        return;
    };
    let server = DistServer::start(&dist, MOUNT).expect("start the static server on 127.0.0.1");
    let driver = ChromeDriver::start().unwrap_or_else(|e| panic!("{e}"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("build a tokio runtime");
    let outcome = runtime.block_on(async {
        let run = async {
            let page = Page::open(&driver, &server.page_url, loading).await?;
            let result = body(page.clone()).await;
            let console = match loading {
                Loading::App => page.expect_a_clean_console().await,
                Loading::ScriptsOff => Ok(()),
            };
            let _ = page.client.clone().close().await;
            result?;
            console
        };
        let limited: E2eResult = match tokio::time::timeout(TEST_LIMIT, run).await {
            Ok(result) => result,
            Err(_) => Err(format!("the test ran past {TEST_LIMIT:?}").into()),
        };
        limited
    });
    drop(driver);
    drop(server);
    if let Err(e) = outcome {
        panic!("{e}");
    }
}

/// Where a reader's pointer reaches for one of `chunk`'s parts before it has arrived: a console's
/// input for the store's chunk, the player's panel (between its controls) for the figures', the
/// checker's first catalogue lock for the checker's.
pub fn reach_target(chunk: LabChunk) -> String {
    use lockdive::components::figures::check_lock::hooks::{FIGURE, LOCKS};
    match chunk {
        LabChunk::Store => format!("{CONSOLE_SELECTOR} input"),
        LabChunk::Figures => format!("{PLAYER_SELECTOR} .pl-lede"),
        LabChunk::Check => format!("{FIGURE} {LOCKS}"),
    }
}

/// The open page, with the moves a reader makes on it.
#[derive(Clone)]
pub struct Page {
    pub client: Client,
    pub url: String,
    driver_port: u16,
    /// Console errors read so far: reading chromedriver's log empties it, so they are kept here.
    console_errors: Arc<Mutex<Vec<String>>>,
}

impl Page {
    async fn open(driver: &ChromeDriver, url: &str, loading: Loading) -> E2eResult<Self> {
        let scripts_off: &[&str] = match loading {
            Loading::App => &[],
            Loading::ScriptsOff => &["--blink-settings=scriptEnabled=false"],
        };
        // The console is read after every test: chromedriver keeps the browser's log only when asked.
        let mut logging = serde_json::Map::new();
        logging.insert("goog:loggingPrefs".into(), json!({ "browser": "ALL" }));
        let client = driver.open_session(scripts_off, logging).await?;
        let page = Self {
            client,
            url: url.to_string(),
            driver_port: driver.port,
            console_errors: Arc::default(),
        };
        match loading {
            Loading::App => page.goto("").await?,
            Loading::ScriptsOff => page.load("").await?,
        }
        Ok(page)
    }

    /// Loads the page (plus `suffix`) and waits for the document and its stylesheets only, not for
    /// the app: what a reader sees before (or without) the wasm.
    pub async fn load(&self, suffix: &str) -> E2eResult {
        self.client.goto(&format!("{}{suffix}", self.url)).await?;
        let started = Instant::now();
        loop {
            let state = self
                .cdp(
                    "Runtime.evaluate",
                    json!({ "expression": "document.readyState", "returnByValue": true }),
                )
                .await?;
            if state.pointer("/result/value").and_then(|v| v.as_str()) == Some("complete") {
                return Ok(());
            }
            if started.elapsed() > MOUNT_WAIT {
                return Err(format!("{} did not load within {MOUNT_WAIT:?}", self.url).into());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Loads the page (plus `suffix`, e.g. `#s3`) and waits until the app has mounted.
    pub async fn goto(&self, suffix: &str) -> E2eResult {
        self.client.goto(&format!("{}{suffix}", self.url)).await?;
        let started = Instant::now();
        loop {
            // The figures' markup can be there before the wasm is (a prerendered page): only the
            // `data-interactive` mark the app sets once mounted says the targets answer.
            let mounted = self
                .client
                .execute(
                    &hooks::script(
                        "return document.documentElement.hasAttribute('@INTERACTIVE@') \
                     && !!document.querySelector('@LOST_LOCK@');",
                    ),
                    vec![],
                )
                .await;
            if let Ok(serde_json::Value::Bool(true)) = mounted {
                return Ok(());
            }
            // A panic or a failed load never mounts: say why now instead of waiting out the limit.
            let errors = self.read_console_errors().await?;
            if !errors.is_empty() {
                return Err(format!(
                    "the app did not mount at {}; the page logged:\n  {}",
                    self.url,
                    errors.join("\n  ")
                )
                .into());
            }
            if started.elapsed() > MOUNT_WAIT {
                return Err(format!(
                    "the app did not mount within {MOUNT_WAIT:?} at {}",
                    self.url
                )
                .into());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn find(&self, css: &str) -> E2eResult<Element> {
        self.client
            .find(Locator::Css(css))
            .await
            .map_err(|e| format!("no element matches {css}: {e}").into())
    }

    pub async fn count(&self, css: &str) -> E2eResult<usize> {
        Ok(self.client.find_all(Locator::Css(css)).await?.len())
    }

    /// Runs `act` on the element `css` matches. The lab puts a few parts in whole when what they
    /// show changes (figure 2's lanes and readout sources, the player's status and exchange), so
    /// an element found a moment before may be gone when the action reaches it: WebDriver then
    /// answers "stale element reference" without carrying the action out, and the element is
    /// found again (at most [`TAKEOVER_TRIES`] times).
    async fn on_element<T, F, Fut>(&self, css: &str, act: F) -> E2eResult<T>
    where
        F: Fn(Client, Element) -> Fut,
        Fut: Future<Output = Result<T, CmdError>>,
    {
        let mut tries = 1;
        loop {
            let element = self.find(css).await?;
            match act(self.client.clone(), element).await {
                Err(e) if e.is_stale_element_reference() && tries < TAKEOVER_TRIES => tries += 1,
                result => return Ok(result?),
            }
        }
    }

    pub async fn scroll_into_view(&self, css: &str) -> E2eResult {
        self.on_element(css, |client, element| async move {
            let element = serde_json::to_value(&element).expect("an element reference is JSON");
            client
                .execute(
                    "arguments[0].scrollIntoView({block: 'center', inline: 'center'});",
                    vec![element],
                )
                .await
                .map(drop)
        })
        .await
    }

    /// Moves the real (WebDriver) mouse pointer onto the middle of the element.
    pub async fn hover(&self, css: &str) -> E2eResult {
        self.hover_at(css, (0.0, 0.0)).await
    }

    /// Moves the real mouse pointer onto the element, `offset` CSS pixels from its middle.
    pub async fn hover_at(&self, css: &str, offset: (f64, f64)) -> E2eResult {
        self.scroll_into_view(css).await?;
        self.on_element(css, |client, element| async move {
            let mouse = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
                element,
                duration: Some(Duration::from_millis(50)),
                x: offset.0,
                y: offset.1,
            });
            client.perform_actions(mouse).await
        })
        .await
    }

    /// Moves the real mouse onto the element and clicks it, as a reader does.
    pub async fn click(&self, css: &str) -> E2eResult {
        self.hover(css).await?;
        self.on_element(css, |_, element| async move { element.click().await })
            .await
    }

    /// Moves the mouse pointer to the top-left corner of the viewport, after checking nothing there is a
    /// figure target (so "away" really is away).
    pub async fn move_pointer_away(&self) -> E2eResult {
        let on_target = self
            .client
            .execute(
                "const e = document.elementFromPoint(2, 2); \
                 return !!(e && e.closest('[data-release],[data-writer]'));",
                vec![],
            )
            .await?;
        if on_target.as_bool() != Some(false) {
            return Err(
                "the viewport corner lies on a figure target; cannot move the pointer away".into(),
            );
        }
        let mouse = MouseActions::new("mouse".into()).then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(50)),
            x: 2.0,
            y: 2.0,
        });
        self.client.perform_actions(mouse).await?;
        Ok(())
    }

    /// Taps the element with a touch pointer (down and up, no hover before it).
    pub async fn tap(&self, css: &str) -> E2eResult {
        self.scroll_into_view(css).await?;
        self.on_element(css, |client, element| async move {
            let finger = TouchActions::new("finger".into())
                .then(PointerAction::MoveToElement {
                    element,
                    duration: None,
                    x: 0.0,
                    y: 0.0,
                })
                .then(PointerAction::Down {
                    button: MOUSE_BUTTON_LEFT,
                })
                .pause(Duration::from_millis(50))
                .then(PointerAction::Up {
                    button: MOUSE_BUTTON_LEFT,
                });
            client.perform_actions(finger).await
        })
        .await?;
        self.client.release_actions().await?;
        Ok(())
    }

    /// Presses and releases one key on the real (WebDriver) keyboard.
    pub async fn press(&self, key: Key) -> E2eResult {
        let keys = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: key.into() })
            .then(KeyAction::Up { value: key.into() });
        self.client.perform_actions(keys).await?;
        Ok(())
    }

    /// Presses Tab until the focused element matches `css`; fails if it is not in the tab order.
    pub async fn tab_to(&self, css: &str, max_presses: usize) -> E2eResult {
        for _ in 0..max_presses {
            self.press(Key::Tab).await?;
            let focused = self
                .client
                .execute(
                    "return !!(document.activeElement && document.activeElement.matches(arguments[0]));",
                    vec![json!(css)],
                )
                .await?;
            if focused.as_bool() == Some(true) {
                return Ok(());
            }
        }
        Err(format!("{max_presses} presses of Tab never focused {css}").into())
    }

    /// Runs one Chrome DevTools Protocol command in this page's browser (e.g. `Emulation.setEmulatedMedia`).
    pub async fn cdp(
        &self,
        command: &str,
        params: serde_json::Value,
    ) -> E2eResult<serde_json::Value> {
        let session = self
            .client
            .session_id()
            .await?
            .ok_or("the WebDriver session has no id")?;
        Ok(cdp(self.driver_port, &session, command, params)?)
    }

    /// The text of the figure's readout, as a reader sees it.
    pub async fn readout(&self, figure: &str) -> E2eResult<String> {
        self.text_of(&format!("{figure} {READOUT_SELECTOR}")).await
    }

    /// The rendered text of the first element matching `css`, looked up afresh: no element
    /// reference is held, so the lab putting a part in anew between two reads cannot make it stale.
    pub async fn text_of(&self, css: &str) -> E2eResult<String> {
        let text = self
            .client
            .execute(
                "const e = document.querySelector(arguments[0]); return e ? e.innerText : null;",
                vec![json!(css)],
            )
            .await?;
        text.as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("no element matches {css}").into())
    }

    /// Polls the text of `css` until it contains every one of `says` (case and spacing ignored)
    /// within `limit`; returns the text, spacing normalised.
    pub async fn wait_for_text(
        &self,
        css: &str,
        says: &[&str],
        limit: Duration,
    ) -> E2eResult<String> {
        let met = |text: &str| {
            let text = normalize(text);
            says.iter().all(|s| text.contains(&normalize(s)))
        };
        let text = self
            .poll_text(css, met, limit, &format!("{says:?}"))
            .await?;
        Ok(normalize(&text))
    }

    /// Polls the text of `css` until `met` accepts it within `limit`; `wanted` says what was
    /// awaited when it never comes. An element missing for a moment reads as no text.
    async fn poll_text(
        &self,
        css: &str,
        met: impl Fn(&str) -> bool,
        limit: Duration,
        wanted: &str,
    ) -> E2eResult<String> {
        let started = Instant::now();
        loop {
            let text = self.text_of(css).await.unwrap_or_default();
            if met(&text) {
                return Ok(text);
            }
            if started.elapsed() > limit {
                return Err(format!(
                    "{css} never said {wanted} within {limit:?}; it says: {text:?}"
                )
                .into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Moves the real pointer onto the first console's input, as a reader about to type does, then
    /// onto the player's panel, then onto the lock checker's first lock: the first wasm loads the
    /// store's lab chunk, the figures', then the checker's. Then waits until all have taken their
    /// parts over.
    pub async fn reach_for_the_lab(&self) -> E2eResult {
        for chunk in [LabChunk::Store, LabChunk::Figures, LabChunk::Check] {
            self.hover(&reach_target(chunk)).await?;
        }
        self.wait_for_lab().await?;
        let states = self.lab_states().await?;
        if states.iter().all(|state| state.as_deref() == Some("live")) {
            Ok(())
        } else {
            Err(format!("not every lab chunk is live: {states:?}").into())
        }
    }

    /// Waits until every lab chunk asked for has taken its parts over ([`Page::lab_state`] `live`).
    pub async fn wait_for_lab(&self) -> E2eResult {
        let started = Instant::now();
        loop {
            let state = self.lab_state().await?;
            match state.as_deref() {
                Some("live") => return Ok(()),
                Some("failed") => return Err("the lab's script failed to load".into()),
                _ => {}
            }
            let errors = self.read_console_errors().await?;
            if !errors.is_empty() {
                return Err(format!(
                    "the lab did not go live; the page logged:\n  {}",
                    errors.join("\n  ")
                )
                .into());
            }
            if started.elapsed() > MOUNT_WAIT {
                return Err(format!(
                    "the lab was not live within {MOUNT_WAIT:?} (state {state:?})"
                )
                .into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Polls the figure's readout until it says `expected`; returns the text it showed.
    pub async fn wait_for_readout(&self, figure: &str, expected: &Expect) -> E2eResult<String> {
        let readout = format!("{figure} {READOUT_SELECTOR}");
        self.poll_text(
            &readout,
            |text| expected.is_met_by(text),
            READOUT_WAIT,
            &format!("{expected:?}"),
        )
        .await
    }

    /// Saves a PNG of the element under `target/screenshots/<name>.png`.
    pub async fn screenshot(&self, css: &str, name: &str) -> E2eResult<PathBuf> {
        // WebDriver's element screenshot is clipped to the 900 px viewport, and a figure is taller than that:
        // CDP captures the element's whole box, beyond the viewport, without moving the pointer.
        // Such a capture lays the page out without its vertical scrollbar, and Chromium keeps that
        // layout until some later input: the centred column moves half a scrollbar sideways. So the
        // scrollbar is hidden while the box is measured and captured (one layout throughout), then
        // brought back with a forced re-layout, and the page is as the reader left it.
        self.set_scrollbar_hidden(true).await?;
        let shot = self.capture(css).await;
        self.set_scrollbar_hidden(false).await?;
        save_screenshot(&format!("{name}.png"), &shot?)
    }

    /// Hides or restores `<html>`'s scrollbar, and forces the layout that follows.
    async fn set_scrollbar_hidden(&self, hidden: bool) -> E2eResult {
        self.client
            .execute(
                "const root = document.documentElement; \
                 root.style.scrollbarWidth = arguments[0] ? 'none' : ''; void root.offsetWidth;",
                vec![json!(hidden)],
            )
            .await?;
        Ok(())
    }

    /// The PNG of the element's whole box, captured through CDP.
    async fn capture(&self, css: &str) -> E2eResult<Vec<u8>> {
        let element = self.find(css).await?;
        let rect = self
            .client
            .execute(
                "const r = arguments[0].getBoundingClientRect(); \
                 return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height];",
                vec![serde_json::to_value(&element)?],
            )
            .await?;
        let side = |i: usize| rect.get(i).and_then(|v| v.as_f64()).unwrap_or(0.0);
        let session = self
            .client
            .session_id()
            .await?
            .ok_or("the WebDriver session has no id")?;
        let shot = cdp(
            self.driver_port,
            &session,
            "Page.captureScreenshot",
            json!({
                "format": "png",
                "captureBeyondViewport": true,
                "clip": { "x": side(0), "y": side(1), "width": side(2), "height": side(3), "scale": 1 },
            }),
        )?;
        let data = shot
            .get("data")
            .and_then(|d| d.as_str())
            .ok_or("CDP returned no image")?;
        let png = base64_decode(data)?;
        if !png.starts_with(b"\x89PNG") {
            return Err(format!("the screenshot of {css} is not a PNG").into());
        }
        Ok(png)
    }

    /// Every console message at level SEVERE (errors, panics, failed loads) since the page opened.
    async fn read_console_errors(&self) -> E2eResult<Vec<String>> {
        let session = self
            .client
            .session_id()
            .await?
            .ok_or("the WebDriver session has no id")?;
        let fresh = browser_log(self.driver_port, &session)?;
        let mut seen = self
            .console_errors
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        seen.extend(
            fresh
                .iter()
                .filter(|e| e.get("level").and_then(|l| l.as_str()) == Some("SEVERE"))
                .map(|e| {
                    e.get("message")
                        .and_then(|m| m.as_str())
                        .unwrap_or("?")
                        .to_string()
                }),
        );
        Ok(seen.clone())
    }

    /// Takes the console errors that mention `expected` off the list the test is judged by, and
    /// returns them: for a test that provokes an error on purpose.
    pub async fn forgive_console_errors(&self, expected: &str) -> E2eResult<Vec<String>> {
        self.read_console_errors().await?;
        let mut seen = self
            .console_errors
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let (forgiven, kept) = seen.drain(..).partition(|e: &String| e.contains(expected));
        *seen = kept;
        Ok(forgiven)
    }

    /// Where each lab chunk stands, in `LabChunk::ALL`'s order (the figures', the store's, the
    /// checker's): its `<html data-lab-…>` attribute, `None` for a chunk not asked for.
    pub async fn lab_states(&self) -> E2eResult<Vec<Option<String>>> {
        let attributes: Vec<&str> = LabChunk::ALL
            .iter()
            .map(|chunk| chunk.state_attribute())
            .collect();
        let states = self
            .client
            .execute(
                "return arguments[0].map(a => document.documentElement.getAttribute(a));",
                vec![json!(attributes)],
            )
            .await?;
        Ok(states
            .as_array()
            .ok_or("no lab states")?
            .iter()
            .map(|state| state.as_str().map(str::to_string))
            .collect())
    }

    /// Where the lab stands over the chunks asked for: `None` when none was, `failed` when one
    /// failed, `loading` while one is on its way, `live` once every one asked for is live.
    pub async fn lab_state(&self) -> E2eResult<Option<String>> {
        let states: Vec<String> = self.lab_states().await?.into_iter().flatten().collect();
        let any = |wanted: &str| states.iter().any(|state| state == wanted);
        Ok(if states.is_empty() {
            None
        } else if any("failed") {
            Some("failed".into())
        } else if any("loading") {
            Some("loading".into())
        } else {
            Some("live".into())
        })
    }

    async fn expect_a_clean_console(&self) -> E2eResult {
        let errors = self.read_console_errors().await?;
        if errors.is_empty() {
            Ok(())
        } else {
            Err(format!("the page logged errors:\n  {}", errors.join("\n  ")).into())
        }
    }
}

/// What a readout or verdict must say: every `says` phrase and none of the `never` phrases. Matching
/// ignores case and typographic apostrophes, so the test holds to the words and not to the typography.
#[derive(Debug)]
pub struct Expect {
    pub says: &'static [&'static str],
    pub never: &'static [&'static str],
}

impl Expect {
    pub fn is_met_by(&self, text: &str) -> bool {
        let text = normalize(text);
        self.says.iter().all(|p| text.contains(&normalize(p)))
            && !self.never.iter().any(|p| text.contains(&normalize(p)))
    }
}

pub fn normalize(text: &str) -> String {
    text.replace(['\u{2019}', '\u{2018}'], "'")
        .replace(['\u{201c}', '\u{201d}'], "\"")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}
