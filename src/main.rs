//! Entry point of the wasm page: install the panic hook, then bring the prerendered page to life by
//! mounting only its islands (the figures with their consoles, the theme switch) in place; the
//! prose stays the build's HTML (see `lockdive::islands`).

fn main() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    lockdive::islands::mount_islands();
}
