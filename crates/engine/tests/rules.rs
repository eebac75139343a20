//! Validates every embedded rule file: schema, ids, translations, regexes,
//! fact names, and the rule's own examples run through the whole engine.

use roll_doctor_engine::catalogue::{rule_files, Catalogue};
use roll_doctor_engine::{catalogue, diagnose, facts, Text};
use std::collections::HashSet;

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
    for r in &catalogue().rules {
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
    for r in &catalogue().rules {
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

#[test]
fn broken_rule_files_are_reported_not_fatal() {
    let cat = Catalogue::load(&[
        ("a.yaml", "id: a\nseverity: fatal\n"),
        ("b.yaml", "id: b\nseverity: error\ntitle: {en: B, zh: 乙}\nsummary: {en: B, zh: 乙}\nwhen: {signature: '('}\nexamples: {match: [x], no_match: [y]}\n"),
        ("c.yaml", "id: c\nseverity: error\ntitle: {en: C, zh: 丙}\nsummary: {en: C, zh: 丙}\nwhen: {fact: no.such.fact}\nexamples: {match: [x], no_match: [y]}\n"),
        ("d.yaml", "id: d\nseverity: error\ntitle: {en: D, zh: 丁}\nsummary: {en: D, zh: 丁}\nwhen: {signature: 'boom'}\nexamples: {match: [boom], no_match: [y]}\n"),
    ]);
    assert_eq!(cat.errors.len(), 3, "{:?}", cat.errors);
    assert_eq!(cat.rules.len(), 1);
    assert_eq!(cat.rules[0].id, "d");
}

#[test]
fn answers_and_answered_by_name_registered_facts() {
    for r in &catalogue().rules {
        for s in &r.steps {
            if let Some(name) = &s.answered_by {
                assert!(facts::registered(name).is_some(), "{} step {}: answered_by unknown fact {name}", r.id, s.id);
            }
            let ids: HashSet<_> = s.answers.iter().map(|a| &a.id).collect();
            assert_eq!(ids.len(), s.answers.len(), "{} step {}: duplicate answer ids", r.id, s.id);
            for a in &s.answers {
                for f in &a.facts {
                    assert!(
                        facts::registered(&f.fact).is_some(),
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
