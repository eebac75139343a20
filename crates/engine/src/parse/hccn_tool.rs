//! `hccn_tool` output: the state of each NPU's own network port (the "device
//! NIC" HCCL uses between nodes).
//!
//! Recognised queries, one record per card:
//!
//! | query | output line | fact |
//! |---|---|---|
//! | `-link -g` | `link status: UP` | `hccn.link_status` (`UP`, `DOWN`, …) |
//! | `-ip -g` | `ipaddr:10.0.0.11` / `netmask:255.255.255.0` | `hccn.ipaddr`, `hccn.netmask` (`hccn.ip_missing` when empty or an error) |
//! | `-tls -g` (`\| grep switch`) | `dev_id:0, tls switch[0](0:disable, 1:enable), …` | `hccn.tls_switch` |
//! | `-ping -g address X` | `3 packets transmitted, 0 received, 100.00% packet loss` | `hccn.ping_loss_percent` |
//! | `-net_health -g` | `net health status: Init` | `hccn.net_health` |
//!
//! Every fact's subject is the card id, found (in this order) from the
//! `dev_id:N` on the line itself, from a label line echoed by the loop
//! (`echo $i`, `echo "=== npu $i ==="`), from a literal `-i N` in the command,
//! and otherwise from the record's position in a loop: in a bare
//! `for i in {0..7}; do hccn_tool -i $i -link -g; done` each card prints one
//! line with no id, so the k-th `link status` line is card k (counting from
//! the loop's start value; `{a..b}`, `$(seq a b)`, `in 0 1 2 …` and
//! `for ((i=a; i<b; i++))` are understood). Without any command the position
//! counts from 0 when there are several records, and a lone record has no
//! subject. Command lines pasted inside the output (as in a saved session)
//! start a new block.
//!
//! ```
//! use roll_doctor_engine::{diagnose, InputKind};
//! let text = "$ for i in {0..3}; do hccn_tool -i $i -link -g; done\n\
//!             link status: UP\nlink status: UP\nlink status: DOWN\nlink status: UP\n";
//! let report = diagnose(text);
//! assert_eq!(report.segments[0].kind, InputKind::HccnTool);
//! let f = &report.findings[0];
//! assert_eq!(f.id, "hccl-link-down");
//! assert_eq!(f.facts[0].subject.as_deref(), Some("2"));
//! assert_eq!(f.evidence[0].line, 4);
//! ```
//!
//! `-link_stat -g` history lines (`[device 0]    Tue Jun  6 16:32:10 2023    LINK DOWN`)
//! describe the past, not the current state, and give no fact.

use super::FactSink;
use crate::facts::{FactDef, FactValue, ValueType};
use crate::segment::{Line, Segment};
use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Facts this parser produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("hccn.link_status", ValueType::Str, Some("card id"), "state of an NPU's network port from `hccn_tool -i N -link -g`; subject = card id, value = the status in upper case (UP, DOWN, …)"),
    FactDef::new("hccn.ipaddr", ValueType::Str, Some("card id"), "device IP of an NPU from `hccn_tool -i N -ip -g` (`ipaddr:`, or `ipv6_address:`); subject = card id, value = the address as printed"),
    FactDef::new("hccn.netmask", ValueType::Str, Some("card id"), "netmask of an NPU's device IP from `hccn_tool -i N -ip -g`; subject = card id"),
    FactDef::new("hccn.ip_missing", ValueType::Str, Some("card id"), "a card whose `-ip -g` query printed no usable address (empty, 0.0.0.0 or an error); subject = card id when known, value = what was printed"),
    FactDef::new("hccn.tls_switch", ValueType::Int, Some("card id"), "TLS switch of an NPU from `hccn_tool -i N -tls -g` (`tls switch[N]`); subject = card id, value = Int 0 (disabled) or 1 (enabled)"),
    FactDef::new("hccn.ping_loss_percent", ValueType::Float, Some("card id"), "packet loss from `hccn_tool -i N -ping -g address X`; subject = card id, value = Float percent"),
    FactDef::new("hccn.net_health", ValueType::Str, Some("card id"), "`hccn_tool -i N -net_health -g` status; subject = card id, value = the status as printed (Init, Success, Socket fail, …)"),
];

/// How strongly a command names this kind: `for i in {0..7}; do hccn_tool …; done` loops name the tool inside.
pub fn command(cmd: &str) -> u8 {
    if cmd.contains("hccn_tool") {
        95
    } else {
        0
    }
}

/// A pattern compiled once. Classes are written out in ASCII (`[0-9]`,
/// `[0-9A-Za-z_]`, `(?-u:\b)`) rather than `\d`, `\w`, `\b`: their Unicode
/// forms compile to automata tens of times larger, which the page pays for
/// at its first diagnosis (the prompt pattern alone took 7 ms natively).
fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pat).expect("static regex"))
}

fn link_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"(?i)(?-u:\b)link status\s*:\s*([A-Za-z_]+)")
}

fn ipaddr_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"(?i)^(?:ipaddr|ipv6_address)\s*:\s*([^\s/]*)")
}

fn netmask_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"(?i)(?:^|/\s*)(?:netmask|prefix_length)\s*:\s*(\S*)")
}

fn tls_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"(?i)tls switch\[([0-9]+)\]")
}

fn dev_id_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"(?i)(?-u:\b)dev_id\s*:\s*([0-9]+)")
}

fn ping_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"([0-9]+) packets transmitted, ([0-9]+) received, ([0-9]+(?:\.[0-9]+)?)% packet loss")
}

fn health_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"(?i)^net health status\s*:\s*(.*?)\s*$")
}

/// A line the loop echoed to label the next card: `3`, `npu 3`, `=== NPU 3 ===`, `card 3:`.
fn label_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)^[=\-#*\[\s]*(?:(?:npu|card|device|dev|dev_id|chip|id|rank|i)\s*[:=#_]?\s*)?([0-9]{1,3})\s*[:\]]?\s*[=\-#*\s]*$",
    )
}

/// A label in front of the record on the same line, as printed by
/// `echo "npu $i: $(hccn_tool -i $i -link -g)"`: `npu 3: link status: UP`.
fn inline_label_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)^[\s\[(=#*-]*(?:(?:npu|card|device|dev|chip|id|rank)\s*[:#=_]?\s*)?([0-9]{1,3})\s*[\]):=>-]*\s*(?P<rest>(?:link status|ipaddr|ipv6_address|netmask|net health status)(?-u:\b).*)$",
    )
}

/// `-i N` with a literal number.
fn card_arg_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"(?:^|\s)-i\s+([0-9]{1,3})(?-u:\b)")
}

fn brace_range_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"(?-u:\b)in\s+\{([0-9]{1,3})\.\.([0-9]{1,3})\}")
}

fn seq_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"(?-u:\b)in\s+[`$(]+\s*seq\s+([0-9]{1,3})(?:\s+([0-9]{1,3}))?")
}

fn c_loop_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"\(\(\s*[0-9A-Za-z_]+\s*=\s*([0-9]{1,3})\s*;\s*[0-9A-Za-z_]+\s*(<=?)\s*([0-9]{1,3})")
}

fn list_loop_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"(?-u:\b)for\s+[0-9A-Za-z_]+\s+in\s+((?:[0-9]{1,3}\s+)*[0-9]{1,3})\s*(?:;|$|(?-u:\b)do(?-u:\b))")
}

/// A line that is (or contains) an `hccn_tool` invocation.
fn command_line_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"(?:^|[\s/;(])hccn_tool\s+-")
}

/// The cards a `for` loop iterates over, in order.
fn loop_cards(cmd: &str) -> Option<Vec<u32>> {
    let span = |a: u32, b: u32| -> Option<Vec<u32>> {
        if a <= b && b - a < 256 {
            Some((a..=b).collect())
        } else {
            None
        }
    };
    if let Some(c) = brace_range_re().captures(cmd) {
        return span(c[1].parse().ok()?, c[2].parse().ok()?);
    }
    if let Some(c) = seq_re().captures(cmd) {
        let a: u32 = c[1].parse().ok()?;
        return match c.get(2) {
            Some(b) => span(a, b.as_str().parse().ok()?),
            // `seq N` counts 1..=N
            None => span(1.min(a), a),
        };
    }
    if let Some(c) = c_loop_re().captures(cmd) {
        let a: u32 = c[1].parse().ok()?;
        let b: u32 = c[3].parse().ok()?;
        let b = if &c[2] == "<" { b.checked_sub(1)? } else { b };
        return span(a, b);
    }
    if let Some(c) = list_loop_re().captures(cmd) {
        let v: Vec<u32> = c[1].split_whitespace().filter_map(|t| t.parse().ok()).collect();
        if !v.is_empty() {
            return Some(v);
        }
    }
    None
}

fn card_arg(cmd: &str) -> Option<u32> {
    card_arg_re().captures(cmd).and_then(|c| c[1].parse().ok())
}

/// What a block's command asked for.
#[derive(Clone, Debug, Default)]
struct Block {
    /// `-i N` with a number.
    card: Option<u32>,
    /// The loop's cards, when the command is a loop.
    cards: Option<Vec<u32>>,
    /// Whether a command named this block at all.
    has_command: bool,
    /// The command asks for `-ip` (so an error line means "no IP").
    ip_query: bool,
    /// The command asks for `-ping` / `-hccs_ping`.
    ping_query: bool,
}

impl Block {
    fn from_command(cmd: &str, inherited_loop: Option<&Vec<u32>>) -> Block {
        let cards = loop_cards(cmd).or_else(|| {
            // `-i $i` inside a loop declared on an earlier line
            if cmd.contains("-i $") || cmd.contains("-i ${") {
                inherited_loop.cloned()
            } else {
                None
            }
        });
        Block {
            card: card_arg(cmd),
            cards,
            has_command: true,
            ip_query: cmd.contains(" -ip ") || cmd.contains(" -ip\t") || cmd.ends_with(" -ip"),
            ping_query: cmd.contains("-ping") || cmd.contains("-hccs_ping"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Kind {
    Link,
    Ip,
    Netmask,
    Tls,
    Ping,
    Health,
}

/// One output record before its card is known.
struct Record<'a> {
    kind: Kind,
    value: FactValue,
    /// `hccn.ip_missing` instead of `hccn.ipaddr`.
    missing: bool,
    line: &'a Line,
    block: usize,
    /// Card from the line itself or from an echoed label.
    explicit: Option<u32>,
}

fn fact_name(kind: Kind, missing: bool) -> &'static str {
    match (kind, missing) {
        (Kind::Ip, true) => "hccn.ip_missing",
        (Kind::Link, _) => "hccn.link_status",
        (Kind::Ip, false) => "hccn.ipaddr",
        (Kind::Netmask, _) => "hccn.netmask",
        (Kind::Tls, _) => "hccn.tls_switch",
        (Kind::Ping, _) => "hccn.ping_loss_percent",
        (Kind::Health, _) => "hccn.net_health",
    }
}

fn is_error_line(t: &str) -> bool {
    let l = t.to_ascii_lowercase();
    l.contains("fail")
        || l.contains("error")
        || l.contains("invalid")
        || l.contains("not set")
        || l.contains("not config")
}

/// Whether `t` names something [`marker`] looks for (in any case): a line
/// without any of these words is no marker, decided without compiling or
/// running the patterns (the scorer runs on every segment of every paste).
fn mentions_hccn(t: &str) -> bool {
    static WORDS: OnceLock<aho_corasick::AhoCorasick> = OnceLock::new();
    WORDS
        .get_or_init(|| {
            aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build([
                    "link status",
                    "ipaddr",
                    "ipv6_address",
                    "netmask",
                    "tls switch",
                    "net health status",
                    "hccn_tool",
                ])
                .expect("static words")
        })
        .is_match(t)
}

/// True when a line marks `hccn_tool` output; used by [`score`].
fn marker(t: &str, seg_has_hccn_cmd: bool) -> bool {
    // A ping summary names none of the words: it counts after a typed
    // hccn_tool command in the same segment.
    (mentions_hccn(t)
        && (link_re().is_match(t)
            || inline_label_re().is_match(t)
            || ipaddr_re().is_match(t)
            || t.to_ascii_lowercase().starts_with("netmask:")
            || tls_re().is_match(t)
            || health_re().is_match(t)
            || (command_line_re().is_match(t) && looks_typed(t))))
        || (seg_has_hccn_cmd && ping_re().is_match(t))
}

/// A line that looks like a typed `hccn_tool` command rather than prose
/// mentioning it: it starts with the tool (maybe with a path), `for`, `sudo`,
/// or a prompt character.
fn looks_typed(t: &str) -> bool {
    let t = t.trim_start().trim_start_matches(['$', '#', '>']).trim_start();
    let first = t.split_whitespace().next().unwrap_or("");
    first.ends_with("hccn_tool") || first == "for" || first == "sudo" || first == "do"
}

/// How much `seg` looks like this input when no command named it (0–100).
pub fn score(seg: &Segment) -> u8 {
    let has_cmd = seg
        .lines
        .iter()
        .take(2000)
        .any(|l| l.text.contains("hccn_tool") && command_line_re().is_match(&l.text) && looks_typed(&l.text));
    // Three markers score as high as any more.
    let n = seg.lines.iter().take(2000).filter(|l| marker(l.text.trim(), has_cmd)).take(3).count();
    match n {
        0 => 0,
        1 => 60,
        2 => 80,
        _ => 85,
    }
}

/// Parses one segment.
pub fn parse(seg: &Segment, sink: &mut FactSink<'_>) {
    let mut blocks: Vec<Block> = Vec::new();
    let mut loop_decl: Option<Vec<u32>> = None;
    match &seg.command {
        Some(cmd) => {
            loop_decl = loop_cards(cmd);
            blocks.push(Block::from_command(cmd, loop_decl.as_ref()));
        }
        None => blocks.push(Block::default()),
    }
    let mut records: Vec<Record<'_>> = Vec::new();
    let mut label: Option<u32> = None;
    for line in &seg.lines {
        let t = line.text.trim();
        if t.is_empty() {
            continue;
        }
        // A command inside the output starts a new block.
        if command_line_re().is_match(t) && looks_typed(t) {
            if let Some(l) = loop_cards(t) {
                loop_decl = Some(l);
            }
            blocks.push(Block::from_command(t, loop_decl.as_ref()));
            label = None;
            continue;
        }
        // `for i in {0..7}` on a line of its own (a loop typed over several lines).
        if t.starts_with("for ") {
            if let Some(l) = loop_cards(t) {
                loop_decl = Some(l.clone());
                if let Some(b) = blocks.last_mut() {
                    if b.cards.is_none() && b.card.is_none() {
                        b.cards = Some(l);
                    }
                }
            }
            continue;
        }
        if let Some(c) = label_re().captures(t) {
            label = c[1].parse().ok();
            continue;
        }
        let block = blocks.len() - 1;
        let (t, inline) = match inline_label_re().captures(t) {
            Some(c) => (c.name("rest").map_or(t, |m| m.as_str()), c[1].parse::<u32>().ok()),
            None => (t, None),
        };
        let mut push = |kind, value, missing, explicit: Option<u32>| {
            records.push(Record { kind, value, missing, line, block, explicit: explicit.or(inline).or(label) });
        };
        if let Some(c) = link_re().captures(t) {
            push(Kind::Link, FactValue::Str(c[1].to_ascii_uppercase()), false, None);
            continue;
        }
        if let Some(c) = tls_re().captures(t) {
            let dev = dev_id_re().captures(t).and_then(|d| d[1].parse().ok());
            if let Ok(v) = c[1].parse::<i64>() {
                push(Kind::Tls, FactValue::Int(v), false, dev);
            }
            continue;
        }
        if let Some(c) = health_re().captures(t) {
            push(Kind::Health, FactValue::Str(c[1].to_string()), false, None);
            continue;
        }
        let mut matched = false;
        if let Some(c) = ipaddr_re().captures(t) {
            let v = c[1].trim().to_string();
            let missing = v.is_empty() || v == "0.0.0.0" || v == "::";
            push(Kind::Ip, FactValue::Str(v), missing, None);
            matched = true;
        }
        if let Some(c) = netmask_re().captures(t) {
            push(Kind::Netmask, FactValue::Str(c[1].to_string()), false, None);
            matched = true;
        }
        if matched {
            continue;
        }
        if let Some(c) = ping_re().captures(t) {
            let b = &blocks[block];
            // Plain Linux `ping` prints the same summary; only trust it in an
            // `hccn_tool -ping` block, or in a bare paste with hccn_tool's
            // two-decimal percentage.
            let hccn_style = c[3].contains('.') && c[3].split('.').nth(1).is_some_and(|d| d.len() == 2);
            if b.ping_query || (!b.has_command && hccn_style) {
                if let Ok(v) = c[3].parse::<f64>() {
                    push(Kind::Ping, FactValue::Float(v), false, None);
                }
            }
            continue;
        }
        if blocks[block].ip_query && is_error_line(t) {
            push(Kind::Ip, FactValue::Str(t.to_string()), true, None);
        }
    }
    emit(&blocks, &records, sink);
}

/// Gives each record its card and pushes the facts.
fn emit(blocks: &[Block], records: &[Record<'_>], sink: &mut FactSink<'_>) {
    // Records of each kind per block, to number them by position: counted
    // once, so numbering is linear in the records.
    let mut total: HashMap<(usize, Kind), usize> = HashMap::new();
    for r in records {
        *total.entry((r.block, r.kind)).or_default() += 1;
    }
    let mut seen: HashMap<(usize, Kind), usize> = HashMap::new();
    let count = |block: usize, kind: Kind| total.get(&(block, kind)).copied().unwrap_or(0);
    for r in records {
        let pos = {
            let next = seen.entry((r.block, r.kind)).or_default();
            *next += 1;
            *next - 1
        };
        let b = &blocks[r.block];
        let card = r.explicit.or(b.card).or_else(|| match &b.cards {
            Some(cards) => cards.get(pos).copied(),
            None if count(r.block, r.kind) > 1 => u32::try_from(pos).ok(),
            None => None,
        });
        sink.push(fact_name(r.kind, r.missing), card.map(|c| c.to_string()), r.value.clone(), r.line);
    }
}

#[cfg(test)]
mod tests {
    use crate::facts::{Fact, FactValue};
    use crate::segment::segment;
    use proptest::prelude::*;

    fn facts(text: &str) -> Vec<Fact> {
        crate::parse::facts_of(text, super::parse)
    }

    fn view(text: &str, name: &str) -> Vec<(Option<String>, String, u32)> {
        facts(text)
            .into_iter()
            .filter(|f| f.name == name)
            .map(|f| (f.subject.clone(), f.value.to_text(), f.line()))
            .collect()
    }

    fn s(x: &str) -> Option<String> {
        Some(x.to_string())
    }

    #[test]
    fn the_score_counts_a_ping_summary_after_a_typed_command() {
        // The summary names none of hccn_tool's words; it counts because the
        // segment holds the typed command (two markers: 80, not 60).
        let t = "hccn_tool -i 0 -ping -g address 10.0.0.2\n\
                 64 bytes from 10.0.0.2: icmp_seq=1 ttl=64 time=0.1 ms\n\
                 3 packets transmitted, 3 received, 0% packet loss\n";
        let segs = crate::segment::segment(t);
        assert_eq!(segs.len(), 1);
        assert_eq!(super::score(&segs[0]), 80);
        // Without the command the summary is a ping's, not hccn_tool's.
        let segs = crate::segment::segment("3 packets transmitted, 3 received, 0% packet loss\n");
        assert_eq!(super::score(&segs[0]), 0);
    }

    #[test]
    fn bare_loop_numbers_cards_by_position() {
        let t = "[root@node1 ~]# for i in {0..7}; do hccn_tool -i $i -link -g; done\n\
                 link status: UP\nlink status: UP\nlink status: UP\nlink status: DOWN\n\
                 link status: UP\nlink status: UP\nlink status: UP\nlink status: UP\n";
        let v = view(t, "hccn.link_status");
        assert_eq!(v.len(), 8);
        assert_eq!(v[3], (s("3"), "DOWN".into(), 5));
        assert_eq!(v[7].0, s("7"));
    }

    #[test]
    fn loop_start_value_and_other_loop_forms() {
        let t = "$ for i in {8..15}; do hccn_tool -i $i -link -g; done\nlink status: UP\nlink status: DOWN\n";
        assert_eq!(view(t, "hccn.link_status")[1].0, s("9"));
        let t = "$ for i in $(seq 2 3); do hccn_tool -i $i -link -g; done\nlink status: UP\nlink status: DOWN\n";
        assert_eq!(view(t, "hccn.link_status")[1].0, s("3"));
        let t = "$ for i in 4 6; do hccn_tool -i $i -link -g; done\nlink status: UP\nlink status: DOWN\n";
        assert_eq!(view(t, "hccn.link_status")[1].0, s("6"));
        let t = "$ for ((i=0; i<8; i++)); do hccn_tool -i $i -link -g; done\nlink status: UP\nlink status: DOWN\n";
        assert_eq!(view(t, "hccn.link_status")[1].0, s("1"));
    }

    #[test]
    fn echoed_labels_name_the_card() {
        let t =
            "$ for i in {0..7}; do echo $i; hccn_tool -i $i -link -g; done\n0\nlink status: UP\n5\nlink status: DOWN\n";
        let v = view(t, "hccn.link_status");
        assert_eq!(v[0].0, s("0"));
        assert_eq!(v[1], (s("5"), "DOWN".into(), 5));
        let t = "$ for i in {0..1}; do echo \"=== NPU $i ===\"; hccn_tool -i $i -ip -g; done\n=== NPU 0 ===\nipaddr:10.0.0.10\nnetmask:255.255.255.0\n=== NPU 1 ===\nipaddr:10.0.0.11\nnetmask:255.255.255.0\n";
        let v = view(t, "hccn.ipaddr");
        assert_eq!(v, vec![(s("0"), "10.0.0.10".into(), 3), (s("1"), "10.0.0.11".into(), 6)]);
    }

    #[test]
    fn label_on_the_same_line() {
        let t = "$ for i in {0..7}; do echo \"npu $i: $(hccn_tool -i $i -link -g)\"; done\nnpu 0: link status: UP\nnpu 6: link status: DOWN\n";
        assert_eq!(view(t, "hccn.link_status")[1], (s("6"), "DOWN".into(), 3));
        let t = "$ for i in 0 1; do echo -n \"$i \"; hccn_tool -i $i -ip -g | head -1; done\n0 ipaddr:10.0.0.10\n1 ipaddr:10.0.0.11\n";
        assert_eq!(view(t, "hccn.ipaddr")[1], (s("1"), "10.0.0.11".into(), 3));
        // a ping summary starts with a number that is not a card id
        let t = "$ hccn_tool -i 4 -ping -g address 10.0.0.9\n3 packets transmitted, 3 received, 0.00% packet loss\n";
        assert_eq!(view(t, "hccn.ping_loss_percent"), vec![(s("4"), "0".into(), 2)]);
    }

    #[test]
    fn single_card_command_and_tls_dev_id() {
        let t = "# hccn_tool -i 3 -ip -g\nipaddr:192.168.1.13\nnetmask:255.255.255.0\n";
        assert_eq!(view(t, "hccn.ipaddr"), vec![(s("3"), "192.168.1.13".into(), 2)]);
        assert_eq!(view(t, "hccn.netmask"), vec![(s("3"), "255.255.255.0".into(), 3)]);
        let t = "$ for i in {0..7}; do hccn_tool -i $i -tls -g; done | grep switch\n\
                 dev_id:0, tls switch[0](0:disable, 1:enable), tls preconfigured[1](0:non-preset, 1:preset), tls alarm time threshold[60]days\n\
                 dev_id:4, tls switch[1](0:disable, 1:enable), tls preconfigured[1](0:non-preset, 1:preset), tls alarm time threshold[60]days\n";
        let v = view(t, "hccn.tls_switch");
        assert_eq!(v, vec![(s("0"), "0".into(), 2), (s("4"), "1".into(), 3)]);
    }

    #[test]
    fn ping_and_health() {
        let t =
            "$ hccn_tool -i 0 -ping -g address 10.20.0.29\n3 packets transmitted, 0 received, 100.00% packet loss\n";
        assert_eq!(view(t, "hccn.ping_loss_percent"), vec![(s("0"), "100".into(), 2)]);
        let t = "$ hccn_tool -i 2 -net_health -g\nnet health status: Socket fail\n";
        assert_eq!(view(t, "hccn.net_health"), vec![(s("2"), "Socket fail".into(), 2)]);
    }

    #[test]
    fn linux_ping_is_not_an_hccn_ping() {
        let t = "3 packets transmitted, 0 received, 100% packet loss, time 2041ms\n";
        assert!(view(t, "hccn.ping_loss_percent").is_empty());
    }

    #[test]
    fn missing_ip() {
        let t = "$ for i in {0..2}; do hccn_tool -i $i -ip -g; done\nipaddr:10.0.0.10\nnetmask:255.255.255.0\nipaddr:\nnetmask:\nipaddr:10.0.0.12\nnetmask:255.255.255.0\n";
        assert_eq!(view(t, "hccn.ip_missing"), vec![(s("1"), "".into(), 4)]);
        assert_eq!(view(t, "hccn.ipaddr").len(), 2);
        assert_eq!(view(t, "hccn.ipaddr")[1].0, s("2"));
        let t = "$ hccn_tool -i 5 -ip -g\nget ip address failed, ret = -2\n";
        assert_eq!(view(t, "hccn.ip_missing")[0].0, s("5"));
    }

    #[test]
    fn saved_session_without_prompts() {
        // Shape of the mind-cluster example (sample c17): indented commands and outputs.
        let t = "    /usr/local/Ascend/driver/tools/hccn_tool -i 0 -net_health -g\n    net health status: Init\n\n    /usr/local/Ascend/driver/tools/hccn_tool -i 0 -link -g\n    link status: UP\n\n    /usr/local/Ascend/driver/tools/hccn_tool -i 0 -tls -g | grep switch\n    dev_id:0, tls switch[0](0:disable, 1:enable), tls preconfigured[1](0:non-preset, 1:preset), tls alarm time threshold[60]days\n    /usr/local/Ascend/driver/tools/hccn_tool -i 0 -link_stat -g\n    [device 0]    Tue Jun  6 16:32:10 2023    LINK DOWN\n";
        let seg = &segment(t)[0];
        assert!(super::score(seg) >= 80);
        assert_eq!(view(t, "hccn.link_status"), vec![(s("0"), "UP".into(), 5)]);
        assert_eq!(view(t, "hccn.net_health"), vec![(s("0"), "Init".into(), 2)]);
        assert_eq!(view(t, "hccn.tls_switch").len(), 1);
    }

    #[test]
    fn unprompted_paste_counts_from_zero_and_lone_record_has_no_card() {
        let t = "link status: UP\nlink status: DOWN\n";
        assert_eq!(view(t, "hccn.link_status")[1].0, s("1"));
        let t = "link status: DOWN\n";
        assert_eq!(view(t, "hccn.link_status")[0].0, None);
        let seg = &segment("link status: UP\nlink status: UP\nlink status: UP\n")[0];
        assert!(super::score(seg) >= 80);
        assert_eq!(super::score(&segment("hello\n")[0]), 0);
    }

    #[test]
    fn multi_line_loop() {
        let t = "# for i in {0..7}\n> do\n> hccn_tool -i $i -link -g\n> done\nlink status: UP\nlink status: DOWN\n";
        let v = view(t, "hccn.link_status");
        assert_eq!(v[1].0, s("1"));
        assert_eq!(facts(t).iter().filter(|f| f.value == FactValue::Str("DOWN".into())).count(), 1);
    }

    proptest! {
        #[test]
        fn never_panics_on_hccn_like_lines(lines in proptest::collection::vec(
            prop_oneof![
                Just("link status: UP".to_string()), Just("link status:".to_string()),
                Just("ipaddr:".to_string()), Just("netmask:".to_string()), Just("dev_id:999999999999, tls switch[99999999999]".to_string()),
                Just("for i in {9..0}; do hccn_tool -i $i -link -g; done".to_string()),
                Just("for ((i=0; i<0; i++)); do hccn_tool -i $i -ip -g; done".to_string()),
                Just("hccn_tool -i 999 -ping -g".to_string()), Just("3 packets transmitted, 0 received, 100.00% packet loss".to_string()),
                Just("7".to_string()), "\\PC{0,40}",
            ], 0..30)) {
            let _ = facts(&lines.join("\n"));
        }
    }
}
