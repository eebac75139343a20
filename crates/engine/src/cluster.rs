//! The cluster at a glance: a table of nodes × checks, each cell the node's
//! value with ✔ (seen, and no finding points at it), ✘ (a finding rests
//! on it) or – (the input does not show it), and the line behind it.
//!
//! The columns are families of facts; the status comes from the findings,
//! so the table never judges anything the rules did not. Nodes that should
//! be there and are not (the collector's `missing:` lines) are listed too.

use crate::facts::{Fact, NodeId};
use crate::report::{Cell, Check, ClusterStatus as Status, ClusterSummary as Summary, EvidenceLine, Finding};
use crate::rules::Severity;
use crate::text::Text;
use std::collections::BTreeSet;

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

/// Builds the table, when the input names nodes. `facts` are all facts
/// the findings were evaluated on; `evidence` turns a fact into its line.
pub fn summary(
    nodes: &[String],
    facts: &[Fact],
    findings: &[Finding],
    evidence: impl Fn(&Fact) -> EvidenceLine,
) -> Option<Summary> {
    if nodes.is_empty() {
        return None;
    }
    // A fact a finding at error or warn level rests on, with the findings.
    let flagged = |f: &Fact| -> Vec<String> {
        findings
            .iter()
            .filter(|x| matches!(x.severity, Severity::Error | Severity::Warn) && !x.from_symptom)
            .filter(|x| {
                x.facts.iter().any(|y| {
                    y.name == f.name && y.subject == f.subject && y.node == f.node && y.line_ref() == f.line_ref()
                })
            })
            .map(|x| x.id.clone())
            .collect()
    };
    let mut checks = Vec::new();
    let mut columns: Vec<Vec<Cell>> = Vec::new();
    for col in COLUMNS {
        let of = |n: NodeId| -> Vec<&Fact> {
            facts
                .iter()
                .filter(|f| f.name == col.fact && f.node == Some(n))
                .filter(|f| col.subject.is_none_or(|s| f.subject.as_deref() == Some(s)))
                .collect()
        };
        let cells: Vec<Cell> = (0..nodes.len() as NodeId)
            .map(|n| {
                let fs = of(n);
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
                    value: (col.show)(&fs),
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
    let missing = facts
        .iter()
        .filter(|f| f.name == "cluster.missing_node")
        .filter_map(|f| f.subject.clone().filter(|s| s != "?"))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
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
}
