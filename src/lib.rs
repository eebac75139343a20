//! The roll-doctor web page: a thin leptos (CSR) shell over the engine.
//!
//! The page holds no diagnosis logic: it calls the engine
//! ([`roll_doctor_engine::diagnose`], `share`, `render`) and renders the
//! [`Report`](roll_doctor_engine::Report). Natively this crate is only the
//! UI string table ([`i18n`]), the symptom grouping ([`symptoms`]) and their
//! tests; the components exist on wasm32 only, in the library so that the
//! browser tests (`tests/web.rs`) can mount them.

pub mod i18n;
pub mod symptoms;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
mod inputs;
#[cfg(target_arch = "wasm32")]
mod persist;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
mod web;
