//! The browser helpers every measurement shares: opening the WebDriver session, throttling the
//! CPU through DevTools, a fresh load, waiting on a script's condition, the page's readiness
//! checks, and a pointer's reach that loads a lab chunk.

use std::time::{Duration, Instant};

use fantoccini::wd::TimeoutConfiguration;
use fantoccini::Client;
use serde_json::json;

use lockdive_contract::lab::LabChunk;
use lockdive_e2e::chromedriver::{cdp, ChromeDriver};
use lockdive_e2e::hooks::script;
use lockdive_e2e::reach_target;

use crate::BenchResult;

/// A script that is true once the first wasm has made the prerendered figures answer (the
/// contract's interactive attribute on `<html>`).
pub fn figures_interactive() -> String {
    script("return document.documentElement.hasAttribute('@INTERACTIVE@');")
}

/// A script that is true once `chunk` of the lab has taken its slots over.
pub fn chunk_live(chunk: LabChunk) -> String {
    format!(
        "return document.documentElement.getAttribute('{}') === 'live';",
        chunk.state_attribute()
    )
}

/// Slows the page's CPU `rate` times through DevTools (1.0: full speed).
pub fn throttle(port: u16, session: &str, rate: f64) -> Result<serde_json::Value, String> {
    cdp(
        port,
        session,
        "Emulation.setCPUThrottlingRate",
        json!({ "rate": rate }),
    )
}

pub async fn open_browser(driver: &ChromeDriver) -> BenchResult<Client> {
    let client = driver
        .open_session(&["--disable-extensions"], serde_json::Map::new())
        .await?;
    // 200 hovers under 4x throttling outlast WebDriver's default 30 s script timeout.
    let mut timeouts = TimeoutConfiguration::default();
    timeouts.set_script(Some(Duration::from_secs(600)));
    client.update_timeouts(timeouts).await?;
    Ok(client)
}

/// Loads `url` afresh (after a blank page, so nothing of the last load stays) and waits until
/// `ready` holds.
pub async fn fresh_load(client: &Client, url: &str, ready: &str) -> BenchResult {
    client.goto("about:blank").await?;
    client.goto(url).await?;
    wait_for(client, ready).await
}

pub async fn wait_for(client: &Client, condition: &str) -> BenchResult {
    let started = Instant::now();
    while client.execute(condition, vec![]).await?.as_bool() != Some(true) {
        if started.elapsed() > Duration::from_secs(60) {
            return Err(format!("timed out waiting for: {condition}").into());
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    Ok(())
}

/// Reaches for one of `chunk`'s parts as a pointer does (a `pointerover` on its
/// `reach_target`), which has the first wasm load the chunk; with `mark`, a performance mark of
/// that name is set in the same script, just before.
pub async fn reach_for(client: &Client, chunk: LabChunk, mark: Option<&str>) -> BenchResult<()> {
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
