fn main() {
    // The same module runs the page and, in a Web Worker, the engine: only
    // the page mounts the app (the worker is driven by `rd_worker_message`).
    #[cfg(target_arch = "wasm32")]
    if web_sys::window().is_some() {
        roll_doctor_web::actions::install_panic_hook();
        leptos::mount::mount_to_body(roll_doctor_web::app::App);
    }
}
