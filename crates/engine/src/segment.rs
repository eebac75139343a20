//! Stage 1: split a paste into segments.
//!
//! A paste is rarely one clean log. It is a terminal session with prompts,
//! Markdown code fences, chat quotes, colour codes and Windows line endings.
//! This module normalises each line once (CRLF, ANSI escapes, `> ` quotes)
//! and splits the paste at shell prompts, code fences and collector markers.
//! Every [`Line`] keeps the 1-based line number it had in the user's text, so
//! evidence always points at what the user pasted.
//!
//! The collector marker format (the future `roll-doctor collect` script prints
//! it before each command's output) is one line:
//!
//! ```text
//! ===== roll-doctor: npu-smi info =====
//! ```

use regex::Regex;
use std::sync::OnceLock;

/// One normalised line of the user's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the original paste.
    pub no: u32,
    /// The line without CR, ANSI escapes and Markdown quote prefixes.
    pub text: String,
}

/// A run of lines that belong together: one command's output, or a block of
/// text with no prompt at all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Segment {
    /// The command that printed this output, when a prompt or marker named it.
    pub command: Option<String>,
    /// Line number of the prompt or marker line, when there was one.
    pub command_line: Option<u32>,
    /// The output lines (the prompt line itself is not included).
    pub lines: Vec<Line>,
    /// The node a collector's node marker named, if any.
    pub node: Option<String>,
}

impl Segment {
    /// First line number covered (the prompt line when there is one).
    pub fn start_line(&self) -> u32 {
        self.command_line.or_else(|| self.lines.first().map(|l| l.no)).unwrap_or(0)
    }

    /// Last line number covered.
    pub fn end_line(&self) -> u32 {
        self.lines.last().map(|l| l.no).or(self.command_line).unwrap_or(0)
    }

    /// The output joined with `\n` (for parsers that want one string).
    pub fn joined(&self) -> String {
        let mut s = String::new();
        for l in &self.lines {
            s.push_str(&l.text);
            s.push('\n');
        }
        s
    }

    fn is_empty(&self) -> bool {
        self.command.is_none() && self.lines.iter().all(|l| l.text.trim().is_empty())
    }
}

/// Commands a bare `# ` prompt may start with. A `# ` line that does not start
/// with one of these is a comment (YAML, shell, Markdown), not a prompt.
const KNOWN_COMMANDS: &[&str] = &[
    "npu-smi",
    "hccn_tool",
    "ss",
    "netstat",
    "ulimit",
    "env",
    "printenv",
    "export",
    "echo",
    "pip",
    "pip3",
    "python",
    "python3",
    "ray",
    "docker",
    "cat",
    "grep",
    "ip",
    "ifconfig",
    "for",
    "ls",
    "source",
    "tail",
    "head",
    "nc",
    "ping",
    "bash",
    "sh",
    "hostname",
    "lsof",
    "dmesg",
    "systemctl",
    "sudo",
    "history",
    "uname",
    "ps",
    "torchrun",
    "lspci",
    "curl",
    "ll",
    "cd",
    "set",
    "which",
    "free",
    "df",
    "nproc",
];

fn user_host_prompt() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // `[root@node1 ~]# cmd`, `root@a2-node-03:/workspace# cmd`, `(roll) user@host:~$ cmd`
        Regex::new(
            r"^(?:\([\w.-]+\)\s*)?(?:\[[\w.-]+@[\w.-]+(?:\s[^\]]*)?\]|[\w.-]+@[\w.-]+:[~/\w.\-]*)\s?[$#](?:\s+(?P<cmd>.*))?$",
        )
        .unwrap()
    })
}

fn bare_prompt() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^(?P<p>[$#])\s+(?P<cmd>\S.*)$").unwrap())
}

fn marker() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^=+ roll-doctor(?: (?P<node>node))?: (?P<cmd>.+?) =+\s*$").unwrap())
}

/// Removes ANSI escape sequences (CSI, OSC and two-byte escapes).
pub fn strip_ansi(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('\u{1b}') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        match chars.peek().copied() {
            Some('[') => {
                chars.next();
                // parameters and intermediates, then one final byte 0x40..=0x7E
                for d in chars.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&d) {
                        break;
                    }
                }
            }
            Some(']') => {
                chars.next();
                // OSC: up to BEL or ESC '\'
                while let Some(d) = chars.next() {
                    if d == '\u{7}' {
                        break;
                    }
                    if d == '\u{1b}' {
                        if chars.peek() == Some(&'\\') {
                            chars.next();
                        }
                        break;
                    }
                }
            }
            Some(_) => {
                chars.next();
            }
            None => {}
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Cleans one raw line: drops CR (a bare CR in the middle means the terminal
/// overwrote the line, so only the last part was visible), ANSI escapes and
/// Markdown quote prefixes (`> `, `> > `).
pub fn clean_line(raw: &str) -> String {
    let raw = raw.strip_suffix('\r').unwrap_or(raw);
    let visible = match raw.rfind('\r') {
        Some(i) => &raw[i + 1..],
        None => raw,
    };
    let s = strip_ansi(visible);
    let mut t: &str = &s;
    loop {
        let trimmed = t.trim_start_matches([' ', '\t']);
        let indent = t.len() - trimmed.len();
        if indent <= 3 && (trimmed.starts_with("> ") || trimmed == ">") {
            t = trimmed[1..].strip_prefix(' ').unwrap_or(&trimmed[1..]);
        } else {
            break;
        }
    }
    t.to_string()
}

/// Normalises every line of `text`, keeping original line numbers.
pub fn normalise(text: &str) -> Vec<Line> {
    text.split('\n').enumerate().map(|(i, raw)| Line { no: i as u32 + 1, text: clean_line(raw) }).collect()
}

/// What a line means for segmentation.
enum Boundary {
    /// A Markdown code fence: ends the current segment.
    Fence,
    /// A prompt or collector marker: starts a new segment for this command.
    Command(Option<String>),
    /// A collector node marker: what follows is that node's.
    Node(String),
}

fn boundary(text: &str) -> Option<Boundary> {
    let t = text.trim_start();
    // Fast path: nearly every line of a big log is none of these; decide
    // that from a few bytes before running any regex.
    let b = t.as_bytes();
    let maybe = match b.first() {
        None => false,
        Some(b'`') | Some(b'~') | Some(b'=') | Some(b'$') | Some(b'#') => true,
        Some(_) => text.contains('@') && (text.contains('$') || text.contains('#')),
    };
    if !maybe {
        return None;
    }
    if t.starts_with("```") || t.starts_with("~~~") {
        return Some(Boundary::Fence);
    }
    if let Some(c) = marker().captures(text) {
        let name = c["cmd"].trim().to_string();
        return Some(if c.name("node").is_some() { Boundary::Node(name) } else { Boundary::Command(Some(name)) });
    }
    if let Some(c) = user_host_prompt().captures(text) {
        let cmd = c.name("cmd").map(|m| m.as_str().trim().to_string()).filter(|s| !s.is_empty());
        return Some(Boundary::Command(cmd));
    }
    if let Some(c) = bare_prompt().captures(text) {
        let cmd = c["cmd"].trim();
        let first = cmd.split_whitespace().next().unwrap_or("");
        let known = KNOWN_COMMANDS.contains(&first) || first.starts_with("./") || first.contains('/');
        if &c["p"] == "$" || known {
            return Some(Boundary::Command(Some(cmd.to_string())));
        }
    }
    None
}

/// Splits a paste into segments. Never fails: a paste with no prompt is one
/// segment without a command.
pub fn segment(text: &str) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    let mut cur = Segment::default();
    let mut node: Option<String> = None;
    for line in normalise(text) {
        match boundary(&line.text) {
            Some(Boundary::Node(name)) => {
                let done = std::mem::take(&mut cur);
                if !done.is_empty() {
                    out.push(done);
                }
                node = Some(name);
                cur.node = node.clone();
            }
            Some(Boundary::Fence) => {
                let done = std::mem::take(&mut cur);
                if !done.is_empty() {
                    out.push(done);
                }
                cur.node = node.clone();
            }
            Some(Boundary::Command(cmd)) => {
                let done = std::mem::take(&mut cur);
                if !done.is_empty() {
                    out.push(done);
                }
                cur.command = cmd;
                cur.command_line = Some(line.no);
                cur.node = node.clone();
            }
            None => cur.lines.push(line),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    // Trim blank lines at both ends of each segment; they carry nothing.
    for s in &mut out {
        while s.lines.last().is_some_and(|l| l.text.trim().is_empty()) {
            s.lines.pop();
        }
        let lead = s.lines.iter().take_while(|l| l.text.trim().is_empty()).count();
        s.lines.drain(..lead);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmds(text: &str) -> Vec<Option<String>> {
        segment(text).into_iter().map(|s| s.command).collect()
    }

    #[test]
    fn crlf_ansi_and_quotes_are_cleaned() {
        let lines = normalise("\u{1b}[31mERROR\u{1b}[0m boom\r\n> > quoted\r\nprogress 10%\rprogress 100%");
        assert_eq!(lines[0].text, "ERROR boom");
        assert_eq!(lines[1].text, "quoted");
        assert_eq!(lines[2].text, "progress 100%");
        assert_eq!(lines[2].no, 3);
    }

    #[test]
    fn prompts_of_many_styles_start_segments() {
        let text = "[root@node1 ~]# ulimit -n\n1024\nroot@a2-node-03:/workspace# npu-smi info\nx\n(roll) user@host:~$ ss -tlnp\ny\n$ ray status\nz\n# hccn_tool -i 0 -link -g\nlink status: UP\n";
        assert_eq!(
            cmds(text),
            vec![
                Some("ulimit -n".into()),
                Some("npu-smi info".into()),
                Some("ss -tlnp".into()),
                Some("ray status".into()),
                Some("hccn_tool -i 0 -link -g".into())
            ]
        );
    }

    #[test]
    fn yaml_comments_are_not_prompts() {
        let segs = segment("# model settings\nactor_train:\n  device_mapping: list(range(0,8))\n");
        assert_eq!(segs.len(), 1);
        assert_eq!(segs[0].command, None);
        assert_eq!(segs[0].lines.len(), 3);
    }

    #[test]
    fn fences_split_and_line_numbers_survive() {
        let segs = segment("intro text\n```\nEI0006: Getting socket times out.\n```\n");
        assert_eq!(segs.len(), 2);
        assert_eq!(segs[1].lines[0].no, 3);
    }

    #[test]
    fn node_markers_give_each_segment_its_node() {
        let segs = segment("ray status text\n===== roll-doctor node: n1 =====\n===== roll-doctor: ulimit -n =====\n1024\n===== roll-doctor node: n2 =====\n===== roll-doctor: ulimit -n =====\n65535\n");
        let nodes: Vec<_> = segs.iter().map(|s| (s.node.as_deref(), s.lines.len())).collect();
        assert_eq!(nodes, vec![(None, 1), (Some("n1"), 1), (Some("n2"), 1)]);
    }

    #[test]
    fn collector_markers_name_the_command() {
        let segs = segment("===== roll-doctor: ulimit -n =====\n1024\n");
        assert_eq!(segs[0].command.as_deref(), Some("ulimit -n"));
        assert_eq!(segs[0].command_line, Some(1));
    }
}
