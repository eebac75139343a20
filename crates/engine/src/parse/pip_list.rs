//! Installed Python packages: `pip list` (two-column table, also filtered
//! with `| grep torch`), `pip freeze` (`name==version`), `pip show X`
//! (`Name:` / `Version:` blocks, `WARNING: Package(s) not found: …`) and
//! `collect_env`'s `[pip3] name==version` lines.
//!
//! ```text
//! $ pip list | grep -E "torch|triton"
//! torch                             2.10.0
//! torch-npu                         2.10.0.post4
//! triton-ascend                     3.2.1
//! ```
//!
//! Facts: `pip.package` (subject = the name normalised as pip does:
//! lower case, runs of `-_.` → `-`, so `torch_npu` is `torch-npu`; value =
//! the version), `pip.listing` for a complete list, and `pip.missing`
//! (subject = normalised name) for `pip show` of a package that is not
//! installed, or for the packages in [`WATCHED`] when a complete list, or a
//! `grep` that would have shown them, does not.
//!
//! ```
//! let r = roll_doctor_engine::diagnose("$ pip list | grep triton\ntriton          3.2.0\ntriton-ascend   3.2.1\n");
//! assert!(r.findings.iter().any(|f| f.id == "triton-conflict"));
//! ```

use super::docker_run::shell_words;
use super::FactSink;
use crate::facts::{FactDef, FactValue, ValueType};
use crate::segment::{Line, Segment};
use regex::{Regex, RegexBuilder};
use std::collections::BTreeSet;

/// Facts this parser produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("pip.package", ValueType::Str, Some("package"), "an installed Python package; subject = its normalised name (lower case, `_`/`.` → `-`: torch-npu, triton-ascend, vllm-ascend), value = version (Str)"),
    FactDef::new("pip.listing", ValueType::Bool, None, "the segment is a complete `pip list` / `pip freeze`, so a package missing from it is not installed (Bool true)"),
    FactDef::new("pip.missing", ValueType::Bool, Some("package"), "a package is not installed: `pip show` says not found, or a complete list (or a grep that would have shown it) lacks it (Bool true); subject = normalised name"),
];

/// How strongly a command names this kind.
pub fn command(cmd: &str) -> u8 {
    let listing = cmd.contains(" list") || cmd.contains(" show") || cmd.contains(" freeze");
    match super::first_word(cmd) {
        "pip" | "pip3" if listing => 95,
        _ => 0,
    }
}

/// Packages whose absence from a listing is reported as `pip.missing`.
pub const WATCHED: &[&str] = &["torch", "torch-npu", "triton-ascend", "vllm", "vllm-ascend"];

/// The name pip compares packages by (PEP 503).
pub fn normalise(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut sep = false;
    for c in name.trim().chars() {
        if c == '-' || c == '_' || c == '.' {
            sep = true;
        } else {
            if sep && !out.is_empty() {
                out.push('-');
            }
            sep = false;
            out.extend(c.to_lowercase());
        }
    }
    out
}

fn is_pkg_name(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
}

fn is_version(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '!' | '-' | '_'))
}

/// `name version [location]` row of `pip list` / `conda list`.
fn row(t: &str) -> Option<(&str, &str)> {
    let mut w = t.split_whitespace();
    let name = w.next()?;
    let ver = w.next()?;
    if !is_pkg_name(name) || !is_version(ver) {
        return None;
    }
    // pip list: optional editable location; conda list: build and channel
    // (at most two words after the version, or a path first).
    let tail_ok = w.next().is_none_or(|r| r.starts_with('/')) || w.count() <= 1;
    tail_ok.then_some((name, ver))
}

/// A line of `collect_env` (vLLM's and PyTorch's, in every vLLM-Ascend bug
/// report) without its tag: `[pip3] torch==2.5.1`. It lists only the
/// packages it finds relevant, so such a list is never taken as complete.
/// Its `[conda] torch 2.5.1 pypi_0 pypi` lines repeat what pip sees of the
/// same environment, in conda's spelling of the version; they are not read,
/// or one package would show two versions.
fn untag(t: &str) -> &str {
    ["[pip3] ", "[pip] "].iter().find_map(|p| t.strip_prefix(p)).map_or(t, str::trim_start)
}

/// `name==version` of `pip freeze`.
fn freeze(t: &str) -> Option<(&str, &str)> {
    let (n, v) = t.split_once("==")?;
    let (n, v) = (n.trim(), v.trim());
    (is_pkg_name(n) && is_version(v)).then_some((n, v))
}

/// `name: version` typed by hand for a known package of the stack
/// (`torch-npu: 2.8.0`, as users list their environment in issues); other
/// `key: value` lines are not package versions.
fn typed(t: &str) -> Option<(&str, &str)> {
    let (n, v) = t.split_once(':')?;
    // Markdown lists quote them: `` - `torch`: `2.12.0` `` (sglang#28628).
    let (n, v) = (n.trim().trim_start_matches(['-', '*', ' ']).trim_matches('`'), v.trim().trim_matches('`'));
    (is_pkg_name(n) && KNOWN.contains(&normalise(n).as_str()) && is_version(v)).then_some((n, v))
}

const KNOWN: &[&str] = &[
    "torch",
    "torch-npu",
    "torchvision",
    "torchaudio",
    "vllm",
    "vllm-ascend",
    "triton",
    "triton-ascend",
    "transformers",
    "ray",
    "numpy",
    "accelerate",
    "deepspeed",
    "megatron-core",
    "mcore-adapter",
    "roll",
];

/// How much `seg` looks like this input when no command named it (0–100).
pub fn score(seg: &Segment) -> u8 {
    let mut total = 0usize;
    let mut rows = 0usize;
    let mut frozen = 0usize;
    let mut known = false;
    let (mut name, mut version, mut more) = (false, false, false);
    let mut hand = 0usize;
    let mut tagged = 0usize;
    for l in seg.lines.iter().take(2000) {
        let line = l.text.trim();
        let t = untag(line);
        if t.is_empty() {
            continue;
        }
        if t.len() != line.len() && (freeze(t).is_some() || row(t).is_some()) {
            tagged += 1;
        }
        if t.starts_with("Package") && t.split_whitespace().nth(1) == Some("Version") {
            return 95;
        }
        // A Markdown heading or code fence around a list an issue shows
        // (`## 环境` above `torch 2.3.1`), or a `pip freeze` comment, is not
        // a line of the list's content.
        if t.starts_with("```") || t.starts_with('#') {
            continue;
        }
        total += 1;
        name |= t.starts_with("Name: ");
        version |= t.starts_with("Version: ");
        more |= t.starts_with("Location: ") || t.starts_with("Requires: ") || t.starts_with("Summary: ");
        if let Some((n, _)) = freeze(t) {
            frozen += 1;
            known = known || KNOWN.contains(&normalise(n).as_str());
        } else if let Some((n, _)) = row(t) {
            rows += 1;
            known = known || KNOWN.contains(&normalise(n).as_str());
        } else if typed(t).is_some() {
            hand += 1;
        }
    }
    if name && version && more {
        return 85;
    }
    // collect_env's tags say what the lines are, whatever surrounds them.
    if tagged >= 2 {
        return 85;
    }
    if total == 0 {
        return 0;
    }
    if frozen >= 3 && frozen * 100 / total >= 80 {
        return 85;
    }
    // Nothing but rows naming a package of the stack: a list on its own,
    // sure enough to be split from the prose around it (an issue's
    // `torch 2.3.1` / `torch-npu 2.2.0` between two paragraphs).
    if (rows + hand >= 2 && rows + hand == total) && (known || hand > 0) {
        return 75;
    }
    if rows >= 2 && known && rows * 100 / total >= 90 {
        return 60;
    }
    // A hand-typed list: mostly `torch: 2.8.0` lines of the stack's packages.
    if hand >= 2 && hand * 100 / total >= 60 {
        return 60;
    }
    0
}

enum Mode {
    /// `pip list`, `pip freeze`, `conda list`: complete.
    Full,
    /// Filtered by greps: a package is shown iff its line matches them all.
    Filtered(Vec<Regex>),
    /// `pip show`, or something else.
    Other,
}

fn grep_regex(stage: &[&str]) -> Option<Regex> {
    let mut extended = stage.first() == Some(&"egrep");
    let mut icase = false;
    let mut fixed = false;
    let mut word = false;
    let mut pats = Vec::new();
    let mut it = stage.iter().skip(1);
    while let Some(w) = it.next() {
        if *w == "-e" {
            pats.push(it.next()?.to_string());
        } else if w.starts_with("--color") {
        } else if let Some(f) = w.strip_prefix('-').filter(|f| !f.is_empty() && !f.starts_with('-')) {
            for c in f.chars() {
                match c {
                    'E' => extended = true,
                    'i' => icase = true,
                    'F' => fixed = true,
                    'w' => word = true,
                    _ => return None,
                }
            }
        } else if w.starts_with("--") {
            return None;
        } else {
            pats.push(w.to_string());
        }
    }
    if pats.is_empty() {
        return None;
    }
    let alts: Vec<String> = pats
        .iter()
        .map(|p| {
            if fixed {
                regex::escape(p)
            } else if extended {
                p.clone()
            } else {
                p.replace("\\|", "|")
            }
        })
        .collect();
    let alt = alts.join("|");
    let pat = if word { format!(r"(?:^|[^0-9A-Za-z_])(?:{alt})(?:[^0-9A-Za-z_]|$)") } else { alt };
    RegexBuilder::new(&pat).case_insensitive(icase).size_limit(1 << 20).build().ok()
}

fn mode_of(cmd: Option<&str>) -> Mode {
    let Some(cmd) = cmd else { return Mode::Other };
    let words = shell_words(&[(0, cmd)]);
    let mut stages: Vec<Vec<&str>> = vec![Vec::new()];
    for w in &words {
        if w.op {
            if w.text != "|" {
                break;
            }
            stages.push(Vec::new());
        } else if let Some(s) = stages.last_mut() {
            s.push(w.text.as_str());
        }
    }
    let first: Vec<&str> = stages[0].iter().copied().filter(|w| *w != "sudo").collect();
    let sub = match first.as_slice() {
        ["pip" | "pip3", sub, ..] => *sub,
        [py, "-m", "pip", sub, ..] if py.starts_with("python") => *sub,
        ["conda", "list", ..] => "list",
        _ => return Mode::Other,
    };
    if !(sub == "list" || sub == "freeze")
        || first
            .iter()
            .any(|w| matches!(*w, "--outdated" | "-o" | "--uptodate" | "-u" | "--not-required" | "--editable" | "-e"))
    {
        return Mode::Other;
    }
    let mut greps = Vec::new();
    for s in stages.iter().skip(1) {
        match s.first().copied() {
            Some("grep" | "egrep") => match grep_regex(s) {
                Some(r) => greps.push(r),
                None => return Mode::Other,
            },
            Some("sort" | "less" | "more" | "cat") => {}
            _ => return Mode::Other,
        }
    }
    if greps.is_empty() {
        Mode::Full
    } else {
        Mode::Filtered(greps)
    }
}

/// Parses one segment.
pub fn parse(seg: &Segment, sink: &mut FactSink<'_>) {
    let mode = mode_of(seg.command.as_deref());
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut show_name: Option<String> = None;
    let mut rows = 0usize;
    let mut header = false;
    for line in &seg.lines {
        let t = line.text.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(rest) = t.strip_prefix("WARNING: Package(s) not found:") {
            for n in rest.split(',') {
                let n = normalise(n);
                if !n.is_empty() {
                    sink.push("pip.missing", Some(n), FactValue::Bool(true), line);
                }
            }
            continue;
        }
        if let Some(n) = t.strip_prefix("Name: ") {
            show_name = Some(normalise(n));
            continue;
        }
        if let Some(v) = t.strip_prefix("Version: ") {
            if let Some(n) = show_name.take() {
                sink.push("pip.package", Some(n.clone()), FactValue::Str(v.trim().to_string()), line);
                seen.insert(n);
            }
            continue;
        }
        if t.starts_with("Package") && t.split_whitespace().nth(1) == Some("Version") {
            header = true;
            continue;
        }
        if t.starts_with("---") || t.starts_with('#') || t.starts_with("WARNING") || t.starts_with("[notice]") {
            continue;
        }
        let t = untag(t);
        let found = freeze(t).or_else(|| row(t)).or_else(|| typed(t));
        if let Some((n, v)) = found {
            let n = normalise(n);
            sink.push("pip.package", Some(n.clone()), FactValue::Str(v.to_string()), line);
            seen.insert(n);
            rows += 1;
        }
    }
    // A paste with no prompt is complete only when it clearly is a whole list.
    let mode = match mode {
        Mode::Other if seg.command.is_none() && rows >= 20 && (header || seen.contains("pip")) => Mode::Full,
        m => m,
    };
    let anchor = match (&seg.command, seg.command_line) {
        (Some(c), Some(no)) => Some(Line { no, text: c.clone() }),
        _ => seg.lines.first().cloned(),
    };
    let Some(anchor) = anchor else { return };
    if matches!(mode, Mode::Full) {
        if rows == 0 {
            return; // the output was not pasted
        }
        sink.push("pip.listing", None, FactValue::Bool(true), &anchor);
    }
    for w in WATCHED {
        if seen.contains(*w) {
            continue;
        }
        let would_show = match &mode {
            // pip, conda and `pip freeze` sort by name: a list whose names stop
            // before this one was cut (a paste often keeps only the head), and
            // says nothing about it.
            Mode::Full => seen.last().is_some_and(|n| n.as_str() > *w),
            // pip prints either spelling; conclude only if the grep matches both.
            Mode::Filtered(gs) => {
                let alt = w.replace('-', "_");
                gs.iter().all(|g| g.is_match(&format!("{w} 1.0")) && g.is_match(&format!("{alt} 1.0")))
            }
            Mode::Other => false,
        };
        if would_show {
            sink.push("pip.missing", Some(w.to_string()), FactValue::Bool(true), &anchor);
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

    fn pkg(fs: &[Fact], n: &str) -> Option<String> {
        fs.iter().find(|f| f.name == "pip.package" && f.subject.as_deref() == Some(n)).map(|f| f.value.to_text())
    }

    fn missing(fs: &[Fact], n: &str) -> bool {
        fs.iter().any(|f| f.name == "pip.missing" && f.subject.as_deref() == Some(n))
    }

    #[test]
    fn collect_env_lists_are_read_but_never_complete() {
        // vLLM's collect_env, as vllm-ascend#12113 pasted it (its timestamps
        // are dropped when the lines are cleaned).
        let text = "Versions of relevant libraries\n[pip3] numpy==1.26.4\n[pip3] torch==2.10.0+cpu\n[pip3] torch_npu==2.10.0\n[pip3] triton==3.5.0\n[pip3] triton_ascend==3.2.1\n[conda] torch 2.1.0 pypi_0 pypi\n[conda] Could not collect\n";
        let fs = facts(text);
        assert_eq!(pkg(&fs, "torch-npu").as_deref(), Some("2.10.0"));
        assert_eq!(pkg(&fs, "triton").as_deref(), Some("3.5.0"));
        assert_eq!(fs.iter().filter(|f| f.subject.as_deref() == Some("torch")).count(), 1, "conda's line is not read");
        assert_eq!(pkg(&fs, "triton-ascend").as_deref(), Some("3.2.1"));
        assert!(!fs.iter().any(|f| f.name == "pip.listing" || f.name == "pip.missing"));
        let r = crate::diagnose(text);
        assert_eq!(r.findings.first().map(|f| f.id.as_str()), Some("triton-conflict"));
    }

    #[test]
    fn a_list_cut_before_a_name_says_nothing_about_it() {
        // The head of a `pip list` (lmdeploy#3119 stops at `fsspec`): torch-npu would come later.
        let mut head =
            String::from("$ pip list\nPackage                   Version\n------------------------- -----------\n");
        for n in ["absl-py", "accelerate", "addict", "aiohttp", "ascendebug", "attrs", "certifi", "click", "cmake"] {
            head.push_str(&format!("{n:<25} 1.0\n"));
        }
        head.push_str("dlinfer-ascend            0.1.5\nfsspec                    2024.6.1\n");
        let fs = facts(&head);
        assert!(fs.iter().any(|f| f.name == "pip.listing"));
        assert!(!missing(&fs, "torch") && !missing(&fs, "torch-npu") && !missing(&fs, "vllm-ascend"));
        // The same list reaching past them does say so.
        let fs = facts(&format!("{head}urllib3                   2.3.0\nwheel                     0.45.1\n"));
        assert!(missing(&fs, "torch-npu") && missing(&fs, "vllm-ascend"));
    }

    #[test]
    fn normalise_names() {
        assert_eq!(super::normalise("Torch_NPU"), "torch-npu");
        assert_eq!(super::normalise("triton__ascend"), "triton-ascend");
        assert_eq!(super::normalise("a.b-c"), "a-b-c");
    }

    #[test]
    fn pip_list_table() {
        let t = "$ pip list\nPackage            Version\n------------------ ------------\ntorch              2.10.0\ntorch_npu          2.10.0.post4\nvllm               0.23.0+empty\nmcore_adapter      0.1.0      /workspace/ROLL/mcore_adapter\nwheel              0.45.1\n";
        let fs = facts(t);
        assert_eq!(pkg(&fs, "torch-npu").as_deref(), Some("2.10.0.post4"));
        assert_eq!(pkg(&fs, "vllm").as_deref(), Some("0.23.0+empty"));
        assert_eq!(pkg(&fs, "mcore-adapter").as_deref(), Some("0.1.0"));
        assert!(fs.iter().any(|f| f.name == "pip.listing"));
        assert!(missing(&fs, "triton-ascend") && missing(&fs, "vllm-ascend") && !missing(&fs, "torch"));
        let l = fs.iter().find(|f| f.subject.as_deref() == Some("torch")).unwrap();
        assert_eq!(l.line(), 4);
    }

    #[test]
    fn hand_typed_versions_of_the_stack() {
        // As typed in vllm-ascend#7587: detected as a package list, no package concluded missing.
        let t = "torch: 2.8.0\ntorch-npu: 2.8.0\nvllm: 0.11.0\nvllm-ascend: 0.11.0rc1.dev\nPython: 3.11\n";
        assert_eq!(crate::detect::detect(&segment(t)[0]).kind, crate::InputKind::PipList);
        let fs = facts(t);
        assert_eq!(pkg(&fs, "vllm-ascend").as_deref(), Some("0.11.0rc1.dev"));
        assert_eq!(pkg(&fs, "torch-npu").as_deref(), Some("2.8.0"));
        assert!(pkg(&fs, "python").is_none() && !missing(&fs, "triton-ascend"));
        // Other `key: value` lines are not versions, and one typed line is not a list.
        assert_ne!(
            crate::detect::detect(&segment("model: qwen\nseed: 42\nlr: 1e-6\n")[0]).kind,
            crate::InputKind::PipList
        );
        assert_ne!(
            crate::detect::detect(&segment("torch: 2.8.0\nhello world\nmore text here\n")[0]).kind,
            crate::InputKind::PipList
        );
    }

    #[test]
    fn grep_freeze_and_show() {
        let fs = facts("$ pip list | grep torch\ntorch              2.10.0\ntorchvision        0.25.0\n");
        assert!(missing(&fs, "torch-npu"));
        assert!(!missing(&fs, "triton-ascend"));
        let fs = facts("$ pip list | grep -w torch\ntorch 2.10.0\n");
        assert!(!missing(&fs, "torch-npu"), "-w torch matches torch-npu but not torch_npu");
        let fs = facts("$ pip list | grep torch_npu\n");
        assert!(!missing(&fs, "torch-npu"), "torch-npu would print as torch-npu, which torch_npu does not match");
        let fs = facts("$ pip freeze\ntorch==2.7.1\ntorch-npu==2.7.1rc1\n");
        assert_eq!(pkg(&fs, "torch-npu").as_deref(), Some("2.7.1rc1"));
        let fs = facts("$ pip show torch_npu\nWARNING: Package(s) not found: torch_npu\n");
        assert!(missing(&fs, "torch-npu"));
        let fs = facts("$ pip show torch torch_npu\nName: torch\nVersion: 2.10.0\nSummary: x\n---\nName: torch_npu\nVersion: 2.10.0.post4\n");
        assert_eq!(pkg(&fs, "torch-npu").as_deref(), Some("2.10.0.post4"));
        assert!(!fs.iter().any(|f| f.name == "pip.listing"));
    }

    #[test]
    fn scores() {
        assert_eq!(super::score(&segment("Package Version\n------- -------\ntorch 2.1\n")[0]), 95);
        // Nothing but rows of the stack: sure enough to stand apart from prose.
        assert_eq!(super::score(&segment("torch              2.10.0\ntorch-npu          2.10.0.post4\n")[0]), 75);
        assert_eq!(super::score(&segment("## 第一种版本\ntorch  2.3.1\ntorch-npu  2.2.0\n")[0]), 75);
        assert_eq!(super::score(&segment("- `torch`: `2.12.0`\n- `torch_npu`: `2.8.0.post2`\n")[0]), 75);
        // Mostly rows: a list, but not one to split from its neighbours.
        let mostly = "torch 2.1.0\ntorch-npu 2.1.0\nnumpy 1.26.4\nray 2.40.0\nvllm 0.9.1\nvllm-ascend 0.9.1\ntransformers 4.52.0\naccelerate 1.0.0\ndeepspeed 0.16.0\ntriton 3.2.0\nsee above\n";
        assert_eq!(super::score(&segment(mostly)[0]), 60);
        assert_eq!(super::score(&segment("a==1\nb==2\ntorch==2.1.0\n")[0]), 85);
        assert_eq!(super::score(&segment("INFO 2025-01-01\nWARNING 12\n")[0]), 0);
        assert_eq!(super::score(&segment("Name: torch\nVersion: 2.1.0\nLocation: /usr\n")[0]), 85);
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,300}") {
            let _ = facts(&s);
            let _ = facts(&format!("$ pip list | grep {s}\n{s}"));
            let _ = facts(&format!("$ pip show x\nName: {s}\nVersion: {s}\n"));
        }
    }
}
