//! What the user does, and what the engine answers (wasm32 only). Each
//! action changes the state ([`Ctx`]) and, when the diagnosis must change,
//! sends one request to the engine ([`crate::engine`]); [`Ctx::on_reply`]
//! puts the answer on the page and moves the focus to what a keyboard
//! user needs next.

use crate::engine::Engine;
use crate::i18n::{html_lang, initial_lang, t, Lang, S};
use crate::model::{Phase, Reply, Request, WireInput};
use crate::persist::{self, Saved, SavedInput, MAX_SAVED};
use crate::state::*;
use crate::web::{self, storage_get, storage_set, window};
use leptos::prelude::*;
use roll_doctor_engine::{AnswerRef, InputKind, Session};
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// The paste behind "Load an example": a short terminal transcript where
/// one card's link is down and the plog shows the timeout it causes.
pub const EXAMPLE: &str = "$ for i in {0..7}; do hccn_tool -i $i -link -g; done
link status: UP
link status: UP
link status: DOWN
link status: UP
link status: UP
link status: UP
link status: UP
link status: UP
$ tail -n 2 /root/ascend/log/debug/plog/plog-1292363_20250408180520.log
[ERROR] HCCL(60570,python):2025-04-08-18:07:20.444.436 [socket_manager.cc:200] [1][Wait] wait socket establish timeout, role[1] rank[12] timeout[120]
EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the reason for the rank being stuck
";

/// Lines shown before and after the target line in the log view.
pub const LOG_CONTEXT: u32 = 300;

/// The language to start in: the remembered choice, else the browser's.
pub fn load_lang() -> (Lang, bool) {
    let stored = storage_get(LANG_KEY);
    let browser = window().and_then(|w| w.navigator().language());
    (initial_lang(stored.as_deref(), browser.as_deref()), stored.is_some())
}

/// Sets `<html lang>` and the document title.
pub fn apply_lang(lang: Lang) {
    if let Some(doc) = web::document() {
        if let Some(root) = doc.document_element() {
            let _ = root.set_attribute("lang", html_lang(lang));
        }
        doc.set_title(t(lang, S::DocTitle));
    }
}

/// Logs panics to the console and shows a bilingual notice, since a panic
/// in wasm leaves the page dead.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&JsValue::from_str(&info.to_string()));
        let Some(doc) = web::document() else { return };
        let Some(body) = doc.body() else { return };
        if let Ok(div) = doc.create_element("div") {
            div.set_class_name("crash");
            div.set_text_content(Some(&format!("{} {}", S::Crash.en(), S::Crash.zh())));
            let _ = body.prepend_with_node_1(&div);
        }
    }));
}

/// FNV-1a of a few numbers: identifies a Blob's content for the worker's cache.
fn blob_key(id: u32, bytes: f64, nonce: f64) -> u64 {
    crate::model::checksum(format!("{id}:{bytes}:{nonce}").as_bytes()) | 1
}

/// The page address share links start with: the configured base, else this
/// page's own address when it is an http(s) page; None on a `file://`
/// page with no base (the link is then only the code).
pub fn link_base(configured: &str) -> Option<String> {
    let c = configured.trim();
    if c.starts_with("https://") || c.starts_with("http://") {
        return Some(c.split('#').next().unwrap_or(c).to_string());
    }
    let here = web::page_address();
    (here.starts_with("https://") || here.starts_with("http://")).then_some(here)
}

impl Ctx {
    fn engine(&self) -> Option<Rc<Engine>> {
        self.engine.try_get_value().flatten()
    }

    fn send(&self, req: Request, blobs: &[web_sys::Blob]) {
        if let Some(e) = self.engine() {
            e.send(&req, blobs);
        }
    }

    /// Starts the engine and loads the saved rule files into it.
    pub fn start_engine(&self) {
        let ctx = *self;
        let on_reply = Rc::new(move |r: Reply| {
            if ctx.alive() {
                ctx.on_reply(r)
            }
        });
        let on_failure = Rc::new(move || {
            if ctx.alive() {
                ctx.busy.set(None);
                ctx.notice.set(Some(Notice::EngineFailed));
            }
        });
        self.engine.set_value(Some(Engine::start(on_reply, on_failure)));
        let files = persist::load_rules();
        self.rules.update(|r| r.files = files.clone());
        self.send(Request::Rules { files }, &[]);
    }

    /// Whether the engine runs in a Web Worker.
    pub fn engine_in_worker(&self) -> bool {
        self.engine().is_some_and(|e| e.in_worker())
    }

    /// Restores the saved inputs, session and settings (or starts with one empty input).
    pub fn restore(&self) {
        let saved = persist::load().unwrap_or_default();
        let mut slots = Vec::new();
        for s in &saved.inputs {
            let slot = self.new_slot(&s.label, s.text.clone());
            slot.overrides.set(s.overrides.clone());
            slot.omitted.set(s.omitted);
            slots.push(slot);
        }
        if slots.is_empty() {
            slots.push(self.new_slot("", String::new()));
        }
        self.slots.set(slots);
        self.session.set(saved.session);
        self.share_base.set(storage_get(BASE_KEY).unwrap_or_default());
    }

    /// Whether there is anything to diagnose.
    pub fn has_inputs(&self) -> bool {
        self.slots
            .get_untracked()
            .iter()
            .any(|s| s.card.get_untracked().is_some() || s.text.with_value(|t| !t.trim().is_empty()))
            || !self.session.get_untracked().symptoms.is_empty()
    }

    /// Reads every textarea into its slot.
    fn sync_from_page(&self) {
        for slot in self.slots.get_untracked() {
            if slot.card.get_untracked().is_some() {
                continue;
            }
            if let Some(el) = slot.area.get_untracked() {
                let v = el.value();
                if slot.text.with_value(|t| *t != v) {
                    slot.text.set_value(v);
                }
            }
        }
    }

    /// Makes `slot` a card holding `blob`.
    fn set_card(&self, slot: Slot, name: Option<String>, blob: web_sys::Blob) {
        let bytes = blob.size();
        slot.key.set_value(blob_key(slot.id, bytes, web::now_ms()));
        slot.blob.set_value(Some(blob));
        slot.text.set_value(String::new());
        slot.card.set(Some(FileCard { name, bytes: bytes as u64, lines: None }));
    }

    /// Moves texts too large to edit out of their textareas into cards.
    fn card_oversized(&self) {
        for slot in self.slots.get_untracked() {
            if slot.card.get_untracked().is_some() || slot.text.with_value(|t| t.len() <= CARD_LIMIT) {
                continue;
            }
            if let Some(blob) = slot.text.with_value(|t| web::text_blob(t)) {
                self.set_card(slot, None, blob);
            }
        }
    }

    /// The engine inputs (non-empty slots), with the Blobs they name, the
    /// bytes in all, and the name of the largest.
    fn wire_inputs(&self) -> (Vec<WireInput>, Vec<web_sys::Blob>, u64, String) {
        let (mut inputs, mut blobs, mut bytes) = (Vec::new(), Vec::new(), 0u64);
        let (mut name, mut largest) = (String::new(), 0u64);
        let lang = self.lang.get_untracked();
        for slot in self.slots.get_untracked() {
            let label = slot.label.get_untracked();
            // A labelled input is one node's output (`node-3`, a dropped `node-3.txt`): the
            // label names the node. (A bundle's own node markers win: see `Host::diagnose`.)
            let node = crate::model::node_of_label(&label);
            let mut w = WireInput {
                slot: slot.id,
                label: label.clone(),
                node,
                overrides: slot.overrides.get_untracked(),
                ..WireInput::default()
            };
            let size;
            if let (Some(card), Some(blob)) = (slot.card.get_untracked(), slot.blob.get_value()) {
                size = card.bytes;
                w.blob = Some(blobs.len() as u32);
                w.key = slot.key.get_value();
                w.name = card.name.clone().unwrap_or_else(|| t(lang, S::PastedText).to_string());
                blobs.push(blob);
            } else {
                let text = slot.text.with_value(|t| if t.trim().is_empty() { None } else { Some(t.clone()) });
                let Some(text) = text else { continue };
                size = text.len() as u64;
                w.name = if label.trim().is_empty() { t(lang, S::PastedText).to_string() } else { label.clone() };
                w.text = Some(text);
            }
            if size >= largest {
                largest = size;
                name = w.name.clone();
            }
            bytes += size;
            inputs.push(w);
        }
        (inputs, blobs, bytes, name)
    }

    fn cancel_debounce(&self) {
        if let Some(Some(h)) = self.pending.try_get_value() {
            h.clear();
        }
        let _ = self.pending.try_set_value(None);
    }

    /// Reads the inputs and diagnoses them with the session, now; `focus`
    /// says where the focus goes once the findings are on the page.
    pub fn diagnose(&self, focus: Option<FocusNext>) {
        self.cancel_debounce();
        if !self.alive() {
            return;
        }
        self.sync_from_page();
        self.card_oversized();
        let (inputs, blobs, bytes, name) = self.wire_inputs();
        let session = self.session.get_untracked();
        self.share_out.set(None);
        if inputs.is_empty() && session.symptoms.is_empty() {
            self.next_seq();
            self.diagnosis.set(None);
            self.busy.set(None);
            self.send(Request::Forget, &[]);
            self.save();
            return;
        }
        let seq = self.next_seq();
        if focus.is_some() {
            self.focus_next.set_value(focus);
        }
        self.engine_fresh.set_value(false);
        let big = bytes >= BIG || !blobs.is_empty();
        self.busy.set(Some(Busy { seq, phase: Phase::Diagnosing, name, done: 0.0, total: bytes as f64, big }));
        self.send(Request::Diagnose { seq, inputs, session }, &blobs);
        self.save();
    }

    /// The Diagnose button and Ctrl+Enter: diagnose at once; on a phone the
    /// page then scrolls to the first finding.
    pub fn diagnose_now(&self) {
        self.close_shared();
        let narrow = web::is_narrow();
        self.diagnose(Some(FocusNext::FirstFinding { scroll: narrow }));
    }

    /// Diagnoses again with the same inputs and a changed session.
    fn reevaluate(&self, focus: Option<FocusNext>) {
        if self.engine_fresh.get_value() || self.diagnosis.get_untracked().is_none() {
            return self.diagnose(focus);
        }
        let session = self.session.get_untracked();
        if !self.has_inputs() {
            return self.diagnose(focus);
        }
        let seq = self.next_seq();
        if focus.is_some() {
            self.focus_next.set_value(focus);
        }
        self.share_out.set(None);
        self.send(Request::Evaluate { seq, session }, &[]);
        self.save();
    }

    /// The user changed an input: diagnose after a pause in typing.
    pub fn user_edit(&self) {
        self.close_shared();
        self.cancel_debounce();
        if matches!(self.notice.get_untracked(), Some(Notice::Cleared)) {
            self.notice.set(None);
        }
        let ctx = *self;
        let h = set_timeout_with_handle(move || ctx.diagnose(None), DEBOUNCE).ok();
        let _ = self.pending.try_set_value(h);
    }

    /// Text was pasted into an input: diagnose as soon as it is in.
    pub fn pasted(&self) {
        self.close_shared();
        let ctx = *self;
        set_timeout(
            move || {
                let narrow = web::is_narrow();
                ctx.diagnose(narrow.then_some(FocusNext::FirstFinding { scroll: true }))
            },
            std::time::Duration::ZERO,
        );
    }

    /// Drops overrides that no longer name a segment's first line.
    fn prune_overrides(&self) {
        let Some(d) = self.diagnosis.get_untracked() else { return };
        for slot in self.slots.get_untracked() {
            let Some(idx) = d.slots.iter().position(|s| *s == slot.id) else { continue };
            let starts: Vec<u32> = d.report.segments.iter().filter(|s| s.input == idx).map(|s| s.start_line).collect();
            let keep: Vec<(u32, InputKind)> =
                slot.overrides.get_untracked().into_iter().filter(|(l, _)| starts.contains(l)).collect();
            if keep != slot.overrides.get_untracked() {
                slot.overrides.set(keep);
            }
        }
    }

    /// Saves inputs and session in localStorage (texts over `MAX_SAVED` left out).
    pub fn save(&self) {
        let Some(slots) = self.slots.try_get_untracked() else { return };
        let mut inputs = Vec::new();
        for slot in &slots {
            let card = slot.card.get_untracked();
            let len = card.as_ref().map_or_else(|| slot.text.with_value(|t| t.len() as u64), |c| c.bytes);
            let big = card.is_some() || len as usize > MAX_SAVED;
            if slot.unsaved.get_untracked() != big.then_some(len) {
                slot.unsaved.set(big.then_some(len));
            }
            if len > 0 && slot.omitted.get_untracked().is_some() {
                slot.omitted.set(None);
            }
            inputs.push(SavedInput {
                label: slot.label.get_untracked(),
                text: if big { String::new() } else { slot.text.get_value() },
                omitted: if big { Some(len) } else { slot.omitted.get_untracked() },
                overrides: slot.overrides.get_untracked(),
            });
        }
        let ok = persist::save(&Saved { v: 1, inputs, session: self.session.get_untracked() });
        if self.storage_ok.get_untracked() != ok {
            self.storage_ok.set(ok);
        }
    }

    /// Records the user's click on an answer and diagnoses again; the focus
    /// goes to the finding's next open step.
    pub fn answer(&self, rule: &str, step: &str, answer: &str) {
        self.session.update(|s| {
            s.answers.retain(|a| !(a.rule == rule && a.step == step));
            s.answers.push(AnswerRef { rule: rule.into(), step: step.into(), answer: answer.into() });
        });
        self.reevaluate(Some(FocusNext::Step { rule: rule.into(), step: String::new() }));
    }

    /// Takes an answer back; the focus goes to that step's answers.
    pub fn unanswer(&self, rule: &str, step: &str) {
        self.session.update(|s| s.answers.retain(|a| !(a.rule == rule && a.step == step)));
        self.reevaluate(Some(FocusNext::Step { rule: rule.into(), step: step.into() }));
    }

    /// Adds the output of a step's command as a new input, so detection
    /// knows which command printed it, and diagnoses again.
    pub fn add_output(&self, rule: &str, label: &str, run: Option<&str>, output: &str) {
        let output = output.trim_end_matches(['\n', '\r']);
        if output.trim().is_empty() {
            return;
        }
        self.sync_from_page();
        let first = output.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim_start();
        let has_prompt = first.starts_with("$ ") || first.starts_with("# ") || first.starts_with('[');
        let text = match run {
            Some(run) if !has_prompt => format!("$ {}\n{output}\n", run.lines().next().unwrap_or(run)),
            _ => format!("{output}\n"),
        };
        let slot = self.new_slot(label, text);
        self.slots.update(|v| {
            // an empty first input is replaced rather than kept
            v.retain(|s| !(s.card.get_untracked().is_none() && s.text.with_value(|t| t.trim().is_empty())));
            v.push(slot);
        });
        self.close_shared();
        self.diagnose(Some(FocusNext::Step { rule: rule.into(), step: String::new() }));
    }

    pub fn pick_symptom(&self, id: &str) {
        self.session.update(|s| {
            if !s.symptoms.iter().any(|x| x == id) {
                s.symptoms.push(id.to_string());
            }
        });
        self.close_shared();
        self.reevaluate(Some(FocusNext::Selector(format!("[data-rule-id=\"{id}\"] .finding-head h3"))));
    }

    pub fn drop_symptom(&self, id: &str) {
        self.session.update(|s| s.symptoms.retain(|x| x != id));
        self.reevaluate(Some(FocusNext::Selector(
            "[data-symptoms] input.sym-filter, .results .finding-head h3".into(),
        )));
    }

    /// Empties everything (inputs, answers, symptoms, the saved copy); Undo
    /// brings it back.
    pub fn clear_all(&self) {
        self.cancel_debounce();
        self.close_shared();
        self.sync_from_page();
        self.cleared
            .set_value(Some(ClearedState { slots: self.slots.get_untracked(), session: self.session.get_untracked() }));
        let slot = self.new_slot("", String::new());
        self.slots.set(vec![slot]);
        self.session.set(Session::default());
        self.next_seq();
        self.diagnosis.set(None);
        self.busy.set(None);
        self.share_out.set(None);
        self.log.set(None);
        self.drafts.update_value(|d| d.clear());
        self.send(Request::Forget, &[]);
        persist::forget();
        self.notice.set(Some(Notice::Cleared));
        self.focus_first_input();
    }

    /// Brings back what Clear removed.
    pub fn undo_clear(&self) {
        let Some(c) = self.cleared.get_value() else { return };
        self.cleared.set_value(None);
        self.notice.set(None);
        self.slots.set(c.slots);
        self.session.set(c.session);
        self.diagnose(None);
        self.focus_first_input();
    }

    pub fn load_example(&self) {
        self.cancel_debounce();
        self.close_shared();
        let slot = self.new_slot("", EXAMPLE.to_string());
        self.slots.set(vec![slot]);
        self.session.set(Session::default());
        self.diagnose(Some(FocusNext::FirstFinding { scroll: web::is_narrow() }));
    }

    /// Focuses the first textarea once it is on the page, unless the user has
    /// gone on to a field of their own meanwhile: the frame can come after
    /// they clicked into the symptom filter right after Clear, and their
    /// typing then belongs there, not in the paste area.
    pub fn focus_first_input(&self) {
        let ctx = *self;
        request_animation_frame(move || {
            if web::typing_in_a_field() {
                return;
            }
            let first = ctx.slots.try_get_untracked().and_then(|v| v.first().and_then(|s| s.area.get_untracked()));
            if let Some(el) = first {
                let _ = el.focus();
            }
        });
    }

    pub fn add_slot(&self) {
        self.sync_from_page();
        let slot = self.new_slot("", String::new());
        self.slots.update(|v| v.push(slot));
        request_animation_frame(move || {
            if let Some(el) = slot.area.get_untracked() {
                let _ = el.focus();
            }
        });
    }

    pub fn remove_slot(&self, id: u32) {
        self.sync_from_page();
        self.slots.update(|v| {
            v.retain(|s| s.id != id);
            if v.is_empty() {
                v.push(self.new_slot("", String::new()));
            }
        });
        if self.log.get_untracked().is_some_and(|l| l.slot == id) {
            self.log.set(None);
        }
        self.focus_first_input();
        self.diagnose(None);
    }

    pub fn set_override(&self, slot_id: u32, start_line: u32, kind: InputKind) {
        if let Some(slot) = self.slot(slot_id) {
            slot.overrides.update(|o| {
                o.retain(|(l, _)| *l != start_line);
                o.push((start_line, kind));
            });
        }
        self.diagnose(Some(FocusNext::Selector(format!(
            "[data-slot=\"{slot_id}\"] .seg[data-start=\"{start_line}\"] select"
        ))));
    }

    /// Puts content into the first input when that is the only one and
    /// empty, else into a new input; returns the slot.
    fn put(&self, label: &str, content: Result<String, web_sys::Blob>) -> Slot {
        self.sync_from_page();
        let slots = self.slots.get_untracked();
        let reuse = match slots.as_slice() {
            [only] if only.card.get_untracked().is_none() && only.text.with_value(|t| t.trim().is_empty()) => {
                Some(*only)
            }
            _ => None,
        };
        let slot = reuse.unwrap_or_else(|| {
            let s = self.new_slot(label, String::new());
            self.slots.update(|v| v.push(s));
            s
        });
        slot.label.set(label.to_string());
        slot.overrides.set(Vec::new());
        slot.omitted.set(None);
        match content {
            Ok(text) => {
                if let Some(el) = slot.area.get_untracked() {
                    el.set_value(&text);
                }
                slot.text.set_value(text);
            }
            Err(blob) => {
                let name = (!label.is_empty()).then(|| label.to_string());
                self.set_card(slot, name, blob);
            }
        }
        slot
    }

    /// A paste too large for a textarea: kept as a Blob card in that input
    /// (or a new one when it holds text already), then diagnosed.
    pub fn paste_big(&self, slot_id: u32, text: String) {
        self.sync_from_page();
        let Some(blob) = web::text_blob(&text) else { return };
        drop(text);
        let slot = match self.slot(slot_id) {
            Some(s) if s.card.get_untracked().is_none() && s.text.with_value(|t| t.trim().is_empty()) => s,
            _ => {
                let s = self.new_slot("", String::new());
                self.slots.update(|v| v.push(s));
                s
            }
        };
        slot.overrides.set(Vec::new());
        self.set_card(slot, None, blob);
        self.unsettled.update_value(|u| u.push(slot.id));
        self.close_shared();
        self.diagnose(Some(FocusNext::FirstFinding { scroll: web::is_narrow() }));
    }

    /// Dropped or picked files become inputs: small ones are read here
    /// into a textarea, large ones stay Blobs that the worker reads (with
    /// progress); then the inputs are diagnosed.
    pub fn load_files(&self, files: Vec<web_sys::File>) {
        if files.is_empty() {
            return;
        }
        self.close_shared();
        self.notice.set(None);
        let ctx = *self;
        leptos::task::spawn_local(async move {
            for file in files {
                let name = file.name();
                if file.size() as usize > CARD_LIMIT {
                    let blob: web_sys::Blob = file.into();
                    let slot = ctx.put(&name, Err(blob));
                    ctx.unsettled.update_value(|u| u.push(slot.id));
                    continue;
                }
                let text = web::read_blob_text(&file, 4.0 * 1024.0 * 1024.0, |_, _| {}).await;
                if !ctx.alive() {
                    return;
                }
                match text {
                    Ok(text) => {
                        ctx.put(&name, Ok(text));
                    }
                    Err(_) => ctx.notice.set(Some(Notice::ReadFailed(name))),
                }
            }
            ctx.diagnose(Some(FocusNext::FirstFinding { scroll: web::is_narrow() }));
        });
    }

    /// Stops reading and diagnosing: the worker is restarted and the files
    /// it was still reading are dropped from the inputs.
    pub fn cancel_work(&self) {
        let Some(busy) = self.busy.get_untracked() else { return };
        self.next_seq();
        self.busy.set(None);
        if let Some(e) = self.engine() {
            e.restart();
        }
        self.engine_fresh.set_value(true);
        self.send(Request::Rules { files: self.rules.get_untracked().files }, &[]);
        let dropped = self.unsettled.get_value();
        self.unsettled.set_value(Vec::new());
        if !dropped.is_empty() {
            self.slots.update(|v| {
                v.retain(|s| !dropped.contains(&s.id));
                if v.is_empty() {
                    v.push(self.new_slot("", String::new()));
                }
            });
            self.save();
        }
        self.notice.set(Some(Notice::Cancelled(busy.name)));
        self.focus_first_input();
    }

    /// Loads rule files the user dropped or picked (replacing files of the
    /// same name) into the engine, and keeps them in this browser.
    pub fn add_rule_files(&self, files: Vec<web_sys::File>) {
        let ctx = *self;
        leptos::task::spawn_local(async move {
            let mut list = ctx.rules.get_untracked().files;
            for f in files {
                let name = f.name();
                let Ok(text) = web::read_blob_text(&f, 4.0 * 1024.0 * 1024.0, |_, _| {}).await else { continue };
                list.retain(|(n, _)| *n != name);
                list.push((name, text));
            }
            if ctx.alive() {
                ctx.set_rule_files(list);
            }
        });
    }

    pub fn remove_rule_file(&self, name: &str) {
        let mut list = self.rules.get_untracked().files;
        list.retain(|(n, _)| n != name);
        self.set_rule_files(list);
        let _ = web::focus("[data-rules] button[data-action=\"pick-rules\"]", false);
    }

    fn set_rule_files(&self, files: Vec<(String, String)>) {
        let saved = persist::save_rules(&files);
        self.rules.update(|r| {
            r.files = files.clone();
            r.saved = saved;
        });
        self.send(Request::Rules { files }, &[]);
        // The catalogue changed: read the inputs again with it.
        self.engine_fresh.set_value(true);
        if self.has_inputs() {
            self.diagnose(None);
        }
    }

    /// Opens a share link or bare code (from the address or the "open a
    /// shared diagnosis" box). The local inputs are not touched.
    pub fn open_link(&self, link: &str) {
        let link = link.trim();
        let seq = self.next_link_seq();
        if link.is_empty() {
            self.shared.set(None);
            self.link_error.set(None);
            return;
        }
        self.shared_link.set_value(link.to_string());
        self.focus_next.set_value(Some(FocusNext::FirstFinding { scroll: web::is_narrow() }));
        self.send(Request::Open { seq, fragment: link.to_string() }, &[]);
    }

    /// Leaves a shared diagnosis and shows the local one again.
    pub fn close_shared(&self) {
        // A link still being opened (the same one can arrive twice: from the
        // address at start and from its hashchange) must not reopen the view.
        self.next_link_seq();
        if self.shared.try_get_untracked().flatten().is_some() {
            self.shared.set(None);
            web::clear_hash();
        }
    }

    pub fn dismiss_link_error(&self) {
        self.next_link_seq();
        self.link_error.set(None);
        web::clear_hash();
        self.focus_first_input();
    }

    /// Builds the share link for the local diagnosis.
    pub fn make_share(&self) {
        let (lang, excerpts) = (self.lang.get_untracked(), self.excerpts.get_untracked());
        // Numbered with the diagnosis it shares: a reply that arrives after
        // the inputs changed is for a diagnosis no longer shown.
        self.send(Request::Share { seq: self.seq.get_value(), lang, excerpts }, &[]);
    }

    /// Sets the address share links start with (kept in this browser).
    pub fn set_share_base(&self, base: &str) {
        let base = base.trim().to_string();
        if base.is_empty() {
            crate::web::storage_remove(BASE_KEY);
        } else {
            storage_set(BASE_KEY, &base);
        }
        self.share_base.set(base);
        if self.share_out.get_untracked().is_some() {
            self.make_share();
        }
    }

    /// Copies the diagnosis (local or shared) as Markdown, ending with its
    /// share link (the engine makes the link of the local diagnosis).
    pub fn copy_markdown(&self) {
        let lang = self.lang.get_untracked();
        let shared = self.shared.get_untracked().is_some().then(|| self.shared_link.get_value());
        let base = link_base(&self.share_base.get_untracked());
        let excerpts = self.excerpts.get_untracked();
        self.send(Request::Markdown { seq: 0, lang, shared, base, excerpts }, &[]);
    }

    /// Offers this page as one offline HTML file (built by the loader from
    /// what is loaded: no request).
    pub fn download_offline(&self) {
        let page = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("rdOfflinePage"))
            .ok()
            .and_then(|f| wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(f).ok())
            .and_then(|f| f.call0(&JsValue::NULL).ok());
        // The loader gives the offline file's bytes (a Blob), or the page's
        // text when it cannot.
        let Some(page) = page else { return };
        match wasm_bindgen::JsCast::dyn_into::<web_sys::Blob>(page) {
            Ok(blob) => {
                web::download_blob("roll-doctor.html", &blob);
            }
            Err(v) => {
                if let Some(page) = v.as_string() {
                    web::download("roll-doctor.html", &page, "text/html;charset=utf-8");
                }
            }
        }
    }

    /// A cell of the cluster table was clicked: the finding it comes from
    /// is opened (a consequence's `<details>` too), scrolled to the top and
    /// the cell's evidence line in it focused (else its title). A cell no
    /// finding rests on opens its line in the log view.
    pub fn focus_cell(
        &self,
        finding: Option<String>,
        evidence: Option<roll_doctor_engine::EvidenceLine>,
        read_only: bool,
    ) {
        let Some(id) = finding else {
            if let (Some(e), false) = (evidence, read_only) {
                self.show_line(e.input, e.line);
            }
            return;
        };
        let f = format!("[data-rule-id=\"{id}\"]");
        if let Some(el) = web::query(&f) {
            if let Ok(d) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlDetailsElement>(el) {
                d.set_open(true);
            }
        }
        let line = evidence.map(|e| {
            let input = e.input.map(|i| format!("[data-input=\"{i}\"]")).unwrap_or_default();
            format!("{f} .evidence button.ln[data-line=\"{}\"]{input}", e.line)
        });
        // A consequence renders its body once its `<details>` has opened: try a few frames.
        fn attempt(f: String, line: Option<String>, left: u32) {
            let found = line.as_deref().is_some_and(|l| web::focus(l, true));
            if found {
                return;
            }
            if left == 0 || line.is_none() {
                let _ = web::focus(&format!("{f} .finding-title"), true);
                return;
            }
            set_timeout(move || attempt(f, line, left - 1), std::time::Duration::from_millis(30));
        }
        attempt(f, line, 5);
    }

    /// Shows `line` of engine input `input` (local diagnosis) in the log view.
    pub fn show_line(&self, input: Option<usize>, line: u32) {
        let slot = self.diagnosis.with_untracked(|d| d.as_ref().and_then(|d| d.slots.get(input.unwrap_or(0)).copied()));
        if let Some(slot) = slot {
            self.show_slot_line(slot, line);
        }
    }

    pub fn show_slot_line(&self, slot: u32, line: u32) {
        if self.log.get_untracked().is_none() {
            self.return_focus.set_value(web::active_element());
        }
        let from = line.max(1).saturating_sub(LOG_CONTEXT).max(1);
        let query = self.log.get_untracked().map(|l| l.query).unwrap_or_default();
        self.log.set(Some(LogView {
            slot,
            target: line.max(1),
            from,
            lines: Vec::new(),
            total: 0,
            loading: true,
            query,
            matches: None,
        }));
        // A slot not diagnosed yet (or edited since) is sent first, so its lines are the ones shown.
        if self.engine_fresh.get_value()
            || self.diagnosis.with_untracked(|d| d.as_ref().is_none_or(|d| !d.slots.contains(&slot)))
        {
            self.diagnose(None);
        }
        self.send(Request::Lines { seq: 0, slot, from, count: 2 * LOG_CONTEXT + 1 }, &[]);
    }

    /// Searches the log view's input for `query` from its current line.
    pub fn search_log(&self, query: &str, back: bool) {
        let Some(l) = self.log.get_untracked() else { return };
        self.log.update(|v| {
            if let Some(v) = v {
                v.query = query.to_string();
            }
        });
        self.send(Request::Search { seq: 0, slot: l.slot, query: query.to_string(), line: l.target, back }, &[]);
    }

    /// Closes the log view and gives the focus back to what opened it.
    pub fn close_log(&self) {
        self.log.set(None);
        if let Some(el) = self.return_focus.try_get_value().flatten() {
            if el.is_connected() {
                let _ = el.focus();
            }
        }
        let _ = self.return_focus.try_set_value(None);
    }

    pub fn choose_lang(&self, l: Lang) {
        storage_set(LANG_KEY, l.code());
        self.lang_chosen.set_value(true);
        self.lang.set(l);
    }

    /// Puts an engine reply on the page.
    pub fn on_reply(&self, r: Reply) {
        let current = self.seq.get_value();
        match r {
            Reply::Ready { version: _, errors, extra, symptoms, kb } => {
                self.rules.update(|s| {
                    s.errors = errors;
                    s.extra = extra;
                    s.kb = kb;
                });
                self.symptoms.set(symptoms);
                if !self.ready.get_untracked() {
                    web::mark("rd-engine-ready");
                }
                self.ready.set(true);
            }
            Reply::Progress { seq, phase, name, done, total } => {
                if seq != current {
                    return;
                }
                self.busy.update(|b| {
                    if let Some(b) = b {
                        b.phase = phase;
                        if !name.is_empty() {
                            b.name = name;
                        }
                        b.done = done;
                        b.total = total;
                        b.big = b.big || total >= BIG as f64;
                    }
                });
            }
            Reply::ReadFailed { seq, name } => {
                if seq == current {
                    self.notice.set(Some(Notice::ReadFailed(name)));
                }
            }
            Reply::Diagnosed(d) => {
                if d.seq != current {
                    return;
                }
                self.busy.set(None);
                self.unsettled.set_value(Vec::new());
                for (slot, lines, _) in &d.sizes {
                    if let Some(s) = self.slot(*slot) {
                        if let Some(mut c) = s.card.get_untracked() {
                            if c.lines != Some(*lines) {
                                c.lines = Some(*lines);
                                s.card.set(Some(c));
                            }
                        }
                    }
                }
                self.diagnosis.set(Some(Diagnosis::from(&d)));
                self.prune_overrides();
                self.save();
                self.after_render();
            }
            Reply::Shared { seq, fragment, json, mapping } => {
                if fragment.is_empty() || seq != current {
                    return;
                }
                let base = link_base(&self.share_base.get_untracked());
                let (url, bare) = match base {
                    Some(b) => (format!("{b}#{fragment}"), false),
                    None => (fragment, true),
                };
                // The link takes the focus when the panel opens, not on every
                // new link (the user may be in the base field or the checkbox).
                let first = self.share_out.get_untracked().is_none();
                self.share_out.set(Some(ShareOut { url, bare, json, mapping }));
                if first {
                    request_animation_frame(|| {
                        let _ = web::focus("#share input.share-url", false);
                    });
                }
            }
            Reply::Markdown { seq: _, text } => crate::web::copy_text(text, self.md_copy),
            Reply::Opened { seq, view } => {
                if seq != self.link_seq.get_value() {
                    return;
                }
                if !self.lang_chosen.get_value() {
                    self.lang.set(view.lang);
                }
                self.link_error.set(None);
                self.log.set(None);
                self.shared.set(Some(*view));
                self.after_render();
            }
            Reply::LinkFailed { seq, error } => {
                if seq != self.link_seq.get_value() {
                    return;
                }
                self.shared.set(None);
                self.link_error.set(Some(error));
            }
            Reply::Lines { seq: _, slot, from, lines, total } => {
                self.log.update(|l| {
                    if let Some(l) = l.as_mut().filter(|l| l.slot == slot) {
                        l.from = from;
                        l.lines = lines;
                        l.total = total;
                        l.loading = false;
                    }
                });
                request_animation_frame(|| {
                    if let Some(el) = web::query(".logview .log-lines .hl") {
                        let opts = web_sys::ScrollIntoViewOptions::new();
                        opts.set_block(web_sys::ScrollLogicalPosition::Center);
                        el.scroll_into_view_with_scroll_into_view_options(&opts);
                    }
                    let inside = web::active_element().is_some_and(|a| a.closest(".logview").ok().flatten().is_some());
                    if !inside {
                        let _ = web::focus(".logview [data-action=\"close-log\"]", false);
                    }
                });
            }
            Reply::Found { seq: _, slot, line, matches } => {
                let Some(l) = self.log.get_untracked().filter(|l| l.slot == slot) else { return };
                self.log.update(|v| {
                    if let Some(v) = v {
                        v.matches = Some(matches);
                    }
                });
                if let Some(line) = line {
                    let query = l.query.clone();
                    self.show_slot_line(slot, line);
                    self.log.update(|v| {
                        if let Some(v) = v {
                            v.query = query;
                            v.matches = Some(matches);
                        }
                    });
                }
            }
        }
    }

    /// After a diagnosis (or a shared one) is on the page: marks the first
    /// finding and moves the focus where the action wanted it.
    fn after_render(&self) {
        let ctx = *self;
        request_animation_frame(move || {
            if !ctx.alive() {
                return;
            }
            if !ctx.first_marked.get_value() && web::query("[data-rule-id]").is_some() {
                ctx.first_marked.set_value(true);
                web::mark("rd-first-finding");
            }
            let Some(f) = ctx.focus_next.get_value() else { return };
            ctx.focus_next.set_value(None);
            match f {
                FocusNext::FirstFinding { scroll } => {
                    let _ = web::focus(".results .finding .finding-title", scroll)
                        || web::focus(".results .status .count", scroll);
                }
                FocusNext::Step { rule, step } => {
                    let f = format!("[data-rule-id=\"{rule}\"]");
                    let _ = (!step.is_empty()
                        && web::focus(&format!("{f} .step[data-step-id=\"{step}\"] button[data-answer]"), false))
                        || web::focus(&format!("{f} .step[data-next] button[data-answer]"), false)
                        || web::focus(&format!("{f} .step[data-next] textarea"), false)
                        || web::focus(&format!("{f} .finding-title"), false)
                        || web::focus(".results .finding .finding-title", false);
                }
                FocusNext::Selector(s) => {
                    let _ = s.split(", ").any(|one| web::focus(one, false));
                }
            }
        });
    }
}
