//! The page (wasm32 only): its state and the actions that change it. Thin:
//! every decision about what is wrong comes from the engine
//! ([`diagnose::collect`] + [`diagnose::evaluate`], [`share`]); this module
//! moves text between the page and the engine and keeps the page's state.
//!
//! State lives in [`Ctx`], a bundle of signals passed to every view. The
//! inputs panel is in [`crate::inputs`], the report and everything around it
//! in [`crate::view`].

use crate::i18n::{html_lang, initial_lang, t, Lang};
use crate::persist::{self, Saved, SavedInput, MAX_SAVED};
use crate::web::{self, storage_get, storage_set, window};
use leptos::prelude::*;
use roll_doctor_engine::diagnose::{self, Collected};
use roll_doctor_engine::redact::Mapping;
use roll_doctor_engine::share::{self, ShareError};
use roll_doctor_engine::{catalogue, AnswerRef, Input, InputKind, KindOverride, Report, Session};
use std::collections::HashMap;
use std::time::Duration;
use wasm_bindgen::JsValue;

pub use crate::persist::INPUTS_KEY;

/// localStorage key holding the chosen language (`en` / `zh`).
pub const LANG_KEY: &str = "roll-doctor.lang";
/// Pause after the last keystroke before diagnosing.
pub const DEBOUNCE: Duration = Duration::from_millis(300);
/// Inputs larger than this (bytes) are diagnosed after a "Diagnosing…"
/// notice has been painted, since the page is busy meanwhile.
pub const BUSY_NOTICE: usize = 1 << 20;
/// Files larger than this are not put into a textarea (which would make the
/// page sluggish) but shown as a card; they are diagnosed all the same.
pub const CARD_LIMIT: usize = 4 << 20;
/// Files larger than this show a progress bar while they are read.
pub const PROGRESS_LIMIT: f64 = 256.0 * 1024.0;

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

/// A file (or paste) too large for a textarea.
#[derive(Clone, Debug, PartialEq)]
pub struct FileCard {
    /// The file name; None for pasted text.
    pub name: Option<String>,
    pub bytes: usize,
    pub lines: usize,
}

/// One input: a paste or a file, with a label such as a node name.
#[derive(Clone, Copy)]
pub struct Slot {
    pub id: u32,
    pub label: RwSignal<String>,
    /// The text as last read from the page (the textarea is the truth
    /// while the user types; it is read before each diagnosis).
    pub text: StoredValue<String>,
    /// `(start_line, kind)` the user chose for segments.
    pub overrides: RwSignal<Vec<(u32, InputKind)>>,
    pub area: NodeRef<leptos::html::Textarea>,
    /// Set when the text is shown as a card instead of a textarea.
    pub card: RwSignal<Option<FileCard>>,
    /// Size of a text too large to keep in storage (set when saving).
    pub unsaved: RwSignal<Option<usize>>,
    /// Size of a text that was too large to keep before the last reload.
    pub omitted: RwSignal<Option<usize>>,
}

/// A diagnosis of the local inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnosis {
    pub report: Report,
    /// Slot id of each engine input (evidence `input` indexes this).
    pub slots: Vec<u32>,
    pub lines: usize,
    pub ms: f64,
}

/// A diagnosis opened from a share link.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedView {
    pub report: Report,
    pub rules: String,
    pub rules_changed: bool,
    pub missing: Vec<String>,
    pub excerpts: bool,
}

/// A share link made from the local inputs, with what it carries.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareOut {
    pub url: String,
    /// The payload as pretty JSON: exactly what the fragment carries.
    pub json: String,
    /// Original values and their placeholders; never leaves the page.
    pub mapping: Vec<Mapping>,
}

/// A line to show in the log view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogTarget {
    pub slot: u32,
    pub line: u32,
}

/// A file being read.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub name: String,
    pub pct: u32,
}

/// The page's state; `Copy`, so every view and handler gets its own.
#[derive(Clone, Copy)]
pub struct Ctx {
    pub lang: RwSignal<Lang>,
    /// Whether the user picked the language (then a share link's language
    /// does not override it).
    pub lang_chosen: StoredValue<bool>,
    pub slots: RwSignal<Vec<Slot>>,
    next_id: StoredValue<u32>,
    pub session: RwSignal<Session>,
    pub diagnosis: RwSignal<Option<Diagnosis>>,
    /// What the inputs yielded, for re-evaluating after an answer without
    /// reading the inputs again.
    collected: StoredValue<Option<(Collected, Vec<u32>, usize)>>,
    pub shared: RwSignal<Option<SharedView>>,
    pub link_error: RwSignal<Option<ShareError>>,
    pub log_view: RwSignal<Option<LogTarget>>,
    pub share_out: RwSignal<Option<ShareOut>>,
    pub excerpts: RwSignal<bool>,
    pending: StoredValue<Option<TimeoutHandle>>,
    /// False when the browser refused to save the inputs.
    pub storage_ok: RwSignal<bool>,
    pub progress: RwSignal<Option<Progress>>,
    pub busy: RwSignal<bool>,
    pub dragging: RwSignal<bool>,
    /// A file that could not be read.
    pub read_error: RwSignal<Option<String>>,
    /// Half-typed outputs of steps, by `(rule, step)`, kept across re-renders.
    pub drafts: StoredValue<HashMap<(String, String), String>>,
    /// The page's reactive owner: inputs made in a click handler belong to
    /// the page, not to the part of the page that was clicked (which a new
    /// diagnosis re-renders, disposing what it owns).
    owner: StoredValue<Option<Owner>>,
    /// What had the focus before the log view opened, to give it back.
    return_focus: StoredValue<Option<web_sys::HtmlElement>, LocalStorage>,
}

/// The language to start in: the remembered choice, else the browser's.
pub fn load_lang() -> Lang {
    let stored = storage_get(LANG_KEY);
    let browser = window().and_then(|w| w.navigator().language());
    initial_lang(stored.as_deref(), browser.as_deref())
}

/// Sets `<html lang>` and the document title.
fn apply_lang(lang: Lang) {
    if let Some(doc) = web::document() {
        if let Some(root) = doc.document_element() {
            let _ = root.set_attribute("lang", html_lang(lang));
        }
        doc.set_title(t(lang, "doc_title"));
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
            div.set_text_content(Some(
                "roll-doctor hit an internal error; please reload the page and report the input that caused it. \
                 roll-doctor 发生内部错误，请刷新页面，并反馈导致该错误的输入。",
            ));
            let _ = body.prepend_with_node_1(&div);
        }
    }));
}

/// The kind's stable code (`log`, `roll-config`, …), as in the report JSON.
pub fn kind_code(kind: InputKind) -> &'static str {
    &crate::i18n::kind_key(kind)[5..]
}

pub fn kind_from_code(code: &str) -> Option<InputKind> {
    InputKind::ALL.into_iter().find(|k| kind_code(*k) == code)
}

impl Ctx {
    fn new(lang: Lang) -> Ctx {
        Ctx {
            lang: RwSignal::new(lang),
            lang_chosen: StoredValue::new(storage_get(LANG_KEY).is_some()),
            slots: RwSignal::new(Vec::new()),
            next_id: StoredValue::new(0),
            session: RwSignal::new(Session::default()),
            diagnosis: RwSignal::new(None),
            collected: StoredValue::new(None),
            shared: RwSignal::new(None),
            link_error: RwSignal::new(None),
            log_view: RwSignal::new(None),
            share_out: RwSignal::new(None),
            excerpts: RwSignal::new(false),
            pending: StoredValue::new(None),
            storage_ok: RwSignal::new(true),
            progress: RwSignal::new(None),
            busy: RwSignal::new(false),
            dragging: RwSignal::new(false),
            read_error: RwSignal::new(None),
            drafts: StoredValue::new(HashMap::new()),
            owner: StoredValue::new(Owner::current()),
            return_focus: StoredValue::new_local(None),
        }
    }

    fn new_slot(&self, label: &str, text: String) -> Slot {
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        let make = || Slot {
            id,
            label: RwSignal::new(label.to_string()),
            text: StoredValue::new(text),
            overrides: RwSignal::new(Vec::new()),
            area: NodeRef::new(),
            card: RwSignal::new(None),
            unsaved: RwSignal::new(None),
            omitted: RwSignal::new(None),
        };
        match self.owner.get_value() {
            Some(owner) => owner.with(make),
            None => make(),
        }
    }

    /// Restores the saved inputs and session (or starts with one empty input).
    fn restore(&self) {
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

    /// Moves texts too large to edit out of their textareas into cards: a
    /// textarea holding megabytes makes every layout of the page slow.
    fn card_oversized(&self) {
        for slot in self.slots.get_untracked() {
            if slot.card.get_untracked().is_some() {
                continue;
            }
            let size = slot.text.with_value(|t| (t.len() > CARD_LIMIT).then(|| (t.len(), t.split('\n').count())));
            if let Some((bytes, lines)) = size {
                slot.card.set(Some(FileCard { name: None, bytes, lines }));
            }
        }
    }

    /// The engine inputs (non-empty slots) and the slot id of each.
    fn inputs(&self) -> (Vec<Input>, Vec<u32>) {
        let mut inputs = Vec::new();
        let mut ids = Vec::new();
        for slot in self.slots.get_untracked() {
            let text = slot.text.with_value(|t| if t.trim().is_empty() { None } else { Some(t.clone()) });
            let Some(text) = text else { continue };
            let overrides = slot
                .overrides
                .get_untracked()
                .into_iter()
                .map(|(start_line, kind)| KindOverride { start_line, kind })
                .collect();
            // A labelled input is one node's output (`node-3`); the label names the node.
            let label = slot.label.get_untracked();
            let node = Some(label.trim().to_string()).filter(|l| !l.is_empty());
            inputs.push(Input { label, text, overrides, node });
            ids.push(slot.id);
        }
        (inputs, ids)
    }

    /// Size of the text waiting in the inputs (bytes).
    fn pending_bytes(&self) -> usize {
        self.slots
            .get_untracked()
            .iter()
            .map(|s| match (s.card.get_untracked(), s.area.get_untracked()) {
                (Some(c), _) => c.bytes,
                (None, Some(el)) => el.text_length() as usize,
                (None, None) => s.text.with_value(|t| t.len()),
            })
            .sum()
    }

    fn cancel(&self) {
        if let Some(Some(h)) = self.pending.try_get_value() {
            h.clear();
        }
        let _ = self.pending.try_set_value(None);
    }

    /// Reads the inputs and diagnoses them with the session, now.
    pub fn run_now(&self) {
        self.cancel();
        if self.slots.try_get_untracked().is_none() {
            return; // unmounted
        }
        self.sync_from_page();
        self.card_oversized();
        let (inputs, ids) = self.inputs();
        let session = self.session.get_untracked();
        if inputs.is_empty() && session.symptoms.is_empty() {
            self.collected.set_value(None);
            self.diagnosis.set(None);
        } else {
            let t0 = web::now_ms();
            let cat = catalogue();
            let c = diagnose::collect(cat, &inputs);
            let report = diagnose::evaluate(cat, &c, &session, None);
            let ms = web::now_ms() - t0;
            let lines = inputs.iter().map(|i| i.text.split('\n').count()).sum();
            self.collected.set_value(Some((c, ids.clone(), lines)));
            self.diagnosis.set(Some(Diagnosis { report, slots: ids, lines, ms }));
        }
        self.prune_overrides();
        self.share_out.set(None);
        self.save();
    }

    /// Diagnoses again with the same inputs and a changed session.
    fn reevaluate(&self) {
        let session = self.session.get_untracked();
        let no_inputs = self.collected.with_value(|c| c.as_ref().map(|(_, ids, _)| ids.is_empty()));
        if no_inputs == Some(true) && session.symptoms.is_empty() {
            self.diagnosis.set(None);
            self.share_out.set(None);
            self.save();
            return;
        }
        let done = self.collected.with_value(|c| {
            let (c, ids, lines) = c.as_ref()?;
            let t0 = web::now_ms();
            let report = diagnose::evaluate(catalogue(), c, &session, None);
            Some(Diagnosis { report, slots: ids.clone(), lines: *lines, ms: web::now_ms() - t0 })
        });
        match done {
            Some(d) => {
                self.diagnosis.set(Some(d));
                self.share_out.set(None);
                self.save();
            }
            None => self.run_now(),
        }
    }

    /// Diagnoses now, after painting a notice first when the input is large.
    pub fn diagnose_now(&self) {
        self.close_shared();
        if self.pending_bytes() < BUSY_NOTICE {
            self.run_now();
            return;
        }
        self.cancel();
        self.busy.set(true);
        let ctx = *self;
        leptos::task::spawn_local(async move {
            web::next_paint().await;
            ctx.run_now();
            let _ = ctx.busy.try_set(false);
        });
    }

    /// The user changed an input: diagnose after a pause in typing.
    pub fn user_edit(&self) {
        self.close_shared();
        self.cancel();
        let ctx = *self;
        let h = set_timeout_with_handle(move || ctx.diagnose_now(), DEBOUNCE).ok();
        let _ = self.pending.try_set_value(h);
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
            let (len, too_big) = slot.text.with_value(|t| (t.len(), t.len() > MAX_SAVED));
            let big = too_big || slot.card.get_untracked().is_some();
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

    /// Records the user's click on an answer and diagnoses again.
    pub fn answer(&self, rule: &str, step: &str, answer: &str) {
        self.session.update(|s| {
            s.answers.retain(|a| !(a.rule == rule && a.step == step));
            s.answers.push(AnswerRef { rule: rule.into(), step: step.into(), answer: answer.into() });
        });
        self.reevaluate();
    }

    /// Takes an answer back.
    pub fn unanswer(&self, rule: &str, step: &str) {
        self.session.update(|s| s.answers.retain(|a| !(a.rule == rule && a.step == step)));
        self.reevaluate();
    }

    /// Adds the output of a step's command as a new input, so detection
    /// knows which command printed it, and diagnoses again.
    pub fn add_output(&self, label: &str, run: Option<&str>, output: &str) {
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
        self.diagnose_now();
    }

    pub fn pick_symptom(&self, id: &str) {
        self.session.update(|s| {
            if !s.symptoms.iter().any(|x| x == id) {
                s.symptoms.push(id.to_string());
            }
        });
        self.close_shared();
        self.reevaluate();
    }

    pub fn drop_symptom(&self, id: &str) {
        self.session.update(|s| s.symptoms.retain(|x| x != id));
        self.reevaluate();
    }

    /// Empties everything: inputs, answers, symptoms, and the saved copy.
    pub fn clear_all(&self) {
        self.cancel();
        self.close_shared();
        let slot = self.new_slot("", String::new());
        self.slots.set(vec![slot]);
        self.session.set(Session::default());
        self.collected.set_value(None);
        self.diagnosis.set(None);
        self.share_out.set(None);
        self.log_view.set(None);
        self.drafts.update_value(|d| d.clear());
        persist::forget();
        self.focus_first();
    }

    pub fn load_example(&self) {
        self.cancel();
        self.close_shared();
        let slot = self.new_slot("", EXAMPLE.to_string());
        self.slots.set(vec![slot]);
        self.session.set(Session::default());
        self.run_now();
        self.focus_first();
    }

    /// Focuses the first textarea once it is on the page.
    fn focus_first(&self) {
        let ctx = *self;
        request_animation_frame(move || {
            if let Some(el) = ctx.slots.try_get_untracked().and_then(|v| v.first().and_then(|s| s.area.get_untracked()))
            {
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
        if self.log_view.get_untracked().is_some_and(|t| t.slot == id) {
            self.log_view.set(None);
        }
        self.diagnose_now();
    }

    pub fn set_override(&self, slot_id: u32, start_line: u32, kind: InputKind) {
        if let Some(slot) = self.slots.get_untracked().into_iter().find(|s| s.id == slot_id) {
            slot.overrides.update(|o| {
                o.retain(|(l, _)| *l != start_line);
                o.push((start_line, kind));
            });
        }
        self.diagnose_now();
    }

    /// Puts a file's text into the first input when that is the only one
    /// and empty, else into a new input.
    fn put_text(&self, label: &str, text: String) {
        self.sync_from_page();
        let slots = self.slots.get_untracked();
        let reuse = match slots.as_slice() {
            [only] if only.card.get_untracked().is_none() && only.text.with_value(|t| t.trim().is_empty()) => {
                Some(*only)
            }
            _ => None,
        };
        let card = (text.len() > CARD_LIMIT).then(|| FileCard {
            name: Some(label.to_string()),
            bytes: text.len(),
            lines: text.split('\n').count(),
        });
        match reuse {
            Some(slot) => {
                slot.label.set(label.to_string());
                if card.is_none() {
                    if let Some(el) = slot.area.get_untracked() {
                        el.set_value(&text);
                    }
                }
                slot.text.set_value(text);
                slot.overrides.set(Vec::new());
                slot.omitted.set(None);
                slot.card.set(card);
            }
            None => {
                let slot = self.new_slot(label, text);
                slot.card.set(card);
                self.slots.update(|v| v.push(slot));
            }
        }
    }

    /// A paste too large for a textarea (which would make the page
    /// sluggish): kept as a card in that input, or in a new one when the
    /// input already holds text.
    pub fn paste_big(&self, slot_id: u32, text: String) {
        self.sync_from_page();
        let card = FileCard { name: None, bytes: text.len(), lines: text.split('\n').count() };
        match self.slot(slot_id) {
            Some(slot) if slot.text.with_value(|t| t.trim().is_empty()) => {
                slot.text.set_value(text);
                slot.overrides.set(Vec::new());
                slot.omitted.set(None);
                slot.card.set(Some(card));
            }
            _ => {
                let slot = self.new_slot("", text);
                slot.card.set(Some(card));
                self.slots.update(|v| v.push(slot));
            }
        }
        self.diagnose_now();
    }

    /// Reads dropped or picked files (in chunks, with progress for large
    /// ones) into inputs, then diagnoses.
    pub fn load_files(&self, files: Vec<web_sys::File>) {
        if files.is_empty() {
            return;
        }
        self.close_shared();
        self.read_error.set(None);
        let ctx = *self;
        leptos::task::spawn_local(async move {
            for file in files {
                let name = file.name();
                let show = file.size() > PROGRESS_LIMIT;
                if show {
                    let _ = ctx.progress.try_set(Some(Progress { name: name.clone(), pct: 0 }));
                }
                let progress = ctx.progress;
                let n = name.clone();
                let text = web::read_file_text(&file, move |done, total| {
                    if show {
                        let pct = if total > 0.0 { (done / total * 100.0).round() as u32 } else { 100 };
                        let _ = progress.try_set(Some(Progress { name: n.clone(), pct }));
                    }
                })
                .await;
                if ctx.slots.try_get_untracked().is_none() {
                    return;
                }
                match text {
                    Ok(text) => ctx.put_text(&name, text),
                    Err(_) => ctx.read_error.set(Some(name)),
                }
            }
            let _ = ctx.progress.try_set(None);
            ctx.diagnose_now();
        });
    }

    /// Opens the diagnosis in a share-link fragment, or says why it cannot.
    /// The local inputs are not touched either way.
    pub fn open_link(&self, fragment: &str) {
        if fragment.trim().is_empty() {
            self.shared.set(None);
            self.link_error.set(None);
            return;
        }
        match share::decode(fragment) {
            Ok(p) => {
                let r = share::report_from(&p);
                if !self.lang_chosen.get_value() {
                    self.lang.set(p.lang);
                }
                self.link_error.set(None);
                self.log_view.set(None);
                self.shared.set(Some(SharedView {
                    report: r.report,
                    rules: p.rules.clone(),
                    rules_changed: r.rules_changed,
                    missing: r.missing,
                    excerpts: !p.excerpts.is_empty() || p.facts.iter().any(|f| !f.text.is_empty()),
                }));
            }
            Err(e) => {
                self.shared.set(None);
                self.link_error.set(Some(e));
            }
        }
    }

    /// Leaves a shared diagnosis and shows the local one again.
    pub fn close_shared(&self) {
        if self.shared.try_get_untracked().flatten().is_some() {
            self.shared.set(None);
            web::clear_hash();
        }
    }

    pub fn dismiss_link_error(&self) {
        self.link_error.set(None);
        web::clear_hash();
    }

    /// Builds the share link for the local diagnosis.
    pub fn make_share(&self) {
        self.sync_from_page();
        let (inputs, _) = self.inputs();
        let session = self.session.get_untracked();
        let (payload, mapping) =
            share::build(&inputs, &session, self.lang.get_untracked(), self.excerpts.get_untracked());
        let url = format!("{}#{}", web::page_address(), share::encode(&payload));
        let json = serde_json::to_string_pretty(&payload).unwrap_or_default();
        self.share_out.set(Some(ShareOut { url, json, mapping }));
    }

    /// Shows `line` of engine input `input` in the log view.
    pub fn show_line(&self, input: Option<usize>, line: u32) {
        let Some(slot) =
            self.diagnosis.with_untracked(|d| d.as_ref().and_then(|d| d.slots.get(input.unwrap_or(0)).copied()))
        else {
            return;
        };
        self.show_slot_line(slot, line);
    }

    pub fn show_slot_line(&self, slot: u32, line: u32) {
        if self.log_view.get_untracked().is_none() {
            let active = web::document()
                .and_then(|d| d.active_element())
                .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok());
            self.return_focus.set_value(active);
        }
        self.log_view.set(Some(LogTarget { slot, line }));
        request_animation_frame(|| {
            let Some(doc) = web::document() else { return };
            if let Ok(Some(el)) = doc.query_selector(".logview .log-lines .hl") {
                let opts = web_sys::ScrollIntoViewOptions::new();
                opts.set_block(web_sys::ScrollLogicalPosition::Center);
                el.scroll_into_view_with_scroll_into_view_options(&opts);
            }
            if let Ok(Some(el)) = doc.query_selector(".logview [data-action=\"close-log\"]") {
                if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
                    let _ = el.focus();
                }
            }
        });
    }

    /// Closes the log view and gives the focus back to what opened it.
    pub fn close_log(&self) {
        self.log_view.set(None);
        if let Some(el) = self.return_focus.try_get_value().flatten() {
            if el.is_connected() {
                let _ = el.focus();
            }
        }
        let _ = self.return_focus.try_set_value(None);
    }

    pub fn slot(&self, id: u32) -> Option<Slot> {
        self.slots.try_get_untracked()?.into_iter().find(|s| s.id == id)
    }

    /// A short name for an engine input: its label, else "input N".
    pub fn input_name(&self, slot_id: u32, lang: Lang) -> String {
        let slots = self.slots.get_untracked();
        let pos = slots.iter().position(|s| s.id == slot_id);
        let label = pos.map(|p| slots[p].label.get_untracked()).unwrap_or_default();
        if label.trim().is_empty() {
            crate::i18n::tf(lang, "input_fallback", &[("n", &(pos.unwrap_or(0) + 1).to_string())])
        } else {
            label
        }
    }

    pub fn choose_lang(&self, l: Lang) {
        storage_set(LANG_KEY, l.code());
        self.lang_chosen.set_value(true);
        self.lang.set(l);
    }
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let ctx = Ctx::new(load_lang());
    ctx.restore();
    ctx.open_link(&web::location_hash());
    Effect::new(move |_| apply_lang(ctx.lang.get()));

    // Diagnose what was restored, once the page has painted; before that,
    // compile the rule catalogue (regexes) so the first paste is quick.
    let restored = ctx.slots.get_untracked().iter().any(|s| s.text.with_value(|t| !t.trim().is_empty()))
        || !ctx.session.get_untracked().symptoms.is_empty();
    set_timeout(
        move || {
            let _ = catalogue();
            if restored
                && ctx.slots.try_get_untracked().is_some()
                && ctx.diagnosis.try_get_untracked().flatten().is_none()
            {
                ctx.run_now();
            }
        },
        Duration::from_millis(30),
    );

    // A link pasted into the address bar of an open page.
    let on_hash = window_event_listener(leptos::ev::hashchange, move |_| ctx.open_link(&web::location_hash()));
    // Files dropped anywhere on the page (also keeps the browser from
    // navigating away to a dropped file).
    let on_over = window_event_listener(leptos::ev::dragover, move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        let files = ev.data_transfer().map(|d| d.types().includes(&JsValue::from_str("Files"), 0)).unwrap_or(false);
        if files && !ctx.dragging.get_untracked() {
            ctx.dragging.set(true);
        }
    });
    let on_leave = window_event_listener(leptos::ev::dragleave, move |ev: web_sys::DragEvent| {
        if ev.related_target().is_none() {
            let _ = ctx.dragging.try_set(false);
        }
    });
    let on_drop = window_event_listener(leptos::ev::drop, move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        let _ = ctx.dragging.try_set(false);
        let files = web::files_of(ev.data_transfer().and_then(|d| d.files()));
        ctx.load_files(files);
    });
    on_cleanup(move || {
        ctx.cancel();
        on_hash.remove();
        on_over.remove();
        on_leave.remove();
        on_drop.remove();
    });

    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        if (ev.ctrl_key() || ev.meta_key()) && ev.key() == "Enter" {
            ev.prevent_default();
            ctx.diagnose_now();
        } else if ev.key() == "Escape" && ctx.log_view.get_untracked().is_some() {
            ctx.close_log();
        }
    };
    let lang = ctx.lang;
    let lang_button = move |l: Lang, text: &'static str| {
        view! {
            <button type="button" class="lang-btn" data-lang=l.code()
                aria-pressed=move || if lang.get() == l { "true" } else { "false" }
                on:click=move |_| ctx.choose_lang(l)>{text}</button>
        }
    };

    view! {
        <div class="page" class:dragging=move || ctx.dragging.get() on:keydown=on_keydown>
            <header class="top">
                <div class="brand">
                    <h1>"roll-doctor"</h1>
                    <p class="tagline">{move || t(lang.get(), "tagline")}</p>
                </div>
                <div class="lang" role="group" aria-label=move || t(lang.get(), "lang_label")>
                    {lang_button(Lang::En, "EN")}
                    {lang_button(Lang::Zh, "中文")}
                </div>
            </header>
            {move || crate::view::link_error_view(ctx, lang.get())}
            <main class="layout">
                {crate::inputs::inputs_panel(ctx)}
                <section class="results">
                    {move || crate::view::results(ctx, lang.get())}
                </section>
            </main>
            {move || ctx.log_view.get().map(|target| crate::view::log_view(ctx, target, lang.get()))}
            <div class="drop-overlay" aria-hidden="true">{move || t(lang.get(), "drop_here")}</div>
        </div>
    }
}
