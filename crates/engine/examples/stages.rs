//! Times each pipeline stage on a file:
//! `cargo run --release -p roll-doctor-engine --example stages -- FILE`.
//!
//! With `--scan FILE` it does only what `rg -c -f` does: read the file and
//! find every line a signature matches, printing their number (`cargo
//! xtask bench` times that process beside ripgrep). Like ripgrep on one
//! file, it maps the file rather than copying it into memory (Unix). `cargo xtask bench`
//! generates a 100 MB mixed log under target/bench/.
use roll_doctor_engine::{detect, diagnose, parse, segment};
use std::time::Instant;

/// This process's CPU time (user + system), seconds: on a busy machine it
/// says more than the wall clock. Linux only (`/proc/self/stat`); 0 elsewhere.
fn cpu() -> f64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    let Some(rest) = s.rfind(')').map(|i| &s[i + 2..]) else { return 0.0 };
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// Wall and CPU time of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let (t, c) = (Instant::now(), cpu());
    let out = f();
    (out, t.elapsed().as_secs_f64(), cpu() - c)
}

/// The file mapped read-only (never unmapped: the process ends after the
/// scan). `None` where mapping is not available or fails.
#[cfg(unix)]
fn map(path: &str) -> Option<&'static [u8]> {
    use std::os::fd::AsRawFd;
    extern "C" {
        fn mmap(addr: *mut u8, len: usize, prot: i32, flags: i32, fd: i32, off: i64) -> *mut u8;
    }
    let f = std::fs::File::open(path).ok()?;
    let len = usize::try_from(f.metadata().ok()?.len()).ok().filter(|&l| l > 0)?;
    // PROT_READ = 1, MAP_PRIVATE = 2 (the same on Linux and macOS).
    // SAFETY: a fresh private read-only mapping of `len` bytes of an open
    // file; the slice is only read, and the bench does not change the file.
    let p = unsafe { mmap(std::ptr::null_mut(), len, 1, 2, f.as_raw_fd(), 0) };
    if p.is_null() || p as isize == -1 {
        return None;
    }
    Some(unsafe { std::slice::from_raw_parts(p, len) })
}

#[cfg(not(unix))]
fn map(_: &str) -> Option<&'static [u8]> {
    None
}

/// `--scan`: the number of lines a signature matches.
fn scan(path: &str) {
    let owned;
    let text: &str = match map(path).map(std::str::from_utf8) {
        Some(Ok(t)) => t,
        _ => {
            let bytes = std::fs::read(path).expect("readable file");
            owned = String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            &owned
        }
    };
    let cat = roll_doctor_engine::catalogue();
    let mut lines = 0usize;
    for seg in segment::segments(text) {
        cat.signatures.scan_segment(&seg, &mut |_, _, _| lines += 1);
    }
    println!("matching lines: {lines}");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scan_only = args.iter().any(|a| a == "--scan");
    let Some(path) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: stages [--scan] FILE");
        std::process::exit(2);
    };
    if scan_only {
        return scan(path);
    }
    let (text, read, read_cpu) = timed(|| {
        let bytes = std::fs::read(path).expect("readable file");
        String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    });
    let (cat, load, load_cpu) = timed(roll_doctor_engine::catalogue);
    let mb = text.len() as f64 / 1e6;
    println!("{:<10} {:>8} {:>8} {:>9}", "stage", "wall s", "cpu s", "MB/s cpu");
    let row = |name: &str, wall: f64, cpu: f64, what: String| {
        println!("{name:<10} {wall:>8.3} {cpu:>8.3} {:>9.0}  {what}", mb / cpu.max(1e-3));
    };
    row("read", read, read_cpu, format!("{mb:.1} MB"));
    row("rules", load, load_cpu, format!("{} signatures: {}", cat.signatures.len(), cat.signatures.finder_summary()));

    let (n, w, c) = timed(|| segment::segments(&text).count());
    row("segment", w, c, format!("{n} segments"));

    let (segs, w, c) = timed(|| segment::segments(&text).flat_map(detect::split_and_detect).collect::<Vec<_>>());
    row("detect", w, c, "segment, split, detect".into());

    let (facts, w, c) = timed(|| {
        let mut facts = Vec::new();
        for (s, d) in &segs {
            let mut s = s.clone();
            if !matches!(d.kind, roll_doctor_engine::InputKind::Log | roll_doctor_engine::InputKind::Unrecognised) {
                s.materialize(segment::Bounds::ALL);
            }
            parse::parse_segment(d.kind, &s, &mut parse::FactSink::any(&mut facts));
        }
        facts
    });
    row("parse", w, c, format!("{} facts", facts.len()));

    let ((lines, hits), w, c) = timed(|| {
        let (mut lines, mut hits) = (0usize, 0usize);
        for (s, d) in &segs {
            if d.kind.scanned_for_signatures() {
                cat.signatures.scan_segment(s, &mut |_, _, sigs| {
                    lines += 1;
                    hits += sigs.len();
                });
            }
        }
        (lines, hits)
    });
    row("scan", w, c, format!("{hits} hits on {lines} lines"));
    drop(segs);

    let inputs = [roll_doctor_engine::Input { text, ..Default::default() }];
    let (col, w, c) = timed(|| diagnose::collect(cat, &inputs));
    row("collect", w, c, "all of the above".into());
    let (r, w, c) = timed(|| diagnose::evaluate(cat, &col, &Default::default(), None));
    row("evaluate", w, c, format!("{} findings", r.findings.len()));
    let (json, w, c) = timed(|| serde_json::to_string(&r).expect("serialisable"));
    row("json", w, c, format!("{} bytes", json.len()));
    drop(col);
    let (r, w, c) = timed(|| roll_doctor_engine::diagnose_inputs(&inputs));
    row("total", w, c, format!("diagnose: {} findings", r.findings.len()));
}
