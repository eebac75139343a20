//! `ip route get ADDR` output: which host interface and source address the
//! kernel uses to reach ADDR.
//!
//! ```text
//! $ ip route get 10.20.0.29
//! 10.20.0.29 via 10.20.0.1 dev enp194s0f0 src 10.20.0.2 uid 0
//!     cache
//! $ ip route get 127.0.0.1
//! local 127.0.0.1 dev lo src 127.0.0.1 uid 0
//!     cache <local>
//! ```
//!
//! Each route line gives `route.dev` (subject = ADDR, value = the interface
//! after `dev`, which must match `HCCL_SOCKET_IFNAME`) and `route.src`
//! (subject = ADDR, value = the address after `src`). Route-table listings
//! (`ip route` without `get`: `default via …`, `10.0.0.0/24 dev …`) give
//! nothing: they do not say which interface one address uses.
//!
//! ```
//! use roll_doctor_engine::{diagnose, InputKind};
//! let r = diagnose("$ ip route get 10.20.0.29\n10.20.0.29 via 10.20.0.1 dev enp194s0f0 src 10.20.0.2 uid 0\n    cache\n");
//! assert_eq!(r.segments[0].kind, InputKind::IpRoute);
//! assert!(r.findings.is_empty());
//! ```

use super::FactSink;
use crate::facts::{FactDef, FactValue, ValueType};
use crate::segment::Segment;
use regex::Regex;
use std::sync::OnceLock;

/// Facts this parser produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("route.dev", ValueType::Str, Some("destination address"), "outgoing host interface from `ip route get ADDR`; subject = ADDR, value = interface name (compare with HCCL_SOCKET_IFNAME)"),
    FactDef::new("route.src", ValueType::Str, Some("destination address"), "source address from `ip route get ADDR`; subject = ADDR, value = the address after `src`"),
];

/// How strongly a command names this kind.
pub fn command(cmd: &str) -> u8 {
    if super::first_word(cmd) == "ip" && cmd.contains("route") {
        90
    } else {
        0
    }
}

fn route_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"^(?:(?:local|broadcast|unicast|multicast|anycast)\s+)?(?P<dst>[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9a-fA-F]*:[0-9a-fA-F:.]+)\s+(?:from\s+\S+\s+)?(?:via\s+\S+\s+)?dev\s+(?P<dev>\S+)(?:.*?(?-u:\b)src\s+(?P<src>\S+))?",
        )
        .expect("static regex")
    })
}

/// How much `seg` looks like this input when no command named it (0–100).
pub fn score(seg: &Segment) -> u8 {
    let hit = seg.lines.iter().take(200).any(|l| {
        let t = l.text.trim();
        route_re().captures(t).is_some_and(|c| c.name("src").is_some() || t.ends_with(" uid 0") || t.contains(" uid "))
    });
    if hit {
        80
    } else {
        0
    }
}

/// Parses one segment.
pub fn parse(seg: &Segment, sink: &mut FactSink<'_>) {
    // `ip route` / `ip route show` list the table: a line there is a route for
    // a prefix, not the answer for one address.
    if let Some(cmd) = &seg.command {
        let c = cmd.trim();
        if c.starts_with("ip") && !c.contains(" get ") && !c.contains(" g ") {
            return;
        }
    }
    for line in &seg.lines {
        let t = line.text.trim();
        let Some(c) = route_re().captures(t) else { continue };
        let dst = c["dst"].to_string();
        sink.push("route.dev", Some(dst.clone()), FactValue::Str(c["dev"].to_string()), line);
        if let Some(src) = c.name("src") {
            sink.push("route.src", Some(dst), FactValue::Str(src.as_str().to_string()), line);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::facts::Fact;
    use crate::segment::segment;
    use proptest::prelude::*;

    fn facts(text: &str) -> Vec<Fact> {
        crate::parse::facts_of(text, super::parse)
    }

    fn view(text: &str) -> Vec<(&'static str, String, String, u32)> {
        facts(text)
            .into_iter()
            .map(|f| (f.name, f.subject.clone().unwrap_or_default(), f.value.to_text(), f.line()))
            .collect()
    }

    #[test]
    fn remote_and_local() {
        let t = "$ ip route get 10.20.0.29\n10.20.0.29 via 10.20.0.1 dev enp194s0f0 src 10.20.0.2 uid 0\n    cache\n";
        assert_eq!(
            view(t),
            vec![
                ("route.dev", "10.20.0.29".into(), "enp194s0f0".into(), 2),
                ("route.src", "10.20.0.29".into(), "10.20.0.2".into(), 2)
            ]
        );
        let t = "$ ip route get 127.0.0.1\nlocal 127.0.0.1 dev lo src 127.0.0.1 uid 0\n    cache <local>\n";
        assert_eq!(view(t)[0], ("route.dev", "127.0.0.1".into(), "lo".into(), 2));
        let t = "$ ip route get 192.168.1.4\n192.168.1.4 dev eth0 src 192.168.1.3 uid 1000\n";
        assert_eq!(view(t)[0].2, "eth0");
    }

    #[test]
    fn table_listing_and_errors_give_nothing() {
        assert!(view("$ ip route\ndefault via 10.0.0.1 dev eth0 proto static\n10.0.0.0/24 dev eth0 proto kernel scope link src 10.0.0.5\n").is_empty());
        assert!(view("$ ip route get 10.9.9.9\nRTNETLINK answers: Network is unreachable\n").is_empty());
    }

    #[test]
    fn content_score() {
        assert_eq!(super::score(&segment("10.20.0.29 via 10.20.0.1 dev enp194s0f0 src 10.20.0.2 uid 0\n")[0]), 80);
        assert_eq!(super::score(&segment("nothing here\n")[0]), 0);
    }

    proptest! {
        #[test]
        fn never_panics_on_route_like_lines(a in "[0-9a-f:.]{0,20}", dev in "\\PC{0,10}", rest in "\\PC{0,20}") {
            let _ = facts(&format!("$ ip route get {a}\n{a} via {a} dev {dev} src {rest}\n"));
        }
    }
}
