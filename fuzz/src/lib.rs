//! Helpers shared by the fuzz targets: turning bytes into inputs, and the
//! invariants every target checks besides "no panic".
//!
//! A violated invariant panics, which libFuzzer reports as a crash with the
//! input that caused it (saved as `crash-…` in the working directory).

use roll_doctor_engine::Input;
use serde_json::Value;

/// Inputs larger than this are cut: the targets look for logic errors, and
/// the scaling of big inputs is the benchmark's job.
pub const MAX_INPUT: usize = 64 * 1024;

/// The bytes as text, the way the page and the CLI read a file (invalid
/// UTF-8 replaced).
pub fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(&data[..data.len().min(MAX_INPUT)]).into_owned()
}

/// Several inputs from one byte string: NUL separates them (at most four),
/// and a first line `@node NAME` gives an input its node.
pub fn inputs(data: &[u8]) -> Vec<Input> {
    let all = text(data);
    all.split('\0')
        .take(4)
        .enumerate()
        .map(|(i, t)| {
            let (node, text) = match t.strip_prefix("@node ").and_then(|r| r.split_once('\n')) {
                Some((n, rest)) => (Some(n.trim().to_string()).filter(|n| !n.is_empty()), rest.to_string()),
                None => (None, t.to_string()),
            };
            Input { label: format!("input-{i}"), text, node, ..Input::default() }
        })
        .collect()
}

/// The number of lines the engine counts in `text` (it splits at `\n`).
pub fn line_count(text: &str) -> u32 {
    text.split('\n').count() as u32
}

/// Every evidence line in a serialised report: objects with a `line` and a
/// `text` (findings, steps, unexplained groups), wherever the schema puts them.
pub fn evidence_lines(v: &Value, out: &mut Vec<(Option<u64>, u64, String, bool)>) {
    match v {
        Value::Object(m) => {
            if let (Some(Value::Number(line)), Some(Value::String(text))) = (m.get("line"), m.get("text")) {
                let input = m.get("input").and_then(Value::as_u64);
                let answer = m.get("answer").is_some_and(|a| !a.is_null());
                out.push((input, line.as_u64().unwrap_or(u64::MAX), text.clone(), answer));
            }
            for x in m.values() {
                evidence_lines(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| evidence_lines(x, out)),
        _ => {}
    }
}

/// Evidence points at real lines: every pasted evidence line names an input
/// that exists and a line within it, and its text starts like that line
/// (cleaned of CR, colour codes and quote prefixes; the text may be clipped).
pub fn check_evidence(inputs: &[Input], report: &Value) {
    let mut ev = Vec::new();
    evidence_lines(report, &mut ev);
    let lines: Vec<Vec<String>> =
        inputs.iter().map(|i| i.text.split('\n').map(roll_doctor_engine::segment::clean_line).collect()).collect();
    for (input, line, text, answer) in ev {
        if answer {
            continue;
        }
        let i = input.unwrap_or(0) as usize;
        assert!(i < inputs.len(), "evidence names input {i} of {}", inputs.len());
        assert!(
            line >= 1 && line <= lines[i].len() as u64,
            "evidence line {line} of input {i}, which has {} lines",
            lines[i].len()
        );
        let real = &lines[i][line as usize - 1];
        // Compare a short head: clipping or joining a hard-wrapped line changes the tail.
        let head: String = text.trim().chars().take(8).collect();
        assert!(
            real.contains(&head) || text.contains(real.trim()),
            "evidence line {line} of input {i} is {text:?}, the input has {real:?}"
        );
    }
}

/// IPv4 addresses in `text` that identify a machine: what redaction must
/// never let through (loopback, unspecified and netmask-like ones stay).
pub fn private_ipv4s(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.')) {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
                j += 1;
            }
            let cand = text[i..j].trim_end_matches('.');
            let after_ok = j >= b.len() || !b[j].is_ascii_alphanumeric();
            let parts: Vec<&str> = cand.split('.').collect();
            if after_ok
                && parts.len() == 4
                && parts.iter().all(|p| !p.is_empty() && p.len() <= 3 && p.parse::<u8>().is_ok())
                && !(parts.iter().any(|p| p.len() > 1 && p.starts_with('0')))
            {
                let keep = cand.starts_with("127.") || cand == "0.0.0.0" || cand.starts_with("255.");
                if !keep {
                    out.push(cand.to_string());
                }
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// Whether `needle` occurs in `hay` as a whole token: not inside a longer
/// run of letters and digits.
pub fn has_token(hay: &str, needle: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let (first, last) = (needle.chars().next(), needle.chars().next_back());
    if first.is_none() {
        return false;
    }
    hay.match_indices(needle).any(|(i, _)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + needle.len()..].chars().next();
        !(word(first) && word(before)) && !(word(last) && word(after))
    })
}
