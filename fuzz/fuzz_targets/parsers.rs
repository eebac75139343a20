//! Every parser of the table (`parse::PARSERS`): its command scorer, content
//! scorer and parser, over any text (a user override can force any kind on
//! any segment). The first byte picks the parser; the rest is the text.
//!
//! Invariants: scores are 0–100; every fact is declared by the parser with
//! its declared type and points at a line of the segment it was read from;
//! parsing twice gives the same facts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roll_doctor_engine::parse::{FactSink, PARSERS};
use roll_doctor_engine::segment::segment;
use roll_doctor_engine::Origin;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let p = &PARSERS[pick as usize % PARSERS.len()];
    let text = roll_doctor_fuzz::text(rest);
    assert!((p.command)(&text) <= 100);
    for seg in segment(&text) {
        assert!((p.score)(&seg) <= 100, "{:?} scored over 100", p.kind);
        if let Some(c) = &seg.command {
            assert!((p.command)(c) <= 100);
        }
        let mut facts = Vec::new();
        (p.parse)(&seg, &mut FactSink::new(&mut facts, p, 0, 0, None));
        for f in &facts {
            let def = p.facts.iter().find(|d| d.name == f.name);
            let def = def.unwrap_or_else(|| panic!("{:?} emitted undeclared {}", p.kind, f.name));
            assert_eq!(def.ty, f.value.ty(), "{} has the wrong type", f.name);
            if let Origin::Line { at, .. } = &f.origin {
                assert!(
                    seg.lines.iter().any(|l| l.no == at.line) || seg.command_line == Some(at.line),
                    "{} points at line {}, not in its segment",
                    f.name,
                    at.line
                );
            }
        }
        let mut again = Vec::new();
        (p.parse)(&seg, &mut FactSink::new(&mut again, p, 0, 0, None));
        assert_eq!(facts, again, "{:?} is not deterministic", p.kind);
    }
});
