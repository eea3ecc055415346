//! Loading the lab — ministore and the live parts, in three chunks (`LabChunk`) — once the reader
//! reaches for something only the store can answer: a player control or a commit (`figure`)
//! brings the figures' chunk, a console the store's, the lock checker the checker's. A click or
//! Enter on a live part's control made before its chunk arrives is marked on its element and
//! replayed by the chunk.

use wasm_bindgen::JsCast;
use web_sys::{Document, Element, Event, HtmlScriptElement};

use lockdive_contract::hooks::{PENDING, PENDING_SELECTOR, SLOT, SLOT_SELECTOR};
use lockdive_contract::lab::{LabChunk, LabState, PendingAction, STORE_CONTROLS, STORE_PANELS};

use crate::dom;

/// Watches the live parts' slots for a reach towards a store control: a pointer over it or focus
/// on it starts the load of the slot's chunk, a click or Enter on it is kept for the chunk to
/// replay.
pub fn watch(document: &Document) {
    for slot in dom::all::<Element>(document.query_selector_all(SLOT_SELECTOR)) {
        let Some(chunk) = chunk_of(&slot) else {
            continue;
        };
        for name in ["pointerover", "focusin", "click", "keydown"] {
            dom::on(&slot, name, move |event: Event| reach(&event, chunk));
        }
    }
}

/// The chunk whose part `slot` (a `[data-island]` element) holds; `None` for a slot no chunk owns.
fn chunk_of(slot: &Element) -> Option<LabChunk> {
    slot.get_attribute(SLOT)
        .and_then(|name| LabChunk::of_slot(&name))
}

/// One event in a slot of `chunk`'s, while that chunk is not live.
fn reach(event: &Event, chunk: LabChunk) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if lab_state(&document, chunk) == Some(LabState::Live) {
        return;
    }
    let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
        return;
    };
    let Some(control) = target.closest(STORE_CONTROLS).ok().flatten() else {
        // A pointer over the player's, a console's or the lock picker's panel, between its
        // controls, is already on its way to one: a head start for the download.
        if event.type_() == "pointerover" && target.closest(STORE_PANELS).ok().flatten().is_some() {
            load(&document, chunk);
        }
        return;
    };
    let pending = match event.type_().as_str() {
        "click" => Some(PendingAction::Click),
        "keydown" => event
            .dyn_ref::<web_sys::KeyboardEvent>()
            .filter(|e| e.key() == "Enter" && control.tag_name() == "INPUT")
            .map(|_| PendingAction::Enter),
        _ => None,
    };
    match pending {
        Some(action) => request(&control, action, chunk),
        None => load(&document, chunk),
    }
}

/// Marks `element` for `chunk` to replay `action` on, and loads the chunk.
fn request(element: &Element, action: PendingAction, chunk: LabChunk) {
    let Some(document) = element.owner_document() else {
        return;
    };
    // One pending action per chunk: the reader's latest reach for its parts is the one they
    // still mean.
    for old in dom::all::<Element>(document.query_selector_all(PENDING_SELECTOR)) {
        let old_chunk = old.closest(SLOT_SELECTOR).ok().flatten();
        if old_chunk.as_ref().and_then(chunk_of) == Some(chunk) {
            let _ = old.remove_attribute(PENDING);
        }
    }
    let _ = element.set_attribute(PENDING, action.attribute());
    load(&document, chunk);
}

/// Starts loading `chunk`, once: an inline module script that imports the loader the build wrote
/// beside the page. The import settles only once the loader has fetched and started the chunk's
/// wasm, so a failure anywhere on the way (the loader, its JS, the `_bg.wasm`) marks the chunk
/// failed; a script's `src` would report only a loader that did not arrive.
pub fn load(document: &Document, chunk: LabChunk) {
    let Some(root) = document.document_element() else {
        return;
    };
    if lab_state(document, chunk).is_some() {
        return;
    }
    let _ = root.set_attribute(chunk.state_attribute(), LabState::Loading.attribute());
    let Ok(script) = document
        .create_element("script")
        .map(JsCast::unchecked_into::<HtmlScriptElement>)
    else {
        return;
    };
    script.set_type("module");
    let _ = script.set_text(&import_script(&loader_name(document, chunk), chunk));
    if let Some(head) = document.head() {
        let _ = head.append_child(&script);
    }
}

/// The module script that imports `loader` (a file name beside the page, resolved as a script's
/// `src` would be: a bare name is no module specifier) and marks `chunk` failed if the import
/// rejects.
fn import_script(loader: &str, chunk: LabChunk) -> String {
    format!(
        "import(new URL({}, document.baseURI).href)\
         .catch(() => document.documentElement.setAttribute({}, {}));",
        js_string(loader),
        js_string(chunk.state_attribute()),
        js_string(LabState::Failed.attribute()),
    )
}

/// `text` as a double-quoted JavaScript string literal.
fn js_string(text: &str) -> String {
    let mut literal = String::with_capacity(text.len() + 2);
    literal.push('"');
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                literal.push('\\');
                literal.push(c);
            }
            // Control characters, and the two line terminators a JavaScript string may not hold
            // raw in older engines.
            c if c < ' ' || c == '\u{2028}' || c == '\u{2029}' => {
                literal.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => literal.push(c),
        }
    }
    literal.push('"');
    literal
}

/// The chunk's loader file, as the build named it in its `<meta name="lockdive:lab-…">`.
fn loader_name(document: &Document, chunk: LabChunk) -> String {
    document
        .query_selector(&format!("meta[name=\"{}\"]", chunk.loader_meta()))
        .ok()
        .flatten()
        .and_then(|meta| meta.get_attribute("content"))
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| chunk.loader().to_string())
}

/// Where `chunk` stands, from its `<html>` attribute.
fn lab_state(document: &Document, chunk: LabChunk) -> Option<LabState> {
    let value = document
        .document_element()?
        .get_attribute(chunk.state_attribute())?;
    LabState::from_attribute(&value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_import_script_names_the_loader_and_the_chunks_failed_state() {
        let script = import_script("lab-store-0123_loader.js", LabChunk::Store);
        assert_eq!(
            script,
            format!(
                "import(new URL(\"lab-store-0123_loader.js\", document.baseURI).href)\
                 .catch(() => document.documentElement.setAttribute(\"{}\", \"{}\"));",
                LabChunk::Store.state_attribute(),
                LabState::Failed.attribute()
            )
        );
    }

    #[test]
    fn a_loader_name_cannot_end_the_string_it_is_put_in() {
        assert_eq!(js_string(r#"a"b\c"#), r#""a\"b\\c""#);
        assert_eq!(js_string("a\nb\u{2028}"), r#""a\u000ab\u2028""#);
    }
}
