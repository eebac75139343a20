//! Typed facts: what the parsers learned from structured input.
//!
//! A fact has a dotted name (`ulimit.nofile`), an optional subject (the role,
//! card or port it is about), a value, the node it describes, and where it
//! came from ([`Origin`]: a pasted line, or an answer the user clicked).
//!
//! Every fact name is declared once, with its value type and what its
//! subject means, as a [`FactDef`] next to the code that produces it (each
//! parser's and combiner's `FACTS`). [`crate::registry`] chains those
//! declarations; rule files are type-checked against them when they load,
//! so `equals: "1024"` against an integer fact is a load error, not a rule
//! that silently never fires.

use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The type of a fact's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueType {
    /// `true` / `false`.
    Bool,
    /// A whole number.
    Int,
    /// A number with a fraction.
    Float,
    /// Text.
    Str,
}

impl ValueType {
    /// Whether values of this type compare as numbers.
    pub fn is_numeric(self) -> bool {
        matches!(self, ValueType::Int | ValueType::Float)
    }

    /// The name rule authors see (`int`, `str`, …).
    pub fn name(self) -> &'static str {
        match self {
            ValueType::Bool => "bool",
            ValueType::Int => "int",
            ValueType::Float => "float",
            ValueType::Str => "str",
        }
    }
}

/// The declaration of one fact name: the contract between the code that
/// produces the fact and the rules that read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FactDef {
    /// Dotted name, `<area>.<what>`.
    pub name: &'static str,
    /// Type of the value.
    pub ty: ValueType,
    /// What the subject is (`card id`, `role`, `port`), or `None` when the
    /// fact is about the node (or the config) as a whole.
    pub subject: Option<&'static str>,
    /// One line: what the fact means and where it comes from.
    pub doc: &'static str,
}

impl FactDef {
    /// A declaration (const, so each module can keep its list in a `const`).
    pub const fn new(name: &'static str, ty: ValueType, subject: Option<&'static str>, doc: &'static str) -> FactDef {
        FactDef { name, ty, subject, doc }
    }
}

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

    /// The value as a number, reading text that is a number (`"4"`, `" 8 "`)
    /// too: environment variables are text even when they hold a count.
    pub fn as_number(&self) -> Option<f64> {
        match self {
            FactValue::Str(s) => s.trim().trim_matches('"').trim_matches('\'').parse::<f64>().ok(),
            v => v.as_f64(),
        }
    }

    /// The value's type.
    pub fn ty(&self) -> ValueType {
        match self {
            FactValue::Bool(_) => ValueType::Bool,
            FactValue::Int(_) => ValueType::Int,
            FactValue::Float(_) => ValueType::Float,
            FactValue::Str(_) => ValueType::Str,
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

    /// A JSON value as a value of type `ty`: an integer literal is a valid
    /// float, nothing else converts.
    pub fn from_json_as(v: &serde_json::Value, ty: ValueType) -> Option<FactValue> {
        match (ty, FactValue::from_json(v)?) {
            (ValueType::Float, FactValue::Int(i)) => Some(FactValue::Float(i as f64)),
            (ty, v) if v.ty() == ty => Some(v),
            _ => None,
        }
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

/// A line of the user's input: which input (paste or file) and which line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct LineRef {
    /// Index of the input.
    pub input: u32,
    /// 1-based line number in that input.
    pub line: u32,
}

/// The answer a user clicked: rule, step and answer ids.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct AnswerRef {
    /// Rule id.
    pub rule: String,
    /// Step id within the rule.
    pub step: String,
    /// Answer id within the step.
    pub answer: String,
}

/// Where a fact came from.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "from", rename_all = "lowercase")]
pub enum Origin {
    /// Read from a line the user pasted (or from a fact that was; combiners
    /// cite the line of the fact they rest on).
    Line {
        /// The line.
        at: LineRef,
        /// Index of the segment it belongs to.
        segment: u32,
        /// The line's text, shared by the facts read from one line (an
        /// `npu-smi` row gives several; a fact-dense paste held a copy each).
        text: Arc<str>,
    },
    /// Stands for an answer the user clicked in a decision tree (boxed: it
    /// is rare, and every fact is as large as the largest origin).
    Answer(Box<AnswerRef>),
}

/// Index of a node (a machine of the cluster) in [`crate::diagnose::Collected::nodes`].
pub type NodeId = u32;

/// One fact with the evidence it came from. Serialised flat, as the v1
/// report schema has it: `name`, `subject`, `value`, `line`, `text`,
/// `segment`, and `input`, `node` or `answer` where they apply.
#[derive(Clone, Debug, PartialEq)]
pub struct Fact {
    /// Declared name (see [`crate::registry`]).
    pub name: &'static str,
    /// What the fact is about (a role, an NPU id, a port), when it is about one thing.
    pub subject: Option<String>,
    /// The value.
    pub value: FactValue,
    /// The node it describes; `None` for cluster-wide inputs (a ROLL config,
    /// `ray status`) and for pastes that do not say which node they are.
    pub node: Option<NodeId>,
    /// Where it came from.
    pub origin: Origin,
}

impl Serialize for Fact {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("name", self.name)?;
        if let Some(subject) = &self.subject {
            m.serialize_entry("subject", subject)?;
        }
        m.serialize_entry("value", &self.value)?;
        match &self.origin {
            Origin::Line { at, segment, text } => {
                m.serialize_entry("line", &at.line)?;
                m.serialize_entry("text", &**text)?;
                m.serialize_entry("segment", segment)?;
                m.serialize_entry("input", &at.input)?;
            }
            Origin::Answer(a) => {
                m.serialize_entry("line", &0)?;
                m.serialize_entry("text", "")?;
                m.serialize_entry("answer", a)?;
            }
        }
        if let Some(node) = self.node {
            m.serialize_entry("node", &node)?;
        }
        m.end()
    }
}

impl Fact {
    /// The pasted line it was read from, if any.
    pub fn line_ref(&self) -> Option<LineRef> {
        match &self.origin {
            Origin::Line { at, .. } => Some(*at),
            Origin::Answer(_) => None,
        }
    }

    /// The pasted line's number (0 for answers).
    pub fn line(&self) -> u32 {
        self.line_ref().map(|l| l.line).unwrap_or(0)
    }

    /// The segment it was read from, if any.
    pub fn segment(&self) -> Option<u32> {
        match &self.origin {
            Origin::Line { segment, .. } => Some(*segment),
            Origin::Answer(_) => None,
        }
    }

    /// The line's text (empty for answers).
    pub fn text(&self) -> &str {
        match &self.origin {
            Origin::Line { text, .. } => text,
            Origin::Answer(_) => "",
        }
    }

    /// A fact read from the same line as `self`, of the same node: what a
    /// combiner emits when it derives one fact from another.
    pub fn derive(&self, def: &'static FactDef, subject: Option<String>, value: FactValue) -> Fact {
        debug_assert_eq!(def.ty, value.ty(), "{} is declared {:?}", def.name, def.ty);
        Fact { name: def.name, subject, value, node: self.node, origin: self.origin.clone() }
    }
}
