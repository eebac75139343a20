//! A ROLL config against the cluster and the environment it runs in:
//!
//! - config × `ray status`: the device ids need `max(id)+1` NPUs
//!   (`config.devices_needed`); a Ray cluster whose `NPU` total
//!   (`ray.resource_total`, subject `NPU`) is smaller cannot place them →
//!   `config.exceeds_cluster`.
//! - config × `npu-smi info`: ROLL replaces `num_gpus_per_node` with the
//!   driver's device count and needs `ceil((max(id)+1) / count)` nodes →
//!   `config.nodes_required`. One node's count alone cannot show the mapping
//!   is too large (the cluster may have more nodes), so nothing is flagged
//!   from it.
//! - config × env: roles sharing NPUs (`config.placement` = `colocated`)
//!   while `HCCL_NPU_SOCKET_PORT_RANGE` is neither in `system_envs` nor in
//!   a full environment listing (`env.listing` without a non-empty
//!   `env.var`, or `env.unset`), or `system_envs` sets it empty →
//!   `config.port_range_unset`. A config alone never gives it: the ROLL
//!   images already export `HCCL_NPU_SOCKET_PORT_RANGE=auto`.
//!
//! Each derived fact is emitted on the config line it concerns and, where
//! another input proves it, once more on that input's line, so the finding
//! shows both.
//!
//! ```
//! use roll_doctor_engine::facts::{Fact, FactValue};
//! use roll_doctor_engine::parse::combine::config::combine;
//! let f = |name, subject: Option<&str>, value, line| Fact {
//!     name, subject: subject.map(String::from), value, line, text: String::new(), segment: 0,
//! };
//! let facts = vec![
//!     f("config.devices_needed", Some("actor_train"), FactValue::Int(16), 12),
//!     f("ray.resource_total", Some("NPU"), FactValue::Float(8.0), 40),
//! ];
//! let out = combine(&facts);
//! assert_eq!(out.iter().map(|x| (x.name, x.line)).collect::<Vec<_>>(),
//!            vec![("config.exceeds_cluster", 12), ("config.exceeds_cluster", 40)]);
//! ```

use super::derived;
use crate::facts::{Fact, FactValue};

/// The variable that lets several processes share an NPU's HCCL port.
pub const PORT_RANGE_VAR: &str = "HCCL_NPU_SOCKET_PORT_RANGE";

/// Facts this combiner produces.
pub const FACTS: &[(&str, &str)] = &[
    (
        "config.exceeds_cluster",
        "the config's device ids need more NPUs than `ray status` reports in total (Str; on the config line and on the ray status line)",
    ),
    ("config.nodes_required", "nodes ROLL will need: ceil((max device id + 1) / npu.count) (Int, on the config line)"),
    (
        "config.port_range_unset",
        "roles share NPUs and HCCL_NPU_SOCKET_PORT_RANGE is not set in system_envs nor in the environment shown (Str; on the config line and the env line)",
    ),
];

fn is(f: &Fact, name: &str, subject: Option<&str>) -> bool {
    f.name == name && (subject.is_none() || f.subject.as_deref() == subject)
}

fn non_blank(f: &Fact) -> bool {
    !f.value.to_text().trim().is_empty()
}

/// Derives facts from the parsers' facts.
pub fn combine(facts: &[Fact]) -> Vec<Fact> {
    let mut out = Vec::new();
    cluster(facts, &mut out);
    port_range(facts, &mut out);
    out
}

fn cluster(facts: &[Fact], out: &mut Vec<Fact>) {
    let needed: Vec<&Fact> = facts.iter().filter(|f| is(f, "config.devices_needed", None)).collect();
    if needed.is_empty() {
        return;
    }
    // The Ray total is for the whole cluster: the largest one shown wins (a
    // paste may hold an older `ray status` from before nodes joined).
    let ray = facts
        .iter()
        .filter(|f| is(f, "ray.resource_total", Some("NPU")))
        .filter_map(|f| f.value.as_f64().map(|v| (f, v)))
        .filter(|(_, v)| v.is_finite() && *v >= 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1));
    let per_node = facts
        .iter()
        .filter(|f| is(f, "npu.count", None))
        .filter_map(|f| match f.value {
            FactValue::Int(n) if n > 0 => Some(n),
            _ => None,
        })
        .max();
    for n in needed {
        let FactValue::Int(need) = n.value else { continue };
        if let Some((rf, total)) = ray {
            // Zero NPUs is a Ray registration problem, reported elsewhere.
            if total > 0.0 && (need as f64) > total {
                let msg = format!("device ids need {need} NPUs; ray status shows {total} NPU in total");
                out.extend(derived("config.exceeds_cluster", None, FactValue::Str(msg.clone()), n));
                out.extend(derived("config.exceeds_cluster", None, FactValue::Str(msg), rf));
            }
        }
        if let Some(c) = per_node {
            let nodes = need.div_euclid(c) + i64::from(need.rem_euclid(c) != 0);
            out.extend(derived("config.nodes_required", None, FactValue::Int(nodes), n));
        }
    }
}

fn port_range(facts: &[Fact], out: &mut Vec<Fact>) {
    let colocated: Vec<&Fact> =
        facts.iter().filter(|f| is(f, "config.placement", None) && f.value.to_text() == "colocated").collect();
    let Some(first) = colocated.first() else { return };
    let in_config: Vec<&Fact> = facts.iter().filter(|f| is(f, "config.system_env", Some(PORT_RANGE_VAR))).collect();
    if in_config.iter().any(|f| non_blank(f)) {
        return;
    }
    let roles: Vec<String> = colocated.iter().filter_map(|f| f.subject.clone()).collect();
    let what = format!("{} share NPUs", roles.join(", "));
    // `system_envs` clears it explicitly.
    if let Some(blank) = in_config.first() {
        out.extend(derived("config.port_range_unset", None, FactValue::Str(what.clone()), first));
        out.extend(derived(
            "config.port_range_unset",
            None,
            FactValue::Str(format!("{PORT_RANGE_VAR} set empty in system_envs")),
            blank,
        ));
        return;
    }
    if facts.iter().any(|f| is(f, "env.var", Some(PORT_RANGE_VAR)) && non_blank(f)) {
        return;
    }
    let proof = facts
        .iter()
        .find(|f| is(f, "env.unset", Some(PORT_RANGE_VAR)))
        .or_else(|| facts.iter().find(|f| is(f, "env.listing", None) && f.value == FactValue::Bool(true)));
    if let Some(p) = proof {
        out.extend(derived("config.port_range_unset", None, FactValue::Str(what), first));
        out.extend(derived(
            "config.port_range_unset",
            None,
            FactValue::Str(format!("{PORT_RANGE_VAR} not set in this environment")),
            p,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(name: &'static str, subject: Option<&str>, value: FactValue, line: u32, segment: usize) -> Fact {
        Fact { name, subject: subject.map(String::from), value, line, text: format!("line {line}"), segment }
    }

    fn s(v: &str) -> FactValue {
        FactValue::Str(v.to_string())
    }

    fn names(out: &[Fact]) -> Vec<(&'static str, u32)> {
        out.iter().map(|f| (f.name, f.line)).collect()
    }

    fn config_colocated() -> Vec<Fact> {
        vec![
            fact("config.devices_needed", Some("actor_train"), FactValue::Int(16), 30, 0),
            fact("config.placement", Some("actor_train"), s("colocated"), 30, 0),
            fact("config.placement", Some("actor_infer"), s("colocated"), 40, 0),
        ]
    }

    #[test]
    fn exceeds_the_ray_total() {
        let mut f = config_colocated();
        f.push(fact("ray.resource_total", Some("NPU"), FactValue::Float(8.0), 7, 1));
        f.push(fact("ray.resource_total", Some("CPU"), FactValue::Float(192.0), 6, 1));
        let out = combine(&f);
        assert_eq!(names(&out), vec![("config.exceeds_cluster", 30), ("config.exceeds_cluster", 7)]);
        assert_eq!(out[1].segment, 1);
        assert_eq!(out[0].value.to_text(), "device ids need 16 NPUs; ray status shows 8 NPU in total");
    }

    #[test]
    fn fits_the_ray_total_or_no_npu_resource() {
        let mut f = config_colocated();
        f.push(fact("ray.resource_total", Some("NPU"), FactValue::Float(16.0), 7, 1));
        assert!(combine(&f).is_empty());
        let mut f = config_colocated();
        f.push(fact("ray.resource_total", Some("NPU"), FactValue::Float(0.0), 7, 1));
        assert!(combine(&f).is_empty(), "0 NPU is a Ray registration problem, not a too-large mapping");
        // An older status from before the second node joined does not count.
        let mut f = config_colocated();
        f.push(fact("ray.resource_total", Some("NPU"), FactValue::Float(8.0), 7, 1));
        f.push(fact("ray.resource_total", Some("NPU"), FactValue::Float(16.0), 20, 2));
        assert!(combine(&f).is_empty());
    }

    #[test]
    fn npu_count_gives_nodes_required_but_no_alarm() {
        let mut f = config_colocated();
        f.push(fact("npu.count", None, FactValue::Int(8), 3, 1));
        let out = combine(&f);
        assert_eq!(names(&out), vec![("config.nodes_required", 30)]);
        assert_eq!(out[0].value, FactValue::Int(2));
        let mut f = config_colocated();
        f.push(fact("npu.count", None, FactValue::Int(16), 3, 1));
        assert_eq!(combine(&f)[0].value, FactValue::Int(1));
        let mut f = config_colocated();
        f.push(fact("npu.count", None, FactValue::Int(0), 3, 1));
        assert!(combine(&f).is_empty());
    }

    #[test]
    fn port_range_missing_from_a_full_listing() {
        let mut f = config_colocated();
        f.push(fact("env.listing", None, FactValue::Bool(true), 50, 2));
        f.push(fact("env.var", Some("PATH"), s("/usr/bin"), 51, 2));
        let out = combine(&f);
        assert_eq!(names(&out), vec![("config.port_range_unset", 30), ("config.port_range_unset", 50)]);
        assert_eq!(out[0].value.to_text(), "actor_train, actor_infer share NPUs");
    }

    #[test]
    fn port_range_reported_unset_by_the_env_parser() {
        let mut f = config_colocated();
        f.push(fact("env.unset", Some(PORT_RANGE_VAR), FactValue::Bool(true), 60, 2));
        assert_eq!(names(&combine(&f)), vec![("config.port_range_unset", 30), ("config.port_range_unset", 60)]);
    }

    #[test]
    fn port_range_set_anywhere_or_config_alone_is_quiet() {
        // A config alone: the ROLL images set it.
        assert!(combine(&config_colocated()).is_empty());
        // Set in the listing.
        let mut f = config_colocated();
        f.push(fact("env.listing", None, FactValue::Bool(true), 50, 2));
        f.push(fact("env.var", Some(PORT_RANGE_VAR), s("auto"), 52, 2));
        assert!(combine(&f).is_empty());
        // Set in system_envs.
        let mut f = config_colocated();
        f.push(fact("config.system_env", Some(PORT_RANGE_VAR), s("auto"), 5, 0));
        f.push(fact("env.listing", None, FactValue::Bool(true), 50, 2));
        assert!(combine(&f).is_empty());
        // Separate roles.
        let f = vec![
            fact("config.placement", Some("actor_train"), s("separate"), 30, 0),
            fact("config.placement", Some("actor_infer"), s("separate"), 40, 0),
            fact("env.listing", None, FactValue::Bool(true), 50, 2),
        ];
        assert!(combine(&f).is_empty());
    }

    #[test]
    fn port_range_cleared_in_system_envs() {
        let mut f = config_colocated();
        f.push(fact("config.system_env", Some(PORT_RANGE_VAR), s(""), 5, 0));
        assert_eq!(names(&combine(&f)), vec![("config.port_range_unset", 30), ("config.port_range_unset", 5)]);
    }
}
