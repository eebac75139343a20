//! The page's state (wasm32 only): signals in one `Copy` bundle, [`Ctx`],
//! handed to every view. What changes it is in [`crate::actions`]; the
//! engine is reached through [`crate::engine`]. Nothing here decides
//! anything about a diagnosis.

use crate::engine::Engine;
use crate::i18n::Lang;
use crate::model::{Diagnosed, LinkError, MappingView, Phase, ReportView, SharedView, ShellError, SymptomInfo};
use crate::web::CopyState;
use leptos::prelude::*;
use roll_doctor_engine::{InputKind, Session};
use std::collections::HashMap;
use std::rc::Rc;

/// localStorage key holding the chosen language (`en` / `zh`).
pub const LANG_KEY: &str = "roll-doctor.lang";
/// localStorage key of the extra rule files.
pub const RULES_KEY: &str = "roll-doctor.rules";
/// localStorage key of the share links' base address.
pub const BASE_KEY: &str = "roll-doctor.share-base";
pub use crate::persist::INPUTS_KEY;

/// Pause after the last keystroke before diagnosing.
pub const DEBOUNCE: std::time::Duration = std::time::Duration::from_millis(300);
/// Texts larger than this (bytes) are not put into a textarea (which would
/// make the page sluggish) but kept as a Blob and shown as a card; they are
/// diagnosed all the same.
pub const CARD_LIMIT: usize = 4 << 20;
/// Inputs of this size or more show the progress line and a Cancel button.
pub const BIG: u64 = 1 << 20;

/// A file (or paste) too large for a textarea.
#[derive(Clone, Debug, PartialEq)]
pub struct FileCard {
    /// The file name; None for pasted text.
    pub name: Option<String>,
    pub bytes: u64,
    /// Known once the engine has read it.
    pub lines: Option<u32>,
}

/// One input: a paste or a file, with a label such as a node name.
#[derive(Clone, Copy)]
pub struct Slot {
    pub id: u32,
    pub label: RwSignal<String>,
    /// The text as last read from the page (the textarea is the truth
    /// while the user types; it is read before each diagnosis).
    pub text: StoredValue<String>,
    /// The content of a card (a file, a large paste): the worker reads it.
    pub blob: StoredValue<Option<web_sys::Blob>, LocalStorage>,
    /// Identifies the Blob's content, so the worker reads it once.
    pub key: StoredValue<u64>,
    /// `(start_line, kind)` the user chose for segments.
    pub overrides: RwSignal<Vec<(u32, InputKind)>>,
    pub area: NodeRef<leptos::html::Textarea>,
    /// Set when the content is a Blob shown as a card.
    pub card: RwSignal<Option<FileCard>>,
    /// Size of a text too large to keep in storage (set when saving).
    pub unsaved: RwSignal<Option<u64>>,
    /// Size of a text that was too large to keep before the last reload.
    pub omitted: RwSignal<Option<u64>>,
}

/// The last diagnosis of the local inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnosis {
    pub report: ReportView,
    /// Slot id of each engine input (evidence `input` indexes this).
    pub slots: Vec<u32>,
    pub shell_errors: Vec<ShellError>,
    pub lines: u64,
    pub bytes: u64,
    pub engine_ms: f64,
    pub read_ms: f64,
    pub memory_bytes: f64,
}

impl Diagnosis {
    pub fn from(d: &Diagnosed) -> Diagnosis {
        Diagnosis {
            report: d.report.clone(),
            slots: d.slots.clone(),
            shell_errors: d.shell_errors.clone(),
            lines: d.sizes.iter().map(|(_, l, _)| *l as u64).sum(),
            bytes: d.sizes.iter().map(|(_, _, b)| *b).sum(),
            engine_ms: d.engine_ms,
            read_ms: d.read_ms,
            memory_bytes: d.memory_bytes,
        }
    }
}

/// Work the engine is doing for the page.
#[derive(Clone, Debug, PartialEq)]
pub struct Busy {
    pub seq: u32,
    pub phase: Phase,
    /// What is read or diagnosed (a file name, or "pasted text").
    pub name: String,
    pub done: f64,
    pub total: f64,
    /// Large enough to show the progress line and Cancel.
    pub big: bool,
}

/// A share link made from the local inputs, with what it carries.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareOut {
    /// The link, or the bare code when the page has no address to give.
    pub url: String,
    pub bare: bool,
    /// The payload as pretty JSON: exactly what the fragment carries.
    pub json: String,
    /// Original values and their placeholders; never leaves the page.
    pub mapping: Vec<MappingView>,
}

/// The log view: a window of an input's lines around a target line.
#[derive(Clone, Debug, PartialEq)]
pub struct LogView {
    pub slot: u32,
    pub target: u32,
    pub from: u32,
    pub lines: Vec<String>,
    pub total: u32,
    pub loading: bool,
    pub query: String,
    /// Lines holding the query (None before a search).
    pub matches: Option<u32>,
}

/// The extra rule files and what loading them said.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RulesState {
    pub files: Vec<(String, String)>,
    pub errors: Vec<String>,
    pub extra: Vec<String>,
    /// The ascend-fd knowledge bases among them, as the engine loaded them.
    pub kb: Vec<crate::model::KbLoad>,
    /// False when the browser refused to keep them.
    pub saved: bool,
}

/// A message above the inputs.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    Cancelled(String),
    ReadFailed(String),
    EngineFailed,
    /// Clear was pressed; Undo brings the inputs back.
    Cleared,
}

/// Where the focus goes once the next diagnosis is on the page.
#[derive(Clone, Debug, PartialEq)]
pub enum FocusNext {
    /// The first finding (on a narrow screen also scrolled to the top).
    FirstFinding { scroll: bool },
    /// A step of a finding, else that finding.
    Step { rule: String, step: String },
    /// An element by selector.
    Selector(String),
}

/// What the page keeps of a Clear, for Undo.
#[derive(Clone)]
pub struct ClearedState {
    pub slots: Vec<Slot>,
    pub session: Session,
}

/// The page's state; `Copy`, so every view and handler gets its own.
#[derive(Clone, Copy)]
pub struct Ctx {
    pub lang: RwSignal<Lang>,
    /// Whether the user picked the language (then a share link's language
    /// does not override it).
    pub lang_chosen: StoredValue<bool>,
    pub slots: RwSignal<Vec<Slot>>,
    pub next_id: StoredValue<u32>,
    pub session: RwSignal<Session>,
    pub diagnosis: RwSignal<Option<Diagnosis>>,
    pub shared: RwSignal<Option<SharedView>>,
    /// The link the shared diagnosis came from (for its Markdown).
    pub shared_link: StoredValue<String>,
    /// Number of the newest link opened; closing bumps it too, so a reply
    /// to a link the user has since closed or replaced is dropped.
    pub link_seq: StoredValue<u32>,
    pub link_error: RwSignal<Option<LinkError>>,
    pub log: RwSignal<Option<LogView>>,
    pub share_out: RwSignal<Option<ShareOut>>,
    pub excerpts: RwSignal<bool>,
    /// The address share links start with (empty: this page's, when it has one).
    pub share_base: RwSignal<String>,
    pub busy: RwSignal<Option<Busy>>,
    pub notice: RwSignal<Option<Notice>>,
    pub cleared: StoredValue<Option<ClearedState>, LocalStorage>,
    pub rules: RwSignal<RulesState>,
    pub symptoms: RwSignal<Vec<SymptomInfo>>,
    pub symptom_filter: RwSignal<String>,
    pub md_copy: RwSignal<CopyState>,
    /// False when the browser refused to save the inputs.
    pub storage_ok: RwSignal<bool>,
    pub dragging: RwSignal<bool>,
    /// Half-typed outputs of steps, by `(rule, step)`, kept across re-renders.
    pub drafts: StoredValue<HashMap<(String, String), String>>,
    /// The page's reactive owner: signals made in a click handler belong to
    /// the page, not to the part of the page that was clicked.
    pub owner: StoredValue<Option<Owner>>,
    /// What had the focus before the log view opened, to give it back.
    pub return_focus: StoredValue<Option<web_sys::HtmlElement>, LocalStorage>,
    pub engine: StoredValue<Option<Rc<Engine>>, LocalStorage>,
    /// Sequence number of the newest request whose reply the page waits for.
    pub seq: StoredValue<u32>,
    /// True after the worker restarted: it holds no inputs yet.
    pub engine_fresh: StoredValue<bool>,
    /// Slots of files still being read or diagnosed for the first time.
    pub unsettled: StoredValue<Vec<u32>>,
    pub focus_next: StoredValue<Option<FocusNext>>,
    /// Pending debounce timer of typing.
    pub pending: StoredValue<Option<TimeoutHandle>>,
    /// Whether the first finding has been marked (`rd-first-finding`).
    pub first_marked: StoredValue<bool>,
    /// Whether a diagnosis or link is waiting for the rules to be ready.
    pub ready: RwSignal<bool>,
}

impl Ctx {
    pub fn new(lang: Lang, lang_chosen: bool) -> Ctx {
        Ctx {
            lang: RwSignal::new(lang),
            lang_chosen: StoredValue::new(lang_chosen),
            slots: RwSignal::new(Vec::new()),
            next_id: StoredValue::new(0),
            session: RwSignal::new(Session::default()),
            diagnosis: RwSignal::new(None),
            shared: RwSignal::new(None),
            shared_link: StoredValue::new(String::new()),
            link_seq: StoredValue::new(0),
            link_error: RwSignal::new(None),
            log: RwSignal::new(None),
            share_out: RwSignal::new(None),
            excerpts: RwSignal::new(false),
            share_base: RwSignal::new(String::new()),
            busy: RwSignal::new(None),
            notice: RwSignal::new(None),
            cleared: StoredValue::new_local(None),
            rules: RwSignal::new(RulesState { saved: true, ..RulesState::default() }),
            symptoms: RwSignal::new(Vec::new()),
            symptom_filter: RwSignal::new(String::new()),
            md_copy: RwSignal::new(CopyState::Idle),
            storage_ok: RwSignal::new(true),
            dragging: RwSignal::new(false),
            drafts: StoredValue::new(HashMap::new()),
            owner: StoredValue::new(Owner::current()),
            return_focus: StoredValue::new_local(None),
            engine: StoredValue::new_local(None),
            seq: StoredValue::new(0),
            engine_fresh: StoredValue::new(false),
            unsettled: StoredValue::new(Vec::new()),
            focus_next: StoredValue::new(None),
            pending: StoredValue::new(None),
            first_marked: StoredValue::new(false),
            ready: RwSignal::new(false),
        }
    }

    /// A new input, owned by the page.
    pub fn new_slot(&self, label: &str, text: String) -> Slot {
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        let make = || Slot {
            id,
            label: RwSignal::new(label.to_string()),
            text: StoredValue::new(text),
            blob: StoredValue::new_local(None),
            key: StoredValue::new(0),
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

    pub fn slot(&self, id: u32) -> Option<Slot> {
        self.slots.try_get_untracked()?.into_iter().find(|s| s.id == id)
    }

    /// A short name for an input: its label, else "input N".
    pub fn input_name(&self, slot_id: u32, lang: Lang) -> String {
        let slots = self.slots.get_untracked();
        let pos = slots.iter().position(|s| s.id == slot_id);
        let label = pos.map(|p| slots[p].label.get_untracked()).unwrap_or_default();
        if label.trim().is_empty() {
            crate::i18n::tf(lang, crate::i18n::S::InputFallback, &[("n", &(pos.unwrap_or(0) + 1).to_string())])
        } else {
            label
        }
    }

    /// The next request number.
    pub fn next_seq(&self) -> u32 {
        bump(self.seq)
    }

    /// Starts a new link generation: replies to older links are stale.
    pub fn next_link_seq(&self) -> u32 {
        bump(self.link_seq)
    }

    /// Whether the page is still mounted.
    pub fn alive(&self) -> bool {
        self.slots.try_get_untracked().is_some()
    }
}

/// Increments a request counter and returns the new number.
fn bump(counter: StoredValue<u32>) -> u32 {
    let n = counter.get_value().wrapping_add(1);
    counter.set_value(n);
    n
}
