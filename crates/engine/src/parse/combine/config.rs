//! A ROLL config against the cluster it runs on. Normalising only; the
//! rules compare (`device-mapping-exceeds-cluster`, `ray-cluster-too-few-nodes`):
//!
//! - `ray.npu_total`: the NPU total of the cluster, the largest `ray
//!   status` shows (a paste may hold an older status from before the other
//!   nodes joined), on the line that shows it.
//! - `config.nodes_required`: ROLL replaces `num_gpus_per_node` with the
//!   driver's device count and needs `ceil((max(id)+1) / count)` nodes; on
//!   the config line, from the largest `npu.count` shown.
//!
//! ```
//! use roll_doctor_engine::facts::{Fact, FactValue, LineRef, Origin};
//! use roll_doctor_engine::parse::combine::config::combine;
//! let f = |name, subject: Option<&str>, value, line| Fact {
//!     name, subject: subject.map(String::from), value, node: None,
//!     origin: Origin::Line { at: LineRef { input: 0, line }, segment: 0, text: "".into() },
//! };
//! let facts = vec![
//!     f("config.devices_needed", Some("actor_train"), FactValue::Int(16), 12),
//!     f("ray.resource_total", Some("NPU"), FactValue::Float(8.0), 40),
//!     f("npu.count", None, FactValue::Int(8), 50),
//! ];
//! let out = combine(&facts);
//! assert_eq!(out.iter().map(|x| (x.name, x.value.to_text())).collect::<Vec<_>>(),
//!            vec![("ray.npu_total", "8".to_string()), ("config.nodes_required", "2".to_string())]);
//! ```

use super::def;
use crate::facts::{Fact, FactDef, FactValue, ValueType};

/// Facts this combiner produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("ray.npu_total", ValueType::Float, None, "the cluster's NPU total: the largest `NPU` total the pasted `ray status` outputs show (Float)"),
    FactDef::new("config.nodes_required", ValueType::Int, None, "nodes ROLL will need: ceil((max device id + 1) / npu.count), from the largest npu.count shown (Int, on the config line)"),
];

/// Derives facts from the parsers' facts.
pub fn combine(facts: &[Fact]) -> Vec<Fact> {
    let mut out = Vec::new();
    let ray = facts
        .iter()
        .filter(|f| f.name == "ray.resource_total" && f.subject.as_deref() == Some("NPU"))
        .filter_map(|f| f.value.as_f64().map(|v| (f, v)))
        .filter(|(_, v)| v.is_finite() && *v >= 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((f, total)) = ray {
        out.push(f.derive(def(FACTS, "ray.npu_total"), None, FactValue::Float(total)));
    }
    let per_node = facts
        .iter()
        .filter(|f| f.name == "npu.count")
        .filter_map(|f| match f.value {
            FactValue::Int(n) if n > 0 => Some(n),
            _ => None,
        })
        .max();
    if let Some(c) = per_node {
        for n in facts.iter().filter(|f| f.name == "config.devices_needed") {
            if let FactValue::Int(need) = n.value {
                let nodes = need.div_euclid(c) + i64::from(need.rem_euclid(c) != 0);
                out.push(n.derive(def(FACTS, "config.nodes_required"), None, FactValue::Int(nodes)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::combine::fact;

    #[test]
    fn largest_ray_total_wins() {
        let f = vec![
            fact("ray.resource_total", Some("NPU"), FactValue::Float(8.0), 7, 1),
            fact("ray.resource_total", Some("NPU"), FactValue::Float(16.0), 20, 2),
            fact("ray.resource_total", Some("CPU"), FactValue::Float(192.0), 6, 1),
        ];
        let out = combine(&f);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].value, FactValue::Float(16.0));
        assert_eq!(out[0].line_ref().unwrap().line, 20);
    }

    #[test]
    fn nodes_required_from_the_node_size() {
        let base = vec![fact("config.devices_needed", Some("actor_train"), FactValue::Int(16), 30, 0)];
        for (count, want) in [(8, Some(2)), (16, Some(1)), (0, None)] {
            let mut f = base.clone();
            f.push(fact("npu.count", None, FactValue::Int(count), 3, 1));
            let got: Vec<_> =
                combine(&f).into_iter().filter(|x| x.name == "config.nodes_required").map(|x| x.value).collect();
            assert_eq!(got, want.map(FactValue::Int).into_iter().collect::<Vec<_>>(), "count {count}");
        }
    }
}
