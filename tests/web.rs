//! Browser tests of the page: the real `App` mounted into a fresh element of
//! a headless Chromium page, driven by DOM events.
//!
//! Run: `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test web`
//! (the runner is set in `.cargo/config.toml`; `webdriver.json` adds the
//! Chromium binary and flags).

#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use roll_doctor_web::app::{App, LANG_KEY};
use std::cell::RefCell;
use std::future::poll_fn;
use std::rc::Rc;
use std::task::{Poll, Waker};
use std::time::Duration;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, EventInit, HtmlElement, HtmlTextAreaElement, KeyboardEvent, KeyboardEventInit};

wasm_bindgen_test_configure!(run_in_browser);

const EI0006: &str = "EI0006: Getting socket times out.";
const HEALTHY: &str = "[INFO] HCCL(60570,python):2025-04-08-18:07:20.444.436 hccl init success\n";

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

/// A new, empty element attached to the body (event delegation needs the
/// element in the document).
fn fresh_root() -> HtmlElement {
    let el: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&el).unwrap();
    el
}

/// Waits `ms` milliseconds of real time (timers run meanwhile).
async fn sleep(ms: u64) {
    let state: Rc<RefCell<(bool, Option<Waker>)>> = Rc::new(RefCell::new((false, None)));
    let s = state.clone();
    set_timeout(
        move || {
            let waker = {
                let mut st = s.borrow_mut();
                st.0 = true;
                st.1.take()
            };
            if let Some(w) = waker {
                w.wake();
            }
        },
        Duration::from_millis(ms),
    );
    poll_fn(move |cx| {
        let mut st = state.borrow_mut();
        if st.0 {
            Poll::Ready(())
        } else {
            st.1 = Some(cx.waker().clone());
            Poll::Pending
        }
    })
    .await
}

/// Polls `selector` under `root` every 20 ms for up to `ms`.
async fn wait_for(root: &Element, selector: &str, ms: u64) -> Option<Element> {
    let mut waited = 0;
    loop {
        if let Some(el) = root.query_selector(selector).unwrap() {
            return Some(el);
        }
        if waited >= ms {
            return None;
        }
        sleep(20).await;
        waited += 20;
    }
}

fn textarea(root: &Element) -> HtmlTextAreaElement {
    root.query_selector("textarea").unwrap().expect("a textarea").unchecked_into()
}

/// Types `text` the way a paste does: set the value, fire a bubbling `input`.
fn paste(root: &Element, text: &str) {
    let area = textarea(root);
    area.set_value(text);
    let init = EventInit::new();
    init.set_bubbles(true);
    area.dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap()).unwrap();
}

fn ctrl_enter(root: &Element) {
    let init = KeyboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_ctrl_key(true);
    init.set_key("Enter");
    let ev = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    textarea(root).dispatch_event(&ev).unwrap();
}

fn click(root: &Element, selector: &str) {
    let el: HtmlElement = root.query_selector(selector).unwrap().expect(selector).unchecked_into();
    el.click();
}

fn text_of(root: &Element) -> String {
    root.text_content().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn typing_an_ei0006_log_shows_the_connect_timeout_finding_after_the_debounce() {
    storage().set_item(LANG_KEY, "en").unwrap();
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);
    assert!(root.query_selector("[data-hint]").unwrap().is_some(), "initial hint shown");

    paste(&root, EI0006);
    leptos::task::tick().await;
    assert!(root.query_selector("[data-rule-id]").unwrap().is_none(), "diagnosis waits for the debounce");

    let f = wait_for(&root, r#"[data-rule-id="hccl-connect-timeout"]"#, 2000).await;
    let f = f.expect("hccl-connect-timeout finding rendered after the debounce");
    assert_eq!(f.get_attribute("data-severity").as_deref(), Some("error"));
    let t = f.text_content().unwrap_or_default();
    assert!(t.contains("HCCL link establishment timed out (EI0006)"), "English title: {t}");
    assert!(t.contains("Getting socket times out."), "evidence line shown");
    assert!(t.contains("export HCCL_CONNECT_TIMEOUT=3600"), "fix command shown");
    assert!(f.query_selector(".fixes .code button.copy").unwrap().is_some(), "fix has a Copy button");
    assert!(root.query_selector("[data-hint]").unwrap().is_none(), "hint replaced by the report");
    root.remove();
}

#[wasm_bindgen_test]
async fn ctrl_enter_diagnoses_at_once_and_the_language_switch_shows_chinese() {
    storage().set_item(LANG_KEY, "en").unwrap();
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);

    let area = textarea(&root);
    area.set_value(EI0006);
    ctrl_enter(&root);
    leptos::task::tick().await;
    assert!(
        root.query_selector(r#"[data-rule-id="hccl-connect-timeout"]"#).unwrap().is_some(),
        "Ctrl+Enter diagnoses without waiting"
    );

    click(&root, r#"button[data-lang="zh"]"#);
    leptos::task::tick().await;
    let t = text_of(&root);
    assert!(t.contains("HCCL 建链超时（EI0006）"), "Chinese title after the switch: {t}");
    assert!(!t.contains("HCCL link establishment timed out"), "no English title left");
    assert!(t.contains("诊断"), "Chinese button text");
    let html = document().document_element().unwrap();
    assert_eq!(html.get_attribute("lang").as_deref(), Some("zh-CN"));
    assert_eq!(storage().get_item(LANG_KEY).unwrap().as_deref(), Some("zh"), "choice remembered");

    click(&root, r#"button[data-lang="en"]"#);
    leptos::task::tick().await;
    assert!(text_of(&root).contains("HCCL link establishment timed out (EI0006)"));
    assert_eq!(html.get_attribute("lang").as_deref(), Some("en"));
    root.remove();
}

#[wasm_bindgen_test]
async fn a_healthy_input_shows_the_empty_state() {
    storage().set_item(LANG_KEY, "en").unwrap();
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);

    textarea(&root).set_value(HEALTHY);
    click(&root, r#"button[data-action="diagnose"]"#);
    leptos::task::tick().await;
    let empty = root.query_selector("[data-empty]").unwrap().expect("empty state shown");
    assert!(empty.text_content().unwrap_or_default().contains("No known problem found"));
    assert!(root.query_selector("[data-rule-id]").unwrap().is_none(), "no finding on a healthy log");
    assert!(root.query_selector(r#".seg[data-kind="Log"]"#).unwrap().is_some(), "segment listed as a log");
    root.remove();
}

#[wasm_bindgen_test]
async fn a_remembered_language_is_used_on_the_next_start() {
    storage().set_item(LANG_KEY, "zh").unwrap();
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);
    leptos::task::tick().await;
    let pressed = root.query_selector(r#"button[data-lang="zh"][aria-pressed="true"]"#).unwrap();
    assert!(pressed.is_some(), "Chinese selected from localStorage");
    assert!(textarea(&root).placeholder().contains("粘贴"), "Chinese placeholder");
    storage().set_item(LANG_KEY, "en").unwrap();
    root.remove();
}

#[wasm_bindgen_test]
async fn the_example_shows_the_root_cause_first_and_an_answered_step() {
    storage().set_item(LANG_KEY, "en").unwrap();
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);

    click(&root, r#"button[data-action="example"]"#);
    leptos::task::tick().await;
    assert_eq!(textarea(&root).value(), roll_doctor_web::app::EXAMPLE, "example pasted");
    let ids: Vec<String> = {
        let list = root.query_selector_all("[data-rule-id]").unwrap();
        (0..list.length())
            .filter_map(|i| list.item(i))
            .filter_map(|n| n.dyn_into::<Element>().ok())
            .filter_map(|e| e.get_attribute("data-rule-id"))
            .collect()
    };
    // The engine's order is kept: the link that is down comes before the timeout it explains.
    let down = ids.iter().position(|i| i == "hccl-link-down").expect("hccl-link-down shown");
    let timeout = ids.iter().position(|i| i == "hccl-connect-timeout").expect("hccl-connect-timeout shown");
    assert!(down < timeout, "root cause first: {ids:?}");
    let f = root.query_selector(r#"[data-rule-id="hccl-connect-timeout"]"#).unwrap().unwrap();
    assert!(
        f.query_selector(r#".explained [data-cause="hccl-link-down"]"#).unwrap().is_some(),
        "\"likely a consequence of\" names the cause"
    );
    let answered = f.query_selector(r#".step[data-state="answered"]"#).unwrap().expect("an answered step");
    let t = answered.text_content().unwrap_or_default();
    assert!(
        t.contains("answered by your input") && t.contains("link status: DOWN"),
        "answered step shows its evidence: {t}"
    );
    assert!(f.query_selector(r#".step[data-state="ask"]"#).unwrap().is_some(), "other steps still ask");

    click(&root, r#"button[data-action="clear"]"#);
    leptos::task::tick().await;
    assert!(root.query_selector("[data-hint]").unwrap().is_some(), "Clear goes back to the hint");
    root.remove();
}
