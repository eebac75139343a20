fn main() {
    #[cfg(target_arch = "wasm32")]
    {
        roll_doctor_web::app::install_panic_hook();
        leptos::mount::mount_to_body(roll_doctor_web::app::App);
    }
}
