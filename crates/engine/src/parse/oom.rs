//! The figures of an NPU out-of-memory message, so rules can reason from
//! them rather than from the headline:
//!
//! ```text
//! RuntimeError: NPU out of memory. Tried to allocate 22.00 MiB (NPU 6; 60.97 GiB total capacity;
//! 10.24 GiB already allocated; 10.24 GiB current active; 19.79 MiB free; 10.65 GiB reserved in
//! total by PyTorch)
//! ```
//!
//! Total capacity minus what this process's PyTorch reserved minus what is
//! free is held by someone else: 60.97 − 10.65 − 0.02 = 50.3 GiB, 82 % of
//! the card, is another process (a leftover run, a colocated role), not this
//! job's own appetite. Facts (subject = the NPU as printed):
//! `npu.oom_total_gib`, `npu.oom_reserved_gib`, `npu.oom_free_gib`,
//! `npu.oom_other_pct` (the share of the card neither reserved by this
//! process nor free).

use super::FactSink;
use crate::facts::FactValue;
use crate::segment::Line;
use regex::Regex;
use std::sync::OnceLock;

fn oom_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)out of memory\. Tried to allocate [0-9.]+ [KMGT]?i?B \((?:NPU|GPU) ([0-9]+); ([0-9.]+) ([KMGT]?i?B) total capacity;.*?([0-9.]+) ([KMGT]?i?B) free;\s*([0-9.]+) ([KMGT]?i?B) reserved in total by PyTorch",
        )
        .expect("static regex")
    })
}

fn gib(n: &str, unit: &str) -> Option<f64> {
    let v: f64 = n.parse().ok()?;
    let f = match unit.to_ascii_uppercase().trim_end_matches('B').trim_end_matches('I') {
        "" => 1.0 / (1u64 << 30) as f64,
        "K" => 1.0 / (1u64 << 20) as f64,
        "M" => 1.0 / 1024.0,
        "G" => 1.0,
        "T" => 1024.0,
        _ => return None,
    };
    Some(v * f)
}

/// Reads one log line (already stripped of Ray prefixes as `t`).
pub fn line(line: &Line, t: &str, sink: &mut FactSink<'_>) {
    if !t.contains("out of memory") && !t.contains("Out of memory") {
        return;
    }
    let Some(c) = oom_re().captures(t) else { return };
    let npu = c[1].to_string();
    let (Some(total), Some(free), Some(reserved)) = (gib(&c[2], &c[3]), gib(&c[4], &c[5]), gib(&c[6], &c[7])) else {
        return;
    };
    if total.is_nan() || total <= 0.0 {
        return;
    }
    let round = |x: f64| (x * 100.0).round() / 100.0;
    let other = ((total - reserved - free) / total * 100.0).clamp(0.0, 100.0);
    let s = Some(npu);
    sink.push("npu.oom_total_gib", s.clone(), FactValue::Float(round(total)), line);
    sink.push("npu.oom_reserved_gib", s.clone(), FactValue::Float(round(reserved)), line);
    sink.push("npu.oom_free_gib", s.clone(), FactValue::Float(round(free)), line);
    sink.push("npu.oom_other_pct", s, FactValue::Float((other * 10.0).round() / 10.0), line);
}

#[cfg(test)]
mod tests {
    use crate::parse::facts_of;

    fn other(text: &str) -> Option<String> {
        facts_of(text, crate::parse::traceback::parse)
            .into_iter()
            .find(|f| f.name == "npu.oom_other_pct")
            .map(|f| format!("{}={}", f.subject.unwrap(), f.value.to_text()))
    }

    #[test]
    fn another_process_or_this_one() {
        // vllm-ascend: this process reserved 10.65 of 60.97 GiB and nothing is free.
        let held = "(VllmWorkerProcess pid=20493) ERROR 03-05 07:15:39 multiproc_worker_utils.py:240] RuntimeError: NPU out of memory. Tried to allocate 22.00 MiB (NPU 6; 60.97 GiB total capacity; 10.24 GiB already allocated; 10.24 GiB current active; 19.79 MiB free; 10.65 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory";
        assert_eq!(other(held).as_deref(), Some("6=82.5"));
        // A genuine OOM: the process holds almost everything itself.
        let own = "RuntimeError: NPU out of memory. Tried to allocate 3.47 GiB (NPU 0; 60.97 GiB total capacity; 58.92 GiB already allocated; 58.92 GiB current active; 1.66 GiB free; 58.95 GiB reserved in total by PyTorch)";
        assert_eq!(other(own).as_deref(), Some("0=0.6"));
        assert_eq!(other("NPU out of memory. Tried to allocate 3.47 GiB"), None);
    }
}
