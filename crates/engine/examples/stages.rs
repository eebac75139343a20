//! Times each pipeline stage on a file: `cargo run --release -p roll-doctor-engine --example stages -- FILE`.
//! (`cargo xtask bench` generates a 100 MB mixed log under target/bench/.)
use std::time::Instant;
fn main() {
    let t = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let t0 = Instant::now();
    let segs = roll_doctor_engine::segment::segment(&t);
    println!("segment: {:?} ({} segs)", t0.elapsed(), segs.len());
    let t1 = Instant::now();
    for s in &segs {
        let _ = roll_doctor_engine::detect::detect(s);
    }
    println!("detect: {:?}", t1.elapsed());
    let cat = roll_doctor_engine::catalogue();
    let t2 = Instant::now();
    let mut facts = Vec::new();
    for s in &segs {
        roll_doctor_engine::parse::parse_segment(
            roll_doctor_engine::InputKind::Log,
            s,
            &mut roll_doctor_engine::parse::FactSink::any(&mut facts),
        );
    }
    println!("parse(log): {:?} ({} facts)", t2.elapsed(), facts.len());
    let t3 = Instant::now();
    let mut hits = Vec::new();
    for s in &segs {
        cat.signatures.scan(&s.lines, &mut hits);
    }
    println!("scan: {:?} ({} hits)", t3.elapsed(), hits.len());
    let inputs = [roll_doctor_engine::Input { text: t.clone(), ..Default::default() }];
    let t5 = Instant::now();
    let c = roll_doctor_engine::diagnose::collect(cat, &inputs);
    println!("collect: {:?}", t5.elapsed());
    let t6 = Instant::now();
    let r = roll_doctor_engine::diagnose::evaluate(cat, &c, &Default::default(), None);
    println!("evaluate: {:?} ({} findings)", t6.elapsed(), r.findings.len());
    let t7 = Instant::now();
    drop(c);
    println!("drop: {:?}", t7.elapsed());
    let t4 = Instant::now();
    let r = roll_doctor_engine::diagnose(&t);
    println!("diagnose total: {:?} ({} findings)", t4.elapsed(), r.findings.len());
}
