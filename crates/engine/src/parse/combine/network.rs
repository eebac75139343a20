//! What `HCCL_SOCKET_IFNAME` selects: HCCL reads it as a comma-separated
//! list of interface-name prefixes, `=name` for exact names, a leading `^`
//! to exclude. Applying those semantics to the interface `ip route get`
//! reports (of the same node) gives `hccl.ifname_selects`; the rule
//! `hccl-cross-node-comm` judges it.
//!
//! Everything else that was once a verdict here is a rule condition now:
//! duplicate device IPs (`duplicate: true` on `hccn.ipaddr`), TLS switches
//! that differ (`differs: true`), the Ray head port's owner and bind
//! address (`ss.listen_process`, `ss.listen`), too few Ray nodes for
//! `WORLD_SIZE` (a comparison of two facts).

use super::def;
use crate::facts::{Fact, FactDef, FactValue, NodeId, ValueType};
use std::collections::HashMap;

/// Facts this combiner produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("hccl.ifname_selects", ValueType::Bool, Some("interface"), "whether HCCL_SOCKET_IFNAME (of the same node) selects the interface `ip route get` uses (Bool); subject = the interface, on the route line"),
];

/// Whether `HCCL_SOCKET_IFNAME` selects interface `dev`.
pub(crate) fn ifname_selects(setting: &str, dev: &str) -> bool {
    let s = setting.trim().trim_matches(['"', '\'']);
    let (exclude, s) = match s.strip_prefix('^') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (exact, s) = match s.strip_prefix('=') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let hit =
        s.split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .any(|n| if exact { dev == n } else { dev.starts_with(n) });
    hit != exclude
}

/// Derives facts from the parsers' facts.
pub fn combine(facts: &[Fact]) -> Vec<Fact> {
    let mut out = Vec::new();
    // The last setting shown for each node, and the last of no node: one
    // pass, so routes join settings by node, not pairwise.
    let (mut last, mut last_of_none) = (None::<usize>, None::<usize>);
    let mut last_of: HashMap<NodeId, usize> = HashMap::new();
    for (i, f) in facts.iter().enumerate() {
        if f.name == "env.var"
            && f.subject.as_deref() == Some("HCCL_SOCKET_IFNAME")
            && !f.value.to_text().trim().is_empty()
        {
            last = Some(i);
            match f.node {
                Some(n) => {
                    last_of.insert(n, i);
                }
                None => last_of_none = Some(i),
            }
        }
    }
    for route in facts.iter().filter(|f| f.name == "route.dev") {
        let dev = route.value.to_text();
        if dev == "lo" {
            continue;
        }
        // The last setting shown for this node (or for no node) is the one in force.
        let found = match route.node {
            None => last,
            Some(n) => last_of.get(&n).copied().max(last_of_none),
        };
        let Some(setting) = found.map(|i| &facts[i]) else { continue };
        let selects = ifname_selects(&setting.value.to_text(), &dev);
        out.push(route.derive(def(FACTS, "hccl.ifname_selects"), Some(dev), FactValue::Bool(selects)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::combine::fact;

    fn s(v: &str) -> FactValue {
        FactValue::Str(v.to_string())
    }

    #[test]
    fn socket_ifname_rules() {
        assert!(ifname_selects("enp194s0f0", "enp194s0f0"));
        assert!(ifname_selects("enp", "enp194s0f0"));
        assert!(ifname_selects("eth,enp", "enp194s0f0"));
        assert!(!ifname_selects("=enp194", "enp194s0f0"));
        assert!(!ifname_selects("^enp", "enp194s0f0"));
        assert!(ifname_selects("^=docker0", "eth0"));
        let fs = vec![
            fact("env.var", Some("HCCL_SOCKET_IFNAME"), s("eth0"), 1, 0),
            fact("route.dev", Some("10.0.0.3"), s("enp194s0f0"), 3, 1),
        ];
        let out = combine(&fs);
        assert_eq!(out.len(), 1);
        assert_eq!((out[0].subject.as_deref(), &out[0].value), (Some("enp194s0f0"), &FactValue::Bool(false)));
        let fs = vec![
            fact("env.var", Some("HCCL_SOCKET_IFNAME"), s("enp194s0f0"), 1, 0),
            fact("route.dev", Some("10.0.0.3"), s("enp194s0f0"), 3, 1),
        ];
        assert_eq!(combine(&fs)[0].value, FactValue::Bool(true));
    }

    #[test]
    fn another_nodes_setting_does_not_apply() {
        let mut env = fact("env.var", Some("HCCL_SOCKET_IFNAME"), s("eth0"), 1, 0);
        env.node = Some(0);
        let mut route = fact("route.dev", Some("10.0.0.3"), s("enp194s0f0"), 3, 1);
        route.node = Some(1);
        assert!(combine(&[env, route]).is_empty());
    }
}
