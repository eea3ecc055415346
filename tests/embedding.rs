//! The page inside a course site and around the dive, in headless Chromium on the release build: the example
//! host page (`examples/host.html`, served from a second origin) frames the dive with `?embed=1`, and its
//! iframe follows the dive's content height; the course base and font stack come from the query; hostile
//! query values are refused; the theme switch sets and remembers `data-theme`; print hides the live parts.
//! Run by ./scripts/test.sh with `LOCKDIVE_DIST` (see tests/e2e.rs).
#![cfg(not(target_arch = "wasm32"))]

#[allow(dead_code)]
mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use fantoccini::Locator;
use serde_json::{json, Value};
use support::dist_server::DistServer;
use support::{with_page, E2eResult, Page};

const COURSE_BASE: &str = "https://learn.example.org/course/";

/// Runs a script in the current frame and returns its value.
async fn js(page: &Page, script: &str) -> E2eResult<Value> {
    Ok(page.client.execute(script, vec![]).await?)
}

/// Waits until the dive in the current frame says its figures are live.
async fn wait_until_interactive(page: &Page) -> E2eResult {
    let started = Instant::now();
    while js(
        page,
        "return document.documentElement.hasAttribute('data-interactive');",
    )
    .await?
    .as_bool()
        != Some(true)
    {
        if started.elapsed() > Duration::from_secs(30) {
            return Err("the dive never set data-interactive".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

/// (the dive's content height inside the iframe, the iframe's own height in the host), in CSS px.
async fn heights(page: &Page) -> E2eResult<(f64, f64)> {
    page.client.enter_frame(0).await?;
    let content = js(
        page,
        "return Math.ceil(document.querySelector('main.dive').getBoundingClientRect().height);",
    )
    .await;
    page.client.enter_parent_frame().await?;
    let frame = js(
        page,
        "return document.getElementById('dive').getBoundingClientRect().height;",
    )
    .await?;
    let number = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    Ok((number(&content?), number(&frame)))
}

/// Polls until the iframe is exactly as tall as the dive's content; returns that height.
async fn wait_for_frame_to_fit(page: &Page) -> E2eResult<f64> {
    let started = Instant::now();
    loop {
        let (content, frame) = heights(page).await?;
        if content > 0.0 && (content - frame).abs() < 1.0 {
            return Ok(content);
        }
        if started.elapsed() > Duration::from_secs(10) {
            return Err(format!(
                "the host's iframe is {frame}px tall but the dive's content is {content}px"
            )
            .into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[test]
fn the_example_host_frames_the_dive_without_chrome_and_its_iframe_follows_the_content_height() {
    with_page(|page| async move {
        let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        let site = DistServer::start(&examples, "/site/")?;
        page.client
            .goto(&format!("{}host.html?dive={}", site.page_url, page.url))
            .await?;
        page.client.find(Locator::Css("#dive")).await?;

        page.client.enter_frame(0).await?;
        wait_until_interactive(&page).await?;
        let inside = js(
            &page,
            "const root = document.documentElement;
             const links = [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))
                 .filter(h => /r2\\.02|echomq/.test(h) && !h.startsWith('#'));
             return {
                 embed: root.hasAttribute('data-embed'),
                 background: getComputedStyle(document.body).backgroundColor,
                 toggle: getComputedStyle(document.querySelector('.theme-toggle')).display,
                 padding: getComputedStyle(document.querySelector('main.dive')).paddingTop,
                 font: getComputedStyle(document.body).fontFamily,
                 links,
             };",
        )
        .await?;
        page.client.enter_parent_frame().await?;
        assert_eq!(inside["embed"], json!(true), "{inside}");
        assert_eq!(
            inside["background"],
            json!("rgba(0, 0, 0, 0)"),
            "transparent: {inside}"
        );
        assert_eq!(inside["toggle"], json!("none"), "no theme switch: {inside}");
        assert_eq!(inside["padding"], json!("0px"), "no outer margin: {inside}");
        assert!(
            inside["font"]
                .as_str()
                .is_some_and(|f| f.starts_with("Georgia")),
            "the host's font stack: {inside}"
        );
        let links: Vec<&str> = inside["links"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        assert!(links.len() >= 4, "course links found: {links:?}");
        assert!(
            links.iter().all(|h| h.starts_with(COURSE_BASE)),
            "every course link hangs off the host's base: {links:?}"
        );
        assert!(links.contains(&"https://learn.example.org/course/r2.02.3/"));

        let wide = wait_for_frame_to_fit(&page).await?;
        page.screenshot("body", "embed-host").await?;
        // A narrower host column rewraps the dive: it grows, says so, and the iframe follows.
        page.client.set_window_size(640, 900).await?;
        let narrow = wait_for_frame_to_fit(&page).await?;
        assert!(
            narrow > wide + 200.0,
            "narrowing the host should make the dive taller: {wide}px -> {narrow}px"
        );
        Ok(())
    });
}

#[test]
fn a_hostile_font_or_course_base_in_the_query_is_refused() {
    with_page(|page| async move {
        page.goto("?embed=1&font=x;}body{display:none&course-base=javascript:alert(1)//")
            .await?;
        wait_until_interactive(&page).await?;
        let state = js(
            &page,
            "return {
                 font: document.documentElement.style.getPropertyValue('--font-sans'),
                 body: getComputedStyle(document.body).display,
                 next: document.querySelector('a[href$=\"r2.02.3/\"]')?.getAttribute('href'),
             };",
        )
        .await?;
        assert_eq!(state["font"], json!(""), "{state}");
        assert_eq!(state["body"], json!("block"), "{state}");
        // The meta tag's base ("/") applies instead.
        assert_eq!(state["next"], json!("/r2.02.3/"), "{state}");
        Ok(())
    });
}

/// `data-theme` on `<html>`, the pressed button, and the page background.
async fn theme_state(page: &Page) -> E2eResult<Value> {
    js(
        page,
        "return {
             theme: document.documentElement.getAttribute('data-theme'),
             pressed: document.querySelector('[data-theme-choice][aria-pressed=true]')?.dataset.themeChoice,
             background: getComputedStyle(document.body).backgroundColor,
         };",
    )
    .await
}

async fn wait_for_theme(page: &Page, expected: Value) -> E2eResult<Value> {
    let started = Instant::now();
    loop {
        let state = theme_state(page).await?;
        if state == expected {
            return Ok(state);
        }
        if started.elapsed() > Duration::from_secs(5) {
            return Err(format!("theme state {state} never became {expected}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[test]
fn the_theme_switch_sets_data_theme_remembers_it_across_a_reload_and_system_clears_it() {
    const LIGHT_BG: &str = "rgb(251, 250, 247)";
    const DARK_BG: &str = "rgb(20, 22, 26)";
    with_page(|page| async move {
        // Headless Chromium prefers light: System shows the light page.
        wait_for_theme(
            &page,
            json!({"theme": null, "pressed": "system", "background": LIGHT_BG}),
        )
        .await?;
        page.find(r#"[data-theme-choice="dark"]"#)
            .await?
            .click()
            .await?;
        wait_for_theme(
            &page,
            json!({"theme": "dark", "pressed": "dark", "background": DARK_BG}),
        )
        .await?;
        page.screenshot(r#"figure[data-figure="lost-lock"]"#, "theme-dark-lost-lock")
            .await?;

        // The head script applies the stored choice before the app mounts, so the first paint is dark.
        page.client.refresh().await?;
        let before_mount = js(
            &page,
            "return document.documentElement.getAttribute('data-theme');",
        )
        .await?;
        assert_eq!(before_mount, json!("dark"));
        wait_for_theme(
            &page,
            json!({"theme": "dark", "pressed": "dark", "background": DARK_BG}),
        )
        .await?;

        page.find(r#"[data-theme-choice="light"]"#)
            .await?
            .click()
            .await?;
        wait_for_theme(
            &page,
            json!({"theme": "light", "pressed": "light", "background": LIGHT_BG}),
        )
        .await?;
        page.find(r#"[data-theme-choice="system"]"#)
            .await?
            .click()
            .await?;
        wait_for_theme(
            &page,
            json!({"theme": null, "pressed": "system", "background": LIGHT_BG}),
        )
        .await?;
        let stored = js(&page, "return localStorage.getItem('lockdive:theme');").await?;
        assert_eq!(stored, Value::Null, "System stores nothing");
        Ok(())
    });
}

#[test]
fn print_shows_static_verdicts_and_link_urls_on_white_and_hides_the_live_parts() {
    with_page(|page| async move {
        page.find(r#"[data-theme-choice="dark"]"#)
            .await?
            .click()
            .await?;
        page.cdp("Emulation.setEmulatedMedia", json!({ "media": "print" }))
            .await?;
        let printed = js(
            &page,
            "const shown = s => [...document.querySelectorAll(s)].map(e => getComputedStyle(e).display);
             const outside = document.querySelector('a[href^=\"http\"]');
             return {
                 background: getComputedStyle(document.body).backgroundColor,
                 readouts: shown('[data-readout]'),
                 verdicts: shown('[data-static-verdicts]'),
                 consoles: shown('[data-console]'),
                 players: shown('[data-player]'),
                 toggle: shown('.theme-toggle'),
                 href: outside.getAttribute('href'),
                 after: getComputedStyle(outside, '::after').content,
             };",
        )
        .await?;
        assert_eq!(
            printed["background"],
            json!("rgb(255, 255, 255)"),
            "{printed}"
        );
        let all = |key: &str, test: &dyn Fn(&str) -> bool| {
            printed[key]
                .as_array()
                .is_some_and(|a| !a.is_empty() && a.iter().filter_map(Value::as_str).all(test))
        };
        assert!(all("readouts", &|d| d == "none"), "{printed}");
        assert!(all("consoles", &|d| d == "none"), "{printed}");
        assert!(all("players", &|d| d == "none"), "{printed}");
        assert!(all("toggle", &|d| d == "none"), "{printed}");
        assert!(all("verdicts", &|d| d != "none"), "{printed}");
        let href = printed["href"].as_str().unwrap_or("?");
        // Computed `content` is the quoted string CSS builds: `" (https://…)"`.
        assert_eq!(
            printed["after"],
            json!(format!("\" ({href})\"")),
            "{printed}"
        );

        let pdf = page
            .cdp("Page.printToPDF", json!({ "printBackground": true }))
            .await?;
        let bytes = support::chromedriver::base64_decode(pdf["data"].as_str().unwrap_or(""))?;
        assert!(bytes.starts_with(b"%PDF"), "printToPDF gave a PDF");
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
        std::fs::create_dir_all(&folder)?;
        std::fs::write(folder.join("print.pdf"), bytes)?;
        Ok(())
    });
}
