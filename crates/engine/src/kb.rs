//! The operator's own knowledge base: Huawei's `ascend-fd` fault
//! diagnosis tool ships `kg-config.json`, a list of fault codes with the
//! keywords that reveal them and a cause, description and suggestions in
//! Chinese and English. Clusters often have it installed; a user loads it
//! at run time (`roll-doctor diagnose --kb kg-config.json`, a file dropped
//! on the page) and its entries are matched in the same single scan as the
//! rules, after them, and reported as their own group with its attribution.
//!
//! The file's shape (`knowledge-repository` → code → entry):
//!
//! ```json
//! { "attribute": { "class": "Software", "component": "CANN", "module": "HCCL",
//!                  "cause_en": "…", "cause_zh": "…", "description_en": "…", "description_zh": "…",
//!                  "suggestion_en": ["1. …"], "suggestion_zh": ["1. …"] },
//!   "source_file": "TrainLog",
//!   "regex": { "in": [["EI0006", "Getting socket times out", "Reason:"], ["get socket timeout"]] } }
//! ```
//!
//! As ascend-fd reads it: `in` is one list of keywords, or a list of such
//! lists (any list may match); a list matches a line holding its keywords in
//! that order. `regex` is a pattern searched in the line. Entries whose
//! pattern this engine cannot run (multi-line `opt` groups, look-around)
//! are counted and skipped, never guessed at.
//!
//! An entry that misfires on healthy output is demoted to `info`
//! ([`DEMOTED`], measured on the healthy fixtures): the knowledge base
//! must not raise errors on a healthy paste.

use crate::rules::{Area, Cond, Examples, Fix, Rule, Scope, Severity};
use crate::text::Text;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Codes whose keywords also occur in healthy output (measured on the
/// healthy fixtures: `tests/kb.rs`); their findings are `info`.
pub const DEMOTED: &[&str] = &[
    // "CAUTION: The operator … will fall back to run on the CPU": a warning
    // every healthy vLLM-Ascend start-up prints (tests/fixtures/healthy--vllm-startup-log.txt).
    "AISW_PyTorch_Train_16",
    // AMCT's "the quantization layer or operator type is not supported", keyed
    // on `does not support` alone: sglang's check_env prints "This device does
    // not support querying topo." on a healthy 910B node (tests/real/healthy--sglang-33967.txt).
    "AISW_CANN_AMCT_ALL_012",
    // Device OOM keyed on a bare `out of memory`: vLLM's advice when it captures graphs ("CUDA graphs
    // can take additional 1~3 GiB memory per GPU. If you are running out of memory, consider …")
    // is in every healthy start-up with graphs (tests/real/healthy--templates-batch-llm-vllm-metrics.txt).
    // A real out-of-memory is the npu-oom rule's.
    "AISW_Framework_Custom_01",
];

/// Where a finding from the knowledge base comes from, as shown to users.
pub const ATTRIBUTION: &str = "ascend-fd kg-config.json";

#[derive(Deserialize)]
struct File {
    #[serde(rename = "knowledge-repository")]
    repository: BTreeMap<String, Entry>,
}

#[derive(Deserialize)]
struct Attribute {
    #[serde(default)]
    class: String,
    #[serde(default)]
    component: String,
    #[serde(default)]
    module: String,
    #[serde(default)]
    cause_en: String,
    #[serde(default)]
    cause_zh: String,
    #[serde(default)]
    description_en: String,
    #[serde(default)]
    description_zh: String,
    #[serde(default)]
    suggestion_en: Vec<String>,
    #[serde(default)]
    suggestion_zh: Vec<String>,
}

#[derive(Deserialize)]
struct Entry {
    attribute: Attribute,
    #[serde(default)]
    regex: serde_json::Value,
}

/// A loaded knowledge base: its entries as rules, and what was skipped.
#[derive(Debug, Default)]
pub struct KnowledgeBase {
    /// The entries this engine can match, as rules (`kb:` ids, `origin` set).
    pub rules: Vec<Rule>,
    /// Entries skipped, with why (multi-line patterns, look-around, no pattern).
    pub skipped: Vec<(String, String)>,
}

/// Why a knowledge-base file could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KbError(pub String);

impl std::fmt::Display for KbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not an ascend-fd knowledge base (kg-config.json): {}", self.0)
    }
}

/// Largest knowledge base accepted (the real one is 1.3 MB).
pub const MAX_BYTES: usize = 32 << 20;

/// The pattern of one ordered keyword list: `k1.*k2.*k3`, literally.
fn keywords(list: &[serde_json::Value]) -> Option<String> {
    let words: Vec<String> = list.iter().map(|k| k.as_str().map(regex::escape)).collect::<Option<_>>()?;
    (!words.is_empty() && words.iter().any(|w| !w.trim().is_empty())).then(|| words.join(".*"))
}

/// The entry's line pattern, in the engine's dialect, or why there is none.
fn pattern_of(regex: &serde_json::Value) -> Result<String, String> {
    use serde_json::Value as J;
    let mut alternatives = Vec::new();
    if let Some(J::Array(list)) = regex.get("in") {
        if list.iter().all(J::is_string) {
            alternatives.extend(keywords(list));
        } else {
            for group in list {
                match group {
                    J::Array(g) => alternatives.extend(keywords(g)),
                    J::String(s) => alternatives.push(regex::escape(s)),
                    _ => {}
                }
            }
        }
    }
    if let Some(J::String(re)) = regex.get("regex") {
        alternatives.push(format!("(?:{re})"));
    }
    if alternatives.is_empty() {
        return Err(if regex.get("opt").is_some() { "multi-line pattern" } else { "no pattern" }.into());
    }
    let p = alternatives.iter().map(|a| format!("(?:{a})")).collect::<Vec<_>>().join("|");
    crate::pattern::compile(&p).map(|_| p).map_err(|e| e.lines().last().unwrap_or("does not compile").to_string())
}

fn area_of(a: &Attribute) -> Area {
    let all = format!("{} {} {}", a.component, a.module, a.class).to_ascii_lowercase();
    if all.contains("hccl") || all.contains("network") || all.contains("roce") || all.contains("switch") {
        Area::Hccl
    } else if all.contains("npu") || all.contains("hardware") {
        Area::Npu
    } else if all.contains("cann") || all.contains("os") || all.contains("driver") {
        Area::Env
    } else {
        Area::Other
    }
}

fn text(en: &str, zh: &str) -> Text {
    Text::new(en.trim(), zh.trim())
}

/// Reads `kg-config.json`. Entries this engine cannot match are skipped
/// and listed; a file that is not a knowledge base at all is an error.
pub fn load(json: &str) -> Result<KnowledgeBase, KbError> {
    if json.len() > MAX_BYTES {
        return Err(KbError(format!("{} bytes; the limit is {MAX_BYTES}", json.len())));
    }
    let file: File = serde_json::from_str(json).map_err(|e| KbError(e.to_string()))?;
    let mut kb = KnowledgeBase::default();
    for (code, e) in file.repository {
        let p = match pattern_of(&e.regex) {
            Ok(p) => p,
            Err(why) => {
                kb.skipped.push((code, why));
                continue;
            }
        };
        let a = &e.attribute;
        if a.cause_en.trim().is_empty() && a.cause_zh.trim().is_empty() {
            kb.skipped.push((code, "no cause".into()));
            continue;
        }
        let suggestions: Vec<Fix> = a
            .suggestion_en
            .iter()
            .zip(a.suggestion_zh.iter().chain(std::iter::repeat(&String::new())))
            .map(|(en, zh)| Fix { title: text(en, zh), commands: Vec::new(), yaml: None })
            .collect();
        let severity = if DEMOTED.contains(&code.as_str()) { Severity::Info } else { Severity::Warn };
        kb.rules.push(Rule {
            id: format!("kb:{code}"),
            severity,
            area: area_of(a),
            scope: Scope::Node,
            title: text(&a.cause_en, &a.cause_zh),
            summary: text(&a.description_en, &a.description_zh),
            when: Cond { signature: Some(p), ..Cond::default() },
            weak: None,
            outranks: Vec::new(),
            codes: Vec::new(),
            steps: Vec::new(),
            fixes: suggestions,
            examples: Examples::default(),
            example_codes: Vec::new(),
            sources: vec![format!("{ATTRIBUTION} {code}")],
            origin: Some(ATTRIBUTION.to_string()),
        });
    }
    Ok(kb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_groups_regex_and_unsupported() {
        let json = r#"{"knowledge-repository": {
            "A": {"attribute": {"cause_en": "Socket timeout", "cause_zh": "建链超时"}, "regex": {"in": [["EI0006", "Getting socket times out"], ["get socket timeout"]]}},
            "B": {"attribute": {"cause_en": "Code", "cause_zh": "错误码"}, "regex": {"regex": "[EWI][A-Z0-9][0-9]{4}[):]"}},
            "C": {"attribute": {"cause_en": "Multi", "cause_zh": "多行"}, "regex": {"opt": [{"all": [["a"], ["b"]]}]}},
            "D": {"attribute": {"cause_en": "Look", "cause_zh": "环视"}, "regex": {"regex": "(?<=x)y"}},
            "E": {"attribute": {"cause_en": "Flat", "cause_zh": "平铺"}, "regex": {"in": ["FileNotFoundError", "No such file"]}}
        }}"#;
        let kb = load(json).unwrap();
        let ids: Vec<&str> = kb.rules.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["kb:A", "kb:B", "kb:E"]);
        assert_eq!(kb.skipped.iter().map(|(c, _)| c.as_str()).collect::<Vec<_>>(), ["C", "D"]);
        let re = crate::pattern::compile(kb.rules[0].when.signature.as_deref().unwrap()).unwrap();
        assert!(re.is_match(b"EI0006: [PID: 1] Getting socket times out."));
        assert!(!re.is_match(b"Getting socket times out EI0006"), "keywords in order");
        let flat = crate::pattern::compile(kb.rules[2].when.signature.as_deref().unwrap()).unwrap();
        assert!(flat.is_match(b"FileNotFoundError: [Errno 2] No such file or directory"));
        assert!(!flat.is_match(b"No such file or directory"));
    }

    #[test]
    fn not_a_knowledge_base() {
        assert!(load("{}").is_err());
        assert!(load("[1, 2]").is_err());
        assert!(load("not json").is_err());
    }
}
