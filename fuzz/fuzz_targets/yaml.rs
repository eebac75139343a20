//! The YAML tree (`yaml::parse`) and its JSON view.
//!
//! Invariants: node and error positions lie within the text (1-based line
//! and column, lines broken as YAML breaks them; the end-of-input marker may sit one line past the last);
//! nesting stays within `MAX_DEPTH`; the result is deterministic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roll_doctor_engine::yaml::{parse, to_json, Node, Value, MAX_DEPTH};

fuzz_target!(|data: &[u8]| {
    let text = roll_doctor_fuzz::text(data);
    // YAML breaks lines at CR, LF and CRLF (the pipeline feeds it cleaned
    // lines; rule files come raw).
    let lines = text.replace("\r\n", "\n").split(['\r', '\n']).count() as u32 + 1;
    let first = parse(&text);
    match &first {
        Ok(Some(root)) => {
            // Iterative walk: the tree may be deep.
            let mut stack: Vec<(&Node, usize)> = vec![(root, 1)];
            while let Some((n, depth)) = stack.pop() {
                assert!(n.line >= 1 && n.line <= lines, "node at line {} of {lines}", n.line);
                assert!(n.col >= 1);
                assert!(depth <= MAX_DEPTH + 1, "depth {depth}");
                match &n.value {
                    Value::Map(e) => e.iter().for_each(|(k, v)| {
                        stack.push((k, depth + 1));
                        stack.push((v, depth + 1));
                    }),
                    Value::Seq(items) => items.iter().for_each(|v| stack.push((v, depth + 1))),
                    _ => {}
                }
            }
            let _ = to_json(root);
        }
        Ok(None) => {}
        Err(e) => {
            assert!(e.line <= lines, "error at line {} of {lines}", e.line);
            assert!(!e.message.is_empty());
        }
    }
    assert_eq!(first, parse(&text), "not deterministic");
});
