//! The lock checker's lab chunk: the checker's live part, with the whole of ministore. The first
//! wasm loads it (`lab-check_loader.js`) when the reader first reaches for the checker; it makes
//! the built checker live where it stands and carries out the pick the reader already made
//! (`lockdive::lab::check`).

fn main() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    lockdive::lab::check::LAB.mount();
}
