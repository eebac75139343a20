//! `cargo xtask bench`: the engine's throughput beside ripgrep, per stage,
//! and how time, peak memory and report size grow with the input.
//!
//! - `bench [--mb N]`: a generated mixed log of N MB (default 100). Times the
//!   signature scan alone (`stages --scan`: read the file, find every line a
//!   signature matches, as `rg -c -f` does) and the whole pipeline
//!   (`roll-doctor diagnose --format json`) beside `rg -c -f` over the same
//!   patterns, with the same ASCII semantics (`(?-u)`), best of 3; prints
//!   the MB/s of each stage (`stages`), both ratios and whether they meet
//!   the targets (scan ≤ 1.0, pipeline ≤ 1.3).
//! - `bench --scaling [--max-mb N]`: the mixed log at 1, 10, 100 MB (and N
//!   when given, e.g. 500), the pathological shapes (one 50 MB line, a
//!   million tiny lines, a million-row `ss`, 50 M empty lines, a million
//!   prompts), the attacks of issue 13, and every input kind at 1×, 2×, 4×
//!   with its growth factor per doubling and the peak memory each added
//!   input byte costs. Each row: time, peak memory (the child's
//!   `ru_maxrss`, from `wait4` in a fresh measuring process, see
//!   [`measure`]), peak memory over the empty-input baseline as a multiple
//!   of the input, and the report's size.
//!
//! The CLI and `stages` are built with the `native` profile (`release` at
//! `opt-level = 3`, binaries under `target/native/`; `release` is sized for
//! the page's wasm).
//!
//! Inputs come from `crates/engine/tests/shapes` (the scaling test uses the
//! same generators) and are written under `target/bench/`.

#[path = "../../crates/engine/tests/shapes/mod.rs"]
mod shapes;

use shapes::Shape;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const MB: f64 = 1e6;

/// Targets of issue 12: engine time / rg time.
const SCAN_TARGET: f64 = 1.0;
const PIPELINE_TARGET: f64 = 1.3;
/// Targets of issue 13: growth per doubling, memory over the baseline per input byte.
const GROWTH_LIMIT: f64 = 2.5;
const MEMORY_LIMIT: f64 = 3.0;

/// What one run of a child cost.
#[derive(Clone, Debug)]
pub struct Run {
    /// Wall time, seconds.
    pub secs: f64,
    /// Peak resident set size, bytes.
    pub rss: u64,
    /// Standard output.
    pub stdout: Vec<u8>,
}

#[repr(C)]
#[derive(Default)]
struct Rusage {
    utime: [i64; 2],
    stime: [i64; 2],
    maxrss: i64,
    rest: [i64; 13],
}

extern "C" {
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
}

/// Runs `c` to the end, measuring wall time and peak memory. Standard
/// output is collected (reports are bounded, so this is small); standard
/// error is passed through.
///
/// The child is started through a fresh `xtask __measure` process: on
/// Linux a child's `ru_maxrss` starts from the peak RSS of the process it
/// was spawned from (the high-water mark travels through fork and exec),
/// and this process holds generated inputs of up to 100 MB, which showed
/// as every later row's "peak". The fresh process is small, so the peak it
/// reports for its child is the child's own.
pub fn measure(c: &mut Command) -> Result<Run, String> {
    use std::io::Read;
    let report = std::env::temp_dir().join(format!("xtask-measure-{}.txt", std::process::id()));
    let mut m = Command::new(std::env::current_exe().map_err(|e| e.to_string())?);
    m.arg("__measure").arg(&report).arg(c.get_program()).args(c.get_args());
    if let Some(dir) = c.get_current_dir() {
        m.current_dir(dir);
    }
    let mut child =
        m.stdout(Stdio::piped()).stdin(Stdio::null()).spawn().map_err(|e| format!("{:?}: {e}", c.get_program()))?;
    let mut stdout = Vec::new();
    if let Some(mut out) = child.stdout.take() {
        out.read_to_end(&mut stdout).map_err(|e| e.to_string())?;
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(&report).map_err(|e| format!("{}: {e}", report.display()))?;
    let _ = std::fs::remove_file(&report);
    let mut f = text.split_whitespace().map(|x| x.parse::<f64>().unwrap_or(f64::NAN));
    let (secs, rss, code) = (f.next().unwrap_or(f64::NAN), f.next().unwrap_or(0.0), f.next().unwrap_or(-1.0));
    if !status.success() || (code != 0.0 && code != 1.0) {
        return Err(format!("{:?} failed (exit {code})", c.get_program()));
    }
    Ok(Run { secs, rss: rss as u64, stdout })
}

/// `xtask __measure FILE PROGRAM ARGS…`: runs PROGRAM (its standard output
/// is this process's), and writes "seconds peak-bytes exit-code" to FILE.
pub fn measure_child(args: &[String]) -> Result<(), String> {
    let [file, program, rest @ ..] = args else { return Err("usage: __measure FILE PROGRAM ARGS…".into()) };
    let t = Instant::now();
    let child = Command::new(program).args(rest).stdin(Stdio::null()).spawn().map_err(|e| format!("{program}: {e}"))?;
    let mut status = 0i32;
    let mut ru = Rusage::default();
    // SAFETY: wait4 on our own child's pid, with valid pointers; the child
    // is reaped here, so `child.wait()` is never called.
    let r = unsafe { wait4(child.id() as i32, &mut status, 0, &mut ru) };
    let secs = t.elapsed().as_secs_f64();
    if r < 0 {
        return Err(format!("wait4 failed for {program}"));
    }
    let code = if status & 0x7f == 0 { (status >> 8) & 0xff } else { -1 };
    std::fs::write(file, format!("{secs} {} {code}\n", ru.maxrss.max(0) as u64 * 1024)).map_err(|e| e.to_string())
}

fn best_of(n: usize, mut c: impl FnMut() -> Command) -> Result<Run, String> {
    let mut best: Option<Run> = None;
    for _ in 0..n {
        let r = measure(&mut c())?;
        let slow = r.secs > 20.0;
        if best.as_ref().is_none_or(|b| r.secs < b.secs) {
            best = Some(r);
        }
        if slow {
            break;
        }
    }
    best.ok_or_else(|| "no run".into())
}

struct Tools {
    cli: PathBuf,
    stages: PathBuf,
    many_small: PathBuf,
    dir: PathBuf,
}

/// Builds the CLI and the `stages` and `many_small` examples (profile `native`: `release`
/// at `opt-level = 3`; `release` itself is sized for the page's wasm) and
/// prepares target/bench/.
fn tools() -> Result<Tools, String> {
    super::run(super::cmd("cargo").args(["build", "--profile", "native", "--locked", "-p", "roll-doctor-cli"]))?;
    super::run(super::cmd("cargo").args([
        "build",
        "--profile",
        "native",
        "--locked",
        "-p",
        "roll-doctor-engine",
        "--example",
        "stages",
        "--example",
        "many_small",
    ]))?;
    let release = super::target_dir().join("native");
    let dir = super::target_dir().join("bench");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    Ok(Tools {
        cli: release.join("roll-doctor"),
        stages: release.join("examples/stages"),
        many_small: release.join("examples/many_small"),
        dir,
    })
}

fn write_input(path: &Path, text: &str) -> Result<(), String> {
    if std::fs::metadata(path).is_ok_and(|m| m.len() == text.len() as u64) {
        return Ok(());
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The mixed log of `mb` MB (MiB, as the benchmark always used), written once.
fn mixed_log(dir: &Path, mb: usize) -> Result<PathBuf, String> {
    let log = dir.join(format!("mixed-{mb}mb.log"));
    let want = (mb * 1024 * 1024) as u64;
    if !std::fs::metadata(&log).is_ok_and(|m| m.len() >= want && m.len() < want + 4096) {
        eprintln!("xtask: generating {}", log.display());
        let mut s = String::with_capacity(mb * 1024 * 1024 + 4096);
        shapes::mixed_log(mb * 1024 * 1024, &mut s);
        std::fs::write(&log, s).map_err(|e| e.to_string())?;
    }
    Ok(log)
}

/// A signature for rg's `(?-u)` mode: every non-ASCII character (the rules'
/// Chinese literals) as the `\xHH` escapes of its UTF-8 bytes. rg refuses a
/// non-ASCII literal under `(?-u)` with `(?i)` ("Unicode not allowed here");
/// as bytes it matches what the engine, which matches bytes, matches. No rule
/// puts a non-ASCII character inside a class, where bytes would mean less.
fn bytes_for_rg(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    for c in pattern.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{b:02X}"));
            }
        }
    }
    out
}

/// Engine throughput on a generated mixed log, side by side with ripgrep
/// searching the same file for the same patterns.
pub fn bench(mb: usize) -> Result<(), String> {
    if !super::has("rg") {
        super::apt_install(&["ripgrep"])?;
    }
    let t = tools()?;
    let log = mixed_log(&t.dir, mb)?;
    let size = std::fs::metadata(&log).map_err(|e| e.to_string())?.len() as f64 / MB;
    let pats = t.dir.join("signatures.txt");
    let p = measure(Command::new(&t.cli).arg("signatures"))?;
    let p = String::from_utf8_lossy(&p.stdout).into_owned();
    std::fs::write(&pats, &p).map_err(|e| e.to_string())?;
    // The engine matches with ASCII semantics (see signatures.rs); rg's default
    // is Unicode. The fair comparison gives rg the same semantics with `(?-u)`.
    let ascii = t.dir.join("signatures-ascii.txt");
    std::fs::write(&ascii, p.lines().map(|l| format!("(?-u){}\n", bytes_for_rg(l))).collect::<String>())
        .map_err(|e| e.to_string())?;
    eprintln!(
        "xtask: {} signatures, {:.1} MB log; {}; best of 3 runs each",
        p.lines().count(),
        size,
        super::version_of("rg").unwrap_or_default()
    );

    // Per-stage throughput, in one process.
    let st = measure(Command::new(&t.stages).arg(&log))?;
    let stages = String::from_utf8_lossy(&st.stdout).into_owned();

    let scan = best_of(3, || {
        let mut c = Command::new(&t.stages);
        c.arg("--scan").arg(&log);
        c
    })?;
    let eng = best_of(3, || {
        let mut c = Command::new(&t.cli);
        c.args(["diagnose", "--format", "json"]).arg(&log);
        c
    })?;
    let rg_a = best_of(3, || {
        let mut c = Command::new("rg");
        c.arg("-c").arg("-f").arg(&ascii).arg(&log);
        c
    })?;
    // rg with the patterns' default Unicode semantics is not run: on the
    // 102 MB log it took 509 s (once, on this project's machine), which says
    // nothing about the engine and would make the bench take minutes.
    let text = |r: &Run| String::from_utf8_lossy(&r.stdout).trim().to_string();
    let findings = text(&eng).matches("\"severity\"").count();
    let scan_lines = text(&scan);
    let scan_lines = scan_lines.lines().find_map(|l| l.strip_prefix("matching lines: ")).unwrap_or("?").to_string();

    println!("stage throughput on {size:.1} MB (examples/stages, one process):");
    for l in stages.lines() {
        println!("  {l}");
    }
    let row = |name: &str, r: &Run, extra: &str| {
        println!(
            "{name:<58} {:>7.3} s {:>6.0} MB/s  peak {:>6.0} MB  {extra}",
            r.secs,
            size / r.secs,
            r.rss as f64 / MB
        )
    };
    row("engine scan (stages --scan: read, find matching lines)", &scan, &format!("{scan_lines} matching lines"));
    row("engine pipeline (roll-doctor diagnose --format json)", &eng, &format!("{findings} findings"));
    row("rg -c -f signatures-ascii.txt ((?-u) patterns)", &rg_a, &format!("{} matching lines", text(&rg_a)));
    let (rs, rp) = (scan.secs / rg_a.secs, eng.secs / rg_a.secs);
    let verdict = |r: f64, t: f64| if r <= t { "ok" } else { "ABOVE TARGET" };
    println!("ratio engine/rg, signature scan: {rs:.2} (target ≤ {SCAN_TARGET}: {})", verdict(rs, SCAN_TARGET));
    println!("ratio engine/rg, whole pipeline: {rp:.2} (target ≤ {PIPELINE_TARGET}: {})", verdict(rp, PIPELINE_TARGET));
    println!("peak memory of the pipeline: {:.2}× the input", eng.rss as f64 / MB / size);
    // What most users send: pastes of a few KB, where a diagnosis's fixed
    // cost (detection, rule evaluation) counts, not the scan's throughput.
    let small = measure(Command::new(&t.many_small).arg(super::root().join("crates/engine/tests/real")).arg("5"))?;
    println!("small pastes, warm (examples/many_small, the real-world fixtures): {}", text(&small));
    Ok(())
}

/// One row of the scaling table.
struct Row {
    name: String,
    bytes: u64,
    run: Run,
}

fn run_cli(t: &Tools, path: &Path) -> Result<Run, String> {
    best_of(1, || {
        let mut c = Command::new(&t.cli);
        c.args(["diagnose", "--format", "json"]).arg(path);
        c
    })
}

fn print_header() {
    println!(
        "{:<44} {:>10} {:>9} {:>8} {:>10} {:>9} {:>10}",
        "input", "size MB", "time s", "MB/s", "peak MB", "over/in", "report KB"
    );
}

fn print_row(r: &Row, base: u64) {
    let mb = r.bytes as f64 / MB;
    let over = r.run.rss.saturating_sub(base) as f64 / r.bytes.max(1) as f64;
    let flag = if over > MEMORY_LIMIT { "  MEMORY ABOVE 3×" } else { "" };
    println!(
        "{:<44} {:>10.2} {:>9.3} {:>8.1} {:>10.1} {:>9.2} {:>10.1}{flag}",
        r.name,
        mb,
        r.run.secs,
        mb / r.run.secs.max(1e-9),
        r.run.rss as f64 / MB,
        over,
        r.run.stdout.len() as f64 / 1e3
    );
}

fn shape_row(t: &Tools, shape: Shape, units: usize, label: &str) -> Result<Row, String> {
    let text = shape.generate(units);
    let path = t.dir.join(format!("shape-{}-{units}.txt", shape.name().replace([' ', '/'], "_")));
    write_input(&path, &text)?;
    let bytes = text.len() as u64;
    drop(text);
    let run = run_cli(t, &path)?;
    Ok(Row { name: format!("{label} ({units})"), bytes, run })
}

/// Writes one shape's input (`bench --gen NAME UNITS`, for profiling by hand).
pub fn generate(name: &str, units: usize) -> Result<(), String> {
    let shape = shapes::ALL.iter().copied().find(|s| s.name().replace(' ', "-") == name).ok_or_else(|| {
        let names: Vec<String> = shapes::ALL.iter().map(|s| s.name().replace(' ', "-")).collect();
        format!("unknown shape {name}; one of: {}", names.join(", "))
    })?;
    let dir = super::target_dir().join("bench");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join(format!("{name}-{units}.txt"));
    write_input(&path, &shape.generate(units))?;
    println!("{}", path.display());
    Ok(())
}

/// The scaling table: sizes, hostile shapes, the issue 13 table, every kind at 1×, 2×, 4×.
pub fn scaling(max_mb: Option<usize>) -> Result<(), String> {
    let t = tools()?;
    let empty = t.dir.join("empty.txt");
    write_input(&empty, "")?;
    let base = run_cli(&t, &empty)?.rss;
    println!("baseline (empty input): peak {:.1} MB; `over/in` = (peak − baseline) / input size", base as f64 / MB);

    println!("\n== mixed log, by size ==");
    print_header();
    let mut sizes = vec![1usize, 10, 100];
    if let Some(m) = max_mb.filter(|m| *m > 100) {
        sizes.push(m);
    }
    let mut prev: Option<Row> = None;
    for mb in sizes {
        let log = mixed_log(&t.dir, mb)?;
        let bytes = std::fs::metadata(&log).map_err(|e| e.to_string())?.len();
        let run = run_cli(&t, &log)?;
        let row = Row { name: format!("mixed log {mb} MB"), bytes, run };
        print_row(&row, base);
        if let Some(p) = &prev {
            let per_byte = (row.run.secs / row.bytes as f64) / (p.run.secs / p.bytes as f64);
            println!("{:<44} time per byte vs the row above: {per_byte:.2}×", "");
        }
        prev = Some(row);
    }

    println!("\n== pathological shapes and the attacks of issue 13 ==");
    print_header();
    let rows: &[(Shape, usize, &str)] = &[
        (Shape::LongLine, 50_000_000, "one 50 MB line matching a signature"),
        (Shape::TinyLines, 1_000_000, "a million tiny lines"),
        (Shape::Ss, 1_000_000, "a million-row ss"),
        (Shape::DockerFlags, 100_000, "docker run, one line, flags"),
        (Shape::DockerFlags, 16_000, "docker run, one line, flags"),
        (Shape::EnvOneLine, 100_000, "env-style line, K=V pairs"),
        (Shape::EnvOneLine, 16_000, "env-style line, K=V pairs"),
        (Shape::DockerNpuPairs, 2_000, "docker run x npu-smi pairs"),
        (Shape::HccnNoLoop, 40_000, "hccn_tool without a loop, lines"),
        (Shape::HccnNoLoop, 80_000, "hccn_tool without a loop, lines"),
        (Shape::HccnNoLoop, 160_000, "hccn_tool without a loop, lines"),
        (Shape::Ss, 40_000, "ss -tlnp, sockets"),
        (Shape::Ss, 80_000, "ss -tlnp, sockets"),
        (Shape::Ss, 160_000, "ss -tlnp, sockets"),
        (Shape::YamlChain, 10_000, "YAML key chain, keys"),
        (Shape::YamlChain, 20_000, "YAML key chain, keys"),
        (Shape::YamlChain, 40_000, "YAML key chain, keys"),
        (Shape::EmptyLines, 50_000_000, "empty lines"),
        (Shape::Prompts, 1_000_000, "shell prompts"),
        (Shape::ErrorFlood, 1_000_000, "failure-like lines matching signatures"),
    ];
    for &(shape, units, label) in rows {
        let row = shape_row(&t, shape, units, label)?;
        print_row(&row, base);
    }

    println!("\n== every input kind at 1×, 2×, 4× (growth = time ratio per doubling; limit {GROWTH_LIMIT}) ==");
    print_header();
    for &shape in shapes::ALL {
        // About 4 MB at 1× (a few for the shapes whose unit is a long line).
        let unit = shape.units_for(if shape == Shape::LongLine { 8_000_000 } else { 4_000_000 });
        let mut runs = Vec::new();
        for k in [1, 2, 4] {
            let row = shape_row(&t, shape, unit * k, &format!("{} {k}×", shape.name()))?;
            print_row(&row, base);
            runs.push(row);
        }
        let g1 = runs[1].run.secs / runs[0].run.secs.max(1e-6);
        let g2 = runs[2].run.secs / runs[1].run.secs.max(1e-6);
        let flag = if g1.max(g2) > GROWTH_LIMIT { "  GROWTH ABOVE LIMIT" } else { "" };
        println!("{:<44} growth per doubling: {g1:.2}, {g2:.2}{flag}", "");
        // What each added input byte costs at its peak: the fixed costs a
        // small input shows in `over/in` (lazily built automata, the report)
        // cancel out, which leaves the per-byte cost the 3x limit is about.
        let per_byte =
            |a: &Row, b: &Row| (b.run.rss as f64 - a.run.rss as f64) / (b.bytes as f64 - a.bytes as f64).max(1.0);
        let (m1, m2) = (per_byte(&runs[0], &runs[1]), per_byte(&runs[1], &runs[2]));
        let flag = if m1.max(m2) > MEMORY_LIMIT { "  MEMORY PER BYTE ABOVE 3×" } else { "" };
        println!("{:<44} peak memory per added input byte: {m1:.2}, {m2:.2}{flag}", "");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::bytes_for_rg;

    #[test]
    fn non_ascii_literals_become_byte_escapes_for_rg() {
        assert_eq!(bytes_for_rg(r"(?i)设备\s*(?::|：)"), r"(?i)\xE8\xAE\xBE\xE5\xA4\x87\s*(?::|\xEF\xBC\x9A)");
        assert_eq!(bytes_for_rg(r"HCCL function error: \w+"), r"HCCL function error: \w+");
    }
}
