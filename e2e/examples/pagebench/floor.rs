//! The static floor: the release page with every script and js/wasm preload removed, written
//! beside the build with its CSS, so the benchmark measures what a reader without JavaScript gets.

use std::path::Path;

use fantoccini::Client;

use lockdive_contract::hooks::INTERACTIVE;

use crate::browser::{figures_interactive, wait_for};
use crate::BenchResult;

/// Removes every `<script>…</script>` and the js/wasm preload links: the page with no JavaScript.
pub fn strip_scripts(html: &str) -> String {
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

pub async fn serialise_after_mount(client: &Client, url: &str) -> BenchResult<String> {
    client.goto(url).await?;
    wait_for(client, &figures_interactive()).await?;
    let html = client
        .execute(
            "return '<!doctype html>\\n' + document.documentElement.outerHTML;",
            vec![],
        )
        .await?;
    let html = html.as_str().ok_or("no outerHTML")?;
    Ok(strip_scripts(
        &html.replace(&format!(" {INTERACTIVE}=\"\""), ""),
    ))
}

pub fn write_floor(dist: &Path, floor: &Path, html: &str) -> BenchResult {
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
