//! `npu-smi info` output and its `-t health` / `-t board` / `-t usages` /
//! `-l` queries.
//!
//! The table has two header rows and two rows per chip. A2 nodes print one
//! chip per NPU (second header `Chip`); A3 nodes print two chips per NPU
//! (second header `Chip  Phy-ID`, the second number is the chip's device
//! id, i.e. `/dev/davinciN`); inference cards print `Chip  Device`:
//!
//! ```text
//! +------------------------------------------------------------------------------------------------+
//! | npu-smi 23.0.5                   Version: 23.0.5                                               |
//! +---------------------------+---------------+----------------------------------------------------+
//! | NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
//! | Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
//! +===========================+===============+====================================================+
//! | 0     910B1               | OK            | 73.1        37                0    / 0             |
//! | 0                         | 0000:61:00.0  | 0           0    / 0          3401 / 65536         |
//! +===========================+===============+====================================================+
//! | NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
//! +===========================+===============+====================================================+
//! | No running processes found in NPU 0                                                            |
//! ```
//!
//! Facts (subject = the chip's device id: the NPU id on A2, the Phy-ID on
//! A3, the Device id on inference cards): `npu.name`, `npu.health`,
//! `npu.hbm_used_mb`, `npu.hbm_total_mb`, `npu.hbm_usage_pct`,
//! `npu.process`, `npu.process_mem_mb`; for the node: `npu.count` (devices
//! listed; with `...` elisions, the highest id + 1), `npu.platform`,
//! `npu.smi_error` (`dcmi module initialize failed. ret is -8005`, …),
//! `npu.driver_version` (the banner's `Version:`, the driver's release).
//!
//! ```
//! let r = roll_doctor_engine::diagnose(
//!     "$ npu-smi info\n| NPU   Name | Health | Power(W) |\n| Chip | Bus-Id | AICore(%) |\n| 3     910B1 | Warning | 73.1 37 0 / 0 |\n| 0     | 0000:61:00.0 | 0  0 / 0  3401 / 65536 |\n",
//! );
//! assert!(r.findings.iter().any(|f| f.id == "npu-health-not-ok"));
//! ```

use super::FactSink;
use crate::facts::{FactDef, FactValue, ValueType};
use crate::segment::{Line, Segment};
use crate::signatures::is_typed_command;
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Facts this parser produces.
pub const FACTS: &[FactDef] = &[
    FactDef::new("npu.count", ValueType::Int, None, "number of NPU devices `npu-smi info` lists on this node (Int; chips, so an A3 node counts 16; with `...` elisions the highest id + 1); shared contract with the config checks"),
    FactDef::new("npu.name", ValueType::Str, Some("device id"), "chip name from the Name column or `Chip Name` (Str, e.g. 910B1, Ascend910, 310P3); subject = device id"),
    FactDef::new("npu.health", ValueType::Str, Some("device id"), "Health column or `Health Status` of `-t health` (Str, OK when healthy); subject = device id"),
    FactDef::new("npu.hbm_used_mb", ValueType::Int, Some("device id"), "HBM (or device memory) in use, MB (Int); subject = device id"),
    FactDef::new("npu.hbm_total_mb", ValueType::Int, Some("device id"), "HBM (or device memory) capacity, MB (Int); subject = device id"),
    FactDef::new("npu.hbm_usage_pct", ValueType::Float, Some("device id"), "HBM in use, percent of capacity (Float); subject = device id"),
    FactDef::new("npu.process", ValueType::Str, Some("device id"), "a process the process table lists on the device (Str `pid <pid> <name> <mem> MB`); subject = device id"),
    FactDef::new("npu.process_mem_mb", ValueType::Int, Some("device id"), "memory a process of the process table holds on the device, MB (Int); subject = device id"),
    FactDef::new("npu.platform", ValueType::Str, None, "node type from the table layout and chip names (Str: A2, A3, 310P, 310B, 950 or unknown)"),
    FactDef::new("npu.smi_error", ValueType::Str, None, "npu-smi failed instead of printing the table (Str: the ret code such as -8005 / -8020, or `command not found`)"),
    FactDef::new("npu.driver_version", ValueType::Str, None, "driver release as the `Version:` of npu-smi's banner (Str; may stop before the patch level driver/version.info gives: 24.1.rc2 beside 24.1.rc2.2, so it is compared only with itself)"),
];

/// How strongly a command names this kind.
pub fn command(cmd: &str) -> u8 {
    if cmd.contains("npu-smi") {
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

fn pair_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"([0-9]+)\s*/\s*([0-9]+)")
}

fn ret_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"(?i)dcmi\s+mod[0-9A-Za-z_]*\s+initiali[sz][0-9A-Za-z_]*\s+failed.*?ret\s+is\s+(-?[0-9]+)")
}

/// The banner: npu-smi's own release, then the driver's after `Version:`
/// (they differ when npu-smi comes from another driver package).
fn banner_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"^\|?\s*npu-smi\s+[0-9][0-9A-Za-z.]*\s+Version:\s*([0-9][0-9A-Za-z.]*)")
}

fn id_arg_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"npu-smi(?-u:\b).*?\s-i\s*([0-9]+)(?:.*?\s-c\s*([0-9]+))?")
}

/// The words of npu-smi's Health column.
const HEALTH_WORDS: &[&str] = &["OK", "Warning", "Alarm", "Critical", "Fault", "Abnormal"];

fn npu_row_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(&format!(r"^\|\s*[0-9]+\s+\S+[^|]*\|\s*(?:{})\s*\|", HEALTH_WORDS.join("|"))).expect("static regex")
    })
}

fn no_proc_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"No running processes found in NPU\s+([0-9]+)")
}

/// The cells of a `| a | b |` table row, trimmed; `None` for other lines.
fn cells(t: &str) -> Option<Vec<&str>> {
    let t = t.trim();
    let inner = t.strip_prefix('|')?;
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    Some(inner.split('|').map(str::trim).collect())
}

/// The device memory `(used, total)` MB of a chip row's memory cell: of two
/// `used / total` pairs, DDR then HBM, the second; of one, that one.
fn device_memory(cell: &str) -> Option<(i64, i64)> {
    pair_re().captures_iter(cell).filter_map(|c| Some((c[1].parse().ok()?, c[2].parse().ok()?))).last()
}

fn ints(cell: &str) -> Option<Vec<u32>> {
    let v: Option<Vec<u32>> = cell.split_whitespace().map(|w| w.parse::<u32>().ok()).collect();
    v.filter(|v| !v.is_empty())
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Layout {
    /// `Chip` only: one chip per NPU (A2, older 910).
    Chip,
    /// `Chip  Phy-ID`: A3.
    PhyId,
    /// `Chip  Device`: inference cards.
    Device,
}

#[derive(Debug)]
struct Dev {
    npu: u32,
    chip: Option<u32>,
    id: Option<u32>,
    name: String,
    health: String,
    row: Line,
    used: Option<(i64, i64, Line)>,
}

impl Dev {
    fn subject(&self, layout: Layout) -> String {
        match (layout, self.id, self.chip) {
            (Layout::PhyId | Layout::Device, Some(id), _) => id.to_string(),
            (_, _, Some(c)) if c != 0 => format!("{}-{}", self.npu, c),
            _ => self.npu.to_string(),
        }
    }
}

/// Platform from a chip name alone, when it says enough.
fn platform_of(name: &str) -> Option<&'static str> {
    let n = name.to_ascii_uppercase();
    if n.contains("310P") || n.contains("300I") {
        Some("310P")
    } else if n.contains("310B") {
        Some("310B")
    } else if n.contains("910B") {
        Some("A2")
    } else if n.contains("910_93") || n.contains("910C") {
        Some("A3")
    } else if n.contains("950") {
        Some("950")
    } else {
        None
    }
}

/// Whether `t` holds `dcmi` in any case, as [`ret_re`] needs. The scorers
/// run on every segment of every paste: a log line that cannot match is
/// told so without compiling or running the pattern (the page's first
/// diagnosis compiles every pattern it runs).
fn mentions_dcmi(t: &str) -> bool {
    t.as_bytes().windows(4).any(|w| w.eq_ignore_ascii_case(b"dcmi"))
}

/// How much `seg` looks like this input when no command named it (0–100).
pub fn score(seg: &Segment) -> u8 {
    let mut best = 0u8;
    // `npu-smi info -t board` pasted without its command: `Chip Name : 310P3`
    // beside the other keys only that query prints.
    let (mut chip_name, mut board_keys) = (false, false);
    for l in seg.lines.iter().take(400) {
        let t = l.text.trim();
        if let Some((k, _)) = t.split_once(':') {
            match k.trim() {
                "Chip Name" => chip_name = true,
                "Chip Type" | "NPU ID" | "Board ID" | "Chip Version" => board_keys = true,
                _ => {}
            }
            if chip_name && board_keys {
                best = best.max(80);
            }
        }
        let banner = t.contains("npu-smi") && t.contains("Version:");
        let header = t.starts_with('|') && t.contains("NPU") && t.contains("Name") && t.contains("Health");
        let procs = t.contains("No running processes found in NPU")
            || (t.starts_with('|') && t.contains("Process id") && t.contains("Process name"));
        let s = if banner || header {
            95
        } else if procs {
            90
        } else if (t.starts_with('|') && npu_row_re().is_match(t))
            || (t.starts_with("Health Status") && t.contains(':'))
        {
            80
        } else if mentions_dcmi(t) && ret_re().is_match(t) && !is_typed_command(t) {
            70
        } else {
            0
        };
        best = best.max(s);
        if best == 95 {
            // The highest score this scorer gives.
            break;
        }
    }
    best
}

/// Parses one segment.
pub fn parse(seg: &Segment, sink: &mut FactSink<'_>) {
    let mut layout = Layout::Chip;
    let mut header: Option<Line> = None;
    let mut in_procs = false;
    let mut elided = false;
    // Borders after the header row, and whether the process table began: an
    // empty device table counts only when complete. The header's own bottom
    // border alone is where a paste cut after the header ends.
    let mut borders_after_header = 0u32;
    let mut procs_seen = false;
    let mut split_name = false;
    let mut devs: Vec<Dev> = Vec::new();
    // (npu, chip, pid, name, mem MB, line)
    let mut procs: Vec<(u32, Option<u32>, String, String, i64, Line)> = Vec::new();
    // -t queries: the `-i` / `-c` ids of the command that printed the lines.
    let mut query: Option<(u32, Option<u32>)> = seg.command.as_deref().and_then(query_ids);
    let mut total_count: Option<(i64, Line)> = None;

    for line in &seg.lines {
        let t = line.text.trim();
        if t.is_empty() {
            continue;
        }
        if t == "..." || t == "…" || t.starts_with("| ...") {
            elided = true;
            continue;
        }
        if t.contains("npu-smi") && !t.starts_with('|') {
            // A command line pasted without a prompt (`npu-smi info -t health -i 0`).
            if let Some(q) = query_ids(t) {
                query = Some(q);
            }
        }
        if is_typed_command(t) {
            continue; // `grep "ret is -8005" …` mentions an error, it is not one
        }
        if let Some(c) = ret_re().captures(t) {
            sink.push("npu.smi_error", None, FactValue::Str(c[1].to_string()), line);
            continue;
        }
        if t.contains("npu-smi: command not found") || t.contains("npu-smi command not found") {
            sink.push("npu.smi_error", None, FactValue::Str("command not found".into()), line);
            continue;
        }
        if let Some(c) = banner_re().captures(t) {
            sink.push("npu.driver_version", None, FactValue::Str(c[1].to_string()), line);
            continue;
        }
        if t.starts_with('+') {
            if header.is_some() {
                borders_after_header += 1;
            }
            continue;
        }
        if no_proc_re().is_match(t) {
            in_procs = true;
            procs_seen = true;
            continue;
        }
        if let Some(cs) = cells(t) {
            // npu-smi 25.x on the 950 series puts the NPU id and the name in
            // columns of their own (`| NPU ID | Name | Health |`, and a second
            // row per NPU with both empty): joined, the rows read as the
            // older `| NPU   Name | Health |` ones.
            if cs.len() >= 3 && cs[0] == "NPU ID" && cs[1] == "Name" && cs[2].starts_with("Health") {
                split_name = true;
                header = Some(line.clone());
                in_procs = false;
                continue;
            }
            let joined;
            let cs: Vec<&str> = if split_name && !in_procs && cs.len() >= 3 {
                joined = format!("{} {}", cs[0], cs[1]);
                std::iter::once(joined.trim()).chain(cs[2..].iter().copied()).collect()
            } else {
                cs
            };
            let first = cs.first().copied().unwrap_or("");
            if split_name && !in_procs && first.is_empty() {
                // The second row of an NPU: `| | | NA | 0  0 / 0  5414 / 131072 |`.
                if let Some(d) = devs.last_mut().filter(|d| d.chip.is_none()) {
                    d.chip = Some(0);
                    d.used = device_memory(cs.get(2).copied().unwrap_or("")).map(|(u, tot)| (u, tot, line.clone()));
                }
                continue;
            }
            // Header rows.
            if first.starts_with("NPU") && cs.get(1).is_some_and(|c| c.starts_with("Health")) {
                header = Some(line.clone());
                in_procs = false;
                continue;
            }
            if first.starts_with("NPU") && cs.iter().any(|c| c.starts_with("Process id")) {
                in_procs = true;
                procs_seen = true;
                continue;
            }
            if first.starts_with("Chip") {
                if first.contains("Phy-ID") {
                    layout = Layout::PhyId;
                } else if first.contains("Device") {
                    layout = Layout::Device;
                }
                continue;
            }
            if first.starts_with("npu-smi") {
                continue;
            }
            if in_procs {
                // | 0       0                 | 109           | VLLMWorker_TP            | 76                      |
                let (Some(ids), Some(pid)) = (ints(first), cs.get(1).and_then(|p| p.parse::<u64>().ok())) else {
                    continue;
                };
                let name = cs.get(2).copied().unwrap_or("").to_string();
                let mem = cs
                    .get(3)
                    .and_then(|m| m.split_whitespace().next())
                    .and_then(|m| m.parse::<i64>().ok())
                    .unwrap_or(0);
                procs.push((ids[0], ids.get(1).copied(), pid.to_string(), name, mem, line.clone()));
                continue;
            }
            let toks: Vec<&str> = first.split_whitespace().collect();
            let Some(npu_or_chip) = toks.first().and_then(|w| w.parse::<u32>().ok()) else { continue };
            let all_int = toks.iter().all(|w| w.parse::<u32>().is_ok());
            // A name can be all digits (the Atlas 300I's `310`, ids 1024, 2048…):
            // an NPU row is told from a chip row by its Health cell, where a
            // chip row has the Bus-Id.
            let health_cell =
                cs.get(1).and_then(|h| h.split_whitespace().next()).is_some_and(|w| HEALTH_WORDS.contains(&w));
            if !all_int || health_cell {
                // NPU row: `| 0     910B1 | OK | 73.1 37 0 / 0 |`
                let name = toks[1..].join(" ");
                let health = cs.get(1).copied().unwrap_or("").to_string();
                devs.push(Dev { npu: npu_or_chip, chip: None, id: None, name, health, row: line.clone(), used: None });
            } else if let Some(d) = devs.last_mut().filter(|d| d.chip.is_none()) {
                // Chip row: `| 0 | 0000:61:00.0 | 0  0 / 0  3401 / 65536 |`
                d.chip = Some(npu_or_chip);
                d.id = toks.get(1).and_then(|w| w.parse::<u32>().ok());
                if let Some((u, tot)) = device_memory(cs.get(2).copied().unwrap_or("")) {
                    d.used = Some((u, tot, line.clone()));
                }
            }
            continue;
        }
        // `key : value` lines of the -t queries and -l.
        if let Some((k, v)) = t.split_once(':') {
            let (k, v) = (k.trim(), v.trim());
            let subject = query.map(|(i, c)| match c {
                Some(c) if c != 0 => format!("{i}-{c}"),
                _ => i.to_string(),
            });
            match k {
                "Health Status" if !v.is_empty() => {
                    sink.push("npu.health", subject, FactValue::Str(v.to_string()), line);
                }
                "Chip Name" if !v.is_empty() && v != "NA" => {
                    sink.push("npu.name", subject, FactValue::Str(v.to_string()), line);
                }
                "HBM Usage Rate(%)" => {
                    if let Ok(p) = v.parse::<f64>() {
                        sink.push("npu.hbm_usage_pct", subject, FactValue::Float(p), line);
                    }
                }
                "HBM Capacity(MB)" => {
                    if let Ok(n) = v.parse::<i64>() {
                        sink.push("npu.hbm_total_mb", subject, FactValue::Int(n), line);
                    }
                }
                "Total Count" => {
                    if let Ok(n) = v.parse::<i64>() {
                        total_count = Some((n, line.clone()));
                    }
                }
                "NPU ID" => {
                    if let Ok(n) = v.parse::<u32>() {
                        query = Some((n, None));
                    }
                }
                "Chip ID" => {
                    if let (Ok(c), Some((i, _))) = (v.parse::<u32>(), query) {
                        query = Some((i, Some(c)));
                    }
                }
                _ => {}
            }
        }
    }

    // Per-device facts.
    let mut by_npu_chip: BTreeMap<(u32, u32), String> = BTreeMap::new();
    for d in &devs {
        let subj = d.subject(layout);
        by_npu_chip.insert((d.npu, d.chip.unwrap_or(0)), subj.clone());
        if !d.name.is_empty() {
            sink.push("npu.name", Some(subj.clone()), FactValue::Str(d.name.clone()), &d.row);
        }
        if !d.health.is_empty() {
            sink.push("npu.health", Some(subj.clone()), FactValue::Str(d.health.clone()), &d.row);
        }
        if let Some((u, tot, l)) = &d.used {
            sink.push("npu.hbm_used_mb", Some(subj.clone()), FactValue::Int(*u), l);
            sink.push("npu.hbm_total_mb", Some(subj.clone()), FactValue::Int(*tot), l);
            if *tot > 0 {
                let pct = (*u as f64) * 100.0 / (*tot as f64);
                sink.push("npu.hbm_usage_pct", Some(subj.clone()), FactValue::Float((pct * 10.0).round() / 10.0), l);
            }
        }
    }
    for (npu, chip, pid, name, mem, l) in &procs {
        let subj = by_npu_chip.get(&(*npu, chip.unwrap_or(0))).cloned().unwrap_or_else(|| match chip {
            Some(c) if *c != 0 => format!("{npu}-{c}"),
            _ => npu.to_string(),
        });
        sink.push("npu.process", Some(subj.clone()), FactValue::Str(format!("pid {pid} {name} {mem} MB")), l);
        sink.push("npu.process_mem_mb", Some(subj), FactValue::Int(*mem), l);
    }

    // Node facts.
    if let Some(h) = &header {
        let count = if elided {
            devs.iter().map(|d| d.id.unwrap_or(d.npu) as i64 + 1).max().unwrap_or(0).max(devs.len() as i64)
        } else {
            devs.len() as i64
        };
        // An empty table counts only when it is complete (not cut after the header).
        let table_closed = borders_after_header >= 2 || procs_seen;
        if count > 0 || (!elided && table_closed) {
            sink.push("npu.count", None, FactValue::Int(count), h);
        }
        let from_names = devs.iter().find_map(|d| platform_of(&d.name));
        let platform = match (layout, from_names) {
            (_, Some(p)) => p,
            (Layout::PhyId, None) => "A3",
            _ => "unknown",
        };
        sink.push("npu.platform", None, FactValue::Str(platform.to_string()), h);
    } else if let Some((n, l)) = total_count {
        sink.push("npu.count", None, FactValue::Int(n), &l);
    }
}

/// `-i N [-c M]` of an npu-smi command.
fn query_ids(cmd: &str) -> Option<(u32, Option<u32>)> {
    let c = id_arg_re().captures(cmd)?;
    let i = c.get(1)?.as_str().parse().ok()?;
    let chip = c.get(2).and_then(|m| m.as_str().parse().ok());
    Some((i, chip))
}

#[cfg(test)]
mod tests {
    use crate::facts::{Fact, FactValue};
    use crate::segment::segment;
    use proptest::prelude::*;

    fn facts(text: &str) -> Vec<Fact> {
        crate::parse::facts_of(text, super::parse)
    }

    fn get<'a>(fs: &'a [Fact], name: &str, subject: Option<&str>) -> Vec<&'a FactValue> {
        fs.iter().filter(|f| f.name == name && f.subject.as_deref() == subject).map(|f| &f.value).collect()
    }

    const A2: &str = "\
+------------------------------------------------------------------------------------------------+
| npu-smi 23.0.5                   Version: 23.0.5                                               |
+---------------------------+---------------+----------------------------------------------------+
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
| 0     910B1               | OK            | 73.1        37                0    / 0             |
| 0                         | 0000:61:00.0  | 0           0    / 0          3401 / 65536         |
+===========================+===============+====================================================+
| 1     910B1               | Warning       | 73.1        37                0    / 0             |
| 0                         | 0000:62:00.0  | 0           0    / 0          60001/ 65536         |
+===========================+===============+====================================================+
+---------------------------+---------------+----------------------------------------------------+
| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
+===========================+===============+====================================================+
| No running processes found in NPU 0                                                            |
+===========================+===============+====================================================+
| 1       0                 | 4242          | python3                  | 56000                   |
+===========================+===============+====================================================+
";

    #[test]
    fn a2_table() {
        let fs = facts(&format!("$ npu-smi info\n{A2}"));
        assert_eq!(get(&fs, "npu.count", None), vec![&FactValue::Int(2)]);
        assert_eq!(get(&fs, "npu.platform", None), vec![&FactValue::Str("A2".into())]);
        assert_eq!(get(&fs, "npu.name", Some("0")), vec![&FactValue::Str("910B1".into())]);
        assert_eq!(get(&fs, "npu.health", Some("1")), vec![&FactValue::Str("Warning".into())]);
        assert_eq!(get(&fs, "npu.hbm_used_mb", Some("0")), vec![&FactValue::Int(3401)]);
        assert_eq!(get(&fs, "npu.hbm_total_mb", Some("1")), vec![&FactValue::Int(65536)]);
        assert_eq!(get(&fs, "npu.process", Some("1")), vec![&FactValue::Str("pid 4242 python3 56000 MB".into())]);
        assert_eq!(get(&fs, "npu.process_mem_mb", Some("1")), vec![&FactValue::Int(56000)]);
        assert!(get(&fs, "npu.process_mem_mb", Some("0")).is_empty());
        let hbm = fs.iter().find(|f| f.name == "npu.hbm_used_mb").unwrap();
        assert_eq!(hbm.line(), 9);
    }

    #[test]
    fn the_banner_gives_the_driver_release() {
        // The tool's own release comes first; the driver's follows `Version:`
        // and is the one reported (they differ in a real paste of 23.0.rc2.2
        // and 23.0.rc3.3).
        let t = "$ npu-smi info
+------------------------------------------------------------------------------------------------+
| npu-smi 23.0.rc2.2               Version: 23.0.rc3.3                                           |
+---------------------------+---------------+----------------------------------------------------+
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
";
        let fs = facts(t);
        assert_eq!(get(&fs, "npu.driver_version", None), vec![&FactValue::Str("23.0.rc3.3".into())]);
        // A banner without the driver's part gives nothing.
        assert!(get(&facts("$ npu-smi info\n| npu-smi 23.0.5 |\n"), "npu.driver_version", None).is_empty());
    }

    #[test]
    fn a_name_of_digits_only_is_still_an_npu_row() {
        // ollama/ollama#5872: an Atlas 300I whose chip is named `310`, NPU ids
        // 1024 and 2048; the row read as a chip row and no NPU was counted.
        let t = "npu-smi info
| NPU     Name                  | Health          | Power(W)     Temp(C)           Hugepages-Usage(page) |
| Chip    Device                | Bus-Id          | AICore(%)    Memory-Usage(MB)                        |
+===============================+=================+======================================================+
| 1024    310                   | OK              | 12.8         76                9     / 969           |
| 0       0                     | 0000:04:00.0    | 0            640  / 7759                             |
+===============================+=================+======================================================+
| 2048    310                   | OK              | 12.8         74                9     / 969           |
| 0       1                     | 0000:08:00.0    | 0            638  / 7759                             |
+===============================+=================+======================================================+
";
        let fs = facts(t);
        assert_eq!(get(&fs, "npu.count", None), vec![&FactValue::Int(2)]);
        let names: Vec<_> =
            fs.iter().filter(|f| f.name == "npu.name").map(|f| (f.subject.clone(), f.value.clone())).collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(names.iter().all(|(_, v)| v == &FactValue::Str("310".into())), "{names:?}");
    }

    #[test]
    fn a3_table_two_chips_per_npu() {
        let t = "$ npu-smi info
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip  Phy-ID              | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
| 0     Ascend910           | OK            | 178.5       36                0    / 0             |
| 0     0                   | 0000:9D:00.0  | 0           0    / 0          3416 / 65536         |
+------------------------------------------------------------------------------------------------+
| 0     Ascend910           | OK            | -           36                0    / 0             |
| 1     1                   | 0000:9F:00.0  | 0           0    / 0          3195 / 65536         |
+===========================+===============+====================================================+
| 1     Ascend910           | OK            | 186.3       36                0    / 0             |
| 0     2                   | 0000:99:00.0  | 0           0    / 0          3415 / 65536         |
+------------------------------------------------------------------------------------------------+
| 1     Ascend910           | Alarm         | -           36                0    / 0             |
| 1     3                   | 0000:9B:00.0  | 0           0    / 0          3193 / 65536         |
+===========================+===============+====================================================+
| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
+===========================+===============+====================================================+
| 0       1                 | 777           | python                   | 36000                   |
+===========================+===============+====================================================+
";
        let fs = facts(t);
        assert_eq!(get(&fs, "npu.count", None), vec![&FactValue::Int(4)]);
        assert_eq!(get(&fs, "npu.platform", None), vec![&FactValue::Str("A3".into())]);
        assert_eq!(get(&fs, "npu.health", Some("3")), vec![&FactValue::Str("Alarm".into())]);
        assert_eq!(get(&fs, "npu.hbm_used_mb", Some("2")), vec![&FactValue::Int(3415)]);
        assert_eq!(get(&fs, "npu.process", Some("1")), vec![&FactValue::Str("pid 777 python 36000 MB".into())]);
        assert_eq!(get(&fs, "npu.process_mem_mb", Some("1")), vec![&FactValue::Int(36000)]);
    }

    #[test]
    fn the_950_layout_with_the_npu_id_and_name_in_columns_of_their_own() {
        // npu-smi 25.1 on Ascend950PR (vllm-ascend#10641).
        let t = "\
$ npu-smi info
+-------------------------------------------------------------------------------------------------+
| npu-smi 25.1.rc1.b086                            Version: 25.1.rc1.b086                         |
+--------+------------------+---------------+-----------------------------------------------------+
| NPU ID | Name             | Health        | Power(W)    Temp(C)           Hugepages-Usage(page) |
|        |                  | Bus-Id        | NPU Util(%) Memory-Usage(MB)  HBM-Usage(MB)         |
+========+==================+===============+=====================================================+
| 0      | Ascend950PR      | Alarm         | 297.2       60                0     / 0             |
|        |                  | NA            | 0           0    / 0          5414  / 131072        |
+========+==================+===============+=====================================================+
| 1      | Ascend950PR      | OK            | 312.5       59                0     / 0             |
|        |                  | NA            | 0           0    / 0          5412  / 131072        |
+========+==================+===============+=====================================================+
";
        let fs = facts(t);
        assert_eq!(get(&fs, "npu.name", Some("0")), vec![&FactValue::Str("Ascend950PR".into())]);
        assert_eq!(get(&fs, "npu.health", Some("0")), vec![&FactValue::Str("Alarm".into())]);
        assert_eq!(get(&fs, "npu.health", Some("1")), vec![&FactValue::Str("OK".into())]);
        assert_eq!(get(&fs, "npu.hbm_used_mb", Some("1")), vec![&FactValue::Int(5412)]);
        assert_eq!(get(&fs, "npu.hbm_total_mb", Some("0")), vec![&FactValue::Int(131072)]);
    }

    #[test]
    fn inference_card_and_elision() {
        let t = "| NPU   Name   | Health      | Power(W)  Temp(C)           Hugepages-Usage(page|
| Chip  Device | Bus-Id      | AICore(%) Memory-Usage(MB)                      |
+============================+===========+====================================+
| 0     310P3  | OK          | NA        51                996   / 996         |
| 0     0      | 0000:01:00.0| 0         3841 / 21527                          |
...
| 64    310P3  | OK          | NA        48                0     / 0           |
| 0     1      | 0000:06:00.0| 0         1764 / 21527                          |
+==============+=============+=================================================+
";
        let fs = facts(t);
        assert_eq!(get(&fs, "npu.platform", None), vec![&FactValue::Str("310P".into())]);
        assert_eq!(get(&fs, "npu.name", Some("1")), vec![&FactValue::Str("310P3".into())]);
        assert_eq!(get(&fs, "npu.hbm_total_mb", Some("0")), vec![&FactValue::Int(21527)]);
        assert_eq!(get(&fs, "npu.count", None), vec![&FactValue::Int(2)]);
    }

    #[test]
    fn errors_health_query_and_list() {
        let fs = facts("$ npu-smi info\nDrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)\ndcmi module initialize failed. ret is -8005\n");
        assert_eq!(get(&fs, "npu.smi_error", None), vec![&FactValue::Str("-8005".into())]);
        let fs = facts("  501  grep -n 'dcmi module initialize failed. ret is -8005' /var/log/x\n");
        assert!(get(&fs, "npu.smi_error", None).is_empty());
        let fs = facts("# npu-smi info\ndcmi model initialized failed, because the device is used. ret is -8020\n");
        assert_eq!(get(&fs, "npu.smi_error", None), vec![&FactValue::Str("-8020".into())]);
        let fs = facts("$ npu-smi info -t health -i 5\nHealth Status                  : Warning\nError Code                     : 80E18005\n");
        assert_eq!(get(&fs, "npu.health", Some("5")), vec![&FactValue::Str("Warning".into())]);
        let fs = facts("/usr/local/bin/npu-smi info -i 0 -c 0 -t health\nHealth Status                  : OK\n");
        assert_eq!(get(&fs, "npu.health", Some("0")), vec![&FactValue::Str("OK".into())]);
        let fs = facts("$ npu-smi info -l\n        Total Count                    : 8\n\n        NPU ID                         : 0\n");
        assert_eq!(get(&fs, "npu.count", None), vec![&FactValue::Int(8)]);
        let fs = facts("$ npu-smi info -t board -i 0 -c 0\nChip Type : Ascend\nChip Name : 310P3\n");
        assert_eq!(get(&fs, "npu.name", Some("0")), vec![&FactValue::Str("310P3".into())]);
    }

    #[test]
    fn truncated_tables_do_not_claim_zero_devices() {
        let fs = facts("$ npu-smi info\n| NPU   Name                | Health        | Power(W) |\n");
        assert!(get(&fs, "npu.count", None).is_empty());
        // Cut after the header's own bottom border (gpustack#3296 as stored).
        let fs = facts("$ npu-smi info\n| NPU     Name      | Health    | Power(W) |\n| Chip    Device    | Bus-Id    | AICore(%) |\n+===========+===========+===========+\n");
        assert!(get(&fs, "npu.count", None).is_empty());
        let fs = facts("$ npu-smi info\n| NPU   Name | Health | Power(W) |\n| Chip | Bus-Id | AICore(%) |\n+=====+\n| NPU     Chip              | Process id    | Process name |\n");
        assert_eq!(get(&fs, "npu.count", None), vec![&FactValue::Int(0)]);
        // a row cut in the middle
        let fs = facts("$ npu-smi info\n| NPU   Name | Health |\n| Chip | Bus-Id |\n| 0     910B1\n| 0 | 0000:61:00.0 | 0   3401 /\n");
        assert!(get(&fs, "npu.hbm_used_mb", Some("0")).is_empty());
    }

    #[test]
    fn indented_and_elided_table() {
        // ../shared/samples/c18: indented, rows elided with `...`, a -t health query after it.
        let t =
            "        +------------------------------------------------------------------------------------------------+
        | npu-smi 23.0.5                   Version: 23.0.5                                               |
        | NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
        | Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
        +===========================+===============+====================================================+
        | 0     xxx                 | OK            | 73.1        37                0    / 0             |
        | 0                         | 0000:61:00.0  | 0           920  / 13553      0    / 32768         |
        +===========================+===============+====================================================+
        ...
        +===========================+===============+====================================================+
        | 7     xxx                 | OK            | 67.0        38                0    / 0             |
        | 0                         | 0000:3D:00.0  | 0           2346 / 15567      0    / 32768         |
        +===========================+===============+====================================================+
        | NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
        | No running processes found in NPU 0                                                            |

        /usr/local/bin/npu-smi info -i 0 -c 0 -t health
        Health Status                  : OK
";
        let fs = facts(t);
        assert_eq!(get(&fs, "npu.count", None), vec![&FactValue::Int(8)]);
        assert_eq!(get(&fs, "npu.platform", None), vec![&FactValue::Str("unknown".into())]);
        assert_eq!(get(&fs, "npu.hbm_used_mb", Some("7")), vec![&FactValue::Int(0)]);
        assert_eq!(get(&fs, "npu.hbm_total_mb", Some("7")), vec![&FactValue::Int(32768)]);
        assert_eq!(get(&fs, "npu.health", Some("0")).len(), 2);
        assert!(get(&fs, "npu.process_mem_mb", Some("0")).is_empty());
    }

    #[test]
    fn bare_rows_are_recognised() {
        let t = "| 0     910B1               | OK            | 73.1        37                0    / 0             |\n| 0                         | 0000:61:00.0  | 0           0    / 0          3401 / 65536         |\n";
        assert_eq!(super::score(&segment(t)[0]), 80);
        let fs = facts(t);
        assert_eq!(get(&fs, "npu.hbm_used_mb", Some("0")), vec![&FactValue::Int(3401)]);
    }

    #[test]
    fn score_recognises_tables() {
        let seg = &segment(A2)[0];
        assert!(super::score(seg) >= 90);
        let seg = &segment("hello\nworld\n")[0];
        assert_eq!(super::score(seg), 0);
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,400}") {
            let _ = facts(&s);
            let _ = facts(&format!("$ npu-smi info\n{s}"));
        }

        #[test]
        fn never_panics_on_table_like_input(s in "([|+ 0-9A-Za-z/.:=-]{0,30}\n){0,20}") {
            let _ = facts(&format!("$ npu-smi info -t health -i 3\n| NPU Name | Health |\n| Chip  Phy-ID | Bus-Id |\n{s}"));
        }
    }
}
