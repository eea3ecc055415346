//! The lab wasm: ministore and the live parts — the player, the consoles, the fence's commits.
//! The first wasm loads it (`lab_loader.js`) when the reader needs the store; it takes each
//! live part's slot over with the reader's state carried across (`lockdive::lab::mount`).

fn main() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    lockdive::lab::mount();
}
