//! ROLL YAML configs, checked as ROLL would load them (catalogue §2).
//!
//! A role is a top-level mapping that looks like a `WorkerConfig` (it has
//! `strategy_args`, `device_mapping`, `worker_cls` or `model_args`), or an
//! entry of `rewards:`. Every fact carries the line of the user's paste it
//! was read from, so a finding points at the exact config line.
//!
//! What is checked, and how ROLL behaves (Hydra → OmegaConf → dacite →
//! `__post_init__`):
//!
//! * `device_mapping` is a bare Python `eval()` of a string: evaluated here
//!   by the bounded [`device_mapping`] evaluator. A YAML list, an int or
//!   `null` crash before that (`config.device_mapping_type`); a string
//!   Python cannot evaluate gives `config.device_mapping_error`.
//! * `strategy_args.strategy_name` must be one of dacite's `Literal` values,
//!   and `actor_infer` must use `vllm` or `sglang`; DeepSpeed strategies and
//!   `../config/deepspeed_*` defaults are gone since ROLL v0.3.0.
//! * vLLM `tensor_parallel_size × pipeline_parallel_size` must divide
//!   `len(device_mapping)`; actor_train/actor_infer device sets must be
//!   contiguous; colocated FSDP2/vLLM mappings must align on TP groups.
//! * `system_envs` values must be strings (`os.environ.update`).
//! * `rollout_batch_size × num_return_sequences_in_group` must split over
//!   the DP ranks and into whole optimizer steps.
//! * Keys ROLL silently drops are reported only in sections whose schema is
//!   known completely ([`schema`]).
//!
//! `${…}` interpolations that point at a top-level value are followed, as
//! OmegaConf does; anything else stays symbolic and is never reported.
//! Malformed YAML yields `config.yaml_error` with the line and column.
//!
//! ```
//! use roll_doctor_engine::parse::{roll_config, FactSink};
//! use roll_doctor_engine::segment::segment;
//! let seg = &segment("actor_train:\n  strategy_args:\n    strategy_name: fsdp2_train\n  device_mapping: [0, 1]\n")[0];
//! let mut facts = Vec::new();
//! roll_config::parse(seg, &mut FactSink::any(&mut facts));
//! let f = facts.iter().find(|f| f.name == "config.device_mapping_type").unwrap();
//! assert_eq!((f.value.to_text().as_str(), f.line()), ("seq", 4));
//! ```

#[path = "roll_config/device_mapping.rs"]
pub mod device_mapping;
#[path = "roll_config/schema.rs"]
pub mod schema;

use super::FactSink;
use crate::facts::{FactDef, FactValue, ValueType};
use crate::segment::Segment;
use crate::yaml::{self, Node, Value};
use device_mapping::{compact, Outcome};

/// Facts this parser produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("config.role", ValueType::Str, Some("role"), "a worker role present in a ROLL config; subject = role, value = role"),
    FactDef::new("config.strategy_name", ValueType::Str, Some("role"), "strategy_args.strategy_name of a role; subject = role"),
    FactDef::new("config.yaml_error", ValueType::Str, None, "the config segment is not valid YAML; value = message with line and column"),
    FactDef::new("config.defaults_entry", ValueType::Str, None, "an entry of the Hydra `defaults:` list; value = the entry as written"),
    FactDef::new("config.tp_misaligned", ValueType::Str, Some("role"), "colocated FSDP2 and vLLM ranges that do not start and end on tensor_parallel_size boundaries (ROLL's weight sync groups by TP); subject = actor_infer, value = the ranges"),
    FactDef::new("config.device_count", ValueType::Int, Some("role"), "how many device ids a role's device_mapping gives (Int); subject = role"),
    FactDef::new("config.gpus_per_worker", ValueType::Int, Some("role"), "num_gpus_per_worker as ROLL computes it: vLLM tensor_parallel_size × pipeline_parallel_size, the role's own value for hf_infer/sglang, else 1 (Int); subject = role"),
    FactDef::new("config.device_gaps", ValueType::Int, Some("role"), "ids missing between actor_train's (or actor_infer's) smallest and largest device id, when both roles are present (Int; 0 = contiguous); subject = role"),
    FactDef::new("config.rollout_samples", ValueType::Int, None, "rollout_batch_size × num_return_sequences_in_group (Int, rollout_batch_size defaults to 128), on the rollout_batch_size line"),
    FactDef::new("config.dp_size", ValueType::Int, Some("role"), "data-parallel size of actor_train, critic or reference: devices / num_gpus_per_worker / model parallel size (Int); subject = role"),
    FactDef::new("config.per_rank_batch", ValueType::Int, Some("role"), "samples each data-parallel rank gets: rollout_samples / dp_size, the smaller share when it does not divide (Int); subject = role; only when rollout_samples ≥ dp_size"),
    FactDef::new("config.per_rank_batch_max", ValueType::Int, Some("role"), "the larger share when rollout_samples / dp_size does not divide evenly (Int); subject = role"),
    FactDef::new("config.step_batch", ValueType::Int, Some("role"), "samples per optimizer step: per_device_train_batch_size × gradient_accumulation_steps (Int); subject = role; absent with dynamic batching"),
    FactDef::new("config.strategy_config_ref", ValueType::Str, Some("role"), "strategy_config given as a `${…}` interpolation; subject = role, value = as written"),
    FactDef::new("config.device_mapping", ValueType::Str, Some("role"), "a role's evaluated device ids, compact (`0-1,14-15`); subject = role"),
    FactDef::new("config.device_mapping_type", ValueType::Str, Some("role"), "device_mapping is not a string (seq, int, float, bool, null, map): ROLL crashes before eval; subject = role"),
    FactDef::new("config.device_mapping_error", ValueType::Str, Some("role"), "device_mapping is a string Python cannot evaluate to device ids; subject = role, value = error"),
    FactDef::new("config.devices_needed", ValueType::Int, Some("role"), "max(device id)+1 over all roles (Int); subject = the role holding the max"),
    FactDef::new("config.placement", ValueType::Str, Some("role"), "colocated or separate: whether the role shares an NPU with another role; subject = role"),
    FactDef::new("config.system_env", ValueType::Str, Some("variable"), "a system_envs entry (top level or per role); subject = variable, value = text as written"),
    FactDef::new("config.system_env_non_string", ValueType::Str, Some("variable"), "a system_envs value that is not a string; subject = variable, value = Python type (int, bool, float, NoneType, list, dict)"),
    FactDef::new("config.unknown_key", ValueType::Str, Some("dotted key path"), "a key ROLL silently ignores; subject = dotted path, value = key"),
];

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

/// A YAML key or list-item line (`hydra:`, `dir: .`, `- ../config/x@_here_`), trimmed.
fn yaml_line(t: &str) -> bool {
    let key_like = t.split_once(':').is_some_and(|(k, _)| {
        let k = k.trim_start_matches("- ");
        !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
    });
    key_like || t.starts_with("- ")
}

/// Every line is YAML (a key, a list item, a comment) though no ROLL key is
/// there: a config's first section (`hydra:` / `  run:` / `    dir: .`),
/// too short to score as one, which detection keeps with the config after it.
pub fn yaml_shaped(seg: &Segment) -> bool {
    seg.rows().all(|r| {
        let t = r.text.trim();
        t.is_empty() || t.starts_with('#') || yaml_line(t)
    })
}

/// Scores a ROLL YAML config from its content.
pub fn score(seg: &Segment) -> u8 {
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
        if yaml_line(t) {
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

/// How strongly a command names this kind: a YAML file shown by a pager or editor.
pub fn command(cmd: &str) -> u8 {
    let c = cmd.trim();
    let yaml = c.ends_with(".yaml") || c.ends_with(".yml");
    match super::first_word(c) {
        "cat" | "less" | "more" | "vim" | "vi" | "head" if yaml => 90,
        _ => 0,
    }
}

/// Roles compared pairwise for colocation at most.
const MAX_PAIRWISE_ROLES: usize = 64;

const ROLE_MARKERS: &[&str] = &["strategy_args", "device_mapping", "worker_cls", "model_args"];

fn is_role(node: &Node) -> bool {
    ROLE_MARKERS.iter().any(|k| node.get(k).is_some())
}

/// The roles of a config: `(role name, node)`, rewards as `rewards.<name>`.
pub fn roles(doc: &Node) -> Vec<(String, &Node)> {
    let mut out = Vec::new();
    for (k, v) in doc.entries() {
        let Some(key) = k.as_str() else { continue };
        if is_role(v) {
            out.push((key.to_string(), v));
        } else if key == "rewards" {
            for (rk, rv) in v.entries() {
                if let Some(rk) = rk.as_str() {
                    if is_role(rv) {
                        out.push((format!("rewards.{rk}"), rv));
                    }
                }
            }
        }
    }
    out
}

/// Follows a whole-value `${a.b}` interpolation to the node it names, as
/// OmegaConf does (the target keeps its type, even from a quoted string).
/// `None` when the value stays symbolic: an unresolvable key, a resolver
/// (`${oc.env:X}`), a relative key, or text mixed with interpolations.
pub fn resolve<'a>(doc: &'a Node, node: &'a Node) -> Option<&'a Node> {
    let mut cur = node;
    for _ in 0..8 {
        let Some(t) = cur.as_str() else { return Some(cur) };
        if !t.contains("${") {
            return Some(cur);
        }
        let inner = t.trim().strip_prefix("${")?.strip_suffix('}')?;
        if inner.is_empty() || inner.contains(['$', '{', '}', ':', '[']) || inner.starts_with('.') {
            return None;
        }
        let mut n = doc;
        for part in inner.split('.') {
            n = n.get(part)?;
        }
        cur = n;
    }
    None
}

fn int_of(doc: &Node, node: &Node) -> Option<i64> {
    resolve(doc, node)?.as_int()
}

/// An optional int field: `Some(default)` when absent, `None` when present
/// but not a resolvable int (then the check is skipped).
fn int_field(doc: &Node, parent: Option<&Node>, key: &str, default: i64) -> Option<i64> {
    match parent.and_then(|p| p.get(key)) {
        None => Some(default),
        Some(n) => int_of(doc, n),
    }
}

fn python_type(yaml_type: &str) -> &'static str {
    match yaml_type {
        "int" => "int",
        "float" => "float",
        "bool" => "bool",
        "null" => "NoneType",
        "seq" => "list",
        "map" => "dict",
        _ => "str",
    }
}

/// True when the two id lists share an id (sets, so large mappings stay fast).
fn overlaps(a: &[i64], b: &[i64]) -> bool {
    let set: std::collections::HashSet<i64> = a.iter().copied().collect();
    b.iter().any(|x| set.contains(x))
}

struct Role<'a> {
    name: String,
    node: &'a Node,
    strategy: Option<&'a str>,
    /// Line (within the segment) of the `device_mapping` key.
    dm_line: u32,
    ids: Vec<i64>,
}

struct Checker<'s, 'f, 'd> {
    seg: &'s Segment<'s>,
    sink: &'s mut FactSink<'f>,
    doc: &'d Node,
}

impl<'d> Checker<'_, '_, 'd> {
    fn emit(&mut self, name: &str, subject: Option<String>, value: FactValue, yaml_line: u32) {
        let i = (yaml_line.max(1) as usize - 1).min(self.seg.lines.len().saturating_sub(1));
        let line = &self.seg.lines[i];
        self.sink.push(name, subject, value, line);
    }

    fn str_fact(&mut self, name: &str, subject: &str, value: impl Into<String>, yaml_line: u32) {
        self.emit(name, Some(subject.to_string()), FactValue::Str(value.into()), yaml_line);
    }

    fn defaults(&mut self) {
        let Some(Node { value: Value::Seq(items), .. }) = self.doc.get("defaults") else { return };
        for it in items {
            let text = match &it.value {
                Value::Scalar { text, .. } => text.clone(),
                // `- override hydra/launcher: x` style entries
                Value::Map(e) => e
                    .first()
                    .and_then(|(k, v)| Some(format!("{}: {}", k.as_str()?, v.as_str().unwrap_or(""))))
                    .unwrap_or_default(),
                _ => continue,
            };
            if !text.is_empty() {
                self.emit("config.defaults_entry", None, FactValue::Str(text), it.line);
            }
        }
    }

    fn system_envs(&mut self, node: Option<&Node>) {
        let doc = self.doc;
        let Some(se) = node else { return };
        for (k, v) in se.entries() {
            let Some(key) = k.as_str() else { continue };
            if let Value::Scalar { text, .. } = &v.value {
                let shown = if v.type_name() == "null" { String::new() } else { text.clone() };
                self.str_fact("config.system_env", key, shown, k.line);
            }
            if matches!(v.value, Value::Alias) {
                continue;
            }
            let Some(target) = resolve(doc, v) else { continue };
            let t = target.type_name();
            if t != "str" && t != "alias" {
                self.str_fact("config.system_env_non_string", key, python_type(t), k.line);
            }
        }
    }

    fn unknown_keys(&mut self, role: &str, node: &Node) {
        for (k, _) in node.entries() {
            if let Some(key) = k.as_str() {
                if schema::ROLE_KEYS_NOT_FIELDS.contains(&key) {
                    self.str_fact("config.unknown_key", &format!("{role}.{key}"), key, k.line);
                }
            }
        }
        if let Some(ma) = node.get("model_args") {
            for (k, _) in ma.entries() {
                if let Some(key) = k.as_str() {
                    if !schema::is_model_arg(key) {
                        self.str_fact("config.unknown_key", &format!("{role}.model_args.{key}"), key, k.line);
                    }
                }
            }
        }
        if let Some(sa) = node.get("strategy_args") {
            for (k, _) in sa.entries() {
                if let Some(key) = k.as_str() {
                    if !schema::STRATEGY_ARGS_KEYS.contains(&key) {
                        self.str_fact("config.unknown_key", &format!("{role}.strategy_args.{key}"), key, k.line);
                    }
                }
            }
        }
    }

    fn strategy(&mut self, role: &str, node: &'d Node) -> Option<&'d str> {
        let doc: &'d Node = self.doc;
        let sa = node.get("strategy_args")?;
        if let Some(sc) = sa.get("strategy_config") {
            if let Some(t) = sc.as_str() {
                if t.contains("${") {
                    self.str_fact("config.strategy_config_ref", role, t, sc.line);
                }
            }
        }
        let sn = sa.get("strategy_name")?;
        if matches!(sn.value, Value::Alias) {
            return None;
        }
        let target = resolve(doc, sn)?;
        // `strategy_name: null` is Python's None, which no strategy accepts.
        let name = if target.type_name() == "null" { "None" } else { target.as_str()? };
        // Which names ROLL accepts is the rule's judgement (strategy-name-invalid).
        self.str_fact("config.strategy_name", role, name, sn.line);
        (name != "None").then_some(name)
    }

    /// Evaluates a role's device_mapping; `Some(ids)` when it gives
    /// non-negative device ids.
    fn device_mapping(&mut self, role: &str, dm: &Node, key_line: u32) -> Option<Vec<i64>> {
        if matches!(dm.value, Value::Alias) {
            return None;
        }
        let target = resolve(self.doc, dm)?;
        match &target.value {
            Value::Seq(_) => self.str_fact("config.device_mapping_type", role, "seq", key_line),
            Value::Map(_) => self.str_fact("config.device_mapping_type", role, "map", key_line),
            Value::Alias => {}
            Value::Scalar { text, .. } => match target.type_name() {
                "str" => match device_mapping::eval(text) {
                    Outcome::Ids(ids) => {
                        if let Some(neg) = ids.iter().find(|i| **i < 0) {
                            let msg = format!("device ids must be 0 or more, got {neg}");
                            self.str_fact("config.device_mapping_error", role, msg, key_line);
                            return None;
                        }
                        if ids.is_empty() {
                            return None;
                        }
                        self.str_fact("config.device_mapping", role, compact(&ids), key_line);
                        return Some(ids);
                    }
                    Outcome::Error(e) => self.str_fact("config.device_mapping_error", role, e, key_line),
                    Outcome::Unknown => {}
                },
                t => self.str_fact("config.device_mapping_type", role, t, key_line),
            },
        }
        None
    }

    /// `num_gpus_per_worker` as ROLL computes it for a role.
    fn gpus_per_worker(&self, r: &Role<'_>) -> Option<i64> {
        let doc = self.doc;
        match r.strategy {
            Some("vllm") => {
                let sc = r.node.get("strategy_args").and_then(|s| s.get("strategy_config"));
                let tp = int_field(doc, sc, "tensor_parallel_size", 1)?;
                let pp = int_field(doc, sc, "pipeline_parallel_size", 1)?;
                tp.checked_mul(pp)
            }
            Some(s) if schema::MULTI_GPU_WORKER_STRATEGIES.contains(&s) => {
                int_field(doc, Some(r.node), "num_gpus_per_worker", 1)
            }
            Some(_) => Some(1),
            None => int_field(doc, Some(r.node), "num_gpus_per_worker", 1),
        }
    }

    fn cross_role(&mut self, roles: &[Role<'_>]) {
        let gpu: Vec<&Role<'_>> = roles.iter().filter(|r| !r.ids.is_empty()).collect();
        // Cluster size: max id + 1 over every role.
        if let Some((r, max)) = gpu.iter().filter_map(|r| r.ids.iter().max().map(|m| (*r, *m))).max_by_key(|(_, m)| *m)
        {
            let (name, line) = (r.name.clone(), r.dm_line);
            self.emit("config.devices_needed", Some(name), FactValue::Int(max.saturating_add(1)), line);
        }
        // Colocated or separate.
        // (Pairwise: bounded, real configs have a handful of roles.)
        if gpu.len() >= 2 && gpu.len() <= MAX_PAIRWISE_ROLES {
            for (i, r) in gpu.iter().enumerate() {
                let shared = gpu.iter().enumerate().any(|(j, o)| j != i && overlaps(&r.ids, &o.ids));
                let v = if shared { "colocated" } else { "separate" };
                self.str_fact("config.placement", &r.name, v, r.dm_line);
            }
        }
        // len(device_mapping) and num_gpus_per_worker: rules check that one divides the other.
        for r in &gpu {
            self.emit("config.device_count", Some(r.name.clone()), FactValue::Int(r.ids.len() as i64), r.dm_line);
            if let Some(k) = self.gpus_per_worker(r) {
                self.emit("config.gpus_per_worker", Some(r.name.clone()), FactValue::Int(k), r.dm_line);
            }
        }
        let train = gpu.iter().find(|r| r.name == "actor_train");
        let infer = gpu.iter().find(|r| r.name == "actor_infer");
        if let (Some(t), Some(i)) = (train, infer) {
            // Contiguity (model_update_group.py: `… must be continuous`).
            for r in [t, i] {
                let mut s = r.ids.clone();
                s.sort_unstable();
                s.dedup();
                if let (Some(lo), Some(hi)) = (s.first(), s.last()) {
                    let gaps = (hi - lo).saturating_add(1).saturating_sub(s.len() as i64);
                    self.emit("config.device_gaps", Some(r.name.clone()), FactValue::Int(gaps), r.dm_line);
                }
            }
            // Colocated FSDP2 → vLLM weight sync aligns on TP groups.
            let overlap = overlaps(&t.ids, &i.ids);
            if overlap && t.strategy == Some("fsdp2_train") && i.strategy == Some("vllm") {
                let sc = i.node.get("strategy_args").and_then(|s| s.get("strategy_config"));
                if let Some(tp) = int_field(self.doc, sc, "tensor_parallel_size", 1).filter(|tp| *tp > 1) {
                    let (tmin, tmax) = (t.ids.iter().min(), t.ids.iter().max());
                    let (imin, imax) = (i.ids.iter().min(), i.ids.iter().max());
                    if let (Some(a), Some(b), Some(c), Some(d)) = (tmin, tmax, imin, imax) {
                        if (a - c).rem_euclid(tp) != 0 || (b - d).rem_euclid(tp) != 0 {
                            let msg = format!(
                                "colocated: actor_train {a}..{b} and actor_infer {c}..{d} must start and end on tensor_parallel_size={tp} boundaries"
                            );
                            self.str_fact("config.tp_misaligned", "actor_infer", msg, i.dm_line);
                        }
                    }
                }
            }
        }
        self.batches(&gpu);
    }

    fn batches(&mut self, gpu: &[&Role<'_>]) {
        let doc = self.doc;
        let Some(n_node) = doc.get("num_return_sequences_in_group") else { return };
        let Some(n) = int_of(doc, n_node) else { return };
        let (rbs, rbs_line) = match doc.get("rollout_batch_size") {
            None => (128, None),
            Some(node) => match int_of(doc, node) {
                Some(v) => (v, Some(node.line)),
                None => return,
            },
        };
        if rbs <= 0 || n <= 0 {
            return;
        }
        let Some(samples) = rbs.checked_mul(n) else { return };
        let line = rbs_line.or_else(|| gpu.first().map(|r| r.dm_line)).unwrap_or(n_node.line);
        self.emit("config.rollout_samples", None, FactValue::Int(samples), line);
        for name in ["actor_train", "critic", "reference"] {
            let Some(r) = gpu.iter().find(|r| r.name == name) else { continue };
            let Some(k) = self.gpus_per_worker(r).filter(|k| *k > 0) else { continue };
            let world = r.ids.len() as i64 / k;
            let sc = r.node.get("strategy_args").and_then(|s| s.get("strategy_config"));
            let parallel = match r.strategy {
                Some("fsdp2_train" | "fsdp2_infer") => int_field(doc, r.node.get("model_args"), "ulysses_size", 1),
                Some("megatron_train" | "megatron_infer") => {
                    let tp = int_field(doc, sc, "tensor_model_parallel_size", 1);
                    let pp = int_field(doc, sc, "pipeline_model_parallel_size", 1);
                    let cp = int_field(doc, sc, "context_parallel_size", 1);
                    tp.zip(pp).zip(cp).and_then(|((a, b), c)| a.checked_mul(b)?.checked_mul(c))
                }
                Some("hf_infer") => Some(1),
                _ => None,
            };
            let Some(parallel) = parallel.filter(|p| *p > 0 && world % *p == 0) else { continue };
            let dp = world / parallel;
            if dp <= 0 {
                continue;
            }
            self.emit("config.dp_size", Some(name.to_string()), FactValue::Int(dp), r.dm_line);
            // Fewer samples than ranks is its own failure (batch-size-lt-chunks); no per-rank split then.
            if samples < dp {
                continue;
            }
            if name == "reference" {
                continue;
            }
            let dynamic = r
                .node
                .get("use_dynamic_batching_in_train")
                .and_then(|v| resolve(doc, v))
                .and_then(|v| v.as_str())
                .is_some_and(|t| matches!(t, "true" | "True" | "TRUE" | "yes" | "Yes" | "on" | "On"));
            if dynamic {
                continue;
            }
            let ta = r.node.get("training_args");
            let Some(pd_node) = ta.and_then(|t| t.get("per_device_train_batch_size")) else { continue };
            let Some(pd) = int_of(doc, pd_node) else { continue };
            let Some(gas) = int_field(doc, ta, "gradient_accumulation_steps", 1) else { continue };
            let Some(bb) = pd.checked_mul(gas).filter(|b| *b > 0) else { continue };
            let lo = samples / dp;
            let hi = if samples % dp != 0 { lo + 1 } else { lo };
            let gas_line =
                ta.and_then(|t| t.get("gradient_accumulation_steps")).map(|g| g.line).unwrap_or(pd_node.line);
            let role = Some(name.to_string());
            self.emit("config.step_batch", role.clone(), FactValue::Int(bb), gas_line);
            self.emit("config.per_rank_batch", role.clone(), FactValue::Int(lo), line);
            self.emit("config.per_rank_batch_max", role, FactValue::Int(hi), line);
        }
    }
}

/// The first `[` or `{` of a line that opens a flow collection (outside
/// quotes and comments).
fn flow_opener(text: &str) -> Option<char> {
    text.chars().find(|c| matches!(c, '[' | '{'))
}

/// Index of the line whose flow collection (`[`/`{`, outside quotes and
/// comments) is still open at the end of `lines`.
fn unclosed_flow(lines: &[crate::segment::Line]) -> Option<usize> {
    let mut stack: Vec<usize> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let mut quote: Option<char> = None;
        let mut prev = ' ';
        for c in l.text.chars() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None => match c {
                    '#' if prev.is_whitespace() => break,
                    // A quote opens a scalar only where a scalar starts.
                    '\'' | '"' if prev.is_whitespace() || matches!(prev, ':' | '[' | '{' | ',' | '-') => {
                        quote = Some(c)
                    }
                    '[' | '{' => stack.push(i),
                    ']' | '}' => {
                        stack.pop();
                    }
                    _ => {}
                },
            }
            prev = c;
        }
        if stack.len() > 64 {
            return None;
        }
    }
    stack.first().copied()
}

/// Lines of a config read at most. ROLL configs are a few hundred lines;
/// a pasted "config" of a million keys is read this far, so the YAML tree
/// and the facts stay bounded whatever the paste.
pub const MAX_CONFIG_LINES: usize = 10_000;

/// Parses one config segment.
pub fn parse(seg: &Segment, sink: &mut FactSink<'_>) {
    if seg.lines.is_empty() {
        return;
    }
    // The lines the segment holds (bounded when they were materialised),
    // not the whole raw text: every fact then points at a line it has.
    let lines = &seg.lines[..seg.lines.len().min(MAX_CONFIG_LINES)];
    let cut = lines.last().is_some_and(|l| l.no < seg.end_line());
    let mut src = String::with_capacity(lines.iter().map(|l| l.text.len() + 1).sum());
    for l in lines {
        src.push_str(&l.text);
        src.push('\n');
    }
    let doc = match yaml::parse(&src) {
        Ok(Some(doc)) => doc,
        Ok(None) => return,
        // Where the config was cut, the YAML may well be unfinished: not the user's error.
        Err(_) if cut => return,
        Err(e) => {
            let i = (e.line.max(1) as usize - 1).min(seg.lines.len() - 1);
            let l = &seg.lines[i];
            // An unclosed `[` / `{` is reported where the parser gives up,
            // often lines later: point at where it was opened as well.
            if let Some(open) = unclosed_flow(&seg.lines[..i]) {
                let o = &seg.lines[open];
                let msg = format!("line {}: this '{}' is never closed", o.no, flow_opener(&o.text).unwrap_or('['));
                sink.push("config.yaml_error", None, FactValue::Str(msg), o);
            }
            let msg = format!("line {}, column {}: {}", l.no, e.col, e.message);
            sink.push("config.yaml_error", None, FactValue::Str(msg), l);
            return;
        }
    };
    let mut c = Checker { seg, sink, doc: &doc };
    c.defaults();
    c.system_envs(doc.get("system_envs"));
    let mut list = Vec::new();
    for (name, node) in roles(&doc) {
        let first = node.entries().first().map(|(k, _)| k.line).unwrap_or(node.line);
        c.emit("config.role", Some(name.clone()), FactValue::Str(name.clone()), first);
        let strategy = c.strategy(&name, node);
        c.unknown_keys(&name, node);
        c.system_envs(node.get("system_envs"));
        let dm = node.entries().iter().find(|(k, _)| k.as_str() == Some("device_mapping"));
        let (ids, dm_line) = match dm {
            Some((k, v)) => (c.device_mapping(&name, v, k.line).unwrap_or_default(), k.line),
            None => (Vec::new(), first),
        };
        list.push(Role { name, node, strategy, dm_line, ids });
    }
    c.cross_role(&list);
}

#[cfg(test)]
mod tests {
    use crate::facts::{Fact, FactValue};
    use crate::segment::segment;

    fn facts(text: &str) -> Vec<Fact> {
        let mut facts = Vec::new();
        for seg in segment(text).iter() {
            super::parse(seg, &mut super::FactSink::any(&mut facts));
        }
        facts
    }

    fn named<'a>(f: &'a [Fact], name: &str) -> Vec<&'a Fact> {
        f.iter().filter(|x| x.name == name).collect()
    }

    /// The rules that fire on `text` (the judgement is the rules'; these
    /// tests check the numbers they compare and that they compare right).
    fn fired(text: &str) -> Vec<String> {
        crate::diagnose(text).findings.into_iter().map(|f| f.id).collect()
    }

    fn values(f: &[Fact], name: &str) -> Vec<(String, String)> {
        named(f, name).iter().map(|x| (x.subject.clone().unwrap_or_default(), x.value.to_text())).collect()
    }

    fn one(f: &[Fact], name: &str) -> (Option<String>, String, u32) {
        let v = named(f, name);
        assert_eq!(v.len(), 1, "{name}: {f:#?}");
        (v[0].subject.clone(), v[0].value.to_text(), v[0].line())
    }

    #[test]
    fn strategy_names_with_lines() {
        let f = facts("# comment\nactor_train:\n  strategy_args:\n    strategy_name: megatron_train\nrewards:\n  math:\n    worker_cls: x\n");
        let s = named(&f, "config.strategy_name");
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].subject.as_deref(), Some("actor_train"));
        assert_eq!(s[0].line(), 4);
        assert!(f.iter().any(|f| f.name == "config.role" && f.value == FactValue::Str("rewards.math".into())));
    }

    #[test]
    fn malformed_yaml_is_a_fact_with_position() {
        let f = facts("actor_train:\n  device_mapping: [0, 1\n  strategy_args: x\n");
        assert!(!f.is_empty() && f.iter().all(|x| x.name == "config.yaml_error"), "{f:?}");
        assert!(f.iter().any(|x| x.line() == 2 && x.value.to_text().contains("never closed")), "{f:?}");
        assert!(f.iter().all(|x| x.value.to_text().contains("line")), "{f:?}");
        // A tab used for indentation: one fact, with line and column.
        let f = facts("actor_train:\n\tdevice_mapping: list(range(0,8))\n");
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].value.to_text().starts_with("line "), "{f:?}");
    }

    #[test]
    fn device_mapping_forms() {
        let f = facts(concat!(
            "actor_train:\n  device_mapping: list(range(0,8))\n",
            "actor_infer:\n  device_mapping: [0, 1, 2, 3]\n",
            "reference:\n  device_mapping: 4\n",
            "critic:\n  device_mapping: list(range(0,4)\n",
            "rewards:\n  judge:\n    device_mapping: ~\n",
            "  other:\n    device_mapping: \"[6, 7]\"\n",
        ));
        let types: Vec<_> = named(&f, "config.device_mapping_type")
            .iter()
            .map(|x| (x.subject.clone().unwrap(), x.value.to_text(), x.line()))
            .collect();
        assert_eq!(
            types,
            vec![
                ("actor_infer".into(), "seq".into(), 4),
                ("reference".into(), "int".into(), 6),
                ("rewards.judge".into(), "null".into(), 11)
            ]
        );
        assert_eq!(
            one(&f, "config.device_mapping_error"),
            (Some("critic".into()), "SyntaxError: '(' was never closed".into(), 8)
        );
        let ok: Vec<_> = named(&f, "config.device_mapping").iter().map(|x| x.value.to_text()).collect();
        assert_eq!(ok, vec!["0-7", "6-7"]);
        assert_eq!(one(&f, "config.devices_needed").1, "8");
    }

    #[test]
    fn interpolations_follow_top_level_keys_or_stay_silent() {
        let f = facts(concat!(
            "train_devices: list(range(0,4))\n",
            "n: 3600\n",
            "system_envs:\n  A: ${n}\n  B: ${oc.env:HOME}\n  C: \"${n}\"\n  D: \"x-${n}\"\n",
            "actor_train:\n  device_mapping: ${train_devices}\n",
            "actor_infer:\n  device_mapping: list(range(0,${gpus}))\n",
        ));
        assert_eq!(one(&f, "config.device_mapping").1, "0-3");
        let bad: Vec<_> =
            named(&f, "config.system_env_non_string").iter().map(|x| x.subject.clone().unwrap()).collect();
        assert_eq!(bad, vec!["A", "C"]);
        assert!(named(&f, "config.device_mapping_error").is_empty());
    }

    #[test]
    fn system_envs_types() {
        let f = facts(concat!(
            "system_envs:\n  HCCL_CONNECT_TIMEOUT: 3600\n  X: \"1\"\n  Y: true\n  Z: 0.96\n  E:\n  Q: 'ok'\n",
            "actor_train:\n  device_mapping: list(range(0,8))\n  system_envs:\n    NVTE_TORCH_COMPILE: 0\n",
        ));
        let bad: Vec<_> = named(&f, "config.system_env_non_string")
            .iter()
            .map(|x| (x.subject.clone().unwrap(), x.value.to_text(), x.line()))
            .collect();
        assert_eq!(
            bad,
            vec![
                ("HCCL_CONNECT_TIMEOUT".into(), "int".into(), 2),
                ("Y".into(), "bool".into(), 4),
                ("Z".into(), "float".into(), 5),
                ("E".into(), "NoneType".into(), 6),
                ("NVTE_TORCH_COMPILE".into(), "int".into(), 11)
            ]
        );
        assert_eq!(named(&f, "config.system_env").len(), 7);
    }

    #[test]
    fn strategies() {
        let f = facts(concat!(
            "actor_train:\n  strategy_args:\n    strategy_name: fsdp2\n",
            "actor_infer:\n  strategy_args:\n    strategy_name: hf_infer\n",
            "reference:\n  strategy_args:\n    strategy_name: deepspeed_infer\n    strategy_config: ${deepspeed_zero3}\n",
            "critic:\n  strategy_args:\n    #strategy_name: deepspeed_train\n    strategy_name: fsdp2_train\n",
        ));
        assert_eq!(one(&f, "config.strategy_config_ref").1, "${deepspeed_zero3}");
        assert_eq!(named(&f, "config.strategy_name").len(), 4);
        // The rule judges the names: fsdp2 is no strategy, hf_infer not one actor_infer may use.
        let bad_train = "actor_train:\n  strategy_args:\n    strategy_name: fsdp2\n";
        let bad_infer = "actor_infer:\n  strategy_args:\n    strategy_name: hf_infer\n";
        let good = "actor_train:\n  strategy_args:\n    strategy_name: fsdp2_train\nactor_infer:\n  strategy_args:\n    strategy_name: vllm\n";
        assert!(fired(bad_train).contains(&"strategy-name-invalid".to_string()));
        assert!(fired(bad_infer).contains(&"strategy-name-invalid".to_string()));
        assert!(!fired(good).contains(&"strategy-name-invalid".to_string()));
        // `strategy_name: null` is None.
        let f = facts("actor_train:\n  strategy_args:\n    strategy_name: null\n");
        assert_eq!(one(&f, "config.strategy_name").1, "None");
    }

    #[test]
    fn defaults_and_unknown_keys() {
        let f = facts(concat!(
            "defaults:\n  - ../config/traj_envs@_here_\n  - ../config/deepspeed_zero2@_here_\n",
            "actor_train:\n  strategy: megatron\n  model_args:\n    flash_attn: fa2\n    attn_implementation: fa2\n    lora_rank: 8\n",
            "  strategy_args:\n    strategy_name: fsdp2_train\n    strategy_configs: {}\n",
        ));
        let d: Vec<_> = named(&f, "config.defaults_entry").iter().map(|x| (x.value.to_text(), x.line())).collect();
        assert_eq!(d, vec![("../config/traj_envs@_here_".into(), 2), ("../config/deepspeed_zero2@_here_".into(), 3)]);
        let u: Vec<_> =
            named(&f, "config.unknown_key").iter().map(|x| (x.subject.clone().unwrap(), x.line())).collect();
        assert_eq!(
            u,
            vec![
                ("actor_train.strategy".into(), 5),
                ("actor_train.model_args.flash_attn".into(), 7),
                ("actor_train.strategy_args.strategy_configs".into(), 12)
            ]
        );
    }

    #[test]
    fn tp_contiguity_alignment_and_placement() {
        let f = facts(concat!(
            "actor_train:\n  strategy_args:\n    strategy_name: fsdp2_train\n  device_mapping: list(range(0,2))+list(range(14,16))\n",
            "actor_infer:\n  strategy_args:\n    strategy_name: vllm\n    strategy_config:\n      tensor_parallel_size: 3\n  device_mapping: list(range(1,5))\n",
            "reference:\n  strategy_args:\n    strategy_name: fsdp2_infer\n  device_mapping: list(range(8,12))\n",
        ));
        assert_eq!(
            values(&f, "config.device_gaps"),
            vec![("actor_train".into(), "12".into()), ("actor_infer".into(), "0".into())]
        );
        assert_eq!(values(&f, "config.device_count")[1], ("actor_infer".into(), "4".into()));
        assert_eq!(values(&f, "config.gpus_per_worker")[1], ("actor_infer".into(), "3".into()));
        assert!(one(&f, "config.tp_misaligned").1.starts_with("colocated"));
        let p: Vec<_> =
            named(&f, "config.placement").iter().map(|x| (x.subject.clone().unwrap(), x.value.to_text())).collect();
        assert_eq!(
            p,
            vec![
                ("actor_train".into(), "colocated".into()),
                ("actor_infer".into(), "colocated".into()),
                ("reference".into(), "separate".into())
            ]
        );
        assert_eq!(one(&f, "config.devices_needed"), (Some("actor_train".into()), "16".into(), 4));
    }

    fn batch(rbs: i64, n: i64, train: &str, pd: i64, gas: i64) -> Vec<Fact> {
        facts(&format!(
            "rollout_batch_size: {rbs}\nnum_return_sequences_in_group: {n}\nactor_train:\n  training_args:\n    per_device_train_batch_size: {pd}\n    gradient_accumulation_steps: {gas}\n  strategy_args:\n    strategy_name: fsdp2_train\n  device_mapping: {train}\nreference:\n  strategy_args:\n    strategy_name: fsdp2_infer\n  device_mapping: {train}\n"
        ))
    }

    #[test]
    fn batch_arithmetic() {
        // 2*2 = 4 samples over 8 DP ranks.
        let f = batch(2, 2, "list(range(0,8))", 1, 1);
        assert_eq!(one(&f, "config.rollout_samples"), (None, "4".into(), 1));
        assert_eq!(
            values(&f, "config.dp_size"),
            vec![("actor_train".into(), "8".into()), ("reference".into(), "8".into())]
        );
        assert!(named(&f, "config.per_rank_batch").is_empty(), "no split with fewer samples than ranks");
        // 16*8 = 128 over 8 ranks = 16 per rank; one step is 2*16 = 32.
        let f = batch(16, 8, "list(range(0,8))", 2, 16);
        assert_eq!(values(&f, "config.per_rank_batch"), vec![("actor_train".into(), "16".into())]);
        assert_eq!(one(&f, "config.step_batch"), (Some("actor_train".into()), "32".into(), 6));
        // 20*6 = 120 over 8 ranks = 15 each.
        let f = batch(20, 6, "list(range(0,8))", 3, 4);
        assert_eq!(values(&f, "config.per_rank_batch_max"), vec![("actor_train".into(), "15".into())]);
        // What the rules make of them.
        let text = |rbs, n, pd, gas| {
            format!("rollout_batch_size: {rbs}\nnum_return_sequences_in_group: {n}\nactor_train:\n  training_args:\n    per_device_train_batch_size: {pd}\n    gradient_accumulation_steps: {gas}\n  strategy_args:\n    strategy_name: fsdp2_train\n  device_mapping: list(range(0,8))\n")
        };
        assert!(fired(&text(2, 2, 1, 1)).contains(&"batch-size-lt-chunks".to_string()));
        assert!(fired(&text(16, 8, 2, 16)).contains(&"lr-decay-steps-zero".to_string()));
        let not_whole = fired(&text(16, 8, 3, 4));
        assert!(not_whole.contains(&"batch-size-lt-chunks".to_string()), "{not_whole:?}");
        assert!(!not_whole.contains(&"lr-decay-steps-zero".to_string()));
        // Healthy: c34's numbers.
        let healthy = fired(&text(16, 8, 1, 8));
        assert!(!healthy.iter().any(|id| id == "batch-size-lt-chunks" || id == "lr-decay-steps-zero"), "{healthy:?}");
    }

    #[test]
    fn large_mappings_and_many_roles_stay_fast() {
        let mut cfg = String::new();
        for i in 0..200 {
            cfg.push_str(&format!(
                "role{i}:\n  strategy_args:\n    strategy_name: vllm\n  device_mapping: list(range(0,16000))\n"
            ));
        }
        let t = std::time::Instant::now();
        let f = facts(&cfg);
        assert_eq!(one(&f, "config.devices_needed").1, "16000");
        assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
    }

    #[test]
    fn no_rlvr_group_size_no_batch_check() {
        let f = facts("rollout_batch_size: 1\nactor_train:\n  strategy_args:\n    strategy_name: fsdp2_train\n  device_mapping: list(range(0,8))\n");
        assert!(named(&f, "config.rollout_samples").is_empty() && named(&f, "config.dp_size").is_empty());
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,400}") {
            let _ = facts(&s);
        }

        #[test]
        fn never_panics_on_yamlish_input(s in "([a-z_]{1,12}:( [-\\[\\]{}0-9a-z_(),\"'$]{0,20})?\n {0,6}){0,30}") {
            let _ = facts(&format!("actor_train:\n  device_mapping: list(range(0,8))\n{s}"));
        }
    }
}
