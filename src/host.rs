//! The engine side of the page: what the Web Worker runs (see
//! [`crate::worker`]; the browser tests run it in-process). It holds the
//! rule catalogue (with the user's extra rule files), the texts of the last
//! diagnosis and what the engine collected from them, and answers the
//! page's [`Request`]s. It calls the engine once per diagnosis
//! (`diagnose::collect` + `evaluate_full`), re-evaluates after an answer
//! without reading the inputs again, and builds share links from what was
//! evaluated (`share::build_from`). No web dependency: natively tested.

use crate::model::{
    Diagnosed, KbLoad, LinkError, MappingView, Reply, ReportView, SharedView, ShellError, SymptomInfo, WireInput,
};
use roll_doctor_engine::catalogue::rule_files;
use roll_doctor_engine::diagnose::{self, Collected, Evaluation};
use roll_doctor_engine::example_codes::codes_in;
use roll_doctor_engine::share::{self, ShareError};
use roll_doctor_engine::{catalogue, kb, render, Catalogue, Input, InputKind, KindOverride, Lang, Report, Session};
use std::collections::HashMap;

/// Lines in an unrecognised part that say a command failed instead of printing output.
const SHELL_FAILURES: &[&str] = &[
    "command not found",
    "No such file or directory",
    "Permission denied",
    "Operation not permitted",
    "cannot access",
    "not recognized as",
    "未找到命令",
    "没有那个文件或目录",
    "权限不够",
];

/// Most lines one `Lines` request returns.
pub const MAX_LINES: u32 = 2000;

/// The engine's state in the worker.
#[derive(Default)]
pub struct Host {
    extra: Vec<(String, String)>,
    own: Option<Catalogue>,
    /// How each ascend-fd knowledge base among the extra files loaded.
    kb: Vec<KbLoad>,
    /// The last diagnosis: its inputs (with their texts), slot ids and Blob keys.
    inputs: Vec<Input>,
    slots: Vec<u32>,
    keys: Vec<u64>,
    line_starts: HashMap<u32, Vec<usize>>,
    collected: Option<Collected>,
    evaluation: Option<Evaluation>,
    session: Session,
    shared: Option<Report>,
}

fn mapping_kind<T: serde::Serialize>(kind: &T) -> String {
    serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// Whether a dropped rule file is an ascend-fd knowledge base (JSON) rather than rule YAML.
pub fn is_kb_file(name: &str, text: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".json") || text.trim_start().starts_with('{')
}

/// The collector's node marker: an input holding one names its nodes itself.
const NODE_MARKER: &str = "===== roll-doctor node: ";

/// Whether `hay` contains `needle` (already lower-case ASCII), ignoring ASCII case.
fn contains_ci(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    if n.is_empty() {
        return true;
    }
    if h.len() < n.len() {
        return false;
    }
    let first = n[0];
    (0..=h.len() - n.len()).any(|i| {
        h[i].to_ascii_lowercase() == first && h[i..i + n.len()].iter().zip(n).all(|(a, b)| a.to_ascii_lowercase() == *b)
    })
}

impl Host {
    pub fn new() -> Host {
        Host::default()
    }

    /// The catalogue in use: the embedded one, or it with the extra files.
    pub fn cat(&self) -> &Catalogue {
        self.own.as_ref().unwrap_or_else(|| catalogue())
    }

    /// Loads extra rule files (none: the embedded catalogue) and says what
    /// loaded. Files that are ascend-fd knowledge bases (`kg-config.json`)
    /// are read by the engine's loader and matched after the rules.
    pub fn set_rules(&mut self, files: Vec<(String, String)>) -> Reply {
        let (kbs, yaml): (Vec<_>, Vec<_>) = files.into_iter().partition(|(n, t)| is_kb_file(n, t));
        self.extra = yaml;
        self.kb.clear();
        let mut all: Option<kb::KnowledgeBase> = None;
        for (name, text) in &kbs {
            match kb::load(text) {
                Ok(k) => {
                    self.kb.push(KbLoad {
                        name: name.clone(),
                        used: k.rules.len(),
                        skipped: k.skipped.len(),
                        error: None,
                    });
                    let a = all.get_or_insert_with(kb::KnowledgeBase::default);
                    a.rules.extend(k.rules);
                    a.skipped.extend(k.skipped);
                }
                Err(e) => self.kb.push(KbLoad { name: name.clone(), used: 0, skipped: 0, error: Some(e.to_string()) }),
            }
        }
        self.own = (!self.extra.is_empty() || all.is_some())
            .then(|| Catalogue::load_full(rule_files(), &self.extra, all.as_ref()));
        // What was collected used the old signature set: collect again on the next request.
        self.collected = None;
        self.evaluation = None;
        self.ready()
    }

    /// The catalogue's version, load errors, extra rule ids and the symptom list.
    pub fn ready(&self) -> Reply {
        let cat = self.cat();
        let symptoms = cat
            .rules
            .iter()
            .map(|r| {
                let mut codes = r.codes.clone();
                codes_in(&r.title.en, &mut codes);
                for c in &r.example_codes {
                    if !codes.contains(c) {
                        codes.push(c.clone());
                    }
                }
                let search = [r.id.as_str(), &r.title.en, &r.title.zh, &r.summary.en, &r.summary.zh, &codes.join(" ")]
                    .join(" ")
                    .to_lowercase();
                SymptomInfo { id: r.id.clone(), area: r.area, title: r.title.clone(), codes, search }
            })
            .collect();
        Reply::Ready {
            version: cat.version().to_string(),
            errors: cat.errors.iter().map(|e| e.to_string()).collect(),
            extra: cat.extra.clone(),
            symptoms,
            kb: self.kb.clone(),
        }
    }

    /// The text of slot `slot` when it was read from the Blob `key` before.
    pub fn cached_text(&self, slot: u32, key: u64) -> Option<&str> {
        let i = self.slots.iter().position(|s| *s == slot)?;
        (key != 0 && self.keys[i] == key).then(|| self.inputs[i].text.as_str())
    }

    /// Takes the cached text of a Blob input out of the last diagnosis.
    pub fn take_cached(&mut self, slot: u32, key: u64) -> Option<String> {
        self.cached_text(slot, key)?;
        let i = self.slots.iter().position(|s| *s == slot)?;
        Some(std::mem::take(&mut self.inputs[i].text))
    }

    /// Diagnoses `inputs` (each with its text) with `session`.
    pub fn diagnose(
        &mut self,
        seq: u32,
        inputs: Vec<(WireInput, String)>,
        session: Session,
        read_ms: f64,
        clock: &dyn Fn() -> f64,
    ) -> Reply {
        let t0 = clock();
        self.slots = inputs.iter().map(|(w, _)| w.slot).collect();
        self.keys = inputs.iter().map(|(w, _)| if w.blob.is_some() { w.key } else { 0 }).collect();
        self.inputs = inputs
            .into_iter()
            .map(|(w, text)| Input {
                label: w.label,
                overrides: w
                    .overrides
                    .into_iter()
                    .map(|(start_line, kind)| KindOverride { start_line, kind })
                    .collect(),
                // A bundle names its nodes itself (its parts before the first
                // node marker are the cluster's, not the file's).
                node: w.node.filter(|_| !text.contains(NODE_MARKER)),
                text,
            })
            .collect();
        self.line_starts.clear();
        self.session = session;
        let cat = self.own.as_ref().unwrap_or_else(|| catalogue());
        let c = diagnose::collect(cat, &self.inputs);
        self.evaluation = Some(diagnose::evaluate_full(cat, &c, &self.session, None));
        self.collected = Some(c);
        let engine_ms = clock() - t0;
        self.diagnosed(seq, read_ms, engine_ms)
    }

    fn diagnosed(&self, seq: u32, read_ms: f64, engine_ms: f64) -> Reply {
        let Some(ev) = &self.evaluation else { return Reply::Markdown { seq, text: String::new() } };
        let report = ReportView::from_report(&ev.report);
        let sizes = self
            .inputs
            .iter()
            .zip(&self.slots)
            .map(|(i, s)| (*s, i.text.split('\n').count() as u32, i.text.len() as u64))
            .collect();
        Reply::Diagnosed(Box::new(Diagnosed {
            seq,
            shell_errors: self.shell_errors(&report),
            report,
            slots: self.slots.clone(),
            sizes,
            read_ms,
            engine_ms,
            memory_bytes: linear_memory_bytes(),
        }))
    }

    /// Parts that are not logs (command output, or nothing recognised)
    /// whose lines say the command failed: nothing in them can be
    /// diagnosed, and the user should know why.
    fn shell_errors(&self, report: &ReportView) -> Vec<ShellError> {
        let mut out = Vec::new();
        // A log is scanned (failure-like lines are listed as unexplained),
        // unless it is only a command and its complaint (`cat x` → "No such file").
        let short_log = |s: &&crate::model::SegmentView| s.command.is_some() && s.end_line <= s.start_line + 2;
        for s in report.segments.iter().filter(|s| (s.kind != InputKind::Log || short_log(s)) && s.start_line > 0) {
            let (Some(input), Some(slot)) = (self.inputs.get(s.input), self.slots.get(s.input)) else { continue };
            let lines = input.text.split('\n').enumerate().skip(s.start_line as usize - 1);
            let take = (s.end_line.saturating_sub(s.start_line) + 1).min(200) as usize;
            for (i, line) in lines.take(take) {
                if SHELL_FAILURES.iter().any(|m| line.contains(m)) {
                    out.push(ShellError {
                        slot: *slot,
                        line: i as u32 + 1,
                        text: line.trim_end_matches('\r').to_string(),
                        command: s.command.clone(),
                    });
                    break;
                }
            }
        }
        out
    }

    /// Diagnoses the same inputs with another session (an answer was clicked).
    pub fn evaluate(&mut self, seq: u32, session: Session, clock: &dyn Fn() -> f64) -> Reply {
        self.session = session;
        let t0 = clock();
        if self.collected.is_none() {
            let cat = self.own.as_ref().unwrap_or_else(|| catalogue());
            self.collected = Some(diagnose::collect(cat, &self.inputs));
        }
        let cat = self.own.as_ref().unwrap_or_else(|| catalogue());
        if let Some(c) = &self.collected {
            self.evaluation = Some(diagnose::evaluate_full(cat, c, &self.session, None));
        }
        self.diagnosed(seq, 0.0, clock() - t0)
    }

    /// Forgets the inputs (after Clear).
    pub fn forget(&mut self) {
        *self = Host {
            extra: std::mem::take(&mut self.extra),
            own: self.own.take(),
            kb: std::mem::take(&mut self.kb),
            ..Host::default()
        };
    }

    /// The share link's fragment for the local diagnosis, the payload as
    /// JSON and every replacement made.
    pub fn share(&self, seq: u32, lang: Lang, excerpts: bool) -> Reply {
        let (Some(c), Some(ev)) = (&self.collected, &self.evaluation) else {
            return Reply::Shared { seq, fragment: String::new(), json: String::new(), mapping: Vec::new() };
        };
        let (payload, mapping) = share::build_from(self.cat(), c, ev, &self.session, lang, excerpts, &self.inputs);
        Reply::Shared {
            seq,
            fragment: share::encode(&payload),
            json: serde_json::to_string_pretty(&payload).unwrap_or_default(),
            mapping: mapping
                .into_iter()
                .map(|m| MappingView { kind: mapping_kind(&m.kind), placeholder: m.placeholder, original: m.original })
                .collect(),
        }
    }

    /// The local report as Markdown ending with its share link (`base#code`,
    /// or the bare code), or the shared one with the link it came from.
    pub fn markdown(&self, seq: u32, lang: Lang, shared: Option<&str>, base: Option<&str>, excerpts: bool) -> Reply {
        let text = match shared {
            Some(link) => self.shared.as_ref().map(|r| render::markdown_with(r, lang, Some(link))),
            None => self.evaluation.as_ref().map(|e| {
                let code = match self.share(seq, lang, excerpts) {
                    Reply::Shared { fragment, .. } => fragment,
                    _ => String::new(),
                };
                let link = match base {
                    Some(b) if !code.is_empty() => format!("{b}#{code}"),
                    _ => code,
                };
                render::markdown_with(&e.report, lang, Some(&link))
            }),
        };
        Reply::Markdown { seq, text: text.unwrap_or_default() }
    }

    /// Opens a share link: a whole address, a fragment, or a bare `v1=…`.
    pub fn open(&mut self, seq: u32, link: &str) -> Reply {
        let fragment = link.trim().rsplit_once('#').map_or(link.trim(), |(_, f)| f);
        match share::decode(fragment) {
            Ok(p) => {
                let r = share::report_from(&p);
                let excerpts = !p.excerpts.is_empty() || p.facts.iter().any(|f| !f.text.is_empty());
                let view = SharedView {
                    report: ReportView::from_report(&r.report),
                    rules: p.rules.clone(),
                    rules_changed: r.rules_changed,
                    missing: r.missing,
                    excerpts,
                    lang: p.lang,
                };
                self.shared = Some(r.report);
                Reply::Opened { seq, view: Box::new(view) }
            }
            Err(e) => {
                let error = match e {
                    ShareError::NotALink => LinkError::NotALink,
                    ShareError::FutureVersion(v) => LinkError::Future(v),
                    ShareError::TooLarge => LinkError::TooLarge,
                    _ => LinkError::Corrupt,
                };
                Reply::LinkFailed { seq, error }
            }
        }
    }

    fn starts(&mut self, slot: u32) -> Option<(&str, &[usize])> {
        let i = self.slots.iter().position(|s| *s == slot)?;
        let text = self.inputs[i].text.as_str();
        let starts = self.line_starts.entry(slot).or_insert_with(|| {
            let mut v = vec![0];
            v.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
            v
        });
        Some((text, starts.as_slice()))
    }

    fn line_of<'t>(text: &'t str, starts: &[usize], n: usize) -> &'t str {
        let a = starts[n];
        let b = starts.get(n + 1).map_or(text.len(), |e| e - 1);
        text.get(a..b.max(a)).unwrap_or("").trim_end_matches('\r')
    }

    /// Lines `from..from+count` (1-based) of slot `slot`'s text.
    pub fn lines(&mut self, seq: u32, slot: u32, from: u32, count: u32) -> Reply {
        let Some((text, starts)) = self.starts(slot) else {
            return Reply::Lines { seq, slot, from, lines: Vec::new(), total: 0 };
        };
        let total = starts.len() as u32;
        let from = from.clamp(1, total.max(1));
        let end = (from - 1 + count.min(MAX_LINES)).min(total);
        let lines = (from - 1..end).map(|n| Host::line_of(text, starts, n as usize).to_string()).collect();
        Reply::Lines { seq, slot, from, lines, total }
    }

    /// The first line after (or before, with `back`) `line` holding
    /// `query`, wrapping around, and how many lines hold it.
    pub fn search(&mut self, seq: u32, slot: u32, query: &str, line: u32, back: bool) -> Reply {
        let q = query.to_ascii_lowercase();
        let Some((text, starts)) = self.starts(slot) else { return Reply::Found { seq, slot, line: None, matches: 0 } };
        if q.trim().is_empty() {
            return Reply::Found { seq, slot, line: None, matches: 0 };
        }
        let hits: Vec<u32> = (0..starts.len())
            .filter(|&n| contains_ci(Host::line_of(text, starts, n), &q))
            .map(|n| n as u32 + 1)
            .collect();
        let found = if back {
            hits.iter().rev().find(|&&l| l < line).or(hits.last()).copied()
        } else {
            hits.iter().find(|&&l| l > line).or(hits.first()).copied()
        };
        Reply::Found { seq, slot, line: found, matches: hits.len() as u32 }
    }
}

/// The size of this module's linear memory (in wasm; 0 elsewhere).
fn linear_memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        (core::arch::wasm32::memory_size(0) * 65536) as f64
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> f64 {
        0.0
    }

    fn text_input(slot: u32, text: &str) -> (WireInput, String) {
        (WireInput { slot, ..WireInput::default() }, text.to_string())
    }

    fn diagnosed(r: Reply) -> Diagnosed {
        match r {
            Reply::Diagnosed(d) => *d,
            other => panic!("expected a diagnosis, got {other:?}"),
        }
    }

    #[test]
    fn a_share_with_excerpts_replaces_the_names_the_inputs_reveal() {
        let log = "[jdoe@ascend-node-17 ~]$ tail -n 1 /data/jdoe_runs/plog.log\n\
                   EI0006: [PID: 1292363] Getting socket times out. host ascend-node-17 peer 10.20.0.29 dir /data/jdoe_runs\n";
        let mut h = Host::new();
        diagnosed(h.diagnose(1, vec![text_input(1, log)], Session::default(), 0.0, &clock));
        match h.share(2, Lang::En, true) {
            Reply::Shared { json, mapping, .. } => {
                assert!(json.contains("Getting socket times out"), "excerpts are on: {json}");
                for secret in ["ascend-node-17", "jdoe", "10.20.0.29"] {
                    assert!(!json.contains(secret), "{secret} in {json}");
                    assert!(mapping.iter().any(|m| m.original == secret), "{secret} not in the preview");
                }
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn diagnoses_reevaluates_and_shares_without_collecting_twice() {
        let mut h = Host::new();
        let d = diagnosed(h.diagnose(
            1,
            vec![text_input(7, "EI0006: Getting socket times out.\n")],
            Session::default(),
            0.0,
            &clock,
        ));
        assert_eq!(d.slots, [7]);
        assert_eq!(d.report.findings[0].id, "hccl-connect-timeout");
        let mut session = Session::default();
        session.answers.push(roll_doctor_engine::AnswerRef {
            rule: "hccl-connect-timeout".into(),
            step: "link".into(),
            answer: "some-down".into(),
        });
        let d2 = diagnosed(h.evaluate(2, session, &clock));
        assert_eq!(d2.report.findings[0].id, "hccl-link-down", "the answer is a fact for every finding");
        match h.share(3, Lang::En, false) {
            Reply::Shared { fragment, .. } => {
                assert!(fragment.starts_with("v1="));
                match h.open(4, &format!("file:///home/jdoe/roll-doctor.html#{fragment}")) {
                    Reply::Opened { view, .. } => {
                        let ids: Vec<_> = view.report.findings.iter().map(|f| f.id.clone()).collect();
                        let local: Vec<_> = d2.report.findings.iter().map(|f| f.id.clone()).collect();
                        assert_eq!(ids, local);
                    }
                    other => panic!("{other:?}"),
                }
                // a bare code opens too
                assert!(matches!(h.open(5, &fragment), Reply::Opened { .. }));
            }
            other => panic!("{other:?}"),
        }
        match h.markdown(5, Lang::En, None, Some("https://intra.example/rd/"), false) {
            Reply::Markdown { text, .. } => {
                assert!(text.contains("**Share link**: <https://intra.example/rd/#v1="), "{text}");
                assert!(text.contains("Some card is DOWN"), "the answer given: {text}");
            }
            other => panic!("{other:?}"),
        }
        match h.markdown(5, Lang::Zh, None, None, false) {
            Reply::Markdown { text, .. } => assert!(text.contains("```text\nv1="), "bare code: {text}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(h.open(6, "v1=garbage!"), Reply::LinkFailed { error: LinkError::Corrupt, .. }));
        assert!(matches!(h.open(6, "hello"), Reply::LinkFailed { error: LinkError::NotALink, .. }));
    }

    #[test]
    fn extra_rule_files_apply_and_their_errors_name_file_and_line() {
        let mut h = Host::new();
        let good = "id: my-test-rule\nseverity: warn\narea: other\ntitle: { en: \"My rule\", zh: \"我的规则\" }\n\
            summary: { en: \"It fired.\", zh: \"触发了。\" }\nwhen: { signature: 'WIDGET-FAILURE-42' }\n\
            fixes:\n  - title: { en: \"Fix it\", zh: \"修复\" }\n    commands: ['echo ok']\n\
            examples:\n  match: ['WIDGET-FAILURE-42']\n  no_match: ['fine']\n";
        let bad = "id: broken\nseverity: nope\n";
        match h.set_rules(vec![("mine.yaml".into(), good.into()), ("broken.yaml".into(), bad.into())]) {
            Reply::Ready { errors, extra, symptoms, .. } => {
                assert_eq!(extra, ["my-test-rule"]);
                assert_eq!(errors.len(), 1, "{errors:?}");
                assert!(errors[0].starts_with("broken.yaml:"), "{errors:?}");
                assert!(symptoms.iter().any(|s| s.id == "my-test-rule"));
            }
            other => panic!("{other:?}"),
        }
        let d =
            diagnosed(h.diagnose(1, vec![text_input(1, "x WIDGET-FAILURE-42 y\n")], Session::default(), 0.0, &clock));
        assert_eq!(d.report.findings[0].id, "my-test-rule");
        h.set_rules(Vec::new());
        let d = diagnosed(h.evaluate(2, Session::default(), &clock));
        assert!(d.report.findings.iter().all(|f| f.id != "my-test-rule"), "removed rules stop applying");
    }

    #[test]
    fn symptoms_can_be_found_by_error_code() {
        let h = Host::new();
        let Reply::Ready { symptoms, errors, .. } = h.ready() else { panic!() };
        assert!(errors.is_empty(), "{errors:?}");
        let ei = symptoms.iter().find(|s| s.id == "hccl-connect-timeout").unwrap();
        assert!(ei.search.contains("ei0006"), "{:?}", ei.codes);
    }

    #[test]
    fn failed_commands_are_pointed_out() {
        let mut h = Host::new();
        let text = "$ hccn_tool -i 0 -link -g\nbash: hccn_tool: command not found\n$ cat /etc/missing.conf\n\
            cat: /etc/missing.conf: No such file or directory\n";
        let d = diagnosed(h.diagnose(1, vec![text_input(3, text)], Session::default(), 0.0, &clock));
        assert_eq!(d.shell_errors.len(), 2, "{:?}", d.report.segments);
        assert_eq!(d.shell_errors[0].line, 2);
        assert_eq!(d.shell_errors[0].slot, 3);
        assert_eq!(d.shell_errors[0].command.as_deref(), Some("hccn_tool -i 0 -link -g"));
        assert_eq!(d.shell_errors[1].line, 4);
        // an ordinary output is not one
        let d = diagnosed(h.diagnose(2, vec![text_input(3, "$ ulimit -n\n1024\n")], Session::default(), 0.0, &clock));
        assert!(d.shell_errors.is_empty());
    }

    #[test]
    fn lines_and_search() {
        let mut h = Host::new();
        let text = "alpha\nBeta one\r\ngamma\nbeta two\n";
        diagnosed(h.diagnose(1, vec![text_input(2, text)], Session::default(), 0.0, &clock));
        match h.lines(1, 2, 2, 2) {
            Reply::Lines { lines, total, from, .. } => {
                assert_eq!(from, 2);
                assert_eq!(lines, ["Beta one", "gamma"]);
                assert_eq!(total, 5);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(h.search(2, 2, "BETA", 0, false), Reply::Found { line: Some(2), matches: 2, .. }));
        assert!(matches!(h.search(2, 2, "beta", 2, false), Reply::Found { line: Some(4), .. }));
        assert!(matches!(h.search(2, 2, "beta", 4, false), Reply::Found { line: Some(2), .. }), "wraps around");
        assert!(matches!(h.search(2, 2, "beta", 4, true), Reply::Found { line: Some(2), .. }));
        assert!(matches!(h.search(2, 2, "delta", 1, false), Reply::Found { line: None, matches: 0, .. }));
    }

    #[test]
    fn blob_texts_are_read_once() {
        let mut h = Host::new();
        let w = WireInput { slot: 5, blob: Some(0), key: 99, ..WireInput::default() };
        diagnosed(h.diagnose(
            1,
            vec![(w, "EI0006: Getting socket times out.\n".into())],
            Session::default(),
            0.0,
            &clock,
        ));
        assert!(h.cached_text(5, 99).is_some());
        assert!(h.cached_text(5, 98).is_none());
        assert!(h.cached_text(6, 99).is_none());
    }

    #[test]
    fn an_ascend_fd_knowledge_base_among_the_rule_files_is_loaded_by_the_engine() {
        let mut h = Host::new();
        let kg = r#"{"knowledge-repository": {
            "E2E_1": {"attribute": {"cause_en": "Gizmo jammed", "cause_zh": "小部件卡住"}, "regex": {"in": [["GIZMO-77", "jammed"]]}},
            "E2E_2": {"attribute": {"cause_en": "Multi", "cause_zh": "多行"}, "regex": {"opt": [{"all": [["a"], ["b"]]}]}}
        }}"#;
        let files = vec![("kg-config.json".to_string(), kg.to_string()), ("not-kb.json".into(), "[1]".into())];
        match h.set_rules(files) {
            Reply::Ready { kb, errors, extra, .. } => {
                assert!(errors.is_empty() && extra.is_empty(), "{errors:?} {extra:?}");
                assert_eq!(kb.len(), 2);
                assert_eq!(
                    (kb[0].name.as_str(), kb[0].used, kb[0].skipped, kb[0].error.is_none()),
                    ("kg-config.json", 1, 1, true)
                );
                assert!(kb[1].error.as_deref().unwrap_or("").contains("ascend-fd"), "{:?}", kb[1]);
            }
            other => panic!("{other:?}"),
        }
        let d = diagnosed(h.diagnose(1, vec![text_input(1, "GIZMO-77 is jammed\n")], Session::default(), 0.0, &clock));
        let f = d.report.finding("kb:E2E_1").expect("the knowledge base entry fires");
        assert_eq!(f.origin.as_deref(), Some(roll_doctor_engine::kb::ATTRIBUTION));
        h.set_rules(Vec::new());
        let Reply::Ready { kb, .. } = h.ready() else { panic!() };
        assert!(kb.is_empty());
        assert!(is_kb_file("x.JSON", "") && is_kb_file("paste", " {") && !is_kb_file("r.yaml", "id: x"));
    }

    const BUNDLE: &str =
        include_str!("../crates/engine/tests/fixtures/node-stack-version-differs--three-node-bundle.txt");

    #[test]
    fn a_bundle_file_names_its_own_nodes_and_carries_the_cluster_table() {
        let mut h = Host::new();
        // dropped as a file: labelled with its name, which must not become a fourth node
        let w = WireInput {
            slot: 1,
            label: "bundle.txt".into(),
            node: crate::model::node_of_label("bundle.txt"),
            ..WireInput::default()
        };
        let d = diagnosed(h.diagnose(1, vec![(w, BUNDLE.to_string())], Session::default(), 0.0, &clock));
        assert_eq!(d.report.nodes, ["ascend-node-1", "ascend-node-2", "ascend-node-3"]);
        let c = d.report.cluster.as_ref().expect("a cluster table");
        assert_eq!(c.rows.len(), 3);
        assert_eq!(c.missing, ["ascend-node-4"]);
        let col = c.checks.iter().position(|(id, _)| id == "links").unwrap();
        let cell = &c.rows[2].1[col];
        assert_eq!((cell.status, cell.value.as_str()), (crate::model::CellStatus::Fail, "5: DOWN"));
        assert_eq!(cell.findings, ["hccl-link-down"]);
        assert_eq!(c.rows[0].1[col].status, crate::model::CellStatus::Ok);
        // the finding lists the cell's evidence line, so a click can focus it
        let ev = cell.evidence.as_ref().unwrap();
        let f = d.report.finding("hccl-link-down").unwrap();
        assert!(f.evidence.iter().any(|e| e.line == ev.line && e.input == ev.input), "{ev:?} {:?}", f.evidence);
    }

    #[test]
    fn per_node_files_take_their_node_from_the_file_name() {
        use crate::model::node_of_label;
        assert_eq!(node_of_label("ascend-node-3.txt").as_deref(), Some("ascend-node-3"));
        assert_eq!(node_of_label(" node-2.LOG ").as_deref(), Some("node-2"));
        assert_eq!(node_of_label("10.0.0.1").as_deref(), Some("10.0.0.1"));
        assert_eq!(node_of_label("node-4").as_deref(), Some("node-4"));
        assert_eq!(node_of_label(".txt").as_deref(), Some(".txt"));
        assert_eq!(node_of_label("  "), None);
        let mut h = Host::new();
        let file = |slot: u32, name: &str, text: &str| {
            (
                WireInput { slot, label: name.into(), node: node_of_label(name), ..WireInput::default() },
                text.to_string(),
            )
        };
        let d = diagnosed(h.diagnose(
            1,
            vec![file(1, "n1.txt", "$ ulimit -n\n65536\n"), file(2, "n2.txt", "$ ulimit -n\n1024\n")],
            Session::default(),
            0.0,
            &clock,
        ));
        assert_eq!(d.report.nodes, ["n1", "n2"]);
        assert_eq!(d.report.cluster.as_ref().map(|c| c.rows.len()), Some(2));
    }

    #[test]
    fn unexplained_lines_carry_their_rule_stub() {
        let mut h = Host::new();
        let line = "(WorkerDict pid=2211) ValueError: Expected tensor of shape [4096, 128] but got [2048, 128]";
        let d = diagnosed(h.diagnose(1, vec![text_input(1, &format!("{line}\n"))], Session::default(), 0.0, &clock));
        let g = d.report.unexplained.first().expect("an unexplained line");
        assert_eq!(g.stub, roll_doctor_engine::stub::rule_from_line(line));
        assert!(g.stub.contains("id: new-value-error") && g.stub.contains("ValueError:"), "{}", g.stub);
    }
}
