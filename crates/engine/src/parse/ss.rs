//! `ss -tlnp` (and `netstat -tlnp`) output: which process listens on which
//! address and port.
//!
//! ```text
//! State  Recv-Q Send-Q Local Address:Port Peer Address:PortProcess
//! LISTEN 0      1          127.0.0.1:6379      0.0.0.0:*    users:(("python3",pid=20206,fd=3))
//! ```
//!
//! Each listening row gives `ss.listen` (subject = port, value = the local
//! address without the port: `0.0.0.0`, `127.0.0.1`, `*`, `[::]`,
//! `[::ffff:127.0.0.1]`) and, when the Process column is filled (it needs
//! root), `ss.listen_process` (subject = port, value = process name). Rows
//! filtered with `| grep PORT` (no header) work the same; a `Netid` first
//! column (`ss -lnp`) and netstat's `tcp 0 0 0.0.0.0:6379 0.0.0.0:* LISTEN
//! 1234/gcs_server` rows are understood too.
//!
//! ```
//! use roll_doctor_engine::{diagnose, InputKind};
//! let text = "$ ss -tlnp | grep 6379\n\
//!             LISTEN 0      4096         0.0.0.0:6379      0.0.0.0:*    users:((\"gcs_server\",pid=3081,fd=12))\n";
//! let r = diagnose(text);
//! assert_eq!(r.segments[0].kind, InputKind::Ss);
//! assert!(r.findings.is_empty());
//! ```

use super::FactSink;
use crate::facts::{FactDef, FactValue, ValueType};
use crate::segment::Segment;
use regex::Regex;
use std::sync::OnceLock;

/// Facts this parser produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("ss.listen", ValueType::Str, Some("port"), "a listening TCP socket from `ss -tlnp` / `netstat -tlnp`; subject = port, value = local address as printed without the port (0.0.0.0, 127.0.0.1, *, [::], [::ffff:127.0.0.1])"),
    FactDef::new("ss.listen_process", ValueType::Str, Some("port"), "the process that owns a listening socket (Process column, needs root); subject = port, value = process name (gcs_server, redis-server, python3, …)"),
];

/// How strongly a command names this kind.
pub fn command(cmd: &str) -> u8 {
    match super::first_word(cmd) {
        "ss" | "netstat" => 90,
        _ => 0,
    }
}

fn header_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"^(?:Netid\s+)?State\s+Recv-Q\s+Send-Q\s+Local\s+Address:Port|^Proto\s+Recv-Q\s+Send-Q\s+Local\s+Address",
        )
        .expect("static regex")
    })
}

fn users_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(r#"users:\(\("([^"]+)""#).expect("static regex"))
}

const STATES: &[&str] = &[
    "LISTEN",
    "ESTAB",
    "UNCONN",
    "TIME-WAIT",
    "CLOSE-WAIT",
    "SYN-SENT",
    "SYN-RECV",
    "FIN-WAIT-1",
    "FIN-WAIT-2",
    "LAST-ACK",
    "CLOSING",
    "CLOSED",
];

/// One socket row.
#[derive(Debug, PartialEq)]
struct Row {
    state: String,
    addr: String,
    port: String,
    process: Option<String>,
}

/// Ports that `ss` without `-n` prints by service name.
fn service_port(name: &str) -> Option<&'static str> {
    Some(match name {
        "redis" => "6379",
        "ssh" => "22",
        "http" => "80",
        "https" => "443",
        "http-alt" | "webcache" => "8080",
        _ => return None,
    })
}

/// Splits `addr:port` at the last colon; drops a `%iface` suffix.
fn split_local(local: &str) -> Option<(String, String)> {
    let (addr, port) = local.rsplit_once(':')?;
    if addr.is_empty() || port.is_empty() || port == "*" {
        return None;
    }
    let port =
        if port.chars().all(|c| c.is_ascii_digit()) { port.to_string() } else { service_port(port)?.to_string() };
    let addr = match addr.find('%') {
        Some(i) if !addr.starts_with('[') => &addr[..i],
        _ => addr,
    };
    Some((addr.to_string(), port))
}

fn is_num(t: &str) -> bool {
    !t.is_empty() && t.chars().all(|c| c.is_ascii_digit())
}

fn parse_row(t: &str) -> Option<Row> {
    // Most lines detection hands here are not rows: decide that from the
    // first two words before collecting them all.
    let mut head = t.split_whitespace();
    let (first, second) = (head.next()?, head.next());
    let may_be_row = STATES.contains(&first)
        || second.is_some_and(|x| STATES.contains(&x))
        || first.starts_with("tcp")
        || first.starts_with("udp");
    if !may_be_row {
        return None;
    }
    let tok: Vec<&str> = t.split_whitespace().collect();
    // ss: [Netid] State Recv-Q Send-Q Local Peer [Process…]
    let i = if tok.first().is_some_and(|x| STATES.contains(x)) {
        Some(0)
    } else if tok.get(1).is_some_and(|x| STATES.contains(x)) {
        Some(1)
    } else {
        None
    };
    if let Some(i) = i {
        let (recv, send, local) = (tok.get(i + 1)?, tok.get(i + 2)?, tok.get(i + 3)?);
        if !is_num(recv) || !is_num(send) {
            return None;
        }
        let (addr, port) = split_local(local)?;
        let process = users_re().captures(t).map(|c| c[1].to_string());
        return Some(Row { state: tok[i].to_string(), addr, port, process });
    }
    // netstat: Proto Recv-Q Send-Q Local Foreign State PID/Program
    if tok.first().is_some_and(|p| p.starts_with("tcp") || p.starts_with("udp")) && tok.len() >= 5 {
        if !is_num(tok.get(1)?) || !is_num(tok.get(2)?) {
            return None;
        }
        let (addr, port) = split_local(tok.get(3)?)?;
        // State is empty for udp rows; the program column is `PID/name`.
        let state = tok.get(5).filter(|s| s.chars().all(|c| c.is_ascii_uppercase() || c == '_')).copied().unwrap_or("");
        let prog = tok
            .iter()
            .skip(5)
            .find_map(|x| x.split_once('/').filter(|(pid, _)| is_num(pid)).map(|(_, n)| n.to_string()));
        return Some(Row { state: state.to_string(), addr, port, process: prog });
    }
    None
}

/// How much `seg` looks like this input when no command named it (0–100).
pub fn score(seg: &Segment) -> u8 {
    let mut rows = 0usize;
    for l in seg.lines.iter().take(2000) {
        let t = l.text.trim();
        if header_re().is_match(t) {
            return 95;
        }
        if parse_row(t).is_some_and(|r| r.state == "LISTEN") {
            rows += 1;
        }
    }
    match rows {
        0 => 0,
        1 => 60,
        _ => 80,
    }
}

/// Parses one segment.
pub fn parse(seg: &Segment, sink: &mut FactSink<'_>) {
    for line in &seg.lines {
        let Some(row) = parse_row(line.text.trim()) else { continue };
        if row.state != "LISTEN" {
            continue;
        }
        sink.push("ss.listen", Some(row.port.clone()), FactValue::Str(row.addr), line);
        if let Some(p) = row.process {
            sink.push("ss.listen_process", Some(row.port), FactValue::Str(p), line);
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
    fn ss_tlnp_with_header() {
        let t = "$ ss -tlnp\n\
                 State  Recv-Q Send-Q Local Address:Port Peer Address:PortProcess\n\
                 LISTEN 0      1          127.0.0.1:6379      0.0.0.0:*    users:((\"python3\",pid=20206,fd=3))\n\
                 LISTEN 0      128          0.0.0.0:22        0.0.0.0:*    users:((\"sshd\",pid=1123,fd=3))\n\
                 LISTEN 0      4096            [::]:8265           [::]:*\n\
                 LISTEN 0      4096   [::ffff:127.0.0.1]:6380        *:*    users:((\"gcs_server\",pid=9,fd=7),(\"gcs_server\",pid=9,fd=8))\n\
                 LISTEN 0      4096   127.0.0.53%lo:53        0.0.0.0:*\n";
        let v = view(t);
        assert_eq!(v[0], ("ss.listen", "6379".into(), "127.0.0.1".into(), 3));
        assert_eq!(v[1], ("ss.listen_process", "6379".into(), "python3".into(), 3));
        assert!(v.contains(&("ss.listen", "8265".into(), "[::]".into(), 5)));
        assert!(v.contains(&("ss.listen", "6380".into(), "[::ffff:127.0.0.1]".into(), 6)));
        assert!(v.contains(&("ss.listen_process", "6380".into(), "gcs_server".into(), 6)));
        assert!(v.contains(&("ss.listen", "53".into(), "127.0.0.53".into(), 7)));
        assert_eq!(super::score(&segment(&t.replace("$ ss -tlnp\n", ""))[0]), 95);
    }

    #[test]
    fn grep_rows_netid_and_service_names() {
        let t = "LISTEN 0 511 127.0.0.1:redis 0.0.0.0:* users:((\"redis-server\",pid=812,fd=6))\n";
        assert_eq!(view(t)[1], ("ss.listen_process", "6379".into(), "redis-server".into(), 1));
        let t =
            "tcp   LISTEN 0      4096         0.0.0.0:6379      0.0.0.0:*    users:((\"gcs_server\",pid=3081,fd=12))\n";
        assert_eq!(view(t)[0], ("ss.listen", "6379".into(), "0.0.0.0".into(), 1));
        let t = "ESTAB 0 0 10.0.0.2:6379 10.0.0.3:51234\n";
        assert!(view(t).is_empty());
    }

    #[test]
    fn netstat_rows() {
        let t = "$ netstat -tlnp\nProto Recv-Q Send-Q Local Address           Foreign Address         State       PID/Program name\n\
                 tcp        0      0 0.0.0.0:6379            0.0.0.0:*               LISTEN      3081/gcs_server\n\
                 tcp6       0      0 :::22                   :::*                    LISTEN      1123/sshd\n";
        let v = view(t);
        assert_eq!(v[0], ("ss.listen", "6379".into(), "0.0.0.0".into(), 3));
        assert_eq!(v[1], ("ss.listen_process", "6379".into(), "gcs_server".into(), 3));
        assert_eq!(v[2], ("ss.listen", "22".into(), "::".into(), 4));
    }

    #[test]
    fn content_score() {
        assert_eq!(super::score(&segment("hello\nworld\n")[0]), 0);
        let rows = "LISTEN 0 128 0.0.0.0:22 0.0.0.0:*\nLISTEN 0 128 0.0.0.0:6379 0.0.0.0:*\n";
        assert_eq!(super::score(&segment(rows)[0]), 80);
    }

    proptest! {
        #[test]
        fn never_panics_on_row_like_lines(a in "[A-Z-]{0,8}", n in "[0-9:]{0,6}", local in "[\\[\\]0-9a-f:.%*]{0,20}", rest in "\\PC{0,30}") {
            let line = format!("{a} {n} {n} {local} {local} {rest}");
            let _ = facts(&line);
            let _ = facts(&format!("tcp {n} {n} {local} {local} LISTEN {rest}"));
        }
    }
}
