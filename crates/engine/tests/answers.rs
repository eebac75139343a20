//! Clickable answers of the decision trees (`answers:` on rule steps).
//!
//! Users who cannot copy text off their cluster click an answer instead of
//! pasting a command's output; each answer adds facts and the rules run
//! again. These tests check, for every answer of every rule, that clicking
//! it is recorded on its step and moves the diagnosis exactly as intended
//! (the table [`EXPECTED`]), and, for the important trees, that the root
//! cause comes first and a healthy answer adds no problem.

use roll_doctor_engine::report::StepReport;
use roll_doctor_engine::{
    catalogue, diagnose_session, AnswerRef, Finding, Input, Report, Session, Severity, StepState,
};
use std::collections::{BTreeMap, BTreeSet};

/// Diagnoses `text` with `rule` picked as the symptom and the given clicks.
fn run_with(text: &str, rule: &str, clicks: &[(&str, &str)]) -> Report {
    let session = Session {
        symptoms: vec![rule.to_string()],
        answers: clicks
            .iter()
            .map(|(step, answer)| AnswerRef {
                rule: rule.to_string(),
                step: step.to_string(),
                answer: answer.to_string(),
            })
            .collect(),
    };
    diagnose_session(&[Input { text: text.to_string(), ..Input::default() }], &session)
}

/// Empty input, `rule` as the symptom, one click.
fn click(rule: &str, step: &str, answer: &str) -> Report {
    run_with("", rule, &[(step, answer)])
}

fn finding<'a>(r: &'a Report, id: &str) -> &'a Finding {
    r.findings.iter().find(|f| f.id == id).unwrap_or_else(|| panic!("no finding {id} in {:?}", ids(r)))
}

fn step<'a>(r: &'a Report, rule: &str, step: &str) -> &'a StepReport {
    finding(r, rule).steps.iter().find(|s| s.id == step).unwrap_or_else(|| panic!("{rule}: no step {step}"))
}

fn ids(r: &Report) -> Vec<&str> {
    r.findings.iter().map(|f| f.id.as_str()).collect()
}

/// Findings the evidence (or the answers) fired, not only the chosen symptom.
fn fired(r: &Report) -> BTreeSet<&str> {
    r.findings.iter().filter(|f| !f.from_symptom).map(|f| f.id.as_str()).collect()
}

/// Error and warn findings that fired.
fn problems(r: &Report) -> Vec<&str> {
    r.findings
        .iter()
        .filter(|f| !f.from_symptom && matches!(f.severity, Severity::Error | Severity::Warn))
        .map(|f| f.id.as_str())
        .collect()
}

/// Every answer of every rule, as `(rule, step, answer)`.
fn all_answers() -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for r in &catalogue().rules {
        for s in &r.steps {
            for a in &s.answers {
                out.push((r.id.clone(), s.id.clone(), a.id.clone()));
            }
        }
    }
    out
}

#[test]
fn every_answer_is_recorded_on_its_step() {
    let answers = all_answers();
    assert!(answers.len() >= 100, "only {} answers: were the `answers:` removed?", answers.len());
    for (rule, st, answer) in &answers {
        let rep = std::panic::catch_unwind(|| click(rule, st, answer))
            .unwrap_or_else(|_| panic!("{rule} / {st} / {answer}: diagnose_session panicked"));
        let s = step(&rep, rule, st);
        assert_eq!(s.state, StepState::Answered, "{rule} / {st} / {answer}: step not answered");
        assert_eq!(s.answer.as_deref(), Some(answer.as_str()), "{rule} / {st}: clicked answer not recorded");
        assert!(s.answers.iter().any(|(id, _)| id == answer), "{rule} / {st}: answer {answer} not offered");
        // Facts from a click show as the answer, never as a pasted line.
        assert!(
            s.evidence.iter().all(|e| e.answer.is_some() && e.line == 0),
            "{rule} / {st} / {answer}: a click must not show as pasted evidence"
        );
        // The other steps are still to be asked, unless the click's facts answer them too.
        let clicked_facts: BTreeSet<String> = catalogue()
            .rule(rule)
            .and_then(|r| r.steps.iter().find(|x| &x.id == st))
            .and_then(|x| x.answers.iter().find(|a| &a.id == answer))
            .map(|a| a.facts.iter().map(|f| f.fact.clone()).collect())
            .unwrap_or_default();
        let rule_def = catalogue().rule(rule).unwrap();
        for other in &finding(&rep, rule).steps {
            let answered_by = rule_def.steps.iter().find(|x| x.id == other.id).and_then(|x| x.answered_by.clone());
            if other.id != *st && !answered_by.is_some_and(|f| clicked_facts.contains(&f)) {
                assert_eq!(other.state, StepState::Ask, "{rule}: step {} answered by a click on {st}", other.id);
            }
        }
    }
}

/// What each answer fires on empty input, with its own rule as the symptom:
/// the ids of the findings that fire (the symptom itself only when the answer
/// confirms it). Healthy answers fire nothing. Every answer must be listed,
/// so a new answer comes with its expected effect.
const EXPECTED: &[(&str, &str, &str, &[&str])] = &[
    ("batch-size-lt-chunks", "dp", "enough", &[]),
    ("batch-size-lt-chunks", "dp", "fewer", &["batch-size-lt-chunks"]),
    ("batch-size-lt-chunks", "step", "divides", &[]),
    ("batch-size-lt-chunks", "step", "not-divisible", &["batch-size-lt-chunks"]),
    ("batch-size-lt-chunks", "step", "below-one-step", &["lr-decay-steps-zero"]),
    ("colocate-vs-separate", "mapping", "overlap", &["colocate-vs-separate"]),
    ("colocate-vs-separate", "mapping", "disjoint", &["colocate-vs-separate"]),
    ("colocated-port-range-unset", "shared", "overlap", &["colocate-vs-separate"]),
    ("colocated-port-range-unset", "shared", "disjoint", &["colocate-vs-separate"]),
    ("colocated-port-range-unset", "env", "auto", &[]),
    ("colocated-port-range-unset", "env", "empty", &["colocated-port-range-unset"]),
    ("config-unknown-key-ignored", "keys", "no-match", &[]),
    ("config-unknown-key-ignored", "keys", "flash-attn", &["config-unknown-key-ignored"]),
    ("config-unknown-key-ignored", "keys", "strategy", &["config-unknown-key-ignored"]),
    ("config-yaml-syntax-error", "locate", "valid", &[]),
    ("config-yaml-syntax-error", "locate", "error", &["config-yaml-syntax-error"]),
    ("config-yaml-syntax-error", "tabs", "none", &[]),
    ("config-yaml-syntax-error", "tabs", "tabs", &["config-yaml-syntax-error"]),
    ("deepspeed-config-removed", "references", "none", &[]),
    ("deepspeed-config-removed", "references", "defaults", &["deepspeed-config-removed"]),
    ("deepspeed-config-removed", "references", "strategy", &["deepspeed-config-removed"]),
    ("device-mapping-exceeds-cluster", "ray", "enough", &[]),
    ("device-mapping-exceeds-cluster", "ray", "fewer", &["device-mapping-exceeds-cluster"]),
    ("device-mapping-exceeds-cluster", "ray", "no-npu", &["ray-no-npu-resources"]),
    ("device-mapping-exceeds-cluster", "nodes", "consistent", &[]),
    ("device-mapping-exceeds-cluster", "nodes", "loopback", &["ray-nodes-not-joining"]),
    ("device-mapping-not-contiguous", "ranges", "contiguous", &[]),
    ("device-mapping-not-contiguous", "ranges", "gap", &["device-mapping-not-contiguous"]),
    ("device-mapping-syntax-error", "mapping", "strings", &[]),
    ("device-mapping-syntax-error", "mapping", "yaml-list", &["device-mapping-yaml-list"]),
    ("device-mapping-syntax-error", "mapping", "scalar", &["device-mapping-syntax-error"]),
    ("device-mapping-syntax-error", "mapping", "bad-string", &["device-mapping-syntax-error"]),
    ("device-mapping-syntax-error", "python", "list", &[]),
    ("device-mapping-syntax-error", "python", "error", &["device-mapping-syntax-error"]),
    ("device-mapping-yaml-list", "mapping", "strings", &[]),
    ("device-mapping-yaml-list", "mapping", "yaml-list", &["device-mapping-yaml-list"]),
    ("lr-decay-steps-zero", "arithmetic", "ok", &[]),
    ("lr-decay-steps-zero", "arithmetic", "below-one-step", &["lr-decay-steps-zero"]),
    ("lr-decay-steps-zero", "arithmetic", "not-multiple", &["batch-size-lt-chunks"]),
    ("megatron-strategy-on-npu", "roles", "fsdp2-vllm", &[]),
    ("megatron-strategy-on-npu", "roles", "megatron", &["megatron-strategy-on-npu"]),
    ("node2pg-keyerror", "ray", "enough", &[]),
    ("node2pg-keyerror", "ray", "fewer", &["device-mapping-exceeds-cluster"]),
    ("node2pg-keyerror", "ray", "no-npu", &["ray-no-npu-resources"]),
    ("strategy-name-invalid", "names", "valid", &[]),
    ("strategy-name-invalid", "names", "invalid", &["strategy-name-invalid"]),
    ("strategy-name-invalid", "names", "deepspeed", &["deepspeed-config-removed"]),
    ("system-envs-non-string", "values", "quoted", &[]),
    ("system-envs-non-string", "values", "unquoted", &["system-envs-non-string"]),
    ("vllm-tp-not-dividing-device-mapping", "sizes", "divides", &[]),
    ("vllm-tp-not-dividing-device-mapping", "sizes", "not-divisible", &["vllm-tp-not-dividing-device-mapping"]),
    ("npu-hbm-already-used", "owner", "free", &[]),
    ("npu-hbm-already-used", "owner", "held", &["npu-hbm-already-used"]),
    ("npu-hbm-already-used", "owner", "hidden", &["npu-hbm-already-used"]),
    ("npu-health-not-ok", "details", "ok", &[]),
    ("npu-health-not-ok", "details", "warning", &["npu-health-not-ok"]),
    ("npu-health-not-ok", "details", "alarm", &["npu-health-not-ok"]),
    ("npu-health-not-ok", "link", "up", &[]),
    ("npu-health-not-ok", "link", "down", &["hccl-link-down"]),
    ("npu-not-visible-in-container", "card-devices", "present", &[]),
    ("npu-not-visible-in-container", "card-devices", "none", &["npu-not-visible-in-container"]),
    ("npu-not-visible-in-container", "manager-devices", "present", &[]),
    ("npu-not-visible-in-container", "manager-devices", "manager", &["npu-not-visible-in-container"]),
    ("npu-not-visible-in-container", "manager-devices", "devmm", &["npu-not-visible-in-container"]),
    ("npu-not-visible-in-container", "manager-devices", "hdc", &["npu-not-visible-in-container"]),
    ("npu-not-visible-in-container", "driver-mounts", "present", &[]),
    ("npu-not-visible-in-container", "driver-mounts", "driver", &["npu-not-visible-in-container"]),
    ("npu-not-visible-in-container", "driver-mounts", "add-ons", &["npu-not-visible-in-container"]),
    ("npu-not-visible-in-container", "driver-mounts", "dcmi", &["npu-not-visible-in-container"]),
    ("npu-not-visible-in-container", "host-driver", "ok", &[]),
    ("npu-not-visible-in-container", "host-driver", "fails", &["npu-not-visible-in-container"]),
    ("npu-oom", "free-before", "free", &[]),
    ("npu-oom", "free-before", "held", &["npu-hbm-already-used"]),
    ("soc-version-mismatch", "node-type", "a2", &[]),
    ("soc-version-mismatch", "node-type", "a3", &[]),
    ("soc-version-mismatch", "node-type", "inference", &["unsupported-hardware-for-roll"]),
    ("soc-version-mismatch", "image", "matches", &[]),
    ("soc-version-mismatch", "image", "other", &["soc-version-mismatch"]),
    ("soc-version-mismatch", "soc-env", "matches", &[]),
    ("soc-version-mismatch", "soc-env", "other", &["soc-version-mismatch"]),
    ("soc-version-mismatch", "soc-env", "empty", &[]),
    ("unsupported-hardware-for-roll", "name", "training", &[]),
    ("unsupported-hardware-for-roll", "name", "inference", &["unsupported-hardware-for-roll"]),
    ("unsupported-hardware-for-roll", "board", "training", &[]),
    ("unsupported-hardware-for-roll", "board", "inference", &["unsupported-hardware-for-roll"]),
    ("cann-env-not-sourced", "home", "set", &[]),
    ("cann-env-not-sourced", "home", "empty", &["cann-env-not-sourced"]),
    ("cann-env-not-sourced", "ray", "present", &[]),
    ("cann-env-not-sourced", "ray", "missing", &["cann-env-not-sourced"]),
    ("torch-npu-import-fallback-to-cpu", "import", "ok", &[]),
    ("torch-npu-import-fallback-to-cpu", "import", "no-module", &["torch-npu-unavailable"]),
    ("torch-npu-import-fallback-to-cpu", "import", "other-error", &["torch-npu-unavailable"]),
    ("torch-npu-import-fallback-to-cpu", "count", "ok", &[]),
    ("torch-npu-import-fallback-to-cpu", "count", "zero", &["torch-npu-unavailable"]),
    ("torch-npu-unavailable", "installed", "installed", &[]),
    ("torch-npu-unavailable", "installed", "missing", &["torch-npu-unavailable"]),
    ("torch-npu-unavailable", "cann", "set", &[]),
    ("torch-npu-unavailable", "cann", "empty", &["cann-env-not-sourced"]),
    ("torch-npu-unavailable", "visible", "listed", &[]),
    ("torch-npu-unavailable", "visible", "no-npu", &["npu-not-visible-in-container"]),
    ("torch-npu-unavailable", "versions", "same", &[]),
    ("torch-npu-unavailable", "versions", "differ", &["version-stack-mismatch"]),
    ("torch-npu-unavailable", "verify", "available", &[]),
    ("torch-npu-unavailable", "verify", "unavailable", &["torch-npu-unavailable"]),
    ("triton-conflict", "packages", "ascend-only", &[]),
    ("triton-conflict", "packages", "both", &["triton-conflict"]),
    ("triton-conflict", "packages", "triton-only", &["triton-conflict"]),
    ("version-stack-mismatch", "versions", "match", &[]),
    ("version-stack-mismatch", "versions", "torch", &["version-stack-mismatch"]),
    ("version-stack-mismatch", "versions", "vllm", &["version-stack-mismatch"]),
    ("vllm-slow-inference", "stack", "match", &[]),
    ("vllm-slow-inference", "stack", "triton", &["triton-conflict"]),
    ("vllm-slow-inference", "stack", "torch", &["version-stack-mismatch"]),
    ("vllm-slow-inference", "soc", "matches", &[]),
    ("vllm-slow-inference", "soc", "other", &["soc-version-mismatch"]),
    ("vllm-slow-inference", "env", "clean", &[]),
    ("vllm-slow-inference", "env", "blocking", &["vllm-slow-inference"]),
    ("vllm-slow-inference", "env", "log-level", &["vllm-slow-inference"]),
    ("vllm-slow-inference", "env", "stdout", &["vllm-slow-inference"]),
    ("hccl-comm-failure", "link", "all-up", &[]),
    ("hccl-comm-failure", "link", "some-down", &["hccl-link-down"]),
    ("hccl-comm-failure", "ip", "all-own", &[]),
    ("hccl-comm-failure", "ip", "missing", &["hccl-device-ip-missing"]),
    ("hccl-comm-failure", "ip", "duplicate", &["hccl-device-ip-missing"]),
    ("hccl-comm-failure", "tls", "same", &[]),
    ("hccl-comm-failure", "tls", "differs", &["hccl-tls-inconsistent"]),
    ("hccl-comm-failure", "ping", "replies", &[]),
    ("hccl-comm-failure", "ping", "lost", &["hccl-ping-failed"]),
    ("hccl-connect-timeout", "link", "all-up", &[]),
    ("hccl-connect-timeout", "link", "some-down", &["hccl-link-down"]),
    ("hccl-connect-timeout", "ip", "all-own", &[]),
    ("hccl-connect-timeout", "ip", "missing", &["hccl-device-ip-missing"]),
    ("hccl-connect-timeout", "ip", "duplicate", &["hccl-device-ip-missing"]),
    ("hccl-connect-timeout", "tls", "same", &[]),
    ("hccl-connect-timeout", "tls", "differs", &["hccl-tls-inconsistent"]),
    ("hccl-connect-timeout", "ping", "replies", &[]),
    ("hccl-connect-timeout", "ping", "lost", &["hccl-ping-failed"]),
    ("hccl-cross-node-comm", "route", "selected", &[]),
    ("hccl-cross-node-comm", "route", "other", &["hccl-cross-node-comm"]),
    ("hccl-device-ip-missing", "ip", "all-own", &[]),
    ("hccl-device-ip-missing", "ip", "missing", &["hccl-device-ip-missing"]),
    ("hccl-device-ip-missing", "ip", "duplicate", &["hccl-device-ip-missing"]),
    ("hccl-link-down", "link", "all-up", &[]),
    ("hccl-link-down", "link", "some-down", &["hccl-link-down"]),
    ("hccl-npu-port-bound", "sharing", "one", &[]),
    ("hccl-npu-port-bound", "sharing", "colocated", &["colocate-vs-separate"]),
    ("hccl-npu-port-bound", "sharing", "leftover", &["npu-hbm-already-used"]),
    ("hccl-npu-port-bound", "env", "auto", &[]),
    ("hccl-npu-port-bound", "env", "empty", &["colocated-port-range-unset"]),
    ("hccl-npu-port-bound", "link", "all-up", &[]),
    ("hccl-npu-port-bound", "link", "some-down", &["hccl-link-down"]),
    ("hccl-ping-failed", "ping", "replies", &[]),
    ("hccl-ping-failed", "ping", "lost", &["hccl-ping-failed"]),
    ("hccl-ping-failed", "health", "success", &[]),
    ("hccl-ping-failed", "health", "fail", &["hccl-ping-failed"]),
    ("hccl-tls-inconsistent", "tls", "same", &[]),
    ("hccl-tls-inconsistent", "tls", "differs", &["hccl-tls-inconsistent"]),
    ("ray-cluster-too-few-nodes", "status", "all", &[]),
    ("ray-cluster-too-few-nodes", "status", "fewer", &["ray-nodes-not-joining"]),
    ("ray-cluster-too-few-nodes", "npus", "ok", &[]),
    ("ray-cluster-too-few-nodes", "npus", "no-npu", &["ray-no-npu-resources"]),
    ("ray-head-port-occupied-by-other-process", "listen", "gcs", &[]),
    ("ray-head-port-occupied-by-other-process", "listen", "other", &["ray-head-port-occupied-by-other-process"]),
    ("ray-head-port-occupied-by-other-process", "listen", "loopback", &[]),
    ("ray-no-npu-resources", "status", "ok", &[]),
    ("ray-no-npu-resources", "status", "no-npu", &["ray-no-npu-resources"]),
    ("ray-no-npu-resources", "status", "too-big", &["device-mapping-exceeds-cluster"]),
    ("ray-no-npu-resources", "visible", "ok", &[]),
    ("ray-no-npu-resources", "visible", "no-npu", &["npu-not-visible-in-container"]),
    ("ray-nodes-not-joining", "listen", "gcs", &[]),
    ("ray-nodes-not-joining", "listen", "loopback", &[]),
    ("ray-nodes-not-joining", "listen", "other", &["ray-head-port-occupied-by-other-process"]),
    ("ray-nodes-not-joining", "env", "consistent", &[]),
    ("ray-nodes-not-joining", "env", "loopback", &["ray-nodes-not-joining"]),
    ("ray-nodes-not-joining", "status", "all", &[]),
    ("ray-nodes-not-joining", "status", "fewer", &["ray-nodes-not-joining"]),
    ("worker-exit-expected", "status", "all", &[]),
    ("worker-exit-expected", "status", "fewer", &["ray-nodes-not-joining"]),
    ("ulimit-too-low", "limit", "high", &[]),
    ("ulimit-too-low", "limit", "low", &["ulimit-too-low"]),
    ("ulimit-too-low", "ray-limit", "high", &[]),
    ("ulimit-too-low", "ray-limit", "low", &["ulimit-too-low"]),
    ("ulimit-too-low", "docker", "high", &[]),
    ("ulimit-too-low", "docker", "low", &["ulimit-too-low"]),
    ("ulimit-too-low", "docker", "empty", &[]),
    // Alone an answer about placement is only the placement; with the kernels'
    // import message in the paste, colocated roles make the finding an error
    // (tests/pipeline.rs).
    ("vllm-ascend-custom-ops-missing", "sleep", "colocated", &["colocate-vs-separate"]),
    ("vllm-ascend-custom-ops-missing", "sleep", "separate", &["colocate-vs-separate"]),
];

#[test]
fn every_answer_has_the_expected_outcome() {
    let listed: BTreeMap<(&str, &str, &str), &[&str]> =
        EXPECTED.iter().map(|(r, s, a, e)| ((*r, *s, *a), *e)).collect();
    assert_eq!(listed.len(), EXPECTED.len(), "EXPECTED lists an answer twice");
    let answers = all_answers();
    let mut failures = Vec::new();
    for (rule, st, answer) in &answers {
        let Some(want) = listed.get(&(rule.as_str(), st.as_str(), answer.as_str())) else {
            failures
                .push(format!("{rule} / {st} / {answer}: not in EXPECTED (add it with the findings it should fire)"));
            continue;
        };
        let rep = click(rule, st, answer);
        let got = fired(&rep);
        let want: BTreeSet<&str> = want.iter().copied().collect();
        if got != want {
            failures.push(format!("{rule} / {st} / {answer}: fires {got:?}, expected {want:?}"));
        }
    }
    let existing: BTreeSet<(&str, &str, &str)> =
        answers.iter().map(|(r, s, a)| (r.as_str(), s.as_str(), a.as_str())).collect();
    for key in listed.keys() {
        if !existing.contains(key) {
            failures.push(format!("{key:?}: listed in EXPECTED but no such answer"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_step_with_answers_can_move_the_diagnosis() {
    // A step whose answers can never change the findings only records a
    // click; such a step should not offer answers.
    for r in &catalogue().rules {
        let baseline = fired(&run_with("", &r.id, &[])).into_iter().map(String::from).collect::<BTreeSet<_>>();
        for s in &r.steps {
            if s.answers.is_empty() {
                continue;
            }
            assert!(s.answers.len() >= 2, "{} / {}: one answer is no choice", r.id, s.id);
            let moves = s.answers.iter().any(|a| {
                let got: BTreeSet<String> = fired(&click(&r.id, &s.id, &a.id)).into_iter().map(String::from).collect();
                got != baseline
            });
            assert!(moves, "{} / {}: no answer changes the findings", r.id, s.id);
        }
    }
}

#[test]
fn answer_facts_have_the_declared_value_types() {
    // Loading type-checks every answer against the fact declarations; here
    // the declarations themselves are read back, so the check cannot drift.
    for r in &catalogue().rules {
        for s in &r.steps {
            for a in &s.answers {
                for f in &a.facts {
                    let what = format!("{} / {} / {}: {}", r.id, s.id, a.id, f.fact);
                    let def =
                        roll_doctor_engine::parse::fact_def(&f.fact).unwrap_or_else(|| panic!("{what}: undeclared"));
                    assert!(
                        roll_doctor_engine::FactValue::from_json_as(&f.value, def.ty).is_some(),
                        "{what}: value {} is not {:?}",
                        f.value,
                        def.ty
                    );
                    if let Some(subject) = &f.subject {
                        assert!(!subject.is_empty(), "{what}: empty subject");
                    }
                }
            }
        }
    }
}

#[test]
fn every_step_with_answers_has_an_answer_that_adds_facts() {
    for r in &catalogue().rules {
        for s in &r.steps {
            if !s.answers.is_empty() {
                assert!(s.answers.iter().any(|a| !a.facts.is_empty()), "{} / {}: no answer adds a fact", r.id, s.id);
            }
        }
    }
}

/// Clicks `bad` and `healthy` on a step of `rule` (empty input): `bad` must
/// fire `cause` and put it first, `healthy` must add no error or warn.
fn check(rule: &str, st: &str, bad: &str, cause: &str, healthy: Option<&str>) {
    let rep = click(rule, st, bad);
    let f = finding(&rep, cause);
    assert!(!f.from_symptom, "{rule} / {st} / {bad}: {cause} must fire, not only be shown as the symptom");
    assert_eq!(rep.findings[0].id, cause, "{rule} / {st} / {bad}: {cause} should come first, got {:?}", ids(&rep));
    if cause != rule {
        let symptom = finding(&rep, rule);
        if catalogue().rule(cause).is_some_and(|c| c.outranks.iter().any(|o| o == rule)) {
            assert!(symptom.explained_by.iter().any(|e| e == cause), "{rule}: should be explained by {cause}");
        }
    }
    if let Some(ok) = healthy {
        let rep = click(rule, st, ok);
        assert!(problems(&rep).is_empty(), "{rule} / {st} / {ok}: healthy answer adds {:?}", problems(&rep));
        assert!(finding(&rep, rule).from_symptom, "{rule} / {st} / {ok}: healthy answer must not confirm {rule}");
    }
}

#[test]
fn link_down_answer_points_to_the_link() {
    check("hccl-connect-timeout", "link", "some-down", "hccl-link-down", Some("all-up"));
    check("hccl-comm-failure", "link", "some-down", "hccl-link-down", Some("all-up"));
    check("hccl-npu-port-bound", "link", "some-down", "hccl-link-down", Some("all-up"));
    check("npu-health-not-ok", "link", "down", "hccl-link-down", Some("up"));
    check("hccl-link-down", "link", "some-down", "hccl-link-down", Some("all-up"));
}

#[test]
fn ulimit_answers() {
    check("ulimit-too-low", "limit", "low", "ulimit-too-low", Some("high"));
    check("ulimit-too-low", "ray-limit", "low", "ulimit-too-low", Some("high"));
    check("ulimit-too-low", "docker", "low", "ulimit-too-low", Some("high"));
    let rep = click("ulimit-too-low", "docker", "empty");
    assert!(problems(&rep).is_empty(), "an empty Ulimits list is not proof of a low limit");
}

#[test]
fn npu_health_answers() {
    check("npu-health-not-ok", "details", "alarm", "npu-health-not-ok", Some("ok"));
    check("npu-health-not-ok", "details", "warning", "npu-health-not-ok", Some("ok"));
    assert_eq!(finding(&click("npu-health-not-ok", "details", "alarm"), "npu-health-not-ok").severity, Severity::Warn);
}

#[test]
fn device_ip_tls_and_ping_answers() {
    check("hccl-connect-timeout", "ip", "missing", "hccl-device-ip-missing", Some("all-own"));
    check("hccl-connect-timeout", "ip", "duplicate", "hccl-device-ip-missing", Some("all-own"));
    check("hccl-connect-timeout", "tls", "differs", "hccl-tls-inconsistent", Some("same"));
    check("hccl-connect-timeout", "ping", "lost", "hccl-ping-failed", Some("replies"));
    check("hccl-comm-failure", "ping", "lost", "hccl-ping-failed", Some("replies"));
    check("hccl-ping-failed", "health", "fail", "hccl-ping-failed", Some("success"));
    check("hccl-tls-inconsistent", "tls", "differs", "hccl-tls-inconsistent", Some("same"));
    check("hccl-cross-node-comm", "route", "other", "hccl-cross-node-comm", Some("selected"));
}

#[test]
fn cann_and_torch_npu_answers() {
    check("cann-env-not-sourced", "home", "empty", "cann-env-not-sourced", Some("set"));
    check("torch-npu-unavailable", "cann", "empty", "cann-env-not-sourced", Some("set"));
    check("torch-npu-unavailable", "verify", "unavailable", "torch-npu-unavailable", Some("available"));
    check("torch-npu-unavailable", "installed", "missing", "torch-npu-unavailable", Some("installed"));
    check("torch-npu-unavailable", "visible", "no-npu", "npu-not-visible-in-container", Some("listed"));
    check("torch-npu-import-fallback-to-cpu", "import", "no-module", "torch-npu-unavailable", Some("ok"));
    check("torch-npu-import-fallback-to-cpu", "count", "zero", "torch-npu-unavailable", Some("ok"));
}

#[test]
fn container_device_answers() {
    for bad in ["manager", "devmm", "hdc"] {
        check("npu-not-visible-in-container", "manager-devices", bad, "npu-not-visible-in-container", Some("present"));
    }
    for bad in ["driver", "add-ons", "dcmi"] {
        check("npu-not-visible-in-container", "driver-mounts", bad, "npu-not-visible-in-container", Some("present"));
    }
    check("npu-not-visible-in-container", "host-driver", "fails", "npu-not-visible-in-container", Some("ok"));
    check("ray-no-npu-resources", "visible", "no-npu", "npu-not-visible-in-container", Some("ok"));
}

#[test]
fn memory_answers() {
    check("npu-oom", "free-before", "held", "npu-hbm-already-used", Some("free"));
    check("npu-hbm-already-used", "owner", "held", "npu-hbm-already-used", Some("free"));
}

#[test]
fn chip_and_image_answers() {
    check("soc-version-mismatch", "node-type", "inference", "unsupported-hardware-for-roll", Some("a2"));
    check("soc-version-mismatch", "image", "other", "soc-version-mismatch", Some("matches"));
    check("soc-version-mismatch", "soc-env", "other", "soc-version-mismatch", Some("matches"));
    check("unsupported-hardware-for-roll", "name", "inference", "unsupported-hardware-for-roll", Some("training"));
    check("vllm-slow-inference", "soc", "other", "soc-version-mismatch", Some("matches"));
    check("vllm-slow-inference", "stack", "triton", "triton-conflict", Some("match"));
    check("triton-conflict", "packages", "triton-only", "triton-conflict", Some("ascend-only"));
}

#[test]
fn ray_answers() {
    check("ray-nodes-not-joining", "listen", "other", "ray-head-port-occupied-by-other-process", Some("gcs"));
    check("ray-nodes-not-joining", "status", "fewer", "ray-nodes-not-joining", Some("all"));
    check("ray-nodes-not-joining", "env", "loopback", "ray-nodes-not-joining", Some("consistent"));
    check("worker-exit-expected", "status", "fewer", "ray-nodes-not-joining", Some("all"));
    check("ray-cluster-too-few-nodes", "npus", "no-npu", "ray-no-npu-resources", Some("ok"));
    check(
        "ray-head-port-occupied-by-other-process",
        "listen",
        "other",
        "ray-head-port-occupied-by-other-process",
        Some("gcs"),
    );
    check("device-mapping-exceeds-cluster", "ray", "fewer", "device-mapping-exceeds-cluster", Some("enough"));
    check("node2pg-keyerror", "ray", "fewer", "device-mapping-exceeds-cluster", Some("enough"));
}

#[test]
fn port_answers() {
    check("hccl-npu-port-bound", "env", "empty", "colocated-port-range-unset", Some("auto"));
    check("colocated-port-range-unset", "env", "empty", "colocated-port-range-unset", Some("auto"));
}

#[test]
fn config_answers() {
    check("strategy-name-invalid", "names", "deepspeed", "deepspeed-config-removed", Some("valid"));
    check("strategy-name-invalid", "names", "invalid", "strategy-name-invalid", Some("valid"));
    check("megatron-strategy-on-npu", "roles", "megatron", "megatron-strategy-on-npu", Some("fsdp2-vllm"));
    check("batch-size-lt-chunks", "step", "below-one-step", "lr-decay-steps-zero", Some("divides"));
    check("device-mapping-syntax-error", "mapping", "bad-string", "device-mapping-syntax-error", Some("strings"));
    check("device-mapping-yaml-list", "mapping", "yaml-list", "device-mapping-yaml-list", Some("strings"));
    check("system-envs-non-string", "values", "unquoted", "system-envs-non-string", Some("quoted"));
    check(
        "vllm-tp-not-dividing-device-mapping",
        "sizes",
        "not-divisible",
        "vllm-tp-not-dividing-device-mapping",
        Some("divides"),
    );
    check("config-yaml-syntax-error", "locate", "error", "config-yaml-syntax-error", Some("valid"));
}

const TIMEOUT_PLOG: &str = "\
[root@node1 ~]# tail -n 3 /root/ascend/log/debug/plog/plog-1292363_20250408180500.log
[ERROR] HCCL(1292363,python):2025-04-08-18:07:20.444.436 [socket_manager.cc:200] [1292363][Wait] wait socket establish timeout, role[1] rank[12] timeout[120]
EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time.
";

#[test]
fn an_answer_on_a_pasted_log_puts_the_root_cause_first() {
    let before = run_with(TIMEOUT_PLOG, "hccl-connect-timeout", &[]);
    assert_eq!(ids(&before), ["hccl-connect-timeout"]);
    assert!(!before.findings[0].from_symptom);

    let after = run_with(TIMEOUT_PLOG, "hccl-connect-timeout", &[("link", "some-down")]);
    assert_eq!(ids(&after), ["hccl-link-down", "hccl-connect-timeout"]);
    let timeout = finding(&after, "hccl-connect-timeout");
    assert_eq!(timeout.explained_by, ["hccl-link-down"]);
    assert!(!timeout.evidence.is_empty(), "the pasted lines stay the timeout's evidence");

    let healthy = run_with(TIMEOUT_PLOG, "hccl-connect-timeout", &[("link", "all-up")]);
    assert_eq!(ids(&healthy), ["hccl-connect-timeout"]);

    // Several clicks: each adds its facts.
    let both = run_with(TIMEOUT_PLOG, "hccl-connect-timeout", &[("link", "all-up"), ("tls", "differs")]);
    assert_eq!(ids(&both), ["hccl-tls-inconsistent", "hccl-connect-timeout"]);
    assert_eq!(step(&both, "hccl-connect-timeout", "link").answer.as_deref(), Some("all-up"));
    assert_eq!(step(&both, "hccl-connect-timeout", "tls").answer.as_deref(), Some("differs"));
}

#[test]
fn a_healthy_click_does_not_hide_pasted_evidence() {
    let paste = "$ for i in {0..7}; do hccn_tool -i $i -link -g; done\nlink status: UP\nlink status: UP\nlink status: DOWN\nlink status: UP\n";
    let rep = run_with(paste, "hccl-link-down", &[("link", "all-up")]);
    let f = finding(&rep, "hccl-link-down");
    assert!(!f.from_symptom, "the pasted DOWN line still fires the rule");
    let s = step(&rep, "hccl-link-down", "link");
    assert_eq!(s.state, StepState::Answered);
    assert_eq!(s.answer.as_deref(), Some("all-up"));
    assert!(!s.evidence.is_empty(), "the pasted lines answer the step too");
}

#[test]
fn a_loopback_answer_needs_multi_node_evidence() {
    // Only 127.0.0.1:6379 is a problem when other nodes must connect.
    let alone = click("ray-nodes-not-joining", "listen", "loopback");
    assert!(problems(&alone).is_empty(), "{:?}", problems(&alone));
    let log = "Failed to connect to GCS at address 10.0.0.1:6379 within 60 seconds";
    let rep = run_with(log, "ray-nodes-not-joining", &[("listen", "loopback")]);
    assert_eq!(ids(&rep)[0], "ray-head-port-occupied-by-other-process", "{:?}", ids(&rep));
    assert_eq!(finding(&rep, "ray-nodes-not-joining").explained_by, ["ray-head-port-occupied-by-other-process"]);
}

#[test]
fn unknown_or_foreign_answers_are_ignored() {
    let rep = click("hccl-connect-timeout", "link", "no-such-answer");
    assert!(fired(&rep).is_empty());
    // A click names its step; it is not the answer of another rule's step.
    let rep = click("hccl-connect-timeout", "no-such-step", "some-down");
    assert!(fired(&rep).is_empty());
    assert!(finding(&rep, "hccl-connect-timeout").steps.iter().all(|s| s.state == StepState::Ask));
    let session = Session {
        symptoms: vec![],
        answers: vec![AnswerRef { rule: "no-such-rule".into(), step: "link".into(), answer: "some-down".into() }],
    };
    assert!(diagnose_session(&[Input::default()], &session).findings.is_empty());
}

#[test]
fn answered_subject_limits_which_facts_answer_a_step() {
    // `ss -tlnp | grep 8265` does not answer "who listens on 6379".
    let other_port =
        "$ ss -tlnp | grep 8265\nLISTEN 0 128 0.0.0.0:8265 0.0.0.0:* users:((\"python3\",pid=4242,fd=9))\n";
    let rep = run_with(other_port, "ray-nodes-not-joining", &[]);
    assert_eq!(step(&rep, "ray-nodes-not-joining", "listen").state, StepState::Ask);
    let head_port =
        "$ ss -tlnp | grep 6379\nLISTEN 0 128 0.0.0.0:6379 0.0.0.0:* users:((\"gcs_server\",pid=4242,fd=9))\n";
    let rep = run_with(head_port, "ray-nodes-not-joining", &[]);
    assert_eq!(step(&rep, "ray-nodes-not-joining", "listen").state, StepState::Answered);
    // `echo $ASCEND_HOME_PATH` answers the CANN step; another variable does not.
    let rep =
        run_with("$ echo $ASCEND_HOME_PATH\n/usr/local/Ascend/ascend-toolkit/latest\n", "cann-env-not-sourced", &[]);
    assert_eq!(step(&rep, "cann-env-not-sourced", "home").state, StepState::Answered);
    let rep = run_with("$ echo $SOC_VERSION\nascend910b1\n", "cann-env-not-sourced", &[]);
    assert_eq!(step(&rep, "cann-env-not-sourced", "home").state, StepState::Ask);
}

/// The kernels' import message is a note until the user says the roles share
/// NPUs: then the run needs sleep mode and the finding is an error.
#[test]
fn saying_roles_are_colocated_makes_missing_kernels_an_error() {
    let text = "WARNING 09-18 10:33:14 [camem.py:64] Failed to import vllm_ascend_C:libvllm_ascend_kernels.so: cannot open shared object file: No such file or directory. Sleep mode will be disabled.\n";
    let rule = "vllm-ascend-custom-ops-missing";
    assert_eq!(finding(&run_with(text, rule, &[]), rule).severity, Severity::Info);
    let r = run_with(text, rule, &[("sleep", "colocated")]);
    assert_eq!(finding(&r, rule).severity, Severity::Error);
    assert_eq!(step(&r, rule, "sleep").state, StepState::Answered);
    let r = run_with(text, rule, &[("sleep", "separate")]);
    assert_eq!(finding(&r, rule).severity, Severity::Info);
}
