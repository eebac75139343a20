//! Combiners: facts that need several segments or inputs (config × npu-smi,
//! config × env, hccn_tool × hccn_tool, docker run × npu-smi, ss × Ray
//! ports). Each reads the facts the parsers produced and returns new ones,
//! citing the line of the fact they rest on.

use crate::facts::{registered, Fact, FactValue};

pub mod config;
pub mod device;
pub mod network;

/// Facts the combiners produce.
pub const FACTS: &[(&str, &str)] = &[];

/// Every combiner's facts, chained (kept separate so each combiner file
/// owns its own list).
pub const COMBINER_FACT_LISTS: &[&[(&str, &str)]] = &[config::FACTS, device::FACTS, network::FACTS];

/// A fact derived from `from`: same line, text and segment.
pub fn derived(name: &str, subject: Option<String>, value: FactValue, from: &Fact) -> Option<Fact> {
    debug_assert!(registered(name).is_some(), "unregistered fact name {name}");
    Some(Fact {
        name: registered(name)?,
        subject,
        value,
        line: from.line,
        text: from.text.clone(),
        segment: from.segment,
    })
}

/// Runs every combiner over `facts` and appends what they derive.
pub fn run(facts: &mut Vec<Fact>) {
    let mut new = Vec::new();
    new.extend(config::combine(facts));
    new.extend(device::combine(facts));
    new.extend(network::combine(facts));
    facts.extend(new);
}
