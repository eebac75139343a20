//! Stage 1: split a paste into segments.
//!
//! A paste is rarely one clean log. It is a terminal session with prompts,
//! Markdown code fences, chat quotes, colour codes and Windows line endings.
//! This module splits the paste at shell prompts, code fences and collector
//! markers, and cleans each line (CRLF, ANSI escapes, `> ` quotes, the
//! timestamp `kubectl logs --timestamps` adds) when it is read. Every line
//! keeps the 1-based line number it had in the user's text, so evidence
//! always points at what the user pasted.
//!
//! A [`Segment`] does not copy its lines: it holds the spans of the input
//! they occupy, and [`Segment::rows`] yields each cleaned line as a
//! [`Row`] that borrows the input unless cleaning changed it (only ANSI
//! escapes force a copy). Segmenting a 100 MB log allocates nothing per
//! line: one pass finds the line ends (`memchr`), and only lines that could
//! be a prompt, a fence or a marker (their first byte, or an `@`, a CR or
//! an escape in them) are looked at twice. Parsers that want a list of
//! owned lines get one from [`Segment::materialize`]; [`segment`] returns
//! segments with their lines materialised (tests, and the fuzz targets,
//! compare those).
//!
//! The collector marker format (the `roll-doctor collect` script prints
//! it before each command's output) is one line:
//!
//! ```text
//! ===== roll-doctor: npu-smi info =====
//! ```

use regex::Regex;
use std::borrow::Cow;
use std::sync::OnceLock;

/// One normalised line of the user's text, owned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the original paste.
    pub no: u32,
    /// The line without CR, ANSI escapes, Markdown quote prefixes and a log
    /// collector's timestamp.
    pub text: String,
}

/// One normalised line of a segment, borrowing the input when it can.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row<'a> {
    /// 1-based line number in the original paste.
    pub no: u32,
    /// The line without CR, ANSI escapes, Markdown quote prefixes and a log
    /// collector's timestamp.
    pub text: Cow<'a, str>,
}

impl Row<'_> {
    /// The line as a fact or evidence keeps it: owned, and clipped to
    /// [`MAX_LINE_TEXT`] bytes with the clip shown (see [`clip`]).
    pub fn line(&self) -> Line {
        Line { no: self.no, text: clip(&self.text).into_owned() }
    }
}

/// The most bytes of a line that a fact, a piece of evidence or a report
/// keeps. A longer line keeps its head and says how much was cut.
pub const MAX_LINE_TEXT: usize = 1024;

/// `text` cut to at most [`MAX_LINE_TEXT`] bytes (at a character boundary),
/// followed by `…[+N bytes]` naming what was cut. Short text is returned as is.
pub fn clip(text: &str) -> Cow<'_, str> {
    if text.len() <= MAX_LINE_TEXT {
        return Cow::Borrowed(text);
    }
    let mut end = MAX_LINE_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}…[+{} bytes]", &text[..end], text.len() - end))
}

/// A run of consecutive input lines: `text` is their raw bytes joined by
/// `\n` (no final newline), the first being line `first`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span<'a> {
    /// The raw lines, uncleaned.
    pub text: &'a str,
    /// Number of the first line.
    pub first: u32,
    /// How many lines (`text` holds `lines - 1` newlines).
    pub lines: u32,
}

/// The widest lines of a segment, in characters: what tells a hard-wrapped
/// paste (see [`Widths::wrap`]). Lines under 60 characters are not counted
/// (they cannot make a paste look wrapped).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Widths {
    /// The longest line's length in characters (0 when under 60).
    pub longest: usize,
    /// The numbers of the lines that long.
    pub lines: Vec<u32>,
}

impl Widths {
    /// Counts line `no` of `chars` characters.
    pub fn add(&mut self, chars: usize, no: u32) {
        if chars < 60 || chars < self.longest {
            return;
        }
        if chars > self.longest {
            self.longest = chars;
            self.lines.clear();
        }
        self.lines.push(no);
    }

    fn merge(&mut self, o: Widths) {
        if o.longest > self.longest {
            *self = o;
        } else if o.longest == self.longest && o.longest > 0 {
            self.lines.extend(o.lines);
        }
    }

    /// The width the lines were hard-wrapped at, if they look wrapped: at
    /// least three lines of the same length, 60 characters or more, and
    /// that length is the longest (nothing can be longer than the wrap width).
    pub fn wrap(&self) -> Option<usize> {
        (self.longest >= 60 && self.lines.len() >= 3).then_some(self.longest)
    }

    /// Counts `text`'s length if it may matter (a cheap byte test first).
    fn add_text(&mut self, text: &str, no: u32) {
        if text.len() >= 60 && text.len() >= self.longest {
            self.add(text.chars().count(), no);
        }
    }
}

/// A run of lines that belong together: one command's output, or a block of
/// text with no prompt at all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Segment<'a> {
    /// The command that printed this output, when a prompt or marker named it.
    pub command: Option<String>,
    /// Line number of the prompt or marker line, when there was one.
    pub command_line: Option<u32>,
    /// The output lines as owned text, once [`Segment::materialize`] (or
    /// [`segment`]) has filled them; empty before. The prompt line itself
    /// is not included.
    pub lines: Vec<Line>,
    /// The node a collector's node marker named, if any.
    pub node: Option<String>,
    /// Where the output lines are in the input.
    spans: Vec<Span<'a>>,
    /// The widest lines, when the segmenter measured them.
    widths: Option<Widths>,
    /// Whether `lines` holds every line (not only a bounded head).
    complete: bool,
}

/// How much of a segment [`Segment::materialize`] copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Lines at most.
    pub lines: usize,
    /// Bytes of one line at most (longer lines are clipped, see [`clip`]).
    pub line_bytes: usize,
    /// Bytes in all at most.
    pub total: usize,
}

impl Bounds {
    /// Everything, unclipped.
    pub const ALL: Bounds = Bounds { lines: usize::MAX, line_bytes: usize::MAX, total: usize::MAX };
}

impl<'a> Segment<'a> {
    /// A segment of the given lines (owned, as a test or a share link has
    /// them), with no input spans: [`Segment::rows`] yields `lines`.
    pub fn of_lines(command: Option<String>, command_line: Option<u32>, lines: Vec<Line>) -> Segment<'static> {
        Segment { command, command_line, lines, complete: true, ..Segment::default() }
    }

    /// First line number covered (the prompt line when there is one).
    pub fn start_line(&self) -> u32 {
        self.command_line.or_else(|| self.first_line()).unwrap_or(0)
    }

    /// Last line number covered.
    pub fn end_line(&self) -> u32 {
        self.last_line().or(self.command_line).unwrap_or(0)
    }

    fn first_line(&self) -> Option<u32> {
        match self.spans.first() {
            Some(s) => Some(s.first),
            None => self.lines.first().map(|l| l.no),
        }
    }

    fn last_line(&self) -> Option<u32> {
        match self.spans.last() {
            Some(s) => Some(s.first + s.lines - 1),
            None => self.lines.last().map(|l| l.no),
        }
    }

    /// Number of output lines.
    pub fn line_count(&self) -> usize {
        if self.spans.is_empty() {
            self.lines.len()
        } else {
            self.spans.iter().map(|s| s.lines as usize).sum()
        }
    }

    /// The spans of the input the output lines occupy (empty for a segment
    /// built from owned lines).
    pub fn spans(&self) -> &[Span<'a>] {
        &self.spans
    }

    /// Every output line, cleaned, in order. Borrows the input: a line is
    /// copied only when cleaning removed escapes from its middle.
    pub fn rows(&self) -> Rows<'_, 'a> {
        Rows {
            spans: &self.spans,
            span: 0,
            rest: None,
            no: 0,
            owned: if self.spans.is_empty() { &self.lines } else { &[] },
        }
    }

    /// The widest lines (measured once by the segmenter, else now).
    pub fn widths(&self) -> Cow<'_, Widths> {
        if let Some(w) = &self.widths {
            return Cow::Borrowed(w);
        }
        let mut w = Widths::default();
        for r in self.rows() {
            w.add_text(&r.text, r.no);
        }
        Cow::Owned(w)
    }

    /// Fills [`Segment::lines`] with owned copies of (at most `b` of) the lines.
    pub fn materialize(&mut self, b: Bounds) {
        if self.complete || self.spans.is_empty() {
            return;
        }
        let mut lines = Vec::new();
        let mut total = 0usize;
        let mut complete = true;
        for r in self.rows() {
            if lines.len() >= b.lines || total >= b.total {
                complete = false;
                break;
            }
            let mut text = r.text.into_owned();
            if text.len() > b.line_bytes {
                let mut end = b.line_bytes;
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.truncate(end);
                complete = false;
            }
            total += text.len();
            lines.push(Line { no: r.no, text });
        }
        self.lines = lines;
        self.complete = complete;
    }

    /// A materialised copy of the first `n` lines (what detection scores).
    pub fn head(&self, n: usize) -> Segment<'a> {
        let mut spans = Vec::new();
        let mut left = n as u32;
        for s in &self.spans {
            if left == 0 {
                break;
            }
            if s.lines <= left {
                spans.push(*s);
                left -= s.lines;
            } else {
                let cut = nth_newline(s.text, left as usize).unwrap_or(s.text.len());
                spans.push(Span { text: &s.text[..cut], first: s.first, lines: left });
                left = 0;
            }
        }
        let mut h = Segment {
            command: self.command.clone(),
            command_line: self.command_line,
            node: self.node.clone(),
            spans,
            lines: if self.spans.is_empty() { self.lines.iter().take(n).cloned().collect() } else { Vec::new() },
            widths: None,
            complete: self.spans.is_empty(),
        };
        // A line longer than this says what it is in its head.
        h.materialize(Bounds { lines: n, line_bytes: 64 << 10, total: usize::MAX });
        h
    }

    /// The output joined with `\n` (for parsers that want one string).
    pub fn joined(&self) -> String {
        let mut s = String::new();
        for r in self.rows() {
            s.push_str(&r.text);
            s.push('\n');
        }
        s
    }

    /// Splits the segment into blank-line-separated blocks (a line is blank
    /// when it is all whitespace once cleaned); each block keeps the
    /// command and the node.
    pub fn blocks(&self) -> Vec<Segment<'a>> {
        self.split_where(|_| false)
    }

    /// Splits the segment like [`Segment::blocks`], and also before every
    /// non-blank line for which `starts_block` (given the cleaned line, in
    /// order) says a new block begins there.
    pub fn split_where(&self, mut starts_block: impl FnMut(&str) -> bool) -> Vec<Segment<'a>> {
        let new = || Segment {
            command: self.command.clone(),
            command_line: self.command_line,
            node: self.node.clone(),
            complete: self.complete,
            ..Segment::default()
        };
        let mut out: Vec<Segment<'a>> = Vec::new();
        let mut cur: Option<Segment<'a>> = None;
        if self.spans.is_empty() {
            for l in &self.lines {
                if l.text.trim().is_empty() {
                    out.extend(cur.take());
                } else {
                    if starts_block(&l.text) {
                        out.extend(cur.take());
                    }
                    cur.get_or_insert_with(new).lines.push(l.clone());
                }
            }
            out.extend(cur);
            return out;
        }
        let mut owned = self.complete.then(|| self.lines.iter());
        for s in &self.spans {
            // The current piece of this span: (start, end, first line, lines).
            let mut piece: Option<(usize, usize, u32, u32)> = None;
            let flush = |piece: &mut Option<(usize, usize, u32, u32)>, cur: &mut Option<Segment<'a>>| {
                if let (Some((a, b, first, lines)), Some(c)) = (piece.take(), cur.as_mut()) {
                    c.spans.push(Span { text: &s.text[a..b], first, lines });
                }
            };
            let mut off = 0usize;
            for (k, raw) in s.text.split('\n').enumerate() {
                let no = s.first + k as u32;
                let line = owned.as_mut().and_then(|it| it.next());
                let cleaned = clean(raw);
                if cleaned.trim().is_empty() {
                    flush(&mut piece, &mut cur);
                    out.extend(cur.take());
                } else {
                    if starts_block(&cleaned) {
                        flush(&mut piece, &mut cur);
                        out.extend(cur.take());
                    }
                    let c = cur.get_or_insert_with(new);
                    if let Some(l) = line {
                        c.lines.push(l.clone());
                    }
                    match piece.as_mut() {
                        Some(p) => {
                            p.1 = off + raw.len();
                            p.3 += 1;
                        }
                        None => piece = Some((off, off + raw.len(), no, 1)),
                    }
                }
                off += raw.len() + 1;
            }
            flush(&mut piece, &mut cur);
        }
        out.extend(cur);
        out
    }

    /// Appends `other`'s lines (a later block of the same segment).
    pub fn extend(&mut self, other: Segment<'a>) {
        self.spans.extend(other.spans);
        self.lines.extend(other.lines);
        self.complete = self.complete && other.complete;
        self.widths = None;
    }

    fn is_empty(&self) -> bool {
        self.command.is_none() && self.spans.is_empty() && self.lines.is_empty()
    }
}

/// The byte offset of the `n`-th newline of `text` (1-based), if any.
fn nth_newline(text: &str, n: usize) -> Option<usize> {
    memchr::memchr_iter(b'\n', text.as_bytes()).nth(n.checked_sub(1)?)
}

/// The iterator of [`Segment::rows`].
pub struct Rows<'s, 'a> {
    spans: &'s [Span<'a>],
    span: usize,
    rest: Option<&'a str>,
    no: u32,
    owned: &'s [Line],
}

impl<'s, 'a: 's> Iterator for Rows<'s, 'a> {
    type Item = Row<'s>;

    fn next(&mut self) -> Option<Row<'s>> {
        if let Some((first, rest)) = self.owned.split_first() {
            self.owned = rest;
            return Some(Row { no: first.no, text: Cow::Borrowed(&first.text) });
        }
        loop {
            if let Some(rest) = self.rest {
                let (raw, next) = match memchr::memchr(b'\n', rest.as_bytes()) {
                    Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                    None => (rest, None),
                };
                self.rest = next;
                let no = self.no;
                self.no += 1;
                return Some(Row { no, text: clean(raw) });
            }
            let s = self.spans.get(self.span)?;
            self.span += 1;
            self.rest = Some(s.text);
            self.no = s.first;
        }
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
        // `[root@node1 ~]# cmd`, `root@a2-node-03:/workspace# cmd`, `(roll) user@host:~$ cmd`.
        // ASCII classes, not `\w`: the Unicode class made this pattern 30x
        // slower to compile (7 ms natively), paid at the page's first diagnosis.
        Regex::new(
            r"^(?:\([0-9A-Za-z_.-]+\)\s*)?(?:\[[0-9A-Za-z_.-]+@[0-9A-Za-z_.-]+(?:\s[^\]]*)?\]|[0-9A-Za-z_.-]+@[0-9A-Za-z_.-]+:[~/0-9A-Za-z_.\-]*)\s?[$#](?:\s+(?P<cmd>.*))?$",
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
/// overwrote the line, so only the last part was visible), ANSI escapes,
/// Markdown quote prefixes (`> `, `> > `) and a log collector's timestamp
/// (see [`untimestamp`]). Borrows unless escapes were removed.
pub fn clean(raw: &str) -> Cow<'_, str> {
    let raw = raw.strip_suffix('\r').unwrap_or(raw);
    let visible = match memchr::memrchr(b'\r', raw.as_bytes()) {
        Some(i) => &raw[i + 1..],
        None => raw,
    };
    match strip_ansi(visible) {
        Cow::Borrowed(t) => Cow::Borrowed(untimestamp(unquote(t))),
        Cow::Owned(o) => {
            let t = untimestamp(unquote(&o));
            if t.len() == o.len() {
                Cow::Owned(o)
            } else {
                Cow::Owned(t.to_string())
            }
        }
    }
}

/// [`clean`], owned.
pub fn clean_line(raw: &str) -> String {
    clean(raw).into_owned()
}

/// Whether a line whose first non-blank text is `t` may be a boundary or
/// change when cleaned; the segmenter's fast path takes every other line as
/// it is.
fn may_need_cleaning(t: &str) -> bool {
    match t.as_bytes()[0] {
        0x80.. | b'`' | b'~' | b'=' | b'$' | b'#' | b'>' | b'\r' => true,
        b'p' | b'c' => package_listing(t) || file_shown(t),
        b'V' => t.starts_with(COLLECT_ENV_PACKAGES),
        b'0'..=b'9' => maybe_timestamped(t),
        _ => false,
    }
}

/// The heading of `collect_env`'s package list.
const COLLECT_ENV_PACKAGES: &str = "Versions of relevant libraries";

/// Whether `t` may start with a log collector's timestamp (see
/// [`untimestamp`]): the segmenter's fast path cleans such a line.
fn maybe_timestamped(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() >= 21 && b[4] == b'-' && b[10] == b'T'
}

/// Removes the RFC 3339 timestamp that `kubectl logs --timestamps`, `docker
/// logs -t` and the container runtime's log files (`… stdout F `) put before
/// every line of a program's output: `2026-07-15T09:15:41.123456789Z `. With
/// it, an `npu-smi` table or a `pip list` fetched from a pod reads like the
/// command's own output. Only the collector's form is taken (a `T`, seconds
/// and a zone, then a space), not a program's own `2025-04-08 18:07:20,444`.
fn untimestamp(t: &str) -> &str {
    let b = t.as_bytes();
    // Fast path: nearly every line fails on one of these bytes.
    if !maybe_timestamped(t) || !b[0].is_ascii_digit() {
        return t;
    }
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    let shape = digits(0..4)
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19);
    if !shape {
        return t;
    }
    let mut i = 19;
    if b[i] == b'.' || b[i] == b',' {
        let start = i + 1;
        i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return t;
        }
    }
    match b.get(i) {
        Some(b'Z') => i += 1,
        Some(b'+' | b'-') if b.len() >= i + 6 && digits(i + 1..i + 3) && b[i + 3] == b':' && digits(i + 4..i + 6) => {
            i += 6
        }
        Some(b'+' | b'-') if b.len() >= i + 5 && digits(i + 1..i + 5) => i += 5,
        _ => return t,
    }
    if !matches!(b.get(i), Some(b' ' | b'\t')) {
        return t;
    }
    let rest = &t[i + 1..];
    // The container runtime's file format adds the stream and whether the
    // line is Full or Partial.
    for tag in ["stdout F ", "stderr F ", "stdout P ", "stderr P "] {
        if let Some(r) = rest.strip_prefix(tag) {
            return r;
        }
    }
    rest
}

/// Removes Markdown quote prefixes (`> `, `> > `, up to 3 spaces before each).
fn unquote(mut t: &str) -> &str {
    loop {
        let trimmed = t.trim_start_matches([' ', '\t']);
        let indent = t.len() - trimmed.len();
        if indent <= 3 && (trimmed.starts_with("> ") || trimmed == ">") {
            t = trimmed[1..].strip_prefix(' ').unwrap_or(&trimmed[1..]);
        } else {
            return t;
        }
    }
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
        Some(b'p') | Some(b'c') if package_listing(t) || file_shown(t) => {
            return Some(Boundary::Command(Some(t.trim_end().to_string())))
        }
        // `collect_env` (vLLM's and PyTorch's, pasted into every vLLM-Ascend
        // bug report) heads its package list so; the list is read on its own,
        // not as part of the system info or npu-smi table above it.
        Some(b'V') if t.starts_with(COLLECT_ENV_PACKAGES) => return Some(Boundary::Command(None)),
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

/// Whether `t` is a package listing typed without a prompt (`pip list | grep
/// torch`, `pip3 freeze`, `python -m pip list`, `conda list`), as issue
/// templates show commands: what follows is that listing, not the prose or
/// log before it.
fn package_listing(t: &str) -> bool {
    let mut w = t.split_whitespace();
    match (w.next(), w.next(), w.next()) {
        (Some("pip" | "pip3"), Some("list" | "freeze"), _) | (Some("conda"), Some("list"), _) => true,
        (Some("python" | "python3"), Some("-m"), Some("pip")) => matches!(w.next(), Some("list" | "freeze")),
        _ => false,
    }
}

/// Whether `t` is `cat` of a file by its path, typed without a prompt
/// (`cat /usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info`,
/// as vLLM-Ascend's issue template asks for it): what follows is that
/// file, not the log above it (sglang#10421: a version file read as part of
/// the traceback before it hid the traceback's error code).
fn file_shown(t: &str) -> bool {
    let mut w = t.split_whitespace();
    matches!((w.next(), w.next()), (Some("cat"), Some(path)) if path.contains('/') && !path.starts_with('-'))
        && w.next().is_none_or(|next| next == "|")
}

/// Splits a paste into segments. Never fails: a paste with no prompt is one
/// segment without a command. Each segment's lines are materialised.
pub fn segment(text: &str) -> Vec<Segment<'_>> {
    segments(text)
        .map(|mut s| {
            s.materialize(Bounds::ALL);
            s
        })
        .collect()
}

/// The segments of `text`, one at a time, their lines not copied (see
/// [`Segment::rows`]). Blank lines at both ends of a segment are left out;
/// a segment with no command and no line is not one.
pub fn segments(text: &str) -> Segments<'_> {
    let mut special = memchr::memchr3_iter(b'\r', 0x1b, b'@', text.as_bytes());
    let next_special = special.next().unwrap_or(usize::MAX);
    Segments { text, pos: 0, no: 1, done: false, special, next_special, node: None, open: Open::default() }
}

/// The segment being read.
#[derive(Default)]
struct Open {
    command: Option<String>,
    command_line: Option<u32>,
    node: Option<String>,
    /// Start offset and number of the first non-blank line.
    first: Option<(usize, u32)>,
    /// End offset and number of the last non-blank line.
    last: (usize, u32),
    widths: Widths,
    /// Widths of blank lines after the last non-blank one (kept only if
    /// another non-blank line follows).
    pending: Widths,
}

/// The iterator of [`segments`].
pub struct Segments<'a> {
    text: &'a str,
    /// Start of the next line.
    pos: usize,
    /// Number of the next line.
    no: u32,
    done: bool,
    /// Positions of CR, ESC and `@`: the bytes that make a line need a closer look.
    special: memchr::Memchr3<'a>,
    next_special: usize,
    node: Option<String>,
    open: Open,
}

impl<'a> Segments<'a> {
    /// Whether `[start, end)` holds a CR (other than a final one), an ESC or an `@`.
    fn special_in(&mut self, start: usize, end: usize) -> bool {
        let bytes = self.text.as_bytes();
        let mut found = false;
        while self.next_special < end {
            let p = self.next_special;
            if p >= start && !(p + 1 == end && bytes[p] == b'\r') {
                found = true;
            }
            self.next_special = self.special.next().unwrap_or(usize::MAX);
        }
        found
    }

    /// Closes the open segment; `Some` unless it is empty.
    fn close(&mut self) -> Option<Segment<'a>> {
        let o = std::mem::replace(&mut self.open, Open { node: self.node.clone(), ..Open::default() });
        let spans = match o.first {
            Some((start, first)) => {
                let (end, last) = o.last;
                vec![Span { text: &self.text[start..end], first, lines: last - first + 1 }]
            }
            None => Vec::new(),
        };
        let seg = Segment {
            command: o.command,
            command_line: o.command_line,
            lines: Vec::new(),
            node: o.node,
            spans,
            widths: Some(o.widths),
            complete: false,
        };
        (!seg.is_empty()).then_some(seg)
    }
}

impl<'a> Iterator for Segments<'a> {
    type Item = Segment<'a>;

    fn next(&mut self) -> Option<Segment<'a>> {
        let text = self.text;
        let bytes = text.as_bytes();
        loop {
            if self.done {
                return if self.open.first.is_some() || self.open.command.is_some() { self.close() } else { None };
            }
            let start = self.pos;
            let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
            let no = self.no;
            if end == bytes.len() {
                self.done = true;
            } else {
                self.pos = end + 1;
            }
            self.no = self.no.saturating_add(1);
            let raw = &text[start..end];
            let special = self.special_in(start, end);
            // Fast path: nearly every line of a big log is neither blank nor
            // a boundary, which its first byte tells.
            let first = raw.bytes().position(|b| !matches!(b, b' ' | b'\t' | 0x0b | 0x0c));
            let plain = !special && first.is_none_or(|i| !may_need_cleaning(&raw[i..]));
            let (blank, visible): (bool, Cow<'a, str>) = if plain {
                (first.is_none(), Cow::Borrowed(raw.strip_suffix('\r').unwrap_or(raw)))
            } else {
                let c = clean(raw);
                match boundary(&c) {
                    Some(b) => {
                        let done = self.close();
                        match b {
                            Boundary::Node(name) => {
                                self.node = Some(name);
                                self.open.node = self.node.clone();
                            }
                            Boundary::Fence => {}
                            Boundary::Command(cmd) => {
                                self.open.command = cmd;
                                self.open.command_line = Some(no);
                            }
                        }
                        match done {
                            Some(s) => return Some(s),
                            None => continue,
                        }
                    }
                    None => (c.trim().is_empty(), c),
                }
            };
            let o = &mut self.open;
            if blank {
                if o.first.is_some() {
                    o.pending.add_text(&visible, no);
                }
            } else {
                if o.first.is_none() {
                    o.first = Some((start, no));
                }
                o.last = (end, no);
                let p = std::mem::take(&mut o.pending);
                o.widths.merge(p);
                o.widths.add_text(&visible, no);
            }
        }
    }
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
    fn a_collectors_timestamps_are_dropped() {
        let lines = normalise(concat!(
            "2026-07-15T09:15:50+00:00 [pip3] triton==3.5.0\n",
            "2024-01-02T03:04:05.123456789Z | NPU   Name | Health |\n",
            "2024-01-02T03:04:05.1Z stderr F RuntimeError: boom\n",
            "> 2024-01-02T03:04:05+0800 quoted\n",
            "2025-04-08 18:07:20,444 INFO kept: a program's own timestamp\n",
            "2024-01-02T03:04:05 kept: no zone\n",
            "2024-01-02T03:04:05Zkept: no space\n",
            "2024-01-02T03:04:05.Z kept: no fraction digits\n",
            "2024-01-02T03:04:05Z",
        ));
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "[pip3] triton==3.5.0",
                "| NPU   Name | Health |",
                "RuntimeError: boom",
                "quoted",
                "2025-04-08 18:07:20,444 INFO kept: a program's own timestamp",
                "2024-01-02T03:04:05 kept: no zone",
                "2024-01-02T03:04:05Zkept: no space",
                "2024-01-02T03:04:05.Z kept: no fraction digits",
                "2024-01-02T03:04:05Z",
            ]
        );
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
    fn package_listings_typed_without_a_prompt_start_segments() {
        // As issue templates show commands (vllm-ascend#3793): prose, then the listing.
        let text = "800T A2 arm64 python==3.11\npip list | grep -E \"torch|vllm\"\ntorch    2.7.1\n  python3 -m pip freeze\ntorch==2.7.1\n";
        assert_eq!(
            cmds(text),
            vec![None, Some("pip list | grep -E \"torch|vllm\"".into()), Some("python3 -m pip freeze".into())]
        );
        // Prose that only mentions them does not.
        assert_eq!(
            cmds("pip install torch\npipeline list done\nconda activate x\ncheck pip list output\n"),
            vec![None]
        );
    }

    #[test]
    fn a_file_shown_with_cat_without_a_prompt_starts_a_segment() {
        // vLLM-Ascend's issue template asks for the toolkit's install.info this way
        // (sglang#10421 quoted it after a traceback); a quoted copy too.
        let cat = "cat /usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info";
        let text =
            format!("RuntimeError: … error code is 507035\n{cat}\nversion=8.3.RC1\n> > {cat}\nversion=8.3.RC1\n");
        assert_eq!(cmds(&text), vec![None, Some(cat.into()), Some(cat.into())]);
        // `cat` in prose, of no path, or with an option first does not.
        assert_eq!(cmds("cat the file\ncat -n /etc/hosts\ncatalogue /x\ncat /a /b more\n"), vec![None]);
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
