//! The pipeline, in two phases.
//!
//! [`collect`] reads the inputs: segments, detection, facts, signature hits.
//! [`evaluate`] runs the rules over what was collected, plus the user's
//! answers and chosen symptoms, and builds the [`Report`]. The split lets a
//! share link carry only the collected facts and hits (never the raw text)
//! and reproduce the same report with [`evaluate`].

use crate::catalogue::Catalogue;
use crate::detect::{self, Detection};
use crate::facts::{registered, Fact, FactValue};
use crate::parse;
use crate::report::{order, EvidenceLine, Finding, Report, SegmentInfo, StepReport, StepState, MAX_EVIDENCE, SCHEMA};
use crate::rules::{group_hits, line_key, Evidence, Why};
use crate::segment::{self, Line};
use crate::signatures::Hit;
use crate::unexplained;
use crate::{catalogue, Input};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// Segment index given to facts that come from the user's answers.
pub const ANSWER_SEGMENT: usize = usize::MAX;

/// What the inputs yielded before any rule ran.
#[derive(Clone, Debug, Default)]
pub struct Collected {
    /// Number of inputs.
    pub inputs: usize,
    /// Facts from parsers and combiners.
    pub facts: Vec<Fact>,
    /// Signature hits as `(input, hit)`.
    pub hits: Vec<(usize, Hit)>,
    /// Per input, the scanned lines that hits point at (sorted by line).
    pub lines: Vec<Vec<Line>>,
    /// How the inputs were split.
    pub segments: Vec<SegmentInfo>,
}

/// The user's click on an answer of a decision-tree step.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AnswerRef {
    /// Rule id.
    pub rule: String,
    /// Step id within the rule.
    pub step: String,
    /// Answer id within the step.
    pub answer: String,
}

/// What the user added on top of the inputs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// Answers clicked in decision trees.
    #[serde(default)]
    pub answers: Vec<AnswerRef>,
    /// Rules the user picked as their symptom ("start from a symptom"); they
    /// are shown, with their trees, even when no evidence fired them.
    #[serde(default)]
    pub symptoms: Vec<String>,
}

/// Phase 1: reads the inputs.
pub fn collect(cat: &Catalogue, inputs: &[Input]) -> Collected {
    let mut c = Collected { inputs: inputs.len(), ..Collected::default() };
    let mut seg_index = 0usize;
    for (input_idx, input) in inputs.iter().enumerate() {
        let segs: Vec<(segment::Segment, Detection)> =
            segment::segment(&input.text).into_iter().flat_map(detect::split_and_detect).collect();
        let mut lines = Vec::new();
        for (seg, det) in segs {
            let det = match input.overrides.iter().find(|o| o.start_line == seg.start_line()) {
                Some(o) => Detection { kind: o.kind, confidence: 100 },
                None => det,
            };
            c.segments.push(SegmentInfo {
                input: input_idx,
                kind: det.kind,
                confidence: det.confidence,
                command: seg.command.clone(),
                start_line: seg.start_line(),
                end_line: seg.end_line(),
            });
            parse::parse_segment(det.kind, &seg, &mut parse::FactSink::new(&mut c.facts, seg_index));
            if det.kind.scanned_for_signatures() {
                let mut local = Vec::new();
                cat.signatures.scan(&seg.lines, &mut local);
                c.hits.extend(local.into_iter().map(|h| (input_idx, h)));
            }
            seg_index += 1;
            lines.extend(seg.lines);
        }
        c.lines.push(lines);
    }
    parse::combine::run(&mut c.facts);
    c
}

/// The facts the user's answers stand for.
fn answer_facts(cat: &Catalogue, session: &Session) -> Vec<Fact> {
    let mut out = Vec::new();
    for a in &session.answers {
        let Some(opt) = cat
            .rule(&a.rule)
            .and_then(|r| r.steps.iter().find(|s| s.id == a.step))
            .and_then(|s| s.answers.iter().find(|o| o.id == a.answer))
        else {
            continue;
        };
        for f in &opt.facts {
            let Some(name) = registered(&f.fact) else { continue };
            let Some(value) = FactValue::from_json(&f.value) else { continue };
            out.push(Fact {
                name,
                subject: f.subject.clone(),
                value,
                line: 0,
                text: opt.label.en.clone(),
                segment: ANSWER_SEGMENT,
            });
        }
    }
    out
}

/// Phase 2: runs the rules. With `only`, just those rule ids are evaluated
/// (a share link lists the findings it had, so a rule pack that changed since
/// cannot add findings the sender never saw).
pub fn evaluate(cat: &Catalogue, c: &Collected, session: &Session, only: Option<&[String]>) -> Report {
    let multi = c.inputs > 1;
    let mut facts = c.facts.clone();
    facts.extend(answer_facts(cat, session));
    let seg_input = |f: &Fact| -> Option<usize> {
        if f.segment == ANSWER_SEGMENT {
            None
        } else {
            Some(c.segments.get(f.segment).map(|s| s.input).unwrap_or(0))
        }
    };
    let text_of = |key: u64| -> String {
        let (input, line) = ((key >> 32) as usize, key as u32);
        let Some(lines) = c.lines.get(input) else { return String::new() };
        match lines.binary_search_by_key(&line, |l| l.no) {
            Ok(i) => lines[i].text.clone(),
            Err(_) => String::new(),
        }
    };
    let evidence_line =
        |key: u64| EvidenceLine { input: multi.then_some((key >> 32) as usize), line: key as u32, text: text_of(key) };
    let fact_line =
        |f: &Fact| EvidenceLine { input: if multi { seg_input(f) } else { None }, line: f.line, text: f.text.clone() };

    // Loops in commands are written for A2 nodes (`{0..7}`, 8 NPUs). When the
    // input shows how many NPUs a node has (16 on A3), size them to it.
    let npus =
        facts.iter().filter(|f| f.name == "npu.count").filter_map(|f| f.value.as_f64()).fold(0.0, f64::max) as u32;
    let size_loops = |cmd: &str| -> String {
        if (2..=64).contains(&npus) && npus != 8 {
            cmd.replace("{0..7}", &format!("{{0..{}}}", npus - 1))
        } else {
            cmd.to_string()
        }
    };
    let ev = Evidence { hits_by_sig: group_hits(&c.hits, cat.signatures.len()), facts: &facts };
    // Every line some finding rests on, to tell the unexplained ones apart.
    let mut explained: HashSet<u64> = HashSet::new();
    let mut findings: Vec<(&crate::rules::Rule, Finding)> = Vec::new();
    for (rule, expr) in cat.rules.iter().zip(&cat.exprs) {
        if only.is_some_and(|ids| !ids.contains(&rule.id)) {
            continue;
        }
        let mut why = Why::default();
        let fired = expr.eval(&ev, &mut why);
        let chosen = session.symptoms.contains(&rule.id);
        if !fired && !chosen {
            continue;
        }
        let mut keys: Vec<u64> = why.hits.iter().map(|(k, _)| *k).collect();
        keys.sort_unstable();
        keys.dedup();
        explained.extend(keys.iter().copied());
        for &i in &why.facts {
            if let Some(input) = seg_input(&facts[i]) {
                explained.insert(line_key(input, facts[i].line));
            }
        }
        let mut ev_lines: Vec<EvidenceLine> = why.facts.iter().map(|&i| fact_line(&facts[i])).collect();
        ev_lines.sort();
        ev_lines.dedup();
        let fact_keys: HashSet<(Option<usize>, u32)> = ev_lines.iter().map(|e| (e.input, e.line)).collect();
        let total = fact_keys.len()
            + keys.iter().filter(|&&k| !fact_keys.contains(&(multi.then_some((k >> 32) as usize), k as u32))).count();
        ev_lines.extend(keys.iter().take(MAX_EVIDENCE).map(|&k| evidence_line(k)));
        ev_lines.sort();
        // A fact and a signature hit on the same line are one piece of evidence.
        ev_lines.dedup_by(|a, b| a.input == b.input && a.line == b.line);
        ev_lines.truncate(MAX_EVIDENCE);
        let steps = rule
            .steps
            .iter()
            .map(|s| {
                let clicked =
                    session.answers.iter().find(|a| a.rule == rule.id && a.step == s.id).map(|a| a.answer.clone());
                let evidence: Vec<EvidenceLine> = match &s.answered_by {
                    Some(name) => facts
                        .iter()
                        .filter(|f| f.name == name && f.segment != ANSWER_SEGMENT)
                        .filter(|f| s.answered_subject.as_ref().is_none_or(|want| f.subject.as_ref() == Some(want)))
                        .take(5)
                        .map(&fact_line)
                        .collect(),
                    None => Vec::new(),
                };
                let answered = !evidence.is_empty() || clicked.is_some();
                StepReport {
                    id: s.id.clone(),
                    title: s.title.clone(),
                    run: s.run.as_deref().map(size_loops),
                    expect: s.expect.clone(),
                    state: if answered { StepState::Answered } else { StepState::Ask },
                    evidence,
                    answers: s.answers.iter().map(|a| (a.id.clone(), a.label.clone())).collect(),
                    answer: clicked,
                }
            })
            .collect();
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
                from_symptom: !fired,
                facts: why.facts.iter().map(|&i| facts[i].clone()).collect(),
                steps,
                fixes: rule
                    .fixes
                    .iter()
                    .map(|f| crate::rules::Fix {
                        commands: f.commands.iter().map(|c| size_loops(c)).collect(),
                        ..f.clone()
                    })
                    .collect(),
            },
        ));
    }
    // Root cause first: rule A outranks B when both fired.
    let ids: Vec<String> = findings.iter().map(|(_, f)| f.id.clone()).collect();
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
    let by_sig = &ev.hits_by_sig;
    let mut failure_like: Vec<u64> = by_sig.get(cat.unexplained_signature).cloned().unwrap_or_default();
    failure_like.sort_unstable();
    failure_like.dedup();
    let unexplained =
        unexplained::group(failure_like.into_iter().filter(|k| !explained.contains(k)).map(evidence_line).collect());
    Report {
        schema: SCHEMA,
        rules_version: catalogue::pack_version(),
        findings: list,
        unexplained,
        segments: c.segments.clone(),
    }
}
