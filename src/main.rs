//! The page's first wasm: install the panic hook, then make the prerendered page answer without a
//! store (`lockdive::enhance`). The figures' live parts come with the lab (`src/bin/lab.rs`),
//! loaded when the reader first needs the store.

fn main() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    lockdive::enhance::start();
}
