//! What lockdive's page, its two wasm modules and its tests agree on, as code: every DOM hook the
//! prerendered markup carries and a wasm module or a test reads (`hooks`), the lab's states and the
//! actions kept for it (`lab`), the hover / tap / focus rules of a figure's choices
//! (`choice_layers`), which URL fragment carries state only the store can compute (`fragment`),
//! the theme's choices (`theme`), what the page and a framing host say to each other (`embed`) and
//! how course links find their base (`course_base`).
//!
//! No dependencies: the first wasm builds on this crate, and it must bring it names and rules only.
//! The markup's writers (the components and their markup functions), the first wasm, the lab and
//! the tests all take
//! these names from here, so a renamed hook is one edit and a misspelt one does not compile.

#[macro_use]
pub mod hooks;
pub mod choice_layers;
pub mod course_base;
pub mod embed;
pub mod fragment;
pub mod lab;
pub mod theme;

pub use hooks::Figure;
