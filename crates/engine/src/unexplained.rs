//! Lines that look like failures but that no rule explains.
//!
//! The product must say what it did not understand. A line is failure-like
//! when it has a Python exception (`KeyError: 1`, a bare `AssertionError`),
//! `ERROR` / `Error:`, or a CANN error code (`EI0006`, `EJ0003`, `EZ9999`:
//! `[EWI][A-Z0-9]` and four digits). It is scanned by the same single pass
//! as the rule signatures ([`crate::pattern::FAILURE_LIKE`] is the last
//! pattern of the set). Lines
//! that are evidence of a finding are dropped; the rest are grouped by
//! their shape (digits and hex numbers masked, so the same error from
//! eight ranks is one group).

use crate::report::{EvidenceLine, UnexplainedGroup};

/// Groups kept in a report.
pub const MAX_GROUPS: usize = 50;
/// Line numbers kept per group.
pub const MAX_LINES: usize = 5;

/// The shape of a line: digits and hex numbers masked, spaces collapsed.
pub fn shape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.trim().chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            // 0x1f, 123, 1.5 all become one '#'
            while chars.peek().is_some_and(|d| d.is_ascii_hexdigit() || *d == 'x' || *d == '.') {
                chars.next();
            }
            out.push('#');
        } else if c.is_whitespace() {
            while chars.peek().is_some_and(|d| d.is_whitespace()) {
                chars.next();
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether the only failure-like word of `text` is the level of a log prefix
/// (`ERROR 01-26 03:28:29 [multiproc_executor.py:671]`) in front of nothing,
/// or in front of a line of a traceback's body: its header, a `File "…", line
/// N` frame, the source line under a frame, or the `^^^^` marks. vLLM's
/// worker processes print every line of a worker's traceback under that level,
/// blank ones too, so each frame was listed as unexplained and buried the
/// exception line, which is still listed (it names its exception).
pub fn only_the_log_level(text: &str) -> bool {
    let Some((before, after)) = around_level(text) else { return false };
    let (message, bracketed) = message_of(after);
    let body = message.trim();
    let traceback_body = body.is_empty()
        || body.starts_with("File \"")
        || body == "Traceback (most recent call last):"
        || body.bytes().all(|b| matches!(b, b'^' | b'~' | b' '))
        // The source line under a frame: Python indents it by exactly four
        // spaces (CANN's error reports indent their `Possible Cause:` and
        // `Solution:` lines by eight, and those stay). Told from the level's
        // own padding by the `[file:N]` before it.
        || (bracketed && message.starts_with("    ") && !message[4..].starts_with(' '));
    traceback_body && !failure_like(message) && !failure_like(before)
}

/// A line's place in the error report torch_npu and CANN print together
/// when a call into CANN fails:
///
/// ```text
/// [ERROR] 2025-09-07-01:11:09 (PID:961, Device:1, RankID:-1) ERR00100 PTA call acl api failed
/// [Error]: The execution of the internal task times out.
///         Rectify the fault based on the error information in the ascend log.
/// EH9999: Inner Error!
///         rtStreamSynchronizeWithTimeout execute failed, reason=[fftsplus timeout]
/// EH9999: [PID: 961] … synchronize stream failed, runtime result = 507048
///         TraceBack (most recent call last):
/// ```
///
/// (each line possibly under a worker's log prefix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportLine {
    /// Not a line of such a report.
    No,
    /// A CANN code line (`EH9999: …`): the CANN layer explains it or lists
    /// it with its component, so it is never taken as part of another line.
    Code,
    /// The rest: torch_npu's code line, `[Error]: …`, the indented body,
    /// CANN's `TraceBack` header.
    Body,
}

/// How `text` stands in a torch_npu / CANN error report ([`ReportLine`]).
pub fn report_line(text: &str) -> ReportLine {
    if crate::cann::torch_npu_code(text).is_some() {
        return ReportLine::Body;
    }
    let message = match around_level(text) {
        Some((_, after)) => message_of(after).0,
        None => text,
    };
    // A letter code (`EH9999: …`), as the code layer reads codes.
    let code =
        message.split_once(':').is_some_and(|(c, _)| c.starts_with(char::is_alphabetic) && crate::cann::is_code(c));
    if code {
        return ReportLine::Code;
    }
    let body = message.trim_start();
    // CANN indents the report's body by eight spaces (or a tab); pastes
    // often lose the indentation, so its fixed openings count too. A line
    // of closing brackets alone ends a bracket the report's message opened
    // on the line above (`Reason[SystemError: …` then `]`, torch_npu#61).
    let indented = message.starts_with("        ") || message.starts_with('\t');
    let closes = body.trim_end().bytes().all(|b| matches!(b, b']' | b')' | b'}'));
    if !body.is_empty()
        && (indented
            || closes
            || ["[Error]:", "TraceBack (most recent call last):", "Rectify the fault", "Possible Cause:", "Solution:"]
                .iter()
                .any(|o| body.starts_with(o)))
    {
        return ReportLine::Body;
    }
    ReportLine::No
}

/// The text before and after the first `ERROR` that stands as a word.
fn around_level(text: &str) -> Option<(&str, &str)> {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text[from..].find("ERROR").map(|i| i + from) {
        let end = i + "ERROR".len();
        let word_before = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        let word_after = end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_');
        if !word_before && !word_after {
            return Some((&text[..i], &text[end..]));
        }
        from = end;
    }
    None
}

/// What a log prefix's level is followed by, past a `]` closing `[ERROR]`,
/// a timestamp and a `[file.py:N]` source position; and whether that
/// position was there (then one space separates it from the message).
fn message_of(after: &str) -> (&str, bool) {
    let mut rest = after.strip_prefix(']').unwrap_or(after).trim_start();
    // Timestamp words: `01-26 03:28:29`, `2026-01-26-03:28:29`, `09:15:41.123`.
    while let Some(word) = rest.split(' ').next().filter(|w| {
        w.bytes().any(|b| b.is_ascii_digit())
            && w.bytes().any(|b| b == b'-' || b == b':')
            && w.bytes().all(|b| b.is_ascii_digit() || b"-:.,T".contains(&b))
    }) {
        rest = rest[word.len()..].trim_start();
    }
    // `[file.py:N]`, or `file.py:N]` as vLLM wrote it before 0.7 (its format
    // was `%(filename)s:%(lineno)d]`, with no opening bracket).
    let open = usize::from(rest.starts_with('['));
    let word_end = rest.find(' ').unwrap_or(rest.len());
    if let Some(close) = rest[..word_end].find(']') {
        let inside = &rest[open..close];
        if inside.rsplit_once(':').is_some_and(|(file, line)| {
            !file.is_empty() && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit())
        }) && (open == 1 || inside.contains(".py:"))
        {
            let message = &rest[close + 1..];
            return (message.strip_prefix(' ').unwrap_or(message), true);
        }
    }
    (rest, false)
}

fn failure_like(text: &str) -> bool {
    static RE: std::sync::OnceLock<Option<regex::bytes::Regex>> = std::sync::OnceLock::new();
    RE.get_or_init(|| crate::pattern::compile(crate::pattern::FAILURE_LIKE).ok())
        .as_ref()
        .is_none_or(|re| re.is_match(text.as_bytes()))
}

/// Groups `lines` (already filtered to unexplained ones, in input order):
/// at most [`MAX_GROUPS`] groups, and how many lines fell in none of them.
pub fn group(lines: Vec<EvidenceLine>) -> (Vec<UnexplainedGroup>, usize) {
    let mut omitted = 0usize;
    let mut groups: Vec<(String, UnexplainedGroup)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for l in lines {
        let key = shape(&l.text);
        match index.get(&key) {
            Some(&i) => {
                let g = &mut groups[i].1;
                g.count += 1;
                if g.lines.len() < MAX_LINES && l.input == g.first.input {
                    g.lines.push(l.line);
                }
            }
            None => {
                if groups.len() >= MAX_GROUPS {
                    omitted += 1;
                    continue;
                }
                index.insert(key.clone(), groups.len());
                groups.push((key, UnexplainedGroup { lines: vec![l.line], first: l, count: 1, note: None }));
            }
        }
    }
    (groups.into_iter().map(|(_, g)| g).collect(), omitted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_error_from_many_ranks_is_one_group() {
        let l = |n, t: &str| EvidenceLine { input: None, line: n, text: t.into(), node: None, answer: None };
        let (g, omitted) = group(vec![
            l(3, "(WorkerDict pid=1234) ValueError: bad shape 12"),
            l(9, "(WorkerDict pid=5678) ValueError: bad shape 16"),
            l(12, "KeyError: 1"),
        ]);
        assert_eq!((g.len(), omitted), (2, 0));
        assert_eq!(g[0].count, 2);
        assert_eq!(g[0].lines, vec![3, 9]);
    }

    #[test]
    fn a_log_level_before_a_traceback_line_is_not_a_failure() {
        let p =
            "(vLLMHttpServer pid=2790495) (Worker_TP1 pid=2805207) ERROR 01-26 03:28:29 [multiproc_executor.py:671]";
        for line in [
            format!("{p} "),
            format!("{p} Traceback (most recent call last):"),
            format!("{p}   File \"/usr/local/lib/python3.11/site-packages/torch_npu/npu/utils.py\", line 72, in synchronize"),
            format!("{p}     get_torch_device().synchronize()"),
            format!("{p}     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"),
            "ERROR 09-01 20:16:24".to_string(),
            // vLLM before 0.7: no bracket before the source position.
            "(VllmWorkerProcess pid=802) ERROR 04-23 00:04:19 multiproc_worker_utils.py:240]".to_string(),
            "(VllmWorkerProcess pid=802) ERROR 04-23 00:04:19 multiproc_worker_utils.py:240] Traceback (most recent call last):".to_string(),
            "(VllmWorkerProcess pid=802) ERROR 04-23 00:04:19 multiproc_worker_utils.py:240]     return func(*args, **kwargs)".to_string(),
        ] {
            assert!(only_the_log_level(&line), "{line}");
        }
        for line in [
            format!("{p} RuntimeError: The Inner error is reported as above."),
            format!(
                "{p} [ERROR] 2026-01-26-03:28:29 (PID:2805207, Device:1, RankID:-1) ERR00100 PTA call acl api failed."
            ),
            format!("{p}     raise KeyError: 'actor_train'"),
            format!("{p}         Possible Cause: Available memory is insufficient."),
            format!("{p}         Check nnopExecutor != nullptr failed"),
            format!("{p} Error executing method 'init_worker'. This might cause deadlock in distributed execution"),
            // The level's padding is not indentation.
            "2026-07-15 09:15:41 ERROR    Something went wrong".to_string(),
            "ERROR: Could not find a version that satisfies the requirement torch-npu==2.10.0".to_string(),
            "[ERROR] RUNTIME(1234,python):2026-07-15-09:15:41.123.456 [engine.cc:1234] 1234 report error module"
                .to_string(),
            "ValueError: bad".to_string(),
            // A code after the level is no timestamp.
            "[FATAL]  Acl return error csrc/kernels/ascend/attention/attention.cc:140, with ERROR 561103".to_string(),
            "KeyError: 'x' ERROR 01-26 03:28:29 [a.py:1]".to_string(),
            "(VllmWorkerProcess pid=802) ERROR 04-23 00:04:19 multiproc_worker_utils.py:240] CalledProcessError: Command '['/usr/bin/gcc']' returned non-zero exit status 1.".to_string(),
            // A word with a colon and a bracket that is no source position.
            "ERROR 04-23 00:04:19 rank:3] ".to_string(),
        ] {
            assert!(!only_the_log_level(&line), "{line}");
        }
    }

    #[test]
    fn lines_of_a_torch_npu_and_cann_report() {
        let p = "(VllmWorker TP1 pid=961) ERROR 09-07 01:11:09 [multiproc_executor.py:596]";
        for (line, want) in [
            (
                format!(
                    "{p} [ERROR] 2025-09-07-01:11:09 (PID:961, Device:1, RankID:-1) ERR00100 PTA call acl api failed"
                ),
                ReportLine::Body,
            ),
            (format!("{p} [Error]: The execution of the internal task times out. "), ReportLine::Body),
            (
                format!("{p}         Rectify the fault based on the error information in the ascend log."),
                ReportLine::Body,
            ),
            (format!("{p} EH9999: Inner Error!"), ReportLine::Code),
            (format!("{p}         TraceBack (most recent call last):"), ReportLine::Body),
            ("EZ9999: [PID: 1066924] 2025-04-29-18:46:11.826.385 The error from device".to_string(), ReportLine::Code),
            ("E40024: Failed to call the Python function.".to_string(), ReportLine::Code),
            ("W11001: a warning code the code layer reads too".to_string(), ReportLine::Code),
            ("Rectify the fault based on the error information in the ascend log.".to_string(), ReportLine::Body),
            ("[Error]: The vector core execution is abnormal. ".to_string(), ReportLine::Body),
            (format!("{p} RuntimeError: The Inner error is reported as above."), ReportLine::No),
            ("RuntimeError: ACL stream synchronize failed.".to_string(), ReportLine::No),
            (format!("{p} Traceback (most recent call last):"), ReportLine::No),
            ("ERROR: Could not find a version that satisfies the requirement torch-npu".to_string(), ReportLine::No),
            ("EXAMPLE: not a code".to_string(), ReportLine::No),
            (format!("{p} "), ReportLine::No),
            ("ERROR 03-04 12:57:08 [engine.py:409] ] ".to_string(), ReportLine::Body),
            ("]".to_string(), ReportLine::Body),
            ("ERROR 03-04 12:57:08 [engine.py:409] ]: not only brackets".to_string(), ReportLine::No),
        ] {
            assert_eq!(report_line(&line), want, "{line}");
        }
    }

    #[test]
    fn pattern_finds_failure_like_lines() {
        let re = crate::pattern::compile(crate::pattern::FAILURE_LIKE).unwrap();
        for yes in
            ["KeyError: 1", "AssertionError", "[ERROR] boom", "Error: x", "EZ9999: Inner Error!", "foo EJ0003: bind"]
        {
            assert!(re.is_match(yes.as_bytes()), "{yes}");
        }
        for no in ["INFO all good", "error_count=0", "ERRORS=0", "step 20260819"] {
            assert!(!re.is_match(no.as_bytes()), "{no}");
        }
    }
}
