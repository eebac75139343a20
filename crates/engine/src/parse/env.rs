//! `env / export / echo` output. (Stub: the parser issue fills this in.)

use super::FactSink;
use crate::segment::Segment;

/// Facts this parser produces.
pub const FACTS: &[(&str, &str)] = &[
    ("env.listing", "the segment is a full environment listing (`env`, `printenv`, `export -p`), so a variable missing from it is really unset (Bool true)"),
    ("env.var", "an environment variable; subject = its name, value = its value (Str); shared contract with the config checks"),
];

/// How much `seg` looks like this input when no command named it (0–100).
pub fn score(_seg: &Segment) -> u8 {
    0
}

/// Parses one segment.
pub fn parse(_seg: &Segment, _sink: &mut FactSink<'_>) {}
