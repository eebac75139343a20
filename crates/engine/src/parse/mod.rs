//! Stage 3: parsers turn structured segments into [`Fact`]s, and combiners
//! derive facts that need several segments (config × npu-smi, hccn_tool ×
//! hccn_tool, …).
//!
//! Everything the pipeline knows about an input kind is declared once, in
//! [`PARSERS`]: the command that names it, the content scorer that
//! recognises it without a command, the parser, the facts it produces (name,
//! type, subject meaning), whether its lines are scanned for log signatures
//! and whether it describes one node or the whole cluster. Detection
//! ([`crate::detect`]), the fact registry ([`fact_def`]) and the kind codes
//! are derived from this table, so adding an input kind is one entry here
//! plus its module.
//!
//! Parsers never fail and never panic: input they do not understand yields
//! no facts, or a fact saying why (such as `config.yaml_error`).

use crate::facts::{Fact, FactDef, FactValue, LineRef, NodeId, Origin, ValueType};
use crate::segment::{Line, Segment};
use std::sync::Arc;

pub mod ascend_version;
pub mod collector;
pub mod combine;
pub mod docker_run;
pub mod env;
pub mod hccn_tool;
pub mod ip_route;
mod kind;
pub mod node_info;
pub mod npu_smi;
pub mod oom;
pub mod pip_list;
pub mod ray_status;
pub mod roll_config;
pub mod ss;
pub mod traceback;
pub mod ulimit;

pub use kind::InputKind;

/// One input kind's entry in the parser table.
#[derive(Debug)]
pub struct Parser {
    /// The kind.
    pub kind: InputKind,
    /// Its code, as `--kind`, the JSON report and saved sessions spell it.
    pub code: &'static str,
    /// How strongly the command that printed a segment names this kind (0–100).
    pub command: fn(&str) -> u8,
    /// How much a segment looks like this kind when no command named it (0–100).
    pub score: fn(&Segment) -> u8,
    /// Reads a segment of this kind into facts.
    pub parse: fn(&Segment, &mut FactSink<'_>),
    /// The facts `parse` produces.
    pub facts: &'static [FactDef],
    /// Whether log signatures are matched on its lines. A config, an env
    /// dump or a package list may *mention* an error string without
    /// anything having failed, so they are not scanned.
    pub scanned: bool,
    /// True when the input describes the whole cluster (a ROLL config, `ray
    /// status`), not the node it was pasted from.
    pub cluster_wide: bool,
}

fn no_command(_: &str) -> u8 {
    0
}

fn no_score(_: &Segment) -> u8 {
    0
}

/// The parser table. Order matters only for ties: the first kind wins.
pub const PARSERS: &[Parser] = &[
    Parser {
        kind: InputKind::HccnTool,
        code: "hccn-tool",
        command: hccn_tool::command,
        score: hccn_tool::score,
        parse: hccn_tool::parse,
        facts: hccn_tool::FACTS,
        scanned: true,
        cluster_wide: false,
    },
    Parser {
        kind: InputKind::NpuSmi,
        code: "npu-smi",
        command: npu_smi::command,
        score: npu_smi::score,
        parse: npu_smi::parse,
        facts: npu_smi::FACTS,
        scanned: true,
        cluster_wide: false,
    },
    Parser {
        kind: InputKind::RollConfig,
        code: "roll-config",
        command: roll_config::command,
        score: roll_config::score,
        parse: roll_config::parse,
        facts: roll_config::FACTS,
        scanned: false,
        cluster_wide: true,
    },
    Parser {
        kind: InputKind::Ulimit,
        code: "ulimit",
        command: ulimit::command,
        score: ulimit::score,
        parse: ulimit::parse,
        facts: ulimit::FACTS,
        scanned: true,
        cluster_wide: false,
    },
    Parser {
        kind: InputKind::Ss,
        code: "ss",
        command: ss::command,
        score: ss::score,
        parse: ss::parse,
        facts: ss::FACTS,
        scanned: true,
        cluster_wide: false,
    },
    Parser {
        kind: InputKind::IpRoute,
        code: "ip-route",
        command: ip_route::command,
        score: ip_route::score,
        parse: ip_route::parse,
        facts: ip_route::FACTS,
        scanned: true,
        cluster_wide: false,
    },
    Parser {
        kind: InputKind::Env,
        code: "env",
        command: env::command,
        score: env::score,
        parse: env::parse,
        facts: env::FACTS,
        scanned: false,
        cluster_wide: false,
    },
    Parser {
        kind: InputKind::PipList,
        code: "pip-list",
        command: pip_list::command,
        score: pip_list::score,
        parse: pip_list::parse,
        facts: pip_list::FACTS,
        scanned: false,
        cluster_wide: false,
    },
    Parser {
        kind: InputKind::RayStatus,
        code: "ray-status",
        command: ray_status::command,
        score: ray_status::score,
        parse: ray_status::parse,
        facts: ray_status::FACTS,
        scanned: true,
        cluster_wide: true,
    },
    Parser {
        kind: InputKind::DockerRun,
        code: "docker-run",
        command: docker_run::command,
        score: docker_run::score,
        parse: docker_run::parse,
        facts: docker_run::FACTS,
        scanned: false,
        cluster_wide: false,
    },
    Parser {
        kind: InputKind::AscendVersion,
        code: "ascend-version",
        command: ascend_version::command,
        score: ascend_version::score,
        parse: ascend_version::parse,
        facts: ascend_version::FACTS,
        scanned: false,
        cluster_wide: false,
    },
    Parser {
        kind: InputKind::NodeInfo,
        code: "node-info",
        command: node_info::command,
        score: node_info::score,
        parse: node_info::parse,
        facts: node_info::FACTS,
        scanned: false,
        cluster_wide: false,
    },
    Parser {
        kind: InputKind::ExpectedNodes,
        code: "expected-nodes",
        command: collector::command,
        score: collector::score,
        parse: collector::parse,
        facts: collector::FACTS,
        scanned: false,
        cluster_wide: true,
    },
    Parser {
        kind: InputKind::Log,
        code: "log",
        command: traceback::command,
        score: traceback::score,
        parse: traceback::parse,
        facts: traceback::FACTS,
        scanned: true,
        cluster_wide: false,
    },
    // Not recognised: still scanned, and tracebacks in it still read.
    Parser {
        kind: InputKind::Unrecognised,
        code: "unrecognised",
        command: no_command,
        score: no_score,
        parse: traceback::parse,
        facts: traceback::FACTS,
        scanned: true,
        cluster_wide: false,
    },
];

/// The table entry of `kind`.
pub fn parser(kind: InputKind) -> &'static Parser {
    PARSERS.iter().find(|p| p.kind == kind).unwrap_or(&PARSERS[PARSERS.len() - 1])
}

impl InputKind {
    /// Whether log signatures are matched on this kind's lines.
    pub fn scanned_for_signatures(self) -> bool {
        parser(self).scanned
    }

    /// The kind's code (`npu-smi`, `roll-config`, …).
    pub fn code(self) -> &'static str {
        parser(self).code
    }

    /// The kind with this code.
    pub fn from_code(code: &str) -> Option<InputKind> {
        PARSERS.iter().find(|p| p.code == code).map(|p| p.kind)
    }
}

/// Facts only a clicked answer produces: what a user can tell from their
/// screen when no parser output shows it ("some card's TLS switch
/// differs"). Rules accept them beside the facts the parsers give.
pub const ANSWER_FACTS: &[FactDef] = &[
    FactDef::new(
        "answer.cluster_too_small",
        ValueType::Bool,
        None,
        "the user says `ray status` shows fewer NPUs than the config's device ids need",
    ),
    FactDef::new("answer.ip_duplicate", ValueType::Bool, None, "the user says two cards print the same device IP"),
    FactDef::new(
        "answer.tls_inconsistent",
        ValueType::Bool,
        None,
        "the user says the TLS switch differs between cards or nodes",
    ),
    FactDef::new(
        "answer.stack_mismatch",
        ValueType::Bool,
        Some("package"),
        "the user says this package's version does not match its partner (torch-npu vs torch, vllm-ascend vs vllm)",
    ),
    FactDef::new(
        "answer.image_platform_mismatch",
        ValueType::Bool,
        None,
        "the user says the image is built for another node type",
    ),
    FactDef::new(
        "answer.soc_mismatch",
        ValueType::Bool,
        None,
        "the user says SOC_VERSION names another chip family than the node has",
    ),
    FactDef::new(
        "answer.ray_npu_absent",
        ValueType::Bool,
        None,
        "the user says `ray status` has no NPU line (asked in an NPU job's checks, so no other evidence that the host is an Ascend one is needed)",
    ),
    FactDef::new(
        "answer.hbm_held_by_other",
        ValueType::Bool,
        None,
        "the user says another process or container (an earlier run's, not the job being debugged) holds NPU memory",
    ),
    FactDef::new(
        "answer.nodes_missing",
        ValueType::Bool,
        None,
        "the user says `ray status` shows fewer nodes than the job needs",
    ),
    FactDef::new(
        "answer.config_problem",
        ValueType::Bool,
        Some("check"),
        "the user says a config check fails; subject = the check: tp (device count vs TP × PP), gaps (device ids not contiguous), batch-lt-dp, batch-steps (not whole optimizer steps), steps-zero, strategy",
    ),
    FactDef::new(
        "answer.port_range_unset",
        ValueType::Bool,
        None,
        "the user says HCCL_NPU_SOCKET_PORT_RANGE is empty in the shell that launches colocated roles",
    ),
];

/// Every declaration: each parser's, each combiner's and the answers'.
fn declarations() -> impl Iterator<Item = &'static FactDef> {
    let parsers = PARSERS
        .iter()
        .enumerate()
        // A list shared by two kinds (logs and unrecognised text) counts once.
        .filter(|(i, p)| !PARSERS[..*i].iter().any(|q| q.facts == p.facts))
        .flat_map(|(_, p)| p.facts.iter());
    parsers.chain(combine::FACTS.iter().flat_map(|l| l.iter())).chain(crate::cann::FACTS).chain(ANSWER_FACTS.iter())
}

/// Every declared fact, once each. A fact two parsers read (`env.var`: the
/// env parser's, and a log's `export` lines) is declared by both, the same
/// way (a test checks it).
pub fn fact_defs() -> impl Iterator<Item = &'static FactDef> {
    let mut seen: Vec<&str> = Vec::new();
    declarations().filter(move |d| {
        let first = !seen.contains(&d.name);
        seen.push(d.name);
        first
    })
}

/// The declaration of a fact name (the first: repeated ones are identical).
/// Rule loading and diagnosis look names up here, so it skips the
/// de-duplication of [`fact_defs`].
pub fn fact_def(name: &str) -> Option<&'static FactDef> {
    declarations().find(|d| d.name == name)
}

/// The first word of a command, after `sudo`.
pub fn first_word(cmd: &str) -> &str {
    let cmd = cmd.trim_start_matches("sudo ").trim();
    cmd.split_whitespace().next().unwrap_or("")
}

/// Where the facts a parser reads from one segment go.
pub struct FactSink<'a> {
    facts: &'a mut Vec<Fact>,
    /// The declarations the parser may use; `None` (tests) accepts any declared fact.
    defs: Option<&'static [FactDef]>,
    input: u32,
    segment: u32,
    node: Option<NodeId>,
    /// The line the last fact was read from, and its text, which the next
    /// facts of the same line share.
    last: Option<(u32, Arc<str>)>,
    /// Texts shared with the facts of other segments, when the caller keeps them.
    texts: Option<&'a mut LineTexts>,
}

/// The line texts facts carry, shared between identical lines: a paste of
/// 100,000 identical `version.info` files keeps three texts, not 100,000
/// (each was 40 bytes beside a 112-byte file). Bounded: past
/// [`LineTexts::MAX`] distinct texts it starts over, so a paste of distinct
/// lines costs no more than without it.
#[derive(Default)]
pub struct LineTexts {
    known: std::collections::HashSet<Arc<str>>,
}

impl LineTexts {
    /// Distinct texts kept at most.
    pub const MAX: usize = 4096;

    /// The shared copy of `text`.
    pub fn get(&mut self, text: &str) -> Arc<str> {
        if let Some(known) = self.known.get(text) {
            return known.clone();
        }
        if self.known.len() >= Self::MAX {
            self.known.clear();
        }
        let shared: Arc<str> = text.into();
        self.known.insert(shared.clone());
        shared
    }
}

impl<'a> FactSink<'a> {
    /// A sink for `parser`'s facts from segment `segment` of input `input`, about `node`.
    pub fn new(
        facts: &'a mut Vec<Fact>,
        parser: &Parser,
        input: u32,
        segment: u32,
        node: Option<NodeId>,
    ) -> FactSink<'a> {
        FactSink { facts, defs: Some(parser.facts), input, segment, node, last: None, texts: None }
    }

    /// The same sink, sharing line texts through `texts` with the facts of
    /// other segments.
    pub fn sharing(self, texts: &'a mut LineTexts) -> FactSink<'a> {
        FactSink { texts: Some(texts), ..self }
    }

    /// A sink that accepts every declared fact (unit tests of one parser).
    pub fn any(facts: &'a mut Vec<Fact>) -> FactSink<'a> {
        FactSink { facts, defs: None, input: 0, segment: 0, node: None, last: None, texts: None }
    }

    /// Records a fact read from `line`. A name the parser did not declare,
    /// or a value of another type than declared, is a programming error the
    /// tests catch; in release it is dropped, never a panic.
    pub fn push(&mut self, name: &str, subject: Option<String>, value: FactValue, line: &Line) {
        let def = match self.defs {
            Some(defs) => defs.iter().find(|d| d.name == name),
            None => fact_def(name),
        };
        debug_assert!(def.is_some(), "fact {name} is not declared by this parser");
        let Some(def) = def else { return };
        debug_assert_eq!(def.ty, value.ty(), "fact {name} is declared {:?}", def.ty);
        if def.ty != value.ty() {
            return;
        }
        let text = match &self.last {
            Some((no, text)) if *no == line.no => text.clone(),
            _ => {
                // As evidence shows it: a fact of a 50 MB line does not copy it.
                let clipped = crate::segment::clip(&line.text);
                let text = match self.texts.as_deref_mut() {
                    Some(texts) => texts.get(&clipped),
                    None => clipped.into(),
                };
                self.last = Some((line.no, text.clone()));
                text
            }
        };
        self.facts.push(Fact {
            name: def.name,
            subject,
            value,
            node: self.node,
            origin: Origin::Line { at: LineRef { input: self.input, line: line.no }, segment: self.segment, text },
        });
    }
}

/// Test helper: the facts `parse` yields for each segment of `text`.
#[cfg(test)]
pub(crate) fn facts_of(text: &str, parse: fn(&Segment, &mut FactSink<'_>)) -> Vec<Fact> {
    let mut out = Vec::new();
    for seg in crate::segment::segment(text).iter() {
        parse(seg, &mut FactSink::any(&mut out));
    }
    out
}

/// Runs the parser for `kind` over `seg`.
pub fn parse_segment(kind: InputKind, seg: &Segment, sink: &mut FactSink<'_>) {
    (parser(kind).parse)(seg, sink)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn table_covers_every_kind_once_with_its_serde_code() {
        for k in InputKind::ALL {
            assert_eq!(PARSERS.iter().filter(|p| p.kind == k).count(), 1, "{k:?}");
            let code = serde_json::to_value(k).unwrap();
            assert_eq!(code.as_str(), Some(k.code()));
            assert_eq!(InputKind::from_code(k.code()), Some(k));
        }
    }

    #[test]
    fn fact_names_are_declared_once() {
        let mut seen = std::collections::HashSet::new();
        for d in fact_defs() {
            assert!(seen.insert(d.name), "{} declared twice", d.name);
            // Declared by two parsers: the same way, to the letter.
            for other in declarations().filter(|o| o.name == d.name) {
                assert!(
                    other.ty == d.ty && other.subject == d.subject && other.doc == d.doc,
                    "{} declared two ways",
                    d.name
                );
            }
            assert!(d.name.contains('.'), "{}: names are <area>.<what>", d.name);
            assert!(!d.doc.is_empty(), "{}: needs a doc line", d.name);
        }
    }

    proptest! {
        /// Every parser, given any text as its kind (as a user override can
        /// force), and every scorer never panic.
        #[test]
        fn every_parser_and_scorer_never_panics(text in "\\PC{0,400}") {
            for seg in crate::segment::segment(&text) {
                for p in PARSERS {
                    let _ = (p.score)(&seg);
                    let _ = (p.command)(&text);
                    let mut facts = Vec::new();
                    (p.parse)(&seg, &mut FactSink::new(&mut facts, p, 0, 0, None));
                }
            }
        }
    }
}
