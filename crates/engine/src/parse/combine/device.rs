//! Normalised versions and chip families, for rules to compare:
//!
//! - `pip.release` / `pip.minor`: an installed package's version as
//!   `major.minor.patch` and `major.minor` (`2.10.0.post4` → `2.10.0`,
//!   `2.10`), so `torch` and `torch-npu` (equal releases needed) and `vllm`
//!   and `vllm-ascend` (equal `major.minor`) compare as text;
//! - `soc.family`: the node type a `SOC_VERSION` (environment or `docker run
//!   -e`) names (`Ascend910B1` → `A2`, `Ascend910_9391` → `A3`), to compare
//!   with `npu.platform`.
//!
//! Each derived fact is on the line of the fact it rests on, of its node.

use super::def;
use crate::facts::{Fact, FactDef, FactValue, ValueType};

/// Facts this combiner produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("pip.release", ValueType::Str, Some("package"), "an installed package's version as major.minor.patch (Str, `2.10.0.post4` → `2.10.0`); subject = normalised name"),
    FactDef::new("pip.minor", ValueType::Str, Some("package"), "an installed package's version as major.minor (Str, `0.9.1rc1` → `0.9`); subject = normalised name"),
    FactDef::new("soc.family", ValueType::Str, Some("variable source"), "the node type a SOC_VERSION names (Str: A2, A3, 310P, 950); subject = `env` or `docker`"),
];

/// Leading `major.minor.patch` of a version (`2.10.0.post4` → [2, 10, 0],
/// `0.23.0rc1` → [0, 23, 0], `2.1` → [2, 1, 0]).
pub fn release(v: &str) -> Option<[u64; 3]> {
    let v = v.trim().trim_start_matches('v');
    let mut out = [0u64; 3];
    let mut n = 0;
    for part in v.split('.') {
        if n == 3 {
            break;
        }
        let digits: String = part.chars().take_while(|c| c.is_ascii_digit()).collect();
        if digits.is_empty() {
            break;
        }
        out[n] = digits.parse().ok()?;
        n += 1;
        if digits.len() != part.len() {
            break; // `0rc1`, `0+cpu`: the release ends here
        }
    }
    (n >= 2).then_some(out)
}

fn family_of_soc(soc: &str) -> Option<&'static str> {
    let s = soc.trim().trim_matches('"').to_ascii_lowercase();
    if s.starts_with("ascend910b") || s == "910b" {
        Some("A2")
    } else if s.starts_with("ascend910_93") || s == "910c" {
        Some("A3")
    } else if s.starts_with("ascend310p") || s == "310p" {
        Some("310P")
    } else if s.contains("ascend950") {
        Some("950")
    } else {
        None
    }
}

/// Derives facts from the parsers' facts.
pub fn combine(facts: &[Fact]) -> Vec<Fact> {
    let mut out = Vec::new();
    for f in facts.iter().filter(|f| f.name == "pip.package") {
        if let Some([a, b, c]) = release(&f.value.to_text()) {
            out.push(f.derive(def(FACTS, "pip.release"), f.subject.clone(), FactValue::Str(format!("{a}.{b}.{c}"))));
            out.push(f.derive(def(FACTS, "pip.minor"), f.subject.clone(), FactValue::Str(format!("{a}.{b}"))));
        }
    }
    for f in facts.iter().filter(|f| f.subject.as_deref() == Some("SOC_VERSION")) {
        let source = match f.name {
            "env.var" => "env",
            "docker.env" => "docker",
            _ => continue,
        };
        if let Some(fam) = family_of_soc(&f.value.to_text()) {
            out.push(f.derive(def(FACTS, "soc.family"), Some(source.into()), FactValue::Str(fam.into())));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::combine::fact;

    #[test]
    fn releases() {
        assert_eq!(release("2.10.0.post4"), Some([2, 10, 0]));
        assert_eq!(release("0.23.0rc1"), Some([0, 23, 0]));
        assert_eq!(release("0.23.0+empty"), Some([0, 23, 0]));
        assert_eq!(release("v0.9.1"), Some([0, 9, 1]));
        assert_eq!(release("2.1"), Some([2, 1, 0]));
        assert_eq!(release("abc"), None);
        assert_eq!(release("99999999999999999999999.1"), None);
    }

    #[test]
    fn versions_and_families_are_normalised() {
        let fs = vec![
            fact("pip.package", Some("torch-npu"), FactValue::Str("2.7.1.post2".into()), 3, 0),
            fact("env.var", Some("SOC_VERSION"), FactValue::Str("ascend910_9391".into()), 30, 2),
            fact("docker.env", Some("SOC_VERSION"), FactValue::Str("Ascend910B1".into()), 31, 3),
            fact("env.var", Some("SOC_VERSION"), FactValue::Str("Ascend310B4".into()), 32, 2),
        ];
        let got: Vec<_> = combine(&fs).into_iter().map(|f| (f.name, f.subject.unwrap(), f.value.to_text())).collect();
        assert_eq!(
            got,
            vec![
                ("pip.release", "torch-npu".into(), "2.7.1".into()),
                ("pip.minor", "torch-npu".into(), "2.7".into()),
                ("soc.family", "env".into(), "A3".into()),
                ("soc.family", "docker".into(), "A2".into()),
            ]
        );
    }
}
