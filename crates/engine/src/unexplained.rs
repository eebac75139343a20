//! Lines that look like failures but that no rule explains.
//!
//! The product must say what it did not understand. A line is failure-like
//! when it has a Python exception (`KeyError: 1`, a bare `AssertionError`),
//! `ERROR` / `Error:`, or a CANN error code (`EI0006`, `EJ0003`, `EZ9999`:
//! `[EWI][A-Z0-9]` and four digits). It is scanned by the same single pass
//! as the rule signatures ([`crate::pattern::FAILURE_LIKE`] is the last
//! pattern of the set). Lines
//! that are evidence of a finding are dropped; the rest are grouped by
//! their shape (digits and hex numbers masked, so the same error from
//! eight ranks is one group).

use crate::report::{EvidenceLine, UnexplainedGroup};

/// Groups kept in a report.
pub const MAX_GROUPS: usize = 50;
/// Line numbers kept per group.
pub const MAX_LINES: usize = 5;

/// The shape of a line: digits and hex numbers masked, spaces collapsed.
pub fn shape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.trim().chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            // 0x1f, 123, 1.5 all become one '#'
            while chars.peek().is_some_and(|d| d.is_ascii_hexdigit() || *d == 'x' || *d == '.') {
                chars.next();
            }
            out.push('#');
        } else if c.is_whitespace() {
            while chars.peek().is_some_and(|d| d.is_whitespace()) {
                chars.next();
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// Groups `lines` (already filtered to unexplained ones, in input order):
/// at most [`MAX_GROUPS`] groups, and how many lines fell in none of them.
pub fn group(lines: Vec<EvidenceLine>) -> (Vec<UnexplainedGroup>, usize) {
    let mut omitted = 0usize;
    let mut groups: Vec<(String, UnexplainedGroup)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for l in lines {
        let key = shape(&l.text);
        match index.get(&key) {
            Some(&i) => {
                let g = &mut groups[i].1;
                g.count += 1;
                if g.lines.len() < MAX_LINES && l.input == g.first.input {
                    g.lines.push(l.line);
                }
            }
            None => {
                if groups.len() >= MAX_GROUPS {
                    omitted += 1;
                    continue;
                }
                index.insert(key.clone(), groups.len());
                groups.push((key, UnexplainedGroup { lines: vec![l.line], first: l, count: 1, note: None }));
            }
        }
    }
    (groups.into_iter().map(|(_, g)| g).collect(), omitted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_error_from_many_ranks_is_one_group() {
        let l = |n, t: &str| EvidenceLine { input: None, line: n, text: t.into(), node: None, answer: None };
        let (g, omitted) = group(vec![
            l(3, "(WorkerDict pid=1234) ValueError: bad shape 12"),
            l(9, "(WorkerDict pid=5678) ValueError: bad shape 16"),
            l(12, "KeyError: 1"),
        ]);
        assert_eq!((g.len(), omitted), (2, 0));
        assert_eq!(g[0].count, 2);
        assert_eq!(g[0].lines, vec![3, 9]);
    }

    #[test]
    fn pattern_finds_failure_like_lines() {
        let re = crate::pattern::compile(crate::pattern::FAILURE_LIKE).unwrap();
        for yes in
            ["KeyError: 1", "AssertionError", "[ERROR] boom", "Error: x", "EZ9999: Inner Error!", "foo EJ0003: bind"]
        {
            assert!(re.is_match(yes.as_bytes()), "{yes}");
        }
        for no in ["INFO all good", "error_count=0", "ERRORS=0", "step 20260819"] {
            assert!(!re.is_match(no.as_bytes()), "{no}");
        }
    }
}
