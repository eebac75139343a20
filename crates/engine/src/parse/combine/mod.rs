//! Combiners: they merge and normalise facts that need several segments or
//! inputs, and judge nothing — rules do. Each reads the parsers' facts and
//! returns new ones, citing the line of the fact they rest on, and joins
//! facts of one node only (a cluster-wide fact, with no node, joins any).
//!
//! - [`config`]: the config against the cluster: how many nodes its device
//!   ids need per node size, the largest NPU total `ray status` shows.
//! - [`device`]: normalised versions and chip families (`pip.release`,
//!   `soc.family`) that rules compare.
//! - [`network`]: what `HCCL_SOCKET_IFNAME` selects.

use crate::facts::{Fact, FactDef};

pub mod config;
pub mod device;
pub mod network;

/// Every combiner's facts.
pub const FACTS: &[&[FactDef]] = &[config::FACTS, device::FACTS, network::FACTS];

/// The declaration named `name` in `defs` (a combiner's own list).
pub(crate) fn def(defs: &'static [FactDef], name: &str) -> &'static FactDef {
    defs.iter().find(|d| d.name == name).expect("a combiner emits only facts it declares")
}

/// Runs every combiner over `facts` and appends what they derive.
pub fn run(facts: &mut Vec<Fact>) {
    let mut new = Vec::new();
    new.extend(config::combine(facts));
    new.extend(device::combine(facts));
    new.extend(network::combine(facts));
    facts.extend(new);
}

/// Test helper: a fact read from line `line` of segment `segment`.
#[cfg(test)]
pub(crate) fn fact(
    name: &'static str,
    subject: Option<&str>,
    value: crate::facts::FactValue,
    line: u32,
    segment: u32,
) -> Fact {
    Fact {
        name,
        subject: subject.map(String::from),
        value,
        node: None,
        origin: crate::facts::Origin::Line {
            at: crate::facts::LineRef { input: 0, line },
            segment,
            text: format!("line {line}").into(),
        },
    }
}
