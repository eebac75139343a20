//! Stage 6: the report — plain, serialisable data in a stable order.
//!
//! The JSON form of [`Report`] is the CLI's `--format json` and is
//! documented in `docs/report-schema.md`. Fields are only ever added.

use crate::facts::Fact;
use crate::parse::InputKind;
use crate::rules::{Fix, Severity};
use crate::text::Text;
use serde::Serialize;

/// Identifies the JSON schema of the report.
pub const SCHEMA: &str = "roll-doctor/report/v1";

/// The diagnosis of one or more inputs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Always [`SCHEMA`].
    pub schema: &'static str,
    /// The rule pack the diagnosis was made with.
    pub rules_version: String,
    /// Findings, root causes first, then by severity and first evidence line.
    pub findings: Vec<Finding>,
    /// Failure-like lines no rule explains, grouped by shape.
    pub unexplained: Vec<UnexplainedGroup>,
    /// How the input was split and what each part was taken to be (at
    /// most [`MAX_SEGMENTS`]).
    pub segments: Vec<SegmentInfo>,
    /// Segments not listed in `segments` (past [`MAX_SEGMENTS`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub segments_omitted: usize,
    /// Failure-like lines no rule explains that are in none of the listed
    /// `unexplained` groups (past [`crate::unexplained::MAX_GROUPS`] shapes).
    #[serde(skip_serializing_if = "is_zero")]
    pub unexplained_omitted: usize,
    /// The nodes the inputs describe (a fact's `node` is an index into this).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<String>,
    /// When the input names nodes: nodes × checks at a glance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<ClusterSummary>,
}

/// One detected segment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SegmentInfo {
    /// Index of the input (paste) it belongs to.
    pub input: usize,
    /// Detected (or overridden) kind.
    pub kind: InputKind,
    /// 0–100.
    pub confidence: u8,
    /// The command that printed it, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The node it describes, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// First line (1-based, inclusive).
    pub start_line: u32,
    /// Last line (inclusive).
    pub end_line: u32,
}

/// A line of the user's input that supports a finding.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
pub struct EvidenceLine {
    /// Input index, present only when there were several inputs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<usize>,
    /// 1-based line number in that input.
    pub line: u32,
    /// The line, cleaned of colour codes and quote prefixes.
    pub text: String,
    /// The node the line is about, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// Instead of a pasted line: the answer the user clicked (line 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Text>,
}

/// Whether a decision-tree step is already answered by the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StepState {
    /// The user should run the command and paste its output.
    Ask,
    /// The input already holds the answer (see the step's evidence).
    Answered,
}

/// A decision-tree step in a finding.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepReport {
    /// Step id within the rule.
    pub id: String,
    /// What to check.
    pub title: Text,
    /// Command to run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// What to expect and what it means; `None` for a check that has no
    /// single expected result (the CANN layer's first checks, which read
    /// the log or the card's state rather than compare with a value).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expect: Option<Text>,
    /// Ask or answered.
    pub state: StepState,
    /// Lines that answer it (the first few, those a finding rests on first).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<EvidenceLine>,
    /// How many more answered it than `evidence` lists.
    #[serde(skip_serializing_if = "is_zero")]
    pub evidence_omitted: usize,
    /// Answers the user can click: `(answer id, label)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<(String, Text)>,
    /// The answer the user clicked, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// What the lines that answer it conclude (`5: DOWN`, `8× UP`), or the
    /// clicked answer's label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conclusion: Option<Text>,
}

/// A rule that fired, with everything needed to act on it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// The rule id.
    pub id: String,
    /// Severity.
    pub severity: Severity,
    /// Title.
    pub title: Text,
    /// Explanation.
    pub summary: Text,
    /// Supporting lines (at most [`MAX_EVIDENCE`]), in input order.
    pub evidence: Vec<EvidenceLine>,
    /// How many supporting lines there were in all.
    pub evidence_total: usize,
    /// The nodes it was found on (empty when the input does not say).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<String>,
    /// For a rule that compares nodes: the value on every node, the odd
    /// ones marked.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_node: Vec<NodeValue>,
    /// For a finding from an operator's knowledge base: where it comes
    /// from (`ascend-fd kg-config.json`). Such findings come after the
    /// product's own and are shown as their own group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// Ids of other findings that likely cause this one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub explained_by: Vec<String>,
    /// True when the user picked this as their symptom and no evidence
    /// (yet) fired it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub from_symptom: bool,
    /// The facts the rule used (at most [`MAX_FINDING_FACTS`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<Fact>,
    /// Facts the rule used that `facts` does not list.
    #[serde(skip_serializing_if = "is_zero")]
    pub facts_omitted: usize,
    /// Decision-tree steps in order.
    pub steps: Vec<StepReport>,
    /// Fixes.
    pub fixes: Vec<Fix>,
}

/// Failure-like lines of one shape.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnexplainedGroup {
    /// The first such line.
    pub first: EvidenceLine,
    /// How many lines have this shape.
    pub count: usize,
    /// The first few line numbers (in the first line's input).
    pub lines: Vec<u32>,
    /// What is known about it: for a CANN error code no table entry
    /// explains, the component its letters name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<Text>,
}

/// What a cell says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ClusterStatus {
    /// Seen, and no finding points at it.
    Ok,
    /// A finding rests on it.
    Fail,
    /// The input does not show it.
    Unknown,
}

/// One node's value for one check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// ✔ ✘ or –.
    pub status: ClusterStatus,
    /// The value as shown (`8/8 UP`, `5: DOWN`, `2.5.1`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub value: String,
    /// The line behind it (the failing one first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<EvidenceLine>,
    /// The findings that rest on it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<String>,
}

/// A check (a column).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Check {
    /// Stable id.
    pub id: String,
    /// Its name.
    pub title: Text,
}

/// Nodes × checks at a glance (built by [`crate::cluster`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClusterSummary {
    /// The checks, in order (only those some node shows).
    pub checks: Vec<Check>,
    /// One row per node: its name and a cell per check.
    pub rows: Vec<(String, Vec<Cell>)>,
    /// Nodes that should be in the cluster and are not, at most
    /// [`crate::cluster::MAX_MISSING`]; then a last entry `+N` counts the rest.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// One node's value in a finding that compares nodes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeValue {
    /// The node.
    pub node: String,
    /// The fact compared (`pip.package`, `hccn.tls_switch`).
    pub fact: String,
    /// Its subject (`torch-npu`, a card id).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// The value on that node.
    pub value: String,
    /// The line it was read from.
    pub line: u32,
    /// True for the values the finding is about (the odd ones out).
    pub flagged: bool,
}

/// Rows kept in [`Finding::by_node`].
pub const MAX_NODE_ROWS: usize = 128;

/// Evidence lines kept per finding.
pub const MAX_EVIDENCE: usize = 20;

/// Lines kept per step that the input answers ([`StepReport::evidence`]; the
/// rest are counted in [`StepReport::evidence_omitted`]): the lines a finding
/// rests on come first, so five say what answered it.
pub const MAX_STEP_EVIDENCE: usize = 5;

/// Facts listed per finding ([`Finding::facts`]; the rest are counted in
/// [`Finding::facts_omitted`]).
pub const MAX_FINDING_FACTS: usize = 50;

/// Segments listed in a report ([`Report::segments`]; the rest are counted
/// in [`Report::segments_omitted`]): a million shell prompts are still
/// parsed and scanned, but a report lists the first two thousand parts.
pub const MAX_SEGMENTS: usize = 2_000;

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Orders findings root cause first. `outranks[i]` lists the indices that
/// finding `i` explains. Among findings whose causes are placed, the most
/// severe goes first, then the one with the earliest evidence, then by id.
pub(crate) fn order(findings: &mut Vec<Finding>, outranks: &[Vec<usize>]) {
    let n = findings.len();
    let mut indeg = vec![0usize; n];
    for effects in outranks {
        for &e in effects {
            indeg[e] += 1;
        }
    }
    let key = |i: usize| {
        let f = &findings[i];
        // A symptom the user picked, not (yet) confirmed by evidence, goes after confirmed findings.
        (f.from_symptom, f.severity, f.evidence.first().map(|e| (e.input, e.line)), f.id.clone())
    };
    let mut placed = vec![false; n];
    let mut seq = Vec::with_capacity(n);
    while seq.len() < n {
        // Ready nodes; if a cycle leaves none, take the best unplaced one.
        let ready: Vec<usize> = (0..n).filter(|&i| !placed[i] && indeg[i] == 0).collect();
        let pool = if ready.is_empty() { (0..n).filter(|&i| !placed[i]).collect() } else { ready };
        let best = pool.into_iter().min_by_key(|&i| key(i)).expect("pool is not empty");
        placed[best] = true;
        seq.push(best);
        for &e in &outranks[best] {
            indeg[e] = indeg[e].saturating_sub(1);
        }
    }
    let mut slots: Vec<Option<Finding>> = std::mem::take(findings).into_iter().map(Some).collect();
    *findings = seq.into_iter().map(|i| slots[i].take().expect("each index once")).collect();
}
