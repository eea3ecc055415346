//! Entry point of the wasm page: install the panic hook, then mount the dive into `<body>`,
//! taking over the copy of the page the build prerendered there (see `lockdive::prerender`).

fn main() {
    console_error_panic_hook::set_once();
    // Removing the prerendered nodes and mounting the same markup happen in one task, before the
    // browser paints again: the reader sees no flash and nothing moves.
    #[cfg(target_arch = "wasm32")]
    lockdive::prerender::remove_prerendered();
    leptos::mount::mount_to_body(lockdive::App);
}
