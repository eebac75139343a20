//! A small YAML document tree with line numbers, built from `saphyr-parser`
//! events.
//!
//! Why not serde: a ROLL config is checked *as written* — we must know that
//! `device_mapping: [0,1,2,3]` was a YAML list and not a string, that
//! `HCCL_CONNECT_TIMEOUT: 3600` was an unquoted integer, and on which line
//! each key sits. Scalars therefore stay text plus their quoting style, and
//! are resolved on demand the way ROLL's loader (PyYAML via OmegaConf, YAML
//! 1.1 rules) would resolve them.
//!
//! The builder is iterative (no recursion, so deep nesting cannot overflow
//! the stack) and never expands aliases (so alias bombs cannot blow up).

use saphyr_parser::{Event, Parser, ScalarStyle};
use std::collections::HashMap;

/// A node with the position where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// What the node holds.
    pub value: Value,
    /// 1-based line within the parsed text.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// For a large mapping, where each key first appears.
    index: KeyIndex,
}

/// Mappings with more entries than this get a [`KeyIndex`].
const INDEXED: usize = 32;

/// Where each key of a large mapping first appears, so [`Node::get`] is not
/// a linear search: a config whose 100,000 keys each interpolate the one
/// before would otherwise take quadratic time to resolve. Derived from the
/// entries, so it never changes whether two nodes are equal.
// Boxed: a node that is not a large mapping pays one pointer, not a map.
#[allow(clippy::box_collection)]
#[derive(Clone, Default)]
struct KeyIndex(Option<Box<HashMap<Box<str>, u32>>>);

impl KeyIndex {
    fn of(entries: &[(Node, Node)]) -> KeyIndex {
        if entries.len() <= INDEXED {
            return KeyIndex(None);
        }
        let mut map: HashMap<Box<str>, u32> = HashMap::with_capacity(entries.len());
        for (i, (k, _)) in entries.iter().enumerate() {
            if let Some(key) = k.as_str() {
                map.entry(key.into()).or_insert(i as u32);
            }
        }
        KeyIndex(Some(Box::new(map)))
    }
}

impl PartialEq for KeyIndex {
    fn eq(&self, _: &KeyIndex) -> bool {
        true
    }
}

impl std::fmt::Debug for KeyIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeyIndex")
    }
}

/// A YAML value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A mapping, in document order.
    Map(Vec<(Node, Node)>),
    /// A sequence.
    Seq(Vec<Node>),
    /// A scalar as written.
    Scalar {
        /// The scalar's text (after YAML unescaping).
        text: String,
        /// False for plain scalars, true for quoted or block scalars.
        quoted: bool,
    },
    /// An alias (`*name`); never expanded.
    Alias,
}

/// A parse failure with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// The parser's message.
    pub message: String,
}

impl Node {
    /// A node of `value` at `line`, `col`.
    pub fn new(value: Value, line: u32, col: u32) -> Node {
        let index = match &value {
            Value::Map(entries) => KeyIndex::of(entries),
            _ => KeyIndex(None),
        };
        Node { value, line, col, index }
    }

    /// The value of `key` when this node is a mapping (its first entry
    /// with that key).
    pub fn get(&self, key: &str) -> Option<&Node> {
        match (&self.value, &self.index.0) {
            (Value::Map(entries), Some(index)) => index.get(key).and_then(|&i| entries.get(i as usize)).map(|(_, v)| v),
            (Value::Map(entries), None) => entries.iter().find(|(k, _)| k.as_str() == Some(key)).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The mapping's entries (empty for other nodes).
    pub fn entries(&self) -> &[(Node, Node)] {
        match &self.value {
            Value::Map(e) => e,
            _ => &[],
        }
    }

    /// The scalar's text, for any scalar.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    /// True for a plain (unquoted) scalar.
    pub fn is_plain(&self) -> bool {
        matches!(self.value, Value::Scalar { quoted: false, .. })
    }

    /// The YAML 1.1 type a plain scalar resolves to, as PyYAML would:
    /// `null`, `bool`, `int`, `float` or `str`. Collections give `map`/`seq`.
    pub fn type_name(&self) -> &'static str {
        match &self.value {
            Value::Map(_) => "map",
            Value::Seq(_) => "seq",
            Value::Alias => "alias",
            Value::Scalar { quoted: true, .. } => "str",
            Value::Scalar { text, quoted: false } => resolve_plain(text),
        }
    }

    /// The integer a plain scalar resolves to.
    pub fn as_int(&self) -> Option<i64> {
        match &self.value {
            Value::Scalar { text, quoted: false } if resolve_plain(text) == "int" => parse_int(text),
            _ => None,
        }
    }
}

/// Resolves a plain scalar's type with YAML 1.1 rules (PyYAML's SafeLoader,
/// which OmegaConf uses).
pub fn resolve_plain(t: &str) -> &'static str {
    match t {
        "" | "~" | "null" | "Null" | "NULL" => return "null",
        "yes" | "Yes" | "YES" | "no" | "No" | "NO" | "true" | "True" | "TRUE" | "false" | "False" | "FALSE" | "on"
        | "On" | "ON" | "off" | "Off" | "OFF" => return "bool",
        _ => {}
    }
    if parse_int(t).is_some() {
        return "int";
    }
    let f = t.trim_start_matches(['-', '+']).replace('_', "");
    let is_float = (f.contains('.') || f.contains(['e', 'E']))
        && f.chars().next().is_some_and(|c| c.is_ascii_digit() || c == '.')
        && f.parse::<f64>().is_ok()
        || matches!(f.as_str(), ".inf" | ".Inf" | ".INF" | ".nan" | ".NaN" | ".NAN");
    if is_float {
        "float"
    } else {
        "str"
    }
}

fn parse_int(t: &str) -> Option<i64> {
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let body = body.replace('_', "");
    if body.is_empty() {
        return None;
    }
    let v = if let Some(h) = body.strip_prefix("0x") {
        i64::from_str_radix(h, 16).ok()?
    } else if body.chars().all(|c| c.is_ascii_digit()) {
        body.parse::<i64>().ok()?
    } else {
        return None;
    };
    Some(if neg { -v } else { v })
}

enum Frame {
    Map { line: u32, col: u32, entries: Vec<(Node, Node)>, key: Option<Node> },
    Seq { line: u32, col: u32, items: Vec<Node> },
}

/// Deepest nesting of collections accepted. Real configs stay under ten
/// levels; the limit keeps recursive `Drop`/`Clone` of the tree (and any
/// recursive walk of it) far from the stack's end.
pub const MAX_DEPTH: usize = 256;

/// Parses the first document of `src`. An empty document gives `Ok(None)`.
/// Nesting deeper than [`MAX_DEPTH`] is reported as an error.
pub fn parse(src: &str) -> Result<Option<Node>, YamlError> {
    let mut parser = Parser::new_from_str(src);
    let mut stack: Vec<Frame> = Vec::new();
    let mut root: Option<Node> = None;
    while let Some(ev) = parser.next_event() {
        let (event, span) = ev.map_err(|e| YamlError {
            line: e.marker().line() as u32,
            col: e.marker().col() as u32 + 1,
            message: e.info().to_string(),
        })?;
        let line = span.start.line() as u32;
        let col = span.start.col() as u32 + 1;
        let done: Option<Node> = match event {
            Event::MappingStart(..) | Event::SequenceStart(..) if stack.len() >= MAX_DEPTH => {
                return Err(YamlError { line, col, message: format!("nesting deeper than {MAX_DEPTH} levels") });
            }
            Event::MappingStart(..) => {
                stack.push(Frame::Map { line, col, entries: Vec::new(), key: None });
                None
            }
            Event::SequenceStart(..) => {
                stack.push(Frame::Seq { line, col, items: Vec::new() });
                None
            }
            Event::MappingEnd | Event::SequenceEnd => match stack.pop() {
                Some(Frame::Map { line, col, entries, .. }) => Some(Node::new(Value::Map(entries), line, col)),
                Some(Frame::Seq { line, col, items }) => Some(Node::new(Value::Seq(items), line, col)),
                None => None,
            },
            Event::Scalar(text, style, ..) => Some(Node::new(
                Value::Scalar { text: text.into_owned(), quoted: !matches!(style, ScalarStyle::Plain) },
                line,
                col,
            )),
            Event::Alias(_) => Some(Node::new(Value::Alias, line, col)),
            Event::DocumentEnd => {
                if root.is_some() {
                    break;
                }
                None
            }
            _ => None,
        };
        if let Some(node) = done {
            match stack.last_mut() {
                Some(Frame::Map { entries, key, .. }) => match key.take() {
                    None => *key = Some(node),
                    Some(k) => entries.push((k, node)),
                },
                Some(Frame::Seq { items, .. }) => items.push(node),
                None => {
                    root = Some(node);
                }
            }
        }
    }
    Ok(root)
}

/// Converts a YAML tree into JSON so serde can check it (rule files, the
/// CANN code table).
/// Plain scalars are resolved (ints, floats, bools, null); quoted and block
/// scalars stay strings.
pub fn to_json(node: &Node) -> serde_json::Value {
    use serde_json::Value as J;
    match &node.value {
        Value::Map(entries) => {
            J::Object(entries.iter().map(|(k, v)| (k.as_str().unwrap_or("").to_string(), to_json(v))).collect())
        }
        Value::Seq(items) => J::Array(items.iter().map(to_json).collect()),
        Value::Alias => J::Null,
        Value::Scalar { text, quoted: true } => J::String(text.clone()),
        Value::Scalar { text, quoted: false } => match node.type_name() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_types() {
        let doc =
            parse("a:\n  b: list(range(0,8))\n  c: [0, 1]\n  d: \"3600\"\n  e: 3600\n  f: yes\n").unwrap().unwrap();
        let a = doc.get("a").unwrap();
        assert_eq!(a.get("b").unwrap().line, 2);
        assert_eq!(a.get("c").unwrap().type_name(), "seq");
        assert_eq!(a.get("d").unwrap().type_name(), "str");
        assert_eq!(a.get("e").unwrap().as_int(), Some(3600));
        assert_eq!(a.get("f").unwrap().type_name(), "bool");
        assert_eq!(a.get("b").unwrap().col, 6);
    }

    #[test]
    fn errors_have_positions() {
        let e = parse("a:\n  b: [1, 2\nc: d\n").unwrap_err();
        assert!(e.line >= 2, "{e:?}");
    }

    #[test]
    fn aliases_are_not_expanded() {
        let doc = parse("a: &x [1,2]\nb: *x\n").unwrap().unwrap();
        assert_eq!(doc.get("b").unwrap().value, Value::Alias);
    }

    #[test]
    fn deep_nesting_and_odd_input_do_not_panic() {
        for src in [
            "[".repeat(100_000),
            "{a: ".repeat(50_000),
            "- ".repeat(50_000),
            format!("{}x", "  ".repeat(10_000)),
            "a: &x [1]\nb: *x\nc: *y\n".to_string(),
            "\u{feff}a: 1\n".to_string(),
            "a: 1\n---\nb: 2\n".to_string(),
            "\t- x\n".to_string(),
        ] {
            let _ = parse(&src);
        }
        assert!(parse(&"- ".repeat(MAX_DEPTH + 1)).is_err());
        assert!(parse(&"- ".repeat(MAX_DEPTH - 1)).is_ok());
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,300}") {
            let _ = parse(&s);
        }

        #[test]
        fn never_panics_on_yaml_punctuation(s in "[-:\\[\\]{},&*!|>'\"%@` #\n\ta-z0-9]{0,200}") {
            let _ = parse(&s);
        }
    }

    #[test]
    fn large_mappings_find_the_first_entry_of_a_key() {
        let mut src = String::new();
        for i in 0..100 {
            src.push_str(&format!("k{i}: {i}\n"));
        }
        src.push_str("k7: again\n");
        let doc = parse(&src).unwrap().unwrap();
        assert!(doc.index.0.is_some());
        assert_eq!(doc.get("k7").unwrap().as_int(), Some(7));
        assert_eq!(doc.get("k99").unwrap().line, 100);
        assert!(doc.get("k100").is_none());
        let small = parse("a: 1\na: 2\n").unwrap().unwrap();
        assert_eq!(small.get("a").unwrap().as_int(), Some(1));
    }

    #[test]
    fn empty_is_none() {
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(parse("# just a comment\n").unwrap(), None);
    }
}
