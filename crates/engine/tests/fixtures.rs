//! Snapshot tests: one input file per case under `tests/fixtures/`, its
//! expected report summary under `tests/snapshots/`. A case is named after
//! the rule it demonstrates (`<rule-id>.txt`, or `<rule-id>--<variant>.txt`
//! for more), or describes a healthy input (`healthy--<what>.txt`).
//!
//! Update snapshots after an intended change with
//! `INSTA_UPDATE=always cargo test -p roll-doctor-engine --test fixtures`
//! and review the diff.

use roll_doctor_engine::{catalogue, diagnose, Report, Severity, StepState};
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

/// The naming contract: `<rule-id>.txt` and `<rule-id>--<variant>.txt`
/// give that rule, `healthy--*.txt` gives nothing at error or warn level.
#[test]
fn fixtures_give_the_rule_they_are_named_after() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    let mut failures = Vec::new();
    let mut named = 0;
    for path in files.iter().filter(|p| p.extension().is_some_and(|x| x == "txt")) {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let id = stem.split("--").next().unwrap();
        let r = diagnose(&std::fs::read_to_string(path).unwrap());
        if id == "healthy" {
            let bad: Vec<_> = r
                .findings
                .iter()
                .filter(|f| matches!(f.severity, Severity::Error | Severity::Warn))
                .map(|f| f.id.as_str())
                .collect();
            if !bad.is_empty() {
                failures.push(format!("{stem}: healthy input gives {bad:?}"));
            }
            continue;
        }
        if catalogue().rule(id).is_none() {
            failures.push(format!("{stem}: no rule {id} (name fixtures <rule-id>[--variant].txt or healthy--…)"));
            continue;
        }
        named += 1;
        if !r.findings.iter().any(|f| f.id == id) {
            failures.push(format!(
                "{stem}: does not give {id}: {:?}",
                r.findings.iter().map(|f| &f.id).collect::<Vec<_>>()
            ));
        }
    }
    assert!(named > 50, "only {named} fixtures named after a rule");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
