//! The whole page in headless Chromium: the App is mounted into a fresh element and the DOM is
//! checked against the content modules — one `<h1>`, six labelled, deep-linkable sections, every
//! paragraph and code block rendered, highlighted code, and course links from the default base.
#![cfg(target_arch = "wasm32")]

mod dom;

use dom::Mounted;
use lockdive::content::inline::visible_text;
use lockdive::content::model::Block;
use lockdive::content::DIVE;
use lockdive::scenarios::RELEASE_SCRIPT;
use lockdive::App;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

/// The App mounted into its own element and settled; dropping it unmounts and removes it.
async fn open_page() -> Mounted {
    Mounted::settled(App).await
}

fn text_of(element: &Element) -> String {
    squeeze(&element.text_content().unwrap_or_default())
}

fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[wasm_bindgen_test]
async fn the_page_has_one_title_and_its_labelled_deep_linkable_sections() {
    let page = open_page().await;
    let titles = page.all("h1");
    assert_eq!(titles.len(), 1);
    assert_eq!(text_of(&titles[0]), DIVE.header.title);
    assert_eq!(page.all("main article").len(), 1);

    for section in DIVE.in_page_order() {
        let element = page.find(&format!("section#{}", section.id));
        let label_id = element
            .get_attribute("aria-labelledby")
            .expect("the section is labelled");
        let heading = page.find(&format!("#{label_id}"));
        assert_eq!(heading.tag_name(), "H2");
        assert_eq!(text_of(&heading), visible_text(section.heading));
        let anchor = element
            .query_selector("a.section-anchor")
            .expect("a valid selector")
            .expect("a visible anchor link");
        assert_eq!(
            anchor.get_attribute("href").as_deref(),
            Some(format!("#{}", section.id).as_str())
        );
        // What the eye reads is the number; a symbol standing for one (the checker's ✓) is
        // hidden from screen readers, which hear the heading instead.
        let shown = anchor
            .query_selector("[aria-hidden=\"true\"]")
            .expect("a valid selector");
        match shown {
            Some(symbol) => {
                assert_eq!(text_of(&symbol), section.number);
                assert_eq!(
                    text_of(&anchor),
                    format!("{}{}", section.number, visible_text(section.heading))
                );
            }
            None => assert_eq!(text_of(&anchor), section.number),
        }
    }
}

#[wasm_bindgen_test]
async fn every_paragraph_and_code_block_of_the_content_is_rendered() {
    let page = open_page().await;
    let shown = text_of(&page.root);
    let mut code_blocks = 0;
    for section in DIVE.in_page_order() {
        for block in section.blocks {
            match block {
                Block::Para(markup) => {
                    let paragraph = squeeze(&visible_text(markup));
                    assert!(shown.contains(&paragraph), "not rendered: {paragraph}");
                }
                Block::PullQuote(text) => {
                    assert!(
                        shown.contains(&squeeze(text)),
                        "pull-quote not rendered: {text}"
                    )
                }
                Block::Code(_) => code_blocks += 1,
                _ => {}
            }
        }
    }
    // The attempts figure shows its full scripts as code too; those belong to the figure.
    let content_code = page
        .all("pre code")
        .into_iter()
        .filter(|code| code.closest("figure").ok().flatten().is_none())
        .count();
    assert_eq!(content_code, code_blocks);
    assert_eq!(page.all("blockquote.pull-quote").len(), 2);
    assert_eq!(page.all("aside.note").len(), 2);
    assert_eq!(page.all("#s1 ol.scenario-steps > li").len(), 5);
}

#[wasm_bindgen_test]
async fn the_release_script_is_shown_highlighted_and_verbatim() {
    let page = open_page().await;
    let code = page.find("#s2 pre code");
    assert_eq!(
        code.text_content().unwrap_or_default(),
        RELEASE_SCRIPT.trim_end()
    );
    let keys: Vec<String> = page
        .all("#s2 pre code .tok-keys")
        .iter()
        .map(|e| e.text_content().unwrap_or_default())
        .collect();
    assert_eq!(keys, ["KEYS", "ARGV", "KEYS"]);
    assert!(!page.all("#s2 pre code .tok-keyword").is_empty());
    assert!(!page.all("#s2 pre code .tok-comment").is_empty());
    assert_eq!(text_of(&page.find("#s1 pre code .tok-command")), "DEL");
}

#[wasm_bindgen_test]
async fn course_links_hang_off_the_default_base_and_sources_go_out() {
    let page = open_page().await;
    let related: Vec<String> = page
        .all("nav.related a")
        .iter()
        .filter_map(|a| a.get_attribute("href"))
        .collect();
    assert_eq!(
        related,
        ["/r2.02/", "/r2.02.1/", "/r2.02.3/", "/echomq/protocol/"]
    );
    let next = page.find("#s5 .section-source a");
    assert_eq!(next.get_attribute("href").as_deref(), Some("/r2.02.3/"));
    let sources: Vec<String> = page
        .all(".sources a")
        .iter()
        .filter_map(|a| a.get_attribute("href"))
        .collect();
    assert_eq!(sources.len(), 4);
    assert!(sources.iter().all(|h| h.starts_with("http")));
}
