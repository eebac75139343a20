//! Combiner stub: the parser issue fills this in.

use crate::facts::Fact;

/// Facts this combiner produces.
pub const FACTS: &[(&str, &str)] = &[];

/// Derives facts from the parsers' facts.
pub fn combine(_facts: &[Fact]) -> Vec<Fact> {
    Vec::new()
}
