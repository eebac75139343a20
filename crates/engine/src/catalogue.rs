//! The embedded rule catalogue, loaded and compiled once.

use crate::rules::{compile, parse_rule, signature_set, Expr, Rule, RuleError};
use crate::signatures::SignatureSet;
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/rule_files.rs"));

/// All rules with their compiled conditions and the shared signature set.
#[derive(Debug)]
pub struct Catalogue {
    /// The rules, in file order.
    pub rules: Vec<Rule>,
    pub(crate) exprs: Vec<Expr>,
    /// Every signature of every rule, compiled once, plus (last) the
    /// failure-like pattern of [`crate::unexplained`].
    pub signatures: SignatureSet,
    /// Index of the failure-like pattern in `signatures`.
    pub unexplained_signature: usize,
    /// Files that failed to load. Always empty in a tested build; kept so a
    /// bad rule file degrades to a missing rule instead of a crash.
    pub errors: Vec<RuleError>,
}

/// The version of the rule pack: the number of rules and a checksum of
/// their files, so a share link can tell it was made with other rules.
pub fn pack_version() -> String {
    // FNV-1a over file names and contents: stable across platforms.
    let mut h: u64 = 0xcbf29ce484222325;
    for (name, src) in RULE_FILES {
        for b in name.bytes().chain(src.bytes()) {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    format!("{}-{:08x}", RULE_FILES.len(), h as u32)
}

/// The embedded rule files, `(path under rules/, contents)`.
pub fn rule_files() -> &'static [(&'static str, &'static str)] {
    RULE_FILES
}

impl Catalogue {
    /// Loads rules from `(file, source)` pairs.
    pub fn load(files: &[(&str, &str)]) -> Catalogue {
        let mut rules = Vec::new();
        let mut exprs = Vec::new();
        let mut patterns = Vec::new();
        let mut errors = Vec::new();
        for (file, src) in files {
            let rule = match parse_rule(file, src) {
                Ok(r) => r,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            let mut local = patterns.clone();
            match compile(&rule.when, &mut local) {
                Ok(expr) => {
                    patterns = local;
                    exprs.push(expr);
                    rules.push(rule);
                }
                Err(message) => errors.push(RuleError { file: file.to_string(), message }),
            }
        }
        let unexplained_signature = patterns.len();
        patterns.push(crate::unexplained::PATTERN.to_string());
        let signatures = match signature_set(&patterns) {
            Ok(s) => s,
            Err(message) => {
                errors.push(RuleError { file: "(all)".into(), message });
                rules.clear();
                exprs.clear();
                signature_set(&[crate::unexplained::PATTERN.to_string()]).expect("the failure pattern compiles")
            }
        };
        let unexplained_signature = unexplained_signature.min(signatures.len().saturating_sub(1));
        Catalogue { rules, exprs, signatures, unexplained_signature, errors }
    }

    /// The rule with `id`.
    pub fn rule(&self, id: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.id == id)
    }
}

/// The embedded catalogue, loaded on first use.
pub fn catalogue() -> &'static Catalogue {
    static CAT: OnceLock<Catalogue> = OnceLock::new();
    CAT.get_or_init(|| Catalogue::load(RULE_FILES))
}
