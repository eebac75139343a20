//! The rule catalogue: the embedded rule files, plus any a support engineer
//! loads at run time (`roll-doctor diagnose --rules PATH`, a file dropped on
//! the page), loaded and compiled once.
//!
//! A file that does not load — bad YAML, a schema error, an unknown fact, a
//! type error, a pattern that does not compile — is left out and listed in
//! [`Catalogue::errors`] with its file and line; every other rule keeps
//! working.

use crate::rules::eval::Expr;
use crate::rules::{compile_rule, parse_embedded_rule, parse_rule_tree, Rule, RuleError};
use crate::signatures::SignatureSet;
use std::collections::HashMap;
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/rule_files.rs"));

/// The largest rule file accepted (bytes). Real ones are a few KiB.
pub const MAX_RULE_FILE: usize = 256 << 10;

/// All rules with their compiled conditions and the shared signature set.
#[derive(Debug)]
pub struct Catalogue {
    /// The rules, in file order (extra files after the embedded ones).
    pub rules: Vec<Rule>,
    /// Each rule's compiled `when` and, when it has one, `weak` condition.
    pub(crate) exprs: Vec<(Expr, Option<Expr>)>,
    /// Every signature of every rule, compiled once, plus (last) the
    /// failure-like pattern of [`crate::unexplained`] and the CANN code pattern.
    pub signatures: SignatureSet,
    /// Index of the failure-like pattern in `signatures`.
    pub unexplained_signature: usize,
    /// Index of the CANN error-code pattern ([`crate::cann::SIGNATURE`]) in `signatures`.
    pub cann_signature: usize,
    /// Files that failed to load. Always empty for the embedded rules of a
    /// tested build; for extra files, what to show their author.
    pub errors: Vec<RuleError>,
    /// Ids of rules that came from extra files (new, or replacing an embedded rule).
    pub extra: Vec<String>,
    by_id: HashMap<String, usize>,
    version: String,
}

/// FNV-1a over names and contents: stable across platforms.
fn checksum<'a>(files: impl Iterator<Item = (&'a str, &'a str)>) -> u32 {
    let mut h: u64 = 0xcbf29ce484222325;
    for (name, src) in files {
        for b in name.bytes().chain(src.bytes()) {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    h as u32
}

impl Catalogue {
    /// Loads rules from `(file, source)` pairs.
    pub fn load(files: &[(&str, &str)]) -> Catalogue {
        Catalogue::load_with(files, &[])
    }

    /// Loads `embedded` rules and then `extra` ones. An extra rule whose id
    /// an embedded rule has replaces it (so a changed rule can be tried
    /// without rebuilding); two files with one id among the same kind are an error.
    pub fn load_with(embedded: &[(&str, &str)], extra: &[(String, String)]) -> Catalogue {
        Catalogue::load_full(embedded, extra, None)
    }

    /// [`Catalogue::load_with`], plus an operator's knowledge base, whose
    /// entries are matched in the same scan, after the rules.
    pub fn load_full(
        embedded: &[(&str, &str)],
        extra: &[(String, String)],
        kb: Option<&crate::kb::KnowledgeBase>,
    ) -> Catalogue {
        let mut compiled: Vec<(Rule, (Expr, Option<Expr>))> = Vec::new();
        let mut by_id: HashMap<String, usize> = HashMap::new();
        let mut patterns = Vec::new();
        let mut errors = Vec::new();
        let mut extra_ids = Vec::new();
        // The embedded rule files (a test compiles each of their signatures
        // alone and their set) are not compiled twice at startup. A part of
        // them (the rules fuzz target loads a few beside the fuzzed file) is
        // still embedded JSON: read as YAML it cost that target two thirds of
        // each run.
        let builtin = RULE_FILES.as_ptr_range().contains(&embedded.as_ptr());
        let all = embedded
            .iter()
            .map(|(f, s)| (*f, *s, false))
            .chain(extra.iter().map(|(f, s)| (f.as_str(), s.as_str(), true)));
        for (file, src, is_extra) in all {
            if src.len() > MAX_RULE_FILE {
                errors.push(RuleError {
                    file: file.to_string(),
                    line: None,
                    message: format!(
                        "the file is {} bytes; a rule file may be at most {} KiB",
                        src.len(),
                        MAX_RULE_FILE >> 10
                    ),
                });
                continue;
            }
            let check = is_extra || !builtin;
            // The embedded files are JSON made at build time (see build.rs).
            let parsed = if builtin && !is_extra { parse_embedded_rule(file, src) } else { parse_rule_tree(file, src) };
            let c = match parsed.and_then(|p| compile_rule(file, p, &mut patterns, check)) {
                Ok(c) => c,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            let id = c.rule.id.clone();
            match by_id.get(&id) {
                Some(&i) if is_extra && !extra_ids.contains(&id) => {
                    compiled[i] = (c.rule, (c.expr, c.weak));
                    extra_ids.push(id);
                }
                Some(_) => errors.push(RuleError {
                    file: file.to_string(),
                    line: Some(1),
                    message: format!("id {id} is used by another rule file"),
                }),
                None => {
                    by_id.insert(id.clone(), compiled.len());
                    compiled.push((c.rule, (c.expr, c.weak)));
                    if is_extra {
                        extra_ids.push(id);
                    }
                }
            }
        }
        for rule in kb.map(|k| k.rules.as_slice()).unwrap_or_default() {
            match crate::rules::compile::compile_cond(&rule.when, "when", &mut patterns, true) {
                Ok(expr) => {
                    by_id.insert(rule.id.clone(), compiled.len());
                    compiled.push((rule.clone(), (expr, None)));
                }
                Err((_, message)) => errors.push(RuleError { file: rule.id.clone(), line: None, message }),
            }
        }
        let unexplained_signature = patterns.len();
        patterns.push(crate::pattern::FAILURE_LIKE.to_string());
        let cann_signature = patterns.len();
        patterns.push(crate::cann::SIGNATURE.to_string());
        // The embedded patterns are known to compile, alone and together (a
        // test checks): their set is built when a scan first needs it.
        let signatures = if builtin && extra.is_empty() && kb.is_none() {
            Ok(SignatureSet::new_unchecked(&patterns))
        } else {
            SignatureSet::new(&patterns)
        };
        let signatures = match signatures {
            Ok(s) => s,
            Err(message) if !extra.is_empty() => {
                // Every pattern compiled alone, so only their sum can be too
                // large: leave the extra files out, keep every built-in rule.
                let mut cat = Catalogue::load_with(embedded, &[]);
                let names: Vec<&str> = extra.iter().map(|(f, _)| f.as_str()).collect();
                cat.errors.extend(errors.into_iter().filter(|e| names.contains(&e.file.as_str())));
                for name in names {
                    cat.errors.push(RuleError {
                        file: name.to_string(),
                        line: None,
                        message: format!(
                            "not loaded: with the extra rule files the signature set is too large ({message}); the built-in rules still work"
                        ),
                    });
                }
                return cat;
            }
            Err(message) => {
                errors.push(RuleError { file: "(all rules)".into(), line: None, message });
                compiled.clear();
                by_id.clear();
                let built_in = [crate::pattern::FAILURE_LIKE.to_string(), crate::cann::SIGNATURE.to_string()];
                SignatureSet::new(&built_in).expect("the built-in patterns compile")
            }
        };
        let (unexplained_signature, cann_signature) =
            if signatures.len() == 2 { (0, 1) } else { (unexplained_signature, cann_signature) };
        let files = embedded.iter().map(|(f, s)| (*f, *s)).chain(extra.iter().map(|(f, s)| (f.as_str(), s.as_str())));
        let version = format!("{}-{:08x}", compiled.len(), checksum(files));
        let (rules, exprs) = compiled.into_iter().unzip();
        Catalogue {
            rules,
            exprs,
            signatures,
            unexplained_signature,
            cann_signature,
            errors,
            extra: extra_ids,
            by_id,
            version,
        }
    }

    /// The rule pack's version: the number of rules and a checksum of their
    /// files, so a share link can tell it was made with other rules.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The rule with `id`.
    pub fn rule(&self, id: &str) -> Option<&Rule> {
        self.by_id.get(id).map(|&i| &self.rules[i])
    }

    /// The index of the rule with `id` in [`Catalogue::rules`].
    pub fn rule_index(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }
}

/// The version of the embedded rule pack.
pub fn pack_version() -> &'static str {
    catalogue().version()
}

/// The embedded rule files, `(path under rules/, the file as JSON)` (build.rs
/// parses the YAML at build time).
pub fn rule_files() -> &'static [(&'static str, &'static str)] {
    RULE_FILES
}

/// The embedded catalogue, loaded on first use.
pub fn catalogue() -> &'static Catalogue {
    static CAT: OnceLock<Catalogue> = OnceLock::new();
    CAT.get_or_init(|| Catalogue::load(RULE_FILES))
}

#[cfg(test)]
mod tests {
    /// The rule file `file` (as `rule_files` names it) as written, from `rules/`.
    fn written(file: &str) -> String {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules");
        std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
    }

    /// The embedded catalogue skips compiling each signature alone at
    /// startup, and builds their set lazily: both are checked here.
    #[test]
    fn embedded_signatures_compile_alone() {
        let cat = super::catalogue();
        assert!(cat.errors.is_empty(), "{:?}", cat.errors);
        for p in &cat.signatures.patterns {
            crate::pattern::compile(p).unwrap_or_else(|e| panic!("{p}: {e}"));
        }
        crate::pattern::compile_set(&cat.signatures.patterns).expect("the embedded set compiles");
        // The rule files as written (the YAML on disk) are not the embedded
        // set: they load through the checking path, which compiles every
        // signature and `matches:` pattern at once and reports what fails.
        let texts: Vec<(&str, String)> = super::rule_files().iter().map(|(f, _)| (*f, written(f))).collect();
        let copy: Vec<(&str, &str)> = texts.iter().map(|(f, t)| (*f, t.as_str())).collect();
        let checked = super::Catalogue::load_with(&copy, &[]);
        assert!(checked.errors.is_empty(), "{:?}", checked.errors);
        assert_eq!(checked.rules.len(), cat.rules.len());
    }

    /// The build leaves each rule's `sources` out of the embedded JSON
    /// (nothing at run time shows them); the YAML on disk must keep them.
    #[test]
    fn every_rule_file_names_its_sources() {
        for (file, _) in super::rule_files() {
            let parsed = crate::rules::parse_rule_tree(file, &written(file)).unwrap_or_else(|e| panic!("{e:?}"));
            assert!(parsed.rule.sources.iter().any(|s| !s.trim().is_empty()), "{file}: no sources");
            assert!(super::catalogue().rule(&parsed.rule.id).is_some_and(|r| r.sources.is_empty()), "{file}");
        }
    }

    /// The build leaves the examples out too, keeping the error codes they
    /// name for the symptom search: the same codes the YAML's examples give,
    /// and otherwise the same rule.
    #[test]
    fn embedded_rules_are_the_yaml_without_examples() {
        let mut with_codes = 0;
        for (file, _) in super::rule_files() {
            let mut rule = crate::rules::parse_rule_tree(file, &written(file)).unwrap_or_else(|e| panic!("{e:?}")).rule;
            let embedded = super::catalogue().rule(&rule.id).unwrap_or_else(|| panic!("{file}")).clone();
            assert!(!rule.examples.matches.is_empty(), "{file}");
            assert_eq!(embedded.examples, crate::rules::Examples::default(), "{file}");
            with_codes += usize::from(!rule.example_codes.is_empty());
            rule.examples = Default::default();
            rule.sources.clear();
            assert_eq!(embedded, rule, "{file}");
        }
        assert!(with_codes > 10, "only {with_codes} rules name a code in their examples");
    }

    #[test]
    fn a_rule_file_must_have_examples_and_may_not_write_their_codes() {
        let base = "id: x\nseverity: error\narea: other\ntitle: {en: T, zh: 标题}\nsummary: {en: S, zh: 说明}\nwhen: {signature: 'boom'}\nfixes:\n  - title: {en: F, zh: 修复}\n    commands: ['true']\n";
        let e = crate::rules::parse_rule_tree("x.yaml", base).err().expect("no examples");
        assert!(e.message.contains("examples"), "{e:?}");
        let written = format!("{base}examples: {{match: [boom], no_match: [y]}}\nexample_codes: [EI0006]\n");
        let e = crate::rules::parse_rule_tree("x.yaml", &written).err().expect("example_codes written");
        assert!(e.message.contains("example_codes"), "{e:?}");
        let ok = format!("{base}examples: {{match: ['EI0006: boom'], no_match: [y]}}\n");
        let rule = crate::rules::parse_rule_tree("x.yaml", &ok).expect("loads").rule;
        assert_eq!(rule.example_codes, ["EI0006"]);
    }
}
