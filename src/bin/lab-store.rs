//! The store's lab chunk: the consoles, with the whole of ministore. The first wasm loads it
//! (`lab-store_loader.js`) when the reader first reaches for a console; it makes each built console
//! live where it stands and carries out a click or Enter the reader made before it came
//! (`lockdive::lab::store`).

fn main() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    lockdive::lab::store::LAB.mount();
}
