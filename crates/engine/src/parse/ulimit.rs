//! `ulimit -n` and `ulimit -a` output.
//!
//! ```text
//! $ ulimit -n
//! 1024
//! $ ulimit -a
//! open files                          (-n) 1024
//! ```
//! Both give `ulimit.nofile`; `unlimited` becomes `i64::MAX`.

use super::FactSink;
use crate::facts::{FactDef, FactValue, ValueType};
use crate::segment::Segment;

/// Facts this parser produces.
pub const FACTS: &[FactDef] = &[FactDef::new(
    "ulimit.nofile",
    ValueType::Int,
    None,
    "open-file limit from `ulimit -n` / `ulimit -a` (unlimited = i64::MAX)",
)];

/// Scores `ulimit -a` style output without a prompt.
pub fn score(seg: &Segment) -> u8 {
    let hits = seg.lines.iter().filter(|l| l.text.contains("open files") && l.text.contains("(-n)")).count();
    if hits > 0 {
        80
    } else {
        0
    }
}

/// How strongly a command names this kind.
pub fn command(cmd: &str) -> u8 {
    if super::first_word(cmd) == "ulimit" {
        95
    } else {
        0
    }
}

fn value(token: &str) -> Option<i64> {
    let t = token.trim();
    if t == "unlimited" {
        Some(i64::MAX)
    } else {
        t.parse::<i64>().ok()
    }
}

/// Parses one `ulimit` segment.
pub fn parse(seg: &Segment, sink: &mut FactSink<'_>) {
    let bare_n = match seg.command.as_deref() {
        Some(c) => {
            let c = c.trim();
            c.starts_with("ulimit") && (c.contains("-n") || c.contains("-Sn") || c.contains("-Hn")) && !c.contains("-a")
        }
        // No command: only the user's override can have made this a ulimit
        // segment; a lone number is then the `ulimit -n` answer.
        None => seg.lines.iter().filter(|l| !l.text.trim().is_empty()).count() == 1,
    };
    for line in &seg.lines {
        let t = line.text.trim();
        if t.contains("open files") && t.contains("(-n)") {
            // The value is the word after `(-n)`: users mark the line they
            // point at (`(-n) 1024     <<< This is too small`, pytorch#137695).
            let after = t.split_once("(-n)").map_or("", |(_, rest)| rest);
            if let Some(v) = after.split_whitespace().next().and_then(value) {
                sink.push("ulimit.nofile", None, FactValue::Int(v), line);
            }
            continue;
        }
        if bare_n {
            if let Some(v) = value(t) {
                sink.push("ulimit.nofile", None, FactValue::Int(v), line);
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::facts::FactValue;
    use crate::segment::segment;
    use proptest::prelude::*;

    fn nofile(text: &str) -> Vec<FactValue> {
        let seg = &segment(text)[0];
        let mut facts = Vec::new();
        super::parse(seg, &mut super::FactSink::any(&mut facts));
        facts.into_iter().map(|f| f.value).collect()
    }

    #[test]
    fn bare_and_table_forms() {
        assert_eq!(nofile("$ ulimit -n\n1024\n"), vec![FactValue::Int(1024)]);
        assert_eq!(nofile("$ ulimit -n\nunlimited\n"), vec![FactValue::Int(i64::MAX)]);
        assert_eq!(
            nofile("$ ulimit -a\ncore file size (blocks, -c) 0\nopen files                      (-n) 65536\n"),
            vec![FactValue::Int(65536)]
        );
        // A line the poster marked (pytorch#137695).
        assert_eq!(
            nofile("$ ulimit -a\nopen files                          (-n) 1024     <<< This is too small\n"),
            vec![FactValue::Int(1024)]
        );
        assert_eq!(nofile("$ ulimit -n\n"), vec![]);
        assert_eq!(nofile("$ ulimit -n\nbash: ulimit: foo\n"), vec![]);
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,200}") {
            for seg in segment(&format!("$ ulimit -n\n{s}")).iter().chain(segment(&s).iter()) {
                let mut facts = Vec::new();
                super::parse(seg, &mut super::FactSink::any(&mut facts));
            }
        }
    }
}
