//! The page inside a course site and around the dive, in headless Chromium on the release build: the example
//! host page (`examples/host.html`, served from a second origin) frames the dive with `?embed=1`, and its
//! iframe follows the dive's content height, and a dive framed far below the fold still says its height
//! (Chromium skips an unseen cross-origin frame's rendering, and with it a `ResizeObserver`'s first
//! callback); the course base and font stack come from the query; hostile
//! query values are refused; the theme switch sets and remembers `data-theme`; print hides the live parts.
//! The mdBook-shaped host (`examples/mdbook-host.html`) frames two dives and drives them: its theme menu
//! switches both live by `postMessage`, each frame is sized from its own height messages, a font message
//! sets the font stack (a hostile one is refused), a host on an origin not on the dive's allow-list (or
//! with no allow-list at all) changes nothing, and keys and the wheel in the host scroll the host and
//! leave the dives alone.
//! Run by ./scripts/test.sh with `LOCKDIVE_DIST` (see the harness, `e2e/src/lib.rs`).

use std::time::{Duration, Instant};

use fantoccini::actions::{WheelAction, WheelActions};
use fantoccini::key::Key;
use fantoccini::Locator;
use lockdive_e2e::dist_server::DistServer;
use lockdive_e2e::hooks::{script, LOST_LOCK};
use lockdive_e2e::{repo_path, save_screenshot, with_page, E2eResult, Page};
use serde_json::{json, Value};

const COURSE_BASE: &str = "https://learn.example.org/course/";

/// Runs a script in the current frame, the contract's hooks put in for its placeholders
/// (`hooks::script`), and returns its value.
async fn js(page: &Page, source: &str) -> E2eResult<Value> {
    Ok(page.client.execute(&script(source), vec![]).await?)
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
        let examples = repo_path("examples");
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

        // This host gives the dive no allow-list (no `host-origin=`): its messages change nothing.
        js(
            &page,
            "const dive = document.getElementById('dive').contentWindow;
             dive.postMessage({type: 'lockdive:theme', theme: 'dark'}, '*');
             dive.postMessage({type: 'lockdive:font', font: 'Courier New'}, '*');",
        )
        .await?;
        tokio::time::sleep(Duration::from_millis(700)).await;
        page.client.enter_frame(0).await?;
        let after = js(
            &page,
            "return [document.documentElement.getAttribute('data-theme'),
                     getComputedStyle(document.body).fontFamily];",
        )
        .await?;
        page.client.enter_parent_frame().await?;
        assert_eq!(after[0], Value::Null, "no allow-list, no theme: {after}");
        assert!(
            after[1].as_str().is_some_and(|f| f.starts_with("Georgia")),
            "no allow-list, no font: {after}"
        );
        Ok(())
    });
}

#[test]
fn embedded_in_a_wide_frame_no_code_block_runs_past_its_edges() {
    with_page(|page| async move {
        // Wide enough for page.css's wide-screen bleed of the code blocks.
        page.client.set_window_size(1280, 900).await?;
        page.goto("?embed=1").await?;
        wait_until_interactive(&page).await?;
        let state = js(
            &page,
            "const width = document.documentElement.clientWidth;
             const blocks = [...document.querySelectorAll('.code-block')];
             return {
                 width,
                 scroll: document.documentElement.scrollWidth,
                 blocks: blocks.length,
                 outside: blocks
                     .map(b => b.getBoundingClientRect())
                     .filter(r => r.left < 0 || r.right > width)
                     .length,
             };",
        )
        .await?;
        assert!(state["blocks"].as_u64().is_some_and(|n| n >= 3), "{state}");
        assert_eq!(state["outside"], json!(0), "{state}");
        assert_eq!(
            state["scroll"], state["width"],
            "nothing scrolls sideways: {state}"
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
        page.screenshot(LOST_LOCK, "theme-dark-lost-lock").await?;

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
                 readouts: shown('@READOUT@'),
                 verdicts: shown('@STATIC_VERDICTS@'),
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
        let bytes = lockdive_e2e::chromedriver::base64_decode(pdf["data"].as_str().unwrap_or(""))?;
        assert!(bytes.starts_with(b"%PDF"), "printToPDF gave a PDF");
        save_screenshot("print.pdf", &bytes)?;
        Ok(())
    });
}

/// The mdBook-shaped host's two frames, in document order (`enter_frame` indexes).
const DIVES: [u16; 2] = [0, 1];

/// The dive's colours in each theme: the body's text colour and figure 1's surface.
const LIGHT_COLOURS: (&str, &str) = ("rgb(29, 33, 39)", "rgb(243, 241, 236)");
const DARK_COLOURS: (&str, &str) = ("rgb(228, 226, 220)", "rgb(28, 31, 36)");

/// Runs a script inside the host's frame `frame` and returns its value (back in the host after).
async fn js_in_frame(page: &Page, frame: u16, script: &str) -> E2eResult<Value> {
    page.client.enter_frame(frame).await?;
    let value = js(page, script).await;
    page.client.enter_parent_frame().await?;
    value
}

/// Polls `script` in frame `frame` until it returns `expected` (10 s at most).
async fn wait_in_frame(page: &Page, frame: u16, script: &str, expected: &Value) -> E2eResult {
    let started = Instant::now();
    loop {
        let value = js_in_frame(page, frame, script).await?;
        if value == *expected {
            return Ok(());
        }
        if started.elapsed() > Duration::from_secs(10) {
            return Err(format!("in frame {frame}, {value} never became {expected}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What a dive shows of its theme: `data-theme`, its colours, and the reader's stored choice.
const DIVE_THEME: &str = "return {
        theme: document.documentElement.getAttribute('data-theme'),
        colour: getComputedStyle(document.body).color,
        figure: getComputedStyle(document.querySelector('@LOST_LOCK@')).backgroundColor,
        stored: localStorage.getItem('lockdive:theme'),
    };";

fn dive_theme(theme: Option<&str>, (colour, figure): (&str, &str)) -> Value {
    json!({"theme": theme, "colour": colour, "figure": figure, "stored": null})
}

/// Waits until every dive on the host page shows `expected`.
async fn wait_for_dives(page: &Page, expected: &Value) -> E2eResult {
    for frame in DIVES {
        wait_in_frame(page, frame, DIVE_THEME, expected).await?;
    }
    Ok(())
}

/// Opens `examples/mdbook-host.html` from `site` around the dive at `page.url` (plus `extra` in its
/// query), and waits until both dives have sent their first height message (their script listens).
async fn open_book(page: &Page, site: &DistServer, extra: &str) -> E2eResult {
    page.client
        .goto(&format!(
            "{}mdbook-host.html?dive={}{extra}",
            site.page_url, page.url
        ))
        .await?;
    let started = Instant::now();
    while js(
        page,
        "return document.querySelectorAll('iframe.dive[data-dive-listening]').length;",
    )
    .await?
        != json!(2)
    {
        if started.elapsed() > Duration::from_secs(30) {
            return Err("the host never heard both dives".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

/// Picks a theme in the host's menu with real clicks: the menu button, then the option.
async fn pick_host_theme(page: &Page, theme: &str) -> E2eResult {
    page.client
        .execute("window.scrollTo(0, 0);", vec![])
        .await?;
    page.find("#theme-toggle").await?.click().await?;
    page.find(&format!(r#"#theme-list [data-theme-option="{theme}"]"#))
        .await?
        .click()
        .await?;
    Ok(())
}

/// Sets (or with `None` clears) the emulated `prefers-color-scheme`.
async fn prefer_colour_scheme(page: &Page, scheme: &str) -> E2eResult {
    page.cdp(
        "Emulation.setEmulatedMedia",
        json!({ "features": [{ "name": "prefers-color-scheme", "value": scheme }] }),
    )
    .await?;
    Ok(())
}

/// (each frame's content height inside it, each frame's own height in the host), in CSS px.
async fn book_heights(page: &Page) -> E2eResult<Vec<(f64, f64)>> {
    let mut heights = Vec::new();
    for frame in DIVES {
        let content = js_in_frame(
            page,
            frame,
            "return Math.ceil(document.querySelector('main.dive').getBoundingClientRect().height);",
        )
        .await?;
        let outer = js(
            page,
            &format!(
                "return document.querySelectorAll('iframe.dive')[{frame}].getBoundingClientRect().height;"
            ),
        )
        .await?;
        let number = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
        heights.push((number(&content), number(&outer)));
    }
    Ok(heights)
}

#[test]
fn the_mdbook_host_switches_both_dives_theme_live_and_sizes_each_frame_from_its_own_messages() {
    with_page(|page| async move {
        let examples = repo_path("examples");
        let site = DistServer::start(&examples, "/book/")?;
        prefer_colour_scheme(&page, "light").await?;
        open_book(&page, &site, "").await?;
        wait_for_dives(&page, &dive_theme(None, LIGHT_COLOURS)).await?;

        pick_host_theme(&page, "dark").await?;
        wait_for_dives(&page, &dive_theme(Some("dark"), DARK_COLOURS)).await?;
        let host = js(
            &page,
            "return getComputedStyle(document.body).backgroundColor;",
        )
        .await?;
        assert_eq!(host, json!("rgb(29, 31, 33)"), "the host went dark too");
        page.screenshot("main", "mdbook-host-dark").await?;

        pick_host_theme(&page, "light").await?;
        wait_for_dives(&page, &dive_theme(Some("light"), LIGHT_COLOURS)).await?;

        // System: no data-theme, so the dives follow prefers-color-scheme, live, with no message.
        prefer_colour_scheme(&page, "dark").await?;
        wait_for_dives(&page, &dive_theme(Some("light"), LIGHT_COLOURS)).await?;
        pick_host_theme(&page, "system").await?;
        wait_for_dives(&page, &dive_theme(None, DARK_COLOURS)).await?;
        prefer_colour_scheme(&page, "light").await?;
        wait_for_dives(&page, &dive_theme(None, LIGHT_COLOURS)).await?;

        // Each frame is sized from the height messages its own window sends: narrowing only the
        // second dive makes only the second frame taller.
        // (In view: Chromium holds back a cross-origin frame's rendering, and with it the dive's
        // ResizeObserver, while the frame is scrolled out of sight.)
        js(
            &page,
            "const second = document.getElementById('dive-2');
             second.style.width = '55%';
             second.scrollIntoView({block: 'start'});",
        )
        .await?;
        let started = Instant::now();
        let heights = loop {
            let heights = book_heights(&page).await?;
            let fitted = heights
                .iter()
                .all(|(content, frame)| *content > 0.0 && (content - frame).abs() < 1.0);
            if fitted && heights[1].1 > heights[0].1 + 200.0 {
                break heights;
            }
            if started.elapsed() > Duration::from_secs(10) {
                return Err(
                    format!("(content, frame) heights never fit apart: {heights:?}").into(),
                );
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert!(heights[0].0 > 500.0, "{heights:?}");

        // Each dive follows the messages posted to its own window only: dark to the first, not the second.
        js(
            &page,
            "document.getElementById('dive-1').contentWindow
                 .postMessage({type: 'lockdive:theme', theme: 'dark'}, '*');",
        )
        .await?;
        wait_in_frame(
            &page,
            0,
            DIVE_THEME,
            &dive_theme(Some("dark"), DARK_COLOURS),
        )
        .await?;
        wait_in_frame(&page, 1, DIVE_THEME, &dive_theme(None, LIGHT_COLOURS)).await?;

        // A font message sets the font stack; anything but plain family names is refused, and
        // unknown types, values and shapes are ignored without an error. The second dive's own
        // window posting to itself (not its parent) is ignored too. A valid theme message last
        // says when the dive has read all of them.
        const FONT: &str = "return [document.documentElement.style.getPropertyValue('--font-sans'),
                                    getComputedStyle(document.body).fontFamily,
                                    getComputedStyle(document.body).display,
                                    document.documentElement.getAttribute('data-theme')];";
        js(
            &page,
            "document.getElementById('dive-2').contentWindow
                 .postMessage({type: 'lockdive:font', font: 'Courier New, monospace'}, '*');",
        )
        .await?;
        let courier = json!([
            "Courier New, monospace",
            "\"Courier New\", monospace",
            "block",
            null
        ]);
        wait_in_frame(&page, 1, FONT, &courier).await?;
        js_in_frame(
            &page,
            1,
            "window.postMessage({type: 'lockdive:theme', theme: 'dark'}, '*');
             window.postMessage({type: 'lockdive:font', font: 'Georgia'}, '*');",
        )
        .await?;
        js(
            &page,
            r#"const dive = document.getElementById('dive-2').contentWindow;
               for (const font of ['x;}body{display:none', 'Georgia, serif; color: red', 'url(https://evil.example/f)',
                                   'Georgia\u0000', '', 'a'.repeat(201)]) {
                   dive.postMessage({type: 'lockdive:font', font}, '*');
               }
               for (const message of ['lockdive:theme', null, 42, [], {type: 'lockdive:theme', theme: 'sepia'},
                                      {type: 'lockdive:theme', theme: {}}, {type: 'lockdive:font', font: 7},
                                      {type: 'lockdive:reset'}, {type: 'lockdive:height', height: 1}]) {
                   dive.postMessage(message, '*');
               }
               dive.postMessage({type: 'lockdive:theme', theme: 'light'}, '*');"#,
        )
        .await?;
        let courier_light = json!([
            "Courier New, monospace",
            "\"Courier New\", monospace",
            "block",
            "light"
        ]);
        wait_in_frame(&page, 1, FONT, &courier_light).await?;
        let first = js_in_frame(&page, 0, FONT).await?;
        let open_sans = "\"Open Sans\", \"Helvetica Neue\", Arial, sans-serif";
        assert_eq!(
            first,
            json!([open_sans, open_sans, "block", "dark"]),
            "the first dive kept the query's font (and its own dark)"
        );
        Ok(())
    });
}

#[test]
fn a_host_on_an_origin_not_on_the_allow_list_changes_nothing() {
    with_page(|page| async move {
        let examples = repo_path("examples");
        let trusted = DistServer::start(&examples, "/book/")?;
        let other = DistServer::start(&examples, "/book/")?;
        let trusted_origin = trusted.page_url.trim_end_matches("/book/").to_string();
        // The page from `other` frames the dives but tells them to trust only `trusted`'s origin.
        // It starts Light (its stored choice, which it passes on as `?theme=light`): a dive on System
        // would follow the host's `color-scheme` through its iframe element, messages or not.
        open_book(&page, &other, &format!("&host-origin={trusted_origin}")).await?;
        pick_host_theme(&page, "light").await?;
        open_book(&page, &other, &format!("&host-origin={trusted_origin}")).await?;
        wait_for_dives(&page, &dive_theme(Some("light"), LIGHT_COLOURS)).await?;
        pick_host_theme(&page, "dark").await?;
        js(
            &page,
            "for (const frame of document.querySelectorAll('iframe.dive')) {
                 frame.contentWindow.postMessage({type: 'lockdive:font', font: 'Courier New'}, '*');
             }",
        )
        .await?;
        let host = js(
            &page,
            "return getComputedStyle(document.body).backgroundColor;",
        )
        .await?;
        assert_eq!(host, json!("rgb(29, 31, 33)"), "the host itself went dark");
        tokio::time::sleep(Duration::from_millis(1000)).await;
        for frame in DIVES {
            let state = js_in_frame(&page, frame, DIVE_THEME).await?;
            assert_eq!(
                state,
                dive_theme(Some("light"), LIGHT_COLOURS),
                "frame {frame}"
            );
            let font = js_in_frame(
                &page,
                frame,
                "return document.documentElement.style.getPropertyValue('--font-sans');",
            )
            .await?;
            assert_eq!(
                font,
                json!("\"Open Sans\", \"Helvetica Neue\", Arial, sans-serif")
            );
        }
        Ok(())
    });
}

#[test]
fn keys_and_the_wheel_in_the_host_scroll_the_host_and_leave_the_dives_alone() {
    const DIVE_STATE: &str = "return {
            step: document.querySelector('@LOST_LOCK@ [data-player]')?.dataset.playerStep ?? null,
            fence: document.querySelectorAll('@FENCE@ ol[data-fence-log] > li').length,
            selected: document.querySelector('@FENCE@').getAttribute('@SELECTED@'),
            hash: location.hash,
            scrolled: document.scrollingElement.scrollTop,
            focused: document.hasFocus(),
        };";
    with_page(|page| async move {
        let examples = repo_path("examples");
        let site = DistServer::start(&examples, "/book/")?;
        open_book(&page, &site, "").await?;

        // The reader steps the first dive's player once, with focus on its timeline (where the
        // arrow keys step it), and then clicks back into the host's text.
        page.client.enter_frame(0).await?;
        page.scroll_into_view(&format!("{LOST_LOCK} [data-player] [data-player-forward]"))
            .await?;
        page.find(&format!("{LOST_LOCK} [data-player] [data-player-forward]"))
            .await?
            .click()
            .await?;
        page.client.enter_parent_frame().await?;
        wait_in_frame(
            &page,
            0,
            "return document.querySelector('@LOST_LOCK@ [data-player]')
                 ?.dataset.playerStep ?? null;",
            &json!("1"),
        )
        .await?;
        js_in_frame(
            &page,
            0,
            "document.querySelector('[data-player-timeline]').focus();",
        )
        .await?;
        let before = [
            js_in_frame(&page, 0, DIVE_STATE).await?,
            js_in_frame(&page, 1, DIVE_STATE).await?,
        ];
        assert_eq!(before[0]["step"], json!("1"), "{before:?}");
        page.client
            .execute("window.scrollTo(0, 0);", vec![])
            .await?;
        page.find("#the-token-makes-release-safe")
            .await?
            .click()
            .await?;
        let host_focus = js(
            &page,
            "return [document.hasFocus(), document.activeElement === document.body];",
        )
        .await?;
        assert_eq!(host_focus, json!([true, true]), "the host has the focus");

        let scroll_y = |page: &Page| {
            let page = page.clone();
            async move {
                Ok::<f64, Box<dyn std::error::Error>>(
                    js(&page, "return window.scrollY;")
                        .await?
                        .as_f64()
                        .unwrap_or(f64::NAN),
                )
            }
        };
        // Each key scrolls the host down (smooth scrolling may take a moment).
        for key in [Key::Down, Key::Space, Key::PageDown] {
            let from = scroll_y(&page).await?;
            page.press(key).await?;
            let started = Instant::now();
            while scroll_y(&page).await? <= from {
                if started.elapsed() > Duration::from_secs(5) {
                    return Err(format!("{key:?} in the host did not scroll it from {from}").into());
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }

        // The wheel over a dive scrolls the host: the dive is as tall as its content, nothing inside
        // it scrolls. The pointer goes to a point of the first frame away from its consoles.
        let from = scroll_y(&page).await?;
        let point = js(
            &page,
            "const r = document.getElementById('dive-1').getBoundingClientRect();
             return [Math.round(r.left + r.width / 2), Math.round(Math.max(r.top, 60) + 40)];",
        )
        .await?;
        let (x, y) = (
            point[0].as_i64().unwrap_or(0),
            point[1].as_i64().unwrap_or(0),
        );
        let over = js(
            &page,
            &format!("return document.elementFromPoint({x}, {y})?.id ?? null;"),
        )
        .await?;
        assert_eq!(over, json!("dive-1"), "the wheel goes over the first dive");
        let mut wheel = WheelActions::new("wheel".into());
        wheel.push(WheelAction::Scroll {
            duration: None,
            x,
            y,
            delta_x: 0,
            delta_y: 300,
        });
        page.client.perform_actions(wheel).await?;
        let started = Instant::now();
        while scroll_y(&page).await? <= from {
            if started.elapsed() > Duration::from_secs(5) {
                return Err(
                    format!("the wheel over the dive did not scroll the host from {from}").into(),
                );
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }

        let after = [
            js_in_frame(&page, 0, DIVE_STATE).await?,
            js_in_frame(&page, 1, DIVE_STATE).await?,
        ];
        for (before, after) in before.iter().zip(&after) {
            let unchanged = |key: &str| before[key] == after[key];
            assert!(
                ["step", "fence", "selected", "hash"]
                    .into_iter()
                    .all(unchanged),
                "the dive's state moved: {before} -> {after}"
            );
            assert_eq!(
                after["scrolled"],
                json!(0),
                "nothing scrolled inside: {after}"
            );
            assert_eq!(after["focused"], json!(false), "{after}");
        }
        Ok(())
    });
}

#[test]
fn a_dive_framed_far_below_the_fold_still_says_its_height_and_that_it_listens() {
    with_page(|page| async move {
        let examples = repo_path("examples");
        let site = DistServer::start(&examples, "/site/")?;
        let origin = site.page_url.trim_end_matches("/site/").to_string();
        page.client
            .goto(&format!("{}host.html?dive={}", site.page_url, page.url))
            .await?;
        // A host page whose one dive sits far below what the reader sees, and stays there: the
        // host must still learn the dive's height (and so that it listens) without a scroll.
        js(
            &page,
            &format!(
                "window.__heights = [];
                 const frame = document.createElement('iframe');
                 // Only this frame's messages: the page's own frame, replaced below, may still post.
                 window.addEventListener('message', event => {{
                     if (event.source === frame.contentWindow && event.data
                         && event.data.type === 'lockdive:height') window.__heights.push(event.data.height);
                 }});
                 const spacer = document.createElement('div');
                 spacer.style.height = '20000px';
                 frame.src = '{}?embed=1&host-origin=' + encodeURIComponent('{origin}');
                 document.body.replaceChildren(spacer, frame);",
                page.url
            ),
        )
        .await?;
        let started = Instant::now();
        loop {
            let heard = js(&page, "return window.__heights;").await?;
            if heard.as_array().is_some_and(|h| !h.is_empty()) {
                let scrolled = js(&page, "return document.scrollingElement.scrollTop;").await?;
                assert_eq!(scrolled, json!(0), "the host scrolled");
                return Ok(());
            }
            if started.elapsed() > Duration::from_secs(20) {
                return Err("a dive below the fold never said its height".into());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
}
