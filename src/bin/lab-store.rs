//! The store's lab chunk: the consoles and the lock checker, with the whole of ministore. The
//! first wasm loads it (`lab-store_loader.js`) when the reader first reaches for one of them; it
//! takes each part's slot over with the reader's state carried across (`lockdive::lab::store`).

fn main() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    lockdive::lab::store::mount();
}
