//! `ray status` output: how many nodes joined the cluster and which
//! resources (NPU, CPU, memory) Ray sees.
//!
//! Current layout (Ray 2.x; older versions print `Healthy:` for `Active:`
//! and `Usage:` / `Demands:` for `Total Usage:` / `Total Demands:`; Ray 2.48
//! drops `Idle:` and adds `Total Constraints:`):
//!
//! ```text
//! ======== Autoscaler status: 2025-06-09 10:00:00.000000 ========
//! Node status
//! ---------------------------------------------------------------
//! Active:
//!  1 node_5a6f9c1e0d2b
//!  1 node_c3e1f07a9b44
//! Pending:
//!  (no pending nodes)
//! Recent failures:
//!  (no failures)
//!
//! Resources
//! ---------------------------------------------------------------
//! Total Usage:
//!  0.0/384.0 CPU
//!  0.0/16.0 NPU
//!  0B/1.46TiB memory
//!  0B/186.26GiB object_store_memory
//! ```
//!
//! Facts: `ray.nodes_active` (sum of the counts under `Active:`/`Healthy:`
//! and `Idle:`), `ray.nodes_pending`, `ray.resource_total` and
//! `ray.resource_used` (subject = resource name; memory sizes in bytes), and
//! `ray.npu_absent` when the totals list resources but no `NPU`. Per-node
//! blocks of `ray status -v` (`Node: …` / ` Usage:`) are not cluster totals
//! and are skipped.
//!
//! ROLL's docs show a summary that Ray does not print (`Total: 128.0 CPU,
//! 16.0 NPU, ...`); it is read leniently for its totals and never reported
//! as a problem.
//!
//! ```
//! use roll_doctor_engine::{diagnose, InputKind};
//! let text = "$ ray status\n======== Autoscaler status: 2025-06-09 10:00:00 ========\nNode status\n\
//!             ------------------------------\nActive:\n 1 node_5a6f\n 1 node_c3e1\nPending:\n (no pending nodes)\n\
//!             Recent failures:\n (no failures)\n\nResources\n------------------------------\nTotal Usage:\n\
//!  0.0/384.0 CPU\n 0.0/16.0 NPU\n 0B/1.46TiB memory\n";
//! let r = diagnose(text);
//! assert_eq!(r.segments[0].kind, InputKind::RayStatus);
//! assert!(r.findings.is_empty());
//! ```

use super::FactSink;
use crate::facts::{FactDef, FactValue, ValueType};
use crate::segment::{Line, Segment};
use regex::Regex;
use std::sync::OnceLock;

/// Facts this parser produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("ray.resource_total", ValueType::Float, Some("resource"), "a resource total from `ray status`; subject = resource (NPU, CPU), value = Float"),
    FactDef::new("ray.resource_used", ValueType::Float, Some("resource"), "how much of a resource is in use, from `ray status`; subject = resource (NPU, CPU), value = Float"),
    FactDef::new("ray.nodes_active", ValueType::Int, None, "number of nodes in the Ray cluster from `ray status` (Active/Healthy plus Idle), Int"),
    FactDef::new("ray.nodes_pending", ValueType::Int, None, "number of nodes `ray status` lists as pending (being launched), Int"),
    FactDef::new("ray.npu_absent", ValueType::Bool, None, "`ray status` lists resource totals but no accelerator line (no NPU, GPU, TPU, …): Ray does not see any NPU on the cluster (Bool true; line = the Usage header)"),
];

/// How strongly a command names this kind.
pub fn command(cmd: &str) -> u8 {
    if super::first_word(cmd) == "ray" && cmd.contains("status") {
        95
    } else {
        0
    }
}

fn resource_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(r"^(?P<used>[0-9]+(?:\.[0-9]+)?)\s*(?P<uu>[KMGTPE]i?B|B)?\s*/\s*(?P<total>[0-9]+(?:\.[0-9]+)?)\s*(?P<tu>[KMGTPE]i?B|B)?\s+(?P<name>[A-Za-z_][0-9A-Za-z_:.\-]*)")
            .expect("static regex")
    })
}

fn node_count_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(r"^([0-9]+)\s+\S").expect("static regex"))
}

fn launching_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(r"([0-9]+)\s+launching").expect("static regex"))
}

fn docs_total_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(r"([0-9]+(?:\.[0-9]+)?)\s+([A-Za-z_][0-9A-Za-z_:.\-]*)").expect("static regex"))
}

fn unit(u: Option<&str>) -> f64 {
    match u.unwrap_or("") {
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        "TiB" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        "PiB" => 1024f64.powi(5),
        "EiB" => 1024f64.powi(6),
        "KB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "TB" => 1e12,
        "PB" => 1e15,
        "EB" => 1e18,
        _ => 1.0,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    Active,
    Pending,
    Failures,
    Usage,
    Other,
}

/// How much `seg` looks like this input when no command named it (0–100).
pub fn score(seg: &Segment) -> u8 {
    let mut node_status = false;
    let mut resources = false;
    let mut usage_hdr = false;
    let mut usage_lines = 0usize;
    let mut docs_total = false;
    for l in seg.lines.iter().take(2000) {
        let t = l.text.trim();
        if t.starts_with("======== Autoscaler status") {
            return 95;
        }
        match t {
            "Node status" => node_status = true,
            "Resources" => resources = true,
            "Total Usage:" | "Usage:" => usage_hdr = true,
            _ => {}
        }
        if resource_re().is_match(t) {
            usage_lines += 1;
        }
        if t.starts_with("Total:") && (t.contains(" NPU") || t.contains(" CPU")) {
            docs_total = true;
        }
    }
    if node_status && (resources || usage_hdr) {
        85
    } else if usage_hdr && usage_lines >= 2 {
        80
    } else if resources && docs_total {
        60
    } else {
        0
    }
}

/// Resources that are not an accelerator count: CPUs, memory, and the labels
/// Ray adds itself (`node:<ip>`, `accelerator_type:<model>` — a label next to
/// the count, not the count).
fn is_not_an_accelerator(name: &str) -> bool {
    matches!(name, "CPU" | "memory" | "object_store_memory")
        || name.starts_with("node:")
        || name.to_ascii_lowercase().replace('_', "").starts_with("acceleratortype:")
}

/// Parses one segment.
pub fn parse(seg: &Segment, sink: &mut FactSink<'_>) {
    let mut section = Section::None;
    let mut per_node = false;
    let mut active: Option<(&Line, i64)> = None;
    let mut pending: Option<(&Line, i64)> = None;
    let mut usage_hdr: Option<&Line> = None;
    let mut usage_names: Vec<String> = Vec::new();
    for line in &seg.lines {
        let t = line.text.trim();
        if t.is_empty() {
            continue;
        }
        let header = match t {
            "Active:" | "Healthy:" | "Idle:" => Some(Section::Active),
            "Pending:" => Some(Section::Pending),
            "Recent failures:" => Some(Section::Failures),
            "Total Usage:" | "Usage:" => Some(if per_node { Section::Other } else { Section::Usage }),
            "Total Demands:" | "Demands:" | "Total Constraints:" | "Resources" | "Node status" => Some(Section::Other),
            _ if t.starts_with("Node:") => {
                per_node = true;
                Some(Section::Other)
            }
            _ if t.starts_with("====") || t.starts_with("----") => Some(Section::Other),
            _ => None,
        };
        if let Some(h) = header {
            section = h;
            match h {
                Section::Active if active.is_none() => active = Some((line, 0)),
                Section::Pending if pending.is_none() => pending = Some((line, 0)),
                Section::Usage if usage_hdr.is_none() => usage_hdr = Some(line),
                _ => {}
            }
            continue;
        }
        match section {
            Section::Active => {
                if let (Some(c), Some(a)) = (node_count_re().captures(t), active.as_mut()) {
                    a.1 = a.1.saturating_add(c[1].parse::<i64>().unwrap_or(0));
                }
            }
            Section::Pending => {
                if let Some(p) = pending.as_mut() {
                    if t.starts_with('(') {
                        // (no pending nodes)
                    } else if let Some(c) = launching_re().captures(t) {
                        p.1 = p.1.saturating_add(c[1].parse::<i64>().unwrap_or(0));
                    } else {
                        p.1 = p.1.saturating_add(1);
                    }
                }
            }
            Section::Usage => {
                if let Some(c) = resource_re().captures(t) {
                    let name = c["name"].to_string();
                    let used = c["used"].parse::<f64>().unwrap_or(0.0) * unit(c.name("uu").map(|m| m.as_str()));
                    let total = c["total"].parse::<f64>().unwrap_or(0.0) * unit(c.name("tu").map(|m| m.as_str()));
                    sink.push("ray.resource_total", Some(name.clone()), FactValue::Float(total), line);
                    sink.push("ray.resource_used", Some(name.clone()), FactValue::Float(used), line);
                    usage_names.push(name);
                }
            }
            Section::Failures | Section::Other | Section::None => {
                // ROLL docs' summary form: `Total: 128.0 CPU, 16.0 NPU, ...`
                if let Some(rest) = t.strip_prefix("Total:") {
                    for c in docs_total_re().captures_iter(rest) {
                        if let Ok(v) = c[1].parse::<f64>() {
                            sink.push("ray.resource_total", Some(c[2].to_string()), FactValue::Float(v), line);
                        }
                    }
                }
            }
        }
    }
    if let Some((line, n)) = active {
        sink.push("ray.nodes_active", None, FactValue::Int(n), line);
    }
    if let Some((line, n)) = pending {
        sink.push("ray.nodes_pending", None, FactValue::Int(n), line);
    }
    if let Some(line) = usage_hdr {
        // Only a cluster with no accelerator at all lacks its NPUs: one that
        // registered GPUs (ray-no-npu-resources asks for Ascend evidence
        // then), TPUs, HPUs or Neuron cores is another kind of cluster.
        if !usage_names.is_empty() && usage_names.iter().all(|n| is_not_an_accelerator(n)) {
            sink.push("ray.npu_absent", None, FactValue::Bool(true), line);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::facts::{Fact, FactValue};
    use crate::segment::segment;
    use proptest::prelude::*;

    fn facts(text: &str) -> Vec<Fact> {
        crate::parse::facts_of(text, super::parse)
    }

    fn get(fs: &[Fact], name: &str, subject: Option<&str>) -> Option<(FactValue, u32)> {
        fs.iter().find(|f| f.name == name && f.subject.as_deref() == subject).map(|f| (f.value.clone(), f.line()))
    }

    const NEW: &str = "$ ray status\n======== Autoscaler status: 2025-06-09 10:00:00.000000 ========\nNode status\n\
---------------------------------------------------------------\nActive:\n 1 node_5a6f9c1e0d2b\n 1 node_c3e1f07a9b44\n\
Pending:\n (no pending nodes)\nRecent failures:\n (no failures)\n\nResources\n\
---------------------------------------------------------------\nTotal Usage:\n 0.0/384.0 CPU\n 8.0/16.0 NPU\n\
 0B/1.46TiB memory\n 0B/186.26GiB object_store_memory\n\nTotal Constraints:\n (no request_resources() constraints)\n\
Total Demands:\n (no resource demands)\n";

    #[test]
    fn new_layout() {
        let fs = facts(NEW);
        assert_eq!(get(&fs, "ray.nodes_active", None), Some((FactValue::Int(2), 5)));
        assert_eq!(get(&fs, "ray.nodes_pending", None), Some((FactValue::Int(0), 8)));
        assert_eq!(get(&fs, "ray.resource_total", Some("NPU")), Some((FactValue::Float(16.0), 17)));
        assert_eq!(get(&fs, "ray.resource_used", Some("NPU")), Some((FactValue::Float(8.0), 17)));
        assert_eq!(get(&fs, "ray.resource_total", Some("CPU")).map(|v| v.0), Some(FactValue::Float(384.0)));
        let mem = get(&fs, "ray.resource_total", Some("memory")).and_then(|v| v.0.as_f64()).unwrap();
        assert!((mem - 1.46 * 1024f64.powi(4)).abs() < 1.0);
        assert!(get(&fs, "ray.npu_absent", None).is_none());
        assert_eq!(super::score(&segment(&NEW.replace("$ ray status\n", ""))[0]), 95);
    }

    #[test]
    fn old_layout_with_per_node_blocks_and_pending() {
        let t = "======== Autoscaler status: 2020-12-28 01:02:03 ========\nNode status\n--------\nHealthy:\n 2 p3.2xlarge\n 20 m4.4xlarge\n\
Pending:\n m4.4xlarge, 2 launching\n 1.2.3.4: m4.4xlarge, waiting-for-ssh\nRecent failures:\n p3.2xlarge: RayletUnexpectedlyDied (ip: 1.2.3.6)\n\n\
Resources\n--------\nUsage:\n 530/544 CPU\n 0/2 AcceleratorType:V100\n 2.00/8.000 GiB memory\n\nDemands:\n {'CPU': 1}: 150+ pending tasks/actors\n\n\
Node: 192.168.1.1\n Usage:\n  5.0/20.0 CPU\n  0.0/8.0 NPU\n";
        let fs = facts(t);
        assert_eq!(get(&fs, "ray.nodes_active", None).map(|v| v.0), Some(FactValue::Int(22)));
        assert_eq!(get(&fs, "ray.nodes_pending", None).map(|v| v.0), Some(FactValue::Int(3)));
        assert_eq!(get(&fs, "ray.resource_total", Some("CPU")).map(|v| v.0), Some(FactValue::Float(544.0)));
        // the per-node NPU line is not a cluster total
        assert!(get(&fs, "ray.resource_total", Some("NPU")).is_none());
        assert_eq!(get(&fs, "ray.npu_absent", None), Some((FactValue::Bool(true), 15)));
    }

    #[test]
    fn a_gpu_cluster_is_not_missing_npus() {
        let t = "$ ray status\nResources\n--------\nTotal Usage:\n 0.0/128.0 CPU\n 0.0/8.0 GPU\n";
        assert!(get(&facts(t), "ray.npu_absent", None).is_none());
    }

    #[test]
    fn a_tpu_cluster_is_not_missing_npus() {
        // ray-project/ray#26066: a healthy TPU cluster.
        let t = "$ ray status\nResources\n--------\nUsage:\n 0.0/960.0 CPU\n 0.0/4.0 TPU\n 0.00/1.2TiB memory\n";
        assert!(get(&facts(t), "ray.npu_absent", None).is_none());
        let t = "$ ray status\nResources\n--------\nUsage:\n 0.0/96.0 CPU\n 0.00/1.2TiB memory\n 0.00/9.3GiB object_store_memory\n";
        assert!(get(&facts(t), "ray.npu_absent", None).is_some());
    }

    #[test]
    fn roll_docs_snippet_is_read_leniently() {
        let t = "Resources\n---------------------------------------------------------------\nTotal: 128.0 CPU, 16.0 NPU, ...\n";
        let seg = &segment(t)[0];
        assert_eq!(super::score(seg), 60);
        let fs = facts(t);
        assert_eq!(get(&fs, "ray.resource_total", Some("NPU")).map(|v| v.0), Some(FactValue::Float(16.0)));
        assert!(get(&fs, "ray.npu_absent", None).is_none());
    }

    #[test]
    fn unrelated_text_scores_zero() {
        assert_eq!(super::score(&segment("hello\nworld\n")[0]), 0);
        assert!(facts("$ ray status\nConnectionError: Could not find any running Ray instance.\n").is_empty());
    }

    proptest! {
        #[test]
        fn never_panics_on_status_like_lines(lines in proptest::collection::vec(
            prop_oneof![
                Just("Active:".to_string()), Just("Healthy:".to_string()), Just("Pending:".to_string()),
                Just("Total Usage:".to_string()), Just("Node: x".to_string()), Just("Total:".to_string()),
                Just(" 99999999999999999999999 node_a".to_string()), Just(" 1e999/1e999 NPU".to_string()),
                Just(" 99999999999999999999999999999999999999.0/9.0GiB memory".to_string()),
                Just(" 9999999999999999999999 launching".to_string()), "\\PC{0,40}",
            ], 0..30)) {
            let _ = facts(&lines.join("\n"));
        }
    }
}
