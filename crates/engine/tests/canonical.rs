//! Every canonical rule id of the domain catalogue (section 0 of
//! `../shared/domain/catalogue.md`) is a rule. The ids are listed here too,
//! so the check runs without `../shared`; when the catalogue is present the
//! list is compared with it, so neither can drift.

use roll_doctor_engine::catalogue;
use std::collections::BTreeSet;

mod common;

const CANONICAL: &[&str] = &[
    "npu-not-visible-in-container",
    "cann-env-not-sourced",
    "torch-npu-unavailable",
    "soc-version-mismatch",
    "unsupported-hardware-for-roll",
    "fractal-nz-enabled",
    "hccl-npu-port-bound",
    "hccl-host-port-bound",
    "triton-conflict",
    "megatron-strategy-on-npu",
    "hccl-comm-failure",
    "hccl-link-down",
    "hccl-device-ip-missing",
    "hccl-tls-inconsistent",
    "hccl-connect-timeout",
    "hccl-ping-failed",
    "firewall-blocking",
    "ray-nodes-not-joining",
    "worker-exit-expected",
    "hccl-cross-node-comm",
    "shared-storage-missing",
    "ulimit-too-low",
    "npu-oom",
    "npu-hbm-already-used",
    "npu-health-not-ok",
    "vllm-slow-inference",
    "first-inference-slow",
    "node2pg-keyerror",
    "lr-decay-steps-zero",
    "batch-size-lt-chunks",
    "backend-compiler-failed",
    "colocate-vs-separate",
    "hydra-config-path-wrong",
    "deepspeed-config-removed",
    "strategy-name-invalid",
    "device-mapping-yaml-list",
    "device-mapping-syntax-error",
    "device-mapping-exceeds-cluster",
    "ray-cluster-too-few-nodes",
    "ray-no-npu-resources",
    "vllm-tp-not-dividing-device-mapping",
    "device-mapping-not-contiguous",
    "system-envs-non-string",
    "config-unknown-key-ignored",
    "torch-npu-import-fallback-to-cpu",
    "ray-head-port-occupied-by-other-process",
    "version-stack-mismatch",
];

/// Ids from the catalogue's section 0 table: the first cell of each row,
/// without parenthesised notes; the umbrella row lists its sub-ids after `→`.
fn ids_from_catalogue(md: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let Some(start) = md.find("## 0. Slug index") else { return out };
    let section = &md[start..];
    let end = section[3..].find("\n## ").map(|e| e + 3).unwrap_or(section.len());
    for line in section[..end].lines() {
        let Some(cell) = line.strip_prefix('|').and_then(|l| l.split('|').next()) else { continue };
        let cell = cell.trim();
        if cell.is_empty() || cell == "slug" || cell.starts_with("---") {
            continue;
        }
        for part in cell.split(['→', '/']) {
            let id = part.split('(').next().unwrap_or("").trim();
            if !id.is_empty() && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') {
                out.insert(id.to_string());
            }
        }
    }
    out
}

#[test]
fn every_canonical_id_is_a_rule_with_titles_steps_and_fixes() {
    let cat = catalogue();
    for id in CANONICAL {
        let rule = cat.rule(id).unwrap_or_else(|| panic!("canonical id {id} has no rule"));
        assert!(!rule.title.en.is_empty() && !rule.title.zh.is_empty(), "{id}");
        assert!(!rule.steps.is_empty(), "{id}: needs a decision tree");
        assert!(!rule.fixes.is_empty(), "{id}: needs a fix");
    }
}

#[test]
fn list_matches_the_shared_catalogue() {
    let Some(path) = common::shared("domain/catalogue.md") else { return };
    let md = std::fs::read_to_string(&path).expect("catalogue.md is readable");
    let from_md = ids_from_catalogue(&md);
    let ours: BTreeSet<String> = CANONICAL.iter().map(|s| s.to_string()).collect();
    assert_eq!(from_md, ours, "the catalogue's section 0 and CANONICAL differ");
}
