//! The roll-doctor engine: from pasted text to a bilingual diagnosis.
//!
//! Users of ROLL on Ascend NPUs paste logs, configs and command output. The
//! engine runs one pipeline over them, one module per stage:
//!
//! 1. [`segment`] splits the paste at prompts, code fences and collector
//!    markers, and cleans CRLF, ANSI codes and quote prefixes, keeping the
//!    user's line numbers;
//! 2. [`detect`] gives each segment an [`InputKind`] with a confidence;
//! 3. [`parse`] turns structured segments into typed [`Fact`]s;
//! 4. [`signatures`] scans log lines once against every rule's patterns;
//! 5. [`rules`] (loaded into the [`Catalogue`]) decide which fire;
//! 6. [`report`] orders the findings root cause first, with evidence,
//!    decision-tree steps and fixes; [`render`] prints them as text or
//!    Markdown in either language.
//!
//! The engine is pure: no I/O, no clock, no randomness, no web dependency.
//! The same input always gives the same report, byte for byte.
//!
//! ```
//! let report = roll_doctor_engine::diagnose("EI0006: Getting socket times out.");
//! assert_eq!(report.findings[0].id, "hccl-connect-timeout");
//! ```

#![deny(missing_docs)]

pub mod catalogue;
pub mod detect;
pub mod facts;
pub mod parse;
pub mod render;
pub mod report;
pub mod rules;
pub mod segment;
pub mod signatures;
pub mod text;
pub mod unexplained;
pub mod yaml;

pub use catalogue::{catalogue, Catalogue};
pub use detect::{Detection, InputKind};
pub use facts::{Fact, FactValue};
pub use report::{EvidenceLine, Finding, Report, StepState};
pub use rules::{Rule, Severity};
pub use text::{Lang, Text};

use facts::Fact as F;
use report::{order, SegmentInfo, StepReport, MAX_EVIDENCE, SCHEMA};
use rules::{group_hits, Evidence, Why};
use segment::Line;

/// One pasted text (or file) with an optional label such as a node name.
#[derive(Clone, Debug, Default)]
pub struct Input {
    /// A name for the input (`node-1`, a file name); may be empty.
    pub label: String,
    /// The text.
    pub text: String,
    /// Kinds the user chose for segments, overriding detection.
    pub overrides: Vec<KindOverride>,
}

/// The user's choice of kind for the segment that starts at `start_line`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindOverride {
    /// The segment's first line, as reported in `Report::segments`.
    pub start_line: u32,
    /// The kind to use.
    pub kind: InputKind,
}

/// Diagnoses one paste.
pub fn diagnose(text: &str) -> Report {
    diagnose_inputs(&[Input { text: text.to_string(), ..Input::default() }])
}

/// Diagnoses several inputs together: facts from one can explain another.
pub fn diagnose_inputs(inputs: &[Input]) -> Report {
    diagnose_with(catalogue(), inputs)
}

/// Diagnoses with an explicit catalogue (tests use a hand-made one).
pub fn diagnose_with(cat: &Catalogue, inputs: &[Input]) -> Report {
    let multi = inputs.len() > 1;
    let mut segments_info = Vec::new();
    let mut facts: Vec<F> = Vec::new();
    let mut hits = Vec::new();
    // Every line of every input, by input, sorted by line number.
    let mut all_lines: Vec<Vec<Line>> = Vec::with_capacity(inputs.len());
    let mut seg_index = 0usize;
    for (input_idx, input) in inputs.iter().enumerate() {
        let segs: Vec<(segment::Segment, Detection)> =
            segment::segment(&input.text).into_iter().flat_map(detect::split_and_detect).collect();
        let mut lines = Vec::new();
        for (seg, det) in &segs {
            let det = match input.overrides.iter().find(|o| o.start_line == seg.start_line()) {
                Some(o) => Detection { kind: o.kind, confidence: 100 },
                None => *det,
            };
            let seg = &seg;
            segments_info.push(SegmentInfo {
                input: input_idx,
                kind: det.kind,
                confidence: det.confidence,
                command: seg.command.clone(),
                start_line: seg.start_line(),
                end_line: seg.end_line(),
            });
            parse::parse_segment(det.kind, seg, &mut parse::FactSink::new(&mut facts, seg_index));
            if det.kind.scanned_for_signatures() {
                let mut local = Vec::new();
                cat.signatures.scan(&seg.lines, &mut local);
                hits.extend(local.into_iter().map(|h| (input_idx, h)));
            }
            seg_index += 1;
            lines.extend(seg.lines.iter().cloned());
        }
        all_lines.push(lines);
    }
    parse::combine::run(&mut facts);
    let seg_input: Vec<usize> = segments_info.iter().map(|s| s.input).collect();
    let text_of = |key: u64| -> String {
        let (input, line) = ((key >> 32) as usize, key as u32);
        let lines = &all_lines[input];
        match lines.binary_search_by_key(&line, |l| l.no) {
            Ok(i) => lines[i].text.clone(),
            Err(_) => String::new(),
        }
    };
    let evidence_line = |key: u64| EvidenceLine {
        input: multi.then_some((key >> 32) as usize),
        line: key as u32,
        text: text_of(key),
    };
    let fact_line = |f: &F| EvidenceLine {
        input: multi.then_some(seg_input.get(f.segment).copied().unwrap_or(0)),
        line: f.line,
        text: f.text.clone(),
    };

    let hits_by_sig = group_hits(&hits, cat.signatures.len());
    let ev = Evidence { hits_by_sig, facts: &facts };
    // Every line some finding rests on, to tell the unexplained ones apart.
    let mut explained: std::collections::HashSet<u64> = std::collections::HashSet::new();
    let mut findings = Vec::new();
    let mut ids = Vec::new();
    for (rule, expr) in cat.rules.iter().zip(&cat.exprs) {
        let mut why = Why::default();
        if !expr.eval(&ev, &mut why) {
            continue;
        }
        let mut ev_lines: Vec<EvidenceLine> = Vec::new();
        let mut keys: Vec<u64> = why.hits.iter().map(|(k, _)| *k).collect();
        keys.sort_unstable();
        keys.dedup();
        explained.extend(keys.iter().copied());
        for &i in &why.facts {
            let f = &facts[i];
            explained.extend([rules::line_key(seg_input.get(f.segment).copied().unwrap_or(0), f.line)]);
        }
        let mut fact_lines: Vec<EvidenceLine> = why.facts.iter().map(|&i| fact_line(&facts[i])).collect();
        fact_lines.sort();
        fact_lines.dedup();
        let total = keys.len() + fact_lines.len();
        ev_lines.extend(fact_lines);
        ev_lines.extend(keys.iter().take(MAX_EVIDENCE).map(|&k| evidence_line(k)));
        ev_lines.sort();
        ev_lines.truncate(MAX_EVIDENCE);
        let steps = rule
            .steps
            .iter()
            .map(|s| {
                let answers: Vec<EvidenceLine> = match &s.answered_by {
                    Some(name) => facts.iter().filter(|f| f.name == name).take(5).map(&fact_line).collect(),
                    None => Vec::new(),
                };
                StepReport {
                    id: s.id.clone(),
                    title: s.title.clone(),
                    run: s.run.clone(),
                    expect: s.expect.clone(),
                    state: if answers.is_empty() { StepState::Ask } else { StepState::Answered },
                    evidence: answers,
                }
            })
            .collect();
        ids.push(rule.id.clone());
        findings.push((
            rule,
            Finding {
                id: rule.id.clone(),
                severity: rule.severity,
                title: rule.title.clone(),
                summary: rule.summary.clone(),
                evidence: ev_lines,
                evidence_total: total,
                explained_by: Vec::new(),
                facts: why.facts.iter().map(|&i| facts[i].clone()).collect(),
                steps,
                fixes: rule.fixes.clone(),
            },
        ));
    }
    // Root cause first: rule A outranks B when both fired.
    let outranks: Vec<Vec<usize>> = findings
        .iter()
        .map(|(rule, _)| rule.outranks.iter().filter_map(|id| ids.iter().position(|x| x == id)).collect())
        .collect();
    let mut list: Vec<Finding> = findings.into_iter().map(|(_, f)| f).collect();
    for (cause, effects) in outranks.iter().enumerate() {
        for &e in effects {
            let cause_id = list[cause].id.clone();
            list[e].explained_by.push(cause_id);
        }
    }
    order(&mut list, &outranks);
    let mut failure_like: Vec<u64> = ev.hits_by_sig.get(cat.unexplained_signature).cloned().unwrap_or_default();
    failure_like.sort_unstable();
    failure_like.dedup();
    let unexplained = unexplained::group(
        failure_like.into_iter().filter(|k| !explained.contains(k)).map(evidence_line).collect(),
    );
    Report {
        schema: SCHEMA,
        rules_version: catalogue::pack_version(),
        findings: list,
        unexplained,
        segments: segments_info,
    }
}
