//! The prerendered page: at build time the native side renders `App` to HTML into Trunk's
//! index.html (`render`, native only), between two comments that fence it in `<body>` so a rerun
//! replaces it; `lab_files` then names the lab's files after their content. In the browser the
//! first wasm (`lockdive-first`) enhances that markup in place, and the lab makes the live parts
//! live where they stand, in their slots (`crate::lab`).

#[cfg(not(target_arch = "wasm32"))]
pub mod lab_files;
#[cfg(all(not(target_arch = "wasm32"), feature = "views"))]
mod render;

#[cfg(all(not(target_arch = "wasm32"), feature = "views"))]
pub use render::{into_page, prerender_page, render_app, PrerenderError};

/// Text of the comment that opens the prerendered nodes: `<!--lockdive:prerendered-->`.
pub const START_MARK: &str = "lockdive:prerendered";

/// Text of the comment that closes them: `<!--/lockdive:prerendered-->`.
pub const END_MARK: &str = "/lockdive:prerendered";
