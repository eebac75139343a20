//! ROLL YAML configs.
//!
//! A role is a top-level mapping that looks like a `WorkerConfig` (it has
//! `strategy_args`, `device_mapping`, `worker_cls` or `model_args`), or an
//! entry of `rewards:`. Line numbers are mapped back to the user's paste.
//! Malformed YAML yields `config.yaml_error` with the line and column.

use super::FactSink;
use crate::facts::FactValue;
use crate::segment::{Line, Segment};
use crate::yaml::{self, Node};

/// Facts this parser produces.
pub const FACTS: &[(&str, &str)] = &[
    ("config.role", "a worker role present in a ROLL config; subject = role, value = role"),
    ("config.strategy_name", "strategy_args.strategy_name of a role; subject = role"),
    ("config.yaml_error", "the config segment is not valid YAML; value = message with line and column"),
];

const ROLE_MARKERS: &[&str] = &["strategy_args", "device_mapping", "worker_cls", "model_args"];

fn is_role(node: &Node) -> bool {
    ROLE_MARKERS.iter().any(|k| node.get(k).is_some())
}

/// The roles of a config: `(role name, node)`, rewards as `rewards.<name>`.
pub fn roles(doc: &Node) -> Vec<(String, &Node)> {
    let mut out = Vec::new();
    for (k, v) in doc.entries() {
        let Some(key) = k.as_str() else { continue };
        if is_role(v) {
            out.push((key.to_string(), v));
        } else if key == "rewards" {
            for (rk, rv) in v.entries() {
                if let Some(rk) = rk.as_str() {
                    if is_role(rv) {
                        out.push((format!("rewards.{rk}"), rv));
                    }
                }
            }
        }
    }
    out
}

/// Parses one config segment.
pub fn parse(seg: &Segment, sink: &mut FactSink<'_>) {
    let src = seg.joined();
    // YAML lines are 1-based within the segment; map them to the paste.
    let line_at = |n: u32| -> &Line {
        let i = (n.max(1) as usize - 1).min(seg.lines.len().saturating_sub(1));
        &seg.lines[i]
    };
    if seg.lines.is_empty() {
        return;
    }
    let doc = match yaml::parse(&src) {
        Ok(Some(doc)) => doc,
        Ok(None) => return,
        Err(e) => {
            let l = line_at(e.line);
            let msg = format!("line {}, column {}: {}", l.no, e.col, e.message);
            sink.push("config.yaml_error", None, FactValue::Str(msg), l);
            return;
        }
    };
    for (role, node) in roles(&doc) {
        sink.push("config.role", Some(role.clone()), FactValue::Str(role.clone()), line_at(node.line));
        if let Some(name) = node.get("strategy_args").and_then(|s| s.get("strategy_name")) {
            if let Some(v) = name.as_str() {
                sink.push("config.strategy_name", Some(role.clone()), FactValue::Str(v.to_string()), line_at(name.line));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::facts::{Fact, FactValue};
    use crate::segment::segment;

    fn facts(text: &str) -> Vec<Fact> {
        let seg = &segment(text)[0];
        let mut facts = Vec::new();
        super::parse(seg, &mut super::FactSink::new(&mut facts, 0));
        facts
    }

    #[test]
    fn strategy_names_with_lines() {
        let f = facts("# comment\nactor_train:\n  strategy_args:\n    strategy_name: megatron_train\nrewards:\n  math:\n    worker_cls: x\n");
        let s: Vec<_> = f.iter().filter(|f| f.name == "config.strategy_name").collect();
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].subject.as_deref(), Some("actor_train"));
        assert_eq!(s[0].line, 4);
        assert!(f.iter().any(|f| f.name == "config.role" && f.value == FactValue::Str("rewards.math".into())));
    }

    #[test]
    fn malformed_yaml_is_a_fact_with_position() {
        let f = facts("actor_train:\n  device_mapping: [0, 1\n  strategy_args: x\n");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].name, "config.yaml_error");
        assert!(f[0].value.to_text().contains("line"), "{:?}", f[0]);
    }
}
