//! Typed facts: what the parsers learned from structured input.
//!
//! A fact has a dotted name (`ulimit.nofile`), an optional subject (the role,
//! card or port it is about), a value and the line it came from. Rules read
//! facts by name; [`FACT_NAMES`] is the registry a rule may refer to, so a
//! typo in a rule file fails the rule-validation test instead of silently
//! never matching.

use serde::Serialize;

/// A fact's value.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum FactValue {
    /// A boolean.
    Bool(bool),
    /// An integer. `unlimited` limits are `i64::MAX`.
    Int(i64),
    /// A floating-point number.
    Float(f64),
    /// Text.
    Str(String),
}

impl FactValue {
    /// The value as a number, when it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            FactValue::Int(i) => Some(*i as f64),
            FactValue::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// A scalar JSON value (from a rule's answer or a share link) as a fact value.
    pub fn from_json(v: &serde_json::Value) -> Option<FactValue> {
        Some(match v {
            serde_json::Value::Bool(b) => FactValue::Bool(*b),
            serde_json::Value::Number(n) if n.is_i64() => FactValue::Int(n.as_i64()?),
            serde_json::Value::Number(n) => FactValue::Float(n.as_f64()?),
            serde_json::Value::String(s) => FactValue::Str(s.clone()),
            _ => return None,
        })
    }

    /// The value as text, as it would be printed.
    pub fn to_text(&self) -> String {
        match self {
            FactValue::Bool(b) => b.to_string(),
            FactValue::Int(i) if *i == i64::MAX => "unlimited".to_string(),
            FactValue::Int(i) => i.to_string(),
            FactValue::Float(f) => f.to_string(),
            FactValue::Str(s) => s.clone(),
        }
    }
}

/// One fact with the evidence it came from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fact {
    /// Registered name, see [`FACT_NAMES`].
    pub name: &'static str,
    /// What the fact is about (a role, an NPU id, a port), when it is about one thing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// The value.
    pub value: FactValue,
    /// 1-based line in the paste the fact was read from.
    pub line: u32,
    /// That line's text.
    pub text: String,
    /// Index of the segment it came from.
    pub segment: usize,
}

/// The registry of fact names: `(name, meaning)`. Each parser and
/// combiner module declares the facts it produces in its own `FACTS` list;
/// this chains them.
pub fn registry() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    crate::parse::FACT_LISTS.iter().chain(crate::parse::combine::COMBINER_FACT_LISTS).flat_map(|l| l.iter())
}

/// Looks a fact name up in the registry, returning its `'static` form.
pub fn registered(name: &str) -> Option<&'static str> {
    registry().find(|(n, _)| *n == name).map(|(n, _)| *n)
}
