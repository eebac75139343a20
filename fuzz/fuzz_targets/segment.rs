//! The segmenter (`segment::segment`).
//!
//! Invariants: every line keeps its real 1-based number (within the text,
//! increasing within and across segments, after the prompt line), its text
//! is the cleaned original line and holds no newline; segments have no blank
//! first or last line; the result is deterministic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roll_doctor_engine::segment::{clean_line, segment};

fuzz_target!(|data: &[u8]| {
    let text = roll_doctor_fuzz::text(data);
    let raw: Vec<&str> = text.split('\n').collect();
    let segs = segment(&text);
    let mut last = 0u32;
    for s in &segs {
        if let Some(c) = s.command_line {
            assert!(c > last, "prompt line {c} after line {last}");
            assert!(c as usize <= raw.len());
            last = c;
        }
        for l in &s.lines {
            assert!(l.no > last, "line {} after line {last}", l.no);
            assert!(l.no as usize <= raw.len(), "line {} of {}", l.no, raw.len());
            assert!(!l.text.contains('\n'));
            assert_eq!(l.text, clean_line(raw[l.no as usize - 1]), "line {} is not its original", l.no);
            last = l.no;
        }
        if let (Some(first), Some(end)) = (s.lines.first(), s.lines.last()) {
            assert!(!first.text.trim().is_empty() && !end.text.trim().is_empty(), "blank edge line");
        }
        assert!(s.start_line() <= s.end_line());
    }
    assert_eq!(segs, segment(&text), "not deterministic");
});
