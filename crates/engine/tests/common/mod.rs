//! Helpers shared by the integration tests.

#![allow(dead_code)] // each test crate uses some of these

use std::io::Write;
use std::path::PathBuf;

/// `../shared/<rel>` beside the repository, when it is there. When it is
/// not, says so on standard error *uncaptured* (libtest captures `eprintln!`
/// of passing tests, which would make a skipped check look like a pass).
pub fn shared(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared").join(rel);
    if p.exists() {
        Some(p)
    } else {
        let _ = writeln!(std::io::stderr(), "SKIPPED: {} is absent, so this check did not run", p.display());
        None
    }
}

/// Splits a fixture into its `#% key: value` header and its body.
pub fn header_and_body(text: &str) -> (Vec<(String, String)>, String) {
    let mut header = Vec::new();
    let mut body = String::new();
    for line in text.split_inclusive('\n') {
        match line.strip_prefix("#% ") {
            Some(h) if body.is_empty() => {
                if let Some((k, v)) = h.split_once(':') {
                    header.push((k.trim().to_string(), v.trim().to_string()));
                }
            }
            _ => body.push_str(line),
        }
    }
    (header, body)
}
