//! Embeds every rule file under `rules/` (at the workspace root) into the
//! engine: writes `$OUT_DIR/rule_files.rs`, a sorted list of
//! `(path, include_str!(…))` pairs (`RULE_FILES`; the CANN code table under
//! `rules/cann/` is not a rule and is embedded by `crate::cann`). Sorting keeps the build reproducible.

use std::path::{Path, PathBuf};

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
    for f in &files {
        let rel = f.strip_prefix(&rules_dir).unwrap().to_string_lossy().replace('\\', "/");
        if !rel.starts_with("cann/") {
            src.push_str(&format!("    ({:?}, include_str!({:?})),\n", rel, f.to_string_lossy()));
        }
    }
    src.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("rule_files.rs");
    std::fs::write(out, src).unwrap();
}
