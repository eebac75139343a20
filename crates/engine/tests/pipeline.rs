//! End-to-end engine tests: paste in, report out.

use roll_doctor_engine::{diagnose, diagnose_inputs, render, Input, InputKind, Lang, Severity, StepState};

fn ids(text: &str) -> Vec<String> {
    diagnose(text).findings.into_iter().map(|f| f.id).collect()
}

#[test]
fn walking_skeleton_ei0006() {
    let r = diagnose("EI0006: Getting socket times out.");
    assert_eq!(r.findings.len(), 1);
    let f = &r.findings[0];
    assert_eq!(f.id, "hccl-connect-timeout");
    assert_eq!(f.severity, Severity::Error);
    assert_eq!(f.evidence[0].line, 1);
    assert!(f.title.zh.contains("超时"));
    assert!(f.fixes.iter().any(|x| x.commands.iter().any(|c| c == "export HCCL_CONNECT_TIMEOUT=3600")));
}

#[test]
fn config_finding_reports_the_config_line() {
    let cfg = "exp_name: demo\n\nactor_train:\n  model_args:\n    dtype: bf16\n  strategy_args:\n    strategy_name: megatron_train\n  device_mapping: list(range(0,8))\n";
    let r = diagnose(cfg);
    assert_eq!(r.segments[0].kind, InputKind::RollConfig);
    let f = r.findings.iter().find(|f| f.id == "megatron-strategy-on-npu").expect("megatron finding");
    assert_eq!(f.evidence[0].line, 7);
    assert_eq!(f.evidence[0].text.trim(), "strategy_name: megatron_train");
    assert_eq!(f.steps[0].state, StepState::Answered);
}

#[test]
fn ulimit_from_transcript_answers_its_step() {
    let r = diagnose("[root@node1 ~]# ulimit -n\n1024\n[root@node1 ~]# ray status\n");
    let f = &r.findings[0];
    assert_eq!(f.id, "ulimit-too-low");
    assert_eq!(f.evidence[0].line, 2);
    assert_eq!(f.steps[0].state, StepState::Answered);
    assert_eq!(f.steps[1].state, StepState::Ask);
}

#[test]
fn healthy_inputs_raise_nothing() {
    assert!(ids("").is_empty());
    assert!(ids("$ ulimit -n\n65536\n").is_empty());
    assert!(ids("$ grep EI0006 plog/*.log\n").is_empty());
    assert!(ids("export HCCL_CONNECT_TIMEOUT=3600\n").is_empty());
    assert!(ids("actor_train:\n  strategy_args:\n    strategy_name: fsdp2_train\n").is_empty());
}

#[test]
fn a_log_inside_a_chat_paste() {
    let text = "我们的任务挂了，日志如下：\r\n> ```\r\n> \u{1b}[31m[ERROR]\u{1b}[0m (WorkerDict pid=1234) EI0006: Getting socket times out.\r\n> ```\r\n谢谢！";
    let r = diagnose(text);
    assert_eq!(r.findings[0].id, "hccl-connect-timeout");
    assert_eq!(r.findings[0].evidence[0].line, 3);
    assert!(!r.findings[0].evidence[0].text.contains('\u{1b}'));
}

#[test]
fn malformed_yaml_does_not_fail() {
    let r = diagnose("actor_train:\n  strategy_args: [\n  device_mapping: list(range(0,8))\n");
    assert_eq!(r.segments[0].kind, InputKind::RollConfig);
}

#[test]
fn several_inputs_name_their_input() {
    let r = diagnose_inputs(&[
        Input { label: "node-0".into(), text: "all good\n".into(), ..Input::default() },
        Input { label: "node-1".into(), text: "x\nEI0006: Getting socket times out.\n".into(), ..Input::default() },
    ]);
    assert_eq!(r.findings[0].evidence[0].input, Some(1));
    assert_eq!(r.findings[0].evidence[0].line, 2);
}

#[test]
fn report_is_deterministic_and_renders_in_both_languages() {
    let text = "$ ulimit -n\n1024\nEI0006: Getting socket times out.\n";
    let a = serde_json::to_string(&diagnose(text)).unwrap();
    let b = serde_json::to_string(&diagnose(text)).unwrap();
    assert_eq!(a, b);
    let r = diagnose(text);
    assert!(render::text(&r, Lang::En).contains("Evidence"));
    assert!(render::text(&r, Lang::Zh).contains("证据"));
    assert!(render::markdown(&r, Lang::Zh).contains("```bash"));
}

#[test]
fn json_schema_fields() {
    let v: serde_json::Value = serde_json::to_value(diagnose("EI0006: Getting socket times out.")).unwrap();
    assert_eq!(v["schema"], "roll-doctor/report/v1");
    let f = &v["findings"][0];
    for key in ["id", "severity", "title", "evidence", "steps", "fixes"] {
        assert!(f.get(key).is_some(), "missing {key}");
    }
    assert_eq!(f["severity"], "error");
    assert!(f["title"]["en"].is_string() && f["title"]["zh"].is_string());
    assert_eq!(f["evidence"][0]["line"], 1);
    assert!(f["evidence"][0]["text"].is_string());
}

#[test]
fn unexplained_failures_are_listed_and_grouped() {
    let text = "(WorkerDict pid=11) ValueError: shape mismatch 12 vs 13\n(WorkerDict pid=12) ValueError: shape mismatch 14 vs 15\nEI0006: Getting socket times out.\nINFO fine\n";
    let r = diagnose(text);
    assert_eq!(r.findings.len(), 1);
    assert_eq!(r.unexplained.len(), 1, "{:?}", r.unexplained);
    assert_eq!(r.unexplained[0].count, 2);
    assert_eq!(r.unexplained[0].first.line, 1);
    assert!(render::text(&r, Lang::Zh).contains("未被任何规则解释"));
}

/// A code the table does not explain is named with its component in the
/// unexplained panel, also on a line nothing else marks as a failure; a
/// code it explains gets the generic finding instead.
#[test]
fn unknown_codes_are_named_in_the_unexplained_panel() {
    let r = diagnose("[INFO] starting\nacl init failed, errorCode = 100003\n");
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.unexplained.len(), 1, "{:?}", r.unexplained);
    assert_eq!(r.unexplained[0].first.line, 2);
    let note = r.unexplained[0].note.as_ref().expect("the code's component");
    assert!(note.en.starts_with("100003: a code of AscendCL"), "{note:?}");
    assert!(note.zh.starts_with("100003："), "{note:?}");
    // The table's own code: explained, not listed.
    let r = diagnose("[INFO] starting\nacl init failed, errorCode = 100002\n");
    assert_eq!(r.findings.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["cann-error-code"]);
    assert!(r.unexplained.is_empty(), "{:?}", r.unexplained);
}

/// A step answered by the input says what answered it in a few words: the
/// value a finding rests on after its subject, and a subject that already
/// ends with the value (a config key's path) once.
#[test]
fn a_step_conclusion_names_each_value_once() {
    let conclusions = |text: &str| -> Vec<String> {
        diagnose(text)
            .findings
            .iter()
            .flat_map(|f| f.steps.iter().filter_map(|s| s.conclusion.as_ref().map(|c| c.en.clone())))
            .collect()
    };
    let config =
        "actor_train:\n  model_args:\n    flash_attn: fa2\n    dtype: bf16\n  device_mapping: list(range(0,8))\n";
    assert_eq!(conclusions(config), ["actor_train.model_args.flash_attn"]);
    assert_eq!(conclusions("link status: DOWN\n"), ["DOWN"]);
    // A value that names its subject: the value alone.
    let docker =
        "docker run -it --name roll_test \\\n    --shm-size=64g \\\n    quay.io/ascend/roll:main-a2 /bin/bash\n";
    let said = conclusions(docker);
    assert!(
        said.iter().any(|c| c.starts_with("no --device /dev/davinciN, no --device /dev/davinci_manager")),
        "{said:?}"
    );
}

/// A Chinese fallback filled in where a Latin name would stand keeps no
/// gaps around it: `恢复 {{node|异常节点}} 上` reads 恢复异常节点上 when no node
/// is named, and a named node keeps its spaces.
#[test]
fn a_chinese_fallback_leaves_no_gaps_in_the_text() {
    let title = |inputs: &[Input]| -> String {
        let r = diagnose_inputs(inputs);
        let f = r.findings.iter().find(|f| f.id == "hccl-link-down").expect("hccl-link-down");
        f.fixes[0].title.zh.clone()
    };
    let text = "link status: DOWN\n";
    assert_eq!(title(&[Input { text: text.into(), ..Input::default() }]), "恢复异常节点上 <卡编号> 号卡的网口");
    let named = Input { text: text.into(), node: Some("node-7".into()), ..Input::default() };
    assert_eq!(title(&[named]), "恢复 node-7 上 <卡编号> 号卡的网口");
}

/// A step many lines answer lists the first few (the one a finding rests
/// on first) and counts the rest, in the JSON and in both renderings.
#[test]
fn a_step_lists_a_few_answering_lines_and_counts_the_rest() {
    let mut text = String::from("$ for i in {0..7}; do hccn_tool -i $i -link -g; done\n");
    for card in 0..8 {
        text.push_str(if card == 2 { "link status: DOWN\n" } else { "link status: UP\n" });
    }
    let r = diagnose(&text);
    let f = r.findings.iter().find(|f| f.id == "hccl-link-down").expect("hccl-link-down");
    let step = f.steps.iter().find(|s| s.id == "link").expect("the link check");
    assert_eq!(step.evidence.len(), 5);
    assert_eq!(step.evidence[0].text, "link status: DOWN");
    assert_eq!(step.evidence_omitted, 3);
    let v = serde_json::to_value(&r).unwrap();
    let json_step = v["findings"][0]["steps"].as_array().unwrap().iter().find(|s| s["id"] == "link").unwrap().clone();
    assert_eq!(json_step["evidence_omitted"], 3);
    assert!(render::text(&r, Lang::En).contains("(+3 more lines)"));
    assert!(render::markdown(&r, Lang::Zh).contains("(+3 行未显示)"));
    // A step two lines answer: nothing omitted, no count in the JSON.
    let r = diagnose("link status: DOWN\nlink status: UP\n");
    let step = r.findings[0].steps.iter().find(|s| s.id == "link").unwrap();
    assert_eq!((step.evidence.len(), step.evidence_omitted), (2, 0));
    assert!(serde_json::to_value(&r).unwrap()["findings"][0]["steps"][0].get("evidence_omitted").is_none());
}

/// The generic CANN finding's checks come from the code table, which gives
/// no expected result per check: none is shown (the code's title once stood
/// in for one and read as "Expect: Device failed to start"). A rule's steps
/// keep theirs, in both languages and both renderings.
#[test]
fn cann_checks_show_no_expected_result_and_rule_steps_do() {
    let r = diagnose("[ERROR] aclrtSetDevice(deviceId) failed: 507033\n");
    assert_eq!(r.findings.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["cann-error-code"]);
    let steps = &r.findings[0].steps;
    assert!(!steps.is_empty());
    assert!(steps.iter().all(|s| s.expect.is_none()), "{steps:?}");
    let v = serde_json::to_value(&r).unwrap();
    assert!(v["findings"][0]["steps"][0].get("expect").is_none(), "{v}");
    for (lang, word) in [(Lang::En, "Expect"), (Lang::Zh, "预期")] {
        assert!(!render::text(&r, lang).contains(word), "{}", render::text(&r, lang));
        assert!(!render::markdown(&r, lang).contains(word), "{}", render::markdown(&r, lang));
    }
    let r = diagnose("EI0006: Getting socket times out.");
    assert!(r.findings[0].steps.iter().all(|s| s.expect.as_ref().is_some_and(|e| e.is_complete())));
    for (lang, word) in [(Lang::En, "Expect"), (Lang::Zh, "预期")] {
        assert!(render::text(&r, lang).contains(word));
        assert!(render::markdown(&r, lang).contains(word));
    }
}

/// torch_npu's code line right after an error a finding explains is that
/// error's tail, not a second failure (vllm-ascend#3960: the graph-capture
/// message, then `ERR00007 PTA feature not supported`); the same line with
/// no explained error before it stays listed, with its note.
#[test]
fn torch_npu_code_after_an_explained_error_is_not_listed() {
    let raised = "(EngineCore_DP0 pid=31774) RuntimeError: Cannot run aclop operators during NPU graph capture. Current working aclop is Fill.";
    let code = "(EngineCore_DP0 pid=31774) [ERROR] 2025-11-03-04:02:21 (PID:31774, Device:0, RankID:-1) ERR00007 PTA feature not supported";
    let ids = |r: &roll_doctor_engine::Report| r.findings.iter().map(|f| f.id.clone()).collect::<Vec<_>>();
    for between in ["", "Current npuStreamCaptureStatus: 1\n"] {
        let r = diagnose(&format!("{raised}\n{between}{code}\n"));
        assert_eq!(ids(&r), ["npu-graph-capture-aclop"]);
        assert!(r.unexplained.is_empty(), "{:?}", r.unexplained);
    }
    // Alone, or far below the explained error: listed, with torch_npu's note.
    let far = format!("{raised}\n{}{code}\n", "INFO step\n".repeat(5));
    for text in [format!("[INFO] starting\n{code}\n"), far] {
        let r = diagnose(&text);
        assert_eq!(r.unexplained.len(), 1, "{:?}", r.unexplained);
        let note = r.unexplained[0].note.as_ref().expect("torch_npu's note");
        assert!(note.en.starts_with("ERR00007"), "{note:?}");
    }
}

/// The report torch_npu and CANN print together is one failure: when a
/// finding explains a line of it (here the CANN layer, EH9999), its other
/// lines are not listed as unexplained (vllm-ascend#2800); an unknown code
/// inside it still is, and so is a failure right after it.
#[test]
fn a_cann_report_a_finding_explains_is_not_listed_line_by_line() {
    let p = "(VllmWorker TP1 pid=961) ERROR 09-07 01:11:09 [multiproc_executor.py:596]";
    let report = [
        "[ERROR] 2025-09-07-01:11:09 (PID:961, Device:1, RankID:-1) ERR00100 PTA call acl api failed",
        "[Error]: The execution of the internal task times out. ",
        "        Rectify the fault based on the error information in the ascend log.",
        "EH9999: Inner Error!",
        "        rtStreamSynchronizeWithTimeout execute failed, reason=[fftsplus timeout][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]",
        "EH9999: [PID: 961] 2025-09-07-01:11:09.333.567 synchronize stream failed, runtime result = 507048[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]",
        "        TraceBack (most recent call last):",
    ];
    let text: String = report.iter().map(|l| format!("{p} {l}\n")).collect();
    let r = diagnose(&text);
    assert_eq!(r.findings.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["cann-error-code"]);
    assert!(r.unexplained.is_empty(), "{:?}", r.unexplained);
    // Nothing explained: torch_npu's code line is listed, with its note.
    let alone: String = report.iter().filter(|l| !l.starts_with("EH9999")).map(|l| format!("{l}\n")).collect();
    let r = diagnose(&alone);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert!(r.unexplained.iter().any(|g| g.first.text.contains("ERR00100")), "{:?}", r.unexplained);
    // An unknown code inside, and a failure on the line after: still listed.
    let more = format!("{text}{p} EZ1234: an unknown code\n{p} KeyError: 'actor_train'\n");
    let r = diagnose(&more);
    let listed: Vec<&str> = r.unexplained.iter().map(|g| g.first.text.as_str()).collect();
    assert!(listed.iter().any(|t| t.contains("EZ1234")), "{listed:?}");
    assert!(listed.iter().any(|t| t.contains("KeyError")), "{listed:?}");
    assert_eq!(listed.len(), 2, "{listed:?}");
    // Without a log prefix, the report's `[Error]: …` and indented lines have
    // no hit of their own; the ERR00100 line above them is still part of it
    // (vllm-ascend#3141).
    let plain = "[ERROR] 2025-09-28-07:22:30 (PID:316198, Device:7, RankID:-1) ERR00100 PTA call acl api failed\n\
        [Error]: Failed to apply for memory.\n        Check the remaining storage space in the hardware environment.\n\
        EL0004: [PID: 316198] 2025-09-28-07:22:29.827.496 Failed to allocate memory.\n";
    let r = diagnose(plain);
    assert!(!r.findings.is_empty());
    assert!(r.unexplained.is_empty(), "{:?}", r.unexplained);
    // A bracket the code line opened, closed on a line of its own, under
    // vLLM's log prefix (torch_npu#61): the lines below are still the report's.
    let p = "ERROR 03-04 12:57:08 [engine.py:409]";
    let wrapped = format!(
        "{p} E40024: 2025-03-04-12:56:24.963.302 Failed call Python Func/Meathod [get_binfile_sha256_hash_from_c], Reason[SystemError: PY_SSIZE_T_CLEAN macro must be defined for '#' formats\n\
         {p} ] \n{p}         Possible Cause: The Python Func/Meathod does not exist.\n{p}         TraceBack (most recent call last):\n"
    );
    let r = diagnose(&wrapped);
    assert_eq!(r.findings.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["cann-error-code"]);
    assert!(r.unexplained.is_empty(), "{:?}", r.unexplained);
    // Further than a report's gap from it: listed.
    let apart = plain.replacen("\n", &"\nINFO step\n".repeat(3), 1);
    let r = diagnose(&apart);
    assert!(r.unexplained.iter().any(|g| g.first.text.contains("ERR00100")), "{:?}", r.unexplained);
}

/// The same failure, pasted the ways people paste it, is still found, on the right line.
#[test]
fn robust_to_how_people_paste() {
    let base = "EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time.";
    let wrapped: String = {
        let long = format!("(WorkerDict pid=1234) [2025-04-08 18:07:20,444 E 1234 1234] {base}");
        long.chars().collect::<Vec<_>>().chunks(70).map(|c| c.iter().collect::<String>() + "\n").collect()
    };
    let cases: Vec<(&str, String, u32)> = vec![
        ("plain", format!("{base}\n"), 1),
        ("crlf", format!("INFO start\r\n{base}\r\nINFO end\r\n"), 2),
        ("ansi", format!("\u{1b}[1;31m{base}\u{1b}[0m\n"), 1),
        ("fence", format!("see below\n```text\n{base}\n```\n"), 3),
        ("quote", format!("> INFO start\n> {base}\n"), 2),
        ("nested quote", format!("> > {base}\n"), 1),
        ("ray prefix", format!("(WorkerDict pid=1234) {base}\n"), 1),
        ("raylet prefix", format!("(raylet, ip=10.0.0.2) {base}\n"), 1),
        ("timestamp", format!("2025-04-08 18:07:20,444 ERROR {base}\n"), 1),
        ("chinese around", format!("大家好，训练挂了：\n{base}\n请帮忙看看，谢谢！\n"), 2),
        ("starts mid-line", format!("ut. Reason: whatever\n{base}\n"), 2),
        ("ends mid-line", format!("{base}\nEI0006: [PID: 12"), 1),
        ("prompt transcript", format!("[root@node1 ~]# tail -n 1 plog.log\n{base}\n[root@node1 ~]# "), 2),
        ("hard wrapped", wrapped.clone(), 1),
    ];
    for (name, text, line) in cases {
        let r = diagnose(&text);
        let f = r.findings.iter().find(|f| f.id == "hccl-connect-timeout");
        let f = f.unwrap_or_else(|| panic!("{name}: not found in {text:?}"));
        assert_eq!(f.evidence[0].line, line, "{name}");
    }
}

#[test]
fn the_user_can_override_a_segment_kind() {
    use roll_doctor_engine::KindOverride;
    let text = "1024\n";
    assert!(diagnose(text).findings.is_empty());
    let input = Input {
        text: text.into(),
        overrides: vec![KindOverride { start_line: 1, kind: InputKind::Ulimit }],
        ..Input::default()
    };
    let r = diagnose_inputs(&[input]);
    assert_eq!(r.segments[0].kind, InputKind::Ulimit);
    assert_eq!(r.segments[0].confidence, 100);
}

/// Inputs that mention failures without having them raise no error or warn finding.
#[test]
fn no_false_alarms_on_mentions() {
    let cases: &[(&str, &str)] = &[
        ("env dump", "$ env | grep -E 'ASCEND|HCCL'\nASCEND_HOME_PATH=/usr/local/Ascend/ascend-toolkit/latest\nASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,5,6,7\nHCCL_CONNECT_TIMEOUT=3600\nHCCL_NPU_SOCKET_PORT_RANGE=auto\nASCEND_GLOBAL_LOG_LEVEL=3\n"),
        ("warning next to nothing", "Warning: CAUTION: The operator 'aten::isin.Tensor_Tensor_out' is not currently supported on the NPU backend and will fall back to run on the CPU.\n"),
        ("typed grep", "[root@node1 ~]# grep -rn \"Too many open files\" /tmp/ray/session_latest/logs/\n[root@node1 ~]# grep EI0006 /root/ascend/log/debug/plog/*.log\n"),
        ("history", "$ history | tail -3\n  501  export HCCL_CONNECT_TIMEOUT=3600\n  502  grep EI0006 plog.log\n  503  npu-smi info\n"),
        ("commented yaml", "actor_train:\n  strategy_args:\n    # strategy_name: megatron_train\n    strategy_name: fsdp2_train\n  # device_mapping: [0,1,2,3]\n  device_mapping: list(range(0,8))\n"),
        ("export lines", "export HCCL_CONNECT_TIMEOUT=3600\nexport HCCL_EXEC_TIMEOUT=3600\nexport HCCL_NPU_SOCKET_PORT_RANGE=\"auto\"\n"),
    ];
    for (name, text) in cases {
        let r = diagnose(text);
        let alarms: Vec<_> = r.findings.iter().filter(|f| f.severity != Severity::Info).map(|f| f.id.clone()).collect();
        assert!(alarms.is_empty(), "{name}: {alarms:?}");
    }
}

/// A WARNING next to a real error: the error is found, the warning is not one.
#[test]
fn warning_next_to_a_real_error() {
    let text = "Warning: The HCCL execution timeout was set to never timeout, so it is bigger than watchdog timeout 1800000ms\nEI0006: Getting socket times out.\n";
    let r = diagnose(text);
    let alarms: Vec<_> = r.findings.iter().filter(|f| f.severity != Severity::Info).map(|f| f.id.as_str()).collect();
    assert_eq!(alarms, vec!["hccl-connect-timeout"]);
}

/// A typical diagnosis link stays under 2,000 characters (design target),
/// with and without redacted excerpts. Prints the measured lengths.
#[test]
fn typical_share_link_is_short() {
    use roll_doctor_engine::share;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut text = std::fs::read_to_string(dir.join("hccl-link-down.txt")).unwrap();
    text.push_str(&std::fs::read_to_string(dir.join("hccl-connect-timeout.txt")).unwrap());
    let inputs = [Input { text, ..Input::default() }];
    let session = roll_doctor_engine::Session::default();
    let plain = share::encode(&share::build(&inputs, &session, Lang::Zh, false).0);
    let with_excerpts = share::encode(&share::build(&inputs, &session, Lang::Zh, true).0);
    eprintln!("share link: {} chars, {} with excerpts", plain.len(), with_excerpts.len());
    assert!(plain.len() < 2000, "{}", plain.len());
    assert!(with_excerpts.len() < 2000, "{}", with_excerpts.len());
    let back = share::report_from(&share::decode(&plain).unwrap());
    let ids: Vec<_> = back.report.findings.iter().map(|f| f.id.clone()).collect();
    let want: Vec<_> = diagnose_inputs(&inputs).findings.iter().map(|f| f.id.clone()).collect();
    assert_eq!(ids, want);
}

/// Loops in steps are sized for the node: 16 NPUs on A3 when npu-smi shows them.
#[test]
fn loops_follow_the_npu_count() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let a3 = std::fs::read_to_string(dir.join("healthy--npu-smi-a3.txt")).unwrap();
    let text = format!("{a3}\nEI0006: Getting socket times out.\n");
    let r = diagnose(&text);
    let f = r.findings.iter().find(|f| f.id == "hccl-connect-timeout").unwrap();
    let link = |f: &roll_doctor_engine::Finding| f.steps.iter().find(|s| s.id == "link").and_then(|s| s.run.clone());
    assert_eq!(link(f).as_deref(), Some("for i in {0..15}; do hccn_tool -i $i -link -g; done"));
    let plain = diagnose("EI0006: Getting socket times out.\n");
    assert_eq!(link(&plain.findings[0]).as_deref(), Some("for i in {0..7}; do hccn_tool -i $i -link -g; done"));
}

mod never_panics {
    use proptest::prelude::*;
    use roll_doctor_engine::{diagnose, share};

    /// Pieces of real inputs, cut and shuffled: more likely than random text
    /// to reach deep into the parsers and rules.
    const PIECES: &[&str] = &[
        "$ npu-smi info\n",
        "| 0     910B1               | OK            | 93.6        40                0    / 0             |\n",
        "+===========================+===============+====================================================+\n",
        "$ for i in {0..7}; do hccn_tool -i $i -link -g; done\n",
        "link status: DOWN\n",
        "ipaddr:10.0.0.1\n",
        "dev_id:0, tls switch[1](0:disable, 1:enable)\n",
        "actor_train:\n  device_mapping: list(range(0,",
        "  strategy_args:\n",
        "    strategy_name: megatron_train\n",
        "system_envs:\n  A: 1\n",
        "rollout_batch_size: ${x}\n",
        "- [\n",
        "  - {a: *b}\n",
        "EI0006: Getting socket times out.\n",
        "$ ss -tlnp\n",
        "LISTEN 0 128 127.0.0.1:6379 0.0.0.0:* users:((\"redis\",pid=1,fd=6))\n",
        "$ ulimit -n\n",
        "1024\n",
        "```\n",
        "> ",
        "\u{1b}[31m",
        "\r\n",
        "Traceback (most recent call last):\n",
        "KeyError: 1\n",
        "docker run -it --device /dev/davinci0 \\\n",
        "$ ray status\n",
        " 0.0/16.0 NPU\n",
        "中文 ",
        "\t",
        "#",
        "===== roll-doctor: env =====\n",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_text(s in "\\PC{0,400}") {
            let _ = diagnose(&s);
        }

        #[test]
        fn shuffled_real_pieces(idx in proptest::collection::vec(0..PIECES.len(), 0..40)) {
            let text: String = idx.iter().map(|&i| PIECES[i]).collect();
            let r = diagnose(&text);
            // a report always serialises
            prop_assert!(serde_json::to_string(&r).is_ok());
        }

        #[test]
        fn arbitrary_share_fragments(s in "(#?v1=)?[A-Za-z0-9_=-]{0,300}") {
            if let Ok(p) = share::decode(&s) {
                let _ = share::report_from(&p);
            }
        }
    }
}

/// A busy npu-smi table alone cannot say whose the memory is (the user's own
/// running server looks the same): npu-hbm-already-used is a note then, and
/// a warning once a message says the memory is someone else's.
#[test]
fn a_busy_npu_smi_table_alone_is_a_note() {
    let table = "$ npu-smi info\n| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|\n| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |\n+===========================+===============+====================================================+\n| 0     910B1               | OK            | 92.4        40                0    / 0             |\n| 0                         | 0000:61:00.0  | 0           0    / 0          59801/ 65536         |\n+===========================+===============+====================================================+\n";
    let r = diagnose(table);
    let f = r.findings.iter().find(|f| f.id == "npu-hbm-already-used").expect("the table is read");
    assert_eq!(f.severity, Severity::Info);
    let startup = "ValueError: Free memory on device (8.0/64.0 GiB) on startup is less than desired GPU memory utilization (0.9, 57.6 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.\n";
    let r = diagnose(&format!("{table}\n{startup}"));
    let f = r.findings.iter().find(|f| f.id == "npu-hbm-already-used").expect("fires");
    assert_eq!(f.severity, Severity::Warn);
    assert!(f.evidence.len() >= 2, "the table's line is evidence beside the message: {:?}", f.evidence);
}

/// vLLM-Ascend's kernels failing to load is a note on its own (installs
/// that never sleep the engine serve normally with it), and an error when the
/// pasted ROLL config colocates roles, which sleep the rollout engine.
#[test]
fn missing_vllm_ascend_kernels_matter_to_colocated_roles() {
    let warning = "(EngineCore_DP0 pid=241794) WARNING 09-18 10:33:14 [camem.py:64] Failed to import vllm_ascend_C:libvllm_ascend_kernels.so: cannot open shared object file: No such file or directory. Sleep mode will be disabled.\n";
    let severity = |text: &str| {
        diagnose(text).findings.into_iter().find(|f| f.id == "vllm-ascend-custom-ops-missing").map(|f| f.severity)
    };
    assert_eq!(severity(warning), Some(Severity::Info));
    let config = |infer: &str| {
        format!(
            "actor_train:\n  device_mapping: list(range(0,8))\nactor_infer:\n  device_mapping: {infer}\n\n{warning}"
        )
    };
    assert_eq!(severity(&config("list(range(0,8))")), Some(Severity::Error));
    assert_eq!(severity(&config("list(range(8,16))")), Some(Severity::Info));
}
