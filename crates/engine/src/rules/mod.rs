//! Stage 5: rules — data, loaded from the YAML files under `rules/`.
//!
//! A rule says when it fires (`when`: an expression over log signatures and
//! facts), what it means (bilingual title and summary), how to confirm it
//! (`steps`, the decision tree's checks in order) and how to fix it
//! (`fixes`). The files are embedded at compile time by `build.rs`; the
//! format is documented in `rules/README.md`.

use crate::text::Text;
use crate::yaml::{self, Node, Value as YValue};
use serde::{Deserialize, Serialize};

pub(crate) mod compile;
pub(crate) mod eval;

pub(crate) use compile::compile_rule;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The run fails.
    Error,
    /// Likely to fail, or slow.
    Warn,
    /// Advice or expected behaviour.
    Info,
}

/// A check of the decision tree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Stable id within the rule.
    pub id: String,
    /// What to check.
    pub title: Text,
    /// The command to run, verbatim and copyable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// What the output should look like and what each answer means.
    pub expect: Text,
    /// A fact name that answers this step when present in the input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_by: Option<String>,
    /// With `answered_by`: only facts about this subject answer the step
    /// (`ss.listen` about port 6379, `env.var` about `HCCL_SOCKET_IFNAME`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_subject: Option<String>,
    /// Answers the user can click instead of pasting the command's output
    /// (for users who cannot copy text off the cluster). Each adds facts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<AnswerOption>,
}

/// A clickable answer to a step, such as "all links up" or "some down".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerOption {
    /// Stable id within the step.
    pub id: String,
    /// What the user clicks.
    pub label: Text,
    /// Facts the answer stands for; the diagnosis is re-run with them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<AnswerFact>,
}

/// A fact an answer stands for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerFact {
    /// A registered fact name.
    pub fact: String,
    /// Its subject, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// Its value (string, number or boolean).
    pub value: serde_json::Value,
}

/// A fix: commands to copy, or a YAML edit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fix {
    /// What the fix does.
    pub title: Text,
    /// Shell commands, verbatim.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<String>,
    /// A YAML snippet to put in the ROLL config.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub yaml: Option<String>,
}

/// A rule file's examples, run by the rule-validation test (over the YAML:
/// the embedded rules leave them out, see [`Rule::example_codes`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Examples {
    /// Pastes on which the rule must fire.
    #[serde(rename = "match")]
    pub matches: Vec<String>,
    /// Pastes on which it must not.
    pub no_match: Vec<String>,
}

/// A condition as written in a rule file. Exactly one of `signature`,
/// `fact`, `all`, `any`, `not` is set; the tests and quantifiers go with
/// `fact`. The language is documented in `rules/README.md`; [`compile`]
/// type-checks it against the fact declarations.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cond {
    /// A pattern (see [`crate::pattern`]) matched against every scanned log line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// With `signature`: it must match at least this many lines (a wait
    /// message printed every second is normal once, a problem 60 times).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_count: Option<usize>,
    /// A declared fact name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fact: Option<String>,
    /// Only facts about this subject: a literal (`'6379'`), a list of them
    /// (`[torch, torch-npu]`), or `{ fact: NAME, subject: S }` for "the
    /// subject named by that fact's value".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<serde_json::Value>,
    /// The value equals this (a literal, or `{ fact: … }`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equals: Option<serde_json::Value>,
    /// The value differs from this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ne: Option<serde_json::Value>,
    /// The value is one of these literals.
    #[serde(default, rename = "in", skip_serializing_if = "Option::is_none")]
    pub one_of: Option<Vec<serde_json::Value>>,
    /// The value is none of these literals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_in: Option<Vec<serde_json::Value>>,
    /// Numeric value below this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lt: Option<serde_json::Value>,
    /// Numeric value at most this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub le: Option<serde_json::Value>,
    /// Numeric value above this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gt: Option<serde_json::Value>,
    /// Numeric value at least this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ge: Option<serde_json::Value>,
    /// Integer value is a multiple of this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub divisible_by: Option<serde_json::Value>,
    /// Integer value is not a multiple of this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_divisible_by: Option<serde_json::Value>,
    /// Text value matches this pattern.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches: Option<String>,
    /// Text value does not match this pattern.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_matches: Option<String>,
    /// True: holds when *no* such fact exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub absent: Option<bool>,
    /// True: every such fact passes the tests (and there is one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub every: Option<bool>,
    /// `true`: the facts that pass the tests do not all have the same value
    /// (card against card). `per_subject`: for some subject, its facts do
    /// not all have the same value (torch-npu on one node against another).
    /// Evidence: the odd ones out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub differs: Option<serde_json::Value>,
    /// True: some value is carried by two or more different subjects (or
    /// the same subject on different nodes), such as one device IP on two cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicate: Option<bool>,
    /// All of these hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all: Option<Vec<Cond>>,
    /// At least one holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub any: Option<Vec<Cond>>,
    /// This does not hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not: Option<Box<Cond>>,
}

/// The symptom area a rule belongs to (the "start from a symptom" picker
/// groups rules by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Area {
    /// HCCL and the NPU network.
    Hccl,
    /// The Ray cluster.
    Ray,
    /// NPU devices, drivers, containers.
    Npu,
    /// Software environment: CANN, Python packages, system limits.
    Env,
    /// The ROLL config.
    Config,
    /// Memory and speed.
    Perf,
    /// Anything else.
    Other,
}

impl Area {
    /// Every area, in the order the picker shows them.
    pub const ALL: [Area; 7] = [Area::Hccl, Area::Ray, Area::Npu, Area::Env, Area::Config, Area::Perf, Area::Other];
}

/// Which facts a rule's condition sees at once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Once per node, over that node's facts and the cluster-wide ones (a
    /// ROLL config, `ray status`): one node's `docker run` is never
    /// compared with another node's `npu-smi`.
    #[default]
    Node,
    /// Once over every node's facts: for rules that compare nodes.
    Cluster,
}

/// One rule, as written in its file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Stable kebab-case id, never reused.
    pub id: String,
    /// Severity of the finding.
    pub severity: Severity,
    /// The symptom area.
    pub area: Area,
    /// Node by node (the default) or across the cluster.
    #[serde(default)]
    pub scope: Scope,
    /// Short title.
    pub title: Text,
    /// What is wrong and why, in our own words.
    pub summary: Text,
    /// When the rule fires.
    pub when: Cond,
    /// Evidence that alone cannot tell this failure from a healthy state
    /// (an `npu-smi` table with busy cards: another process's memory, or
    /// the user's own running job). The rule fires on it too, but when only
    /// this holds the finding is shown at info level and explains nothing
    /// (`outranks` and `codes` do not apply): an ambiguous sign is not
    /// called a fault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weak: Option<Cond>,
    /// Ids this rule explains: when both fire, this one is the root cause.
    #[serde(default)]
    pub outranks: Vec<String>,
    /// CANN error codes this rule explains: when it fires, they are not
    /// listed again by the generic `cann-error-code` finding.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub codes: Vec<String>,
    /// The decision tree's checks, in order.
    #[serde(default)]
    pub steps: Vec<Step>,
    /// Fixes.
    #[serde(default)]
    pub fixes: Vec<Fix>,
    /// Examples for the validation test. Every rule file has them; the
    /// embedded rules do not carry them (build.rs leaves them out).
    #[serde(default)]
    pub examples: Examples,
    /// The error codes the `match` examples name, for the symptom search
    /// ([`crate::example_codes::codes_in`]): build.rs fills it for the embedded
    /// rules, the loader for a rule file, which may not write it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub example_codes: Vec<String>,
    /// Where the knowledge comes from (doc names, issue numbers).
    #[serde(default)]
    pub sources: Vec<String>,
    /// Set for rules that come from outside the product (an operator's
    /// knowledge base): the attribution shown with their findings. Rule
    /// files cannot set it.
    #[serde(skip)]
    pub origin: Option<String>,
}

impl Rule {
    /// Applies [`crate::text::tidy_zh`] to every Chinese text.
    fn tidy(&mut self) {
        let fix = |t: &mut Text| t.zh = crate::text::tidy_zh(&t.zh);
        fix(&mut self.title);
        fix(&mut self.summary);
        for s in &mut self.steps {
            fix(&mut s.title);
            fix(&mut s.expect);
            for a in &mut s.answers {
                fix(&mut a.label);
            }
        }
        for f in &mut self.fixes {
            fix(&mut f.title);
        }
    }
}

/// A rule-file problem found while loading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError {
    /// The file (a path under `rules/`, or the name a user gave an extra file).
    pub file: String,
    /// The line the problem is on, when known.
    pub line: Option<u32>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.file, l, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for RuleError {}

/// The line of the YAML node at a serde path such as `when.all[1].equals`
/// (the deepest node of the path that exists), so a load error can say
/// where to look.
pub(crate) fn line_of(root: &Node, path: &str) -> Option<u32> {
    let mut node = root;
    let mut line = Some(root.line);
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, indices) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            match node.entries().iter().find(|(k, _)| k.as_str() == Some(key)) {
                Some((k, v)) => {
                    line = Some(k.line);
                    node = v;
                }
                None => return line,
            }
        }
        for idx in indices.split('[').filter_map(|x| x.strip_suffix(']')) {
            let (Ok(i), YValue::Seq(items)) = (idx.parse::<usize>(), &node.value) else { return line };
            match items.get(i) {
                Some(n) => {
                    line = Some(n.line);
                    node = n;
                }
                None => return line,
            }
        }
    }
    line
}

/// A rule file read but not yet compiled, with its YAML tree for error lines.
pub(crate) struct Parsed {
    pub rule: Rule,
    pub tree: Node,
}

/// Parses one rule file (schema only; [`compile_rule`] type-checks it).
pub(crate) fn parse_rule_tree(file: &str, src: &str) -> Result<Parsed, RuleError> {
    let err = |line: Option<u32>, message: String| RuleError { file: file.to_string(), line, message };
    let tree = yaml::parse(src)
        .map_err(|e| err(Some(e.line), format!("column {}: {}", e.col, e.message)))?
        .ok_or_else(|| err(None, "empty file".into()))?;
    let json = yaml::to_json(&tree);
    // Only the embedded rules, which build.rs made, go without examples and
    // come with their codes.
    let has = |key: &str| json.as_object().is_some_and(|o| o.contains_key(key));
    let (has_examples, writes_codes) = (has("examples"), has("example_codes"));
    // serde_path_to_error names the field (`steps[2].expect.en`) so a rule
    // author knows where to look.
    let mut rule: Rule = serde_path_to_error::deserialize(json).map_err(|e| {
        let path = e.path().to_string();
        err(line_of(&tree, &path), format!("{path}: {}", e.inner()))
    })?;
    if !has_examples {
        return Err(err(Some(tree.line), "missing field `examples`".into()));
    }
    if writes_codes {
        return Err(err(
            line_of(&tree, "example_codes"),
            "example_codes: filled from the examples when the file loads; a rule file does not write it".into(),
        ));
    }
    for ex in &rule.examples.matches {
        crate::example_codes::codes_in(ex, &mut rule.example_codes);
    }
    rule.tidy();
    Ok(Parsed { rule, tree })
}

/// Reads an embedded rule file: the JSON that build.rs made of its YAML
/// tree. There is no tree to take line numbers from; a schema error still
/// names the field, and the test of the embedded rules catches it first.
pub(crate) fn parse_embedded_rule(file: &str, json: &str) -> Result<Parsed, RuleError> {
    let err = |message: String| RuleError { file: file.to_string(), line: None, message };
    // Through a `Value`, as a rule file from the user goes: one copy of the
    // rule schema's deserializer in the page instead of two. The direct path
    // from the text cost 10.8 KB of the offline page; this one costs about
    // 0.6 ms of a native startup (10.1 → 10.7 ms).
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| err(e.to_string()))?;
    let mut rule: Rule =
        serde_path_to_error::deserialize(value).map_err(|e| err(format!("{}: {}", e.path(), e.inner())))?;
    rule.tidy();
    Ok(Parsed { rule, tree: yaml::Node::new(yaml::Value::Alias, 1, 1) })
}

/// Parses one rule file.
pub fn parse_rule(file: &str, src: &str) -> Result<Rule, RuleError> {
    parse_rule_tree(file, src).map(|p| p.rule)
}
