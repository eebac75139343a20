//! `ray status` output. (Stub: the parser issue fills this in.)

use super::FactSink;
use crate::segment::Segment;

/// Facts this parser produces.
pub const FACTS: &[(&str, &str)] = &[
    ("ray.resource_total", "a resource total from `ray status`; subject = resource (NPU, CPU), value = Float"),
];

/// How much `seg` looks like this input when no command named it (0–100).
pub fn score(_seg: &Segment) -> u8 {
    0
}

/// Parses one segment.
pub fn parse(_seg: &Segment, _sink: &mut FactSink<'_>) {}
