//! The error codes a rule's `match` examples name (`EI0006`, `507033`,
//! `ERR02200`): the page's symptom search finds a rule by them.
//!
//! The embedded rules leave their examples out (they are test data, a
//! quarter of the rules' bytes), so build.rs runs this over them and stores
//! the codes instead; it includes this file by path, which is why it uses
//! nothing but `std`.

/// Appends to `out` the words of `s` that look like an error code: 5 to 10
/// letters and digits, at least three digits, no lower-case letter, and an
/// upper-case letter unless it is a six-digit return code.
pub fn codes_in(s: &str, out: &mut Vec<String>) {
    for w in s.split(|c: char| !c.is_ascii_alphanumeric()) {
        let digits = w.bytes().filter(u8::is_ascii_digit).count();
        let upper = w.bytes().any(|b| b.is_ascii_uppercase());
        let lower = w.bytes().any(|b| b.is_ascii_lowercase());
        let code = (5..=10).contains(&w.len()) && digits >= 3 && !lower && (upper || w.len() == 6);
        if code && !out.iter().any(|c| c == w) {
            out.push(w.to_string());
        }
    }
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
    }
}
