//! Environment variables: `env`, `printenv`, `export -p` / `declare -x`
//! listings, `export` lines, `env | grep …` filters, and `echo` output such
//! as the ROLL FAQ's `echo "RANK=$RANK WORLD_SIZE=$WORLD_SIZE …"`.
//!
//! ```text
//! $ env | grep -E "ASCEND|LD_LIBRARY_PATH"
//! ASCEND_HOME_PATH=/usr/local/Ascend/ascend-toolkit/latest
//! LD_LIBRARY_PATH=/usr/local/Ascend/driver/lib64/driver:/usr/local/Ascend/ascend-toolkit/latest/lib64
//! $ echo "RANK=$RANK WORLD_SIZE=$WORLD_SIZE MASTER_ADDR=$MASTER_ADDR"
//! RANK=1 WORLD_SIZE=2 MASTER_ADDR=
//! $ echo $ASCEND_HOME_PATH
//!
//! ```
//!
//! Every variable shown gives `env.var` (subject = name). A full listing
//! (`env`, `printenv`, `export -p`, or a paste that is clearly a whole
//! environment) gives `env.listing`. `env.unset` (subject = name) says a
//! variable is unset or empty: shown empty, printed blank by `echo $VAR` /
//! `printenv VAR`, or — for the variables in [`WATCHED`] — absent from a full
//! listing or from a `grep` filter that would have shown it.
//!
//! ```
//! let r = roll_doctor_engine::diagnose("$ echo $ASCEND_HOME_PATH\n\n$ ls\n");
//! assert!(r.findings.iter().any(|f| f.id == "cann-env-not-sourced"));
//! ```

use super::docker_run::{shell_words, Word};
use super::FactSink;
use crate::facts::{FactDef, FactValue, ValueType};
use crate::segment::{Line, Segment};
use regex::{Regex, RegexBuilder};
use std::collections::BTreeMap;

/// Facts this parser produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("env.listing", ValueType::Bool, None, "the segment is a full environment listing (`env`, `printenv`, `export -p`), so a variable missing from it is really unset (Bool true)"),
    FactDef::new("env.var", ValueType::Str, Some("variable"), "an environment variable; subject = its name, value = its value (Str); shared contract with the config checks"),
    FactDef::new("env.unset", ValueType::Bool, Some("variable"), "a variable is unset or empty: shown empty, printed blank by `echo $VAR` / `printenv VAR`, or (for watched Ascend/HCCL/Ray variables) absent from a full listing or a grep that would have shown it (Bool true); subject = its name"),
];

/// How strongly a command names this kind.
pub fn command(cmd: &str) -> u8 {
    match super::first_word(cmd) {
        "env" | "printenv" | "export" => 90,
        "echo" if cmd.contains('$') => 80,
        _ => 0,
    }
}

/// Variables whose absence from a listing is reported as `env.unset`.
pub const WATCHED: &[&str] = &[
    "ASCEND_HOME_PATH",
    "ASCEND_TOOLKIT_HOME",
    "ASCEND_OPP_PATH",
    "LD_LIBRARY_PATH",
    "ACL_OP_COMPILER_CACHE_MODE",
    "HCCL_NPU_SOCKET_PORT_RANGE",
    "HCCL_CONNECT_TIMEOUT",
    "HCCL_EXEC_TIMEOUT",
    "HCCL_SOCKET_IFNAME",
    "HCCL_IF_IP",
    "HCCL_IF_BASE_PORT",
    "MASTER_ADDR",
    "MASTER_PORT",
    "RANK",
    "WORLD_SIZE",
    "VLLM_ASCEND_ENABLE_NZ",
    "ASCEND_RT_VISIBLE_DEVICES",
];

fn is_name(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `NAME=value` → (name, value); `None` unless NAME is a variable name and
/// the value does not start with `=` (that is `pip freeze`).
fn pair(s: &str) -> Option<(&str, &str)> {
    let (n, v) = s.split_once('=')?;
    (is_name(n) && !v.starts_with('=')).then_some((n, v))
}

/// An `export NAME=value` line (a launch script pasted inside a log):
/// the variable and its value. A value that is itself another variable or
/// a command substitution (`$HOST_IP`, `$(hostname -I)`) says nothing.
pub(crate) fn export_line(t: &str) -> Option<(String, String)> {
    let (n, v) = pair(t.trim().strip_prefix("export ")?.trim())?;
    let v = unquote(v.split(" #").next().unwrap_or(v));
    (!v.contains('$') && !v.contains('`')).then(|| (n.to_string(), v))
}

fn unquote(v: &str) -> String {
    let v = v.trim();
    for q in ['"', '\''] {
        if v.len() >= 2 && v.starts_with(q) && v.ends_with(q) {
            let inner = &v[1..v.len() - 1];
            return if q == '"' { inner.replace("\\\"", "\"").replace("\\\\", "\\") } else { inner.to_string() };
        }
    }
    v.to_string()
}

/// One output line as variables: `declare -x`, `export`, one `NAME=value`,
/// or several `NAME=value` pairs separated by blanks (when `split`).
fn line_vars(t: &str, split: bool) -> Vec<(String, String)> {
    line_pairs(t, split).into_iter().map(|(n, v)| (n.to_string(), unquote(v))).collect()
}

/// [`line_vars`] before unquoting: borrowed names and raw values (a name
/// alone has an empty value). Detection only counts them, and allocates
/// nothing for a line that is not one.
fn line_pairs(t: &str, split: bool) -> Vec<(&str, &str)> {
    let t = t.trim();
    let body = t
        .strip_prefix("declare -x ")
        .or_else(|| t.strip_prefix("declare -rx "))
        .or_else(|| t.strip_prefix("export "))
        .or_else(|| t.strip_prefix("setenv "));
    if let Some(b) = body {
        let b = b.trim();
        if let Some(p) = pair(b) {
            return vec![p];
        }
        if is_name(b) {
            return vec![(b, "")];
        }
        return Vec::new();
    }
    if split {
        let mut words = 0;
        if t.split_whitespace().all(|w| {
            words += 1;
            pair(w).is_some()
        }) && words >= 2
        {
            return t.split_whitespace().filter_map(pair).collect();
        }
    }
    pair(t).into_iter().collect()
}

/// How much `seg` looks like this input when no command named it (0–100).
pub fn score(seg: &Segment) -> u8 {
    let mut total = 0usize;
    let mut like = 0usize;
    let mut multi = false;
    for l in seg.lines.iter().take(500) {
        let t = l.text.trim();
        if t.is_empty() {
            continue;
        }
        total += 1;
        let vars = line_pairs(t, true).len();
        if vars > 0 {
            like += 1;
            multi |= vars >= 2;
        }
    }
    if total == 0 {
        return 0;
    }
    if like >= 3 && like * 100 / total >= 80 {
        85
    } else if total <= 2 && like == total && multi {
        60
    } else {
        0
    }
}

/// What the command that printed the segment was.
enum Mode {
    /// A full listing (`env`, `printenv`, `export -p`, `declare -x`).
    Listing,
    /// A listing filtered through `grep` patterns (all must match a shown line).
    Filtered(Vec<Regex>),
    /// `echo $VAR` / `printenv VAR`: the output is VAR's value.
    Single(String),
    /// `echo …`: pairs on one line.
    Echo,
    /// Something else (`export X=1` typed, no command): read what is there.
    Plain,
}

fn stages(words: &[Word]) -> Vec<Vec<&str>> {
    let mut out: Vec<Vec<&str>> = vec![Vec::new()];
    for w in words {
        if w.op {
            if w.text == "|" {
                out.push(Vec::new());
            } else {
                // `;`, `&&`: a second command — only the first is understood.
                break;
            }
        } else if let Some(last) = out.last_mut() {
            last.push(w.text.as_str());
        }
    }
    out
}

/// A `grep` stage as a regex over `NAME=value` lines; `None` if it cannot
/// be read (inverted, counting, unknown options, bad pattern).
fn grep_regex(stage: &[&str]) -> Option<Regex> {
    let tool = *stage.first()?;
    let mut extended = tool == "egrep";
    let mut fixed = tool == "fgrep";
    let mut icase = false;
    let mut word = false;
    let mut patterns: Vec<String> = Vec::new();
    let mut it = stage.iter().skip(1);
    while let Some(w) = it.next() {
        if *w == "-e" {
            patterns.push(it.next()?.to_string());
        } else if let Some(flags) = w.strip_prefix("--") {
            if flags.starts_with("color") {
                continue;
            }
            match flags {
                "extended-regexp" => extended = true,
                "ignore-case" => icase = true,
                "fixed-strings" => fixed = true,
                _ => return None,
            }
        } else if let Some(flags) = w.strip_prefix('-').filter(|f| !f.is_empty()) {
            for c in flags.chars() {
                match c {
                    'E' => extended = true,
                    'i' => icase = true,
                    'F' => fixed = true,
                    'w' => word = true,
                    'a' | 's' | 'n' | 'H' | 'h' => {}
                    _ => return None,
                }
            }
        } else {
            patterns.push(w.to_string());
        }
    }
    if patterns.is_empty() {
        return None;
    }
    let alts: Vec<String> = patterns
        .iter()
        .map(|p| {
            if fixed {
                regex::escape(p)
            } else if extended {
                p.clone()
            } else {
                p.replace("\\|", "|").replace("\\(", "(").replace("\\)", ")")
            }
        })
        .collect();
    let alt = alts.join("|");
    // -w: the match must not touch a word character (`_` included) on either side.
    let pat = if word { format!(r"(?:^|[^0-9A-Za-z_])(?:{alt})(?:[^0-9A-Za-z_]|$)") } else { alt };
    RegexBuilder::new(&pat).case_insensitive(icase).size_limit(1 << 20).build().ok()
}

fn mode_of(cmd: Option<&str>) -> Mode {
    let Some(cmd) = cmd else { return Mode::Plain };
    let words = shell_words(&[(0, cmd)]);
    let st = stages(&words);
    let Some(first) = st.first() else { return Mode::Plain };
    let first: Vec<&str> = first.iter().copied().skip_while(|w| *w == "sudo").collect();
    let listing = match first.as_slice() {
        ["env"] | ["printenv"] | ["export"] | ["export", "-p"] | ["declare", "-x"] | ["declare", "-px"] => true,
        ["printenv", var] | ["echo", var] => {
            let v = var.trim_start_matches('$').trim_start_matches('{').trim_end_matches('}');
            if st.len() == 1 && var.starts_with('$') == (first[0] == "echo") && is_name(v) {
                return Mode::Single(v.to_string());
            }
            false
        }
        _ => false,
    };
    if first.first() == Some(&"echo") {
        return Mode::Echo;
    }
    if !listing {
        return Mode::Plain;
    }
    let mut greps = Vec::new();
    for stage in st.iter().skip(1) {
        match stage.first().copied() {
            Some("grep" | "egrep" | "fgrep") => match grep_regex(stage) {
                Some(r) => greps.push(r),
                None => return Mode::Plain,
            },
            Some("sort" | "less" | "more" | "cat") => {}
            _ => return Mode::Plain,
        }
    }
    if greps.is_empty() {
        Mode::Listing
    } else {
        Mode::Filtered(greps)
    }
}

/// Parses one segment.
pub fn parse(seg: &Segment, sink: &mut FactSink<'_>) {
    let mode = mode_of(seg.command.as_deref());
    let cmd_line = match (&seg.command, seg.command_line) {
        (Some(c), Some(no)) => Some(Line { no, text: c.clone() }),
        _ => None,
    };
    let anchor = cmd_line.clone().or_else(|| seg.lines.first().cloned());

    if let Mode::Single(var) = &mode {
        let first = seg.lines.iter().find(|l| !l.text.trim().is_empty());
        match first {
            Some(l) => {
                let v = l.text.trim().to_string();
                sink.push("env.var", Some(var.clone()), FactValue::Str(v), l);
            }
            None => {
                if let Some(a) = &anchor {
                    sink.push("env.var", Some(var.clone()), FactValue::Str(String::new()), a);
                    sink.push("env.unset", Some(var.clone()), FactValue::Bool(true), a);
                }
            }
        }
        return;
    }

    let split = !matches!(mode, Mode::Listing | Mode::Filtered(_));
    let mut seen: BTreeMap<String, ()> = BTreeMap::new();
    // A script that sets a variable twice (`export HCCL_CONNECT_TIMEOUT=7200`
    // and later `=1800`, verl#4200) runs with the last value: one segment is
    // one shell, so only the last assignment of each name is a fact.
    let mut assigned: Vec<(String, String, &Line)> = Vec::new();
    let mut last: BTreeMap<String, usize> = BTreeMap::new();
    for line in &seg.lines {
        for (name, value) in line_vars(&line.text, split) {
            last.insert(name.clone(), assigned.len());
            assigned.push((name, value, line));
        }
    }
    for (i, (name, value, line)) in assigned.into_iter().enumerate() {
        if last.get(&name) != Some(&i) {
            continue;
        }
        if value.is_empty() {
            sink.push("env.unset", Some(name.clone()), FactValue::Bool(true), line);
        }
        sink.push("env.var", Some(name.clone()), FactValue::Str(value), line);
        seen.insert(name, ());
    }

    let full = match &mode {
        Mode::Listing => true,
        Mode::Plain if seg.command.is_none() => {
            let has = |n: &str| seen.contains_key(n);
            seen.len() >= 10
                && has("PATH")
                && has("HOME")
                && (has("PWD") || has("SHELL") || has("USER") || has("HOSTNAME"))
        }
        _ => false,
    };
    let Some(anchor) = anchor else { return };
    if full {
        sink.push("env.listing", None, FactValue::Bool(true), &anchor);
    }
    for w in WATCHED {
        if seen.contains_key(*w) {
            continue;
        }
        let shown_if_set = match &mode {
            _ if full => true,
            Mode::Filtered(greps) => greps.iter().all(|g| g.is_match(&format!("{w}="))),
            _ => false,
        };
        if shown_if_set {
            sink.push("env.unset", Some(w.to_string()), FactValue::Bool(true), &anchor);
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

    fn var(fs: &[Fact], name: &str) -> Option<String> {
        fs.iter().find(|f| f.name == "env.var" && f.subject.as_deref() == Some(name)).map(|f| f.value.to_text())
    }

    fn unset(fs: &[Fact], name: &str) -> bool {
        fs.iter().any(|f| f.name == "env.unset" && f.subject.as_deref() == Some(name))
    }

    #[test]
    fn env_listing() {
        let fs = facts("$ env\nPATH=/usr/bin\nHOME=/root\nLESSOPEN=| /usr/bin/lesspipe %s\nA=b=c\n");
        assert_eq!(var(&fs, "LESSOPEN").as_deref(), Some("| /usr/bin/lesspipe %s"));
        assert_eq!(var(&fs, "A").as_deref(), Some("b=c"));
        assert!(fs.iter().any(|f| f.name == "env.listing" && f.line() == 1));
        assert!(unset(&fs, "ASCEND_HOME_PATH"));
        let l = fs.iter().find(|f| f.subject.as_deref() == Some("HOME")).unwrap();
        assert_eq!(l.line(), 3);
    }

    #[test]
    fn a_variable_set_twice_has_its_last_value() {
        // verl#4200's launch script sets HCCL_CONNECT_TIMEOUT to 7200, then 1800.
        let fs = facts(
            "export HCCL_CONNECT_TIMEOUT=7200\nexport HCCL_EXEC_TIMEOUT=7200\nexport HCCL_CONNECT_TIMEOUT=1800\n",
        );
        let all: Vec<&Fact> =
            fs.iter().filter(|f| f.name == "env.var" && f.subject.as_deref() == Some("HCCL_CONNECT_TIMEOUT")).collect();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].value.to_text(), "1800");
        assert_eq!(all[0].line(), 3);
    }

    #[test]
    fn declare_and_export() {
        let fs = facts(
            "$ export -p\ndeclare -x ASCEND_HOME_PATH=\"/usr/local/Ascend/ascend-toolkit/latest\"\ndeclare -x OLDPWD\n",
        );
        assert_eq!(var(&fs, "ASCEND_HOME_PATH").as_deref(), Some("/usr/local/Ascend/ascend-toolkit/latest"));
        assert!(unset(&fs, "OLDPWD"));
        let fs = facts("export HCCL_CONNECT_TIMEOUT=3600\nexport HCCL_EXEC_TIMEOUT='3600'\nexport VLLM_USE_V1=1\n");
        assert_eq!(var(&fs, "HCCL_EXEC_TIMEOUT").as_deref(), Some("3600"));
        assert!(!fs.iter().any(|f| f.name == "env.listing"));
        assert!(!unset(&fs, "ASCEND_HOME_PATH"));
    }

    #[test]
    fn echo_pairs_and_single() {
        let fs = facts("$ echo \"RANK=$RANK WORLD_SIZE=$WORLD_SIZE MASTER_ADDR=$MASTER_ADDR MASTER_PORT=$MASTER_PORT\"\nRANK=1 WORLD_SIZE=2 MASTER_ADDR= MASTER_PORT=6379\n");
        assert_eq!(var(&fs, "RANK").as_deref(), Some("1"));
        assert_eq!(var(&fs, "MASTER_PORT").as_deref(), Some("6379"));
        assert!(unset(&fs, "MASTER_ADDR"));
        let fs = facts("$ echo $ASCEND_HOME_PATH\n\n$ ls\n");
        assert!(unset(&fs, "ASCEND_HOME_PATH"));
        let fs = facts("$ echo ${ASCEND_HOME_PATH}\n/usr/local/Ascend/ascend-toolkit/latest\n");
        assert_eq!(var(&fs, "ASCEND_HOME_PATH").as_deref(), Some("/usr/local/Ascend/ascend-toolkit/latest"));
        assert!(!unset(&fs, "ASCEND_HOME_PATH"));
        let fs = facts("$ printenv LD_LIBRARY_PATH\n/usr/local/Ascend/driver/lib64\n");
        assert_eq!(var(&fs, "LD_LIBRARY_PATH").as_deref(), Some("/usr/local/Ascend/driver/lib64"));
    }

    #[test]
    fn grep_filters() {
        let fs = facts("$ env | grep -E \"ASCEND|LD_LIBRARY_PATH|PATH\"\nPATH=/usr/bin\nLD_LIBRARY_PATH=/usr/lib\n");
        assert!(unset(&fs, "ASCEND_HOME_PATH"));
        assert!(!unset(&fs, "HCCL_IF_IP"));
        assert!(!fs.iter().any(|f| f.name == "env.listing"));
        let fs = facts("$ env | grep -i ascend\nASCEND_HOME_PATH=/x\n");
        assert!(!unset(&fs, "ASCEND_HOME_PATH"));
        assert!(unset(&fs, "ASCEND_OPP_PATH"));
        let fs = facts("$ env | grep -w PATH\nPATH=/usr/bin\n");
        assert!(!unset(&fs, "LD_LIBRARY_PATH"));
        let fs = facts("$ env | grep -v ASCEND\nPATH=/usr/bin\n");
        assert!(!unset(&fs, "ASCEND_HOME_PATH"));
        let fs = facts("$ env | grep 'ASCEND_HOME\\|LD_LIB'\n");
        assert!(unset(&fs, "ASCEND_HOME_PATH") && unset(&fs, "LD_LIBRARY_PATH") && !unset(&fs, "HCCL_IF_IP"));
    }

    #[test]
    fn unprompted_dump_and_score() {
        let text = "PATH=/usr/bin\nHOME=/root\nPWD=/root\nSHELL=/bin/bash\nA=1\nB=2\nC=3\nD=4\nE=5\nF=6\n";
        let segs = segment(text);
        assert!(super::score(&segs[0]) >= 80);
        let fs = facts(text);
        assert!(fs.iter().any(|f| f.name == "env.listing"));
        assert_eq!(super::score(&segment("torch==2.10.0\nvllm==0.23.0\nray==2.48.0\n")[0]), 0);
        assert_eq!(super::score(&segment("RANK=0 WORLD_SIZE=2 MASTER_ADDR=10.0.0.1\n")[0]), 60);
        assert_eq!(super::score(&segment("[INFO] started\nsomething else\nX=1\n")[0]), 0);
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,300}") {
            let _ = facts(&s);
            let _ = facts(&format!("$ env | grep {s}\n{s}"));
            let _ = facts(&format!("$ echo {s}\n{s}"));
        }
    }
}
