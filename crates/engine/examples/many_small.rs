//! Times the whole pipeline on many small pastes, warm: every file of a
//! directory (default: the real-world fixtures) diagnosed `N` times.
//! `cargo run --profile native -p roll-doctor-engine --example many_small -- [DIR] [N]`.
//! With `--digest DIR…` it prints each file's name and a hash of its JSON
//! report instead (diff two builds' output to show a change kept every
//! report the same).
//!
//! Small pastes are what users send; the fixed cost of a diagnosis (rule
//! evaluation, the report) matters there, not the scan's throughput.
use std::time::Instant;

fn digest(dirs: &[String]) {
    for dir in dirs {
        let mut paths: Vec<_> =
            std::fs::read_dir(dir).expect("a readable directory").filter_map(|e| e.ok()).map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            let Ok(bytes) = std::fs::read(&p) else { continue };
            let text = String::from_utf8_lossy(&bytes);
            let json = serde_json::to_string(&roll_doctor_engine::diagnose(&text)).expect("a report serialises");
            // FNV-1a: enough to tell two reports apart.
            let h =
                json.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
            println!("{h:016x} {}", p.display());
        }
    }
}

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    if all.first().is_some_and(|a| a == "--digest") {
        return digest(&all[1..]);
    }
    let mut args = all.into_iter();
    let dir = args.next().unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/real").into());
    let rounds: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(3);
    let mut texts: Vec<String> = std::fs::read_dir(&dir)
        .expect("a readable directory")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "txt"))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect();
    texts.sort();
    let bytes: usize = texts.iter().map(String::len).sum();
    // Warm: the catalogue and the lazily built automata.
    for t in &texts {
        std::hint::black_box(roll_doctor_engine::diagnose(t));
    }
    let start = Instant::now();
    for _ in 0..rounds {
        for t in &texts {
            std::hint::black_box(roll_doctor_engine::diagnose(t));
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = texts.len() * rounds;
    println!(
        "{} pastes ({:.1} KB mean) x {rounds}: {:.1} us per diagnosis, {:.1} MB/s",
        texts.len(),
        bytes as f64 / texts.len() as f64 / 1e3,
        secs / n as f64 * 1e6,
        (bytes * rounds) as f64 / secs / 1e6
    );
}
