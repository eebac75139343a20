//! The collector's own sections: what the cluster should look like. The Ray
//! collection (`collector/roll-doctor-ray-collect.py --expect N` or
//! `--hosts a,b,c`) writes, once per bundle:
//!
//! ```text
//! ===== roll-doctor: expected nodes =====
//! expected: 4
//! alive: 3
//! missing: ascend-node-4
//! ```
//!
//! Facts (cluster-wide): `cluster.expected_nodes`, `cluster.alive_nodes`,
//! `cluster.missing_node` (subject = the node as named, when the host list
//! names it; value = the line's remainder). A node that should be there and
//! is not is itself a finding (`ray-node-missing`).

use super::FactSink;
use crate::facts::{FactDef, FactValue, ValueType};
use crate::segment::Segment;

/// Facts this parser produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("cluster.expected_nodes", ValueType::Int, None, "how many nodes the job should have (`--expect N`, or the host list), from the collector's `expected nodes` section (Int)"),
    FactDef::new("cluster.alive_nodes", ValueType::Int, None, "how many nodes Ray listed alive when the bundle was collected (Int)"),
    FactDef::new("cluster.missing_node", ValueType::Str, Some("node"), "a node that should be in the cluster but Ray does not list (Str: what the collector said); subject = its name or address, or `?` when only the count is known"),
];

/// The collector names this section itself.
pub fn command(cmd: &str) -> u8 {
    if cmd.trim() == "expected nodes" {
        100
    } else {
        0
    }
}

/// Without the section marker nothing is this kind.
pub fn score(_: &Segment) -> u8 {
    0
}

/// Parses one segment.
pub fn parse(seg: &Segment, sink: &mut FactSink<'_>) {
    for l in &seg.lines {
        let Some((key, value)) = l.text.split_once(':') else { continue };
        let value = value.trim();
        match key.trim() {
            "expected" => {
                if let Ok(n) = value.parse::<i64>() {
                    sink.push("cluster.expected_nodes", None, FactValue::Int(n), l);
                }
            }
            "alive" => {
                if let Ok(n) = value.parse::<i64>() {
                    sink.push("cluster.alive_nodes", None, FactValue::Int(n), l);
                }
            }
            "missing" if !value.is_empty() => {
                // `missing: ascend-node-4` or `missing: 1 node(s) (expected 4, alive 3)`.
                let first = value.split_whitespace().next().unwrap_or("");
                let counted = first.chars().all(|c| c.is_ascii_digit()) && value.contains("node");
                let subject = if counted { "?".to_string() } else { first.to_string() };
                sink.push("cluster.missing_node", Some(subject), FactValue::Str(value.to_string()), l);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::parse::facts_of;

    #[test]
    fn expected_alive_and_missing() {
        let t = "===== roll-doctor: expected nodes =====\nexpected: 4\nalive: 3\nmissing: ascend-node-4\n";
        let f: Vec<_> = facts_of(t, super::parse).into_iter().map(|f| (f.name, f.subject, f.value.to_text())).collect();
        assert_eq!(
            f,
            vec![
                ("cluster.expected_nodes", None, "4".into()),
                ("cluster.alive_nodes", None, "3".into()),
                ("cluster.missing_node", Some("ascend-node-4".into()), "ascend-node-4".into()),
            ]
        );
        let t = "===== roll-doctor: expected nodes =====\nmissing: 1 node(s) (expected 4, alive 3)\n";
        assert_eq!(facts_of(t, super::parse)[0].subject.as_deref(), Some("?"));
    }
}
