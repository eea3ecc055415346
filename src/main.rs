//! Entry point of the wasm page: install the panic hook, then mount the dive into `<body>`.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(lockdive::App);
}
