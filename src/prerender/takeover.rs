//! The wasm's side of the prerendered page: drop the build-time nodes right before mounting the
//! live app in the same task, so the browser never paints in between and nothing moves.

use super::{END_MARK, START_MARK};

/// Removes the nodes between (and including) the prerender's marks in `<body>`; returns how many
/// top-level nodes went. A page built without the prerender has no marks and loses nothing.
pub fn remove_prerendered() -> usize {
    let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    else {
        return 0;
    };
    let body: &web_sys::Node = &body;
    let mut removed = 0;
    let mut inside = false;
    let mut next = body.first_child();
    while let Some(node) = next {
        next = node.next_sibling();
        let mark = is_comment(&node).then(|| node.node_value()).flatten();
        let opens = mark.as_deref() == Some(START_MARK);
        let closes = mark.as_deref() == Some(END_MARK);
        if opens {
            inside = true;
        }
        if inside && body.remove_child(&node).is_ok() {
            removed += 1;
        }
        if closes {
            inside = false;
        }
    }
    removed
}

fn is_comment(node: &web_sys::Node) -> bool {
    node.node_type() == web_sys::Node::COMMENT_NODE
}
