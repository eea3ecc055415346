//! The store's lab chunk: the consoles, with the whole of ministore. The first wasm loads it
//! (`lab-store_loader.js`) when the reader first reaches for a console; it takes each console's
//! slot over with the reader's state carried across (`lockdive::lab::store`).

fn main() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    lockdive::lab::store::LAB.mount();
}
