//! Detection (`detect::split_and_detect`) over the segmenter's output.
//!
//! Invariants: confidence is 0–100 and at least the threshold for a named
//! kind; splitting keeps every non-blank line, in order, once, and keeps the
//! segment's node; the first part keeps its command, later parts keep it or
//! have none (what a command's output was split from); the result is
//! deterministic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roll_doctor_engine::detect::{split_and_detect, THRESHOLD};
use roll_doctor_engine::segment::segment;
use roll_doctor_engine::InputKind;

fuzz_target!(|data: &[u8]| {
    let text = roll_doctor_fuzz::text(data);
    for seg in segment(&text) {
        let want: Vec<u32> = seg.lines.iter().filter(|l| !l.text.trim().is_empty()).map(|l| l.no).collect();
        let out = split_and_detect(seg.clone());
        assert!(!out.is_empty(), "a segment vanished");
        let mut got = Vec::new();
        for (s, d) in &out {
            assert!(d.confidence <= 100);
            if d.kind != InputKind::Unrecognised {
                assert!(d.confidence >= THRESHOLD, "{:?} at {}", d.kind, d.confidence);
            }
            assert!(s.command == seg.command || s.command.is_none(), "a part got another command");
            assert_eq!(s.node, seg.node);
            got.extend(s.lines.iter().filter(|l| !l.text.trim().is_empty()).map(|l| l.no));
        }
        assert_eq!(out[0].0.command, seg.command, "the first part lost its command");
        assert_eq!(got, want, "lines lost, duplicated or reordered");
        assert_eq!(out, split_and_detect(seg), "not deterministic");
    }
});
