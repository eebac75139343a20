//! The roll-doctor web page: a thin leptos (CSR) shell over the engine.
//!
//! The page holds no diagnosis logic: it calls
//! [`roll_doctor_engine::diagnose`] and renders the [`Report`](roll_doctor_engine::Report).
//! Natively this crate is only the UI string table ([`i18n`]) and its tests;
//! the components ([`app`]) exist on wasm32 only, in the library so that the
//! browser tests (`tests/web.rs`) can mount them.

pub mod i18n;
pub mod symptoms;

#[cfg(target_arch = "wasm32")]
pub mod app;
