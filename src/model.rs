//! What travels between the page and the engine worker: requests, replies,
//! and the report as the page shows it.
//!
//! The engine runs in a Web Worker (see [`crate::host`]); the page holds
//! only what it renders. The engine's `Report` is serialisable but not
//! deserialisable, so [`ReportView`] is the page's read of it: the same
//! fields minus the facts, built by [`ReportView::from_report`] (a field
//! added to the engine's report is added here when the page shows it).
//! Messages are JSON (`serde_json`), files travel beside them as Blobs.

use roll_doctor_engine::report::{ClusterStatus, Report, StepState};
use roll_doctor_engine::rules::Fix;
use roll_doctor_engine::{Area, EvidenceLine, InputKind, Lang, Session, Severity, Text};
use serde::{Deserialize, Serialize};

/// A finding as the page renders it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingView {
    pub id: String,
    pub severity: Severity,
    pub title: Text,
    pub summary: Text,
    pub evidence: Vec<EvidenceLine>,
    pub evidence_total: usize,
    #[serde(default)]
    pub nodes: Vec<String>,
    /// For a rule that compares nodes: each node's value, the odd ones flagged.
    #[serde(default)]
    pub by_node: Vec<NodeValueView>,
    /// Where the rule comes from when it is not an embedded one (a knowledge base).
    #[serde(default)]
    pub origin: Option<String>,
    #[serde(default)]
    pub explained_by: Vec<String>,
    #[serde(default)]
    pub from_symptom: bool,
    pub steps: Vec<StepView>,
    pub fixes: Vec<Fix>,
    /// A checksum of everything above: the page re-renders a finding only
    /// when it changed.
    pub rev: u64,
}

/// A decision-tree step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepView {
    pub id: String,
    pub title: Text,
    pub run: Option<String>,
    /// `None` when the check has no single expected result.
    #[serde(default)]
    pub expect: Option<Text>,
    pub answered: bool,
    /// The lines (or the clicked answer) that answer it.
    pub evidence: Vec<EvidenceLine>,
    /// How many more lines answer it than `evidence` lists.
    #[serde(default)]
    pub evidence_omitted: usize,
    /// Answers the user can click: `(id, label)`.
    pub answers: Vec<(String, Text)>,
    /// The answer the user clicked.
    pub answer: Option<String>,
    /// What the answer is (`card 5: DOWN`), when the engine can say.
    #[serde(default)]
    pub conclusion: Option<Text>,
}

/// One node's value in a finding that compares nodes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeValueView {
    pub node: String,
    pub fact: String,
    pub subject: Option<String>,
    pub value: String,
    pub line: u32,
    pub flagged: bool,
}

/// Failure-like lines of one shape that no rule explains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnexplainedView {
    pub first: EvidenceLine,
    pub count: usize,
    pub lines: Vec<u32>,
    pub note: Option<Text>,
    /// "New rule from this line": the engine's rule-file stub for the first
    /// line (empty when the line's text is not known, as in a shared report).
    #[serde(default)]
    pub stub: String,
}

/// What a cell of the cluster table says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CellStatus {
    /// Seen, and no finding points at it.
    Ok,
    /// A finding rests on it.
    Fail,
    /// The input does not show it.
    Unknown,
}

/// One node's value for one check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellView {
    pub status: CellStatus,
    pub value: String,
    /// The line behind it (the failing one first).
    pub evidence: Option<EvidenceLine>,
    /// The findings that rest on it.
    pub findings: Vec<String>,
}

/// The engine's cluster summary: nodes × checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClusterView {
    /// `(id, title)` per column.
    pub checks: Vec<(String, Text)>,
    /// One row per node: its name and a cell per check.
    pub rows: Vec<(String, Vec<CellView>)>,
    /// Nodes that should be in the cluster and are not.
    pub missing: Vec<String>,
}

/// The node an input's label names: the label without a text file's
/// extension (`node-3.txt` → `node-3`, as the CLI's `--nodes` does); None
/// for an empty label.
pub fn node_of_label(label: &str) -> Option<String> {
    let l = label.trim();
    let stem = match l.rsplit_once('.') {
        Some((stem, ext))
            if !stem.is_empty() && ["txt", "log", "out", "text"].contains(&ext.to_ascii_lowercase().as_str()) =>
        {
            stem
        }
        _ => l,
    };
    (!stem.is_empty()).then(|| stem.to_string())
}

/// How an ascend-fd knowledge base file loaded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KbLoad {
    pub name: String,
    /// Entries turned into rules.
    pub used: usize,
    /// Entries this engine cannot match (multi-line, look-around, no pattern).
    pub skipped: usize,
    /// Why the file was not loaded at all.
    pub error: Option<String>,
}

/// One detected part of an input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SegmentView {
    pub input: usize,
    pub kind: InputKind,
    pub command: Option<String>,
    pub node: Option<String>,
    pub start_line: u32,
    pub end_line: u32,
}

/// The report as the page renders it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReportView {
    pub rules_version: String,
    pub findings: Vec<FindingView>,
    pub unexplained: Vec<UnexplainedView>,
    /// Failure-like lines of shapes past the unexplained panel's cap.
    #[serde(default)]
    pub unexplained_omitted: usize,
    pub segments: Vec<SegmentView>,
    pub nodes: Vec<String>,
    /// Nodes × checks, when the input names nodes.
    #[serde(default)]
    pub cluster: Option<ClusterView>,
}

/// FNV-1a over bytes: the page's cheap "did this change" check.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

impl ReportView {
    /// The page's view of an engine report.
    pub fn from_report(r: &Report) -> ReportView {
        let findings = r
            .findings
            .iter()
            .map(|f| {
                let mut v = FindingView {
                    id: f.id.clone(),
                    severity: f.severity,
                    title: f.title.clone(),
                    summary: f.summary.clone(),
                    evidence: f.evidence.clone(),
                    evidence_total: f.evidence_total,
                    nodes: f.nodes.clone(),
                    by_node: f
                        .by_node
                        .iter()
                        .map(|n| NodeValueView {
                            node: n.node.clone(),
                            fact: n.fact.clone(),
                            subject: n.subject.clone(),
                            value: n.value.clone(),
                            line: n.line,
                            flagged: n.flagged,
                        })
                        .collect(),
                    origin: f.origin.clone(),
                    explained_by: f.explained_by.clone(),
                    from_symptom: f.from_symptom,
                    steps: f
                        .steps
                        .iter()
                        .map(|s| StepView {
                            id: s.id.clone(),
                            title: s.title.clone(),
                            run: s.run.clone(),
                            expect: s.expect.clone(),
                            answered: s.state == StepState::Answered,
                            evidence: s.evidence.clone(),
                            evidence_omitted: s.evidence_omitted,
                            answers: s.answers.clone(),
                            answer: s.answer.clone(),
                            conclusion: s.conclusion.clone(),
                        })
                        .collect(),
                    fixes: f.fixes.clone(),
                    rev: 0,
                };
                v.rev = checksum(&serde_json::to_vec(&v).unwrap_or_default());
                v
            })
            .collect();
        ReportView {
            rules_version: r.rules_version.clone(),
            findings,
            unexplained: r
                .unexplained
                .iter()
                .map(|g| UnexplainedView {
                    first: g.first.clone(),
                    count: g.count,
                    lines: g.lines.clone(),
                    note: g.note.clone(),
                    stub: if g.first.text.trim().is_empty() {
                        String::new()
                    } else {
                        roll_doctor_engine::stub::rule_from_line(&g.first.text)
                    },
                })
                .collect(),
            segments: r
                .segments
                .iter()
                .map(|s| SegmentView {
                    input: s.input,
                    kind: s.kind,
                    command: s.command.clone(),
                    node: s.node.clone(),
                    start_line: s.start_line,
                    end_line: s.end_line,
                })
                .collect(),
            unexplained_omitted: r.unexplained_omitted,
            nodes: r.nodes.clone(),
            cluster: r.cluster.as_ref().map(|c| ClusterView {
                checks: c.checks.iter().map(|k| (k.id.clone(), k.title.clone())).collect(),
                rows: c
                    .rows
                    .iter()
                    .map(|(node, cells)| {
                        let cells = cells
                            .iter()
                            .map(|c| CellView {
                                status: match c.status {
                                    ClusterStatus::Ok => CellStatus::Ok,
                                    ClusterStatus::Fail => CellStatus::Fail,
                                    ClusterStatus::Unknown => CellStatus::Unknown,
                                },
                                value: c.value.clone(),
                                evidence: c.evidence.clone(),
                                findings: c.findings.clone(),
                            })
                            .collect();
                        (node.clone(), cells)
                    })
                    .collect(),
                missing: c.missing.clone(),
            }),
        }
    }

    /// The finding with `id`.
    pub fn finding(&self, id: &str) -> Option<&FindingView> {
        self.findings.iter().find(|f| f.id == id)
    }

    /// The finding `f` is listed under: its first cause that is in the report.
    pub fn cause_of(&self, f: &FindingView) -> Option<String> {
        f.explained_by.iter().find(|c| self.findings.iter().any(|x| &x.id == *c && x.id != f.id)).cloned()
    }

    /// The order the page lists findings in: each root cause (in the
    /// engine's order) followed by the findings it explains, depth first;
    /// each with the cause it is listed under (None: a top-level finding).
    pub fn rows(&self) -> Vec<(usize, Option<String>)> {
        let causes: Vec<Option<String>> = self.findings.iter().map(|f| self.cause_of(f)).collect();
        let mut out = Vec::with_capacity(self.findings.len());
        let mut placed = vec![false; self.findings.len()];
        fn visit(
            i: usize,
            me: &ReportView,
            causes: &[Option<String>],
            placed: &mut [bool],
            out: &mut Vec<(usize, Option<String>)>,
        ) {
            if placed[i] {
                return;
            }
            placed[i] = true;
            out.push((i, causes[i].clone()));
            let id = &me.findings[i].id;
            for j in 0..me.findings.len() {
                if causes[j].as_deref() == Some(id.as_str()) {
                    visit(j, me, causes, placed, out);
                }
            }
        }
        for i in 0..self.findings.len() {
            if causes[i].is_none() {
                visit(i, self, &causes, &mut placed, &mut out);
            }
        }
        // A cycle of causes leaves some unplaced: list them at the top level.
        for (i, done) in placed.iter_mut().enumerate() {
            if !*done {
                *done = true;
                out.push((i, None));
            }
        }
        out
    }
}

/// A rule as the symptom picker lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SymptomInfo {
    pub id: String,
    pub area: Area,
    pub title: Text,
    /// CANN / error codes the rule is about (for filtering by code).
    pub codes: Vec<String>,
    /// Lower-case text the filter searches: id, titles, codes, summary.
    pub search: String,
}

/// A part of an input that looks like a failed command rather than output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShellError {
    /// Slot id of the input.
    pub slot: u32,
    pub line: u32,
    pub text: String,
    /// The command that printed it, when the prompt shows it.
    pub command: Option<String>,
}

/// One redaction: what it was, its placeholder, the original.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MappingView {
    /// `ipv4`, `host`, `user`, … (the engine's kind code).
    pub kind: String,
    pub placeholder: String,
    pub original: String,
}

/// Why a share link could not be opened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkError {
    NotALink,
    Future(u32),
    TooLarge,
    Corrupt,
}

/// A diagnosis opened from a share link.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharedView {
    pub report: ReportView,
    pub rules: String,
    pub rules_changed: bool,
    pub missing: Vec<String>,
    pub excerpts: bool,
    pub lang: Lang,
}

/// One input of a diagnosis request. Its text is here, or (files and large
/// pastes) in the Blob at `blob` of the message's blob list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WireInput {
    pub slot: u32,
    pub label: String,
    pub node: Option<String>,
    pub overrides: Vec<(u32, InputKind)>,
    pub text: Option<String>,
    pub blob: Option<u32>,
    /// Identifies a Blob's content: the worker reads each Blob once.
    pub key: u64,
    /// The name shown while it is read.
    pub name: String,
}

/// What the page asks the engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Load the extra rule files (replacing earlier ones): rule YAML, or an
    /// ascend-fd knowledge base (`.json`); answers `Ready`.
    Rules { files: Vec<(String, String)> },
    /// Read and diagnose the inputs; answers `Progress`… then `Diagnosed`.
    Diagnose { seq: u32, inputs: Vec<WireInput>, session: Session },
    /// Diagnose the same inputs with another session.
    Evaluate { seq: u32, session: Session },
    /// Forget the inputs (Clear).
    Forget,
    /// The share link of the local diagnosis.
    Share { seq: u32, lang: Lang, excerpts: bool },
    /// The local diagnosis as Markdown, ending with its share link (the
    /// base, `#` and the code, or the bare code without a base); with
    /// `shared` (the link it came from), the opened shared diagnosis.
    Markdown { seq: u32, lang: Lang, shared: Option<String>, base: Option<String>, excerpts: bool },
    /// Open a share link (a fragment or a bare `v1=…`).
    Open { seq: u32, fragment: String },
    /// Lines `from..from+count` of an input (1-based).
    Lines { seq: u32, slot: u32, from: u32, count: u32 },
    /// The next (or previous) line after `line` holding `query` (case-insensitive).
    Search { seq: u32, slot: u32, query: String, line: u32, back: bool },
}

/// Where a diagnosis is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Reading,
    Diagnosing,
}

/// A diagnosis of the local inputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Diagnosed {
    pub seq: u32,
    pub report: ReportView,
    /// Slot id of each engine input (evidence `input` indexes this).
    pub slots: Vec<u32>,
    /// Lines and bytes of each input, by slot id.
    pub sizes: Vec<(u32, u32, u64)>,
    pub shell_errors: Vec<ShellError>,
    /// Milliseconds spent reading Blobs, and in the engine.
    pub read_ms: f64,
    pub engine_ms: f64,
    /// Bytes of the engine's linear memory after the diagnosis. A wasm
    /// memory only grows, so this is its peak so far (what issue 13's
    /// "peak memory at most 3× the input, in the page" is measured by); 0
    /// outside wasm.
    pub memory_bytes: f64,
}

/// What the engine answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// The rules are loaded.
    Ready {
        version: String,
        errors: Vec<String>,
        extra: Vec<String>,
        symptoms: Vec<SymptomInfo>,
        /// The ascend-fd knowledge bases among the rule files.
        #[serde(default)]
        kb: Vec<KbLoad>,
    },
    Progress {
        seq: u32,
        phase: Phase,
        name: String,
        done: f64,
        total: f64,
    },
    Diagnosed(Box<Diagnosed>),
    Shared {
        seq: u32,
        fragment: String,
        json: String,
        mapping: Vec<MappingView>,
    },
    Markdown {
        seq: u32,
        text: String,
    },
    Opened {
        seq: u32,
        view: Box<SharedView>,
    },
    LinkFailed {
        seq: u32,
        error: LinkError,
    },
    Lines {
        seq: u32,
        slot: u32,
        from: u32,
        lines: Vec<String>,
        total: u32,
    },
    Found {
        seq: u32,
        slot: u32,
        line: Option<u32>,
        matches: u32,
    },
    /// A Blob could not be read.
    ReadFailed {
        seq: u32,
        name: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_survives_the_trip_to_the_page() {
        let r = roll_doctor_engine::diagnose("link status: DOWN\nEI0006: Getting socket times out.\n");
        let v = ReportView::from_report(&r);
        let back: ReportView = serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
        assert_eq!(back, v);
        assert_eq!(v.findings.len(), r.findings.len());
        assert!(v.findings.iter().all(|f| f.rev != 0));
        // revs differ between findings and are stable
        let again = ReportView::from_report(&r);
        assert_eq!(
            again.findings.iter().map(|f| f.rev).collect::<Vec<_>>(),
            v.findings.iter().map(|f| f.rev).collect::<Vec<_>>()
        );
    }

    #[test]
    fn consequences_follow_their_cause() {
        let f = |id: &str, by: &[&str]| FindingView {
            id: id.into(),
            severity: Severity::Error,
            title: Text::default(),
            summary: Text::default(),
            evidence: Vec::new(),
            evidence_total: 0,
            nodes: Vec::new(),
            by_node: Vec::new(),
            origin: None,
            explained_by: by.iter().map(|s| s.to_string()).collect(),
            from_symptom: false,
            steps: Vec::new(),
            fixes: Vec::new(),
            rev: 0,
        };
        let r = ReportView {
            findings: vec![f("a", &[]), f("x", &[]), f("b", &["a"]), f("c", &["b", "a"]), f("d", &["gone"])],
            ..ReportView::default()
        };
        let rows: Vec<(&str, Option<String>)> =
            r.rows().into_iter().map(|(i, c)| (r.findings[i].id.as_str(), c)).collect();
        assert_eq!(rows, [("a", None), ("b", Some("a".into())), ("c", Some("b".into())), ("x", None), ("d", None)]);
        let cyc = ReportView { findings: vec![f("p", &["q"]), f("q", &["p"])], ..ReportView::default() };
        assert_eq!(cyc.rows().len(), 2, "a cycle still lists both");
    }

    #[test]
    fn messages_round_trip() {
        let req = Request::Diagnose {
            seq: 3,
            inputs: vec![WireInput { slot: 1, text: Some("x".into()), ..WireInput::default() }],
            session: Session::default(),
        };
        let back: Request = serde_json::from_str(&serde_json::to_string(&req).unwrap()).unwrap();
        assert_eq!(back, req);
    }
}
