//! Embeds every rule file under `rules/` (at the workspace root) into the
//! engine: writes `$OUT_DIR/rule_files.rs`, a sorted list of `(path, JSON)`
//! pairs (`RULE_FILES`; the CANN code table under `rules/cann/` is not a
//! rule: it goes to `$OUT_DIR/cann_codes.json`, embedded by `crate::cann`).
//! Sorting keeps the build reproducible.
//!
//! Each file is parsed here, with the engine's own YAML tree (`src/yaml.rs`,
//! the same resolution of plain scalars as at run time), and embedded as the
//! JSON the rule schema is read from: startup then reads JSON instead of
//! parsing YAML (about half of loading the catalogue in wasm). A rule file
//! that is not valid YAML fails the build, naming its file, line and column.
//! Left out of the JSON: the rules' sources and examples (the examples'
//! error codes are kept, for the symptom search) and the code table's
//! sources; tests read those from the YAML.
//!
//! It also works out, with the engine's own `src/factor.rs`, how the
//! signature scan searches for each signature of the rules (its required
//! factor's branches), and writes them to `$OUT_DIR/factors.bin`
//! (`factor::encode`): that analysis, parsing every pattern, was half of
//! loading the catalogue.

use std::path::{Path, PathBuf};

#[allow(dead_code)]
#[path = "src/yaml.rs"]
mod yaml;

#[path = "src/example_codes.rs"]
mod example_codes;

#[allow(dead_code)]
#[path = "src/factor.rs"]
mod factor;

/// Every `signature:` value in a rule (wherever its conditions nest it).
fn signatures(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("signature", serde_json::Value::String(s)) => out.push(s.clone()),
                    _ => signatures(x, out),
                }
            }
        }
        serde_json::Value::Array(xs) => xs.iter().for_each(|x| signatures(x, out)),
        _ => {}
    }
}

/// `$OUT_DIR/factors.bin`: each signature's branches (`factor::encode`).
fn factors_table(mut patterns: Vec<String>) -> Vec<u8> {
    patterns.sort();
    patterns.dedup();
    let mut keys: Vec<(u64, &String)> = patterns.iter().map(|p| (factor::key(p), p)).collect();
    keys.sort();
    if let Some(w) = keys.windows(2).find(|w| w[0].0 == w[1].0) {
        panic!("two signatures share a factor key: {:?} and {:?}", w[0].1, w[1].1);
    }
    // In key order: the engine looks entries up by binary search.
    let mut table = Vec::new();
    for (_, p) in keys {
        // A pattern without a factor (or that does not parse) is left to
        // the engine, which then turns the finder off, as it would.
        if let Some(branches) = factor::branches(p) {
            factor::encode(p, &branches, &mut table).unwrap_or_else(|| panic!("too large for the table: {p:?}"));
        }
    }
    table
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    println!("cargo:rerun-if-changed={}", dir.display());
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml") {
            println!("cargo:rerun-if-changed={}", p.display());
            out.push(p);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let rules_dir = manifest.join("../../rules").canonicalize().expect("rules/ directory at the workspace root");
    let mut files = Vec::new();
    collect(&rules_dir, &mut files);
    files.sort();
    // `cann/` holds the CANN error-code table, data of another shape than a
    // rule (crate::cann embeds it).
    let mut src = String::from("pub(crate) static RULE_FILES: &[(&str, &str)] = &[\n");
    let mut patterns = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&rules_dir).unwrap().to_string_lossy().replace('\\', "/");
        if !rel.starts_with("cann/") {
            let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("rules/{rel}: {e}"));
            let json = match yaml::parse(&text) {
                Ok(Some(tree)) => {
                    let mut value = yaml::to_json(&tree);
                    signatures(&value, &mut patterns);
                    // Where the knowledge comes from is for the people who
                    // keep the rules (they read the YAML); nothing at run
                    // time shows it, and it is a tenth of the rules' bytes.
                    if let Some(rule) = value.as_object_mut() {
                        rule.remove("sources");
                        // The examples are test data (tests read them from the
                        // YAML), a quarter of the rules' bytes; the symptom search
                        // needs only the codes they name.
                        let mut codes = Vec::new();
                        let matches = rule.get("examples").and_then(|e| e.get("match")).and_then(|m| m.as_array());
                        for ex in matches.into_iter().flatten().filter_map(|e| e.as_str()) {
                            example_codes::codes_in(ex, &mut codes);
                        }
                        rule.remove("examples");
                        if !codes.is_empty() {
                            rule.insert("example_codes".into(), codes.into());
                        }
                    }
                    serde_json::to_string(&value).expect("JSON")
                }
                Ok(None) => panic!("rules/{rel}: empty file"),
                Err(e) => panic!("rules/{rel}:{}:{}: {}", e.line, e.col, e.message),
            };
            src.push_str(&format!("    ({:?}, {:?}),\n", rel, json));
        }
    }
    src.push_str("];\n");
    // The CANN code table, the same way (crate::cann reads it on first use).
    let cann = rules_dir.join("cann/codes.yaml");
    println!("cargo:rerun-if-changed={}", cann.display());
    let text = std::fs::read_to_string(&cann).expect("rules/cann/codes.yaml");
    let json = match yaml::parse(&text) {
        Ok(Some(tree)) => {
            let mut value = yaml::to_json(&tree);
            // As for the rules: the documents and pastes behind each entry
            // stay in the YAML, for its keepers.
            for list in ["prefixes", "codes"] {
                for entry in value.get_mut(list).and_then(|v| v.as_array_mut()).into_iter().flatten() {
                    if let Some(e) = entry.as_object_mut() {
                        e.remove("source");
                        e.remove("seen_in");
                    }
                }
            }
            serde_json::to_string(&value).expect("JSON")
        }
        Ok(None) => panic!("rules/cann/codes.yaml: empty file"),
        Err(e) => panic!("rules/cann/codes.yaml:{}:{}: {}", e.line, e.col, e.message),
    };
    std::fs::write(PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("cann_codes.json"), json).unwrap();
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("rule_files.rs");
    std::fs::write(out, src).unwrap();
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("factors.bin");
    std::fs::write(out, factors_table(patterns)).unwrap();
}
