//! The two patterns the catalogue adds after the rules' signatures
//! ([`crate::pattern::FAILURE_LIKE`], [`crate::cann::SIGNATURE`]). They have
//! a file of their own so that `build.rs`, which analyses the embedded
//! catalogue's patterns for the signature finder (see
//! `signatures/analysis.rs`), includes the very same text.

/// Lines that look like failures: a Python exception (`KeyError: 1`, a bare
/// `AssertionError`), `ERROR` / `Error:`, or a CANN error code (`EI0006`,
/// `EJ0003`, `EZ9999`). Added last to the signature set, so the one scan
/// finds them; those no finding explains are listed as unexplained.
pub const FAILURE_LIKE: &str =
    r"\b[A-Z][A-Za-z0-9_]*(?:Error|Exception)\b(?::|\s*$)|\bERROR\b|\bError:|\b[EWI][A-Z0-9][0-9]{4}\b";

/// The shapes a CANN code is printed in (ASCII semantics, one line), for the
/// signature set: finds the lines that carry a code, and captures the code
/// (one group per shape; the set ignores the groups). A code may follow a
/// literal `\n`: the error text of a log embedded in a JSON string (an HTTP
/// 500 body from an inference server).
pub const CANN_CODE: &str = r"(?:\b|\\n)([EW][0-9A-Z][0-9]{4})(?::\s|:$|\[PID: \d+\]|:? (?:Inner Error|Internal error))|\b[A-Z][A-Za-z_/]*\(([EW][0-9A-Z][0-9]{4})\)|\(([EW][0-9A-Z][0-9]{4})\):|^\s*([EW][0-9A-Z][0-9]{4})\s{2,}\S|detail:([EW][0-9A-Z][0-9]{4})\b|(?:error code(?: is)?\s?:?\s?|errorCode = |\bret = |\bresult = |ErrCode=|errno[:\[]|\) failed: )((?:10[07]|148|[23]00|207|50[07]|[135]61)[0-9]{3})\b";
