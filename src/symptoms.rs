//! "Start from a symptom": the catalogue's rules grouped by the area each
//! rule declares (`area:` in its file), so a user with nothing to paste can
//! pick what they see and walk that rule's tree. It holds no diagnosis
//! logic: picking a rule only puts its id into `Session::symptoms`.

use roll_doctor_engine::{catalogue, Area, Rule};

/// The key of an area's name in the UI string table.
pub fn area_key(a: Area) -> &'static str {
    match a {
        Area::Hccl => "grp_hccl",
        Area::Ray => "grp_ray",
        Area::Npu => "grp_npu",
        Area::Env => "grp_env",
        Area::Config => "grp_config",
        Area::Perf => "grp_perf",
        Area::Other => "grp_other",
    }
}

/// The area's code, as the page's `data-group` attribute shows it.
pub fn area_code(a: Area) -> &'static str {
    &area_key(a)[4..]
}

/// The rules grouped by area, in display order; empty areas left out.
pub fn grouped() -> Vec<(Area, Vec<&'static Rule>)> {
    let cat = catalogue();
    Area::ALL
        .iter()
        .map(|a| (*a, cat.rules.iter().filter(|r| r.area == *a).collect::<Vec<_>>()))
        .filter(|(_, list)| !list.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_listed_once_and_the_six_areas_are_filled() {
        let groups = grouped();
        let listed: usize = groups.iter().map(|(_, l)| l.len()).sum();
        assert_eq!(listed, catalogue().rules.len(), "every rule appears exactly once");
        for a in &Area::ALL[..6] {
            assert!(groups.iter().any(|(x, l)| x == a && !l.is_empty()), "area {a:?} is empty");
        }
        assert_eq!(area_code(Area::Perf), "perf");
    }
}
