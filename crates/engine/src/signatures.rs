//! Stage 4: log signatures.
//!
//! Every `signature:` of every rule is compiled once into one [`SignatureSet`]
//! and each line is scanned once against all of them (a `RegexSet`, which
//! runs a single multi-pattern automaton with a literal prefilter), instead
//! of one regex pass per rule.
//!
//! Patterns are in the one dialect of [`crate::pattern`]: bytes with ASCII
//! semantics (a Unicode word boundary cannot run in the lazy DFA, and on
//! lines with non-ASCII text the whole set fell back to a slow engine —
//! 100× slower on a mixed log).
//!
//! Lines the user *typed* are not evidence: `grep EI0006 plog` or
//! `export HCCL_CONNECT_TIMEOUT=3600` mention an error string or a setting
//! without anything having failed. [`is_typed_command`] filters them.

use crate::segment::Line;
use regex::bytes::RegexSet;

/// All signatures, compiled.
#[derive(Debug)]
pub struct SignatureSet {
    set: RegexSet,
    /// The pattern texts, in set order.
    pub patterns: Vec<String>,
}

/// One signature match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Index of the signature in the set.
    pub signature: usize,
    /// The line it matched.
    pub line: u32,
}

/// Words that start a command a user typed rather than a line a program printed.
const TYPED: &[&str] = &[
    "grep", "egrep", "zgrep", "rg", "export", "echo", "cat", "tail", "less", "head", "find", "sed", "awk", "history",
    "unset", "set", "vim", "vi",
];

/// True for a line that looks like a command typed at a shell (possibly
/// with a `history` number in front) rather than program output.
pub fn is_typed_command(text: &str) -> bool {
    let t = text.trim_start();
    let t = t.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start();
    let first = t.split_whitespace().next().unwrap_or("");
    TYPED.contains(&first) && t.len() > first.len()
}

/// The width a paste was hard-wrapped at, if it looks wrapped: at least
/// three lines of the same length, 60 characters or more, and that length is
/// the longest in the paste (nothing can be longer than the wrap width).
pub fn wrap_width(lines: &[Line]) -> Option<usize> {
    // Only the longest length can be the wrap width: count how often it occurs.
    let (mut longest, mut count) = (0, 0);
    for l in lines {
        let n = l.text.chars().count();
        if n > longest {
            (longest, count) = (n, 1);
        } else if n == longest {
            count += 1;
        }
    }
    (longest >= 60 && count >= 3).then_some(longest)
}

impl SignatureSet {
    /// Compiles `patterns`, each already accepted by [`crate::pattern::compile`].
    pub fn new(patterns: &[String]) -> Result<SignatureSet, String> {
        Ok(SignatureSet { set: crate::pattern::compile_set(patterns)?, patterns: patterns.to_vec() })
    }

    /// Number of signatures.
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    /// True when there are no signatures.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Scans `lines` once, returning every (signature, line) hit in line order.
    ///
    /// Hard-wrapped pastes (a terminal or `fold` cut long lines at a fixed
    /// width) are handled too: when a line is exactly the wrap width, it is
    /// also matched joined with the next line, and a hit that only the join
    /// reveals is reported on the first line.
    pub fn scan(&self, lines: &[Line], out: &mut Vec<Hit>) {
        let wrap = wrap_width(lines);
        let mut joined = String::new();
        for (i, line) in lines.iter().enumerate() {
            let hit = self.set.is_match(line.text.as_bytes());
            if hit && !is_typed_command(&line.text) {
                for idx in self.set.matches(line.text.as_bytes()).iter() {
                    out.push(Hit { signature: idx, line: line.no });
                }
            }
            let Some(w) = wrap else { continue };
            if line.text.chars().count() != w {
                continue;
            }
            let Some(next) = lines.get(i + 1) else { continue };
            joined.clear();
            joined.push_str(&line.text);
            joined.push_str(&next.text);
            if is_typed_command(&joined) {
                continue;
            }
            let own = self.set.matches(line.text.as_bytes());
            let theirs = self.set.matches(next.text.as_bytes());
            for idx in self.set.matches(joined.as_bytes()).iter() {
                if !own.matched(idx) && !theirs.matched(idx) {
                    out.push(Hit { signature: idx, line: line.no });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::normalise;

    #[test]
    fn one_scan_finds_all_patterns() {
        let set = SignatureSet::new(&["EI0006".into(), "Too many open files".into()]).unwrap();
        let mut hits = Vec::new();
        set.scan(&normalise("ok\nEI0006: boom\nFailed accept4: Too many open files\n"), &mut hits);
        assert_eq!(hits, vec![Hit { signature: 0, line: 2 }, Hit { signature: 1, line: 3 }]);
    }

    #[test]
    fn typed_commands_are_not_evidence() {
        assert!(is_typed_command("grep EI0006 plog/*.log"));
        assert!(is_typed_command("  123  export HCCL_CONNECT_TIMEOUT=3600"));
        assert!(!is_typed_command("EI0006: Getting socket times out."));
        let set = SignatureSet::new(&["EI0006".into()]).unwrap();
        let mut hits = Vec::new();
        set.scan(&normalise("grep EI0006 plog\n"), &mut hits);
        assert!(hits.is_empty());
    }

    #[test]
    fn hard_wrapped_lines_are_joined() {
        let long = "[ERROR] HCCL(1,python):2025-04-08 [socket.cc:1] [1][Wait] wait socket establish timeout, role[1] rank[12] timeout[120]";
        let folded: String =
            long.chars().collect::<Vec<_>>().chunks(60).map(|c| c.iter().collect::<String>() + "\n").collect();
        let text = format!("{folded}{}\n{}\n", "x".repeat(60), "y".repeat(60));
        let lines = normalise(&text);
        assert_eq!(wrap_width(&lines), Some(60));
        let set = SignatureSet::new(&["wait socket establish timeout".into()]).unwrap();
        let mut hits = Vec::new();
        set.scan(&lines, &mut hits);
        assert_eq!(hits.len(), 1, "{hits:?}");
    }

    #[test]
    fn bad_pattern_is_reported() {
        assert!(SignatureSet::new(&["ok".into(), "(".into()]).is_err());
    }
}
