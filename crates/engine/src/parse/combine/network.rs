//! Network combiner: facts that need several `hccn_tool` records, `ss`
//! rows together with Ray's port settings, or `ip route get` together with
//! the HCCL environment.
//!
//! - `hccn.ip_duplicate`: two different cards (on one node or on several
//!   pasted nodes) print the same device IP. Masked addresses such as
//!   `10.xx.xx.10` are ignored.
//! - `hccn.tls_inconsistent`: the TLS switch differs between cards; every
//!   card that differs from the majority (on a tie, from "disabled", the
//!   recommended setting) gets the fact.
//! - `ray.port_owner_other`: the Ray head port (6379, or `MASTER_PORT` from
//!   the environment) is held by a process that is not Ray (`redis-server`,
//!   `python3`, …). Ray's own listeners are `gcs_server`, `raylet` and
//!   `ray::…` workers.
//! - `ray.port_loopback_only`: every listener on the Ray head port is bound
//!   to a loopback address (127.x, ::1, ::ffff:127.x), so other nodes can
//!   never join.
//! - `ray.nodes_missing`: `ray status` shows fewer nodes than `WORLD_SIZE`
//!   (ROLL counts nodes, not NPUs, in WORLD_SIZE).
//! - `hccl.socket_ifname_mismatch`: the interface `ip route get` reports is
//!   not selected by `HCCL_SOCKET_IFNAME` (prefix match by default, `=name`
//!   for an exact name, a leading `^` to exclude, comma-separated lists).
//!
//! Each derived fact cites the line of the fact it rests on.

use super::derived;
use crate::facts::{Fact, FactValue};
use std::collections::BTreeMap;

/// Facts this combiner produces.
pub const FACTS: &[(&str, &str)] = &[
    ("hccn.ip_duplicate", "a device IP printed by more than one card (`hccn_tool -ip -g`); subject = card id, value = the IP; line = that card's ipaddr line"),
    ("hccn.tls_inconsistent", "a card whose TLS switch differs from the other cards; subject = card id, value = its `tls switch[N]` (Int)"),
    ("ray.port_owner_other", "a non-Ray process listens on the Ray head port (6379 or MASTER_PORT); subject = port, value = process name"),
    ("ray.port_loopback_only", "every listener on the Ray head port is bound to loopback, so other nodes cannot connect; subject = port, value = the address"),
    ("ray.nodes_missing", "`ray status` shows fewer nodes than WORLD_SIZE; value = how many are missing (Int); line = the Active/Healthy header"),
    ("hccl.socket_ifname_mismatch", "`ip route get` uses an interface HCCL_SOCKET_IFNAME does not select; subject = the interface, value = HCCL_SOCKET_IFNAME"),
];

/// Derives facts from the parsers' facts.
pub fn combine(facts: &[Fact]) -> Vec<Fact> {
    let mut out = Vec::new();
    duplicate_ips(facts, &mut out);
    tls_inconsistent(facts, &mut out);
    ray_port(facts, &mut out);
    nodes_missing(facts, &mut out);
    ifname_mismatch(facts, &mut out);
    out
}

fn named<'a>(facts: &'a [Fact], name: &'a str) -> impl Iterator<Item = &'a Fact> + 'a {
    facts.iter().filter(move |f| f.name == name)
}

fn text(f: &Fact) -> Option<&str> {
    match &f.value {
        FactValue::Str(s) => Some(s.as_str()),
        _ => None,
    }
}

/// The last value of an environment variable, when the env parser saw it.
fn env<'a>(facts: &'a [Fact], var: &str) -> Option<&'a Fact> {
    named(facts, "env.var").filter(|f| f.subject.as_deref() == Some(var)).last()
}

fn duplicate_ips(facts: &[Fact], out: &mut Vec<Fact>) {
    let mut by_ip: BTreeMap<&str, Vec<&Fact>> = BTreeMap::new();
    for f in named(facts, "hccn.ipaddr") {
        let Some(ip) = text(f) else { continue };
        let masked = ip.is_empty() || ip.contains(['x', 'X', '*']);
        if !masked {
            by_ip.entry(ip).or_default().push(f);
        }
    }
    for (ip, list) in by_ip {
        let mut cards: Vec<Option<&str>> = list.iter().map(|f| f.subject.as_deref()).collect();
        cards.sort();
        cards.dedup();
        if cards.len() < 2 {
            continue;
        }
        for f in list {
            out.extend(derived("hccn.ip_duplicate", f.subject.clone(), FactValue::Str(ip.to_string()), f));
        }
    }
}

fn tls_inconsistent(facts: &[Fact], out: &mut Vec<Fact>) {
    let mut counts: BTreeMap<i64, usize> = BTreeMap::new();
    for f in named(facts, "hccn.tls_switch") {
        if let FactValue::Int(v) = f.value {
            *counts.entry(v).or_default() += 1;
        }
    }
    if counts.len() < 2 {
        return;
    }
    // Majority; on a tie the lowest value (0 = disabled, the recommended setting).
    let majority = counts.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))).map(|(v, _)| *v).unwrap_or(0);
    for f in named(facts, "hccn.tls_switch") {
        if let FactValue::Int(v) = f.value {
            if v != majority {
                out.extend(derived("hccn.tls_inconsistent", f.subject.clone(), FactValue::Int(v), f));
            }
        }
    }
}

/// True for names of processes Ray itself runs.
fn is_ray_process(name: &str) -> bool {
    let n = name.trim();
    n == "gcs_server" || n == "raylet" || n.starts_with("ray::") || n.starts_with("ray:") || n == "ray"
}

/// True for a loopback address as `ss` prints it.
fn is_loopback(addr: &str) -> bool {
    let a = addr.trim_start_matches('[').trim_end_matches(']');
    let a = a.strip_prefix("::ffff:").unwrap_or(a);
    a.starts_with("127.") || a == "::1" || a == "localhost"
}

fn ray_port(facts: &[Fact], out: &mut Vec<Fact>) {
    let port = env(facts, "MASTER_PORT")
        .and_then(text)
        .map(str::trim)
        .filter(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        .unwrap_or("6379")
        .to_string();
    let listens: Vec<&Fact> =
        named(facts, "ss.listen").filter(|f| f.subject.as_deref() == Some(port.as_str())).collect();
    if listens.is_empty() {
        return;
    }
    let owners: Vec<&Fact> =
        named(facts, "ss.listen_process").filter(|f| f.subject.as_deref() == Some(port.as_str())).collect();
    for o in &owners {
        if let Some(name) = text(o) {
            if !is_ray_process(name) {
                out.extend(derived("ray.port_owner_other", Some(port.clone()), FactValue::Str(name.to_string()), o));
            }
        }
    }
    if listens.iter().all(|f| text(f).is_some_and(is_loopback)) {
        // Reported only for Ray's own (or an unknown) listener: a foreign
        // owner is already `ray.port_owner_other`.
        for f in listens {
            let owner = owners.iter().find(|o| o.segment == f.segment && o.line == f.line).and_then(|o| text(o));
            if owner.is_none_or(is_ray_process) {
                let addr = text(f).unwrap_or_default().to_string();
                out.extend(derived("ray.port_loopback_only", Some(port.clone()), FactValue::Str(addr), f));
            }
        }
    }
}

fn nodes_missing(facts: &[Fact], out: &mut Vec<Fact>) {
    let Some(world) = env(facts, "WORLD_SIZE").and_then(text).and_then(|w| w.trim().parse::<i64>().ok()) else {
        return;
    };
    for f in named(facts, "ray.nodes_active") {
        if let FactValue::Int(n) = f.value {
            if n < world {
                out.extend(derived("ray.nodes_missing", None, FactValue::Int(world - n), f));
            }
        }
    }
}

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

fn ifname_mismatch(facts: &[Fact], out: &mut Vec<Fact>) {
    let Some(setting) = env(facts, "HCCL_SOCKET_IFNAME").and_then(text) else { return };
    if setting.trim().is_empty() {
        return;
    }
    for f in named(facts, "route.dev") {
        let Some(dev) = text(f) else { continue };
        if dev == "lo" {
            continue;
        }
        if !ifname_selects(setting, dev) {
            out.extend(derived(
                "hccl.socket_ifname_mismatch",
                Some(dev.to_string()),
                FactValue::Str(setting.to_string()),
                f,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(name: &'static str, subject: Option<&str>, value: FactValue, line: u32) -> Fact {
        Fact { name, subject: subject.map(String::from), value, line, text: format!("line {line}"), segment: 0 }
    }

    fn s(v: &str) -> FactValue {
        FactValue::Str(v.to_string())
    }

    fn names(out: &[Fact]) -> Vec<(&'static str, Option<String>, String, u32)> {
        out.iter().map(|f| (f.name, f.subject.clone(), f.value.to_text(), f.line)).collect()
    }

    #[test]
    fn duplicate_device_ips() {
        let fs = vec![
            fact("hccn.ipaddr", Some("0"), s("10.0.0.10"), 2),
            fact("hccn.ipaddr", Some("1"), s("10.0.0.11"), 4),
            fact("hccn.ipaddr", Some("2"), s("10.0.0.11"), 6),
            fact("hccn.ipaddr", Some("3"), s("10.xx.xx.10"), 8),
            fact("hccn.ipaddr", Some("4"), s("10.xx.xx.10"), 9),
        ];
        let out = combine(&fs);
        assert_eq!(
            names(&out),
            vec![
                ("hccn.ip_duplicate", Some("1".into()), "10.0.0.11".into(), 4),
                ("hccn.ip_duplicate", Some("2".into()), "10.0.0.11".into(), 6)
            ]
        );
        // the same card pasted twice is not a conflict
        let fs =
            vec![fact("hccn.ipaddr", Some("0"), s("10.0.0.10"), 2), fact("hccn.ipaddr", Some("0"), s("10.0.0.10"), 9)];
        assert!(combine(&fs).is_empty());
    }

    #[test]
    fn tls_minority_is_flagged() {
        let mut fs: Vec<Fact> =
            (0..8).map(|i| fact("hccn.tls_switch", Some(&i.to_string()), FactValue::Int(0), i + 2)).collect();
        assert!(combine(&fs).is_empty());
        fs[5].value = FactValue::Int(1);
        assert_eq!(names(&combine(&fs)), vec![("hccn.tls_inconsistent", Some("5".into()), "1".into(), 7)]);
        // a tie flags the enabled cards
        let fs = vec![
            fact("hccn.tls_switch", Some("0"), FactValue::Int(1), 2),
            fact("hccn.tls_switch", Some("1"), FactValue::Int(0), 3),
        ];
        assert_eq!(names(&combine(&fs))[0].1, Some("0".into()));
    }

    #[test]
    fn ray_port_owner_and_loopback() {
        let fs = vec![
            fact("ss.listen", Some("6379"), s("0.0.0.0"), 3),
            fact("ss.listen_process", Some("6379"), s("gcs_server"), 3),
        ];
        assert!(combine(&fs).is_empty());
        let fs = vec![
            fact("ss.listen", Some("6379"), s("127.0.0.1"), 3),
            fact("ss.listen_process", Some("6379"), s("redis-server"), 3),
        ];
        assert_eq!(names(&combine(&fs)), vec![("ray.port_owner_other", Some("6379".into()), "redis-server".into(), 3)]);
        let fs = vec![
            fact("ss.listen", Some("6379"), s("127.0.0.1"), 3),
            fact("ss.listen_process", Some("6379"), s("gcs_server"), 3),
            fact("ss.listen", Some("6379"), s("[::ffff:127.0.0.1]"), 4),
        ];
        assert_eq!(
            names(&combine(&fs)),
            vec![
                ("ray.port_loopback_only", Some("6379".into()), "127.0.0.1".into(), 3),
                ("ray.port_loopback_only", Some("6379".into()), "[::ffff:127.0.0.1]".into(), 4)
            ]
        );
        // one public listener is enough
        let fs =
            vec![fact("ss.listen", Some("6379"), s("127.0.0.1"), 3), fact("ss.listen", Some("6379"), s("10.0.0.2"), 4)];
        assert!(combine(&fs).is_empty());
    }

    #[test]
    fn master_port_moves_the_check() {
        let fs = vec![
            fact("env.var", Some("MASTER_PORT"), s("6380"), 1),
            fact("ss.listen", Some("6379"), s("127.0.0.1"), 3),
            fact("ss.listen_process", Some("6379"), s("redis-server"), 3),
        ];
        assert!(combine(&fs).is_empty());
    }

    #[test]
    fn world_size_vs_active_nodes() {
        let fs =
            vec![fact("env.var", Some("WORLD_SIZE"), s("2"), 1), fact("ray.nodes_active", None, FactValue::Int(1), 5)];
        assert_eq!(names(&combine(&fs)), vec![("ray.nodes_missing", None, "1".into(), 5)]);
        let fs =
            vec![fact("env.var", Some("WORLD_SIZE"), s("2"), 1), fact("ray.nodes_active", None, FactValue::Int(2), 5)];
        assert!(combine(&fs).is_empty());
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
            fact("env.var", Some("HCCL_SOCKET_IFNAME"), s("eth0"), 1),
            fact("route.dev", Some("10.0.0.3"), s("enp194s0f0"), 3),
        ];
        assert_eq!(
            names(&combine(&fs)),
            vec![("hccl.socket_ifname_mismatch", Some("enp194s0f0".into()), "eth0".into(), 3)]
        );
        let fs = vec![
            fact("env.var", Some("HCCL_SOCKET_IFNAME"), s("enp194s0f0"), 1),
            fact("route.dev", Some("10.0.0.3"), s("enp194s0f0"), 3),
        ];
        assert!(combine(&fs).is_empty());
    }
}
