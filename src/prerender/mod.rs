//! The prerendered page: at build time the native side renders `App` to HTML into Trunk's
//! index.html (`render`, native only); in the browser the wasm takes that markup over (`takeover`,
//! wasm only). Both sides agree on the comments that fence the prerendered nodes in `<body>`.

#[cfg(not(target_arch = "wasm32"))]
mod render;
#[cfg(target_arch = "wasm32")]
mod takeover;

#[cfg(not(target_arch = "wasm32"))]
pub use render::{into_page, prerender_page, render_app, PrerenderError};
#[cfg(target_arch = "wasm32")]
pub use takeover::remove_prerendered;

/// Text of the comment that opens the prerendered nodes: `<!--lockdive:prerendered-->`.
pub const START_MARK: &str = "lockdive:prerendered";

/// Text of the comment that closes them: `<!--/lockdive:prerendered-->`.
pub const END_MARK: &str = "/lockdive:prerendered";
