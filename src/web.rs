//! Browser plumbing (wasm32 only): storage that may be missing, the
//! clipboard with its plain-http fallback, the address bar, reading files in
//! chunks. Nothing here knows about diagnoses.

use leptos::prelude::*;
use std::time::Duration;
use wasm_bindgen::{closure::Closure, JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

pub fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

pub fn document() -> Option<web_sys::Document> {
    window().and_then(|w| w.document())
}

pub fn now_ms() -> f64 {
    window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

/// localStorage, or None where it is missing or throws (disabled storage,
/// sandboxed frames, some browsers on file://).
pub fn storage() -> Option<web_sys::Storage> {
    window().and_then(|w| w.local_storage().ok().flatten())
}

pub fn storage_get(key: &str) -> Option<String> {
    storage().and_then(|s| s.get_item(key).ok().flatten())
}

/// Stores `value`; false when storage is missing or full.
pub fn storage_set(key: &str, value: &str) -> bool {
    storage().is_some_and(|s| s.set_item(key, value).is_ok())
}

pub fn storage_remove(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}

/// The address without its fragment.
pub fn page_address() -> String {
    let href = window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    match href.find('#') {
        Some(i) => href[..i].to_string(),
        None => href,
    }
}

/// The fragment without `#` (empty when there is none).
pub fn location_hash() -> String {
    window().and_then(|w| w.location().hash().ok()).unwrap_or_default().trim_start_matches('#').to_string()
}

/// Removes the fragment from the address bar without reloading or adding
/// a history entry.
pub fn clear_hash() {
    let Some(w) = window() else { return };
    if location_hash().is_empty() {
        return;
    }
    let url = page_address();
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// Copy feedback of one button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyState {
    Idle,
    Copied,
    Failed,
}

impl CopyState {
    pub fn code(self) -> &'static str {
        match self {
            CopyState::Idle => "idle",
            CopyState::Copied => "copied",
            CopyState::Failed => "failed",
        }
    }
}

/// Copies `text`: the async Clipboard API when the page has it (secure
/// contexts), else — or when it refuses — the legacy `execCommand("copy")`
/// on a hidden textarea, which also works on plain-http pages.
pub fn copy_text(text: String, state: RwSignal<CopyState>) {
    let settle = move |s: CopyState| {
        let _ = state.try_set(s);
        set_timeout(
            move || {
                let _ = state.try_set(CopyState::Idle);
            },
            Duration::from_millis(1500),
        );
    };
    let Some(win) = window() else { return settle(CopyState::Failed) };
    let nav = win.navigator();
    let has_api = js_sys::Reflect::get(&nav, &JsValue::from_str("clipboard"))
        .map(|v| !v.is_undefined() && !v.is_null())
        .unwrap_or(false);
    if !has_api {
        return settle(if legacy_copy(&text) { CopyState::Copied } else { CopyState::Failed });
    }
    let promise = nav.clipboard().write_text(&text);
    let fallback = text;
    let ok = Closure::once_into_js(move |_: JsValue| settle(CopyState::Copied));
    let err = Closure::once_into_js(move |_: JsValue| {
        settle(if legacy_copy(&fallback) { CopyState::Copied } else { CopyState::Failed })
    });
    let then = js_sys::Reflect::get(&promise, &JsValue::from_str("then"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    match then {
        Some(then) => {
            let _ = then.call2(&promise, &ok, &err);
        }
        None => settle(CopyState::Failed),
    }
}

fn legacy_copy(text: &str) -> bool {
    let Some(doc) = document() else { return false };
    let Some(body) = doc.body() else { return false };
    let Ok(el) = doc.create_element("textarea") else { return false };
    let Ok(area) = el.dyn_into::<web_sys::HtmlTextAreaElement>() else { return false };
    area.set_value(text);
    let _ = area.set_attribute("readonly", "");
    area.set_class_name("offscreen");
    let active = doc.active_element();
    if body.append_child(&area).is_err() {
        return false;
    }
    area.select();
    let ok = doc.dyn_ref::<web_sys::HtmlDocument>().and_then(|d| d.exec_command("copy").ok()).unwrap_or(false);
    area.remove();
    if let Some(el) = active.and_then(|a| a.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
    }
    ok
}

/// Files from a file list (picker or drop), in order.
pub fn files_of(list: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    let Some(list) = list else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.get(i)).collect()
}

/// Bytes read per slice of a file.
pub const CHUNK: f64 = 1024.0 * 1024.0;

/// Reads a file as UTF-8 text, one `CHUNK` at a time (each slice is a
/// separate promise, so the page keeps painting and answering input), calling
/// `progress(done, total)` after each. Invalid UTF-8 becomes U+FFFD.
pub async fn read_file_text(file: &web_sys::File, mut progress: impl FnMut(f64, f64)) -> Result<String, String> {
    let total = file.size();
    let decoder = web_sys::TextDecoder::new_with_label("utf-8").map_err(|e| format!("{e:?}"))?;
    let stream = web_sys::TextDecodeOptions::new();
    stream.set_stream(true);
    let mut out = String::with_capacity(total.min(512.0 * 1024.0 * 1024.0) as usize);
    let mut at = 0.0;
    while at < total {
        let end = (at + CHUNK).min(total);
        let blob = file.slice_with_f64_and_f64(at, end).map_err(|e| format!("{e:?}"))?;
        let buf = JsFuture::from(blob.array_buffer()).await.map_err(|e| format!("{e:?}"))?;
        let bytes = js_sys::Uint8Array::new(&buf);
        let s = decoder.decode_with_js_u8_array_and_options(&bytes, &stream).map_err(|e| format!("{e:?}"))?;
        out.push_str(&s);
        at = end;
        progress(at, total);
    }
    out.push_str(&decoder.decode().unwrap_or_default());
    Ok(out)
}

/// Waits for the next animation frame and then a task, so whatever the
/// page just changed (a "Diagnosing…" notice) is painted first.
pub async fn next_paint() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let resolve = resolve.clone();
        request_animation_frame(move || {
            set_timeout(
                move || {
                    let _ = resolve.call0(&JsValue::NULL);
                },
                Duration::from_millis(0),
            );
        });
    });
    let _ = JsFuture::from(promise).await;
}
