//! "Start from a symptom": the catalogue's rules grouped by area, so a user
//! with nothing to paste can pick what they see and walk that rule's tree.
//!
//! The grouping is by rule pack (the folder under `rules/`) and, for the
//! memory and performance rules that live in several packs, by id. It holds
//! no diagnosis logic: picking a rule only puts its id into
//! `Session::symptoms`.

use roll_doctor_engine::{catalogue, Rule};

/// The areas the symptom list is grouped into, in display order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    /// HCCL and the NPU / host network.
    Hccl,
    /// Ray cluster.
    Ray,
    /// NPUs, firmware and driver.
    Npu,
    /// CANN, Python packages, system settings.
    Env,
    /// The ROLL config.
    Config,
    /// Out of memory, slow runs.
    Perf,
    /// A pack that has no group yet.
    Other,
}

impl Group {
    /// Every group, in display order.
    pub const ALL: [Group; 7] =
        [Group::Hccl, Group::Ray, Group::Npu, Group::Env, Group::Config, Group::Perf, Group::Other];

    /// The UI string key of the group's name.
    pub fn key(self) -> &'static str {
        match self {
            Group::Hccl => "grp_hccl",
            Group::Ray => "grp_ray",
            Group::Npu => "grp_npu",
            Group::Env => "grp_env",
            Group::Config => "grp_config",
            Group::Perf => "grp_perf",
            Group::Other => "grp_other",
        }
    }

    /// A stable name for tests and `data-` attributes.
    pub fn code(self) -> &'static str {
        &self.key()[4..]
    }
}

/// Ids (or parts of ids) of memory and performance rules, whatever their pack.
const PERF_WORDS: &[&str] = &["oom", "hbm", "memory", "slow", "perf"];

/// The group of rule `id` that lives in pack `pack` (`hccl`, `ray`, …; may be empty).
pub fn group_of(id: &str, pack: &str) -> Group {
    if PERF_WORDS.iter().any(|w| id.split('-').any(|part| part == *w)) {
        return Group::Perf;
    }
    match pack {
        "hccl" | "network" => return Group::Hccl,
        "ray" => return Group::Ray,
        "device" | "npu" | "driver" => return Group::Npu,
        "env" | "system" | "packages" => return Group::Env,
        "config" => return Group::Config,
        _ => {}
    }
    let prefix = id.split('-').next().unwrap_or("");
    match prefix {
        "hccl" | "hccn" | "firewall" | "network" => Group::Hccl,
        "ray" => Group::Ray,
        "npu" | "soc" | "driver" | "firmware" => Group::Npu,
        "cann" | "torch" | "triton" | "vllm" | "version" | "pip" | "ulimit" | "python" => Group::Env,
        "config" | "device" | "yaml" | "strategy" => Group::Config,
        _ => Group::Other,
    }
}

/// The pack (folder) of the rule file whose name is `<id>.yaml`.
fn pack_of(id: &str) -> &'static str {
    let file = format!("{id}.yaml");
    roll_doctor_engine::catalogue::rule_files()
        .iter()
        .find_map(|(path, _)| {
            let (pack, name) = path.rsplit_once('/')?;
            (name == file).then_some(pack)
        })
        .unwrap_or("")
}

/// The catalogue's rules by group (empty groups left out), each group in
/// catalogue order.
pub fn grouped() -> Vec<(Group, Vec<&'static Rule>)> {
    let cat = catalogue();
    let mut out: Vec<(Group, Vec<&'static Rule>)> = Group::ALL.iter().map(|g| (*g, Vec::new())).collect();
    for rule in &cat.rules {
        let g = group_of(&rule.id, pack_of(&rule.id));
        if let Some((_, list)) = out.iter_mut().find(|(x, _)| *x == g) {
            list.push(rule);
        }
    }
    out.retain(|(_, list)| !list.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_packs_map_to_groups() {
        assert_eq!(group_of("npu-oom", "device"), Group::Perf);
        assert_eq!(group_of("npu-hbm-already-used", "device"), Group::Perf);
        assert_eq!(group_of("vllm-slow-inference", "env"), Group::Perf);
        assert_eq!(group_of("hccl-link-down", "hccl"), Group::Hccl);
        assert_eq!(group_of("firewall-blocking", "hccl"), Group::Hccl);
        assert_eq!(group_of("ray-nodes-not-joining", "ray"), Group::Ray);
        assert_eq!(group_of("npu-health-not-ok", "device"), Group::Npu);
        assert_eq!(group_of("ulimit-too-low", "system"), Group::Env);
        assert_eq!(group_of("megatron-strategy-on-npu", "config"), Group::Config);
        // no pack: by prefix
        assert_eq!(group_of("hccl-something-new", ""), Group::Hccl);
        assert_eq!(group_of("torch-npu-unavailable", ""), Group::Env);
        assert_eq!(group_of("zzz", ""), Group::Other);
    }

    #[test]
    fn every_rule_is_listed_once_and_the_six_areas_are_filled() {
        let groups = grouped();
        let listed: usize = groups.iter().map(|(_, l)| l.len()).sum();
        assert_eq!(listed, catalogue().rules.len(), "every rule appears exactly once");
        for g in &Group::ALL[..6] {
            assert!(groups.iter().any(|(x, l)| x == g && !l.is_empty()), "group {g:?} is empty");
        }
        for (g, list) in &groups {
            for r in list {
                assert_eq!(group_of(&r.id, pack_of(&r.id)), *g);
                assert!(!pack_of(&r.id).is_empty(), "rule {} has a pack", r.id);
            }
        }
    }
}
