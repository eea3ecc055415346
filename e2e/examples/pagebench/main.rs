//! The page budget benchmark: prints one table comparing the release build with a plain
//! static-HTML floor of the same page (scripts removed, so no wasm): page weight (gzip -9 of html,
//! css, js and wasm the page load fetches; each lab chunk, fetched on the first reach for one of
//! its parts, on a row of its own), first contentful paint, time to interactive and, per lab
//! chunk, the time from a reach for one of its parts to the chunk being live, under 4× CPU
//! throttling (DevTools protocol), and reach-to-readout latency (a hover's
//! pointerenter, a focus, a tap's pointerdown and click, to the readout's DOM change; 200 of each,
//! median and p99; beside them the harness's floor, the same reaches on its own choice on an empty
//! page, and the hover's cost per event in a loop of 3 000), and the lock checker (`#check`) in
//! the lab:
//! for each catalogue lock, the default bound explored in the browser (schedules per second, read
//! off the figure's own live line) and the longest gap between animation frames while it ran; and
//! the lab's live controls at frame rate: a slider step (real ArrowRight/ArrowLeft keys on the
//! stall and lease sliders) → the player's frame, a console command's Enter → its reply line, and
//! a fence commit → the readout and log, each from the input to the last DOM change it caused.
//! A command, not a test: `./scripts/pagebench.sh` builds the page and runs it (see README, "Page budget").
//! `PAGEBENCH_ONLY=reaches` or `=live` runs one part alone ([`Part`]).
//!
//! This file runs the measurements in their order and owns what they all share (the result type,
//! the run's sizes and throttle rate, which build is measured, percentiles). Each module owns one
//! kind of measurement: [`loads`] page weight, first paint, interactive and reach → lab chunk live;
//! [`reaches`] hover, focus and tap → readout, the harness's floor and the hover's cost in a
//! loop; [`checker`] the lock checker's runs; [`live`] the lab's live controls; [`report`] the
//! tables printed from them all. [`floor`] builds the static floor and [`browser`] holds the
//! browser helpers they share.

mod browser;
mod checker;
mod floor;
mod live;
mod loads;
mod reaches;
mod report;

use std::error::Error;
use std::path::PathBuf;

use lockdive_contract::hooks::FIGURE;
use lockdive_contract::lab::LabChunk;
use lockdive_contract::Figure;
use lockdive_e2e::chromedriver::ChromeDriver;
use lockdive_e2e::dist_server::DistServer;

use browser::{open_browser, throttle};
use checker::check_lock_runs;
use floor::{serialise_after_mount, strip_scripts, write_floor};
use live::live_controls;
use loads::{lab_after_reach, loads, weight, Files};
use reaches::{hover_cost, reaches, reaches_and_floor, Reach};
use report::{
    print_check_lock, print_harness_floor, print_hover_cost, print_live_controls, print_reach_rows,
    print_slowest, print_table,
};

fn main() {
    if let Err(e) = run() {
        eprintln!("pagebench: {e}");
        std::process::exit(1);
    }
}

type BenchResult<T = ()> = Result<T, Box<dyn Error>>;

/// Fresh loads each page-load time is the median of.
const LOADS: usize = 5;
/// Timed reaches of each kind, round the choices.
const HOVERS: usize = 200;
/// How many times the throttled runs slow the page's CPU.
const THROTTLE: f64 = 4.0;

/// Which build a measurement is of.
#[derive(Clone, Copy, PartialEq)]
enum Build {
    /// The release build: prerendered HTML, then the wasm takes the figures live.
    Live,
    /// The same HTML and CSS with every script removed: what a reader without JavaScript gets.
    StaticFloor,
}

fn run() -> BenchResult {
    let dist = std::env::args_os()
        .nth(1)
        .or_else(|| std::env::var_os("LOCKDIVE_DIST"))
        .map(PathBuf::from)
        .ok_or(
            "give the release build's folder: `pagebench <dist>` (./scripts/pagebench.sh does it)",
        )?;
    if !dist.join("index.html").is_file() {
        return Err(format!("{} holds no index.html", dist.display()).into());
    }
    let only = match std::env::var("PAGEBENCH_ONLY") {
        Ok(word) => Some(Part::named(&word)?),
        Err(_) => None,
    };
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
            if let Some(part) = only {
                return measure_part(&client, &live.page_url, (driver.port, &session), part).await;
            }

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
            let (reach_slow, harness_slow) = reaches_and_floor(&client, &live.page_url).await?;
            let hover_slow = hover_cost(&client, &live.page_url).await?;
            throttle(driver.port, &session, 1.0)?;
            let (reach_fast, harness_fast) = reaches_and_floor(&client, &live.page_url).await?;
            let hover_fast = hover_cost(&client, &live.page_url).await?;
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
            print_hover_cost(&hover_fast, &hover_slow);
            print_check_lock(&checks_fast, &checks_slow);
            print_live_controls(&controls_fast, &controls_slow);
            BenchResult::Ok(())
        }
        .await;
        let _ = client.close().await;
        outcome
    })
}

/// One part of a run, chosen by `PAGEBENCH_ONLY=reaches|live`, for a quick before and after of
/// a change to it; the README's tables come from whole runs.
#[derive(Clone, Copy)]
enum Part {
    /// The reach rows and the harness's floor.
    Reaches,
    /// The lab's live controls.
    Live,
}

impl Part {
    fn named(word: &str) -> BenchResult<Part> {
        match word {
            "reaches" => Ok(Part::Reaches),
            "live" => Ok(Part::Live),
            other => Err(format!("PAGEBENCH_ONLY={other}: give `reaches` or `live`").into()),
        }
    }
}

/// One part of the run, at both speeds and printed as the whole run prints it.
async fn measure_part(
    client: &fantoccini::Client,
    url: &str,
    (port, session): (u16, &str),
    part: Part,
) -> BenchResult {
    match part {
        Part::Reaches => {
            let mut runs = Vec::new();
            for rate in [THROTTLE, 1.0] {
                throttle(port, session, rate)?;
                runs.push(reaches_and_floor(client, url).await?);
            }
            throttle(port, session, 1.0)?;
            let [(page_slow, floor_slow), (page_fast, floor_fast)] =
                <[_; 2]>::try_from(runs).map_err(|_| "two speeds measured")?;
            print_reach_rows(&page_fast, &page_slow);
            print_slowest(&page_fast, &page_slow);
            print_harness_floor(&floor_fast, &floor_slow);
        }
        Part::Live => {
            throttle(port, session, 1.0)?;
            let fast = live_controls(client, url, (port, session)).await?;
            throttle(port, session, THROTTLE)?;
            let slow = live_controls(client, url, (port, session)).await?;
            throttle(port, session, 1.0)?;
            print_live_controls(&fast, &slow);
        }
    }
    Ok(())
}

/// The `pct`th percentile of `values` by nearest rank (sorts them); NaN if there are none.
fn percentile(values: &mut [f64], pct: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let rank = ((pct / 100.0) * values.len() as f64).ceil() as usize;
    values[rank.clamp(1, values.len()) - 1]
}
