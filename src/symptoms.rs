//! "Start from a symptom": the catalogue's rules grouped by the area each
//! rule declares (`area:` in its file), filtered by what the user types (words
//! or an error code such as `EI0006`). The list comes from the engine worker
//! ([`crate::model::SymptomInfo`]); picking a rule only puts its id into
//! `Session::symptoms`.

use crate::model::SymptomInfo;
use roll_doctor_engine::Area;

/// The area's code, as the page's `data-group` attribute shows it.
pub fn area_code(a: Area) -> &'static str {
    match a {
        Area::Hccl => "hccl",
        Area::Ray => "ray",
        Area::Npu => "npu",
        Area::Env => "env",
        Area::Config => "config",
        Area::Perf => "perf",
        Area::Other => "other",
    }
}

/// Whether a rule matches the filter: every word of it appears in the
/// rule's id, titles, summary or codes (case-insensitive).
pub fn matches(s: &SymptomInfo, filter: &str) -> bool {
    let f = filter.to_lowercase();
    f.split_whitespace().all(|w| s.search.contains(w))
}

/// The rules matching `filter`, grouped by area in display order; empty
/// areas left out.
pub fn grouped<'a>(list: &'a [SymptomInfo], filter: &str) -> Vec<(Area, Vec<&'a SymptomInfo>)> {
    Area::ALL
        .iter()
        .map(|a| (*a, list.iter().filter(|r| r.area == *a && matches(r, filter)).collect::<Vec<_>>()))
        .filter(|(_, l)| !l.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::Host;
    use crate::model::Reply;

    fn list() -> Vec<SymptomInfo> {
        match Host::new().ready() {
            Reply::Ready { symptoms, .. } => symptoms,
            _ => unreachable!(),
        }
    }

    #[test]
    fn every_rule_is_listed_once_and_the_six_areas_are_filled() {
        let list = list();
        let groups = grouped(&list, "");
        let listed: usize = groups.iter().map(|(_, l)| l.len()).sum();
        assert_eq!(listed, roll_doctor_engine::catalogue().rules.len(), "every rule appears exactly once");
        for a in &Area::ALL[..6] {
            assert!(groups.iter().any(|(x, l)| x == a && !l.is_empty()), "area {a:?} is empty");
        }
        assert_eq!(area_code(Area::Perf), "perf");
    }

    #[test]
    fn filter_by_words_and_by_error_code() {
        let list = list();
        let by_code: Vec<&str> =
            grouped(&list, "ei0006").iter().flat_map(|(_, l)| l.iter().map(|s| s.id.as_str())).collect();
        assert!(by_code.contains(&"hccl-connect-timeout"), "{by_code:?}");
        assert!(by_code.len() < list.len() / 2, "the code narrows the list: {by_code:?}");
        let by_words: Vec<&str> =
            grouped(&list, "Link DOWN").iter().flat_map(|(_, l)| l.iter().map(|s| s.id.as_str())).collect();
        assert!(by_words.contains(&"hccl-link-down"), "{by_words:?}");
        let zh: Vec<&str> = grouped(&list, "建链").iter().flat_map(|(_, l)| l.iter().map(|s| s.id.as_str())).collect();
        assert!(zh.contains(&"hccl-connect-timeout"), "{zh:?}");
        assert!(grouped(&list, "no-such-thing-anywhere").is_empty());
    }
}
