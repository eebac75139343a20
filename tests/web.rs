//! Browser tests of the page: the real `App` mounted into a fresh element of
//! a headless Chromium page, driven by DOM events.
//!
//! Run: `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test web`
//! (the runner is set in `.cargo/config.toml`; `webdriver.json` adds the
//! Chromium binary and flags).
//!
//! Every test starts from empty saved inputs, English, and no fragment in
//! the address (`fresh_app`), since the page keeps its inputs in
//! localStorage and reads share links from `location.hash`.

#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use roll_doctor_web::app::{App, EXAMPLE, INPUTS_KEY, LANG_KEY};
use std::cell::RefCell;
use std::future::poll_fn;
use std::rc::Rc;
use std::task::{Poll, Waker};
use std::time::Duration;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{
    Element, Event, EventInit, HtmlElement, HtmlInputElement, HtmlTextAreaElement, KeyboardEvent, KeyboardEventInit,
};

wasm_bindgen_test_configure!(run_in_browser);

const EI0006: &str = "EI0006: Getting socket times out.";
const HEALTHY: &str = "[INFO] HCCL(60570,python):2025-04-08-18:07:20.444.436 hccl init success\n";
const LINK_LOOP: &str = "for i in {0..7}; do hccn_tool -i $i -link -g; done";

fn window() -> web_sys::Window {
    web_sys::window().unwrap()
}

fn document() -> web_sys::Document {
    window().document().unwrap()
}

fn storage() -> web_sys::Storage {
    window().local_storage().unwrap().unwrap()
}

fn set_hash(fragment: &str) {
    window().location().set_hash(fragment).unwrap();
}

/// Removes the fragment without a hashchange event.
fn clear_hash() {
    let href = window().location().href().unwrap();
    let base = href.split('#').next().unwrap().to_string();
    window().history().unwrap().replace_state_with_url(&JsValue::NULL, "", Some(&base)).unwrap();
}

/// A new, empty element attached to the body (event delegation needs the
/// element in the document).
fn fresh_root() -> HtmlElement {
    let el: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&el).unwrap();
    el
}

/// Forgets saved inputs and the fragment, chooses English.
fn reset() {
    storage().remove_item(INPUTS_KEY).unwrap();
    storage().set_item(LANG_KEY, "en").unwrap();
    clear_hash();
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

fn fire(el: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    el.dispatch_event(&Event::new_with_event_init_dict(kind, &init).unwrap()).unwrap();
}

/// Types `text` the way a paste does: set the value, fire a bubbling `input`.
fn paste(root: &Element, text: &str) {
    let area = textarea(root);
    area.set_value(text);
    fire(&area, "input");
}

fn ctrl_enter_on(el: &Element) {
    let init = KeyboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_ctrl_key(true);
    init.set_key("Enter");
    let ev = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}

fn ctrl_enter(root: &Element) {
    ctrl_enter_on(&textarea(root));
}

fn click(root: &Element, selector: &str) {
    let el: HtmlElement = root.query_selector(selector).unwrap().expect(selector).unchecked_into();
    el.click();
}

fn text_of(root: &Element) -> String {
    root.text_content().unwrap_or_default()
}

fn rule_ids(root: &Element) -> Vec<String> {
    let list = root.query_selector_all("[data-rule-id]").unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .filter_map(|e| e.get_attribute("data-rule-id"))
        .collect()
}

/// Pastes `text` into the first input and diagnoses at once.
async fn diagnose(root: &Element, text: &str) {
    textarea(root).set_value(text);
    ctrl_enter(root);
    leptos::task::tick().await;
}

#[wasm_bindgen_test]
async fn typing_an_ei0006_log_shows_the_connect_timeout_finding_after_the_debounce() {
    reset();
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
    reset();
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);

    diagnose(&root, EI0006).await;
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
    assert!(t.contains("复制为 Markdown"), "new UI strings are translated too");
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
    reset();
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);

    textarea(&root).set_value(HEALTHY);
    click(&root, r#"button[data-action="diagnose"]"#);
    leptos::task::tick().await;
    let empty = root.query_selector("[data-empty]").unwrap().expect("empty state shown");
    assert!(empty.text_content().unwrap_or_default().contains("No known problem found"));
    assert!(root.query_selector("[data-rule-id]").unwrap().is_none(), "no finding on a healthy log");
    assert!(root.query_selector(r#".seg[data-kind="Log"]"#).unwrap().is_some(), "segment listed as a log");
    assert!(root.query_selector("[data-symptoms]").unwrap().is_some(), "symptoms offered when nothing was found");
    root.remove();
}

#[wasm_bindgen_test]
async fn a_remembered_language_is_used_on_the_next_start() {
    reset();
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
    reset();
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);

    click(&root, r#"button[data-action="example"]"#);
    leptos::task::tick().await;
    assert_eq!(textarea(&root).value(), EXAMPLE, "example pasted");
    let ids = rule_ids(&root);
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
    // the detected parts of the input, with their kinds
    let kinds: Vec<String> = {
        let l = root.query_selector_all(".slot .seg select.chip").unwrap();
        (0..l.length())
            .filter_map(|i| l.item(i))
            .map(|n| n.unchecked_into::<Element>().get_attribute("data-kind").unwrap())
            .collect()
    };
    assert_eq!(kinds, ["hccn-tool", "log"], "a chip per part");

    click(&root, r#"button[data-action="clear"]"#);
    leptos::task::tick().await;
    assert!(root.query_selector("[data-hint]").unwrap().is_some(), "Clear goes back to the hint");
    assert_eq!(textarea(&root).value(), "", "Clear empties the input");
    assert!(storage().get_item(INPUTS_KEY).unwrap().is_none(), "Clear forgets the saved inputs");
    root.remove();
}

#[wasm_bindgen_test]
async fn pasting_a_step_output_adds_an_input_and_the_root_cause_comes_first() {
    reset();
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);
    diagnose(&root, EI0006).await;
    assert_eq!(rule_ids(&root), ["hccl-connect-timeout"]);

    let step = root
        .query_selector(r#"[data-rule-id="hccl-connect-timeout"] .step[data-step-id="link"][data-next]"#)
        .unwrap()
        .expect("the link check is the next open step");
    let out: HtmlTextAreaElement =
        step.query_selector("textarea.step-paste").unwrap().expect("a paste box").unchecked_into();
    out.set_value("link status: UP\nlink status: DOWN\n");
    fire(&out, "input");
    click(&step, r#"button[data-action="add-output"]"#);
    sleep(30).await; // `value` properties are set in a microtask

    let ids = rule_ids(&root);
    assert_eq!(ids.first().map(String::as_str), Some("hccl-link-down"), "the link that is down comes first: {ids:?}");
    assert!(ids.iter().any(|i| i == "hccl-connect-timeout"), "{ids:?}");
    // the output became a second input, named after the step, with the command in front
    let areas = root.query_selector_all("textarea.paste").unwrap();
    assert_eq!(areas.length(), 2, "a second input");
    let second: HtmlTextAreaElement = areas.item(1).unwrap().unchecked_into();
    assert_eq!(second.value(), format!("$ {LINK_LOOP}\nlink status: UP\nlink status: DOWN\n"));
    let labels = root.query_selector_all("input.slot-label").unwrap();
    let label: HtmlInputElement = labels.item(1).unwrap().unchecked_into();
    assert_eq!(label.value(), "Check that every NPU's network link is up");
    // its lines are named by that label in the evidence
    let f = root.query_selector(r#"[data-rule-id="hccl-link-down"]"#).unwrap().unwrap();
    let ev = f.query_selector(".evidence button.ln").unwrap().expect("evidence line").text_content().unwrap();
    assert_eq!(ev, "Check that every NPU's network link is up:3");
    root.remove();
}

#[wasm_bindgen_test]
async fn clicking_an_answer_updates_the_diagnosis_and_can_be_taken_back() {
    reset();
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);
    diagnose(&root, EI0006).await;

    let step = r#"[data-rule-id="hccl-connect-timeout"] .step[data-step-id="link"]"#;
    click(&root, &format!(r#"{step} button[data-answer="some-down"]"#));
    leptos::task::tick().await;
    let ids = rule_ids(&root);
    assert_eq!(ids.first().map(String::as_str), Some("hccl-link-down"), "answer adds the fact: {ids:?}");
    let s = root.query_selector(step).unwrap().unwrap();
    assert_eq!(s.get_attribute("data-state").as_deref(), Some("answered"));
    let t = s.text_content().unwrap();
    assert!(t.contains("Your answer") && t.contains("Some card is DOWN"), "the clicked answer is shown: {t}");
    let next = root
        .query_selector(r#"[data-rule-id="hccl-connect-timeout"] .step[data-next]"#)
        .unwrap()
        .expect("a next step")
        .get_attribute("data-step-id");
    assert_eq!(next.as_deref(), Some("ip"), "the next open step moves on");
    let saved = storage().get_item(INPUTS_KEY).unwrap().unwrap();
    assert!(saved.contains("some-down"), "answers are saved: {saved}");

    click(&root, &format!(r#"{step} button[data-action="change-answer"]"#));
    leptos::task::tick().await;
    assert_eq!(rule_ids(&root), ["hccl-connect-timeout"], "taking the answer back");
    root.remove();
}

#[wasm_bindgen_test]
async fn starting_from_a_symptom_walks_its_tree() {
    reset();
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);
    let groups = root.query_selector_all("[data-symptoms] details.sym-group").unwrap().length();
    assert!(groups >= 6, "symptoms grouped by area: {groups}");
    let t = text_of(&root);
    assert!(t.contains("HCCL / network") && t.contains("Memory & performance"), "group names");
    assert!(t.contains("HCCL 建链超时（EI0006）"), "titles in both languages");

    click(&root, r#"button[data-symptom="hccl-connect-timeout"]"#);
    leptos::task::tick().await;
    let f = root.query_selector(r#"[data-rule-id="hccl-connect-timeout"]"#).unwrap().expect("the symptom's finding");
    assert!(f.has_attribute("data-from-symptom"), "marked as the user's symptom");
    assert!(f.query_selector(".step[data-next] button[data-answer]").unwrap().is_some(), "first question asked");

    click(&root, r#"[data-rule-id="hccl-connect-timeout"] .step[data-step-id="link"] button[data-answer="some-down"]"#);
    leptos::task::tick().await;
    assert_eq!(rule_ids(&root), ["hccl-link-down", "hccl-connect-timeout"], "answers work the same way");

    click(&root, r#"[data-rule-id="hccl-connect-timeout"] button[data-action="remove-symptom"]"#);
    leptos::task::tick().await;
    assert!(root.query_selector("[data-hint]").unwrap().is_some(), "without the symptom, back to the start");
    root.remove();
}

/// Makes a share link in one page and opens it in a fresh one.
#[wasm_bindgen_test]
async fn a_share_link_reopens_the_same_findings_in_the_same_order() {
    reset();
    let (url, ids) = {
        let root = fresh_root();
        let _mounted = leptos::mount::mount_to(root.clone(), App);
        click(&root, r#"button[data-action="example"]"#);
        leptos::task::tick().await;
        click(&root, r#"[data-rule-id="hccl-connect-timeout"] .step[data-next] button[data-answer]"#);
        leptos::task::tick().await;
        click(&root, r#"button[data-action="share"]"#);
        leptos::task::tick().await;
        let share = root.query_selector("[data-share]").unwrap().expect("share panel");
        let url: HtmlInputElement = share.query_selector("input.share-url").unwrap().unwrap().unchecked_into();
        let url = url.value();
        let json = share.query_selector("pre.payload").unwrap().unwrap().text_content().unwrap();
        assert!(json.contains("\"findings\"") && !json.contains("Getting socket"), "preview, no raw text: {json}");
        let len = share.query_selector("[data-len]").unwrap().unwrap().get_attribute("data-len").unwrap();
        assert_eq!(len, url.chars().count().to_string(), "length shown");
        let ids = rule_ids(&root);
        root.remove();
        (url, ids)
    };
    let fragment = url.split_once('#').expect("a fragment").1.to_string();
    assert!(fragment.starts_with("v1="), "{fragment}");

    storage().set_item(INPUTS_KEY, r#"{"v":1,"inputs":[{"label":"mine","text":"my own text"}]}"#).unwrap();
    set_hash(&fragment);
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);
    leptos::task::tick().await;
    assert!(root.query_selector("[data-shared]").unwrap().is_some(), "shared banner");
    assert_eq!(rule_ids(&root), ids, "same findings, same order");
    assert!(root.query_selector("[data-answer], textarea.step-paste").unwrap().is_none(), "read-only");
    assert!(text_of(&root).contains("Your answer"), "the sender's answer is shown");
    assert_eq!(textarea(&root).value(), "my own text", "local inputs untouched");

    click(&root, r#"button[data-action="close-shared"]"#);
    leptos::task::tick().await;
    assert!(root.query_selector("[data-shared]").unwrap().is_none());
    assert_eq!(window().location().hash().unwrap(), "", "fragment removed");
    root.remove();
    reset();
}

#[wasm_bindgen_test]
async fn a_corrupt_link_says_so_and_keeps_the_local_input() {
    reset();
    {
        let root = fresh_root();
        let _mounted = leptos::mount::mount_to(root.clone(), App);
        diagnose(&root, EI0006).await;
        root.remove();
    }
    let saved = storage().get_item(INPUTS_KEY).unwrap().expect("saved");
    for (fragment, words) in [("v1=q1YqU7Iy1FEqKs1JLVayUsrPSVHSUcpJzEsHclLzgOy0zLyU", "damaged"), ("v9=abc", "newer")] {
        set_hash(fragment);
        let root = fresh_root();
        let _mounted = leptos::mount::mount_to(root.clone(), App);
        leptos::task::tick().await;
        let msg = root.query_selector("[data-link-error]").unwrap().expect("a message");
        let t = msg.text_content().unwrap();
        assert!(t.contains("cannot be opened") && t.contains(words) && t.contains("untouched"), "{t}");
        assert_eq!(textarea(&root).value(), EI0006, "input restored");
        assert!(wait_for(&root, r#"[data-rule-id="hccl-connect-timeout"]"#, 1000).await.is_some(), "and diagnosed");
        assert_eq!(storage().get_item(INPUTS_KEY).unwrap().as_deref(), Some(saved.as_str()), "saved inputs untouched");
        click(&root, r#"button[data-action="dismiss-link-error"]"#);
        leptos::task::tick().await;
        assert!(root.query_selector("[data-link-error]").unwrap().is_none());
        root.remove();
    }
    // in Chinese too
    storage().set_item(LANG_KEY, "zh").unwrap();
    set_hash("v1=!!!!");
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);
    leptos::task::tick().await;
    let t = root.query_selector("[data-link-error]").unwrap().expect("a message").text_content().unwrap();
    assert!(t.contains("无法打开该分享链接"), "{t}");
    root.remove();
    reset();
}

#[wasm_bindgen_test]
async fn pasted_html_and_script_are_only_text() {
    reset();
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);
    let evil = "<script>window.__rd_pwned = 1</script><img src=x onerror=\"window.__rd_pwned = 2\"> EI0006: Getting socket times out. <b>bold</b>";
    diagnose(&root, evil).await;
    let f = root.query_selector(r#"[data-rule-id="hccl-connect-timeout"]"#).unwrap().expect("diagnosed");
    let line = f.query_selector(".evidence .lt").unwrap().unwrap();
    assert_eq!(line.text_content().unwrap(), evil, "shown as text");
    assert_eq!(line.child_element_count(), 0, "no element made from the paste");
    assert!(root.query_selector("script, img, b").unwrap().is_none(), "no script, img or b element");
    sleep(50).await;
    let pwned = js_sys::Reflect::get(&window(), &JsValue::from_str("__rd_pwned")).unwrap();
    assert!(pwned.is_undefined(), "nothing ran");
    root.remove();
}

#[wasm_bindgen_test]
async fn an_evidence_line_opens_the_log_view_at_that_line() {
    reset();
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);
    click(&root, r#"button[data-action="example"]"#);
    leptos::task::tick().await;
    click(&root, r#"[data-rule-id="hccl-connect-timeout"] .evidence button.ln[data-line="12"]"#);
    leptos::task::tick().await;
    let view = root.query_selector("[data-logview]").unwrap().expect("log view open");
    let hl = view.query_selector("li.hl").unwrap().expect("a highlighted line");
    assert_eq!(hl.get_attribute("data-line").as_deref(), Some("12"));
    assert!(hl.text_content().unwrap().contains("EI0006: [PID: 1292363]"));
    let lines = view.query_selector_all("li").unwrap().length();
    assert_eq!(lines, EXAMPLE.split('\n').count() as u32, "the whole (short) input, numbered");
    assert!(view.query_selector(r#"li.ev[data-line="4"]"#).unwrap().is_some(), "other evidence marked");
    let init = KeyboardEventInit::new();
    init.set_bubbles(true);
    init.set_key("Escape");
    view.dispatch_event(&KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()).unwrap();
    leptos::task::tick().await;
    assert!(root.query_selector("[data-logview]").unwrap().is_none(), "Escape closes it");
    root.remove();
}

#[wasm_bindgen_test]
async fn inputs_survive_a_reload_with_labels_and_kind_choices() {
    reset();
    {
        let root = fresh_root();
        let _mounted = leptos::mount::mount_to(root.clone(), App);
        diagnose(&root, EI0006).await;
        click(&root, r#"button[data-action="add-input"]"#);
        leptos::task::tick().await;
        let areas = root.query_selector_all("textarea.paste").unwrap();
        assert_eq!(areas.length(), 2);
        let second: HtmlTextAreaElement = areas.item(1).unwrap().unchecked_into();
        second.set_value("RuntimeError: worker 3 died unexpectedly\nRuntimeError: worker 7 died unexpectedly\n");
        let label: HtmlInputElement =
            root.query_selector_all("input.slot-label").unwrap().item(1).unwrap().unchecked_into();
        label.set_value("node-2");
        fire(&label, "input");
        ctrl_enter(&root);
        leptos::task::tick().await;
        let un = root.query_selector("[data-unexplained]").unwrap().expect("unexplained lines listed");
        let t = un.text_content().unwrap();
        assert!(t.contains("worker 3 died") && t.contains("×2") && t.contains("node-2:1"), "grouped with a count: {t}");
        // choose a kind: the EI0006 line as an env dump is not scanned
        let sel: web_sys::HtmlSelectElement =
            root.query_selector(r#".slot .seg select.chip"#).unwrap().unwrap().unchecked_into();
        sel.set_value("env");
        fire(&sel, "change");
        leptos::task::tick().await;
        assert!(rule_ids(&root).is_empty(), "overridden kind is used: {:?}", rule_ids(&root));
        assert!(root.query_selector(".slot .seg select.chip.chosen").unwrap().is_some(), "marked as the user's choice");
        root.remove();
    }
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);
    leptos::task::tick().await;
    let areas = root.query_selector_all("textarea.paste").unwrap();
    assert_eq!(areas.length(), 2, "both inputs restored");
    assert_eq!(areas.item(0).unwrap().unchecked_into::<HtmlTextAreaElement>().value(), EI0006);
    let label: HtmlInputElement =
        root.query_selector_all("input.slot-label").unwrap().item(1).unwrap().unchecked_into();
    assert_eq!(label.value(), "node-2");
    let un = wait_for(&root, "[data-unexplained]", 1000).await.expect("diagnosed after the reload");
    assert!(un.text_content().unwrap().contains("×2"));
    let chip = root.query_selector(".slot .seg select.chip").unwrap().unwrap();
    assert_eq!(chip.get_attribute("data-kind").as_deref(), Some("env"), "kind choice restored");
    root.remove();
    reset();
}

#[wasm_bindgen_test]
async fn an_oversized_input_is_diagnosed_but_not_saved() {
    reset();
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);
    let mut big = String::from("EI0006: Getting socket times out.\n");
    while big.len() < 2_100_000 {
        big.push_str("[INFO] step 17 reward/mean: 0.4321 actor/pg_loss: -0.0123 timing/gen: 45.6\n");
    }
    textarea(&root).set_value(&big);
    ctrl_enter(&root);
    let f = wait_for(&root, r#"[data-rule-id="hccl-connect-timeout"]"#, 5000).await;
    assert!(f.is_some(), "large input diagnosed");
    let note = root.query_selector(r#"[data-note="unsaved"]"#).unwrap().expect("a visible note");
    assert!(note.text_content().unwrap().contains("Too large to keep"), "note text");
    let saved = storage().get_item(INPUTS_KEY).unwrap().unwrap_or_default();
    assert!(saved.len() < 10_000 && saved.contains("\"omitted\""), "text left out of storage: {} bytes", saved.len());
    root.remove();
    reset();
}

/// A link made with another rule pack, naming a finding the current rules
/// no longer produce: both are said in the banner.
#[wasm_bindgen_test]
async fn a_link_from_another_rule_pack_says_what_changed() {
    reset();
    use roll_doctor_engine::{share, Input, Lang, Session};
    let inputs = [Input { text: EI0006.to_string(), ..Input::default() }];
    let (mut p, _) = share::build(&inputs, &Session::default(), Lang::En, false);
    p.rules = "1-00000000".into();
    p.findings.push("a-rule-that-was-removed".into());
    set_hash(&share::encode(&p));
    let root = fresh_root();
    let _mounted = leptos::mount::mount_to(root.clone(), App);
    leptos::task::tick().await;
    let banner = root.query_selector("[data-shared]").unwrap().expect("shared banner").text_content().unwrap();
    assert!(banner.contains("another rule pack (1-00000000)"), "{banner}");
    assert!(banner.contains("a-rule-that-was-removed"), "{banner}");
    assert!(banner.contains("line numbers only"), "no excerpts: {banner}");
    assert_eq!(rule_ids(&root), ["hccl-connect-timeout"]);
    let line = root.query_selector("[data-rule-id] .evidence li").unwrap().unwrap().text_content().unwrap();
    assert!(line.starts_with('1') && line.contains("text not shared"), "{line}");
    root.remove();
    reset();
}
