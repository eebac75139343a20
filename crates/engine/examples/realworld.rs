//! Measures the engine on real pastes: `cargo run -p roll-doctor-engine --example realworld [DIR…]`
//! (default: tests/real and tests/real-holdout). For each folder: recall (expected ids found),
//! first place (the first expected id is the first finding), and false alarms (healthy output or
//! failures no rule covers that give an error or warn finding). Prints the misses.

use roll_doctor_engine::{diagnose, Severity};
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    let dirs = if dirs.is_empty() {
        vec![root.join("real").display().to_string(), root.join("real-holdout").display().to_string()]
    } else {
        dirs
    };
    for dir in dirs {
        let mut files: Vec<_> = std::fs::read_dir(&dir).expect("a folder").flatten().map(|e| e.path()).collect();
        files.retain(|p| p.extension().is_some_and(|x| x == "txt"));
        files.sort();
        let (mut expected, mut found, mut failing, mut first, mut quiet, mut alarms) = (0, 0, 0, 0, 0, 0);
        let mut misses = Vec::new();
        for p in &files {
            let text = std::fs::read_to_string(p).unwrap();
            let mut ids: Vec<String> = Vec::new();
            let body: String = text
                .split_inclusive('\n')
                .filter(|l| {
                    if let Some(v) = l.strip_prefix("#% expected:") {
                        ids = v
                            .split(',')
                            .map(|s| s.split('(').next().unwrap_or("").trim().to_string())
                            .filter(|s| !s.is_empty() && s != "none")
                            .collect();
                    }
                    !l.starts_with("#% ")
                })
                .collect();
            let r = diagnose(&body);
            let got: Vec<&str> = r.findings.iter().map(|f| f.id.as_str()).collect();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if ids.is_empty() {
                quiet += 1;
                let bad: Vec<&str> = r
                    .findings
                    .iter()
                    .filter(|f| matches!(f.severity, Severity::Error | Severity::Warn))
                    .map(|f| f.id.as_str())
                    .collect();
                if !bad.is_empty() {
                    alarms += 1;
                    misses.push(format!("  false alarm {name}: {bad:?}"));
                }
                continue;
            }
            failing += 1;
            expected += ids.len();
            found += ids.iter().filter(|id| got.contains(&id.as_str())).count();
            if got.first() == Some(&ids[0].as_str()) {
                first += 1;
            } else {
                misses.push(format!("  {name}: expected {} first, got {got:?}", ids[0]));
            }
        }
        let pct = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
        println!("{dir}: {} cases", files.len());
        println!("  recall {found}/{expected} ({:.0} %)", pct(found, expected));
        println!("  first place {first}/{failing} ({:.0} %)", pct(first, failing));
        println!("  false alarms {alarms}/{quiet} healthy or uncovered cases");
        for m in misses {
            println!("{m}");
        }
    }
}
