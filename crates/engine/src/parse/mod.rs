//! Stage 3: parsers turn structured segments into [`Fact`]s, and combiners
//! derive facts that need several segments (config × npu-smi, hccn_tool ×
//! hccn_tool, …).
//!
//! One module per input kind, each with the same three items: `FACTS` (the
//! names it produces, see [`crate::facts::registry`]), `score` (how much a
//! segment with no command looks like its input, for [`crate::detect`]) and
//! `parse`. Parsers never fail and never panic: input they do not understand
//! yields no facts, or a fact saying why (such as `config.yaml_error`).

use crate::detect::InputKind;
use crate::facts::{registered, Fact, FactValue};
use crate::segment::{Line, Segment};

pub mod combine;
pub mod docker_run;
pub mod env;
pub mod hccn_tool;
pub mod ip_route;
pub mod npu_smi;
pub mod pip_list;
pub mod ray_status;
pub mod roll_config;
pub mod ss;
pub mod traceback;
pub mod ulimit;

/// Every module's `FACTS`, chained by [`crate::facts::registry`].
pub const FACT_LISTS: &[&[(&str, &str)]] = &[
    roll_config::FACTS,
    ulimit::FACTS,
    npu_smi::FACTS,
    hccn_tool::FACTS,
    ss::FACTS,
    ip_route::FACTS,
    env::FACTS,
    pip_list::FACTS,
    ray_status::FACTS,
    docker_run::FACTS,
    traceback::FACTS,
    combine::FACTS,
];

/// Collects facts for one segment, remembering where each came from.
pub struct FactSink<'a> {
    facts: &'a mut Vec<Fact>,
    segment: usize,
}

impl<'a> FactSink<'a> {
    /// A sink that tags facts with `segment`.
    pub fn new(facts: &'a mut Vec<Fact>, segment: usize) -> Self {
        FactSink { facts, segment }
    }

    /// Records a fact read from `line`. Unregistered names are a programming
    /// error caught by tests; in release they are dropped, never a panic.
    pub fn push(&mut self, name: &str, subject: Option<String>, value: FactValue, line: &Line) {
        debug_assert!(registered(name).is_some(), "unregistered fact name {name}");
        if let Some(name) = registered(name) {
            self.facts.push(Fact {
                name,
                subject,
                value,
                line: line.no,
                text: line.text.clone(),
                segment: self.segment,
            });
        }
    }
}

/// Test helper: the facts `parse` yields for each segment of `text`.
#[cfg(test)]
pub(crate) fn facts_of(text: &str, parse: fn(&Segment, &mut FactSink<'_>)) -> Vec<Fact> {
    let mut out = Vec::new();
    for (i, seg) in crate::segment::segment(text).iter().enumerate() {
        parse(seg, &mut FactSink::new(&mut out, i));
    }
    out
}

/// Content scores of every structured kind, for segments with no command.
pub fn content_scores(seg: &Segment) -> [(InputKind, u8); 8] {
    [
        (InputKind::NpuSmi, npu_smi::score(seg)),
        (InputKind::HccnTool, hccn_tool::score(seg)),
        (InputKind::Ss, ss::score(seg)),
        (InputKind::IpRoute, ip_route::score(seg)),
        (InputKind::Env, env::score(seg)),
        (InputKind::PipList, pip_list::score(seg)),
        (InputKind::RayStatus, ray_status::score(seg)),
        (InputKind::DockerRun, docker_run::score(seg)),
    ]
}

/// Runs the parser for `kind` over `seg`.
pub fn parse_segment(kind: InputKind, seg: &Segment, sink: &mut FactSink<'_>) {
    match kind {
        InputKind::RollConfig => roll_config::parse(seg, sink),
        InputKind::Ulimit => ulimit::parse(seg, sink),
        InputKind::NpuSmi => npu_smi::parse(seg, sink),
        InputKind::HccnTool => hccn_tool::parse(seg, sink),
        InputKind::Ss => ss::parse(seg, sink),
        InputKind::IpRoute => ip_route::parse(seg, sink),
        InputKind::Env => env::parse(seg, sink),
        InputKind::PipList => pip_list::parse(seg, sink),
        InputKind::RayStatus => ray_status::parse(seg, sink),
        InputKind::DockerRun => docker_run::parse(seg, sink),
        InputKind::Log | InputKind::Unrecognised => traceback::parse(seg, sink),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every parser, given any text as its kind (as a user override can
        /// force), and every content scorer never panic.
        #[test]
        fn every_parser_and_scorer_never_panics(text in "\\PC{0,400}") {
            for seg in crate::segment::segment(&text) {
                let _ = content_scores(&seg);
                for kind in InputKind::ALL {
                    let mut facts = Vec::new();
                    parse_segment(kind, &seg, &mut FactSink::new(&mut facts, 0));
                }
            }
        }
    }
}
