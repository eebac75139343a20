//! The operator's ascend-fd knowledge base (`../shared/reference/mindcluster/kg-config.json`,
//! read at run time, never copied): it loads, its entries are matched after the rules as
//! their own group, and none raises an error or warning on healthy output.

use roll_doctor_engine::catalogue::{rule_files, Catalogue};
use roll_doctor_engine::{diagnose_with, kb, Input, Severity};

mod common;

fn load() -> Option<(kb::KnowledgeBase, Catalogue)> {
    let path = common::shared("reference/mindcluster/kg-config.json")?;
    let kb = kb::load(&std::fs::read_to_string(path).unwrap()).expect("the shared knowledge base loads");
    let cat = Catalogue::load_full(rule_files(), &[], Some(&kb));
    Some((kb, cat))
}

fn healthy_inputs() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut out = Vec::new();
    for dir in ["fixtures", "real"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.starts_with("healthy") {
                let (_, body) = common::header_and_body(&std::fs::read_to_string(e.path()).unwrap());
                out.push((format!("{dir}/{name}"), body));
            }
        }
    }
    if let Some(samples) = common::shared("samples") {
        for e in std::fs::read_dir(samples).unwrap().flatten() {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            if text.lines().any(|l| l.starts_with("#% expected:") && l.contains("none")) {
                let (_, body) = common::header_and_body(&text);
                out.push((format!("samples/{}", e.file_name().to_string_lossy()), body));
            }
        }
    }
    out
}

#[test]
fn the_knowledge_base_loads_and_matches_after_the_rules() {
    let Some((kb, cat)) = load() else { return };
    assert!(kb.rules.len() > 1000, "{} entries", kb.rules.len());
    assert!(kb.skipped.len() < 30, "{} skipped: {:?}", kb.skipped.len(), &kb.skipped[..5.min(kb.skipped.len())]);
    assert!(cat.errors.is_empty(), "{:?}", &cat.errors[..3.min(cat.errors.len())]);
    let text = "EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time.";
    let r = diagnose_with(&cat, &[Input { text: text.into(), ..Input::default() }]);
    assert_eq!(r.findings[0].id, "hccl-connect-timeout", "the product's own finding first");
    let from_kb: Vec<_> = r.findings.iter().filter(|f| f.origin.is_some()).collect();
    assert!(!from_kb.is_empty(), "the knowledge base recognises EI0006");
    assert!(r.findings.iter().skip_while(|f| f.origin.is_none()).all(|f| f.origin.is_some()), "its group comes last");
    assert_eq!(from_kb[0].origin.as_deref(), Some(kb::ATTRIBUTION));
    assert!(from_kb[0].explained_by.contains(&"hccl-connect-timeout".to_string()));
    assert!(from_kb[0].title.is_complete(), "{:?}", from_kb[0].title);
}

#[test]
fn the_knowledge_base_raises_nothing_on_healthy_output() {
    let Some((_, cat)) = load() else { return };
    let inputs = healthy_inputs();
    assert!(inputs.len() >= 20, "{} healthy inputs", inputs.len());
    let mut misfires = Vec::new();
    let mut demoted = 0;
    for (name, text) in &inputs {
        let r = diagnose_with(&cat, &[Input { text: text.clone(), ..Input::default() }]);
        for f in r.findings.iter().filter(|f| f.origin.is_some()) {
            if matches!(f.severity, Severity::Error | Severity::Warn) {
                misfires.push(format!("{name}: {}", f.id));
            } else {
                demoted += 1;
            }
        }
    }
    eprintln!("knowledge base on {} healthy inputs: {} demoted (info) matches", inputs.len(), demoted);
    assert!(misfires.is_empty(), "knowledge-base entries fire on healthy output:\n{}", misfires.join("\n"));
}
