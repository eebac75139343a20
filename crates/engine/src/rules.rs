//! Stage 5: rules — data, loaded from the YAML files under `rules/`.
//!
//! A rule says when it fires (`when`: an expression over log signatures and
//! facts), what it means (bilingual title and summary), how to confirm it
//! (`steps`, the decision tree's checks in order) and how to fix it
//! (`fixes`). The files are embedded at compile time by `build.rs`; the
//! format is documented in `rules/README.md`.

use crate::facts::{registered, Fact, FactValue};
use crate::signatures::{Hit, SignatureSet};
use crate::text::Text;
use crate::yaml::{self, Node, Value as YValue};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

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

/// Embedded examples, run by the rule-validation test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Examples {
    /// Pastes on which the rule must fire.
    #[serde(rename = "match")]
    pub matches: Vec<String>,
    /// Pastes on which it must not.
    pub no_match: Vec<String>,
}

/// A condition as written in a rule file. Exactly one of `signature`,
/// `fact`, `all`, `any`, `not` is set; comparison keys go with `fact`.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cond {
    /// A regex matched against every scanned log line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// With `signature`: it must match at least this many lines (a wait
    /// message printed every second is normal once, a problem 60 times).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_count: Option<usize>,
    /// A fact name (see `facts::FACT_NAMES`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fact: Option<String>,
    /// Only facts about this subject (a role, a card id, a variable name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// The fact's value equals this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equals: Option<serde_json::Value>,
    /// The fact's value differs from this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ne: Option<serde_json::Value>,
    /// The fact's value is one of these.
    #[serde(default, rename = "in", skip_serializing_if = "Option::is_none")]
    pub one_of: Option<Vec<serde_json::Value>>,
    /// Numeric fact below this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lt: Option<f64>,
    /// Numeric fact above this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gt: Option<f64>,
    /// Text fact matches this regex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches: Option<String>,
    /// True: the condition holds when *no* fact of this name exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub absent: Option<bool>,
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

/// One rule, as written in its file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Stable kebab-case id, never reused.
    pub id: String,
    /// Severity of the finding.
    pub severity: Severity,
    /// Short title.
    pub title: Text,
    /// What is wrong and why, in our own words.
    pub summary: Text,
    /// When the rule fires.
    pub when: Cond,
    /// Ids this rule explains: when both fire, this one is the root cause.
    #[serde(default)]
    pub outranks: Vec<String>,
    /// The decision tree's checks, in order.
    #[serde(default)]
    pub steps: Vec<Step>,
    /// Fixes.
    #[serde(default)]
    pub fixes: Vec<Fix>,
    /// Examples for the validation test.
    pub examples: Examples,
    /// Where the knowledge comes from (doc names, issue numbers).
    #[serde(default)]
    pub sources: Vec<String>,
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

/// A condition compiled against the signature set.
#[derive(Debug)]
pub(crate) enum Expr {
    Sig(usize, usize),
    Fact { name: &'static str, subject: Option<String>, test: FactTest },
    Absent { name: &'static str, subject: Option<String> },
    All(Vec<Expr>),
    Any(Vec<Expr>),
    Not(Box<Expr>),
}

#[derive(Debug)]
pub(crate) struct FactTest {
    equals: Option<serde_json::Value>,
    ne: Option<serde_json::Value>,
    one_of: Option<Vec<serde_json::Value>>,
    lt: Option<f64>,
    gt: Option<f64>,
    matches: Option<regex::Regex>,
}

fn json_eq(v: &FactValue, j: &serde_json::Value) -> bool {
    match (v, j) {
        (FactValue::Str(s), serde_json::Value::String(t)) => s == t,
        (FactValue::Bool(b), serde_json::Value::Bool(c)) => b == c,
        (FactValue::Int(i), serde_json::Value::Number(n)) => n.as_i64() == Some(*i),
        (FactValue::Float(f), serde_json::Value::Number(n)) => n.as_f64() == Some(*f),
        _ => false,
    }
}

impl FactTest {
    fn holds(&self, v: &FactValue) -> bool {
        if let Some(e) = &self.equals {
            if !json_eq(v, e) {
                return false;
            }
        }
        if let Some(n) = &self.ne {
            if json_eq(v, n) {
                return false;
            }
        }
        if let Some(list) = &self.one_of {
            if !list.iter().any(|j| json_eq(v, j)) {
                return false;
            }
        }
        if let Some(lt) = self.lt {
            if !v.as_f64().is_some_and(|x| x < lt) {
                return false;
            }
        }
        if let Some(gt) = self.gt {
            if !v.as_f64().is_some_and(|x| x > gt) {
                return false;
            }
        }
        if let Some(re) = &self.matches {
            if !re.is_match(&v.to_text()) {
                return false;
            }
        }
        true
    }
}

/// What made a condition true: signature hits and facts (by index).
#[derive(Debug, Default)]
pub(crate) struct Why {
    /// `(line key, signature)`; a line key is `input << 32 | line`.
    pub hits: BTreeSet<(u64, usize)>,
    pub facts: BTreeSet<usize>,
}

/// The input a rule is evaluated against.
pub(crate) struct Evidence<'a> {
    /// Line keys (`input << 32 | line`) grouped by signature index.
    pub hits_by_sig: Vec<Vec<u64>>,
    pub facts: &'a [Fact],
}

impl Expr {
    pub(crate) fn eval(&self, ev: &Evidence<'_>, why: &mut Why) -> bool {
        match self {
            Expr::Sig(i, min) => {
                let lines = &ev.hits_by_sig[*i];
                if lines.len() < (*min).max(1) {
                    return false;
                }
                for l in lines {
                    why.hits.insert((*l, *i));
                }
                true
            }
            Expr::Fact { name, subject, test } => {
                let mut any = false;
                for (i, f) in ev.facts.iter().enumerate() {
                    if f.name == *name && subject_ok(subject, f) && test.holds(&f.value) {
                        why.facts.insert(i);
                        any = true;
                    }
                }
                any
            }
            Expr::Absent { name, subject } => !ev.facts.iter().any(|f| f.name == *name && subject_ok(subject, f)),
            Expr::All(xs) => {
                let mut local = Why::default();
                if xs.iter().all(|x| x.eval(ev, &mut local)) {
                    why.hits.extend(local.hits);
                    why.facts.extend(local.facts);
                    true
                } else {
                    false
                }
            }
            Expr::Any(xs) => {
                let mut any = false;
                for x in xs {
                    any |= x.eval(ev, why);
                }
                any
            }
            Expr::Not(x) => !x.eval(ev, &mut Why::default()),
        }
    }
}

fn subject_ok(want: &Option<String>, f: &Fact) -> bool {
    match want {
        None => true,
        Some(s) => f.subject.as_deref() == Some(s.as_str()),
    }
}

/// A rule-file problem found while loading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError {
    /// The file under `rules/`.
    pub file: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rules/{}: {}", self.file, self.message)
    }
}

/// Converts a YAML tree into JSON so serde can check it against [`Rule`].
/// Plain scalars are resolved (ints, floats, bools, null); quoted and block
/// scalars stay strings.
fn to_json(node: &Node) -> serde_json::Value {
    use serde_json::Value as J;
    match &node.value {
        YValue::Map(entries) => {
            J::Object(entries.iter().map(|(k, v)| (k.as_str().unwrap_or("").to_string(), to_json(v))).collect())
        }
        YValue::Seq(items) => J::Array(items.iter().map(to_json).collect()),
        YValue::Alias => J::Null,
        YValue::Scalar { text, quoted: true } => J::String(text.clone()),
        YValue::Scalar { text, quoted: false } => match node.type_name() {
            "null" => J::Null,
            "bool" => {
                J::Bool(matches!(text.as_str(), "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON"))
            }
            "int" => node.as_int().map(J::from).unwrap_or(J::String(text.clone())),
            "float" => text
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(J::Number)
                .unwrap_or(J::String(text.clone())),
            _ => J::String(text.clone()),
        },
    }
}

/// Parses one rule file.
pub fn parse_rule(file: &str, src: &str) -> Result<Rule, RuleError> {
    let err = |message: String| RuleError { file: file.to_string(), message };
    let node = yaml::parse(src)
        .map_err(|e| err(format!("line {}, column {}: {}", e.line, e.col, e.message)))?
        .ok_or_else(|| err("empty file".into()))?;
    // serde_path_to_error names the field (`steps[2].expect.en`) so a rule
    // author knows where to look.
    let mut rule: Rule =
        serde_path_to_error::deserialize(to_json(&node)).map_err(|e| err(format!("{}: {}", e.path(), e.inner())))?;
    rule.tidy();
    Ok(rule)
}

/// Compiles a condition, collecting signature patterns into `patterns`.
pub(crate) fn compile(c: &Cond, patterns: &mut Vec<String>) -> Result<Expr, String> {
    let set = [c.signature.is_some(), c.fact.is_some(), c.all.is_some(), c.any.is_some(), c.not.is_some()]
        .iter()
        .filter(|b| **b)
        .count();
    if set != 1 {
        return Err("a condition needs exactly one of signature, fact, all, any, not".into());
    }
    let has_test = c.equals.is_some()
        || c.ne.is_some()
        || c.one_of.is_some()
        || c.lt.is_some()
        || c.gt.is_some()
        || c.matches.is_some();
    if c.signature.is_none() && c.min_count.is_some() {
        return Err("min_count only goes with signature".into());
    }
    if c.fact.is_none() && (has_test || c.absent.is_some() || c.subject.is_some()) {
        return Err("subject/equals/ne/in/lt/gt/matches/absent only go with fact".into());
    }
    if let Some(sig) = &c.signature {
        regex::Regex::new(sig).map_err(|e| format!("signature {sig:?}: {e}"))?;
        // Reuse the slot of an identical pattern: one scan per distinct pattern.
        let idx = match patterns.iter().position(|p| p == sig) {
            Some(i) => i,
            None => {
                patterns.push(sig.clone());
                patterns.len() - 1
            }
        };
        return Ok(Expr::Sig(idx, c.min_count.unwrap_or(1)));
    }
    if let Some(name) = &c.fact {
        let name = registered(name).ok_or_else(|| format!("unknown fact {name:?} (see facts::FACT_NAMES)"))?;
        if c.absent == Some(true) {
            if has_test {
                return Err("absent cannot be combined with a comparison".into());
            }
            return Ok(Expr::Absent { name, subject: c.subject.clone() });
        }
        let matches = match &c.matches {
            Some(m) => Some(regex::Regex::new(m).map_err(|e| format!("matches {m:?}: {e}"))?),
            None => None,
        };
        return Ok(Expr::Fact {
            name,
            subject: c.subject.clone(),
            test: FactTest {
                equals: c.equals.clone(),
                ne: c.ne.clone(),
                one_of: c.one_of.clone(),
                lt: c.lt,
                gt: c.gt,
                matches,
            },
        });
    }
    let list = |xs: &Vec<Cond>, patterns: &mut Vec<String>| -> Result<Vec<Expr>, String> {
        if xs.is_empty() {
            return Err("all/any needs at least one condition".into());
        }
        xs.iter().map(|x| compile(x, patterns)).collect()
    };
    if let Some(xs) = &c.all {
        return Ok(Expr::All(list(xs, patterns)?));
    }
    if let Some(xs) = &c.any {
        return Ok(Expr::Any(list(xs, patterns)?));
    }
    let inner = c.not.as_ref().expect("checked above");
    Ok(Expr::Not(Box::new(compile(inner, patterns)?)))
}

/// Groups hits of every input by signature index, as line keys.
pub(crate) fn group_hits(hits: &[(usize, Hit)], n: usize) -> Vec<Vec<u64>> {
    let mut by = vec![Vec::new(); n];
    for (input, h) in hits {
        by[h.signature].push(line_key(*input, h.line));
    }
    by
}

/// Packs an input index and a line number into one sortable key.
pub(crate) fn line_key(input: usize, line: u32) -> u64 {
    ((input as u64) << 32) | line as u64
}

/// Compiles all signatures into one set.
pub(crate) fn signature_set(patterns: &[String]) -> Result<SignatureSet, String> {
    SignatureSet::new(patterns).map_err(|(i, e)| format!("signature {i}: {e}"))
}
