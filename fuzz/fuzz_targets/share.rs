//! The share-link decoder (`share::decode`) and the report it rebuilds
//! (`share::report_from`), on hostile links.
//!
//! The first byte picks the form: the bytes as a whole fragment; the bytes
//! after `v1=`; or the bytes as the payload JSON, deflated and encoded the
//! way a real link is (so the fuzzer reaches serde and `report_from`
//! instead of stopping at base64 and deflate).
//!
//! Invariants: decoding never panics; a decoded payload re-encodes to a link
//! that decodes to an equal payload; the rebuilt report is deterministic and
//! its findings are among the rules'.
#![no_main]

use base64::Engine as _;
use libfuzzer_sys::fuzz_target;
use roll_doctor_engine::catalogue;
use roll_doctor_engine::share::{decode, encode, report_from};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let link = match mode % 3 {
        0 => roll_doctor_fuzz::text(rest),
        1 => format!("v1={}", roll_doctor_fuzz::text(rest)),
        _ => {
            let packed = miniz_oxide::deflate::compress_to_vec(rest, 1);
            format!("v1={}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed))
        }
    };
    let Ok(p) = decode(&link) else { return };
    let again = decode(&encode(&p)).expect("a re-encoded link decodes");
    assert_eq!(again, p, "re-encoding changed the payload");
    let r = report_from(&p);
    let json = serde_json::to_string(&r.report).expect("report serialises");
    assert_eq!(json, serde_json::to_string(&report_from(&p).report).unwrap(), "not deterministic");
    for f in &r.report.findings {
        assert!(catalogue().rule(&f.id).is_some(), "finding {} has no rule", f.id);
    }
});
