//! The roll-doctor engine: from pasted text to a bilingual diagnosis.
//!
//! Users of ROLL on Ascend NPUs paste logs, configs and command output. The
//! engine runs one pipeline over them, one module per stage:
//!
//! 1. [`segment`] splits the paste at prompts, code fences and collector
//!    markers, and cleans CRLF, ANSI codes and quote prefixes, keeping the
//!    user's line numbers;
//! 2. [`detect`] gives each segment an [`InputKind`] with a confidence;
//! 3. [`parse`] turns structured segments into typed [`Fact`]s;
//! 4. [`signatures`] scans log lines once against every rule's patterns;
//! 5. [`rules`] (loaded into the [`Catalogue`]) decide which fire;
//! 6. [`report`] orders the findings root cause first, with evidence,
//!    decision-tree steps and fixes; [`render`] prints them as text or
//!    Markdown in either language.
//!
//! The engine is pure: no I/O, no clock, no randomness, no web dependency.
//! The same input always gives the same report, byte for byte.
//!
//! ```
//! let report = roll_doctor_engine::diagnose("EI0006: Getting socket times out.");
//! assert_eq!(report.findings[0].id, "hccl-connect-timeout");
//! ```

#![deny(missing_docs)]

pub mod cann;
pub mod catalogue;
pub mod cluster;
pub mod collector;
pub mod detect;
pub mod diagnose;
pub mod example_codes;
mod factor;
pub mod facts;
pub mod kb;
pub mod parse;
pub mod pattern;
pub mod redact;
pub mod render;
pub mod report;
pub mod rules;
pub mod segment;
pub mod share;
pub mod signatures;
pub mod stub;
pub mod template;
pub mod text;
pub mod unexplained;
pub mod yaml;

pub use catalogue::{catalogue, Catalogue};
pub use detect::{Detection, InputKind};
pub use facts::{Fact, FactDef, FactValue, LineRef, Origin, ValueType};
pub use report::{EvidenceLine, Finding, Report, StepState};
pub use rules::{Area, Rule, Scope, Severity};
pub use text::{Lang, Text};

pub use diagnose::{AnswerRef, Session};

/// One pasted text (or file) with an optional label such as a node name.
#[derive(Clone, Debug, Default)]
pub struct Input {
    /// A name for the input (`node-1`, a file name); may be empty.
    pub label: String,
    /// The text.
    pub text: String,
    /// Kinds the user chose for segments, overriding detection.
    pub overrides: Vec<KindOverride>,
    /// The node (machine) this input was taken on, when known. Collector
    /// node markers inside the text override it for what follows them.
    pub node: Option<String>,
}

/// The user's choice of kind for the segment that starts at `start_line`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindOverride {
    /// The segment's first line, as reported in `Report::segments`.
    pub start_line: u32,
    /// The kind to use.
    pub kind: InputKind,
}

/// Diagnoses one paste.
pub fn diagnose(text: &str) -> Report {
    diagnose_inputs(&[Input { text: text.to_string(), ..Input::default() }])
}

/// Diagnoses several inputs together: facts from one can explain another.
pub fn diagnose_inputs(inputs: &[Input]) -> Report {
    diagnose_with(catalogue(), inputs)
}

/// Diagnoses with an explicit catalogue (tests use a hand-made one).
pub fn diagnose_with(cat: &Catalogue, inputs: &[Input]) -> Report {
    diagnose::evaluate(cat, &diagnose::collect(cat, inputs), &Session::default(), None)
}

/// Diagnoses inputs together with the user's answers and chosen symptoms.
pub fn diagnose_session(inputs: &[Input], session: &Session) -> Report {
    let cat = catalogue();
    diagnose::evaluate(cat, &diagnose::collect(cat, inputs), session, None)
}
