//! The error codes a rule's `match` examples name (`EI0006`, `507033`,
//! `ERR02200`): the page's symptom search finds a rule by them.
//!
//! The embedded rules leave their examples out (they are test data, a
//! quarter of the rules' bytes), so build.rs runs this over them and stores
//! the codes instead; it includes this file by path, which is why it uses
//! nothing but `std` and depends on no other module (the code layer, `cann`,
//! takes its return-code ranges from here).

/// The first three digits of the six-digit return codes CANN prints: the
/// ACL, runtime and aclnn ranges (`507033`). The code layer (`cann`) reads
/// its codes with these ranges; they are defined here because build.rs
/// includes this file alone.
pub const RETURN_CODE_RANGES: &[&str] = &["100", "107", "148", "200", "207", "300", "500", "507", "161", "361", "561"];

/// Appends to `out` the words of `s` that look like an error code:
/// - a letter code: an upper-case letter first, 5 to 10 letters and digits,
///   at least three digits and no lower-case letter (`EI0006`, `E19999`,
///   `ERR02200`), but not a glog line prefix, whose level letter is followed
///   by the date (`E1016`, `W1119`, `F20251111`);
/// - a six-digit return code in one of [`RETURN_CODE_RANGES`] (`507033`;
///   not a pid or the microseconds of a timestamp);
/// - eight upper-case hex digits with a letter among them, as npu-smi and
///   the device's alarms print them (`80E18005`).
///
/// Chip names and sizes (`910B1`, `1024B`) start with a digit and are none
/// of these.
pub fn codes_in(s: &str, out: &mut Vec<String>) {
    for w in s.split(|c: char| !c.is_ascii_alphanumeric()) {
        if is_code_shaped(w) && !out.iter().any(|c| c == w) {
            out.push(w.to_string());
        }
    }
}

fn is_code_shaped(w: &str) -> bool {
    let b = w.as_bytes();
    let Some(&first) = b.first() else { return false };
    let digits = b.iter().filter(|c| c.is_ascii_digit()).count();
    if first.is_ascii_uppercase() {
        let glog_prefix =
            matches!(first, b'I' | b'W' | b'E' | b'F') && digits == b.len() - 1 && matches!(digits, 4 | 8);
        let lower = b.iter().any(u8::is_ascii_lowercase);
        return (5..=10).contains(&b.len()) && digits >= 3 && !lower && !glog_prefix;
    }
    if b.len() == 6 && digits == 6 {
        return RETURN_CODE_RANGES.contains(&&w[..3]);
    }
    b.len() == 8
        && b.iter().all(|c| c.is_ascii_digit() || (b'A'..=b'F').contains(c))
        && b.iter().any(u8::is_ascii_uppercase)
}

#[cfg(test)]
mod tests {
    use super::codes_in;

    #[test]
    fn finds_codes_and_leaves_words() {
        let mut out = Vec::new();
        codes_in("EI0006: Getting socket times out, error code is 507033 (ERR02200) at 10.0.0.1", &mut out);
        assert_eq!(out, ["EI0006", "507033", "ERR02200"]);
        codes_in("EI0006 again, Version 2024 hello", &mut out);
        assert_eq!(out.len(), 3);
        let mut out = Vec::new();
        codes_in("code 80E18005 E19999 EZ9999 rtKernelLaunch failed: 507035", &mut out);
        assert_eq!(out, ["80E18005", "E19999", "EZ9999", "507035"]);
    }

    /// Words of a log line that are no code: glog prefixes, pids, the
    /// microseconds of a timestamp, chip names, sizes, timestamps.
    #[test]
    fn leaves_prefixes_pids_times_and_chip_names() {
        let mut out = Vec::new();
        codes_in("E1016 12:00:01.324126 869905 raylet.cc:1] W1119 F20251111 pid=434627", &mut out);
        codes_in("| 0 910B1 | 310P3 | 1024B | 2024-10-07T08:00:00", &mut out);
        assert!(out.is_empty(), "{out:?}");
    }
}
