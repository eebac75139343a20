//! Rule loading as `--rules` and the page's "Rule files" do it:
//! `Catalogue::load_with(embedded, [(name, text)])`.
//!
//! The embedded set is a fixed slice of the real rule files (loading all of
//! them per input would make each run cost as much as a startup), so an
//! extra file can still replace a built-in rule or clash with one.
//!
//! Invariants: a file either loads (its id is listed as extra and findable)
//! or is reported with its own name and a message; every embedded rule still
//! loads; the loaded catalogue diagnoses the rule's own text without panic;
//! loading is deterministic (same version, same errors).
#![no_main]

use libfuzzer_sys::fuzz_target;
use roll_doctor_engine::catalogue::rule_files;
use roll_doctor_engine::{diagnose_with, Catalogue, Input};

const EMBEDDED: usize = 4;
const NAME: &str = "fuzz/extra.yaml";

fuzz_target!(|data: &[u8]| {
    let text = roll_doctor_fuzz::text(data);
    let embedded = &rule_files()[..EMBEDDED.min(rule_files().len())];
    let extra = [(NAME.to_string(), text.clone())];
    let cat = Catalogue::load_with(embedded, &extra);
    for e in &cat.errors {
        assert!(e.file == NAME || e.file == "(all rules)", "error blamed on {}: {}", e.file, e.message);
        assert!(!e.message.is_empty());
    }
    if cat.errors.is_empty() {
        assert_eq!(cat.extra.len(), 1, "loaded without error but not listed");
        assert!(cat.rule(&cat.extra[0]).is_some());
        assert!(cat.rules.len() >= embedded.len());
    } else {
        assert!(cat.extra.is_empty(), "listed as loaded and as failed");
    }
    // Run what loaded over the rule text itself (its examples are in it).
    // A file that did not load leaves the embedded slice alone, whose
    // diagnoses the pipeline target already drives.
    if cat.errors.is_empty() {
        let _ = diagnose_with(&cat, &[Input { text: text.clone(), ..Input::default() }]);
    }
    let again = Catalogue::load_with(embedded, &extra);
    assert_eq!(again.version(), cat.version());
    assert_eq!(again.errors, cat.errors, "not deterministic");
});
