//! The one regex dialect of rule files.
//!
//! Every pattern a rule writes — a `signature:`, a `matches:` test on a
//! fact — is compiled here, by the same builder that validates it, so a
//! pattern that loads is a pattern that runs:
//!
//! - Rust `regex` syntax (no look-around, no backreferences), matched over
//!   the line's bytes with **ASCII semantics**: `\d`, `\w`, `\s`, `\b` and
//!   `(?i)` mean their ASCII forms. Log text is ASCII where it matters, and
//!   a Unicode `\b` cannot run in the lazy DFA: on lines with Chinese text
//!   or progress bars the whole signature set would fall back to a slow
//!   engine.
//! - Chinese (any non-ASCII) text is fine as literal text: `连接超时` matches
//!   those characters. Inside `[...]` it is not (a byte class cannot hold a
//!   character of three bytes): write `(连|接)`. Such a pattern is a load
//!   error that says so.
//! - Size limits: one compiled pattern may take at most [`SIZE_LIMIT`]
//!   bytes, so a hostile or careless rule file cannot make the page run out
//!   of memory.

use regex::bytes::{Regex, RegexBuilder, RegexSet, RegexSetBuilder};

/// Lines that look like failures: a Python exception (`KeyError: 1`, a bare
/// `AssertionError`), `ERROR` / `Error:`, or a CANN error code (`EI0006`,
/// `EJ0003`, `EZ9999`). Added last to the signature set, so the one scan
/// finds them; those no finding explains are listed as unexplained.
pub const FAILURE_LIKE: &str =
    r"\b[A-Z][A-Za-z0-9_]*(?:Error|Exception)\b(?::|\s*$)|\bERROR\b|\bError:|\b[EWI][A-Z0-9][0-9]{4}\b";

/// The most memory one compiled pattern may use.
pub const SIZE_LIMIT: usize = 2 << 20;
/// The most memory the whole signature set may use.
pub const SET_SIZE_LIMIT: usize = 64 << 20;
/// The longest pattern text accepted.
pub const MAX_PATTERN_LEN: usize = 2000;

/// Checks what the regex crate would accept but this dialect does not:
/// non-ASCII characters inside a `[...]` class, and over-long patterns.
fn precheck(p: &str) -> Result<(), String> {
    if p.len() > MAX_PATTERN_LEN {
        return Err(format!("pattern is {} bytes long; the limit is {MAX_PATTERN_LEN}", p.len()));
    }
    let mut depth = 0usize;
    let mut chars = p.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' => {
                depth += 1;
                // `[]…]` and `[^]…]`: a leading `]` is a literal.
                if chars.peek() == Some(&'^') {
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    chars.next();
                }
            }
            ']' if depth > 0 => depth -= 1,
            c if !c.is_ascii() && depth > 0 => {
                return Err(format!(
                    "{c:?} inside [...]: a character class holds ASCII only here; write alternatives such as (连|接) instead"
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Compiles one pattern of the dialect.
pub fn compile(p: &str) -> Result<Regex, String> {
    precheck(p)?;
    RegexBuilder::new(p).unicode(false).size_limit(SIZE_LIMIT).build().map_err(|e| e.to_string())
}

/// Compiles patterns (each already accepted by [`compile`]) into one set.
pub fn compile_set(patterns: &[String]) -> Result<RegexSet, String> {
    RegexSetBuilder::new(patterns).unicode(false).size_limit(SET_SIZE_LIMIT).build().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_classes_and_chinese_literals() {
        let r = compile(r"(?i)\bsocket\s+timeout\b|建链超时").unwrap();
        assert!(r.is_match("Socket  TIMEOUT".as_bytes()));
        assert!(r.is_match("HCCL 建链超时，请检查".as_bytes()));
        assert!(!r.is_match("sockettimeout".as_bytes()));
        // `\w` is ASCII: a Chinese character is not a word character.
        assert!(!compile(r"^\w+$").unwrap().is_match("超时".as_bytes()));
    }

    #[test]
    fn chinese_inside_a_class_is_a_clear_error() {
        let e = compile("[连接]超时").unwrap_err();
        assert!(e.contains("inside [...]"), "{e}");
        assert!(compile(r"[\]连]").is_err());
        assert!(compile(r"\[连\]").is_ok(), "escaped brackets are literals");
        assert!(compile("[]]连").is_ok(), "a leading ] is a literal");
    }

    #[test]
    fn limits() {
        assert!(compile(&"a".repeat(MAX_PATTERN_LEN + 1)).is_err());
        // A pattern whose automaton is huge is refused, not built.
        assert!(compile(r"(\w{1000}){1000}").is_err());
        assert!(compile("(").is_err());
    }
}
