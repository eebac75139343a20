//! The cluster at a glance: a table of nodes × checks, each cell the node's
//! value with ✔ (seen, and no finding points at it), ✘ (a finding rests
//! on it) or – (the input does not show it), and the line behind it.
//!
//! The columns are families of facts; the status comes from the findings,
//! so the table never judges anything the rules did not. Nodes that should
//! be there and are not (the collector's `missing:` lines) are listed too.

use crate::facts::{Fact, NodeId};
use crate::report::{Cell, Check, ClusterStatus as Status, ClusterSummary as Summary, EvidenceLine};
use crate::text::Text;
use std::collections::{BTreeSet, HashMap};

/// One column: a family of facts.
struct Column {
    id: &'static str,
    title: (&'static str, &'static str),
    fact: &'static str,
    subject: Option<&'static str>,
    /// How a node's facts read in a cell.
    show: fn(&[&Fact]) -> String,
}

fn first(fs: &[&Fact]) -> String {
    fs.first().map(|f| f.value.to_text()).unwrap_or_default()
}

/// `8/8 UP`, or the cards that are not: `5: DOWN`.
fn all_ok(fs: &[&Fact], ok: &str) -> String {
    let bad: Vec<String> = fs
        .iter()
        .filter(|f| f.value.to_text() != ok)
        .map(|f| format!("{}: {}", f.subject.as_deref().unwrap_or("?"), f.value.to_text()))
        .collect();
    if bad.is_empty() {
        format!("{}/{} {ok}", fs.len(), fs.len())
    } else {
        bad.join(", ")
    }
}

fn distinct(fs: &[&Fact]) -> String {
    let values: BTreeSet<String> = fs.iter().map(|f| f.value.to_text()).collect();
    values.into_iter().collect::<Vec<_>>().join(" / ")
}

const COLUMNS: &[Column] = &[
    Column { id: "npus", title: ("NPUs", "NPU 数"), fact: "npu.count", subject: None, show: first },
    Column {
        id: "health",
        title: ("NPU health", "NPU 健康"),
        fact: "npu.health",
        subject: None,
        show: |f| all_ok(f, "OK"),
    },
    Column {
        id: "links",
        title: ("NPU links", "NPU 链路"),
        fact: "hccn.link_status",
        subject: None,
        show: |f| all_ok(f, "UP"),
    },
    Column { id: "tls", title: ("TLS switch", "TLS 开关"), fact: "hccn.tls_switch", subject: None, show: distinct },
    Column { id: "ulimit", title: ("ulimit -n", "ulimit -n"), fact: "ulimit.nofile", subject: None, show: first },
    Column { id: "cann", title: ("CANN", "CANN"), fact: "stack.cann_version", subject: None, show: first },
    Column { id: "driver", title: ("Driver", "驱动"), fact: "stack.driver_version", subject: None, show: first },
    // npu-smi's banner names the driver apart from driver/version.info (it may stop before the
    // patch level), as the rule compares it: a column of its own.
    Column {
        id: "smi-driver",
        title: ("Driver (npu-smi)", "驱动（npu-smi）"),
        fact: "npu.driver_version",
        subject: None,
        show: first,
    },
    Column {
        id: "torch-npu",
        title: ("torch-npu", "torch-npu"),
        fact: "pip.package",
        subject: Some("torch-npu"),
        show: first,
    },
    Column {
        id: "vllm-ascend",
        title: ("vllm-ascend", "vllm-ascend"),
        fact: "pip.package",
        subject: Some("vllm-ascend"),
        show: first,
    },
    Column { id: "ray", title: ("ray", "ray"), fact: "pip.package", subject: Some("ray"), show: first },
];

/// A cell's value at most this long (a node with ten thousand DOWN cards
/// says so in a few words).
const MAX_VALUE: usize = 200;

/// Missing nodes named at most; past it the list ends with `+N`, the count
/// of the rest (a bundle can name any number of hosts that never joined).
pub const MAX_MISSING: usize = 256;

fn clip_value(v: String) -> String {
    if v.len() <= MAX_VALUE {
        return v;
    }
    let mut end = MAX_VALUE;
    while !v.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… (+{} bytes)", &v[..end], v.len() - end)
}

/// Builds the table, when the input names nodes. `facts` are all facts
/// the findings were evaluated on; `flags` pairs the index of a fact that a
/// finding at error or warn level rests on with that finding's id;
/// `evidence` turns a fact into its line.
pub fn summary(
    nodes: &[String],
    facts: &[Fact],
    flags: &[(usize, &str)],
    evidence: impl Fn(&Fact) -> EvidenceLine,
) -> Option<Summary> {
    if nodes.is_empty() {
        return None;
    }
    // The findings at error or warn level that rest on each fact, keyed
    // by what identifies the fact: one pass over the findings' facts, so a
    // cell looks its facts up instead of searching every finding.
    type Key = (&'static str, Option<String>, Option<NodeId>, Option<crate::facts::LineRef>);
    fn key(f: &Fact) -> Key {
        (f.name, f.subject.clone(), f.node, f.line_ref())
    }
    let mut flagged_by: HashMap<Key, Vec<&str>> = HashMap::new();
    for &(i, id) in flags {
        let Some(y) = facts.get(i) else { continue };
        let ids = flagged_by.entry(key(y)).or_default();
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let flagged = |f: &Fact| -> Vec<String> {
        flagged_by.get(&key(f)).map(|ids| ids.iter().map(|s| s.to_string()).collect()).unwrap_or_default()
    };
    // Each column's facts by node, in one pass over the facts.
    let mut by_col: Vec<HashMap<NodeId, Vec<&Fact>>> = vec![HashMap::new(); COLUMNS.len()];
    for f in facts {
        let Some(n) = f.node else { continue };
        for (i, col) in COLUMNS.iter().enumerate() {
            if f.name == col.fact && col.subject.is_none_or(|s| f.subject.as_deref() == Some(s)) {
                by_col[i].entry(n).or_default().push(f);
            }
        }
    }
    let mut checks = Vec::new();
    let mut columns: Vec<Vec<Cell>> = Vec::new();
    for (col, of) in COLUMNS.iter().zip(&by_col) {
        let cells: Vec<Cell> = (0..nodes.len() as NodeId)
            .map(|n| {
                let fs: &[&Fact] = of.get(&n).map(Vec::as_slice).unwrap_or(&[]);
                if fs.is_empty() {
                    return Cell {
                        status: Status::Unknown,
                        value: String::new(),
                        evidence: None,
                        findings: Vec::new(),
                    };
                }
                let mut ids: Vec<String> = fs.iter().flat_map(|f| flagged(f)).collect();
                ids.sort();
                ids.dedup();
                let shown = fs.iter().find(|f| !flagged(f).is_empty()).or(fs.first()).copied();
                Cell {
                    status: if ids.is_empty() { Status::Ok } else { Status::Fail },
                    value: clip_value((col.show)(fs)),
                    evidence: shown.map(&evidence),
                    findings: ids,
                }
            })
            .collect();
        if cells.iter().any(|c| c.status != Status::Unknown) {
            checks.push(Check { id: col.id.to_string(), title: Text::new(col.title.0, col.title.1) });
            columns.push(cells);
        }
    }
    let rows =
        nodes.iter().enumerate().map(|(i, n)| (n.clone(), columns.iter().map(|c| c[i].clone()).collect())).collect();
    let all: BTreeSet<String> = facts
        .iter()
        .filter(|f| f.name == "cluster.missing_node")
        .filter_map(|f| f.subject.clone().filter(|s| s != "?"))
        .collect();
    let mut missing: Vec<String> = all.iter().take(MAX_MISSING).cloned().collect();
    if all.len() > MAX_MISSING {
        missing.push(format!("+{}", all.len() - MAX_MISSING));
    }
    Some(Summary { checks, rows, missing })
}

#[cfg(test)]
mod tests {
    #[test]
    fn column_titles_are_bilingual() {
        for c in super::COLUMNS {
            assert!(!c.title.0.is_empty() && !c.title.1.is_empty(), "{}", c.id);
        }
    }

    #[test]
    fn the_three_node_bundle_reads_at_a_glance() {
        let text = include_str!("../tests/fixtures/node-stack-version-differs--three-node-bundle.txt");
        let r = crate::diagnose(text);
        let s = r.cluster.expect("a bundle has a summary");
        let col = |id: &str| s.checks.iter().position(|c| c.id == id).unwrap();
        let row = |n: &str| &s.rows.iter().find(|(name, _)| name == n).unwrap().1;
        let links = &row("ascend-node-3")[col("links")];
        assert_eq!((links.status, links.value.as_str()), (crate::report::ClusterStatus::Fail, "5: DOWN"));
        assert_eq!(links.evidence.as_ref().unwrap().text, "link status: DOWN");
        assert_eq!(row("ascend-node-1")[col("links")].status, crate::report::ClusterStatus::Ok);
        assert_eq!(row("ascend-node-2")[col("torch-npu")].status, crate::report::ClusterStatus::Fail);
        assert_eq!(row("ascend-node-2")[col("torch-npu")].value, "2.5.1.post1");
        assert_eq!(row("ascend-node-1")[col("torch-npu")].status, crate::report::ClusterStatus::Ok);
        assert_eq!(row("ascend-node-3")[col("tls")].status, crate::report::ClusterStatus::Fail);
        assert_eq!(s.missing, vec!["ascend-node-4".to_string()]);
    }

    #[test]
    fn a_bundle_naming_thousands_of_missing_hosts_lists_a_bounded_few() {
        let text = include_str!("../tests/fixtures/node-stack-version-differs--three-node-bundle.txt");
        let many: String = (0..3000).map(|i| format!("missing: ghost-{i:04}\n")).collect();
        let text = text.replacen("missing: ascend-node-4\n", &many, 1);
        assert!(text.contains("ghost-2999"));
        let s = crate::diagnose(&text).cluster.expect("a bundle has a summary");
        assert_eq!(s.missing.len(), super::MAX_MISSING + 1);
        assert_eq!(s.missing.last().map(String::as_str), Some(&*format!("+{}", 3000 - super::MAX_MISSING)));
        assert_eq!(s.missing[0], "ghost-0000");
    }
}
