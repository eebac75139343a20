//! The roll-doctor web page: a leptos (CSR) page over the engine, which runs
//! in a Web Worker.
//!
//! The page holds no diagnosis logic. [`host`] is the engine side (what the
//! worker runs: `diagnose`, `share`, `render`); [`model`] is what travels
//! between the two; [`i18n`] and [`symptoms`] are the page's strings and
//! symptom list. These compile natively too, with their tests. The rest is
//! wasm32 only: [`worker`] (the worker's message loop), [`engine`] (the
//! page's end of it), [`state`] (the page's signals), [`actions`] (what the
//! user does), and the views ([`app`], `inputs`, `report`, `panels`).

pub mod host;
pub mod i18n;
pub mod model;
pub mod symptoms;

#[cfg(target_arch = "wasm32")]
pub mod actions;
#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod engine;
#[cfg(target_arch = "wasm32")]
mod inputs;
#[cfg(target_arch = "wasm32")]
mod panels;
#[cfg(target_arch = "wasm32")]
mod persist;
#[cfg(target_arch = "wasm32")]
mod report;
#[cfg(target_arch = "wasm32")]
pub mod state;
#[cfg(target_arch = "wasm32")]
pub mod web;
#[cfg(target_arch = "wasm32")]
pub mod worker;
