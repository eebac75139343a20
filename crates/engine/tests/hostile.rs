//! Hostile share links and rule files: each is answered with a clear
//! message, in bounded time, and nothing else is lost (the link's other
//! content still opens; every built-in rule keeps working).

use base64::Engine as _;
use roll_doctor_engine::catalogue::{rule_files, MAX_RULE_FILE};
use roll_doctor_engine::share::{self, decode, report_from, Payload, ShareError, MAX_ITEMS, MAX_JSON};
use roll_doctor_engine::{diagnose_with, Catalogue, Input, Lang, Session};
use std::time::{Duration, Instant};

/// A link over any JSON text, packed as real links are.
fn link_of(json: &str) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 6);
    format!("v1={}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed))
}

/// A real payload: a transcript with a DOWN link, a low ulimit and an EI0006 timeout.
fn real_payload() -> Payload {
    let text = "[root@node1 ~]# hccn_tool -i 5 -link -g\nlink status: DOWN\n[root@node1 ~]# ulimit -n\n1024\n\
                EI0006: [PID: 1] Getting socket times out. peer 10.20.0.29\n";
    share::build(&[Input { text: text.into(), ..Input::default() }], &Session::default(), Lang::En, true).0
}

fn ids(p: &Payload) -> Vec<String> {
    report_from(p).report.findings.iter().map(|f| f.id.clone()).collect()
}

fn within<T>(limit: Duration, what: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let out = f();
    assert!(t.elapsed() < limit, "{what} took {:?}", t.elapsed());
    out
}

#[test]
fn errors_are_sentences() {
    for e in [
        ShareError::NotALink,
        ShareError::FutureVersion(7),
        ShareError::TooLarge,
        ShareError::Corrupt("facts[0].l: invalid type".into()),
    ] {
        let m = e.to_string();
        assert!(m.len() > 15 && m.contains("link"), "{m}");
    }
}

#[test]
fn oversized_fragments_and_decompression_bombs_are_too_large() {
    assert_eq!(decode(&format!("v1={}", "A".repeat(share::MAX_FRAGMENT))), Err(ShareError::TooLarge));
    // 64 MB of spaces deflate to a few tens of KB; inflating stops at MAX_JSON.
    let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 64 << 20], 10);
    let bomb = format!("v1={}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bomb));
    if bomb.len() <= share::MAX_FRAGMENT {
        assert_eq!(within(Duration::from_secs(2), "the bomb", || decode(&bomb)), Err(ShareError::TooLarge));
    }
    // Valid JSON just over the cap: too large, not corrupt.
    let mut p = real_payload();
    p.rules = "x".repeat(MAX_JSON);
    assert_eq!(decode(&link_of(&serde_json::to_string(&p).unwrap())), Err(ShareError::TooLarge));
}

#[test]
fn deeply_nested_json_is_refused_without_overflowing_the_stack() {
    for depth in [200, 100_000] {
        let value = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let json = format!(
            r#"{{"v":1,"rules":"x","lang":"en","findings":[],"facts":[{{"n":"ulimit.nofile","v":{value},"l":1}}]}}"#
        );
        let link = link_of(&json);
        if link.len() > share::MAX_FRAGMENT {
            assert_eq!(decode(&link), Err(ShareError::TooLarge));
            continue;
        }
        match within(Duration::from_secs(2), "deep JSON", || decode(&link)) {
            Err(ShareError::Corrupt(m)) => assert!(m.contains("recursion limit"), "{m}"),
            other => panic!("depth {depth}: {other:?}"),
        }
    }
    // Nesting a real payload allows (a fact value of 100 levels) opens: the value is just ignored.
    let value = format!("{}1{}", "[".repeat(100), "]".repeat(100));
    let json = format!(
        r#"{{"v":1,"rules":"x","lang":"en","findings":[],"facts":[{{"n":"ulimit.nofile","v":{value},"l":1}}]}}"#
    );
    let p = decode(&link_of(&json)).expect("100 levels decode");
    assert!(report_from(&p).report.findings.is_empty());
}

#[test]
fn huge_arrays_are_capped_and_what_is_under_the_cap_opens_quickly() {
    // Over the cap: too large.
    let fact = r#"{"n":"ulimit.nofile","v":1024,"l":1}"#;
    let facts = vec![fact; MAX_ITEMS + 1].join(",");
    let json = format!(r#"{{"v":1,"rules":"x","lang":"en","findings":[],"facts":[{facts}]}}"#);
    assert_eq!(decode(&link_of(&json)), Err(ShareError::TooLarge));
    let many_ids = vec![r#""hccl-link-down""#; share::MAX_IDS + 1].join(",");
    let json = format!(r#"{{"v":1,"rules":"x","lang":"en","findings":[{many_ids}]}}"#);
    assert_eq!(decode(&link_of(&json)), Err(ShareError::TooLarge));

    // Just under the cap, with values that fire rules: opens, in bounded time.
    let mut p = real_payload();
    let (f0, h0) = (p.facts[0].clone(), p.hits[0].clone());
    p.facts = (0..MAX_ITEMS as u32).map(|i| share::SharedFact { line: i + 1, ..f0.clone() }).collect();
    p.hits = (0..MAX_ITEMS as u32).map(|i| share::SharedHit { line: i + 1, ..h0.clone() }).collect();
    let link = share::encode(&p);
    if link.len() <= share::MAX_FRAGMENT {
        let back = decode(&link).expect("under the cap");
        let r = within(Duration::from_secs(20), "report_from of 20,000 facts and hits", || report_from(&back));
        assert!(!r.report.findings.is_empty());
    } else {
        // The fragment limit is stricter than the item cap: still a clear answer.
        assert_eq!(decode(&link), Err(ShareError::TooLarge));
        let r = within(Duration::from_secs(20), "report_from of 20,000 facts and hits", || report_from(&p));
        assert!(!r.report.findings.is_empty());
    }
}

#[test]
fn wrong_types_name_where_they_are() {
    let cases = [
        (
            r#"{"v":1,"rules":"x","lang":"en","findings":[],"facts":[{"n":"ulimit.nofile","v":1,"l":"one"}]}"#,
            "facts[0].l",
        ),
        (r#"{"v":1,"rules":"x","lang":"en","findings":"hccl-link-down"}"#, "findings"),
        (r#"{"v":1,"rules":"x","lang":"en","findings":[],"hits":[{"p":-1,"l":1}]}"#, "hits[0].p"),
        (r#"{"v":"1","rules":"x","lang":"en","findings":[]}"#, "v"),
        (
            r#"{"v":1,"rules":"x","lang":"en","findings":[],"session":{"answers":[{"rule":1}]}}"#,
            "session.answers[0].rule",
        ),
        (r#"[1,2,3]"#, "invalid type"),
        (r#"{"v":1,"rules":"x","lang":"en","findings":[],"facts":[{"n":"x","v":1,"l":99999999999}]}"#, "facts[0].l"),
    ];
    for (json, want) in cases {
        match decode(&link_of(json)) {
            Err(ShareError::Corrupt(m)) => assert!(m.contains(want), "{json}: {m}"),
            other => panic!("{json}: {other:?}"),
        }
    }
}

#[test]
fn unknown_future_fields_and_values_are_ignored() {
    let p = real_payload();
    let want = ids(&p);
    assert!(!want.is_empty());
    let mut v = serde_json::to_value(&p).unwrap();
    v["x_future"] = serde_json::json!({"anything": [1, 2, {"deep": true}]});
    v["lang"] = serde_json::json!("fr");
    v["facts"][0]["x_confidence"] = serde_json::json!(0.5);
    v["hits"][0]["x_col"] = serde_json::json!(17);
    v["session"]["x_notes"] = serde_json::json!("later");
    if let Some(e) = v["excerpts"].get_mut(0) {
        e["x_hl"] = serde_json::json!([1, 4]);
    }
    // A fact this version does not declare, a known fact of another type, a rule it does not have.
    v["facts"].as_array_mut().unwrap().push(serde_json::json!({"n": "npu.x_future", "v": 1, "l": 1}));
    v["facts"].as_array_mut().unwrap().push(serde_json::json!({"n": "ulimit.nofile", "v": "lots", "l": 2}));
    v["hits"].as_array_mut().unwrap().push(serde_json::json!({"p": 12345, "l": 3}));
    v["findings"].as_array_mut().unwrap().push(serde_json::json!("x-future-rule"));
    let back = decode(&link_of(&v.to_string())).expect("a link from a later version opens");
    assert_eq!(back.lang, Lang::En);
    let r = report_from(&back);
    let got: Vec<String> = r.report.findings.iter().map(|f| f.id.clone()).collect();
    assert_eq!(got, want);
    assert_eq!(r.missing, vec!["x-future-rule".to_string()]);
}

#[test]
fn out_of_range_indices_do_not_panic() {
    let json = format!(
        r#"{{"v":1,"rules":"x","lang":"zh","inputs":{max},"nodes":["a","b"],"findings":["hccl-link-down"],
        "facts":[{{"n":"hccn.link_status","s":"5","v":"DOWN","i":{max},"l":{max},"d":{max}}}],
        "hits":[{{"p":0,"i":{max},"l":0,"d":7}}],
        "excerpts":[{{"input":{big},"line":{max},"text":"link status: DOWN"}}],
        "session":{{"answers":[{{"rule":"nope","step":"nope","answer":"nope"}}],"symptoms":["nope","hccl-link-down"]}}}}"#,
        max = u32::MAX,
        big = u64::MAX
    );
    let p = decode(&link_of(&json)).expect("decodes");
    let r = report_from(&p);
    assert!(r.report.findings.iter().any(|f| f.id == "hccl-link-down"));
}

#[test]
fn garbage_is_corrupt_not_a_panic() {
    for f in
        ["v1=", "v1=%%%", "v1=AAAA", "v1=\u{1F600}", "#v1=__--", "v0=abc", "v=abc", "vx=1", "v99999999999=1", "&&&v1"]
    {
        let r = decode(f);
        assert!(r.is_err(), "{f}: {r:?}");
    }
}

// ---- rule files -------------------------------------------------------------------------

fn minimal_rule(id: &str, signature: &str) -> String {
    format!(
        r#"id: {id}
severity: warn
area: other
title: {{ en: "A test rule", zh: "测试规则" }}
summary: {{ en: "Fires on a test line.", zh: "遇到测试行时触发。" }}
when:
  signature: '{signature}'
fixes:
  - title: {{ en: "Nothing to fix", zh: "无需修复" }}
examples:
  match: ['xyzzy-test-line']
  no_match: ['healthy']
"#
    )
}

fn built_in_ids() -> Vec<String> {
    Catalogue::load(rule_files()).rules.iter().map(|r| r.id.clone()).collect()
}

/// Every built-in rule is still there and still fires on its own example.
fn built_ins_work(cat: &Catalogue) {
    let want = built_in_ids();
    for id in &want {
        assert!(cat.rule(id).is_some(), "{id} was lost");
    }
    let r = diagnose_with(cat, &[Input { text: "EI0006: Getting socket times out.\n".into(), ..Input::default() }]);
    assert!(r.findings.iter().any(|f| f.id == "hccl-connect-timeout"));
}

#[test]
fn a_good_extra_rule_loads() {
    let cat = Catalogue::load_with(rule_files(), &[("mine.yaml".into(), minimal_rule("x-test", "xyzzy-test-line"))]);
    assert!(cat.errors.is_empty(), "{:?}", cat.errors);
    assert!(cat.rule("x-test").is_some());
    built_ins_work(&cat);
}

#[test]
fn a_huge_rule_file_is_refused_by_size() {
    let mut big = minimal_rule("x-big", "xyzzy-test-line");
    big.push_str(&format!("# {}\n", "padding ".repeat(MAX_RULE_FILE / 8)));
    let cat = within(Duration::from_secs(10), "a huge rule file", || {
        Catalogue::load_with(rule_files(), &[("big.yaml".into(), big)])
    });
    assert_eq!(cat.errors.len(), 1);
    assert_eq!(cat.errors[0].file, "big.yaml");
    assert!(cat.errors[0].message.contains("KiB"), "{}", cat.errors[0].message);
    built_ins_work(&cat);
}

#[test]
fn long_and_explosive_patterns_are_load_errors_with_file_and_line() {
    let cases = [
        ("long.yaml", "a".repeat(roll_doctor_engine::pattern::MAX_PATTERN_LEN + 1), "limit"),
        ("counted.yaml", r"(\w{1000}){1000}".to_string(), "size limit"),
        ("counted-class.yaml", r"(?:[a-z]{500}){500}".to_string(), "size limit"),
        ("nest.yaml", format!("{}a{}", "(".repeat(500), ")".repeat(500)), "nest"),
        ("class.yaml", "[连接]超时".to_string(), "inside [...]"),
    ];
    for (file, pat, want) in cases {
        let src = minimal_rule("x-pattern", &pat.replace('\'', "''"));
        let cat =
            within(Duration::from_secs(10), file, || Catalogue::load_with(rule_files(), &[(file.to_string(), src)]));
        assert_eq!(cat.errors.len(), 1, "{file}: {:?}", cat.errors);
        let e = &cat.errors[0];
        assert_eq!(e.file, file);
        assert!(e.line.is_some(), "{file}: no line in {e}");
        assert!(e.message.to_lowercase().contains(want), "{file}: {}", e.message);
        assert!(cat.rule("x-pattern").is_none());
        built_ins_work(&cat);
    }
}

#[test]
fn extra_patterns_too_large_together_leave_the_built_ins_working() {
    // Each pattern is under the per-pattern limit (2 MB); together they exceed the set's (64 MB).
    let pattern = r"(?:[a-z]{100}){200}";
    roll_doctor_engine::pattern::compile(pattern).expect("one alone compiles");
    let files: Vec<(String, String)> = (0..10)
        .map(|i| {
            let mut src = minimal_rule(&format!("x-many-{i}"), &format!("{pattern}q{i}"));
            src = src.replace("when:\n  signature:", "when:\n  any:\n    - signature:");
            for j in 0..7 {
                src = src.replace("\nfixes:", &format!("\n    - signature: '{pattern}r{i}x{j}'\nfixes:"));
            }
            (format!("many-{i}.yaml"), src)
        })
        .collect();
    let cat =
        within(Duration::from_secs(120), "ten files of big patterns", || Catalogue::load_with(rule_files(), &files));
    for (name, _) in &files {
        assert!(
            cat.errors.iter().any(|e| &e.file == name && e.message.contains("built-in rules still work")),
            "{name}: {:?}",
            cat.errors
        );
    }
    assert!(cat.extra.is_empty());
    built_ins_work(&cat);
}

#[test]
fn hostile_yaml_in_rule_files_is_a_load_error() {
    let deep = format!("id: x-deep\nwhen: {}1{}\n", "[".repeat(10_000), "]".repeat(10_000));
    let laughs = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n\
                  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nid: *e\n";
    let wrong_type = minimal_rule("x-wrong", "xyzzy").replace("severity: warn", "severity: [1, 2]");
    let unknown_key = minimal_rule("x-unknown", "xyzzy").replace("area: other", "area: other\nsevirity: warn");
    let not_utf8_like = "\u{feff}id: x\u{0}\u{1b}[31m: :\n\t- ]\n".to_string();
    for (file, src) in [
        ("deep.yaml", deep),
        ("laughs.yaml", laughs.to_string()),
        ("wrong.yaml", wrong_type),
        ("unknown.yaml", unknown_key),
        ("garbage.yaml", not_utf8_like),
        ("empty.yaml", String::new()),
    ] {
        let cat =
            within(Duration::from_secs(10), file, || Catalogue::load_with(rule_files(), &[(file.to_string(), src)]));
        assert_eq!(cat.errors.len(), 1, "{file}: {:?}", cat.errors);
        assert_eq!(cat.errors[0].file, file);
        assert!(!cat.errors[0].message.is_empty());
        built_ins_work(&cat);
    }
}

#[test]
fn floats_in_links_round_trip_exactly() {
    // Found by fuzz/share: a float with a large exponent came back one ulp off.
    let mut p = real_payload();
    for x in [1.0220000000000001e39, 0.1 + 0.2, 5e-324, 1.7976931348623157e308, 95.30000000000001] {
        p.facts[0].value = serde_json::Number::from_f64(x).map(serde_json::Value::Number).unwrap();
        let back = decode(&share::encode(&p)).expect("decodes");
        assert_eq!(back, p, "{x:e}");
        assert_eq!(back.facts[0].value.as_f64(), Some(x));
    }
}
