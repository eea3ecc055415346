//! The page's first wasm: install the panic hook, then make the prerendered page answer without a
//! store (`lockdive_first::start`). The figures' live parts come with the lab (the page crate's
//! `src/bin/lab.rs`), loaded when the reader first needs the store.

fn main() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    lockdive_first::start();
}
