//! Validates every embedded rule file: schema, ids, translations, regexes,
//! fact names, and the rule's own examples run through the whole engine.

use roll_doctor_engine::catalogue::{rule_files, Catalogue};

use roll_doctor_engine::rules::{parse_rule, Rule};
use roll_doctor_engine::{catalogue, diagnose, Text};
use std::collections::HashSet;

/// The rule files as written. The embedded rules carry no examples
/// (build.rs leaves them out), so the tests of the examples read the YAML.
fn written_rules() -> Vec<Rule> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules");
    rule_files()
        .iter()
        .map(|(file, _)| {
            let text = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            parse_rule(file, &text).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect()
}

fn is_kebab(id: &str) -> bool {
    !id.is_empty()
        && id.split('-').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()))
}

#[test]
fn every_rule_file_loads() {
    let cat = catalogue();
    assert!(
        cat.errors.is_empty(),
        "rule files failed to load:\n{}",
        cat.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
    );
    assert_eq!(cat.rules.len(), rule_files().len());
}

#[test]
fn ids_are_unique_kebab_case_and_match_file_names() {
    let mut seen = HashSet::new();
    for ((file, _), rule) in rule_files().iter().zip(&catalogue().rules) {
        assert!(is_kebab(&rule.id), "{file}: id {:?} is not kebab-case", rule.id);
        assert!(seen.insert(rule.id.clone()), "duplicate id {}", rule.id);
        let stem = file.rsplit('/').next().unwrap().trim_end_matches(".yaml");
        assert_eq!(stem, rule.id, "{file}: file name must be <id>.yaml");
    }
}

fn check_text(id: &str, what: &str, t: &Text) {
    assert!(t.is_complete(), "{id}: {what} needs both en and zh (zh in Chinese): {t:?}");
}

#[test]
fn every_text_is_bilingual() {
    for r in &catalogue().rules {
        check_text(&r.id, "title", &r.title);
        check_text(&r.id, "summary", &r.summary);
        for s in &r.steps {
            check_text(&r.id, &format!("step {} title", s.id), &s.title);
            check_text(&r.id, &format!("step {} expect", s.id), &s.expect);
            for a in &s.answers {
                check_text(&r.id, &format!("step {} answer {}", s.id, a.id), &a.label);
            }
        }
        for (i, f) in r.fixes.iter().enumerate() {
            check_text(&r.id, &format!("fix {i} title"), &f.title);
        }
    }
}

#[test]
fn every_rule_has_a_next_step_or_fix_and_examples() {
    for r in &written_rules() {
        assert!(!r.steps.is_empty() || !r.fixes.is_empty(), "{}: needs a step or a fix", r.id);
        assert!(!r.fixes.is_empty(), "{}: needs at least one fix", r.id);
        for f in &r.fixes {
            assert!(!f.commands.is_empty() || f.yaml.is_some(), "{}: a fix needs commands or yaml", r.id);
        }
        assert!(!r.examples.matches.is_empty(), "{}: needs a match example", r.id);
        assert!(!r.examples.no_match.is_empty(), "{}: needs a no_match example", r.id);
        let step_ids: HashSet<_> = r.steps.iter().map(|s| &s.id).collect();
        assert_eq!(step_ids.len(), r.steps.len(), "{}: duplicate step ids", r.id);
    }
}

#[test]
fn outranked_ids_exist() {
    let ids: HashSet<_> = catalogue().rules.iter().map(|r| r.id.as_str()).collect();
    for r in &catalogue().rules {
        for o in &r.outranks {
            assert!(ids.contains(o.as_str()), "{}: outranks unknown id {o}", r.id);
        }
    }
}

#[test]
fn examples_match_and_no_match() {
    let mut failures = Vec::new();
    for r in &written_rules() {
        for ex in &r.examples.matches {
            let rep = diagnose(ex);
            if !rep.findings.iter().any(|f| f.id == r.id) {
                failures.push(format!(
                    "{}: should match:\n{ex}\n got: {:?}",
                    r.id,
                    rep.findings.iter().map(|f| &f.id).collect::<Vec<_>>()
                ));
            }
        }
        for ex in &r.examples.no_match {
            if diagnose(ex).findings.iter().any(|f| f.id == r.id) {
                failures.push(format!("{}: should not match:\n{ex}", r.id));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A rule with a `weak` condition shows both paths in its examples: at
/// least one example that holds only the weak sign (an info note), and
/// every example gives the rule at its own severity or, weak alone, at info;
/// a rule without `weak` gives its own severity on every example.
#[test]
fn weak_conditions_have_an_example_of_their_own() {
    use roll_doctor_engine::Severity;
    let mut failures = Vec::new();
    for r in &written_rules() {
        let mut weak_alone = 0;
        for ex in &r.examples.matches {
            let Some(f) = diagnose(ex).findings.into_iter().find(|f| f.id == r.id) else { continue };
            if f.severity == Severity::Info && r.severity != Severity::Info {
                weak_alone += 1;
                if r.weak.is_none() {
                    failures.push(format!("{}: info on an example, but the rule has no weak condition:\n{ex}", r.id));
                }
            } else if f.severity != r.severity {
                failures
                    .push(format!("{}: {:?} on an example, the rule says {:?}:\n{ex}", r.id, f.severity, r.severity));
            }
        }
        if r.weak.is_some() && weak_alone == 0 {
            failures.push(format!("{}: no example shows its weak condition alone", r.id));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A minimal rule file around a condition (`when:` block, indented two spaces).
fn rule(id: &str, when: &str, examples: &str) -> String {
    format!(
        "id: {id}\nseverity: error\narea: other\ntitle: {{en: T, zh: 标题}}\nsummary: {{en: S, zh: 说明}}\nwhen:\n{when}\nfixes:\n  - title: {{en: F, zh: 修复}}\n    commands: ['true']\nexamples: {examples}\n"
    )
}

#[test]
fn broken_rule_files_are_reported_not_fatal() {
    let b = rule("b", "  signature: '('", "{match: [x], no_match: [y]}");
    let c = rule("c", "  fact: no.such.fact", "{match: [x], no_match: [y]}");
    let d = rule("d", "  signature: 'boom'", "{match: [boom], no_match: [y]}");
    let cat =
        Catalogue::load(&[("a.yaml", "id: a\nseverity: fatal\n"), ("b.yaml", &b), ("c.yaml", &c), ("d.yaml", &d)]);
    let errors: Vec<String> = cat.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].starts_with("a.yaml:2: severity"), "{errors:?}");
    assert!(errors[1].starts_with("b.yaml:7: when.signature"), "{errors:?}");
    assert!(errors[2].starts_with("c.yaml:7: when.fact: unknown fact"), "{errors:?}");
    assert_eq!(cat.rules.len(), 1);
    assert_eq!(cat.rules[0].id, "d");
}

#[test]
fn a_broken_pattern_disables_only_its_own_rule_even_among_the_embedded_ones() {
    let bad = rule(
        "my-new-rule",
        "  any:\n    - signature: 'fine'\n    - signature: '[连接]超时'",
        "{match: [x], no_match: [y]}",
    );
    let extra = vec![("my-new-rule.yaml".to_string(), bad)];
    let cat = Catalogue::load_with(rule_files(), &extra);
    assert_eq!(cat.errors.len(), 1, "{:?}", cat.errors);
    let e = cat.errors[0].to_string();
    assert!(e.starts_with("my-new-rule.yaml:9: when.any[1].signature:"), "{e}");
    assert!(e.contains("inside [...]"), "{e}");
    assert_eq!(cat.rules.len(), rule_files().len(), "every embedded rule still loads");
    let r = roll_doctor_engine::diagnose_with(
        &cat,
        &[roll_doctor_engine::Input { text: "EI0006: Getting socket times out.".into(), ..Default::default() }],
    );
    assert_eq!(r.findings[0].id, "hccl-connect-timeout");
}

#[test]
fn a_chinese_signature_works() {
    let zh = rule(
        "zh-timeout",
        "  signature: '建链超时|(?i)connect timeout \\d+s'",
        "{match: ['HCCL 建链超时，请检查网络'], no_match: [y]}",
    );
    let cat = Catalogue::load_with(rule_files(), &[("zh-timeout.yaml".into(), zh)]);
    assert!(cat.errors.is_empty(), "{:?}", cat.errors);
    assert_eq!(cat.extra, vec!["zh-timeout".to_string()]);
    let found = |text: &str| {
        roll_doctor_engine::diagnose_with(
            &cat,
            &[roll_doctor_engine::Input { text: text.into(), ..Default::default() }],
        )
        .findings
        .iter()
        .any(|f| f.id == "zh-timeout")
    };
    assert!(found("[ERROR] 2025-04-08 HCCL 建链超时，请检查网络"));
    assert!(found("CONNECT TIMEOUT 120s"));
    assert!(!found("链路正常"));
}

#[test]
fn type_errors_name_file_and_line() {
    let cases = [
        (
            "  fact: ulimit.nofile\n  equals: \"1024\"",
            "when.equals: fact ulimit.nofile holds int values; the string \"1024\" is not one",
        ),
        ("  fact: env.var\n  lt: 5", "when.lt: this test compares numbers; fact env.var holds str values"),
        ("  fact: npu.count\n  matches: '8'", "when.matches: matches tests text"),
        ("  fact: ray.nodes_active\n  lt: { fact: env.var, subject: WORLD_SIZE }", "add `as: number`"),
        ("  fact: npu.count\n  absent: true\n  gt: 1", "absent cannot be combined"),
        ("  fact: npu.count\n  differs: true\n  every: true", "exclude each other"),
    ];
    for (when, want) in cases {
        let cat = Catalogue::load(&[("t.yaml", &rule("t", when, "{match: [x], no_match: [y]}"))]);
        assert_eq!(cat.errors.len(), 1, "{when}");
        let e = cat.errors[0].to_string();
        assert!(e.starts_with("t.yaml:") && e.contains(want), "{when}: {e}");
    }
}

#[test]
fn answers_and_answered_by_name_registered_facts() {
    for r in &catalogue().rules {
        for s in &r.steps {
            if let Some(name) = &s.answered_by {
                assert!(
                    roll_doctor_engine::parse::fact_def(name).is_some(),
                    "{} step {}: answered_by unknown fact {name}",
                    r.id,
                    s.id
                );
            }
            let ids: HashSet<_> = s.answers.iter().map(|a| &a.id).collect();
            assert_eq!(ids.len(), s.answers.len(), "{} step {}: duplicate answer ids", r.id, s.id);
            for a in &s.answers {
                for f in &a.facts {
                    assert!(
                        roll_doctor_engine::parse::fact_def(&f.fact).is_some(),
                        "{} step {} answer {}: unknown fact {}",
                        r.id,
                        s.id,
                        a.id,
                        f.fact
                    );
                    assert!(
                        f.value.is_string() || f.value.is_number() || f.value.is_boolean(),
                        "{}: answer values are scalars",
                        r.id
                    );
                }
            }
        }
    }
}

/// `weak`: the rule fires on it too, but alone it gives an info-level
/// finding that outranks nothing; with `when` it adds its evidence.
#[test]
fn a_weak_condition_alone_gives_a_note_that_explains_nothing() {
    let r = "id: held-elsewhere\nseverity: error\narea: other\ntitle: {en: T, zh: 标题}\nsummary: {en: S, zh: 说明}\nwhen:\n  signature: 'confirmed by the log'\nweak:\n  signature: 'looks busy'\noutranks: [npu-oom]\ncodes: ['100002']\nfixes:\n  - title: {en: F, zh: 修复}\n    commands: ['true']\nexamples: {match: ['confirmed by the log'], no_match: [y]}\n";
    let cat = Catalogue::load_with(rule_files(), &[("held-elsewhere.yaml".into(), r.to_string())]);
    assert!(cat.errors.is_empty(), "{:?}", cat.errors);
    let run = |text: &str| {
        roll_doctor_engine::diagnose_with(
            &cat,
            &[roll_doctor_engine::Input { text: text.into(), ..Default::default() }],
        )
    };
    let oom = "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.00 GiB already allocated)";
    // Weak alone: info, and npu-oom is not explained by it.
    let report = run(&format!("looks busy\n{oom}\n"));
    let weak = report.findings.iter().find(|f| f.id == "held-elsewhere").expect("the weak condition fires the rule");
    assert_eq!(weak.severity, roll_doctor_engine::Severity::Info);
    let oom_finding = report.findings.iter().find(|f| f.id == "npu-oom").expect("npu-oom");
    assert!(oom_finding.explained_by.is_empty(), "{:?}", oom_finding.explained_by);
    assert_eq!(report.findings[0].id, "npu-oom");
    // With `when`: the rule's own severity, it outranks npu-oom, and both lines are evidence.
    let report = run(&format!("confirmed by the log\nlooks busy\n{oom}\n"));
    let f = &report.findings[0];
    assert_eq!((f.id.as_str(), f.severity), ("held-elsewhere", roll_doctor_engine::Severity::Error));
    let lines: Vec<u32> = f.evidence.iter().map(|e| e.line).collect();
    assert_eq!(lines, [1, 2]);
    // The rule's `codes` are absorbed only when it fired on firm ground.
    let code = "acl init failed, errorCode = 100002";
    let cann = |text: String| run(&text).findings.iter().any(|f| f.id == "cann-error-code");
    assert!(cann(format!("looks busy\n{code}\n")), "a weak-only finding absorbed the code");
    assert!(!cann(format!("confirmed by the log\n{code}\n")));
    // Nothing: silent.
    assert!(run("all quiet\n").findings.iter().all(|f| f.id != "held-elsewhere"));
    // A `weak` that does not type-check names its own path and line.
    let bad = r.replace("  signature: 'looks busy'", "  fact: npu.hbm_usage_pct\n  gt: high");
    let cat = Catalogue::load_with(rule_files(), &[("held-elsewhere.yaml".into(), bad)]);
    let e = cat.errors.first().expect("an error").to_string();
    assert!(e.starts_with("held-elsewhere.yaml:10: weak"), "{e}");
}
