//! The figures' lab chunk: figure 1's scenario player and figure 2's committed fence, with the
//! part of ministore the page's own scripts need. The first wasm loads it (`lab-figures_loader.js`)
//! when the reader first reaches for one of them; it makes each built part live where it stands,
//! with what the reader already did there kept (`lockdive::lab::figures`).

fn main() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    lockdive::lab::figures::LAB.mount();
}
