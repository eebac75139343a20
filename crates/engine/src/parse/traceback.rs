//! Python tracebacks inside logs, and the answer of the docs' torch_npu
//! check (`python -c "…print(torch.npu.is_available())"`).
//!
//! ```text
//! (WorkerDict pid=2211) Traceback (most recent call last):
//! (WorkerDict pid=2211)   File "/workspace/ROLL/roll/pipeline/rlvr/rlvr_pipeline.py", line 412, in run
//! (WorkerDict pid=2211)     self.actor_train.train_step(batch)
//! (WorkerDict pid=2211) RuntimeError: NPU out of memory. Tried to allocate 5.03 GiB (NPU 3; 60.96 GiB total capacity)
//! ```
//!
//! Each traceback gives `log.exception` (subject = the exception type, such
//! as `RuntimeError` or `torch.OutOfMemoryError`; value = the first line of
//! its message) on the line that names it. Ray's `(Actor pid=…)` prefixes
//! and `[repeated 3x across cluster]` suffixes are ignored. A `True` or
//! `False` printed after `torch.npu.is_available()` gives
//! `torch.npu_available`.
//!
//! ```
//! let r = roll_doctor_engine::diagnose("$ python -c \"import torch; import torch_npu; print(torch.npu.is_available())\"\nFalse\n");
//! assert!(r.findings.iter().any(|f| f.id == "torch-npu-unavailable"));
//! ```

use super::FactSink;
use crate::facts::{FactDef, FactValue, ValueType};
use crate::segment::{clean, Row, Segment};
use regex::Regex;
use std::sync::OnceLock;

/// Facts this parser produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("log.exception", ValueType::Str, Some("exception type"), "the exception a Python traceback ends with; subject = exception type (RuntimeError, torch.OutOfMemoryError, …), value = the first line of its message (Str)"),
    FactDef::new("torch.npu_available", ValueType::Bool, None, "what `torch.npu.is_available()` printed (Bool)"),
    FactDef::new("npu.oom_total_gib", ValueType::Float, Some("NPU"), "capacity of the NPU an out-of-memory message names, GiB (Float)"),
    FactDef::new("npu.oom_reserved_gib", ValueType::Float, Some("NPU"), "what this process's PyTorch had reserved when it ran out of NPU memory, GiB (Float)"),
    FactDef::new("npu.oom_free_gib", ValueType::Float, Some("NPU"), "what was free when the process ran out of NPU memory, GiB (Float)"),
    FactDef::new("npu.oom_other_pct", ValueType::Float, Some("NPU"), "share of the NPU neither reserved by the failing process nor free, percent: held by another process (Float)"),
    // The same fact as the env parser's: a launch script pasted with its log.
    FactDef::new("env.var", ValueType::Str, Some("variable"), "an environment variable; subject = its name, value = its value (Str); shared contract with the config checks"),
];

/// How strongly a command names this kind: a program run, or a log shown.
pub fn command(cmd: &str) -> u8 {
    match super::first_word(cmd) {
        "tail" | "cat" | "grep" | "less" | "head" | "python" | "python3" | "bash" | "sh" | "torchrun" => 70,
        _ => 0,
    }
}

fn prefix_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^\s*\([0-9A-Za-z_.:-]+ pid=[0-9]+(?:, ip=[0-9.:a-fA-F]+)?\)\s?").expect("static regex")
    })
}

fn exc_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^([A-Za-z_][0-9A-Za-z_.]*(?:\([0-9A-Za-z_.]+\))?)(?::\s?(.*))?$").expect("static regex")
    })
}

fn repeated_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\s*\[repeated [0-9]+x across cluster\]\s*$").expect("static regex"))
}

/// The line without a Ray actor prefix (kept indentation after it).
fn body(text: &str) -> &str {
    match prefix_re().find(text) {
        Some(m) => &text[m.end()..],
        None => text,
    }
}

fn looks_like_exception(ty: &str) -> bool {
    let last = ty.rsplit('.').next().unwrap_or(ty);
    let last = last.split('(').next().unwrap_or(last);
    last.ends_with("Error")
        || last.ends_with("Exception")
        || last.ends_with("Exit")
        || last.ends_with("Interrupt")
        || last.ends_with("Failed")
        || matches!(last, "StopIteration" | "KeyboardInterrupt" | "GeneratorExit" | "Warning")
}

/// The failure-like pattern with the same ASCII semantics as the signature
/// set (a Unicode `\b` is slow on non-ASCII lines).
fn failure_like() -> &'static regex::bytes::Regex {
    static RE: std::sync::OnceLock<regex::bytes::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| crate::pattern::compile(crate::pattern::FAILURE_LIKE).expect("the failure-like pattern compiles"))
}

/// True for a line shaped like a YAML mapping entry: indented `key: value`,
/// or a top-level lowercase `snake_key:`. `RuntimeError: …` and `INFO: …`
/// (capitalised, at column 0) are log lines, not keys.
fn yaml_key_line(t: &str) -> bool {
    let indented = t.starts_with(' ') || t.starts_with('\t');
    let body = t.trim_start().trim_start_matches("- ");
    let Some((key, rest)) = body.split_once(':') else { return false };
    if !(rest.is_empty() || rest.starts_with(' ')) || key.is_empty() {
        return false;
    }
    let ident = key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.');
    let lower_snake = key.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    ident && (indented || lower_snake)
}

/// Scores a log: error/warning words, timestamps, CANN codes.
pub fn score(seg: &Segment) -> u8 {
    let mut hits = 0usize;
    for l in seg.lines.iter().take(2000) {
        let t = &l.text;
        // A YAML `key: value` line (`HCCL_CONNECT_TIMEOUT: "3600"` under
        // system_envs) mentions HCCL without being a log line.
        if yaml_key_line(t) {
            continue;
        }
        if t.contains("ERROR")
            || t.contains("Error")
            || t.contains("WARNING")
            || t.contains("INFO")
            || t.contains("Traceback")
            || t.contains("HCCL")
            || t.contains("[PID")
            || t.contains("pid=")
            || failure_like().is_match(t.as_bytes())
        {
            hits += 1;
            // Two hits score as high as any more.
            if hits == 2 {
                break;
            }
        }
    }
    match hits {
        0 => 0,
        1 => 60,
        _ => 80,
    }
}

/// The literals a line must hold for this parser to care about it (the
/// escape sequences that cleaning removes, and which may split a literal,
/// are found apart with `memchr`: a one-byte literal among these would
/// leave the multi-literal searcher without a SIMD prefilter, byte by byte
/// through its automaton).
const EVENTS: &[&str] =
    &["Traceback (most recent call last)", "out of memory", "Out of memory", "npu.is_available()", "export "];

/// Finds the first of [`EVENTS`] (and, with `answers`, `True`/`False`):
/// Teddy (SIMD) where the platform has it. Elsewhere (wasm) each literal
/// is searched on its own with memchr's SIMD substring search, which is
/// several times faster than one byte-at-a-time automaton over the log
/// (10 MB: 30 ms against 2 ms natively with Teddy).
enum Events {
    Packed(aho_corasick::packed::Searcher),
    Each(Vec<memchr::memmem::Finder<'static>>),
}

impl Events {
    /// The first event at or after `pos`. `next` caches, per literal of
    /// `Each`, where it was found last (`usize::MAX`: nowhere after; `None`:
    /// not searched yet), so a frequent literal does not make the rare ones
    /// search the rest of the log again; it belongs to one `hay`.
    fn find(&self, hay: &[u8], pos: usize, next: &mut Vec<Option<usize>>) -> Option<usize> {
        match self {
            Events::Packed(s) => s.find_in(hay, aho_corasick::Span::from(pos..hay.len())).map(|m| m.start()),
            Events::Each(finders) => {
                next.resize(finders.len(), None);
                let mut first = usize::MAX;
                for (f, at) in finders.iter().zip(next.iter_mut()) {
                    let found = match *at {
                        Some(a) if a >= pos => a,
                        _ => f.find(&hay[pos..]).map_or(usize::MAX, |i| pos + i),
                    };
                    *at = Some(found);
                    first = first.min(found);
                }
                (first != usize::MAX).then_some(first)
            }
        }
    }
}

fn events(answers: bool) -> &'static Events {
    static E: OnceLock<Events> = OnceLock::new();
    static A: OnceLock<Events> = OnceLock::new();
    let build = |extra: &[&str]| {
        let pats: Vec<&str> = EVENTS.iter().chain(extra).copied().collect();
        // Unit tests search as wasm does; the Teddy path is the real-paste
        // tests' (integration tests, native).
        let packed = (crate::signatures::teddy() && !cfg!(test))
            .then(|| aho_corasick::packed::Config::new().builder().extend(&pats).build())
            .flatten();
        match packed {
            Some(s) => Events::Packed(s),
            None => Events::Each(pats.iter().map(|p| memchr::memmem::Finder::new(p.as_bytes()).into_owned()).collect()),
        }
    };
    if answers {
        A.get_or_init(|| build(&["True", "False"]))
    } else {
        E.get_or_init(|| build(&[]))
    }
}

/// The start of the next event in `hay[pos..]`: a literal of [`events`] or
/// an escape. `lit` and `esc` cache the last search of each (a position
/// `>= pos` stays valid; `usize::MAX`: none left); `each` is
/// [`Events::find`]'s cache.
fn next_event(
    hay: &[u8],
    pos: usize,
    answers: bool,
    lit: &mut Option<(usize, bool)>,
    esc: &mut Option<usize>,
    each: &mut Vec<Option<usize>>,
) -> Option<usize> {
    if !lit.is_some_and(|(at, a)| at >= pos && a == answers) {
        if !lit.is_some_and(|(_, a)| a == answers) {
            each.clear(); // another set of literals
        }
        *lit = Some((events(answers).find(hay, pos, each).unwrap_or(usize::MAX), answers));
    }
    if !esc.is_some_and(|at| at >= pos) {
        *esc = Some(memchr::memchr(0x1b, &hay[pos..]).map_or(usize::MAX, |i| pos + i));
    }
    let at = lit.map_or(usize::MAX, |l| l.0).min(esc.unwrap_or(usize::MAX));
    (at != usize::MAX).then_some(at)
}

/// Where the parser is in the log.
struct State {
    /// A `torch.npu.is_available()` answer is due.
    expect_answer: bool,
    /// Inside a traceback, before its exception line.
    in_tb: bool,
}

impl State {
    /// Reads one line.
    fn line(&mut self, row: &Row<'_>, sink: &mut FactSink<'_>) {
        let b = body(&row.text);
        let t = b.trim();
        if t.contains("out of memory") || t.contains("Out of memory") {
            super::oom::line(&row.line(), t, sink);
        }
        // The answer may follow warnings that torch_npu prints first.
        if self.expect_answer && (t == "True" || t == "False") {
            sink.push("torch.npu_available", None, FactValue::Bool(t == "True"), &row.line());
            self.expect_answer = false;
        }
        if t.contains("npu.is_available()") && !t.starts_with("File ") {
            self.expect_answer = true;
            return;
        }
        if t.starts_with("Traceback (most recent call last)") {
            self.in_tb = true;
            return;
        }
        // A launch script pasted with its log (`export WORLD_SIZE=2`, or
        // `+ export …` as `bash -x` echoes it).
        let command = t.strip_prefix("+ ").unwrap_or(t);
        if command.starts_with("export ") {
            if let Some((name, value)) = super::env::export_line(command) {
                sink.push("env.var", Some(name), FactValue::Str(value), &row.line());
            }
            return;
        }
        if !self.in_tb || t.is_empty() {
            return;
        }
        // Frames are indented (`  File "…", line N, in f` and the source line);
        // Python 3.11+ adds `^^^^` markers. The exception line is not indented.
        if b.starts_with(' ')
            || b.starts_with('\t')
            || t.starts_with("File \"")
            || t.chars().all(|c| matches!(c, '^' | '~' | ' '))
        {
            return;
        }
        self.in_tb = false;
        let t = repeated_re().replace(t, "");
        if let Some(c) = exc_re().captures(&t) {
            let ty = c.get(1).map(|m| m.as_str()).unwrap_or("");
            if looks_like_exception(ty) {
                let msg = c.get(2).map(|m| m.as_str().trim().to_string()).unwrap_or_default();
                sink.push("log.exception", Some(ty.to_string()), FactValue::Str(msg), &row.line());
            }
        }
    }
}

/// Parses one log segment. A log is searched, not read line by line: only
/// the lines holding one of [`EVENTS`] (and the lines of a traceback, or
/// those after an `is_available()` until its answer) are looked at.
pub fn parse(seg: &Segment<'_>, sink: &mut FactSink<'_>) {
    let asked = seg.command.as_deref().is_some_and(|c| c.contains("npu.is_available()"));
    let mut st = State { expect_answer: asked, in_tb: false };
    if seg.spans().is_empty() {
        for r in seg.rows() {
            st.line(&r, sink);
        }
        return;
    }
    for span in seg.spans() {
        let hay = span.text.as_bytes();
        let (mut pos, mut no) = (0usize, span.first);
        let (mut lit, mut esc, mut each) = (None, None, Vec::new());
        loop {
            let start = if st.in_tb {
                pos
            } else {
                let Some(m) = next_event(hay, pos, st.expect_answer, &mut lit, &mut esc, &mut each) else {
                    break;
                };
                memchr::memrchr(b'\n', &hay[..m]).map_or(0, |i| i + 1).max(pos)
            };
            no += memchr::memchr_iter(b'\n', &hay[pos..start]).count() as u32;
            let end = memchr::memchr(b'\n', &hay[start..]).map_or(hay.len(), |i| start + i);
            st.line(&Row { no, text: clean(&span.text[start..end]) }, sink);
            if end >= hay.len() {
                break;
            }
            (pos, no) = (end + 1, no + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::facts::Fact;
    use proptest::prelude::*;

    fn facts(text: &str) -> Vec<Fact> {
        crate::parse::facts_of(text, super::parse)
    }

    fn exc(fs: &[Fact]) -> Vec<(String, String, u32)> {
        fs.iter()
            .filter(|f| f.name == "log.exception")
            .map(|f| (f.subject.clone().unwrap_or_default(), f.value.to_text(), f.line()))
            .collect()
    }

    #[test]
    fn export_lines_of_a_pasted_script_are_variables() {
        let text = "#!/bin/bash\nexport WORLD_SIZE=2\n+ export MASTER_PORT=\"6379\"\nexport HOST_IP=$(hostname -I)\nexport NODE=$RANK\n\
                    INFO export model done\n[2026-08-19 10:00:00] INFO 1 nodes have joined so far, waiting for 1.";
        let vars: Vec<(String, String, u32)> = facts(text)
            .iter()
            .filter(|f| f.name == "env.var")
            .map(|f| (f.subject.clone().unwrap_or_default(), f.value.to_text(), f.line()))
            .collect();
        assert_eq!(vars, vec![("WORLD_SIZE".into(), "2".into(), 2), ("MASTER_PORT".into(), "6379".into(), 3)]);
    }

    #[test]
    fn each_literal_search_finds_every_event_in_order() {
        // `Events::Each` (what wasm uses; unit tests use it too) with its cache.
        let hay =
            b"x out of memory y Traceback (most recent call last) Out of memory npu.is_available() out of memory z";
        let want: Vec<usize> =
            (0..hay.len()).filter(|&i| super::EVENTS.iter().any(|e| hay[i..].starts_with(e.as_bytes()))).collect();
        let (events, mut next, mut got, mut pos) = (super::events(false), Vec::new(), Vec::new(), 0);
        while let Some(at) = events.find(hay, pos, &mut next) {
            got.push(at);
            pos = at + 1;
            assert!(got.len() <= want.len(), "{got:?}");
        }
        assert_eq!(got, want);
        assert_eq!(want.len(), 5);
    }

    #[test]
    fn plain_and_chained() {
        let t = "INFO start\nTraceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n    import torch_npu\n    ^^^^^^^^^^^^^^^^\nModuleNotFoundError: No module named 'torch_npu'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"b.py\", line 2, in f\nRuntimeError: Failed to infer device type\n";
        assert_eq!(
            exc(&facts(t)),
            vec![
                ("ModuleNotFoundError".into(), "No module named 'torch_npu'".into(), 6),
                ("RuntimeError".into(), "Failed to infer device type".into(), 12)
            ]
        );
    }

    #[test]
    fn ray_prefixes_and_dotted_types() {
        let t = "(WorkerDict pid=2211, ip=10.0.0.2) Traceback (most recent call last):\n(WorkerDict pid=2211, ip=10.0.0.2)   File \"x.py\", line 3, in g\n(WorkerDict pid=2211, ip=10.0.0.2) torch.OutOfMemoryError: NPU out of memory. Tried to allocate 2.00 GiB [repeated 3x across cluster]\n";
        assert_eq!(
            exc(&facts(t)),
            vec![("torch.OutOfMemoryError".into(), "NPU out of memory. Tried to allocate 2.00 GiB".into(), 3)]
        );
        let t = "Traceback (most recent call last):\n  File \"x\", line 1\nray.exceptions.RayTaskError(ValueError): ray::W.f() (pid=1)\n";
        assert_eq!(exc(&facts(t))[0].0, "ray.exceptions.RayTaskError(ValueError)");
        let t = "Traceback (most recent call last):\n  File \"x\", line 1\nKeyboardInterrupt\n";
        assert_eq!(exc(&facts(t)), vec![("KeyboardInterrupt".into(), String::new(), 3)]);
        // a traceback cut before its last line gives nothing
        assert!(exc(&facts("Traceback (most recent call last):\n  File \"x\", line 1\n")).is_empty());
        assert!(exc(&facts("Traceback (most recent call last):\n  File \"x\", line 1\nsome text\n")).is_empty());
    }

    #[test]
    fn is_available_answer() {
        let fs = facts("$ python -c \"import torch; import torch_npu; print(torch.npu.is_available())\"\nFalse\n");
        assert!(fs.iter().any(|f| f.name == "torch.npu_available"
            && f.value == crate::facts::FactValue::Bool(false)
            && f.line() == 2));
        let fs = facts("python -c \"import torch; import torch_npu; print(torch.npu.is_available())\"\nTrue\n");
        assert!(fs.iter().any(|f| f.name == "torch.npu_available" && f.value == crate::facts::FactValue::Bool(true)));
        let fs = facts("$ python -c \"import torch, torch_npu; print(torch.npu.is_available())\"\n/usr/lib/python3/site-packages/torch_npu/__init__.py:248: UserWarning: On the interactive interface, the value of TASK_QUEUE_ENABLE is set to 0 by default.\nFalse\n");
        assert!(fs.iter().any(|f| f.name == "torch.npu_available" && f.line() == 3));
        let fs = facts("print(x)\nFalse\n");
        assert!(!fs.iter().any(|f| f.name == "torch.npu_available"));
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,400}") {
            let _ = facts(&s);
            let _ = facts(&format!("Traceback (most recent call last):\n{s}"));
        }
    }
}
