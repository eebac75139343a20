//! Real pastes from public threads (`tests/real/`), each with the source
//! it was copied from in its `#% ` header and the findings an expert
//! expects. Every one must give its expected id first; healthy output and
//! failures no rule covers must give nothing at error or warn level.
//!
//! `tests/real-holdout/` holds cases kept aside while the rules were
//! written: they are measured, not asserted (`cargo run -p
//! roll-doctor-engine --example realworld`), so the figure stays an honest
//! measure of how the rules generalise.
//!
//! `docs/coverage.md` (how many real cases each rule id has, and from
//! where) is generated from these headers; `UPDATE_COVERAGE=1 cargo test
//! -p roll-doctor-engine --test real` rewrites it.

use roll_doctor_engine::{catalogue, diagnose, Severity};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod common;

struct Case {
    file: String,
    expected: Vec<String>,
    repo: String,
    /// Why the engine cannot give the expected id first from this paste
    /// (`#% known-miss:`): the case still counts as a miss when measured,
    /// and must raise nothing outside its expected ids.
    known_miss: Option<String>,
    /// What a known miss is known to give instead (`#% known-miss-gives:`):
    /// a wrong diagnosis kept in view. It must give exactly these, so a
    /// change in what the engine says about the paste is noticed.
    known_gives: Vec<String>,
    body: String,
}

fn cases(dir: &str) -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(dir);
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(&dir).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "txt"));
    files.sort();
    files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let (header, body) = common::header_and_body(&text);
            let get = |k: &str| header.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone()).unwrap_or_default();
            let expected = get("expected")
                .split(',')
                .map(|s| s.split('(').next().unwrap_or("").trim().to_string())
                .filter(|s| !s.is_empty() && s != "none")
                .collect();
            let known_miss = Some(get("known-miss")).filter(|s| !s.is_empty());
            let known_gives =
                get("known-miss-gives").split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
            Case {
                file: p.file_name().unwrap().to_string_lossy().to_string(),
                expected,
                repo: get("repo"),
                known_miss,
                known_gives,
                body,
            }
        })
        .collect()
}

/// `None` when the case passes; else why not.
fn judge(c: &Case) -> Option<String> {
    let r = diagnose(&c.body);
    let problems: Vec<&str> = r
        .findings
        .iter()
        .filter(|f| matches!(f.severity, Severity::Error | Severity::Warn) && !f.from_symptom)
        .map(|f| f.id.as_str())
        .collect();
    let all: Vec<&str> = r.findings.iter().map(|f| f.id.as_str()).collect();
    if c.known_miss.is_some() {
        // A known miss may find less than expected, never something else
        // than what it is recorded to give.
        let stray: Vec<&str> = problems.iter().copied().filter(|p| !c.expected.iter().any(|e| e == p)).collect();
        return (stray != c.known_gives).then(|| {
            format!("{} (known miss): gives {stray:?} besides its expected ids, recorded {:?}", c.file, c.known_gives)
        });
    }
    match c.expected.first() {
        None if problems.is_empty() => None,
        None => Some(format!("{}: expected nothing at error/warn, got {problems:?}", c.file)),
        Some(first) if all.first() == Some(&first.as_str()) => None,
        Some(first) => Some(format!("{}: expected {first} first, got {all:?}", c.file)),
    }
}

#[test]
fn every_real_paste_gives_its_expected_finding_first() {
    let cases = cases("real");
    assert!(cases.len() >= 100, "only {} real cases", cases.len());
    let misses = cases.iter().filter(|c| c.known_miss.is_some()).count();
    // Round 4 (2026-12-04) added five pastes the text alone cannot decide
    // (5.3 % in all), hence 6 %; round 5 seven more (25 of 399, 6.3 %), hence
    // 7 %; round 6 ten more (35 of 435, 8.0 %), hence 8 %; round 7 seven more
    // (42 of 475, 8.8 %: three Ray pastes whose cause is in the prose, two
    // Docker-bridge addresses that only fail across machines, two CANN codes
    // the generic finding explains), hence 9 %; round 8 five more (47 of 498,
    // 9.4 %: a cut OOM line, two checkpoint paths whose cause is a second node
    // in the prose, two Paddle version sets decided by the maintainer), hence
    // 10 %; round 9 eight more (55 of 518, 10.6 %: search excerpts cut before
    // the deciding line, chips and limits named only in prose), hence 11 %;
    // rounds 10 and 11 brought eight more (62 of 564, 10.99 %: failures stated
    // only in prose, titles or screenshots, an Ascend machine named only by a
    // prompt's home directory), within it; round 12 six more and two fewer
    // (66 of 604, 10.9 %), within it; round 13 six more (72 of 639, 11.3 %:
    // out-of-memory and leftover processes stated only in prose, an A3 host
    // and a driver version named only in prose, a throughput line without the
    // flags the rule reads, and an HCCL network code the thread traced to a
    // Mooncake memory setting), hence 11.5 %; round 14, mined for the ids with
    // the fewest cases, twelve more (84 of 677, 12.4 %: for those ids the public
    // record is mostly PR descriptions and prose, a config value quoted in a
    // sentence, an error only in the title), hence 12.5 %; round 15 five more
    // (89 of 715), within it; round 16, sliced by the stage a run failed at,
    // ten more (99 of 757, 13.1 %: reports and install commands with the error
    // in the title, a maintainer's written report, slowness stated in prose,
    // release pairings the rules hold no table for), hence 13.5 %; round 17,
    // the long tail of projects, eight more (107 of 796, 13.4 %), within it.
    // A known miss needs its reason, not room: each names what the paste
    // lacks, and the cap stops misses being waved through in bulk.
    assert!(misses * 1000 <= cases.len() * 135, "{misses} known misses: more than 13.5 % of the cases");
    // A known miss that now passes should lose its mark.
    for c in cases.iter().filter(|c| c.known_miss.is_some()) {
        let fixed = Case {
            known_miss: None,
            known_gives: Vec::new(),
            file: c.file.clone(),
            expected: c.expected.clone(),
            repo: c.repo.clone(),
            body: c.body.clone(),
        };
        assert!(judge(&fixed).is_some(), "{}: marked known-miss but gives its expected id first", c.file);
    }
    let failures: Vec<String> = cases.iter().filter_map(judge).collect();
    assert!(failures.is_empty(), "{} of {} real cases fail:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

#[test]
fn every_case_names_its_source_and_known_ids() {
    let known: BTreeSet<String> =
        catalogue().rules.iter().map(|r| r.id.clone()).chain(["cann-error-code".to_string()]).collect();
    for dir in ["real", "real-holdout"] {
        for c in cases(dir) {
            assert!(!c.repo.is_empty(), "{dir}/{}: no `#% repo:` header", c.file);
            for id in &c.expected {
                assert!(known.contains(id), "{dir}/{}: unknown id {id}", c.file);
            }
            let prefix = c.file.split("--").next().unwrap();
            if prefix != "healthy" && prefix != "uncovered" && prefix != "cann-code" {
                assert!(
                    c.expected.iter().any(|id| id == prefix),
                    "{dir}/{}: named after an id it does not expect",
                    c.file
                );
            }
        }
    }
}

/// Ids with no real case, and why: what the search of the public record
/// (GitHub issues and PRs, docs) found instead. Their fixtures are the
/// catalogue's own (`tests/fixtures/`). An id that gets a real case must
/// leave this list (asserted).
const NO_PUBLIC_RECORD: &[(&str, &str)] = &[
    ("colocate-vs-separate", "an info rule on the config's layout; only design discussions, no pastes"),
    ("config-unknown-key-ignored", "silent by design (ROLL ignores the key), so nobody posts an error"),
    (
        "deepspeed-config-removed",
        "ROLL removed the configs recently; the public configs found still have them, valid at the time",
    ),
    ("device-mapping-syntax-error", "a ROLL config check; no public config shows it"),
    ("device-mapping-yaml-list", "only unrelated `eval() arg 1 must be a string` pastes (Python 2, other projects)"),
    ("strategy-name-invalid", "no posted dacite `wrong value type for field` on strategy_name"),
    ("worker-exit-expected", "ROLL-specific message; no public ROLL thread shows it"),
];

/// The coverage table: real cases per rule id, tuning and held out, and the repositories they come from.
fn coverage_table() -> String {
    let mut misses: Vec<(String, String)> = Vec::new();
    let mut by_id: BTreeMap<String, (usize, usize, BTreeSet<String>)> = BTreeMap::new();
    for r in &catalogue().rules {
        by_id.entry(r.id.clone()).or_default();
    }
    by_id.entry("cann-error-code".into()).or_default();
    let (mut healthy, mut uncovered) = ((0, 0), (0, 0));
    for (dir, holdout) in [("real", false), ("real-holdout", true)] {
        for c in cases(dir) {
            let Some(first) = c.expected.first() else {
                let slot = if c.file.starts_with("healthy") { &mut healthy } else { &mut uncovered };
                if holdout {
                    slot.1 += 1;
                } else {
                    slot.0 += 1;
                }
                continue;
            };
            if let Some(why) = &c.known_miss {
                let gives = if c.known_gives.is_empty() {
                    String::new()
                } else {
                    format!(" (The engine gives {} instead.)", c.known_gives.join(", "))
                };
                misses.push((c.file.clone(), format!("{why}{gives}")));
            }
            let e = by_id.entry(first.clone()).or_default();
            if holdout {
                e.1 += 1;
            } else {
                e.0 += 1;
            }
            e.2.insert(c.repo.clone());
        }
    }
    let mut o = String::from(
        "# Real-world coverage\n\n\
         Generated by `UPDATE_COVERAGE=1 cargo test -p roll-doctor-engine --test real` from the headers of\n\
         `crates/engine/tests/real/` (the cases the rules were written against; each must give its id first)\n\
         and `crates/engine/tests/real-holdout/` (kept aside, measured by\n\
         `cargo run -p roll-doctor-engine --example realworld`). Every case is a verbatim paste from a public\n\
         thread; its header names the repository, the issue or PR and the URL. A case counts for the id it\n\
         expects first. A held-out round is measured once, before any rule is changed for it, and then\n\
         joins the tuning cases; `crates/engine/tests/real-holdout/README.md` lists the rounds and their\n\
         figures.\n\n\
         | rule id | real cases | held out | from |\n|---|---:|---:|---|\n",
    );
    for (id, (n, h, repos)) in &by_id {
        let from: Vec<&str> = repos.iter().map(String::as_str).collect();
        o.push_str(&format!("| `{id}` | {n} | {h} | {} |\n", from.join(", ")));
    }
    o.push_str(&format!(
        "| healthy output (must stay silent) | {} | {} | |\n| failures no rule covers (must stay silent) | {} | {} | |\n",
        healthy.0, healthy.1, uncovered.0, uncovered.1
    ));
    let empty: Vec<&String> = by_id.iter().filter(|(_, (n, h, _))| n + h == 0).map(|(id, _)| id).collect();
    let noted: Vec<&str> = NO_PUBLIC_RECORD.iter().map(|(id, _)| *id).collect();
    let empty_ids: Vec<&str> = empty.iter().map(|s| s.as_str()).collect();
    assert_eq!(empty_ids, noted, "NO_PUBLIC_RECORD must list exactly the ids with no real case");
    o.push_str("\nIds with no real case (their tests are the catalogue's fixtures) and what the search found:\n\n");
    for (id, why) in NO_PUBLIC_RECORD {
        o.push_str(&format!("- `{id}`: {why}\n"));
    }
    if !misses.is_empty() {
        o.push_str(
            "\nKnown misses (counted above; the engine does not give the expected id first from the paste alone,\n\
             and must raise nothing else unless a wrong diagnosis is recorded here):\n\n",
        );
        for (file, why) in &misses {
            o.push_str(&format!("- `{file}`: {why}\n"));
        }
    }
    o
}

#[test]
fn coverage_table_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/coverage.md");
    let want = coverage_table();
    if std::env::var_os("UPDATE_COVERAGE").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        have, want,
        "docs/coverage.md is out of date: UPDATE_COVERAGE=1 cargo test -p roll-doctor-engine --test real"
    );
}
