//! `cargo xtask fuzz [--seconds N | --runs N] [--max-len N] [TARGET…]`: coverage-guided
//! fuzzing of the engine with libFuzzer, on stable Rust.
//!
//! The targets live in `fuzz/` (their own workspace; cargo-fuzz's layout).
//! They are built the way cargo-fuzz builds them with `--sanitizer none`:
//! SanitizerCoverage through stable `-C` codegen options (`-Cpasses=sancov-module`,
//! `-Cllvm-args=-sanitizer-coverage-…`), `--cfg fuzzing`, debug assertions and
//! overflow checks, for the host triple so build scripts stay uninstrumented.
//! One difference: only our own crates (the engine, the targets) are
//! instrumented and built with debug assertions. This binary is the build's
//! rustc wrapper ([`rustc_wrapper`]) and adds the coverage options to those
//! crates only. Instrumenting the dependencies too (regex, aho-corasick,
//! saphyr, serde) spent 40–55 % of every execution in comparison callbacks
//! inside code that is fuzzed upstream, and made long runs 2–4 times slower.
//! No nightly flag, no `RUSTC_BOOTSTRAP`, no tool to install: libfuzzer-sys
//! builds libFuzzer from its C++ sources with the machine's C++ compiler.
//!
//! Each target starts from its seed corpus `fuzz/corpus/<target>/` (kept in
//! the repository, read only) and writes what it learns to `fuzz/run/<target>/`
//! (ignored by git). A crash — a panic or a broken invariant — stops the run
//! and is saved as `fuzz/artifacts/<target>/crash-…`, with the command that
//! reproduces it.

use crate::{cmd, root, run};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

/// Every fuzz target (`fuzz/fuzz_targets/<name>.rs`), fastest first.
pub const TARGETS: &[&str] =
    &["device_mapping", "segment", "yaml", "share", "parsers", "detect", "redact", "rules", "pipeline"];

/// Seconds per target in `cargo xtask test`: nine targets make 2¼ minutes of
/// fuzzing; with the instrumented build (under 1½ minutes on two cores) the
/// step stays under 4 minutes. Every seed runs at the start of each target, so
/// even a short run replays the whole corpus against the invariants.
pub const SMOKE_SECONDS: u64 = 15;

/// SanitizerCoverage as cargo-fuzz sets it, all stable codegen options; given
/// to our own crates only (see [`rustc_wrapper`]).
const INSTRUMENT: &[&str] = &[
    "-Cpasses=sancov-module",
    "-Cllvm-args=-sanitizer-coverage-level=4",
    "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
    "-Cllvm-args=-sanitizer-coverage-pc-table",
    "-Cllvm-args=-sanitizer-coverage-trace-compares",
    "-Cllvm-args=-sanitizer-coverage-stack-depth",
    "-Cdebug-assertions",
    "-Coverflow-checks",
];

/// Set (to anything) when cargo runs this binary as its rustc wrapper.
pub const WRAPPER_ENV: &str = "ROLL_DOCTOR_FUZZ_RUSTC_WRAPPER";

/// Our crates: the engine (`roll_doctor_engine`), the targets' library
/// (`roll_doctor_fuzz`) and the targets (`fuzz_targets/*.rs`, relative
/// paths: they are the fuzz workspace's own).
fn is_ours(args: &[String]) -> bool {
    let name = args.iter().position(|a| a == "--crate-name").and_then(|i| args.get(i + 1));
    let source = args.iter().find(|a| a.ends_with(".rs"));
    name.is_some_and(|n| n.starts_with("roll_doctor"))
        || source.is_some_and(|s| s.starts_with("fuzz_targets/") || s.starts_with("src/"))
}

/// `cargo` calls `$RUSTC_WRAPPER rustc ARGS…`: run rustc with `ARGS`, plus
/// the coverage options when the crate is ours.
pub fn rustc_wrapper(args: &[String]) -> std::process::ExitCode {
    let Some((rustc, rest)) = args.split_first() else {
        eprintln!("xtask: the rustc wrapper needs the compiler's path");
        return std::process::ExitCode::FAILURE;
    };
    let mut c = Command::new(rustc);
    c.args(rest);
    if is_ours(rest) {
        c.args(INSTRUMENT);
    }
    match c.status() {
        Ok(s) => std::process::ExitCode::from(s.code().unwrap_or(1).clamp(0, 255) as u8),
        Err(e) => {
            eprintln!("xtask: {rustc}: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn host_triple() -> Result<String, String> {
    let out = Command::new("rustc").arg("-vV").output().map_err(|e| format!("rustc -vV: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .ok_or_else(|| "rustc -vV names no host".into())
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root().join("fuzz/target"))
}

/// Builds every target; returns the folder of the binaries.
fn build() -> Result<PathBuf, String> {
    // libfuzzer-sys compiles libFuzzer (C++).
    if !crate::has("c++") {
        crate::apt_install(&["g++"])?;
    }
    let triple = host_triple()?;
    let t = Instant::now();
    // Not --locked: fuzz/Cargo.lock pins what it knows, and a dependency the
    // engine gained since is resolved instead of failing the build.
    run(cmd("cargo")
        .args(["build", "--release", "--bins", "--target", &triple])
        .current_dir(root().join("fuzz"))
        .env("CARGO_TARGET_DIR", target_dir())
        .env("RUSTFLAGS", "--cfg fuzzing")
        .env("RUSTC_WRAPPER", std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?)
        .env(WRAPPER_ENV, "1")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTC_BOOTSTRAP"))?;
    eprintln!("xtask fuzz: targets built in {:.0?}", t.elapsed());
    Ok(target_dir().join(triple).join("release"))
}

/// How long each target runs.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// Seconds per target.
    Seconds(u64),
    /// Executions per target.
    Runs(u64),
}

/// The numbers libFuzzer prints at the end of a run.
fn stat(log: &str, name: &str) -> Option<u64> {
    log.lines().rev().find_map(|l| l.strip_prefix(&format!("stat::{name}:")).and_then(|v| v.trim().parse().ok()))
}

/// Runs `targets` (all when empty) for `budget` each; fails at the first crash.
pub fn fuzz(targets: &[String], budget: Budget, max_len: usize) -> Result<(), String> {
    for t in targets {
        if !TARGETS.contains(&t.as_str()) {
            return Err(format!("unknown fuzz target {t}; the targets are {}", TARGETS.join(", ")));
        }
    }
    let chosen: Vec<&str> =
        if targets.is_empty() { TARGETS.to_vec() } else { targets.iter().map(String::as_str).collect() };
    let bin = build()?;
    let fuzz_dir = root().join("fuzz");
    let mut summary = Vec::new();
    for t in &chosen {
        let (run_dir, seeds, artifacts) =
            (fuzz_dir.join("run").join(t), fuzz_dir.join("corpus").join(t), fuzz_dir.join("artifacts").join(t));
        for d in [&run_dir, &artifacts] {
            std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        let log_path = fuzz_dir.join("artifacts").join(format!("{t}.log"));
        let log = std::fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
        let mut c = Command::new(bin.join(t));
        c.current_dir(&fuzz_dir)
            .arg(format!("-max_len={max_len}"))
            .arg("-rss_limit_mb=2048")
            .arg("-timeout=20")
            .arg("-print_final_stats=1")
            .arg(format!("-artifact_prefix={}/", artifacts.display()));
        match budget {
            Budget::Seconds(s) => c.arg(format!("-max_total_time={s}")),
            Budget::Runs(n) => c.arg(format!("-runs={n}")),
        };
        c.arg(&run_dir).arg(&seeds).stdout(log.try_clone().map_err(|e| e.to_string())?).stderr(log);
        eprintln!("xtask fuzz: {t} ({budget:?}), log in {}", log_path.display());
        let (start, started) = (Instant::now(), std::time::SystemTime::now());
        let status = c.status().map_err(|e| format!("{}: {e}", bin.join(t).display()))?;
        let text = std::fs::read_to_string(&log_path).unwrap_or_default();
        let (execs, rate) = (stat(&text, "number_of_executed_units"), stat(&text, "average_exec_per_sec"));
        let line = format!(
            "{t:<15} {:>12} executions {:>8} exec/s {:>7.0?} {}",
            execs.map_or("?".into(), |n| n.to_string()),
            rate.map_or("?".into(), |n| n.to_string()),
            start.elapsed(),
            if status.success() { "ok" } else { "CRASH" }
        );
        eprintln!("xtask fuzz: {line}");
        summary.push(line);
        if !status.success() {
            let tail: Vec<&str> = text.lines().rev().take(40).collect();
            eprintln!("{}", tail.into_iter().rev().collect::<Vec<_>>().join("\n"));
            // Only an input saved by this run reproduces it: a run stopped by
            // a signal saves none, and older crash files may still be there.
            let crash = std::fs::read_dir(&artifacts).ok().and_then(|d| {
                d.flatten()
                    .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
                    .filter(|(m, _)| *m >= started)
                    .max()
                    .map(|(_, p)| p)
            });
            return Err(match crash {
                Some(p) => format!(
                    "fuzz target {t} failed ({status}); reproduce with:\n  {} {}",
                    bin.join(t).display(),
                    p.display()
                ),
                None => format!("fuzz target {t} stopped ({status}) and saved no input; see {}", log_path.display()),
            });
        }
    }
    println!("fuzz targets: {} passed, 0 failed", chosen.len());
    for l in summary {
        println!("  {l}");
    }
    Ok(())
}

/// `cargo xtask fuzz` arguments: `--seconds N`, `--runs N`, `--max-len N`, target names.
pub fn main(args: &[String]) -> Result<(), String> {
    let mut budget = Budget::Seconds(60);
    let mut max_len = 8192;
    let mut targets = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut num = |what: &str| -> Result<u64, String> {
            it.next().and_then(|v| v.parse().ok()).ok_or_else(|| format!("{what} needs a number"))
        };
        match a.as_str() {
            "--seconds" => budget = Budget::Seconds(num("--seconds")?),
            "--runs" => budget = Budget::Runs(num("--runs")?),
            "--max-len" => max_len = num("--max-len")? as usize,
            t if !t.starts_with('-') => targets.push(t.to_string()),
            other => return Err(format!("unknown option {other}")),
        }
    }
    fuzz(&targets, budget, max_len)
}
