//! Browser plumbing (wasm32 only): storage that may be missing, the
//! clipboard with its plain-http fallback, the address bar, focus and
//! scrolling, downloads, reading Blobs in slices. Nothing here knows about
//! diagnoses.

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

/// Milliseconds since the page (or worker) started; works in both.
pub fn now_ms() -> f64 {
    let perf = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance")).ok();
    perf.and_then(|p| p.dyn_into::<web_sys::Performance>().ok()).map(|p| p.now()).unwrap_or(0.0)
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

/// Reads a Blob as UTF-8 text, `slice` bytes at a time (each slice is a
/// separate promise), calling `progress(done, total)` after each. Invalid
/// UTF-8 becomes U+FFFD.
pub async fn read_blob_text(
    blob: &web_sys::Blob,
    slice: f64,
    mut progress: impl FnMut(f64, f64),
) -> Result<String, String> {
    let total = blob.size();
    let mut bytes: Vec<u8> = Vec::with_capacity(total.min(1024.0 * 1024.0 * 1024.0) as usize);
    let mut at = 0.0;
    while at < total {
        let end = (at + slice).min(total);
        let part = blob.slice_with_f64_and_f64(at, end).map_err(|e| format!("{e:?}"))?;
        let buf = JsFuture::from(part.array_buffer()).await.map_err(|e| format!("{e:?}"))?;
        let arr = js_sys::Uint8Array::new(&buf);
        let n = bytes.len();
        bytes.resize(n + arr.length() as usize, 0);
        arr.copy_to(&mut bytes[n..]);
        at = end;
        progress(at, total);
    }
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// A Blob holding `text` (a large paste is kept as one, like a file).
pub fn text_blob(text: &str) -> Option<web_sys::Blob> {
    blob_of(text, "text/plain;charset=utf-8")
}

fn blob_of(text: &str, mime: &str) -> Option<web_sys::Blob> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).ok()
}

/// Offers `text` as a file download (an object URL: no request is made).
pub fn download(name: &str, text: &str, mime: &str) -> bool {
    blob_of(text, mime).is_some_and(|blob| download_blob(name, &blob))
}

/// Offers `blob` as a file download named `name`.
pub fn download_blob(name: &str, blob: &web_sys::Blob) -> bool {
    let Some(doc) = document() else { return false };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else { return false };
    let Ok(a) = doc.create_element("a") else { return false };
    let Ok(a) = a.dyn_into::<web_sys::HtmlAnchorElement>() else { return false };
    a.set_href(&url);
    a.set_download(name);
    a.set_class_name("offscreen");
    if let Some(body) = doc.body() {
        let _ = body.append_child(&a);
    }
    a.click();
    a.remove();
    let u = url.clone();
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&u);
        },
        Duration::from_secs(30),
    );
    true
}

/// A global the loader sets (`rdWorkerSource`), as a string.
pub fn global_string(name: &str) -> Option<String> {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str(name)).ok().and_then(|v| v.as_string())
}

/// Whether the page is narrow (a phone): results are then scrolled to.
pub fn is_narrow() -> bool {
    window().and_then(|w| w.match_media("(max-width: 760px)").ok().flatten()).is_some_and(|m| m.matches())
}

/// The element matching `selector`, if any.
pub fn query(selector: &str) -> Option<web_sys::HtmlElement> {
    document()?.query_selector(selector).ok().flatten()?.dyn_into::<web_sys::HtmlElement>().ok()
}

/// Focuses the element matching `selector` (after the next paint), and
/// with `scroll` brings it to the top of the viewport; true when found.
pub fn focus(selector: &str, scroll: bool) -> bool {
    let Some(el) = query(selector) else { return false };
    if scroll {
        // The whole finding (its border and badge too) goes to the top.
        let target: web_sys::Element = el.closest(".finding").ok().flatten().unwrap_or_else(|| el.clone().into());
        let opts = web_sys::ScrollIntoViewOptions::new();
        opts.set_block(web_sys::ScrollLogicalPosition::Start);
        target.scroll_into_view_with_scroll_into_view_options(&opts);
    }
    let opts = web_sys::FocusOptions::new();
    opts.set_prevent_scroll(scroll);
    let _ = el.focus_with_options(&opts);
    true
}

/// The element that has the focus.
pub fn active_element() -> Option<web_sys::HtmlElement> {
    document()?.active_element()?.dyn_into::<web_sys::HtmlElement>().ok()
}

/// Whether the focus is in a field the user types into (a text input, a
/// textarea, a select or editable text).
pub fn typing_in_a_field() -> bool {
    let Some(a) = active_element() else { return false };
    match a.tag_name().as_str() {
        "TEXTAREA" | "SELECT" => true,
        "INPUT" => !matches!(
            a.get_attribute("type").unwrap_or_default().as_str(),
            "button" | "checkbox" | "radio" | "submit" | "reset" | "file"
        ),
        _ => a.is_content_editable(),
    }
}

/// Records a performance mark (the browser tests read them).
pub fn mark(name: &str) {
    if let Some(p) = window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}
