//! Redaction (`redact::Redactor`) over several texts (NUL separates them).
//!
//! Invariants: no IPv4 address of the input that identifies a machine is
//! left in the output; no original listed in the mapping is left as a
//! whole token (a joined span is checked through the values in it); equal
//! texts give equal outputs; no placeholder equals an original; a fresh
//! redactor gives the same output (deterministic).
#![no_main]

use libfuzzer_sys::fuzz_target;
use roll_doctor_engine::redact::Redactor;
use roll_doctor_fuzz::private_ipv4s;

fuzz_target!(|data: &[u8]| {
    let all = roll_doctor_fuzz::text(data);
    let texts: Vec<&str> = all.split('\0').take(8).collect();
    let mut r = Redactor::for_texts(&texts);
    let out: Vec<String> = texts.iter().map(|t| r.redact(t)).collect();
    let joined = out.join("\n");
    let before: Vec<String> = texts.iter().flat_map(|t| private_ipv4s(t)).collect();
    for ip in private_ipv4s(&joined) {
        assert!(!before.contains(&ip), "{ip} survived: {joined:?}");
    }
    let mapping = r.mapping();
    for m in &mapping {
        assert!(
            !mapping.iter().any(|o| o.original == m.placeholder),
            "placeholder {} equals an original",
            m.placeholder
        );
        // IPv4 addresses are checked above, as the redactor delimits them
        // (`7.0.0.1` inside `127.0.0.1` is not that address).
        // A joined span (a value replaced together with text glued to it)
        // is no one's name: a placeholder made before it may spell it; the
        // values in it are checked as themselves.
        if m.kind != roll_doctor_engine::redact::Kind::Ipv4 && !m.joined {
            assert!(!roll_doctor_fuzz::has_token(&joined, &m.original), "{:?} survived: {joined:?}", m.original);
        }
    }
    for (i, a) in texts.iter().enumerate() {
        for (j, b) in texts.iter().enumerate().skip(i + 1) {
            if a == b {
                assert_eq!(out[i], out[j]);
            }
        }
    }
    let mut r2 = Redactor::for_texts(&texts);
    let again: Vec<String> = texts.iter().map(|t| r2.redact(t)).collect();
    assert_eq!(out, again, "not deterministic");
});
