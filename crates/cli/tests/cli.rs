//! Runs the real `roll-doctor` binary.

use std::io::Write;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_roll-doctor"))
}

fn run_stdin(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child =
        bin().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn diagnose_json_from_stdin() {
    let (code, out, _) = run_stdin(&["diagnose", "--format", "json", "-"], "EI0006: Getting socket times out.\n");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["findings"][0]["id"], "hccl-connect-timeout");
    assert_eq!(v["findings"][0]["severity"], "error");
    assert_eq!(v["findings"][0]["evidence"][0]["line"], 1);
}

#[test]
fn text_in_chinese_and_markdown() {
    let (code, out, _) = run_stdin(&["diagnose", "--lang", "zh", "-"], "EI0006: Getting socket times out.\n");
    assert_eq!(code, 0);
    assert!(out.contains("HCCL 建链超时"), "{out}");
    let (_, md, _) =
        run_stdin(&["diagnose", "--format", "markdown", "--lang", "en", "-"], "EI0006: Getting socket times out.\n");
    assert!(md.contains("### [error]"), "{md}");
}

#[test]
fn no_findings_is_still_success() {
    let (code, out, _) = run_stdin(&["diagnose", "--lang", "en", "-"], "all good\n");
    assert_eq!(code, 0);
    assert!(out.contains("No known problem"));
}

#[test]
fn unreadable_file_and_bad_usage_exit_2() {
    let out = bin().args(["diagnose", "/nonexistent/plog.log"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/plog.log"));
    let out = bin().args(["diagnose", "--format", "yaml", "-"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin().args(["frobnicate"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn files_are_diagnosed_together() {
    let dir = std::env::temp_dir().join(format!("rd-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("ulimit.txt");
    std::fs::write(&a, "$ ulimit -n\n1024\n").unwrap();
    let out = bin().args(["diagnose", "--format", "json", a.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["findings"][0]["id"], "ulimit-too-low");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn rules_json_lists_every_rule_with_both_titles() {
    let out = bin().args(["rules", "--format", "json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules = v["rules"].as_array().unwrap();
    assert_eq!(rules.len(), roll_doctor_engine::catalogue().rules.len());
    for r in rules {
        assert!(r["title"]["en"].as_str().is_some_and(|s| !s.is_empty()));
        assert!(r["title"]["zh"].as_str().is_some_and(|s| !s.is_empty()));
        assert!(["error", "warn", "info"].contains(&r["severity"].as_str().unwrap()));
    }
    assert!(rules.iter().any(|r| r["id"] == "hccl-connect-timeout"));
}

#[test]
fn kind_override() {
    let (code, out, _) = run_stdin(&["diagnose", "--format", "json", "--kind", "1=ulimit", "-"], "1024\n");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["segments"][0]["kind"], "ulimit");
    assert_eq!(v["findings"][0]["id"], "ulimit-too-low");
    let (code, _, err) = run_stdin(&["diagnose", "--kind", "1=banana", "-"], "1024\n");
    assert_eq!(code, 2);
    assert!(err.contains("KIND one of"), "{err}");
}
