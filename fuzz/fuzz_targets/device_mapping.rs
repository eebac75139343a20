//! The `device_mapping` evaluator (`parse::roll_config::device_mapping::eval`).
//!
//! Invariants: a list stays within `MAX_IDS`; an error says something; the
//! compact form of the ids is well formed; the result is deterministic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roll_doctor_engine::parse::roll_config::device_mapping::{compact, eval, Outcome, MAX_IDS};

fuzz_target!(|data: &[u8]| {
    let text = roll_doctor_fuzz::text(data);
    let out = eval(&text);
    match &out {
        Outcome::Ids(ids) => {
            assert!(ids.len() <= MAX_IDS, "{} ids", ids.len());
            let c = compact(ids);
            assert_eq!(c.is_empty(), ids.is_empty());
        }
        Outcome::Error(e) => assert!(!e.is_empty()),
        Outcome::Unknown => {}
    }
    assert_eq!(out, eval(&text), "not deterministic");
});
