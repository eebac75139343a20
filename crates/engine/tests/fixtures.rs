//! Snapshot tests: one input file per case under `tests/fixtures/`, its
//! expected report summary under `tests/snapshots/`. A case is named after
//! the rule it demonstrates (`<rule-id>.txt`, or `<rule-id>--<variant>.txt`
//! for more), or describes a healthy input (`healthy--<what>.txt`).
//!
//! Update snapshots after an intended change with
//! `INSTA_UPDATE=always cargo test -p roll-doctor-engine --test fixtures`
//! and review the diff.

use roll_doctor_engine::{diagnose, Report, StepState};
use std::fmt::Write;

/// A compact, stable summary of a report: what a reviewer needs to see.
fn summary(r: &Report) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "segments:");
    for s in &r.segments {
        let cmd = s.command.as_deref().map(|c| format!(" `{c}`")).unwrap_or_default();
        let _ = writeln!(o, "  {}-{} {:?} {}{}", s.start_line, s.end_line, s.kind, s.confidence, cmd);
    }
    let _ = writeln!(o, "findings:");
    for f in &r.findings {
        let _ = writeln!(o, "  [{:?}] {}", f.severity, f.id);
        let lines: Vec<String> = f.evidence.iter().map(|e| e.line.to_string()).collect();
        let _ = writeln!(o, "    evidence lines: {} (total {})", lines.join(","), f.evidence_total);
        for fact in &f.facts {
            let subj = fact.subject.as_deref().map(|s| format!("[{s}]")).unwrap_or_default();
            let _ = writeln!(o, "    fact {}{} = {} (line {})", fact.name, subj, fact.value.to_text(), fact.line());
        }
        if !f.explained_by.is_empty() {
            let _ = writeln!(o, "    explained by: {}", f.explained_by.join(", "));
        }
        let steps: Vec<String> = f
            .steps
            .iter()
            .map(|s| format!("{}={}", s.id, if s.state == StepState::Answered { "answered" } else { "ask" }))
            .collect();
        let _ = writeln!(o, "    steps: {}", steps.join(" "));
    }
    o
}

#[test]
fn fixtures() {
    insta::glob!("fixtures/*.txt", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(summary(&diagnose(&text)));
    });
}
