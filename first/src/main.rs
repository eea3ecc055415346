//! The page's first wasm: install the panic hook, then make the prerendered page answer without a
//! store (`lockdive_first::start`). The live parts come with the lab's three chunks (the page
//! crate's `src/bin/lab-figures.rs`, `src/bin/lab-store.rs` and `src/bin/lab-check.rs`), each
//! loaded when the reader first reaches for one of its parts.

fn main() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    lockdive_first::start();
}
