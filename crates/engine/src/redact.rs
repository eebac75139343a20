//! Consistent pseudonyms for anything that should not leave the page.
//!
//! The same IP address, hostname, MAC address, user name, e-mail address or
//! token becomes the same placeholder everywhere, so structure survives: a
//! duplicate-IP diagnosis still works on redacted text. IPv4 placeholders
//! are themselves addresses from the documentation ranges (192.0.2.0/24,
//! 198.51.100.0/24, 203.0.113.0/24), so redacted output still parses.
//! Loopback, unspecified and netmask-like addresses (`127.0.0.1`,
//! `0.0.0.0`, `255.255.255.0`) carry diagnosis and no identity: they stay.
//!
//! A [`Redactor`] is built over every text that will be shared, so no
//! placeholder can equal an original value found anywhere in them. The
//! mapping ([`Redactor::mapping`]) stays with the caller.
//!
//! ```
//! use roll_doctor_engine::redact::Redactor;
//! let texts = ["ipaddr:10.20.0.2", "dest 10.20.0.2 from jdoe@corp.example.com"];
//! let mut r = Redactor::for_texts(&texts);
//! let a = r.redact(texts[0]);
//! let b = r.redact(texts[1]);
//! assert_eq!(a, "ipaddr:192.0.2.1");
//! assert!(b.starts_with("dest 192.0.2.1 from user-1@example.com"));
//! ```

use regex::Regex;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::OnceLock;

/// What a redacted value was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// An e-mail address.
    Email,
    /// An API token (`hf_…`, `sk-…`, `ghp_…`, bearer tokens, AWS keys).
    Token,
    /// A MAC address.
    Mac,
    /// An IPv6 address.
    Ipv6,
    /// An IPv4 address.
    Ipv4,
    /// A host name (from a prompt or a fully qualified name).
    Host,
    /// A user name (from a prompt or a home directory).
    User,
}

/// One original value and its placeholder.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Mapping {
    /// What it was.
    pub kind: Kind,
    /// The placeholder shown instead.
    pub placeholder: String,
    /// The original value (never leaves the page).
    pub original: String,
    /// Whether `original` is no value found or learned but the text one was
    /// joined with to be replaced whole: overlapping finds merged into one
    /// span, or a value taken together with the text after it where its
    /// placeholder and that text would spell another (`use` + `r` when `1r`
    /// is a user name: `user-1r`). Such a span appears only while text is
    /// replaced, so a placeholder made before it may spell it (`user-1` for
    /// `use`, then `user`); what it joins is no one's name, and the values
    /// in it are checked as themselves.
    pub joined: bool,
}

/// Public names that identify nobody and that fix commands mention.
const PUBLIC_HOSTS: &[&str] = &[
    "github.com",
    "pypi.org",
    "quay.io",
    "huaweicloud.com",
    "pytorch.org",
    "huggingface.co",
    "modelscope.cn",
    "hiascend.com",
    "docker.io",
    "ubuntu.com",
    "debian.org",
    "gitee.com",
];
/// User names that identify nobody, and words too common to replace inside
/// other words when a home path happens to use them (`/home/test`).
const PUBLIC_USERS: &[&str] = &[
    "root",
    "admin",
    "user",
    "ubuntu",
    "HwHiAiUser",
    "ma-user",
    "node",
    "ray",
    "test",
    "tmp",
    "data",
    "work",
    "workspace",
    "share",
    "shared",
    "dev",
    "app",
    "apps",
    "service",
    "nobody",
    "guest",
    "docker",
    "git",
    "www",
    "models",
    "model",
    "code",
    "local",
];

/// Shortest learned user name replaced inside longer words; shorter ones
/// (`li`) are replaced only as whole words.
const MIN_USER_IN_WORD: usize = 3;
/// Shortest learned host name replaced (as a whole word) wherever it occurs.
const MIN_HOST: usize = 2;

const OCTET: &str = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";

fn ipv4_pattern() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(&format!(r"{OCTET}(?:\.{OCTET}){{3}}")).expect("IPv4 pattern compiles"))
}

fn pattern() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let octet = OCTET;
        let h = r"[0-9A-Fa-f]{1,4}";
        Regex::new(&format!(
            r"(?x)
            (?P<email>[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{{2,}})
          | (?P<token>(?-u:\b)hf_[A-Za-z0-9]{{16,}}|(?-u:\b)sk-[A-Za-z0-9_-]{{16,}}|(?-u:\b)gh[pousr]_[A-Za-z0-9]{{20,}}|(?-u:\b)github_pat_[A-Za-z0-9_]{{20,}}|(?-u:\b)AKIA[0-9A-Z]{{16}}(?-u:\b)|(?-u:\b)xox[bpa]-[A-Za-z0-9-]{{10,}})
          | (?i:bearer|token|api[_-]?key|secret|password|passwd)[\x20\t]*[:=][\x20\t]*(?P<secret>[A-Za-z0-9._~+/=-]{{12,}})
          | (?i:bearer)\s+(?P<bearer>[A-Za-z0-9._~+/=-]{{12,}})
          | (?P<mac>(?-u:\b)[0-9A-Fa-f]{{2}}(?::[0-9A-Fa-f]{{2}}){{5}}(?-u:\b))
          | (?P<ipv6>(?:{h}:){{7}}{h}|(?:{h}:){{1,6}}:(?:{h}(?::{h}){{0,5}})?|::(?:{h}:){{0,5}}{h})
          | (?P<ipv4>{octet}(?:\.{octet}){{3}})
          | (?P<puser>(?-u:\b)[A-Za-z_][A-Za-z0-9_.-]{{0,31}})@(?P<phost>[A-Za-z0-9][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)*)
          | /(?:home|Users)/(?P<huser>[A-Za-z0-9._-]+)
          | (?P<fqdn>(?-u:\b)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.(?:com|cn|net|org|io|local|internal|lan|corp|cloud)(?-u:\b))
            "
        ))
        .expect("redaction pattern compiles")
    })
}

/// Whether an address carries no identity (and matters for the diagnosis).
fn keep_ipv4(ip: &str) -> bool {
    ip.starts_with("127.") || ip == "0.0.0.0" || ip.starts_with("255.")
}

/// Whether an address found at `start..end` stands alone: not inside a
/// longer number and no ASCII letter glued to it. Unlike `\b` this counts
/// `_` and non-ASCII letters as separators, so `allocate_10.0.0.5` and
/// `节点10.0.0.5` are redacted too.
fn ipv4_delimited(text: &str, start: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let letter = |i: Option<usize>| i.and_then(|i| b.get(i)).is_some_and(u8::is_ascii_alphabetic);
    !inside_number(text, start, end) && !letter(start.checked_sub(1)) && !letter(Some(end))
}

/// Whether `start..end` continues a longer number on either side: a digit,
/// or a dot with a digit beyond it (`1` + `27.0.0.1`, `1.` + `7.0.0.1`); a
/// dot after text (`...10.0.0.1`) is no glue.
fn inside_number(text: &str, start: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let digit = |i: Option<usize>| i.and_then(|i| b.get(i)).is_some_and(u8::is_ascii_digit);
    let before = start > 0 && (digit(Some(start - 1)) || b[start - 1] == b'.' && digit(start.checked_sub(2)));
    let after = digit(Some(end)) || b.get(end) == Some(&b'.') && digit(Some(end + 1));
    before || after
}

/// Placeholders of the usual form tried before the one-word fallback.
const PLACEHOLDER_TRIES: u32 = 32;

fn kind_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Ipv4 => "ip",
        Kind::Ipv6 => "ipv6",
        Kind::Mac => "mac",
        Kind::Email => "email",
        Kind::Token => "token",
        Kind::Host => "host",
        Kind::User => "user",
    }
}

/// Whether an original value stands as a whole token anywhere in the
/// placeholder `p` (`host-2` in `host-2.example`, `user-1` in
/// `user-1@example.com`): such a placeholder would put the original back.
fn contains_original(p: &str, originals: &HashSet<String>) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let bounds: Vec<usize> = p.char_indices().map(|(i, _)| i).chain([p.len()]).collect();
    bounds.iter().enumerate().any(|(k, &s)| {
        bounds[k + 1..].iter().any(|&e| {
            let v = &p[s..e];
            let glued_before = word(v.chars().next()) && word(p[..s].chars().next_back());
            let glued_after = word(v.chars().next_back()) && word(p[e..].chars().next());
            !glued_before && !glued_after && originals.contains(v)
        })
    })
}

/// The digits and dots at the start of `s`, without a trailing dot.
fn ipv4_run(s: &str) -> &str {
    let n = s.bytes().take_while(|b| b.is_ascii_digit() || *b == b'.').count();
    s[..n].trim_end_matches('.')
}

/// Where an IPv4 address embedded in the IPv6 match `start..end` begins, when
/// the match is followed by a dot and its last group and what follows form
/// a delimited IPv4 address.
fn embedded_ipv4(text: &str, start: usize, end: usize) -> Option<usize> {
    if text.as_bytes().get(end) != Some(&b'.') {
        return None;
    }
    let v4_start = start + text[start..end].rfind(':')? + 1;
    let run = ipv4_run(&text[v4_start..]);
    (run.parse::<std::net::Ipv4Addr>().is_ok() && ipv4_delimited(text, v4_start, v4_start + run.len()))
        .then_some(v4_start)
}

fn keep_ipv6(ip: &str) -> bool {
    let l = ip.to_ascii_lowercase();
    // `::ffff` alone is the IPv4-mapped prefix: kept like the addresses it
    // begins, so it never becomes a known value that would have to be
    // replaced inside them.
    // One group and `::` (`310::`) is at most a /16 prefix: it names no
    // host or network, and text such as an npu-smi chip name garbled by the
    // pipeline fuzz target (`310::` before a replacement character) would
    // lose the finding that reads it.
    let one_group_prefix = l.strip_suffix("::").is_some_and(|g| (1..=4).contains(&g.len()) && !g.contains(':'));
    l == "::1"
        || l == "::"
        || l == "::ffff"
        || l.starts_with("::ffff:")
        || l.starts_with("fe80:") && l.len() < 7
        || one_group_prefix
}

fn keep_host(h: &str) -> bool {
    let l = h.to_ascii_lowercase();
    l == "localhost"
        || l.starts_with("localhost.")
        || l.starts_with("ip6-")
        || PUBLIC_HOSTS.iter().any(|p| l == *p || l.ends_with(&format!(".{p}")))
}

fn keep_user(u: &str) -> bool {
    PUBLIC_USERS.iter().any(|p| p.eq_ignore_ascii_case(u)) || u.chars().all(|c| c == '.')
}

/// Whether `h` can be a host name worth learning: letters, digits, `-` and
/// `.`, starting and ending with a letter or digit, with at least one letter
/// (`2.1` in `torch@2.1` is a version, not a host).
fn host_like(h: &str) -> bool {
    let b = h.as_bytes();
    h.len() >= MIN_HOST
        && h.len() <= 253
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'.')
        && b.first().is_some_and(u8::is_ascii_alphanumeric)
        && b.last().is_some_and(u8::is_ascii_alphanumeric)
        && b.iter().any(u8::is_ascii_alphabetic)
        && !version_like(h)
        && !keep_host(h)
        && h.parse::<std::net::IpAddr>().is_err()
}

/// `2.1rc1`, `v0.8.5`: a version after `pkg@`, not a host.
fn version_like(h: &str) -> bool {
    let rest = h.strip_prefix(['v', 'V']).unwrap_or(h);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && rest[digits..].starts_with('.') && rest.as_bytes().get(digits + 1).is_some_and(u8::is_ascii_digit)
}

fn user_like(u: &str) -> bool {
    !u.is_empty()
        && u.len() <= 64
        && u.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
        && u.bytes().any(|c| c.is_ascii_alphabetic())
        && !keep_user(u)
}

/// Whether `start..end` lies wholly inside one of the sorted, disjoint `spans`.
fn inside_any(spans: &[(usize, usize)], start: usize, end: usize) -> bool {
    let k = spans.partition_point(|&(s, _)| s <= start);
    k > 0 && spans[k - 1].1 >= end
}

fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric())
}

/// Up to this many known values are looked for one by one; more go through one automaton.
const FEW_KNOWN: usize = 32;

/// Whether the known `value` of `kind` found at `at` in `text` is replaced there.
fn replaceable(text: &str, at: usize, value: &str, kind: Kind) -> bool {
    let before = text[..at].chars().next_back();
    let after = text[at + value.len()..].chars().next();
    // Not inside a longer run of letters and digits on either side.
    let glued_before = is_word(value.chars().next()) && is_word(before);
    let glued_after = is_word(value.chars().next_back()) && is_word(after);
    let whole_word = !glued_before && !glued_after;
    match kind {
        // A user name is replaced inside longer words too (`jdoe_exp3`), unless very short.
        Kind::User => value.len() >= MIN_USER_IN_WORD || whole_word,
        Kind::Host => whole_word,
        // As the pattern sees addresses: a known `7.0.0.1` inside `127.0.0.1`
        // is part of another (kept) address, not this one.
        // Glued to letters (`a10.0.7.7`) it is still replaced.
        Kind::Ipv4 => !inside_number(text, at, at + value.len()),
        // Likewise a known `::ff` inside `::ffff:127.0.0.1` is part of a
        // longer address (found by the pipeline fuzz target: the kept
        // loopback became `2001:db8::1ff:127.0.0.1` and the finding resting
        // on it was lost from the link). Only hex digits glue, and only on a
        // side where the value has one itself (as letters do for names), so
        // what is left unreplaced is never a whole token.
        Kind::Ipv6 | Kind::Mac => {
            let hex = |c: Option<char>| c.is_some_and(|c| c.is_ascii_hexdigit());
            !((hex(value.chars().next()) && hex(before)) || (hex(value.chars().next_back()) && hex(after)))
        }
        _ => true,
    }
}

/// A match worth replacing: its kind, span and text.
struct Found {
    kind: Kind,
    start: usize,
    end: usize,
}

/// `run` without a trailing `:port` (one to five decimal digits, at most
/// 65535), when what is left is an address itself (`::1` of `::1:8265`), or
/// when neither is one but what is left has a colon (`127.0.0.1d:::` of
/// `127.0.0.1d::::6379`, found by the pipeline fuzz target: it went whole
/// and the link lost the listener on 6379). In `fd12:3456::9` and in a full
/// eight-group address the last group is no port: what is left would not
/// be an address.
fn without_port(run: &str) -> &str {
    let Some(colon) = run.rfind(':') else { return run };
    let (head, port) = (&run[..colon], &run[colon + 1..]);
    let is_port = (1..=5).contains(&port.len())
        && port.bytes().all(|b| b.is_ascii_digit())
        && port.parse::<u32>().is_ok_and(|p| p <= 65535);
    let address = |s: &str| s.parse::<std::net::Ipv6Addr>().is_ok();
    let head_stands = address(head) || !address(run) && head.contains(':');
    if is_port && head_stands {
        head
    } else {
        run
    }
}

/// Whether every colon-separated group of `candidate` could be an IPv6
/// group: at most four characters, except a last group with a dot (the
/// IPv4 tail of `::ffff:10.0.0.5`). A dot in an earlier group is in no
/// address: `310100.111::` (an npu-smi chip name the pipeline fuzz target
/// garbled, 2026-12-07) was taken as one, and the link lost the finding
/// on the chip.
fn groups_fit(candidate: &str) -> bool {
    let (head, last) = candidate.rsplit_once(':').unwrap_or(("", candidate));
    head.split(':').all(|g| g.len() <= 4 && !g.contains('.')) && (last.len() <= 4 || last.contains('.'))
}

/// The run of hex digits, colons and dots around `start..end`.
fn hex_colon_run(text: &str, start: usize, end: usize) -> (usize, usize) {
    let b = text.as_bytes();
    let in_run = |c: u8| c.is_ascii_hexdigit() || c == b':' || c == b'.';
    let before = b[..start].iter().rev().take_while(|&&c| in_run(c)).count();
    let after = b[end..].iter().take_while(|&&c| in_run(c)).count();
    // A trailing dot ends the sentence, not the address.
    let after = after - b[end..end + after].iter().rev().take_while(|&&c| c == b'.').count().min(after);
    (start - before, end + after)
}

/// Whether a piece of a split run may be an address: two colons (an IPv6
/// `::` among them), or a dotted quad of numbers.
fn address_like(piece: &str) -> bool {
    piece.bytes().filter(|&b| b == b':').count() >= 2
        || piece
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .any(|r| r.split('.').filter(|g| !g.is_empty()).count() >= 4)
}

/// Whether `start..end` touches a letter, digit or `_` on either side (the
/// run of hex digits, colons and dots stops at anything else).
fn glued_to_a_word(text: &str, start: usize, end: usize) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    word(text[..start].chars().next_back()) || word(text[end..].chars().next())
}

/// The pieces of the run `start..end` between runs of three or more colons,
/// with where each starts; the whole run when it has none.
fn pieces_between_colon_runs(text: &str, start: usize, end: usize) -> Vec<(usize, &str)> {
    let run = &text[start..end];
    if !run.contains(":::") {
        return vec![(start, run)];
    }
    let b = run.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut from) = (0, 0);
    while i < b.len() {
        if b[i] == b':' {
            let colons = b[i..].iter().take_while(|&&c| c == b':').count();
            if colons >= 3 {
                out.push((start + from, &run[from..i]));
                from = i + colons;
            }
            i += colons;
        } else {
            i += 1;
        }
    }
    out.push((start + from, &run[from..]));
    out
}

fn find_all(text: &str) -> Vec<Found> {
    let mut out = Vec::new();
    // Where the last IPv6 run taken whole ends: matches inside it are skipped,
    // so a long run is walked once, not once per match in it.
    let mut ipv6_covered = 0;
    for c in pattern().captures_iter(text) {
        let mut push = |kind, m: Option<regex::Match<'_>>| {
            if let Some(m) = m {
                out.push(Found { kind, start: m.start(), end: m.end() });
            }
        };
        if let Some(m) = c.name("email") {
            let host = m.as_str().rsplit('@').next().unwrap_or("");
            if !keep_host(host) {
                push(Kind::Email, Some(m));
            }
        } else if c.name("token").is_some() {
            push(Kind::Token, c.name("token"));
        } else if c.name("secret").is_some() {
            push(Kind::Token, c.name("secret"));
        } else if c.name("bearer").is_some() {
            push(Kind::Token, c.name("bearer"));
        } else if c.name("mac").is_some() {
            push(Kind::Mac, c.name("mac"));
        } else if let Some(m) = c.name("ipv6") {
            if let Some(v4_start) = embedded_ipv4(text, m.start(), m.end()) {
                // `::ffff:10.0.0.5` (as `ss` prints dual-stack sockets): the
                // IPv6 pattern stops at the dot, the IPv4 tail is the address.
                let v4_end = v4_start + ipv4_run(&text[v4_start..]).len();
                let prefix = text[m.start()..v4_start].to_ascii_lowercase();
                if prefix == "::ffff:" || prefix == "::" {
                    if !keep_ipv4(&text[v4_start..v4_end]) {
                        out.push(Found { kind: Kind::Ipv4, start: v4_start, end: v4_end });
                    }
                } else {
                    out.push(Found { kind: Kind::Ipv6, start: m.start(), end: v4_end });
                }
            } else if m.start() < ipv6_covered {
                // Inside the run of an address already taken whole.
            } else {
                // The whole run of hex digits, colons and dots goes: a
                // tail left behind (`.168.100.110` of `b::c.168.100.110`,
                // the colons of `1::::`) could join the placeholder's last
                // group into an original (`2001:db8::2.168.100.110`). Only
                // a port stays (`ss` prints `::1:8265`, `fe80::1:6380`):
                // rules read it, and it names no one.
                let (run_start, run_end) = hex_colon_run(text, m.start(), m.end());
                ipv6_covered = run_end;
                // Three colons in a row are in no address (it has at most one
                // `::`): they separate pieces, each judged alone. Taken whole,
                // `310:::…:::P3` (an npu-smi chip name garbled by the pipeline
                // fuzz target) became an address placeholder and the link lost
                // the finding on the chip; `:::fe80::1` still loses its address.
                let pieces = pieces_between_colon_runs(text, run_start, run_end);
                let split = pieces.len() > 1;
                for (start, piece) in pieces {
                    // Glued to a word it is part of that word, no address
                    // (`310::z…`, `310::ì…`: an npu-smi chip name garbled by
                    // the pipeline fuzz target; as an original, `310::` was
                    // replaced inside the chip name and the link lost the
                    // finding on it). As for IPv4 (`ipv4_delimited`).
                    if glued_to_a_word(text, start, start + piece.len()) {
                        continue;
                    }
                    // A piece goes only when it looks like an address itself:
                    // a bare hex word (`310`) or number (`192.`, `5.0`) does
                    // not, and as an original it would be replaced wherever it
                    // occurs (`:192.` inside `ipaddr:192.168.100.111`, the
                    // next pipeline fuzz find). An IPv4 address glued to a
                    // piece (`10.1.2.3d::::6379`) is not found on its own, so
                    // it takes the piece with it. A colon glued on from the
                    // word before (`ipaddr:`) is no part of it.
                    let (start, piece) = match piece.strip_prefix(':') {
                        Some(rest) if split && !rest.starts_with(':') => (start + 1, rest),
                        _ => (start, piece),
                    };
                    if split && !address_like(piece) {
                        continue;
                    }
                    let end = start + without_port(piece).len();
                    // No group of an address has more than four hex digits
                    // (a dotted IPv4 tail aside): `310::777…777` (48 digits,
                    // an npu-smi chip name the pipeline fuzz target grew)
                    // names no machine, and as an original the link lost
                    // the finding on the chip.
                    if !groups_fit(&text[start..end]) {
                        continue;
                    }
                    // Colons alone name no one (`::10102` is no address: its
                    // last group has five digits, so `:10102` reads as a port
                    // and `:` is left): as an original, every colon of the
                    // input would be replaced (a pipeline fuzz find).
                    let any_digit = text[start..end].bytes().any(|b| b.is_ascii_hexdigit());
                    if any_digit && !keep_ipv6(&text[start..end]) {
                        out.push(Found { kind: Kind::Ipv6, start, end });
                    }
                }
            }
        } else if let Some(m) = c.name("ipv4") {
            if ipv4_delimited(text, m.start(), m.end()) && !keep_ipv4(m.as_str()) {
                push(Kind::Ipv4, Some(m));
            }
        } else if let Some(host) = c.name("phost") {
            let user = c.name("puser");
            // A host that is itself an IPv4 address gets an address placeholder.
            let is_ip = host.as_str().parse::<std::net::Ipv4Addr>().is_ok();
            if is_ip || host_like(host.as_str()) {
                if user.is_some_and(|u| user_like(u.as_str())) {
                    push(Kind::User, user);
                }
                if !is_ip {
                    push(Kind::Host, Some(host));
                } else if !keep_ipv4(host.as_str()) {
                    push(Kind::Ipv4, Some(host));
                }
            }
        } else if let Some(u) = c.name("huser") {
            if user_like(u.as_str()) {
                push(Kind::User, Some(u));
            }
        } else if let Some(m) = c.name("fqdn") {
            if !keep_host(m.as_str()) {
                push(Kind::Host, Some(m));
            }
        }
    }
    // Every IPv4 address once more on its own: the pattern above consumes
    // text that another alternative claimed and then kept (a `/Users/<name>`
    // that is no user name, a kept IPv6 prefix), which could hide one.
    for m in ipv4_pattern().find_iter(text) {
        if ipv4_delimited(text, m.start(), m.end()) && !keep_ipv4(m.as_str()) {
            out.push(Found { kind: Kind::Ipv4, start: m.start(), end: m.end() });
        }
    }
    out
}

/// Commands whose output is the machine's own name.
const HOSTNAME_COMMANDS: &[&str] = &["hostname", "hostname -s", "hostname -f", "uname -n", "cat /etc/hostname"];

/// Names a text teaches without a pattern able to find them again: the host
/// of a prompt or an `ssh user@host`, the user of a home path, the names of
/// an `/etc/hosts` line, what `hostname` printed, a collector's node marker,
/// `HOSTNAME=`/`USER=` in an environment dump.
fn learn_names(text: &str, out: &mut Vec<(Kind, String)>) {
    let mut hostname_next = false;
    for raw in text.split('\n') {
        let line = raw.trim_end_matches('\r').trim();
        if hostname_next {
            hostname_next = false;
            if !line.contains(char::is_whitespace) && host_like(line) {
                out.push((Kind::Host, line.to_string()));
                continue;
            }
        }
        if line.is_empty() {
            continue;
        }
        // A prompt or collector marker for `hostname`: the next line is the name.
        let command = line
            .strip_prefix("===== roll-doctor: ")
            .and_then(|r| r.split(" =====").next())
            .or_else(|| line.rsplit_once(['$', '#']).map(|(_, c)| c.trim()));
        if command.is_some_and(|c| HOSTNAME_COMMANDS.contains(&c)) {
            hostname_next = true;
        }
        if let Some(rest) = line.strip_prefix("===== roll-doctor node: ") {
            let name = rest.split(" =====").next().unwrap_or("").trim();
            if host_like(name) {
                out.push((Kind::Host, name.to_string()));
            }
            continue;
        }
        // `10.0.0.1  ascend-node-17 ascend-node-17.cluster  # comment`
        let mut words = line.split('#').next().unwrap_or("").split_whitespace();
        if words.next().is_some_and(|w| w.parse::<std::net::IpAddr>().is_ok()) {
            let names: Vec<&str> = words.collect();
            if !names.is_empty() && names.iter().all(|n| host_like(n) || keep_host(n)) {
                out.extend(names.iter().filter(|n| host_like(n)).map(|n| (Kind::Host, n.to_string())));
            }
        }
        for (key, kind) in
            [("HOSTNAME=", Kind::Host), ("USER=", Kind::User), ("LOGNAME=", Kind::User), ("SUDO_USER=", Kind::User)]
        {
            if let Some(v) = line.strip_prefix("export ").unwrap_or(line).strip_prefix(key) {
                let v = v.trim_matches(['"', '\'']);
                if (kind == Kind::Host && host_like(v)) || (kind == Kind::User && user_like(v)) {
                    out.push((kind, v.to_string()));
                }
            }
        }
        if line.contains('@') || line.contains("/home/") || line.contains("/Users/") {
            for f in find_all(line) {
                if matches!(f.kind, Kind::User | Kind::Host) {
                    let v = &line[f.start..f.end];
                    out.push((f.kind, v.to_string()));
                    // `node17.corp.internal`: its first label names the machine too.
                    if f.kind == Kind::Host {
                        if let Some((first, _)) = v.split_once('.') {
                            if host_like(first) && first.len() >= 3 && first.bytes().any(|c| !c.is_ascii_alphabetic()) {
                                out.push((Kind::Host, first.to_string()));
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Consistent redaction over a set of texts.
#[derive(Clone, Debug, Default)]
pub struct Redactor {
    map: HashMap<(Kind, String), String>,
    order: Vec<(Kind, String)>,
    /// Every sensitive value seen in the texts; placeholders avoid them.
    originals: HashSet<String>,
    counters: HashMap<Kind, u32>,
    /// Kinds whose usual placeholder form an original blocks (see
    /// [`PLACEHOLDER_TRIES`]): they get one-word placeholders from then on.
    one_word: HashSet<Kind>,
    /// Values replaced wherever they occur (not only where a pattern finds
    /// them): everything found or learned, in a stable order.
    known: BTreeMap<String, Kind>,
    /// `known` as one alternation, longest first; rebuilt when it grows.
    matcher: Option<Regex>,
    /// Every byte some known value holds (bit `b` of word `b / 64`), and the
    /// length of the longest: what a value crossing a placeholder's end can be.
    known_bytes: [u64; 4],
    known_longest: usize,
    /// Spans replaced whole that were no original before (see [`Mapping::joined`]).
    joined: HashSet<String>,
}

impl Redactor {
    /// A redactor for `texts`: it first collects every original value so no
    /// placeholder can collide with one, and learns the host and user names
    /// the texts reveal (see [`Redactor::learn`]).
    pub fn for_texts<S: AsRef<str>>(texts: &[S]) -> Redactor {
        let mut r = Redactor::default();
        for t in texts {
            let t = t.as_ref();
            for f in find_all(t) {
                r.know(f.kind, &t[f.start..f.end]);
            }
            r.learn(t);
        }
        r
    }

    fn know(&mut self, kind: Kind, value: &str) {
        self.originals.insert(value.to_string());
        if !self.known.contains_key(value) {
            for b in value.bytes() {
                self.known_bytes[usize::from(b >> 6)] |= 1 << (b & 63);
            }
            self.known_longest = self.known_longest.max(value.len());
            self.known.insert(value.to_string(), kind);
            self.matcher = None;
        }
    }

    /// Learns the names `text` reveals — the host of a prompt
    /// (`user@ascend-node-17`), `/etc/hosts`-style lines, `hostname` output,
    /// collector node markers, home paths, `HOSTNAME=`/`USER=` — so they are
    /// replaced wherever they occur in what is redacted, also where no
    /// pattern would find them (a bare `ascend-node-17` in a log line, a
    /// user name inside a longer word). `text` itself need not be shared:
    /// the whole paste teaches, only what is shared is redacted.
    pub fn learn(&mut self, text: &str) {
        let mut names = Vec::new();
        learn_names(text, &mut names);
        for (kind, name) in names {
            self.know(kind, &name);
        }
        self.reserve_lookalikes(text);
    }

    /// Values in `text` shaped like a placeholder (`192.0.2.2`, `host-3`,
    /// `REDACTED-1`) become originals that no placeholder may spell, though
    /// they are not replaced: a text that is not shared can still hold the
    /// value a placeholder would take (found by the pipeline fuzz target: the
    /// link showed `192.0.2.2` for another address while an unshared line of
    /// the paste held `192.0.2.2`). Only the placeholder forms are searched
    /// (SIMD substring search), so a large paste costs little.
    fn reserve_lookalikes(&mut self, text: &str) {
        const IPV4: [&str; 4] = ["192.0.2.", "198.51.100.", "203.0.113.", "100."];
        const WORDS: [&str; 6] = ["host-", "user-", "REDACTED-", "redacted", "2001:db8::", "02:00:00:00:"];
        for prefix in IPV4 {
            for at in memchr::memmem::find_iter(text.as_bytes(), prefix) {
                let run = ipv4_run(&text[at..]);
                if run.parse::<std::net::Ipv4Addr>().is_ok() && ipv4_delimited(text, at, at + run.len()) {
                    self.originals.insert(run.to_string());
                }
            }
        }
        for prefix in WORDS {
            for at in memchr::memmem::find_iter(text.as_bytes(), prefix) {
                let len = text.as_bytes()[at..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b':' | b'-'))
                    .count();
                let run = text[at..at + len].trim_end_matches(['.', ':']);
                self.originals.insert(run.to_string());
            }
        }
    }

    /// Learns a host name known from elsewhere (a node label).
    pub fn learn_host(&mut self, name: &str) {
        let name = name.trim();
        if host_like(name) {
            self.know(Kind::Host, name);
        }
    }

    fn placeholder(&mut self, kind: Kind, original: &str) -> String {
        if let Some(p) = self.map.get(&(kind, original.to_string())) {
            return p.clone();
        }
        let mut tries = 0;
        loop {
            tries += 1;
            let n = {
                let c = self.counters.entry(kind).or_insert(0);
                *c += 1;
                *c
            };
            let token_prefix = if original.starts_with("hf_") {
                "hf_"
            } else if original.starts_with("sk-") {
                "sk-"
            } else {
                ""
            };
            let p = match kind {
                Kind::Ipv4 => {
                    let (net, host) = ((n - 1) / 254, (n - 1) % 254 + 1);
                    match net {
                        0 => format!("192.0.2.{host}"),
                        1 => format!("198.51.100.{host}"),
                        2 => format!("203.0.113.{host}"),
                        k => format!("100.{}.{}.{host}", 64 + (k - 3) / 254 % 64, (k - 3) % 254),
                    }
                }
                Kind::Ipv6 => format!("2001:db8::{n:x}"),
                Kind::Mac => format!("02:00:00:00:{:02x}:{:02x}", (n >> 8) & 0xff, n & 0xff),
                Kind::Email => format!("user-{n}@example.com"),
                Kind::Token => format!("{token_prefix}REDACTED-{n}"),
                Kind::Host => {
                    if original.contains('.') {
                        format!("host-{n}.example")
                    } else {
                        format!("host-{n}")
                    }
                }
                Kind::User => format!("user-{n}"),
            };
            // When a real name is a word of every placeholder of the form
            // (a host called `host`, a user called `user`, a host `db8`),
            // no `n` helps: fall back to one word, which only an identical
            // original can block, so the loop ends.
            if tries > PLACEHOLDER_TRIES {
                self.one_word.insert(kind);
            }
            let p = if self.one_word.contains(&kind) { format!("redacted{}{n}", kind_word(kind)) } else { p };
            if !contains_original(&p, &self.originals) {
                self.map.insert((kind, original.to_string()), p.clone());
                self.order.push((kind, original.to_string()));
                return p;
            }
        }
    }

    /// The alternation of every known value, longest first (so at one
    /// position the longest wins); `None` when nothing is known or it
    /// cannot be built (then only the patterns apply).
    fn matcher(&mut self) -> Option<&Regex> {
        if self.matcher.is_none() && !self.known.is_empty() {
            let mut keys: Vec<&String> = self.known.keys().collect();
            keys.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
            let alt: Vec<String> = keys.iter().map(|k| regex::escape(k)).collect();
            self.matcher = regex::RegexBuilder::new(&alt.join("|"))
                .unicode(false)
                .size_limit(64 << 20)
                .dfa_size_limit(16 << 20)
                .build()
                .ok();
        }
        self.matcher.as_ref()
    }

    /// Occurrences of known values in `text` that may be replaced there.
    fn find_known(&mut self, text: &str) -> Vec<Found> {
        let mut out = Vec::new();
        if self.known.is_empty() {
            return out;
        }
        if self.known.len() <= FEW_KNOWN {
            // A few names: look for each (no automaton to build), then keep
            // what the automaton below would: leftmost, at one place the
            // longest, none overlapping. Overlapping known names (`use` and
            // `ser` in `user`) merged into one span would make `user` an
            // original that the usual placeholders spell.
            let mut all = Vec::new();
            for (value, &kind) in &self.known {
                for (i, _) in text.match_indices(value.as_str()) {
                    if replaceable(text, i, value, kind) {
                        all.push(Found { kind, start: i, end: i + value.len() });
                    }
                }
            }
            all.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
            for f in all {
                if out.last().is_none_or(|last: &Found| f.start >= last.end) {
                    out.push(f);
                }
            }
            return out;
        }
        let Some(m) = self.matcher().cloned() else { return out };
        let mut at = 0;
        while at <= text.len() {
            let Some(hit) = m.find_at(text, at) else { break };
            let value = hit.as_str();
            let kind = self.known.get(value).copied();
            if let Some(kind) = kind.filter(|&k| replaceable(text, hit.start(), value, k)) {
                out.push(Found { kind, start: hit.start(), end: hit.end() });
                at = hit.end();
            } else if let Some((end, kind)) =
                value.char_indices().rev().map(|(e, _)| e).filter(|&e| e > 0).find_map(|e| {
                    // The longest known value here is not replaceable (`a2-node-0`
                    // glued to `2`): a shorter one at the same place may be (`a2`).
                    self.known
                        .get(&value[..e])
                        .copied()
                        .filter(|&k| replaceable(text, hit.start(), &value[..e], k))
                        .map(|k| (e, k))
                })
            {
                out.push(Found { kind, start: hit.start(), end: hit.start() + end });
                at = hit.start() + end;
            } else {
                // Try again one character on: a shorter name may start inside this one.
                at = hit.start() + text[hit.start()..].chars().next().map_or(1, char::len_utf8);
            }
        }
        out
    }

    /// Redacts one text. Values seen before get the same placeholder; values
    /// found or learned anywhere are replaced wherever they occur here.
    pub fn redact(&mut self, text: &str) -> String {
        let mut found = find_all(text);
        found.extend(self.find_known(text));
        if found.is_empty() {
            return text.to_string();
        }
        let (mut out, mut placed) = self.replace(text, found, &[]);
        // A placeholder glued to the text around it can spell an original
        // again (`drevir_ut` → `user-1` before `92.168.100.113` gives
        // `…user-192.168.100.113`): replace known originals in the output
        // too, where they reach outside a placeholder. One wholly inside a
        // placeholder (`ser` in `user-1`, when `ser` is a user name replaced
        // inside words) is no original showing: replacing it would nest
        // placeholders without end. Placeholders are never originals, so
        // this settles; the bound only guards against a mistake there.
        for _ in 0..4 {
            let mut again = self.find_known(&out);
            again.retain(|f| !inside_any(&placed, f.start, f.end));
            if again.is_empty() {
                break;
            }
            (out, placed) = self.replace(&out, again, &placed);
        }
        out
    }

    /// `text` with the spans `found` replaced by their placeholders, and
    /// where placeholders stand in the result (sorted): those placed now and
    /// those of `placed` (spans of `text`, sorted) that were copied through.
    fn replace(
        &mut self,
        text: &str,
        mut found: Vec<Found>,
        placed: &[(usize, usize)],
    ) -> (String, Vec<(usize, usize)>) {
        // Leftmost first; at one position the longest.
        found.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
        // Overlapping finds become one span, replaced as the first's kind:
        // cutting at the first's end could leave half of the other (a known
        // `b::2` would leave `.168.100.110` of `b::2.168.100.110`).
        let mut spans: Vec<Found> = Vec::with_capacity(found.len());
        for f in found {
            match spans.last_mut() {
                Some(last) if f.start < last.end => last.end = last.end.max(f.end),
                _ => spans.push(f),
            }
        }
        let mut out = String::with_capacity(text.len());
        let mut now = Vec::with_capacity(spans.len() + placed.len());
        let mut old = placed.iter().peekable();
        let mut at = 0;
        // Earlier placeholders wholly inside `text[at..upto]`, moved to where
        // that text lands in `out` (starting at `out_len`).
        let mut carry = |at: usize, upto: usize, out_len: usize, now: &mut Vec<(usize, usize)>| {
            while let Some(&&(s, e)) = old.peek() {
                if s >= upto {
                    break;
                }
                old.next();
                if s >= at && e <= upto {
                    now.push((s - at + out_len, e - at + out_len));
                }
            }
        };
        let mut spans = spans.into_iter().peekable();
        while let Some(mut f) = spans.next() {
            // Where a span may grow back to: not into the last placeholder
            // replaced now, nor into one placed by an earlier pass.
            let k = placed.partition_point(|&(s, _)| s < f.start);
            let floor = at.max(if k > 0 { placed[k - 1].1.min(f.start) } else { 0 });
            let p = loop {
                let original = &text[f.start..f.end];
                // One value, one kind: what it was first known as. A span merged
                // from overlapping finds or grown below is an original too: its
                // placeholder must not spell it (one made earlier may: see
                // `Mapping::joined`).
                let kind = self.known.get(original).copied().unwrap_or(f.kind);
                if !self.originals.contains(original) {
                    self.joined.insert(original.to_string());
                    self.originals.insert(original.to_string());
                }
                let p = self.placeholder(kind, original);
                // The placeholder's end and the text after it can spell a
                // known value (`user-1` before `::` spells a known `1::`;
                // found by the redact fuzz target). Replacing that in the
                // output would cut into the placeholder and spell it again
                // (`2001:db8::1` before `::`), so the span takes in the
                // text it glues to instead; it only grows, so this ends.
                // Likewise the text before it and the placeholder's start
                // (`rrrr` before `user-9` spells a known user `ruser`; the
                // redact fuzz target found it): left to the passes in
                // `redact`, each would cut one letter off such a run and spell
                // the original again. The span takes in the word it is glued
                // to instead; it only grows, down to `floor`, so this ends.
                if let Some(back) = self.spelled_before_start(&text[floor..f.start], &p) {
                    let mut start = f.start - back;
                    while start > floor && is_word(text[..start].chars().next_back()) {
                        start -= text[..start].chars().next_back().map_or(1, char::len_utf8);
                    }
                    f.start = start;
                    continue;
                }
                let Some(more) = self.spelled_past_end(&p, &text[f.end..]) else { break p };
                f.end += more;
                while let Some(next) = spans.next_if(|n| n.start < f.end) {
                    f.end = f.end.max(next.end);
                }
            };
            carry(at, f.start, out.len(), &mut now);
            out.push_str(&text[at..f.start]);
            now.push((out.len(), out.len() + p.len()));
            out.push_str(&p);
            at = f.end;
        }
        carry(at, text.len(), out.len(), &mut now);
        out.push_str(&text[at..]);
        // In order by construction: each carry and each placeholder lands past the last.
        debug_assert!(now.windows(2).all(|w| w[0].1 <= w[1].0));
        (out, now)
    }

    /// Whether some known value holds the byte `b`.
    fn in_some_known(&self, b: u8) -> bool {
        self.known_bytes[usize::from(b >> 6)] & (1 << (b & 63)) != 0
    }

    /// How far before the start of `placeholder` a known value starts when it
    /// ends inside the placeholder, `before` being the text in front of it.
    fn spelled_before_start(&mut self, before: &str, placeholder: &str) -> Option<usize> {
        if !self.in_some_known(*before.as_bytes().last()?) {
            return None;
        }
        let mut w = before.len().saturating_sub(self.known_longest);
        while !before.is_char_boundary(w) {
            w += 1;
        }
        let tail = &before[w..];
        let joined = format!("{tail}{placeholder}");
        let cut = tail.len();
        self.find_known(&joined).iter().filter(|f| f.start < cut && f.end > cut).map(|f| cut - f.start).max()
    }

    /// How far past the end of `placeholder` a known value reaches into
    /// `rest` (the text after it) when one starts inside the placeholder.
    fn spelled_past_end(&mut self, placeholder: &str, rest: &str) -> Option<usize> {
        // Most text after a placeholder starts with a byte no known value
        // holds (a space, a slash): nothing can reach into it.
        if !self.in_some_known(*rest.as_bytes().first()?) {
            return None;
        }
        let mut w = rest.len().min(self.known_longest);
        while !rest.is_char_boundary(w) {
            w -= 1;
        }
        if w == 0 {
            return None;
        }
        let joined = format!("{placeholder}{}", &rest[..w]);
        let cut = placeholder.len();
        self.find_known(&joined).iter().filter(|f| f.start < cut && f.end > cut).map(|f| f.end - cut).max()
    }

    /// Every replacement made so far, in order of first appearance.
    pub fn mapping(&self) -> Vec<Mapping> {
        self.order
            .iter()
            .map(|(kind, original)| Mapping {
                kind: *kind,
                placeholder: self.map[&(*kind, original.clone())].clone(),
                joined: self.joined.contains(original),
                original: original.clone(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn redact_all(texts: &[&str]) -> Vec<String> {
        let mut r = Redactor::for_texts(texts);
        texts.iter().map(|t| r.redact(t)).collect()
    }

    #[test]
    fn kinds_and_consistency() {
        let out = redact_all(&[
            "[root@gpu-node-17 ~]# hccn_tool -i 0 -ip -g",
            "ipaddr:10.20.0.2\nnetmask:255.255.255.0",
            "|  10.20.0.29(27)   |  16666  |   10.20.0.2(0)   |",
            "jdoe@corp.example.com token hf_abcdefghijklmnopqrstu Authorization: Bearer abc.def.ghijklmnop",
            "mac 3c:fd:fe:12:34:56 ipv6 fe80::1ff:fe23:4567:890a cache /home/jdoe/.cache",
            "(raylet, ip=10.20.0.29) listening on 127.0.0.1:6379 and 0.0.0.0:8265 via mirrors.huaweicloud.com",
        ]);
        assert_eq!(out[0], "[root@host-1 ~]# hccn_tool -i 0 -ip -g");
        assert_eq!(out[1], "ipaddr:192.0.2.1\nnetmask:255.255.255.0");
        assert_eq!(out[2], "|  192.0.2.2(27)   |  16666  |   192.0.2.1(0)   |");
        assert!(
            out[3].starts_with("user-1@example.com token hf_REDACTED-1 Authorization: Bearer REDACTED-2"),
            "{}",
            out[3]
        );
        assert!(
            out[4].contains("02:00:00:00:00:01") && out[4].contains("2001:db8::1") && out[4].contains("/home/user-1/"),
            "{}",
            out[4]
        );
        assert_eq!(
            out[5],
            "(raylet, ip=192.0.2.2) listening on 127.0.0.1:6379 and 0.0.0.0:8265 via mirrors.huaweicloud.com"
        );
    }

    #[test]
    fn a_placeholder_glued_to_digits_does_not_spell_an_original() {
        // Found by the redact fuzz target: the user name before `92.168.100.113`
        // became `user-1`, and `1` + `92.168.100.113` is a known address.
        let out = redact_all(&[
            "[drevir_ut@a2-node-01 ~]# hccn_tool -i 0 -ip -g\nipaddr:192.168.100.113\nipaddr:1drevir_ut92.168.100.113",
        ]);
        assert!(!out[0].contains("192.168.100.113"), "{}", out[0]);
        assert!(!out[0].contains("drevir_ut"), "{}", out[0]);
    }

    #[test]
    fn addresses_glued_by_underscore_or_non_ascii_are_redacted() {
        // Found by the redact fuzz target: `\b` treats `_` and `é` as word characters.
        let out = redact_all(&["allocate_10.2.0.7 host_10.2.0.8_x é10.2.0.9 ...10.2.0.10"]);
        assert_eq!(out[0], "allocate_192.0.2.1 host_192.0.2.2_x é192.0.2.3 ...192.0.2.4");
        // IPv4-mapped IPv6, as `ss -tlnp` prints a dual-stack listener.
        let out = redact_all(&["LISTEN 0 4096 [::ffff:10.2.0.7]:6379 [::FFFF:127.0.0.1]:1 2001:db8:1::10.2.0.9"]);
        assert_eq!(out[0], "LISTEN 0 4096 [::ffff:192.0.2.1]:6379 [::FFFF:127.0.0.1]:1 2001:db8::1");
        // Inside text another pattern claimed and kept.
        assert_eq!(redact_all(&["ipaddr:1/Users/92.168.100.116"])[0], "ipaddr:1/Users/192.0.2.1");
        // A known value that overlaps an address is replaced together with it.
        let out = redact_all(&["x b::2 y", "ipaddrb::2.168.100.110"]);
        assert_eq!(out[1], "ipaddr2001:db8::2", "{out:?}");
        // Glued to a word or a longer dotted number it is not an address.
        let text = "v10.2.0.7 1.10.2.0.7x build10.2.0.7";
        assert_eq!(redact_all(&[text])[0], text);
    }

    #[test]
    fn a_placeholder_end_and_the_text_after_it_do_not_spell_an_original() {
        // Found by the redact fuzz target: `11::` holds a known `1::` glued to
        // a digit (not replaced there); the user name before it became
        // `user-1`, and `user-1::` spelled `1::`. Replacing that cut into the
        // placeholder and spelled it again, `2001:db8::1::`.
        let text = "[2.\u{fffd}1::\n211::::::::::/home/1-no11::::::::::/home/1-node";
        let mut r = Redactor::for_texts(&[text]);
        let out = r.redact(text);
        for m in r.mapping() {
            let shown = out.match_indices(&m.original).any(|(i, _)| {
                let glued_before = is_word(m.original.chars().next()) && is_word(out[..i].chars().next_back());
                let glued_after =
                    is_word(m.original.chars().next_back()) && is_word(out[i + m.original.len()..].chars().next());
                !glued_before && !glued_after
            });
            assert!(!shown, "{:?} shows in {out:?}", m.original);
        }
    }

    #[test]
    fn the_text_before_a_placeholder_and_its_start_do_not_spell_an_original() {
        // `rrrt` is a user (a prompt), so `rrrrrrrrt` becomes `rrrrr` + a
        // placeholder, and `r` + `user-…` spells the user `ruser`: replaced
        // pass by pass, one `r` at a time, it outlived the passes.
        let texts = ["ruser@box:~$ ls", "rrrt@box:~$ ls", "log: rrrrrrrrrrrrrrrrrrrrt done"];
        let mut r = Redactor::for_texts(&texts);
        let out: Vec<String> = texts.iter().map(|t| r.redact(t)).collect();
        for o in &out {
            assert!(!o.contains("ruser") && !o.contains("rrrt"), "{o}");
        }
        assert!(out[2].starts_with("log: user-") && out[2].ends_with(" done"), "{}", out[2]);
    }

    #[test]
    fn a_value_joined_to_the_text_after_it_is_listed_as_joined() {
        // Found by the redact fuzz target in CI: `use` became `user-1` at its
        // prompt; in `user`, `user-1` before `r` spelled the user name `1r`,
        // so `use` + `r` was replaced whole, and `user` became an original
        // that the `user-1` given out before spells. It joins no one's name.
        let text = "use@hosta:~$ ls\nUSER=1r\nuser x\n";
        let mut r = Redactor::for_texts(&[text]);
        let out = r.redact(text);
        assert_eq!(out, "user-1@host-1:~$ ls\nUSER=user-2\nredacteduser35 x\n");
        let mapping = r.mapping();
        let joined: Vec<&str> = mapping.iter().filter(|m| m.joined).map(|m| m.original.as_str()).collect();
        assert_eq!(joined, ["user"], "{mapping:?}");
        for m in mapping.iter().filter(|m| !m.joined) {
            let shown = out.match_indices(&m.original).any(|(i, _)| {
                !is_word(out[..i].chars().next_back()) && !is_word(out[i + m.original.len()..].chars().next())
            });
            assert!(!shown, "{:?} shows in {out:?}", m.original);
        }
    }

    #[test]
    fn colons_left_of_a_port_are_no_address() {
        // `::10102` is no IPv6 address (five digits in a group); `:10102`
        // reads as a port, and the `:` left before it must not become an
        // original that every colon of the input is then replaced as.
        let text = "NPU  ::10102Y [x] 10:13:02 ipaddr:1922: 192.0.2.2";
        let mut r = Redactor::for_texts(&[text]);
        let out = r.redact(text);
        assert!(r.mapping().iter().all(|m| m.original.bytes().any(|b| b.is_ascii_hexdigit())), "{:?}", r.mapping());
        assert!(out.contains("10:13:02") && out.contains("ipaddr:1922:"), "{out}");
    }

    #[test]
    fn a_group_of_more_than_four_hex_digits_is_no_address() {
        // The pipeline fuzz target grew an npu-smi chip name into
        // `310::777…777:::…:::13`; as an original, the link lost the chip.
        let chip = format!("| 0     310::{}{}13  | OK |", "7".repeat(48), ":".repeat(19));
        let mut r = Redactor::for_texts(&[chip.as_str()]);
        assert_eq!(r.redact(&chip), chip, "{:?}", r.mapping());
        // Real addresses still go, with an IPv4 tail or a port after them.
        let text = "a fe80::1ff:fe23:4567:890a b ::ffff:10.0.0.5 c fd12:3456::9:65535 d";
        let mut r = Redactor::for_texts(&[text]);
        let out = r.redact(text);
        for gone in ["fe80::1ff", "10.0.0.5", "fd12:3456::9"] {
            assert!(!out.contains(gone), "{gone} in {out}");
        }
    }

    #[test]
    fn three_colons_in_a_row_split_a_run_into_pieces() {
        // The pipeline fuzz target garbled an npu-smi chip name into
        // `310:::…:::P3`; taken as an address, the link lost the finding on it.
        let chip = format!("| 0     310{}P3  | OK |", ":".repeat(40));
        let mut r = Redactor::for_texts(&[chip.as_str()]);
        assert_eq!(r.redact(&chip), chip);
        // An address after such a run still goes.
        let text = "addr:::fe80::1ff:fe23:4567:890a up";
        let mut r = Redactor::for_texts(&[text]);
        let out = r.redact(text);
        assert!(!out.contains("fe80::1ff"), "{out}");
        assert_eq!(r.mapping().iter().filter(|m| m.kind == Kind::Ipv6).count(), 1, "{:?}", r.mapping());
        // Numbers between the colons are no addresses, and nothing of them is
        // replaced in another line: the next line keeps its `ipaddr:` key.
        let text = "ipaddr:192.::::::::::5.0\nipaddr:192.168.100.111\n";
        let mut r = Redactor::for_texts(&[text]);
        let out = r.redact(text);
        assert!(out.starts_with("ipaddr:192.::::::::::5.0\nipaddr:") && !out.contains("168.100.111"), "{out}");
        assert!(r.mapping().iter().all(|m| m.kind == Kind::Ipv4), "{:?}", r.mapping());
    }

    #[test]
    fn an_address_glued_to_a_word_is_none() {
        // The pipeline fuzz target garbled an npu-smi chip name into
        // `310::z…` and `310::ì…`: `310::` alone parses as an address, but
        // glued to a word it is part of it, as `ipv4_delimited` says for IPv4.
        // (`310::` alone is also kept as a one-group prefix, below; the
        // two-group cases need this rule.)
        for chip in [
            "| 0     310::z::::::13  | OK |",
            "| 0     310::\u{ec}\u{ec}::::13  | OK |",
            "x_fe80::1ff:fe23:4567:890a",
            "zfd12:3456::9 up",
            "fd12:3456::9\u{ec} up",
        ] {
            let mut r = Redactor::for_texts(&[chip]);
            assert_eq!(r.redact(chip), chip);
            assert!(r.mapping().is_empty(), "{:?}", r.mapping());
        }
        // One group and `::` is at most a /16 prefix, whatever follows.
        let text = "| 0     310::\u{fffd}\u{fffd}::::13  | OK |";
        let mut r = Redactor::for_texts(&[text]);
        assert_eq!(r.redact(text), text);
        // Delimited by anything else it still goes.
        for text in ["addr=fd12:3456::9,", "[fd12:3456::9]:29500", "inet6 fd12:3456::9/64", "fd12:3456::9%eth0"] {
            let mut r = Redactor::for_texts(&[text]);
            let out = r.redact(text);
            assert!(!out.contains("fd12:3456::9"), "{text} → {out}");
        }
    }

    #[test]
    fn a_port_after_an_ipv6_address_stays() {
        // Old `ss` prints IPv6 listeners without brackets; the last group is the port.
        let text =
            "LISTEN 0 128 :::6379 :::*\nLISTEN 0 128 ::1:8265 :::*\nLISTEN 0 128 fe80::1ff:fe23:4567:890a:6380 :::*";
        let out = redact_all(&[text]);
        assert_eq!(out[0], "LISTEN 0 128 :::6379 :::*\nLISTEN 0 128 ::1:8265 :::*\nLISTEN 0 128 2001:db8::1:6380 :::*");
        // Found by the pipeline fuzz target: a malformed address glued to its port.
        let out = redact_all(&["LISTEN 0 511 127.0.0.1d::::6379 0.0.0.0:*"]);
        assert!(out[0].ends_with(":6379 0.0.0.0:*") && !out[0].contains("1d::"), "{out:?}");
        let out = redact_all(&["LISTEN 0 511 10.1.2.3d::::6379 0.0.0.0:*"]);
        assert!(out[0].ends_with(":6379 0.0.0.0:*") && !out[0].contains("10.1.2.3"), "{out:?}");
        // A full eight-group address has no port: its last group goes with it.
        let out = redact_all(&["addr 2400:1:2:3:4:5:6:7001 x fd12:3456::9"]);
        assert_eq!(out[0], "addr 2001:db8::1 x 2001:db8::2");
    }

    #[test]
    fn a_dotted_tail_after_an_ipv6_address_goes_with_it() {
        // The placeholder of `b::c` followed by the tail would spell `2.168.100.110`.
        let out = redact_all(&["a b::2.168.100.110 x\nb b::c.168.100.110 y"]);
        assert!(!out[0].contains(".168.100.110"), "{out:?}");
        // Colons left after a placeholder (`2001:db8::1`) spell at most a
        // one-group prefix (`1::`), which is kept, never an original; a
        // longer original is not spelled again.
        let out = redact_all(&["a 1:2:: b\nfw 1:2:::::: c"]);
        assert!(!out[0].contains("1:2::"), "{out:?}");
        let text = "a 1:: b\nfw 1:::::: c";
        assert_eq!(redact_all(&[text])[0], text);
    }

    #[test]
    fn a_dotted_group_before_the_last_is_no_address() {
        // The pipeline fuzz target's npu-smi row (2026-12-07): `310100.111::`
        // was replaced as an IPv6 original, and the chip name with it.
        let text = "| 0     310100.111::\u{fffd}\u{fffd}::77777777777777707:::::::::13  | OK          | NA |";
        let out = redact_all(&[text]);
        assert!(out[0].contains("310100.111::"), "{out:?}");
        // A real address with an IPv4 tail still goes.
        let out = redact_all(&["peer ::ffff:10.1.2.3 and fe80::1:2.3.4.5 up"]);
        assert!(!out[0].contains("10.1.2.3") && !out[0].contains("fe80::1"), "{out:?}");
    }

    #[test]
    fn a_known_address_inside_a_longer_number_is_left() {
        // A learned `7.0.0.1` once turned `127.0.0.1` into `12192.0.2.1`.
        let out = redact_all(&["MASTER_ADDR=\u{e9}7.0.0.1", "MASTER_ADDR=127.0.0.1 v=1.7.0.0.1"]);
        assert_eq!(out[1], "MASTER_ADDR=127.0.0.1 v=1.7.0.0.1");
        assert!(!out[0].contains("7.0.0.1"), "{out:?}");
        // A known IPv6 `::ff` (from garbled `[::ff ting`) inside the kept
        // `::ffff:127.0.0.1` (found by the pipeline fuzz target).
        let out = redact_all(&["[::ff ting", "LISTEN 0 4097 [::ffff:127.0.0.1]:6379"]);
        assert_eq!(out[1], "LISTEN 0 4097 [::ffff:127.0.0.1]:6379");
        assert_eq!(out[0], "[2001:db8::1 ting");
        // `::ffff` alone is the mapped prefix, kept like the addresses it begins.
        let text = "[::ffffz127.1 [::ffff:12";
        assert_eq!(redact_all(&[text])[0], text);
        // Glued only by colons or dots it is still that value, replaced (found by the redact fuzz target).
        let out = redact_all(&["::255.z2", "ipaddr:::255.255.255.0"]);
        assert!(!out[1].contains("::255"), "{out:?}");
    }

    #[test]
    fn placeholders_never_equal_an_original() {
        // 192.0.2.1 is itself in the input: the first placeholder must skip it.
        let out = redact_all(&["a 10.0.0.1 b 192.0.2.1"]);
        assert_eq!(out[0], "a 192.0.2.2 b 192.0.2.3");
        // Nor contain one as a whole token: `host-2` is a real host here.
        let out = redact_all(&["[root@host-2 ~]# x\n[root@gpu.n1 ~]# y\nfrom jdoe@user-1"]);
        assert_eq!(out[0], "[root@host-1 ~]# x\n[root@host-3.example ~]# y\nfrom user-2@host-4", "{}", out[0]);
        // A host called `host`: every `host-N` holds it, so a one-word placeholder (found by the redact fuzz target: it hung).
        let out = redact_all(&["[root@host ~]# x\n[root@gpu-n1 ~]# y\n"]);
        assert!(!out[0].contains("host ") && !out[0].contains("gpu-n1"), "{}", out[0]);
        assert!(out[0].contains("[root@redactedhost"), "{}", out[0]);
    }

    #[test]
    fn user_names_inside_the_placeholder_word_do_not_nest_placeholders() {
        // Found by the redact fuzz target: users `use` and `ser` (replaced
        // inside words) overlap in `user`; merged, `user` became an original
        // that `user-1` spells, and each later pass nested one more
        // placeholder (`user-1-1-1-1-1`). The same with many known values
        // (one automaton instead of one search per value).
        let few = "[ser@dev-box ~]$ x\n[use@drev-box ~]$ y\nuser@dl said users";
        let ips: Vec<String> = (1..=40).map(|i| format!("10.0.{i}.{i}")).collect();
        let many = format!("{few}\n{}", ips.join(" "));
        for text in [few, many.as_str()] {
            let mut r = Redactor::for_texts(&[text]);
            let out = r.redact(text);
            assert!(!out.contains("-1-1") && !out.contains("-1r-"), "{out}");
            for m in r.mapping() {
                assert_ne!(m.original, "user", "{out}");
                let token = out.match_indices(&m.original).any(|(i, _)| {
                    !is_word(out[..i].chars().next_back()) && !is_word(out[i + m.original.len()..].chars().next())
                });
                assert!(!token || m.kind == Kind::Ipv4, "{} survived: {out}", m.original);
            }
            assert!(out.contains("[user-1@host-1 ~]$ x"), "{out}");
        }
    }

    #[test]
    fn placeholders_avoid_lookalikes_in_text_that_is_not_shared() {
        // Found by the pipeline fuzz target: the paste held `192.0.2.2` on a
        // line the link did not share, and the link showed `192.0.2.2` as the
        // placeholder of another address.
        let shared = "ipaddr:192.168.100.113 on [root@gpu-n1 ~]";
        let mut r = Redactor::for_texts(&[shared]);
        r.learn("ipaddr:192.0.2.1\nipaddr:1922: 192.0.2.2\nssh host-1 as user-1 (REDACTED-1)");
        let out = r.redact(shared);
        assert_eq!(out, "ipaddr:192.0.2.3 on [root@host-2 ~]", "{out}");
        // Without the unshared text, the first placeholders are taken.
        let mut r = Redactor::for_texts(&[shared]);
        assert_eq!(r.redact(shared), "ipaddr:192.0.2.1 on [root@host-1 ~]");
    }

    #[test]
    fn many_known_values_go_through_one_automaton() {
        let ips: Vec<String> = (1..=40).map(|i| format!("10.0.{i}.{i}")).collect();
        let teach = format!("[jdoe@gpu-n1 ~]$ x\n{}", ips.join(" "));
        let other = "gpu-n1 saw a10.0.7.7 from jdoe_exp and gpu-n12";
        let mut r = Redactor::for_texts(&[teach.as_str(), other]);
        assert!(r.known.len() > FEW_KNOWN);
        let out = r.redact(other);
        assert!(!out.contains("gpu-n1 ") && !out.contains("10.0.7.7") && !out.contains("jdoe"), "{out}");
        assert!(out.ends_with(" and gpu-n12"), "a longer name is another host: {out}");
        // A longer known name that is not replaceable here leaves the shorter one at its place.
        let teach = format!("[root@a2 ~]$ x\n[root@a2-node-0 ~]$ y\n{}", ips.join(" "));
        let other = "cd /a2-node-02 ~";
        let mut r = Redactor::for_texts(&[teach.as_str(), other]);
        assert!(r.known.len() > FEW_KNOWN);
        let out = r.redact(other);
        assert!(!out.contains("/a2-"), "{out}");
    }

    #[test]
    fn package_pins_are_not_hosts() {
        let text = "pip install torch@2.1.0 vllm@v0.8.5rc1 x; see torch and vllm";
        let out = redact_all(&[text]);
        assert_eq!(out[0], text);
        assert!(
            version_like("v0.8.5rc1") && version_like("2.1") && !version_like("v100-n01") && !version_like("node1")
        );
    }

    #[test]
    fn mapping_is_kept() {
        let mut r = Redactor::for_texts(&["10.1.1.1 10.1.1.2 10.1.1.1"]);
        r.redact("10.1.1.1 10.1.1.2 10.1.1.1");
        let m = r.mapping();
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].original, "10.1.1.1");
        assert_eq!(m[0].placeholder, "192.0.2.1");
    }

    fn ipv4() -> impl Strategy<Value = String> {
        (1u8..=223, any::<u8>(), any::<u8>(), 1u8..=254)
            .prop_filter("not loopback", |(a, ..)| *a != 127)
            .prop_map(|(a, b, c, d)| format!("{a}.{b}.{c}.{d}"))
    }

    fn sensitive() -> impl Strategy<Value = String> {
        prop_oneof![
            ipv4(),
            "[a-z]{3,8}\\.[a-z]{2,6}@corp\\.example\\.com",
            "hf_[A-Za-z0-9]{20,30}",
            "sk-[A-Za-z0-9]{24}",
            "[0-9a-f]{2}(:[0-9a-f]{2}){5}",
            "node-[0-9]{1,3}\\.cluster\\.internal",
        ]
    }

    proptest! {
        #[test]
        fn no_original_survives_and_equal_inputs_get_equal_placeholders(
            values in proptest::collection::vec(sensitive(), 1..8),
            filler in "[ a-zA-Z:|,()\\[\\]=]{0,12}",
            picks in proptest::collection::vec(any::<prop::sample::Index>(), 1..20),
        ) {
            // A text where each value may appear several times, in different lines.
            let lines: Vec<String> = picks.iter().map(|i| format!("{filler} {} {filler}", values[i.index(values.len())])).collect();
            let mut r = Redactor::for_texts(&lines);
            let out: Vec<String> = lines.iter().map(|l| r.redact(l)).collect();
            let joined = out.join("\n");
            for v in &values {
                prop_assert!(!joined.contains(v.as_str()), "{v} survived in {joined}");
            }
            // Equal inputs give equal outputs, and a fresh redactor is deterministic.
            let mut r2 = Redactor::for_texts(&lines);
            let again: Vec<String> = lines.iter().map(|l| r2.redact(l)).collect();
            prop_assert_eq!(&out, &again);
            for (i, a) in lines.iter().enumerate() {
                for (j, b) in lines.iter().enumerate() {
                    if a == b { prop_assert_eq!(&out[i], &out[j]); }
                }
            }
        }

        #[test]
        fn never_panics(s in "\\PC{0,200}") {
            let mut r = Redactor::for_texts(&[s.as_str()]);
            let _ = r.redact(&s);
        }
    }
}
