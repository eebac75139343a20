//! A `docker run …` command line, possibly continued with `\` over several
//! lines, with or without a prompt (the prompt's line is the segment's
//! `command`; the continuation lines are the segment's lines), and the
//! `docker: Error response from daemon: …` that may follow it.
//!
//! ```text
//! docker run -dit \
//!     --ulimit nofile=65536:65536 \
//!     --device /dev/davinci0 \
//!     --device /dev/davinci_manager --device /dev/devmm_svm --device /dev/hisi_hdc \
//!     -v /usr/local/Ascend/driver:/usr/local/Ascend/driver \
//!     -v /usr/local/dcmi:/usr/local/dcmi \
//!     --net=host \
//!     roll:v0.3-cann9.1.0-torch_npu2.10.0.post4-910b-ubuntu22.04-py3.12 /bin/bash
//! ```
//!
//! Facts: `docker.image`, `docker.image_platform`, `docker.device`,
//! `docker.davinci_count`, `docker.npu_access`, `docker.privileged`,
//! `docker.missing_device`, `docker.missing_mount`, `docker.volume`,
//! `docker.env`, `docker.ulimit_nofile`, `docker.shm_size_mb`,
//! `docker.ipc_host`, `docker.network_host`, `docker.error`. Each cites the
//! line its option is on.
//!
//! ```
//! let r = roll_doctor_engine::diagnose("docker run -it --ulimit nofile=1024:1024 roll:main-a2 bash\n");
//! assert!(r.findings.iter().any(|f| f.id == "ulimit-too-low"));
//! ```

use super::FactSink;
use crate::facts::{FactDef, FactValue, ValueType};
use crate::segment::{Line, Segment};

/// Facts this parser produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("docker.image", ValueType::Str, None, "image of a `docker run` (Str)"),
    FactDef::new("docker.image_platform", ValueType::Str, None, "hardware the image tag is built for (Str: A2 for `-910b-`/`main-a2`/`ascend-a2`, A3 for `-a3-`, 310P)"),
    FactDef::new("docker.device", ValueType::Str, Some("device path"), "a `--device` mapped into the container (Str host path); subject = the path"),
    FactDef::new("docker.davinci_count", ValueType::Int, None, "number of `/dev/davinciN` NPU devices a `docker run` maps (Int)"),
    FactDef::new("docker.npu_access", ValueType::Str, None, "how the container gets NPUs (Str: privileged, ascend-runtime (`ASCEND_VISIBLE_DEVICES`/`--runtime ascend`), devices, nvidia (`--gpus`, `--runtime nvidia` or a CUDA image, and no NPU device: a GPU container), none)"),
    FactDef::new("docker.privileged", ValueType::Bool, None, "the container runs `--privileged` (Bool true)"),
    FactDef::new("docker.missing_device", ValueType::Str, Some("device path"), "an NPU device the container needs but `docker run` does not map (Str); subject = the path (`/dev/davinci_manager`, `/dev/devmm_svm`, `/dev/hisi_hdc`, or `/dev/davinciN` when none is mapped)"),
    FactDef::new("docker.missing_mount", ValueType::Str, Some("host path"), "a host driver path the container needs but `docker run` does not mount (Str); subject = the path (`/usr/local/Ascend/driver`; a user's answer may name `/usr/local/Ascend/add-ons` or `/usr/local/dcmi`)"),
    FactDef::new("docker.volume", ValueType::Str, Some("container path"), "a `-v`/`--mount` bind; subject = the container path, value = the host path (Str)"),
    FactDef::new("docker.env", ValueType::Str, Some("variable"), "a `-e NAME=value` of `docker run`; subject = the name, value Str"),
    FactDef::new("docker.ulimit_nofile", ValueType::Int, None, "soft open-file limit from `--ulimit nofile=SOFT[:HARD]` (Int; -1/unlimited = i64::MAX)"),
    FactDef::new("docker.shm_size_mb", ValueType::Int, None, "`--shm-size` in MB (Int)"),
    FactDef::new("docker.ipc_host", ValueType::Bool, None, "`--ipc=host` (Bool true)"),
    FactDef::new("docker.network_host", ValueType::Bool, None, "`--network host` / `--net=host` (Bool true)"),
    FactDef::new("docker.error", ValueType::Str, None, "a `docker: Error response from daemon: …` line after the command (Str)"),
];

/// How strongly a command names this kind.
pub fn command(cmd: &str) -> u8 {
    if super::first_word(cmd) == "docker" && cmd.contains(" run") {
        95
    } else {
        0
    }
}

/// A word of a shell command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Word {
    /// The word with quotes removed (no expansion).
    pub text: String,
    /// An operator (`|`, `||`, `&&`, `;`, `&`) rather than a word.
    pub op: bool,
    /// Tag of the piece the word starts in.
    pub piece: usize,
}

/// Splits shell text into words: quotes (`'…'`, `"…"`), backslash escapes,
/// operators and `#` comments. Each piece is one physical line with its tag;
/// a trailing `\` continues the word list on the next piece. Never fails:
/// an unclosed quote ends at the end of the text.
pub(crate) fn shell_words(pieces: &[(usize, &str)]) -> Vec<Word> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut cur_piece = 0usize;
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for &(tag, text) in pieces {
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(q) = quote {
                if c == q {
                    quote = None;
                } else if q == '"' && c == '\\' {
                    match chars.peek().copied() {
                        Some(n @ ('"' | '\\' | '$' | '`')) => {
                            cur.push(n);
                            chars.next();
                        }
                        _ => cur.push(c),
                    }
                } else {
                    cur.push(c);
                }
                continue;
            }
            match c {
                '\'' | '"' => {
                    if !in_word {
                        in_word = true;
                        cur_piece = tag;
                    }
                    quote = Some(c);
                }
                '\\' => {
                    // A trailing backslash is a line continuation, also with blanks
                    // after it: a shell would read `\ ` as an escaped space, but in a
                    // paste they are what the web form or editor left behind. (The
                    // look-ahead stops at the first non-blank, so it stays linear.)
                    if chars.clone().all(|c| c == ' ' || c == '\t') {
                        break;
                    }
                    if let Some(n) = chars.next() {
                        if !in_word {
                            in_word = true;
                            cur_piece = tag;
                        }
                        cur.push(n);
                    }
                }
                ' ' | '\t' => {
                    if in_word {
                        out.push(Word { text: std::mem::take(&mut cur), op: false, piece: cur_piece });
                        in_word = false;
                    }
                }
                '#' if !in_word => break,
                '|' | '&' | ';' => {
                    if in_word {
                        out.push(Word { text: std::mem::take(&mut cur), op: false, piece: cur_piece });
                        in_word = false;
                    }
                    let mut op = c.to_string();
                    if c != ';' && chars.peek() == Some(&c) {
                        chars.next();
                        op.push(c);
                    }
                    out.push(Word { text: op, op: true, piece: tag });
                }
                _ => {
                    if !in_word {
                        in_word = true;
                        cur_piece = tag;
                    }
                    cur.push(c);
                }
            }
        }
        if quote.is_some() {
            cur.push('\n');
        } else if in_word && !text.trim_end().ends_with('\\') {
            out.push(Word { text: std::mem::take(&mut cur), op: false, piece: cur_piece });
            in_word = false;
        }
    }
    if in_word || !cur.is_empty() {
        out.push(Word { text: cur, op: false, piece: cur_piece });
    }
    out
}

/// Options of `docker run` that take a value in the next word.
const VALUE_OPTS: &[&str] = &[
    "--name",
    "-v",
    "--volume",
    "--mount",
    "-e",
    "--env",
    "--env-file",
    "--device",
    "--ulimit",
    "--shm-size",
    "--network",
    "--net",
    "--ipc",
    "-w",
    "--workdir",
    "-p",
    "--publish",
    "--entrypoint",
    "-u",
    "--user",
    "--cpus",
    "-m",
    "--memory",
    "--runtime",
    "--label",
    "-l",
    "--hostname",
    "-h",
    "--add-host",
    "--cap-add",
    "--cap-drop",
    "--security-opt",
    "--pid",
    "--gpus",
    "--restart",
    "--log-driver",
    "--log-opt",
    "--memory-swap",
    "--cpuset-cpus",
    "--platform",
    "--pull",
    "--dns",
    "--group-add",
    "--tmpfs",
    "--device-cgroup-rule",
    "--uts",
    "--userns",
    "--cgroupns",
    "--storage-opt",
    "--sysctl",
    "--ip",
    "--link",
    "--volumes-from",
    "--cidfile",
    "--expose",
    "-a",
    "--attach",
    "--cpu-shares",
    "-c",
    "--memory-reservation",
    "--network-alias",
    "--stop-signal",
    "--stop-timeout",
    "--health-cmd",
    "--oom-score-adj",
    "--mac-address",
    "--label-file",
    "--cgroup-parent",
    "--annotation",
];

/// Management devices every non-privileged NPU container needs.
const MANAGER_DEVICES: &[&str] = &["/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc"];
/// Host driver paths the container needs mounted. Only the driver: without
/// `/usr/local/dcmi` the NPUs still work (the runtime loads the driver's
/// `libascend_hal.so`); only npu-smi and other DCMI users in the container
/// fail, with errors of their own that the rules read. MindIE's and
/// lmdeploy's published `docker run` commands leave it out.
const DRIVER_MOUNTS: &[&str] = &["/usr/local/Ascend/driver"];

fn is_docker_run(words: &[&str]) -> Option<usize> {
    let mut i = 0;
    while words.get(i).is_some_and(|w| *w == "sudo" || w.starts_with('-') && i > 0 && words[i - 1] == "sudo") {
        i += 1;
    }
    let tool = words.get(i)?;
    if !(tool.ends_with("docker") || *tool == "podman" || *tool == "nerdctl" || *tool == "isula") {
        return None;
    }
    match (words.get(i + 1).copied(), words.get(i + 2).copied()) {
        (Some("run"), _) => Some(i + 2),
        (Some("container"), Some("run")) => Some(i + 3),
        _ => None,
    }
}

fn starts_run(t: &str) -> bool {
    let t = t.trim_start();
    let t = t.strip_prefix("sudo ").unwrap_or(t).trim_start();
    ["docker run", "docker container run", "podman run", "nerdctl run", "isula run"].iter().any(|p| t.starts_with(p))
}

/// Where a block read as a `docker run` splits (for [`Segment::split_where`]):
/// before the command when other text comes first (the sentence that
/// introduces it), and after the command's last continuation line when other
/// text follows (what it printed, the error the user asks about); Docker's
/// own `docker: …` lines stay with the command, as does a second command
/// right after the first. The text apart from the command is then scanned
/// like any other, which a `docker run` is not.
pub fn command_boundaries() -> impl FnMut(&str) -> bool {
    // Whether the previous line was the command's (none before the first line).
    let mut in_command: Option<bool> = None;
    let mut continued = false;
    move |line: &str| {
        let t = line.trim();
        if continued {
            continued = t.ends_with('\\');
            return false;
        }
        let is_command = if starts_run(t) {
            continued = t.ends_with('\\');
            true
        } else {
            t.starts_with("docker: ") && in_command == Some(true)
        };
        in_command.replace(is_command).is_some_and(|was| was != is_command)
    }
}

/// How much `seg` looks like this input when no command named it (0–100):
/// high only when the `docker run` command makes up most of the segment,
/// so a log that merely contains one is still scanned as a log.
pub fn score(seg: &Segment) -> u8 {
    let mut counted = 0usize;
    let mut covered = 0usize;
    let mut first = true;
    let mut found_first = false;
    let mut cont = false;
    for l in &seg.lines {
        let t = l.text.trim();
        // A launch script's shebang, comments and variable assignments around the command say
        // nothing of its kind either way (`# For Atlas A2:`, `export IMAGE=…` above `docker run`).
        if t.is_empty() || (!cont && script_line(t)) {
            continue;
        }
        counted += 1;
        if cont || starts_run(t) {
            if starts_run(t) && first {
                found_first = true;
            }
            covered += 1;
            cont = t.ends_with('\\');
        } else if t.starts_with("docker: ") {
            covered += 1;
        }
        first = false;
    }
    if covered == 0 {
        return 0;
    }
    let ratio = covered * 100 / counted;
    match (ratio, found_first) {
        (r, true) if r >= 60 => 90,
        (r, false) if r >= 60 => 80,
        _ => 30,
    }
}

/// A shell script's line that is neither command output nor prose: `#!…`, a `# comment`, or a
/// variable assignment (`export NAME=…`, `NAME=…`).
fn script_line(t: &str) -> bool {
    if t.starts_with('#') {
        return true;
    }
    let t = t.strip_prefix("export ").map(str::trim_start).unwrap_or(t);
    match t.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !name.as_bytes()[0].is_ascii_digit()
        }
        None => false,
    }
}

struct Run<'a> {
    words: Vec<Word>,
    lines: &'a [Line],
    /// The input ends inside the command: its last line ends in `\`.
    cut: bool,
}

impl Run<'_> {
    fn line(&self, w: &Word) -> &Line {
        self.lines.get(w.piece).or_else(|| self.lines.first()).expect("a run has at least one line")
    }
}

fn mb(size: &str) -> Option<i64> {
    let s = size.trim().to_ascii_lowercase();
    let s = s.strip_suffix('b').unwrap_or(&s);
    let (num, mult) = match s.chars().last()? {
        'k' => (&s[..s.len() - 1], 1.0 / 1024.0),
        'm' => (&s[..s.len() - 1], 1.0),
        'g' => (&s[..s.len() - 1], 1024.0),
        't' => (&s[..s.len() - 1], 1024.0 * 1024.0),
        _ => (s, 1.0 / (1024.0 * 1024.0)),
    };
    let n: f64 = num.parse().ok()?;
    Some((n * mult).round() as i64)
}

fn nofile(v: &str) -> Option<i64> {
    let rest = v.strip_prefix("nofile=")?;
    let soft = rest.split(':').next()?;
    if soft == "-1" || soft == "unlimited" {
        return Some(i64::MAX);
    }
    soft.parse().ok()
}

/// Does a bind whose container path is `target` provide `need`? A bind of
/// the path itself, of a parent (`/usr/local/Ascend`), or of a part of it
/// (`/usr/local/Ascend/driver/lib64`) counts.
fn covers(target: &str, need: &str) -> bool {
    let t = target.trim_end_matches('/');
    let n = need.trim_end_matches('/');
    t == n || n.starts_with(&format!("{t}/")) || t.starts_with(&format!("{n}/"))
}

fn image_platform(image: &str) -> Option<&'static str> {
    let lower = image.to_ascii_lowercase();
    let tag = lower.rsplit('/').next().unwrap_or(&lower);
    let token = |t: &str| tag.split(['-', '_', ':', '.']).any(|p| p == t);
    if tag.contains("310p") {
        Some("310P")
    } else if token("a3") || tag.contains("910_93") || tag.contains("910c") {
        Some("A3")
    } else if token("a2") || tag.contains("910b") {
        Some("A2")
    } else {
        None
    }
}

fn ascend_name(name: &str) -> bool {
    let up = name.to_ascii_uppercase();
    // `NPU` as a part of the name (`NPU_VISIBLE_DEVICES`, `ENABLE_NPU`), not inside a word (`INPUT_DIR`).
    up.starts_with("ASCEND") || up.starts_with("HCCL_") || up.split('_').any(|p| p == "NPU")
}

/// Whether a `docker run` that maps no NPU shows it is meant for NPUs
/// anyway: an Ascend image (its name says `ascend`, `cann`, `npu`, `mindie`,
/// `mindspeed` or a chip), a management device, or a host driver path.
fn meant_for_npus(image: Option<&str>, devices: &[(String, Line)], binds: &[(String, String, Line)]) -> bool {
    let by_image = image.is_some_and(|img| {
        let lower = img.to_ascii_lowercase();
        image_platform(img).is_some()
            || ["ascend", "cann", "mindie", "mindspeed", "910", "310p"].iter().any(|k| lower.contains(k))
            || lower.split(['/', ':', '-', '_', '.']).any(|p| p == "npu")
    });
    let by_device = devices.iter().any(|(d, _)| d.starts_with("/dev/davinci") || MANAGER_DEVICES.contains(&d.as_str()));
    let by_mount = binds.iter().any(|(src, dst, _)| {
        [src, dst].iter().any(|p| ["Ascend", "dcmi", "npu-smi", "hccn", "davinci"].iter().any(|k| p.contains(k)))
    });
    by_image || by_device || by_mount
}

/// An image built for CUDA (`vllm:0.7.3-python3.11-cuda12.4-debian12`,
/// `nvidia/cuda:12.4.1-devel`): its tag or repository names CUDA.
fn cuda_image(image: &str) -> bool {
    let lower = image.to_ascii_lowercase();
    lower.split(['/', ':', '-', '_', '.']).any(|p| p.starts_with("cuda") || p == "nvidia")
}

fn parse_run(run: &Run<'_>, start: usize, sink: &mut FactSink<'_>) {
    let w = &run.words;
    let head = run.line(&w[start.saturating_sub(1).min(w.len() - 1)]).clone();
    let mut devices: Vec<(String, Line)> = Vec::new();
    let mut binds: Vec<(String, String, Line)> = Vec::new();
    let mut privileged = false;
    let mut runtime = false;
    // `--gpus` / `--runtime nvidia`: a CUDA container. Pastes from GPU hosts
    // share threads with Ascend ones; such a command lacks the NPU devices
    // by design, which is not this container's problem.
    let mut nvidia = false;
    // An `ASCEND_*` / `HCCL_*` / `NPU` variable passed in: the container is
    // meant for NPUs (see `meant_for_npus`).
    let mut ascend_env = false;
    let mut image: Option<(String, Line)> = None;
    // A `--device $DEVICE` (vLLM-Ascend's guides set `export DEVICE=/dev/davinci0` first): which
    // card it maps is not in the command, so a missing `/dev/davinciN` is not claimed.
    let mut expanded_device = false;
    let mut i = start;
    while i < w.len() {
        let word = &w[i];
        if word.op {
            break;
        }
        let t = word.text.as_str();
        if !t.starts_with('-') || t == "-" {
            image = Some((t.to_string(), run.line(word).clone()));
            break;
        }
        let (opt, inline) = match t.split_once('=') {
            Some((o, v)) if o.starts_with("--") || o.len() == 2 => (o, Some(v.to_string())),
            _ => (t, None),
        };
        // `-eFOO=bar`, `-v/a:/b`: short option glued to its value.
        let glued = match (opt.get(..2), opt.get(2..)) {
            (Some(o @ ("-e" | "-v" | "-p" | "-w" | "-u" | "-m")), Some(rest))
                if inline.is_none() && !rest.is_empty() =>
            {
                Some((o, rest.to_string()))
            }
            _ => None,
        };
        let (opt, inline) = match glued {
            Some((o, rest)) => (o, Some(rest)),
            None => (opt, inline),
        };
        let takes = VALUE_OPTS.contains(&opt);
        let (value, vline) = match (&inline, takes) {
            (Some(v), _) => (Some(v.clone()), run.line(word).clone()),
            (None, true) => {
                i += 1;
                match w.get(i).filter(|n| !n.op) {
                    Some(n) => (Some(n.text.clone()), run.line(n).clone()),
                    None => (None, run.line(word).clone()),
                }
            }
            (None, false) => (None, run.line(word).clone()),
        };
        i += 1;
        let v = value.as_deref().unwrap_or("");
        match opt {
            "--privileged" if !matches!(v, "false" | "0") => {
                privileged = true;
                sink.push("docker.privileged", None, FactValue::Bool(true), &vline);
            }
            "--device" if !v.is_empty() => {
                expanded_device |= v.contains('$');
                let host = v.split(':').next().unwrap_or(v).to_string();
                sink.push("docker.device", Some(host.clone()), FactValue::Str(host.clone()), &vline);
                devices.push((host, vline));
            }
            "-v" | "--volume" if !v.is_empty() => {
                let mut parts = v.split(':');
                let host = parts.next().unwrap_or("");
                if let Some(target) = parts.next() {
                    sink.push("docker.volume", Some(target.to_string()), FactValue::Str(host.to_string()), &vline);
                    binds.push((host.to_string(), target.to_string(), vline));
                }
            }
            "--mount" if !v.is_empty() => {
                let mut src = String::new();
                let mut dst = String::new();
                for kv in v.split(',') {
                    match kv.split_once('=') {
                        Some(("source" | "src", s)) => src = s.to_string(),
                        Some(("target" | "destination" | "dst", d)) => dst = d.to_string(),
                        _ => {}
                    }
                }
                if !dst.is_empty() {
                    sink.push("docker.volume", Some(dst.clone()), FactValue::Str(src.clone()), &vline);
                    binds.push((src, dst, vline));
                }
            }
            "-e" | "--env" if !v.is_empty() => {
                if let Some((n, val)) = v.split_once('=') {
                    if n == "ASCEND_VISIBLE_DEVICES" {
                        runtime = true;
                    }
                    ascend_env |= ascend_name(n);
                    sink.push("docker.env", Some(n.to_string()), FactValue::Str(val.to_string()), &vline);
                }
            }
            "--runtime" if v.to_ascii_lowercase().contains("ascend") => runtime = true,
            "--runtime" if v.to_ascii_lowercase().contains("nvidia") => nvidia = true,
            "--gpus" => nvidia = true,
            "--ulimit" => {
                if let Some(n) = nofile(v) {
                    sink.push("docker.ulimit_nofile", None, FactValue::Int(n), &vline);
                }
            }
            "--shm-size" => {
                if let Some(n) = mb(v) {
                    sink.push("docker.shm_size_mb", None, FactValue::Int(n), &vline);
                }
            }
            "--ipc" if v == "host" => sink.push("docker.ipc_host", None, FactValue::Bool(true), &vline),
            "--network" | "--net" if v == "host" => {
                sink.push("docker.network_host", None, FactValue::Bool(true), &vline)
            }
            _ => {}
        }
    }
    let davinci = devices
        .iter()
        .filter(|(d, _)| {
            d.strip_prefix("/dev/davinci").is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        })
        .count();
    sink.push("docker.davinci_count", None, FactValue::Int(davinci as i64), &head);
    let access = if privileged {
        "privileged"
    } else if runtime {
        "ascend-runtime"
    } else if davinci > 0 {
        "devices"
    } else if nvidia || image.as_ref().is_some_and(|(img, _)| cuda_image(img)) {
        "nvidia"
    } else {
        "none"
    };
    sink.push("docker.npu_access", None, FactValue::Str(access.into()), &head);
    if let Some((img, l)) = &image {
        sink.push("docker.image", None, FactValue::Str(img.clone()), l);
        if let Some(p) = image_platform(img) {
            sink.push("docker.image_platform", None, FactValue::Str(p.into()), l);
        }
    }
    if access == "nvidia" {
        return;
    }
    if access == "none" && !ascend_env && !meant_for_npus(image.as_ref().map(|(i, _)| i.as_str()), &devices, &binds) {
        // A container with no sign of NPUs at all (`rayproject/ray`, `ubuntu`,
        // a CPU-only Ray head pasted in a thread): what it lacks is not a
        // fault of this container, so nothing is said to be missing.
        return;
    }
    if run.cut {
        // The paste ends inside the command (its last line still asks for a continuation): what
        // the command lacks may be in the part not pasted.
        return;
    }
    if !privileged && !runtime {
        if davinci == 0 && !expanded_device {
            sink.push(
                "docker.missing_device",
                Some("/dev/davinciN".into()),
                FactValue::Str("no --device /dev/davinciN".into()),
                &head,
            );
        }
        for m in MANAGER_DEVICES {
            if !devices.iter().any(|(d, _)| d == m) {
                sink.push(
                    "docker.missing_device",
                    Some(m.to_string()),
                    FactValue::Str(format!("no --device {m}")),
                    &head,
                );
            }
        }
    }
    if !runtime {
        for m in DRIVER_MOUNTS {
            if !binds.iter().any(|(_, t, _)| covers(t, m)) {
                sink.push("docker.missing_mount", Some(m.to_string()), FactValue::Str(format!("no -v {m}:{m}")), &head);
            }
        }
    }
}

/// Parses one segment.
pub fn parse(seg: &Segment, sink: &mut FactSink<'_>) {
    // All lines, the prompt's command first (as its own line).
    let mut lines: Vec<Line> = Vec::with_capacity(seg.lines.len() + 1);
    if let Some(c) = &seg.command {
        lines.push(Line { no: seg.command_line.unwrap_or(0), text: c.clone() });
    }
    lines.extend(seg.lines.iter().cloned());
    let mut i = 0;
    while i < lines.len() {
        if !starts_run(&lines[i].text) {
            if let Some(e) = lines[i].text.trim().strip_prefix("docker: ") {
                sink.push("docker.error", None, FactValue::Str(e.to_string()), &lines[i]);
            }
            i += 1;
            continue;
        }
        // Collect the continued command.
        let mut j = i;
        while j + 1 < lines.len() && lines[j].text.trim_end().ends_with('\\') {
            j += 1;
        }
        let group = &lines[i..=j];
        let pieces: Vec<(usize, &str)> = group.iter().enumerate().map(|(k, l)| (k, l.text.as_str())).collect();
        let words = shell_words(&pieces);
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        if let Some(start) = is_docker_run(&texts) {
            if !words.is_empty() {
                // The continuation loop stops early only at a line without `\\`: one with it
                // is the input's last.
                let cut = lines[j].text.trim_end().ends_with('\\');
                parse_run(&Run { words, lines: group, cut }, start, sink);
            }
        }
        i = j + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::Fact;
    use crate::segment::segment;
    use proptest::prelude::*;

    fn facts(text: &str) -> Vec<Fact> {
        let mut out = Vec::new();
        for seg in segment(text).iter() {
            super::parse(seg, &mut FactSink::any(&mut out));
        }
        out
    }

    fn get<'a>(fs: &'a [Fact], name: &str) -> Vec<(&'a Option<String>, String, u32)> {
        fs.iter().filter(|f| f.name == name).map(|f| (&f.subject, f.value.to_text(), f.line())).collect()
    }

    const A2: &str = "docker run -dit \\
    --name roll_a2 \\
    --ulimit nofile=65536:65536 \\
    --device /dev/davinci0 \\
    --device /dev/davinci1 \\
    --device /dev/davinci_manager \\
    --device /dev/devmm_svm \\
    --device /dev/hisi_hdc \\
    -v /usr/local/Ascend/driver:/usr/local/Ascend/driver \\
    -v /usr/local/dcmi:/usr/local/dcmi \\
    --ipc=host \\
    --net=host \\
    roll:v0.3-cann9.1.0-torch_npu2.10.0.post4-910b-ubuntu22.04-py3.12 \\
    /bin/bash
";

    #[test]
    fn full_a2_command() {
        let fs = facts(A2);
        assert_eq!(get(&fs, "docker.davinci_count")[0].1, "2");
        assert_eq!(get(&fs, "docker.ulimit_nofile"), vec![(&None, "65536".into(), 3)]);
        assert_eq!(get(&fs, "docker.image_platform")[0].1, "A2");
        assert_eq!(get(&fs, "docker.image")[0].2, 13);
        assert_eq!(get(&fs, "docker.npu_access")[0].1, "devices");
        assert!(get(&fs, "docker.missing_device").is_empty());
        assert!(get(&fs, "docker.missing_mount").is_empty());
        assert_eq!(get(&fs, "docker.network_host").len(), 1);
        assert_eq!(get(&fs, "docker.ipc_host").len(), 1);
        assert_eq!(super::score(&segment(A2)[0]), 90);
    }

    #[test]
    fn a_container_without_usr_local_dcmi_lacks_nothing() {
        // MindIE's published command (privileged, no /dev/davinciN) and an
        // lmdeploy user's (every device): neither mounts /usr/local/dcmi.
        for t in [
            "docker run -it -d --net=host --shm-size=1g \\\n    --privileged \\\n    --device=/dev/davinci_manager \\\n    --device=/dev/hisi_hdc \\\n    --device=/dev/devmm_svm \\\n    -v /usr/local/Ascend/driver:/usr/local/Ascend/driver:ro \\\n    mindie:1.0.0-800I-A2-py311-openeuler24.03-lts bash\n",
            "docker run -it --device=/dev/davinci0 --device=/dev/davinci_manager --device=/dev/devmm_svm --device=/dev/hisi_hdc -v /usr/local/Ascend/driver:/usr/local/Ascend/driver openmmlab/lmdeploy:latest-a2\n",
        ] {
            let fs = facts(t);
            assert!(get(&fs, "docker.missing_device").is_empty() && get(&fs, "docker.missing_mount").is_empty(), "{t}");
        }
        let fs = facts("docker run -it --device=/dev/davinci0 --device=/dev/davinci_manager --device=/dev/devmm_svm --device=/dev/hisi_hdc openmmlab/lmdeploy:latest-a2\n");
        let mounts: Vec<_> = get(&fs, "docker.missing_mount").into_iter().map(|(s, _, _)| s.clone().unwrap()).collect();
        assert_eq!(mounts, ["/usr/local/Ascend/driver"]);
    }

    #[test]
    fn prompt_form_and_missing_pieces() {
        let t = "$ sudo docker run -it --shm-size=16g \\\n  -e ASCEND_RT_VISIBLE_DEVICES=0,1 --device=/dev/davinci0 \\\n  -v /usr/local/Ascend:/usr/local/Ascend quay.io/ascend/roll:main-a3 bash\ndocker: Error response from daemon: error gathering device information while adding custom device \"/dev/davinci8\": no such file or directory.\n";
        let fs = facts(t);
        assert_eq!(get(&fs, "docker.shm_size_mb")[0].1, "16384");
        assert_eq!(get(&fs, "docker.image_platform")[0].1, "A3");
        let missing: Vec<_> =
            get(&fs, "docker.missing_device").into_iter().map(|(s, _, _)| s.clone().unwrap()).collect();
        assert_eq!(missing, vec!["/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc"]);
        let mounts: Vec<_> = get(&fs, "docker.missing_mount").into_iter().map(|(s, _, _)| s.clone().unwrap()).collect();
        // The driver is under the mounted /usr/local/Ascend; /usr/local/dcmi is not required.
        assert!(mounts.is_empty(), "{mounts:?}");
        assert_eq!(get(&fs, "docker.env")[0].0.as_deref(), Some("ASCEND_RT_VISIBLE_DEVICES"));
        assert_eq!(get(&fs, "docker.env")[0].2, 2);
        assert_eq!(get(&fs, "docker.error")[0].2, 4);
    }

    #[test]
    fn a_device_from_a_variable_is_not_a_missing_card() {
        // vllm-project/vllm-ascend#864: `export DEVICE=/dev/davinci0` above, `--device $DEVICE` in
        // the command (the segmenter may put the export in another block).
        let t = "docker run --rm \\\n--device $DEVICE \\\n--device /dev/davinci_manager \\\n--device /dev/devmm_svm \\\n--device /dev/hisi_hdc \\\n-v /usr/local/Ascend/driver/lib64/:/usr/local/Ascend/driver/lib64/ \\\n-it $IMAGE bash\n";
        let fs = facts(t);
        assert!(get(&fs, "docker.missing_device").is_empty(), "{:?}", get(&fs, "docker.missing_device"));
        // A literal device list still names what it lacks.
        let fs = facts("docker run --rm --device /dev/davinci_manager -it $IMAGE bash\n");
        let missing: Vec<_> =
            get(&fs, "docker.missing_device").into_iter().map(|(s, _, _)| s.clone().unwrap()).collect();
        assert_eq!(missing, vec!["/dev/davinciN", "/dev/devmm_svm", "/dev/hisi_hdc"]);
    }

    #[test]
    fn a_paste_that_ends_inside_the_command_lacks_nothing() {
        // flagos-ai/vllm-plugin-FL#77 as stored: the paste ends on `--device /dev/davinci3 \`.
        let t = "docker run \\\n--name c \\\n--network host \\\n--privileged \\\n--device /dev/davinci1 \\\n--device /dev/davinci3 \\\n";
        let fs = facts(t);
        assert!(get(&fs, "docker.missing_mount").is_empty(), "{:?}", get(&fs, "docker.missing_mount"));
        assert_eq!(get(&fs, "docker.davinci_count")[0].1, "2");
        // The same command with its image names the mounts it lacks.
        let fs = facts(&format!("{t}img:latest bash\n"));
        assert!(!get(&fs, "docker.missing_mount").is_empty());
    }

    #[test]
    fn blanks_after_a_continuation_backslash() {
        // vllm-project/vllm-ascend#13399: `:ro \ ` with a space after the
        // backslash; the image on the next line is still the image.
        let t = "docker run -d \\\n  --device /dev/davinci3 \\\n  -v /home/model/m:/models/m:ro \\ \n  quay.nju.edu.cn/ascend/vllm-ascend:v0.23.0rc1-310p \\\n  sleep infinity\n";
        let fs = facts(t);
        assert_eq!(get(&fs, "docker.image")[0].1, "quay.nju.edu.cn/ascend/vllm-ascend:v0.23.0rc1-310p");
        assert_eq!(get(&fs, "docker.image_platform")[0].1, "310P");
        // An escaped space inside a word is still a space.
        let words = shell_words(&[(0, "echo a\\ b")]);
        assert_eq!(words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>(), vec!["echo", "a b"]);
    }

    #[test]
    fn a_gpu_container_is_not_missing_npu_devices() {
        // vllm-project/vllm#19543: a CUDA worker started with --gpus and the
        // NVIDIA runtime.
        for run in [
            "docker run -d --network host --runtime=nvidia --gpus \"device=3\" vllm:0.7.3 -c \"ray start\"\n",
            "docker run --gpus all -it img bash\n",
            "docker run --runtime nvidia -it img bash\n",
            "docker run -d --network host -v /data:/data vllm:0.7.3-python3.11-cuda12.4-debian12 -c \"ray start\"\n",
        ] {
            let fs = facts(run);
            assert_eq!(get(&fs, "docker.npu_access")[0].1, "nvidia", "{run}");
            assert!(get(&fs, "docker.missing_device").is_empty(), "{run}");
            assert!(get(&fs, "docker.missing_mount").is_empty(), "{run}");
        }
        // An NPU device mapped as well: an NPU container after all.
        let fs = facts("docker run --gpus all --device /dev/davinci0 img\n");
        assert_eq!(get(&fs, "docker.npu_access")[0].1, "devices");
        assert!(!get(&fs, "docker.missing_device").is_empty());
    }

    #[test]
    fn privileged_and_runtime() {
        let fs = facts("docker run --privileged -v /usr/local/Ascend/driver/lib64:/usr/local/Ascend/driver/lib64 -v /usr/local/dcmi:/usr/local/dcmi img:latest\n");
        assert!(get(&fs, "docker.missing_device").is_empty());
        assert!(get(&fs, "docker.missing_mount").is_empty());
        assert_eq!(get(&fs, "docker.npu_access")[0].1, "privileged");
        let fs = facts("docker run -e ASCEND_VISIBLE_DEVICES=0-7 --ulimit nofile=-1 img\n");
        assert!(get(&fs, "docker.missing_device").is_empty() && get(&fs, "docker.missing_mount").is_empty());
        assert_eq!(get(&fs, "docker.ulimit_nofile")[0].1, "unlimited");
        let fs = facts("docker run -it --ulimit nofile=1024 ubuntu\n");
        assert_eq!(get(&fs, "docker.ulimit_nofile")[0].1, "1024");
        // No sign of NPUs at all (ray-project/ray#8152's CPU-only head): nothing is missing.
        assert!(get(&fs, "docker.missing_device").is_empty() && get(&fs, "docker.missing_mount").is_empty());
        let fs = facts("docker run --name head -d -it rayproject/ray ray start --head --block\n");
        assert!(get(&fs, "docker.missing_device").is_empty());
        let fs = facts("docker run -it -e INPUT_DIR=/data ubuntu\n");
        assert!(get(&fs, "docker.missing_device").is_empty(), "INPUT is not NPU");
        // Meant for NPUs by its image, a variable or a driver path: what is missing is said.
        for run in [
            "docker run -it --ulimit nofile=1024 ascendhub.huawei.com/public-ascendhub/ascend-pytorch:24.0.RC1\n",
            "docker run -it -e ASCEND_RT_VISIBLE_DEVICES=0 ubuntu\n",
            "docker run -it -v /usr/local/Ascend/driver:/usr/local/Ascend/driver ubuntu\n",
            "docker run -it quay.io/ascend/vllm-ascend:v0.9.1\n",
            "docker run -it my-npu:latest\n",
        ] {
            assert_eq!(get(&facts(run), "docker.missing_device").len(), 4, "{run}");
        }
    }

    #[test]
    fn shell_words_quotes_and_ops() {
        let w = shell_words(&[(0, "env | grep -E \"A|B\" 'x y' a\\ b; ls # c")]);
        let t: Vec<_> = w.iter().map(|w| (w.text.as_str(), w.op)).collect();
        assert_eq!(
            t,
            vec![
                ("env", false),
                ("|", true),
                ("grep", false),
                ("-E", false),
                ("A|B", false),
                ("x y", false),
                ("a b", false),
                (";", true),
                ("ls", false)
            ]
        );
        let w = shell_words(&[(0, "docker run \\"), (1, "  -v a:b img")]);
        assert_eq!(w.iter().map(|w| w.piece).collect::<Vec<_>>(), vec![0, 0, 1, 1, 1]);
    }

    #[test]
    fn log_with_a_docker_line_stays_a_log() {
        let t = "[ERROR] a\n[ERROR] b\n[ERROR] c\ndocker run img\n[INFO] d\n";
        assert!(super::score(&segment(t)[0]) < 50);
    }

    #[test]
    fn a_launch_script_is_read_as_its_command() {
        // Shebang, comments and assignments do not dilute a one-line command; a sentence does.
        let t = "#!/bin/bash\n# start the container\n# on every node\nexport IMAGE=roll:main-a2\nNAME=r\ndocker run -it --device /dev/davinci0 $IMAGE bash\n";
        assert_eq!(super::score(&segment(t)[0]), 90);
        let fs = facts(t);
        assert_eq!(get(&fs, "docker.davinci_count")[0].1, "1");
        let prose = "I started the container with:\ndocker run -it --device /dev/davinci0 roll:main-a2 bash\n";
        assert!(super::score(&segment(prose)[0]) < 50);
        // `a=b` in prose is not an assignment (a space in the name).
        assert!(!super::script_line("the value a b=c"));
        assert!(super::script_line("export ASCEND_RT_VISIBLE_DEVICES=0,1"));
        assert!(!super::script_line("0x1=2"));
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,300}") {
            let _ = facts(&s);
            let _ = facts(&format!("docker run {s}"));
            let _ = facts(&format!("$ docker run \\\n{s}"));
        }

        #[test]
        fn never_panics_on_option_soup(s in "((--?[a-z-]{1,10}(=[a-z0-9:/=,]{0,8})?|[a-z0-9:/=\"'\\\\]{1,8}) ){0,12}") {
            let _ = facts(&format!("docker run {s}"));
            let _ = shell_words(&[(0, s.as_str())]);
        }
    }
}
