//! The main table's page-load measurements: gzip weight of what the page load and each lab chunk
//! fetch, first contentful paint and time to interactive (release build and static floor), and the
//! time from a reach for a lab chunk's parts to that chunk being live.

use std::path::Path;
use std::process::Command;

use fantoccini::Client;
use serde_json::json;

use lockdive_contract::embed::INTERACTIVE_MARK;
use lockdive_contract::lab::LabChunk;

use crate::browser::{reach_for, wait_for};
use crate::{percentile, BenchResult, Build, LOADS};

/// A build's load times, medians over `LOADS` loads in ms from navigation start.
pub struct Loads {
    pub first_paint_ms: f64,
    pub ready_ms: f64,
}

/// Which files a weight counts.
#[derive(Clone, Copy, PartialEq)]
pub enum Files {
    /// What loading the page fetches: html, css, the first wasm and its js.
    PageLoad,
    /// One lab chunk (`<bin>-<hash>.js`, `_loader.js`, `_bg.wasm`), fetched only once the reader
    /// first reaches for one of its parts.
    Lab(LabChunk),
    /// The static floor: html and css.
    Floor,
}

/// gzip -9 bytes of the files `which` names, per kind.
pub fn weight(folder: &Path, which: Files) -> BenchResult<Vec<(&'static str, u64)>> {
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

/// A script that is true once the page's performance timeline holds an entry named `name`: a
/// mark (the contract's interactive mark, a lab chunk's) or the first contentful paint.
fn has_entry(name: &str) -> String {
    format!("return performance.getEntriesByName('{name}').length > 0;")
}

/// Median over `LOADS` fresh loads of: first contentful paint, and interactive (live) or the load
/// event's end (static floor, whose figures never become live), in ms from navigation start.
pub async fn loads(client: &Client, url: &str, build: Build) -> BenchResult<Loads> {
    let (mut paints, mut readies) = (Vec::new(), Vec::new());
    for _ in 0..LOADS {
        client.goto("about:blank").await?;
        client.goto(url).await?;
        let ready = match build {
            Build::Live => {
                wait_for(client, &has_entry(INTERACTIVE_MARK)).await?;
                format!("performance.getEntriesByName('{INTERACTIVE_MARK}')[0].startTime")
            }
            Build::StaticFloor => {
                wait_for(client, "const n = performance.getEntriesByType('navigation')[0]; return !!n && n.loadEventEnd > 0;")
                    .await?;
                "performance.getEntriesByType('navigation')[0].loadEventEnd".to_string()
            }
        };
        wait_for(client, &has_entry("first-contentful-paint")).await?;
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

/// Median over `LOADS` fresh loads of the time from a pointer reaching for one of `chunk`'s
/// parts (the first wasm then loads the chunk) to the chunk's mark, in ms.
pub async fn lab_after_reach(client: &Client, url: &str, chunk: LabChunk) -> BenchResult<f64> {
    let mut times = Vec::new();
    for _ in 0..LOADS {
        client.goto("about:blank").await?;
        client.goto(url).await?;
        wait_for(client, &has_entry(INTERACTIVE_MARK)).await?;
        reach_for(client, chunk, Some("lockdive:reach")).await?;
        wait_for(client, &has_entry(chunk.mark())).await?;
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
