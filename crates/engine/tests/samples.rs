//! Runs every real sample in `../shared/samples/` (beside the repository)
//! against the `#% expected:` line of its header. Skipped when `../shared`
//! is absent: the samples are read at run time, never copied into the repo.
//!
//! Contract (from the samples' README): every expected id is reported; no
//! other finding is at error or warn level; `none` means nothing at error or
//! warn level. Info findings beyond the expected ones are allowed.

use roll_doctor_engine::{diagnose, Severity};

mod common;

/// Parses `#% expected: a, b (comment)` into ids.
fn expected(header: &str) -> Vec<String> {
    let mut v = header.trim().to_string();
    // drop parenthesised comments
    while let (Some(a), Some(b)) = (v.find('('), v.find(')')) {
        if b < a {
            break;
        }
        v.replace_range(a..=b, "");
    }
    v.split([',', ' ']).map(str::trim).filter(|s| !s.is_empty() && *s != "none").map(String::from).collect()
}

#[test]
fn shared_samples_give_their_expected_findings() {
    let Some(dir) = common::shared("samples") else { return };
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|x| x == "txt"));
    files.sort();
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for path in &files {
        let raw = std::fs::read_to_string(path).unwrap();
        let mut want = Vec::new();
        let mut body = String::new();
        for line in raw.split_inclusive('\n') {
            if let Some(h) = line.strip_prefix("#% ") {
                if let Some(e) = h.strip_prefix("expected:") {
                    want = expected(e);
                }
            } else {
                body.push_str(line);
            }
        }
        let report = diagnose(&body);
        let got: Vec<&str> = report.findings.iter().map(|f| f.id.as_str()).collect();
        let name = path.file_name().unwrap().to_string_lossy();
        for w in &want {
            if !got.contains(&w.as_str()) {
                failures.push(format!("{name}: missing {w} (got {got:?})"));
            }
        }
        for f in &report.findings {
            if f.severity != Severity::Info && !want.contains(&f.id) {
                let ev = f.evidence.first().map(|e| format!("line {}: {}", e.line, e.text)).unwrap_or_default();
                failures.push(format!("{name}: unexpected {:?} {} ({ev})", f.severity, f.id));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} samples disagree:\n{}", failures.len(), files.len(), failures.join("\n"));
}

#[test]
fn expected_header_parsing() {
    assert_eq!(expected(" none"), Vec::<String>::new());
    assert_eq!(expected(" a-b, c-d (info: x, y)"), vec!["a-b", "c-d"]);
}
