//! The kinds of input the engine understands. What each kind means for the
//! pipeline (its scorer, parser, facts, whether its lines are scanned for
//! signatures) is declared once, in [`super::PARSERS`].

use serde::{Deserialize, Serialize};

/// The kinds of input the engine understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputKind {
    /// A training, plog, Ray or vLLM log: scanned for signatures.
    Log,
    /// A ROLL YAML config.
    RollConfig,
    /// `npu-smi info` and its `-t` queries.
    NpuSmi,
    /// `hccn_tool` output.
    HccnTool,
    /// `ss -tlnp` output.
    Ss,
    /// `ip route get` output.
    IpRoute,
    /// `ulimit -n` / `ulimit -a` output.
    Ulimit,
    /// `env`, `export` or `echo "VAR=$VAR"` output.
    Env,
    /// `pip list` / `pip show` output.
    PipList,
    /// `ray status` output.
    RayStatus,
    /// A `docker run …` command line.
    DockerRun,
    /// The Ascend driver's, firmware's or CANN's version file.
    AscendVersion,
    /// `hostname`, `hostname -I`, `ip addr`: which machine a node is.
    NodeInfo,
    /// The collector's `expected nodes` section.
    ExpectedNodes,
    /// Nothing we recognise with confidence.
    Unrecognised,
}

impl InputKind {
    /// Every kind, for listings and overrides.
    pub const ALL: [InputKind; 15] = [
        InputKind::Log,
        InputKind::RollConfig,
        InputKind::NpuSmi,
        InputKind::HccnTool,
        InputKind::Ss,
        InputKind::IpRoute,
        InputKind::Ulimit,
        InputKind::Env,
        InputKind::PipList,
        InputKind::RayStatus,
        InputKind::DockerRun,
        InputKind::AscendVersion,
        InputKind::NodeInfo,
        InputKind::ExpectedNodes,
        InputKind::Unrecognised,
    ];
}
