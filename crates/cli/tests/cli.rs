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

/// `--fail-on` turns a finding at that severity or a worse one into exit
/// status 1, after the report; what it does not stop for leaves 0.
#[test]
fn fail_on_exits_1_for_a_finding_at_that_severity_or_worse() {
    let error = "EI0006: Getting socket times out.\n";
    // config-unknown-key-ignored: an info finding only.
    let info =
        "actor_train:\n  model_args:\n    flash_attn: fa2\n    dtype: bf16\n  device_mapping: list(range(0,8))\n";
    let (_, out, _) = run_stdin(&["diagnose", "--format", "json", "-"], info);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let severities: Vec<&str> =
        v["findings"].as_array().unwrap().iter().map(|f| f["severity"].as_str().unwrap()).collect();
    assert_eq!(severities, ["info"], "the info input gives only info findings");
    for (args, input, want) in [
        (&["--fail-on", "error"][..], error, 1),
        (&["--fail-on", "warn"], error, 1),
        (&["--fail-on", "error"], info, 0),
        (&["--fail-on", "warn"], info, 0),
        (&["--fail-on", "info"], info, 1),
        (&["--fail-on", "info"], "all good\n", 0),
        (&[], error, 0),
    ] {
        let mut all = vec!["diagnose", "--lang", "en"];
        all.extend_from_slice(args);
        all.push("-");
        let (code, out, _) = run_stdin(&all, input);
        assert_eq!(code, want, "{args:?} on {input:?}");
        assert!(!out.is_empty(), "the report is printed either way");
    }
    // Bad usage ends before standard input is read (so none is written: the
    // pipe would be closed).
    let out = bin().args(["diagnose", "--fail-on", "fatal", "-"]).stdin(Stdio::null()).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
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

/// A temporary folder for files a test writes.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("roll-doctor-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn extra_rule_files_apply_and_their_errors_are_not_fatal() {
    let dir = temp_dir("rules");
    let good = "id: zh-link\nseverity: error\narea: hccl\ntitle: {en: Link, zh: 链路}\nsummary: {en: S, zh: 说明}\nwhen: {signature: '建链失败'}\nfixes:\n  - title: {en: F, zh: 修复}\n    commands: ['true']\nexamples: {match: ['建链失败'], no_match: [x]}\n";
    std::fs::write(dir.join("zh-link.yaml"), good).unwrap();
    std::fs::write(dir.join("broken.yaml"), good.replace("id: zh-link", "id: broken").replace("'建链失败'", "'('"))
        .unwrap();
    let (code, out, err) = run_stdin(
        &["diagnose", "--format", "json", "--rules", dir.to_str().unwrap(), "-"],
        "HCCL 建链失败\nEI0006: Getting socket times out.\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("broken.yaml:6: when.signature"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let ids: Vec<&str> = v["findings"].as_array().unwrap().iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"zh-link") && ids.contains(&"hccl-connect-timeout"), "{ids:?}");
    let (code, _, err) = run_stdin(&["diagnose", "--rules", "/no/such/dir", "-"], "x\n");
    assert_eq!(code, 2);
    assert!(err.contains("no such file or folder"), "{err}");
}

#[test]
fn nodes_flag_names_each_file_a_node() {
    let dir = temp_dir("nodes");
    let tls = |v: u8| -> String {
        (0..8)
            .map(|i| {
                format!(
                    "dev_id:{i}, tls switch[{v}](0:disable, 1:enable), tls preconfigured[1](0:non-preset, 1:preset)\n"
                )
            })
            .collect()
    };
    std::fs::write(
        dir.join("node-a.txt"),
        format!("$ for i in {{0..7}}; do hccn_tool -i $i -tls -g; done | grep switch\n{}", tls(0)),
    )
    .unwrap();
    std::fs::write(
        dir.join("node-b.txt"),
        format!("$ for i in {{0..7}}; do hccn_tool -i $i -tls -g; done | grep switch\n{}", tls(0)),
    )
    .unwrap();
    std::fs::write(
        dir.join("node-c.txt"),
        format!("$ for i in {{0..7}}; do hccn_tool -i $i -tls -g; done | grep switch\n{}", tls(1)),
    )
    .unwrap();
    let files: Vec<String> =
        ["node-a", "node-b", "node-c"].iter().map(|n| dir.join(format!("{n}.txt")).display().to_string()).collect();
    let mut args = vec!["diagnose", "--format", "json", "--nodes"];
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = run_stdin(&args, "");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let f = v["findings"].as_array().unwrap().iter().find(|f| f["id"] == "hccl-tls-inconsistent").expect("tls finding");
    assert_eq!(f["nodes"], serde_json::json!(["node-c"]));
}

#[test]
fn a_knowledge_base_adds_its_group() {
    let kb =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/reference/mindcluster/kg-config.json");
    if !kb.exists() {
        let _ = writeln!(std::io::stderr(), "SKIPPED: {} is absent", kb.display());
        return;
    }
    let (code, out, err) = run_stdin(
        &["diagnose", "--format", "json", "--kb", kb.to_str().unwrap(), "-"],
        "EI0006: [PID: 1] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time.\n",
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let f = v["findings"].as_array().unwrap();
    assert_eq!(f[0]["id"], "hccl-connect-timeout");
    assert!(f.iter().any(|x| x["origin"] == "ascend-fd kg-config.json"), "{out}");
    let (code, _, err) = run_stdin(&["diagnose", "--kb", "/etc/hostname", "-"], "x\n");
    assert_eq!(code, 2);
    assert!(err.contains("not an ascend-fd knowledge base"), "{err}");
}

#[test]
fn new_rule_from_a_line_loads_as_an_extra_rule() {
    let line = "(WorkerDict pid=2211) ValueError: Expected tensor of shape [4096, 128] but got [2048, 128]";
    let (code, stub, err) = run_stdin(&["new-rule", line], "");
    assert_eq!(code, 0, "{err}");
    let dir = temp_dir("stub");
    let path = dir.join("stub.yaml");
    std::fs::write(&path, &stub).unwrap();
    let (code, out, err) =
        run_stdin(&["diagnose", "--format", "json", "--rules", path.to_str().unwrap(), "-"], &format!("{line}\n"));
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "the stub loads without errors: {err}");
    assert!(out.contains("\"new-value-error\""), "{out}");
}

#[test]
fn the_collector_scripts_print() {
    let (code, out, _) = run_stdin(&["collector"], "");
    assert_eq!(code, 0);
    assert!(out.starts_with("#!/bin/sh") && out.contains("roll-doctor node:"), "{}", &out[..200.min(out.len())]);
    let (code, out, _) = run_stdin(&["collector", "--ray"], "");
    assert_eq!(code, 0);
    assert!(out.contains("import ray") || out.contains("ray.init"), "{}", &out[..200.min(out.len())]);
}
