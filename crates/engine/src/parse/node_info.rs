//! Which machine a node is: `hostname` and its addresses (`hostname -I`,
//! `ip -4 -o addr show`), as the collector prints them first for every node.
//! Facts: `node.hostname`, `node.ip` (subject = the address). The cluster
//! summary uses them to name a node's row; rules can find a peer's address.

use super::FactSink;
use crate::facts::{FactDef, FactValue, ValueType};
use crate::segment::Segment;

/// Facts this parser produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("node.hostname", ValueType::Str, None, "the node's host name, from `hostname` (Str)"),
    FactDef::new("node.ip", ValueType::Str, Some("address"), "an IPv4 address of the node's host interfaces, from `hostname -I` or `ip -4 -o addr show` (Str: the interface when known); subject = the address"),
];

#[derive(Clone, Copy, PartialEq)]
enum Cmd {
    Hostname,
    HostnameI,
    IpAddr,
}

fn which(cmd: &str) -> Option<Cmd> {
    let c = cmd.trim();
    let words: Vec<&str> = c.split_whitespace().collect();
    match words.as_slice() {
        ["hostname"] | ["hostname", "-s" | "-f" | "--fqdn" | "--short"] => Some(Cmd::Hostname),
        ["hostname", "-I" | "-i" | "--all-ip-addresses", ..] => Some(Cmd::HostnameI),
        ["ip", rest @ ..] if rest.iter().any(|w| *w == "addr" || *w == "address" || *w == "a") => Some(Cmd::IpAddr),
        _ => None,
    }
}

/// How strongly a command names this kind.
pub fn command(cmd: &str) -> u8 {
    if which(cmd).is_some() {
        95
    } else {
        0
    }
}

/// Content alone never names this kind: a bare word or address could be anything.
pub fn score(_: &Segment) -> u8 {
    0
}

fn is_ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4 && parts.iter().all(|p| !p.is_empty() && p.len() <= 3 && p.parse::<u8>().is_ok())
}

fn is_host_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_')
        && !s.starts_with('-')
}

/// Parses one segment.
pub fn parse(seg: &Segment, sink: &mut FactSink<'_>) {
    let Some(cmd) = seg.command.as_deref().and_then(which) else { return };
    for l in &seg.lines {
        let t = l.text.trim();
        if t.is_empty() || t.starts_with('[') {
            continue;
        }
        match cmd {
            Cmd::Hostname => {
                if is_host_name(t) {
                    sink.push("node.hostname", None, FactValue::Str(t.to_string()), l);
                }
                break;
            }
            Cmd::HostnameI => {
                for w in t.split_whitespace().filter(|w| is_ipv4(w)) {
                    sink.push("node.ip", Some(w.to_string()), FactValue::Str(String::new()), l);
                }
            }
            // `2: enp189s0f0    inet 10.0.0.3/24 brd 10.0.0.255 scope global enp189s0f0 …`
            Cmd::IpAddr => {
                let words: Vec<&str> = t.split_whitespace().collect();
                if let Some(i) = words.iter().position(|w| *w == "inet") {
                    let addr = words.get(i + 1).and_then(|a| a.split('/').next()).unwrap_or("");
                    let dev = words.get(1).map(|d| d.trim_end_matches(':')).unwrap_or("");
                    if is_ipv4(addr) && !addr.starts_with("127.") {
                        sink.push("node.ip", Some(addr.to_string()), FactValue::Str(dev.to_string()), l);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::parse::facts_of;

    fn got(text: &str) -> Vec<(&'static str, Option<String>, String)> {
        facts_of(text, super::parse).into_iter().map(|f| (f.name, f.subject, f.value.to_text())).collect()
    }

    #[test]
    fn host_names_and_addresses() {
        assert_eq!(got("$ hostname\nascend-node-17\n"), vec![("node.hostname", None, "ascend-node-17".into())]);
        assert_eq!(
            got("$ hostname -I\n10.0.0.3 172.17.0.1 fe80::1\n"),
            vec![("node.ip", Some("10.0.0.3".into()), "".into()), ("node.ip", Some("172.17.0.1".into()), "".into())]
        );
        let ip = "$ ip -4 -o addr show\n1: lo    inet 127.0.0.1/8 scope host lo\n2: enp189s0f0    inet 10.0.0.3/24 brd 10.0.0.255 scope global enp189s0f0\n";
        assert_eq!(got(ip), vec![("node.ip", Some("10.0.0.3".into()), "enp189s0f0".into())]);
    }

    #[test]
    fn errors_give_nothing() {
        assert!(got("$ hostname\nbash: hostname: command not found\n").is_empty());
        assert!(got("$ hostname\n[roll-doctor] skipped: hostname not found\n").is_empty());
        assert!(got("$ hostname -I\nhostname: invalid option -- 'I'\n").is_empty());
    }
}
