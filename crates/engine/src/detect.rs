//! Stage 2: decide what kind of input each segment is.
//!
//! Each detector scores a segment from 0 to 100; the best score wins when it
//! reaches [`THRESHOLD`], otherwise the segment is [`InputKind::Unrecognised`]
//! (an honest answer: its lines are still scanned for log signatures). The
//! command that printed a segment is the strongest evidence; content patterns
//! decide when there was no prompt.

use crate::segment::Segment;
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
    /// Nothing we recognise with confidence.
    Unrecognised,
}

impl InputKind {
    /// Every kind, for listings and overrides.
    pub const ALL: [InputKind; 12] = [
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
        InputKind::Unrecognised,
    ];

    /// Whether log signatures are matched on this kind's lines. A config, an
    /// env dump or a package list may *mention* an error string or a variable
    /// without anything having failed, so they are not scanned.
    pub fn scanned_for_signatures(self) -> bool {
        !matches!(self, InputKind::RollConfig | InputKind::Env | InputKind::PipList | InputKind::DockerRun)
    }
}

/// The lowest score that names a kind.
pub const THRESHOLD: u8 = 50;

/// A segment's kind and how sure we are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Detection {
    /// The kind.
    pub kind: InputKind,
    /// 0–100.
    pub confidence: u8,
}

fn first_word(cmd: &str) -> &str {
    let cmd = cmd.trim_start_matches("sudo ").trim();
    cmd.split_whitespace().next().unwrap_or("")
}

/// Scores from the command that printed the segment.
fn by_command(cmd: &str) -> Option<Detection> {
    let c = cmd.trim();
    let w = first_word(c);
    let d = |kind, confidence| Some(Detection { kind, confidence });
    // `for i in {0..7}; do hccn_tool …; done` loops name the tool inside.
    if c.contains("hccn_tool") {
        return d(InputKind::HccnTool, 95);
    }
    if c.contains("npu-smi") {
        return d(InputKind::NpuSmi, 95);
    }
    match w {
        "ulimit" => d(InputKind::Ulimit, 95),
        "ss" | "netstat" => d(InputKind::Ss, 90),
        "env" | "printenv" | "export" => d(InputKind::Env, 90),
        "echo" if c.contains('$') => d(InputKind::Env, 80),
        "pip" | "pip3" if c.contains(" list") || c.contains(" show") || c.contains(" freeze") => {
            d(InputKind::PipList, 95)
        }
        "ray" if c.contains("status") => d(InputKind::RayStatus, 95),
        "docker" if c.contains(" run") => d(InputKind::DockerRun, 95),
        "ip" if c.contains("route") => d(InputKind::IpRoute, 90),
        "cat" | "less" | "more" | "vim" | "vi" | "head" if c.ends_with(".yaml") || c.ends_with(".yml") => {
            d(InputKind::RollConfig, 90)
        }
        "tail" | "cat" | "grep" | "less" | "head" | "python" | "python3" | "bash" | "sh" | "torchrun" => {
            d(InputKind::Log, 70)
        }
        _ => None,
    }
}

/// Top-level or role keys that only a ROLL config has.
const ROLL_KEYS: &[&str] = &[
    "actor_train:",
    "actor_infer:",
    "reference:",
    "critic:",
    "device_mapping:",
    "strategy_args:",
    "strategy_name:",
    "rollout_batch_size:",
    "num_return_sequences_in_group:",
    "pretrain:",
    "system_envs:",
    "exp_name:",
    "num_gpus_per_node:",
    "strategy_config:",
    "generating_args:",
];

/// Scores a ROLL YAML config from its content.
fn roll_config_score(seg: &Segment) -> u8 {
    let mut keys = 0usize;
    let mut yamlish = 0usize;
    let mut other = 0usize;
    for l in &seg.lines {
        let t = l.text.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if ROLL_KEYS.iter().any(|k| t.starts_with(k)) {
            keys += 1;
        }
        let key_like = t.split_once(':').is_some_and(|(k, _)| {
            let k = k.trim_start_matches("- ");
            !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
        });
        if key_like || t.starts_with("- ") {
            yamlish += 1;
        } else {
            other += 1;
        }
    }
    if keys == 0 {
        return 0;
    }
    let ratio = yamlish * 100 / (yamlish + other).max(1);
    let base = if keys >= 3 {
        70
    } else if keys == 2 {
        60
    } else {
        50
    };
    if ratio >= 80 {
        (base + 25).min(99) as u8
    } else if ratio >= 50 {
        base as u8
    } else {
        20
    }
}

/// Scores `ulimit -a` style output without a prompt.
fn ulimit_score(seg: &Segment) -> u8 {
    let hits = seg.lines.iter().filter(|l| l.text.contains("open files") && l.text.contains("(-n)")).count();
    if hits > 0 {
        80
    } else {
        0
    }
}

/// The failure-like pattern with the same ASCII semantics as the signature
/// set (a Unicode `\b` is slow on non-ASCII lines).
fn failure_like() -> &'static regex::bytes::Regex {
    static RE: std::sync::OnceLock<regex::bytes::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::bytes::RegexBuilder::new(crate::unexplained::PATTERN).unicode(false).build().expect("pattern compiles")
    })
}

/// True for a line shaped like a YAML mapping entry: indented `key: value`,
/// or a top-level lowercase `snake_key:`. `RuntimeError: …` and `INFO: …`
/// (capitalised, at column 0) are log lines, not keys.
fn yaml_key_line(t: &str) -> bool {
    let indented = t.starts_with(' ') || t.starts_with('\t');
    let body = t.trim_start().trim_start_matches("- ");
    let Some((key, rest)) = body.split_once(':') else { return false };
    if !(rest.is_empty() || rest.starts_with(' ')) || key.is_empty() {
        return false;
    }
    let ident = key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.');
    let lower_snake = key.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    ident && (indented || lower_snake)
}

/// Scores a log: error/warning words, timestamps, CANN codes.
fn log_score(seg: &Segment) -> u8 {
    let mut hits = 0usize;
    for l in seg.lines.iter().take(2000) {
        let t = &l.text;
        // A YAML `key: value` line (`HCCL_CONNECT_TIMEOUT: "3600"` under
        // system_envs) mentions HCCL without being a log line.
        if yaml_key_line(t) {
            continue;
        }
        if t.contains("ERROR")
            || t.contains("Error")
            || t.contains("WARNING")
            || t.contains("INFO")
            || t.contains("Traceback")
            || t.contains("HCCL")
            || t.contains("[PID")
            || t.contains("pid=")
            || failure_like().is_match(t.as_bytes())
        {
            hits += 1;
        }
    }
    match hits {
        0 => 0,
        1 => 60,
        _ => 80,
    }
}

/// Lines a content detector looks at: the head of a segment decides what it
/// is, and scoring a 100 MB log line by line would cost as much as the scan.
pub const SAMPLE_LINES: usize = 400;

/// Detects one segment's kind.
pub fn detect(seg: &Segment) -> Detection {
    if seg.lines.len() > SAMPLE_LINES {
        let head = Segment {
            command: seg.command.clone(),
            command_line: seg.command_line,
            lines: seg.lines[..SAMPLE_LINES].to_vec(),
        };
        return detect(&head);
    }
    let mut best = Detection { kind: InputKind::Unrecognised, confidence: 0 };
    let mut consider = |d: Detection| {
        if d.confidence > best.confidence {
            best = d;
        }
    };
    if let Some(cmd) = &seg.command {
        if let Some(d) = by_command(cmd) {
            consider(d);
        }
    }
    consider(Detection { kind: InputKind::RollConfig, confidence: roll_config_score(seg) });
    consider(Detection { kind: InputKind::Ulimit, confidence: ulimit_score(seg) });
    for (kind, confidence) in crate::parse::content_scores(seg) {
        consider(Detection { kind, confidence });
    }
    consider(Detection { kind: InputKind::Log, confidence: log_score(seg) });
    if best.confidence < THRESHOLD {
        Detection { kind: InputKind::Unrecognised, confidence: 100 - best.confidence.min(100) }
    } else {
        best
    }
}

/// Segments up to this many lines are split into blocks by kind (bigger
/// ones are logs, and scoring thousands of blocks would cost too much).
const REFINE_MAX_LINES: usize = 20_000;

/// Detects the kind of `seg`, first splitting a segment that no command
/// named into blank-line-separated blocks when they are of different kinds
/// (a config pasted above a log, an `npu-smi` table below it). Blocks that
/// are weak or unrecognised stay with the block before them, so a YAML
/// config with blank lines between sections stays one segment.
pub fn split_and_detect(seg: Segment) -> Vec<(Segment, Detection)> {
    if seg.command.is_some() || seg.lines.len() > REFINE_MAX_LINES {
        let d = detect(&seg);
        return vec![(seg, d)];
    }
    let mut blocks: Vec<Segment> = Vec::new();
    let mut cur = Segment::default();
    for line in seg.lines {
        if line.text.trim().is_empty() {
            if !cur.lines.is_empty() {
                blocks.push(std::mem::take(&mut cur));
            }
            continue;
        }
        cur.lines.push(line);
    }
    if !cur.lines.is_empty() {
        blocks.push(cur);
    }
    let mut out: Vec<(Segment, Detection)> = Vec::new();
    for b in blocks {
        let d = detect(&b);
        let strong = d.kind != InputKind::Unrecognised && d.confidence >= 70;
        match out.last_mut() {
            Some((prev, pd)) if !strong || pd.kind == d.kind || pd.kind == InputKind::Unrecognised => {
                prev.lines.extend(b.lines);
                // a weak leading block takes the kind of the strong one after it
                if pd.kind == InputKind::Unrecognised && strong {
                    *pd = d;
                }
            }
            _ => out.push((b, d)),
        }
    }
    // Re-detect merged segments: their content changed.
    for (s, d) in &mut out {
        *d = detect(s);
    }
    if out.is_empty() {
        out.push((Segment::default(), Detection { kind: InputKind::Unrecognised, confidence: 100 }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::segment;

    fn kind(text: &str) -> InputKind {
        detect(&segment(text)[0]).kind
    }

    #[test]
    fn command_names_the_kind() {
        assert_eq!(kind("$ ulimit -n\n1024\n"), InputKind::Ulimit);
        assert_eq!(
            kind("$ for i in {0..7}; do hccn_tool -i $i -link -g; done\nlink status: UP\n"),
            InputKind::HccnTool
        );
    }

    #[test]
    fn config_without_prompt() {
        let t = "actor_train:\n  strategy_args:\n    strategy_name: fsdp2_train\n  device_mapping: list(range(0,8))\n";
        assert_eq!(kind(t), InputKind::RollConfig);
    }

    #[test]
    fn config_then_log_is_split_but_config_sections_are_not() {
        let t = "hydra:\n  run:\n    dir: .\n\nexp_name: x\nrollout_batch_size: 64\n\nactor_train:\n  strategy_args:\n    strategy_name: fsdp2_train\n  device_mapping: list(range(0,8))\n\n[ERROR] HCCL(1,python): boom\nEI0006: Getting socket times out.\n";
        let seg = segment(t).remove(0);
        let parts = split_and_detect(seg);
        let kinds: Vec<InputKind> = parts.iter().map(|(_, d)| d.kind).collect();
        assert_eq!(kinds, vec![InputKind::RollConfig, InputKind::Log]);
        assert_eq!(parts[0].0.lines[0].no, 1);
        assert_eq!(parts[1].0.lines[0].no, 13);
    }

    #[test]
    fn system_envs_block_is_not_a_log() {
        let t = "system_envs:\n  HCCL_CONNECT_TIMEOUT: 3600\n  HCCL_EXEC_TIMEOUT: \"3600\"\n  HCCL_NPU_SOCKET_PORT_RANGE: auto\n";
        assert_ne!(kind(t), InputKind::Log);
        let full =
            format!("exp_name: x\nrollout_batch_size: 64\n\n{t}\nactor_train:\n  device_mapping: list(range(0,8))\n");
        let parts = split_and_detect(segment(&full).remove(0));
        assert_eq!(parts.len(), 1, "{:?}", parts.iter().map(|p| p.1).collect::<Vec<_>>());
        assert_eq!(parts[0].1.kind, InputKind::RollConfig);
    }

    #[test]
    fn log_and_unrecognised() {
        assert_eq!(kind("[ERROR] HCCL(123,python):2025 boom\n"), InputKind::Log);
        assert_eq!(kind("hello there\n"), InputKind::Unrecognised);
    }
}
