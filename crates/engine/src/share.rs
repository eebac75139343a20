//! Share links: a diagnosis in a URL fragment, never the raw logs.
//!
//! The fragment is `v1=` followed by base64url (no padding) of the
//! raw-deflated JSON of a [`Payload`]: the rule-pack version, the language,
//! the findings' ids, the facts and signature hits they rest on (values
//! redacted with consistent pseudonyms), the user's answers and symptoms,
//! and — only when the user opts in — redacted evidence excerpts. Opening
//! the link runs [`report_from`], which evaluates the same rules over the
//! same facts and hits and so reproduces the same findings.
//!
//! Decoding never panics: a corrupt, truncated, oversized or future-version
//! link is a [`ShareError`]. Every version ever produced keeps decoding
//! (`tests` holds a frozen v1 link).

use crate::catalogue::{catalogue, Catalogue};
use crate::diagnose::{collect, evaluate, evaluate_full, Collected, Evaluation, Session, SigHit};
use crate::facts::{Fact, FactValue, LineRef, Origin};
use crate::parse::fact_def;
use crate::redact::{Mapping, Redactor};
use crate::report::{EvidenceLine, Report, SegmentInfo};
use crate::rules::eval::HitRef;
use crate::segment::Line;
use crate::{InputKind, Lang};
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The current payload version.
pub const VERSION: u32 = 1;
/// Longest fragment accepted (characters).
pub const MAX_FRAGMENT: usize = 64 * 1024;
/// Largest decompressed payload accepted (bytes): a bomb stops here.
pub const MAX_JSON: usize = 1024 * 1024;
/// Most facts, hits or excerpts a link may carry (a real one carries tens;
/// the fragment limit already keeps them to a few thousand).
pub const MAX_ITEMS: usize = 20_000;
/// Most findings, answers or symptoms a link may name.
pub const MAX_IDS: usize = 2_000;

/// A fact in a link. Short keys keep links short.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharedFact {
    /// Name.
    #[serde(rename = "n")]
    pub name: String,
    /// Subject.
    #[serde(rename = "s", default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// Value (redacted when text).
    #[serde(rename = "v")]
    pub value: serde_json::Value,
    /// Input index.
    #[serde(rename = "i", default)]
    pub input: u32,
    /// Line.
    #[serde(rename = "l")]
    pub line: u32,
    /// Node, an index into [`Payload::nodes`].
    #[serde(rename = "d", default, skip_serializing_if = "Option::is_none")]
    pub node: Option<u32>,
    /// The line's text, redacted; empty unless excerpts were included.
    #[serde(rename = "t", default, skip_serializing_if = "String::is_empty")]
    pub text: String,
}

/// A signature hit in a link: the pattern by checksum (stable across rule
/// packs that keep the pattern), its input and line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedHit {
    /// FNV-1a of the pattern text.
    #[serde(rename = "p")]
    pub pattern: u32,
    /// Input index.
    #[serde(rename = "i", default)]
    pub input: u32,
    /// Line.
    #[serde(rename = "l")]
    pub line: u32,
    /// Node, an index into [`Payload::nodes`].
    #[serde(rename = "d", default, skip_serializing_if = "Option::is_none")]
    pub node: Option<u32>,
}

/// What a share link carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Payload {
    /// Payload version ([`VERSION`]).
    pub v: u32,
    /// Rule pack the sender used.
    pub rules: String,
    /// The sender's language (a language this version does not speak is read as English).
    #[serde(default, deserialize_with = "lenient_lang")]
    pub lang: Lang,
    /// Number of inputs.
    #[serde(default)]
    pub inputs: u32,
    /// Node names, redacted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<String>,
    /// Finding ids, in the sender's order.
    pub findings: Vec<String>,
    /// Facts the findings rest on.
    #[serde(default)]
    pub facts: Vec<SharedFact>,
    /// Hits the findings rest on.
    #[serde(default)]
    pub hits: Vec<SharedHit>,
    /// Answers and symptoms.
    #[serde(default)]
    pub session: Session,
    /// Redacted evidence lines (opt-in).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excerpts: Vec<EvidenceLine>,
}

/// A language a later version may add is no reason to refuse the link.
fn lenient_lang<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Lang, D::Error> {
    let v = serde_json::Value::deserialize(d)?;
    Ok(v.as_str().and_then(Lang::parse).unwrap_or_default())
}

/// Why a link could not be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShareError {
    /// The fragment is not a roll-doctor link (no `v<N>=` prefix).
    NotALink,
    /// Made by a newer roll-doctor.
    FutureVersion(u32),
    /// Longer or larger than any real link.
    TooLarge,
    /// Truncated or damaged.
    Corrupt(String),
}

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShareError::NotALink => write!(f, "not a roll-doctor share link"),
            ShareError::FutureVersion(v) => write!(f, "link version {v} is newer than this roll-doctor ({VERSION})"),
            ShareError::TooLarge => write!(f, "link is too large"),
            ShareError::Corrupt(why) => write!(f, "link is damaged or truncated: {why}"),
        }
    }
}

/// FNV-1a, 32 bits: a stable checksum of a signature pattern.
pub fn pattern_id(pattern: &str) -> u32 {
    let mut h: u32 = 0x811c9dc5;
    for b in pattern.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x01000193);
    }
    h
}

fn value_json(v: &FactValue, r: &mut Redactor) -> serde_json::Value {
    match v {
        FactValue::Bool(b) => serde_json::Value::Bool(*b),
        FactValue::Int(i) => serde_json::Value::from(*i),
        FactValue::Float(f) => serde_json::Number::from_f64(*f).map(serde_json::Value::Number).unwrap_or_default(),
        FactValue::Str(s) => serde_json::Value::String(r.redact(s)),
    }
}

/// Builds the payload for what the user sees: `inputs` with `session`.
/// Returns it with the redaction mapping (which stays on the page).
pub fn build(inputs: &[crate::Input], session: &Session, lang: Lang, excerpts: bool) -> (Payload, Vec<Mapping>) {
    let cat = catalogue();
    let c = collect(cat, inputs);
    let evaluation = evaluate_full(cat, &c, session, None);
    build_payload(cat, &c, &evaluation, session, lang, excerpts, inputs)
}

/// Builds the payload from a diagnosis already made (the page keeps what it
/// collected and evaluated, so sharing reads nothing twice). `inputs` are
/// the texts it was made from: they only teach the redactor the names they
/// reveal (see [`build`]).
pub fn build_from(
    cat: &Catalogue,
    c: &Collected,
    evaluation: &Evaluation,
    session: &Session,
    lang: Lang,
    excerpts: bool,
    inputs: &[crate::Input],
) -> (Payload, Vec<Mapping>) {
    build_payload(cat, c, evaluation, session, lang, excerpts, inputs)
}

/// Builds the payload; `inputs`, when given, teach the redactor the host and
/// user names they reveal (prompts, `/etc/hosts` lines, `hostname` output,
/// node markers, home paths), so those names are replaced wherever they
/// occur in what is shared, also where no pattern would find them.
fn build_payload(
    cat: &Catalogue,
    c: &Collected,
    evaluation: &Evaluation,
    session: &Session,
    lang: Lang,
    excerpts: bool,
    inputs: &[crate::Input],
) -> (Payload, Vec<Mapping>) {
    let report = &evaluation.report;
    // The answers' facts are re-derived from the session: only pasted facts travel.
    let shared: Vec<&Fact> = evaluation.support.facts.iter().filter_map(|&i| c.facts.get(i)).collect();
    // Redact over everything that may be shared, so placeholders are consistent.
    let mut corpus: Vec<String> = shared.iter().map(|f| f.text().to_string()).collect();
    corpus.extend(shared.iter().filter_map(|f| match &f.value {
        FactValue::Str(s) => Some(s.clone()),
        _ => None,
    }));
    corpus.extend(shared.iter().filter_map(|f| f.subject.clone()));
    corpus.extend(c.nodes.iter().cloned());
    let all_evidence: Vec<&EvidenceLine> = report.findings.iter().flat_map(|f| f.evidence.iter()).collect();
    corpus.extend(all_evidence.iter().map(|e| e.text.clone()));
    let mut r = Redactor::for_texts(&corpus);
    for i in inputs {
        r.learn(&i.text);
        if let Some(n) = &i.node {
            r.learn_host(n);
        }
    }
    for n in &c.nodes {
        r.learn_host(n);
    }
    let nodes: Vec<String> = c.nodes.iter().map(|n| r.redact(n)).collect();
    let facts = shared
        .iter()
        .filter_map(|f| {
            let at = f.line_ref()?;
            Some(SharedFact {
                name: f.name.to_string(),
                subject: f.subject.as_ref().map(|s| r.redact(s)),
                value: value_json(&f.value, &mut r),
                input: at.input,
                line: at.line,
                node: f.node,
                text: if excerpts { r.redact(f.text()) } else { String::new() },
            })
        })
        .collect();
    let hits = evaluation
        .support
        .hits
        .iter()
        .map(|(h, sig)| SharedHit {
            pattern: pattern_id(&cat.signatures.patterns[*sig]),
            input: h.at.input,
            line: h.at.line,
            node: h.node,
        })
        .collect();
    let mut ex: Vec<EvidenceLine> = Vec::new();
    if excerpts {
        for e in all_evidence.into_iter().filter(|e| e.answer.is_none()) {
            let mut e = e.clone();
            e.text = r.redact(&e.text);
            e.node = e.node.map(|n| r.redact(&n));
            if !ex.contains(&e) {
                ex.push(e);
            }
        }
        ex.sort();
    }
    let payload = Payload {
        v: VERSION,
        rules: cat.version().to_string(),
        lang,
        inputs: c.inputs as u32,
        nodes,
        findings: report.findings.iter().map(|f| f.id.clone()).collect(),
        facts,
        hits,
        session: session.clone(),
        excerpts: ex,
    };
    (payload, r.mapping())
}

/// Encodes a payload as a URL fragment (without the `#`).
pub fn encode(p: &Payload) -> String {
    let json = serde_json::to_vec(p).expect("payload serialises");
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("v{}={}", VERSION, base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed))
}

/// Decodes a fragment (with or without the leading `#`).
pub fn decode(fragment: &str) -> Result<Payload, ShareError> {
    let f = fragment.trim().trim_start_matches('#');
    if f.len() > MAX_FRAGMENT {
        return Err(ShareError::TooLarge);
    }
    // The link may carry other parameters (`lang=zh&v1=…`); find ours.
    let part = f.split('&').find(|p| p.starts_with('v') && p.contains('=')).ok_or(ShareError::NotALink)?;
    let (tag, data) = part.split_once('=').ok_or(ShareError::NotALink)?;
    let version: u32 = tag[1..].parse().map_err(|_| ShareError::NotALink)?;
    if version > VERSION {
        return Err(ShareError::FutureVersion(version));
    }
    if version == 0 {
        return Err(ShareError::NotALink);
    }
    let packed = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(|e| ShareError::Corrupt(e.to_string()))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_JSON).map_err(|e| match e.status {
        miniz_oxide::inflate::TINFLStatus::HasMoreOutput => ShareError::TooLarge,
        _ => ShareError::Corrupt("compressed data is invalid".into()),
    })?;
    // Only v1 exists; a v2 would upgrade a v1 payload here. Fields a later
    // version adds are ignored; a wrong type names where it is
    // (`facts[3].l: invalid type: string "x", expected u32`). serde_json
    // refuses nesting deeper than 128 levels.
    // Through a `Value`: the page then holds one deserializer for JSON text
    // (the `Value`'s) and reads every schema from a `Value`.
    let value: serde_json::Value = serde_json::from_slice(&json).map_err(|e| ShareError::Corrupt(e.to_string()))?;
    let p: Payload = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        ShareError::Corrupt(if path == "." { inner.to_string() } else { format!("{path}: {inner}") })
    })?;
    if p.v != version {
        return Err(ShareError::Corrupt("version mismatch".into()));
    }
    let items = [p.facts.len(), p.hits.len(), p.excerpts.len()];
    let ids = [p.findings.len(), p.session.answers.len(), p.session.symptoms.len(), p.nodes.len()];
    if items.iter().any(|&n| n > MAX_ITEMS) || ids.iter().any(|&n| n > MAX_IDS) {
        return Err(ShareError::TooLarge);
    }
    Ok(p)
}

/// A report rebuilt from a link, with what changed since it was made.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedReport {
    /// The report.
    pub report: Report,
    /// The link was made with another rule pack.
    pub rules_changed: bool,
    /// Findings of the link that the current rules no longer produce.
    pub missing: Vec<String>,
}

/// Most nodes a link may name.
const MAX_NODES: usize = 1024;

/// Rebuilds the diagnosis a link describes.
pub fn report_from(p: &Payload) -> SharedReport {
    let cat = catalogue();
    let inputs = (p.inputs.max(1) as usize).min(1024);
    let by_pattern: HashMap<u32, usize> =
        cat.signatures.patterns.iter().enumerate().map(|(i, p)| (pattern_id(p), i)).collect();
    let mut c = Collected {
        inputs,
        nodes: p.nodes.iter().take(MAX_NODES).cloned().collect(),
        segments: (0..inputs)
            .map(|i| SegmentInfo {
                input: i,
                kind: InputKind::Unrecognised,
                confidence: 0,
                command: None,
                node: None,
                start_line: 0,
                end_line: 0,
            })
            .collect(),
        ..Collected::default()
    };
    let nodes_known = c.nodes.len();
    let node_of = |n: Option<u32>| n.filter(|n| (*n as usize) < nodes_known);
    c.lines = vec![Vec::new(); inputs];
    for e in &p.excerpts {
        let i = e.input.unwrap_or(0).min(inputs - 1);
        c.lines[i].push(Line { no: e.line, text: e.text.clone() });
    }
    for l in &mut c.lines {
        l.sort_by_key(|x| x.no);
        l.dedup_by_key(|x| x.no);
    }
    for f in &p.facts {
        // A fact this version no longer declares, or of another type, is left out.
        let Some(def) = fact_def(&f.name) else { continue };
        let Some(value) = FactValue::from_json_as(&f.value, def.ty) else { continue };
        let input = f.input.min(inputs as u32 - 1);
        c.facts.push(Fact {
            name: def.name,
            subject: f.subject.clone(),
            value,
            node: node_of(f.node),
            origin: Origin::Line { at: LineRef { input, line: f.line }, segment: input, text: f.text.as_str().into() },
        });
    }
    for h in &p.hits {
        if let Some(&sig) = by_pattern.get(&h.pattern) {
            let at = LineRef { input: h.input.min(inputs as u32 - 1), line: h.line };
            c.hits.push(SigHit { signature: sig, at: HitRef { at, node: node_of(h.node) } });
        }
    }
    let mut report = evaluate(cat, &c, &p.session, Some(&p.findings));
    report.segments.clear();
    let missing: Vec<String> =
        p.findings.iter().filter(|id| !report.findings.iter().any(|f| &f.id == *id)).cloned().collect();
    SharedReport { report, rules_changed: p.rules != cat.version(), missing }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Input;

    fn input(text: &str) -> Vec<Input> {
        vec![Input { text: text.into(), ..Input::default() }]
    }

    #[test]
    fn round_trip_reproduces_the_findings() {
        let text = "[root@node1 ~]# ulimit -n\n1024\n[ERROR] HCCL(1,python): x\nEI0006: [PID: 1] Getting socket times out. peer 10.20.0.29\n";
        let original = crate::diagnose(text);
        let (p, mapping) = build(&input(text), &Session::default(), Lang::Zh, true);
        let link = encode(&p);
        assert!(link.starts_with("v1="));
        let back = report_from(&decode(&link).unwrap());
        assert!(!back.rules_changed);
        assert!(back.missing.is_empty());
        let ids = |r: &Report| r.findings.iter().map(|f| f.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&back.report), ids(&original));
        let lines = |r: &Report| {
            r.findings.iter().map(|f| f.evidence.iter().map(|e| e.line).collect::<Vec<_>>()).collect::<Vec<_>>()
        };
        assert_eq!(lines(&back.report), lines(&original));
        // redacted excerpts, mapping kept locally
        let json = serde_json::to_string(&back.report).unwrap();
        assert!(!json.contains("10.20.0.29"));
        assert!(mapping.iter().any(|m| m.original == "10.20.0.29"));
    }

    /// Found by fuzzing: a home path revealed a user name equal to the CANN
    /// code a finding rests on. The name is replaced everywhere, the code in
    /// the carried fact too, so the link cannot reproduce that finding; it
    /// must say so rather than leak the name.
    #[test]
    fn a_revealed_name_stays_hidden_even_where_a_finding_rests_on_it() {
        // (No runtime result number here: 507013 would be a code of its own,
        // which the link keeps.)
        let text =
            "cd /home/EH9999\nEH9999: Inner Error!\nEH9999: [PID: 5536] wait for compute device to finish failed.\n";
        let original = crate::diagnose(text);
        assert!(original.findings.iter().any(|f| f.id == crate::diagnose::CANN_FINDING), "{:?}", original.findings);
        let (p, mapping) = build(&input(text), &Session::default(), Lang::En, true);
        assert!(mapping.iter().any(|m| m.original == "EH9999"));
        let link = encode(&p);
        let json = serde_json::to_string(&decode(&link).unwrap()).unwrap();
        assert!(!json.contains("EH9999"), "{json}");
        let back = report_from(&decode(&link).unwrap());
        assert_eq!(back.missing, vec![crate::diagnose::CANN_FINDING.to_string()]);
    }

    #[test]
    fn without_excerpts_no_text_leaves() {
        let text = "EI0006: [PID: 1] Getting socket times out. peer 10.20.0.29 host gpu-17.corp.internal\n";
        let (p, _) = build(&input(text), &Session::default(), Lang::En, false);
        let json = serde_json::to_string(&p).unwrap();
        assert!(!json.contains("Getting socket"), "{json}");
        let back = report_from(&p);
        assert_eq!(back.report.findings[0].id, "hccl-connect-timeout");
        assert_eq!(back.report.findings[0].evidence[0].line, 1);
    }

    #[test]
    fn bad_links_are_errors_not_panics() {
        let (p, _) = build(&input("EI0006: Getting socket times out.\n"), &Session::default(), Lang::En, false);
        let link = encode(&p);
        assert_eq!(decode("hello"), Err(ShareError::NotALink));
        assert_eq!(decode("#v9=abc"), Err(ShareError::FutureVersion(9)));
        assert!(matches!(decode(&link[..link.len() - 5]), Err(ShareError::Corrupt(_))));
        assert!(matches!(decode("v1=!!!!"), Err(ShareError::Corrupt(_))));
        assert_eq!(decode(&"v1=".repeat(30_000)), Err(ShareError::TooLarge));
        // a deflate bomb: 4 MB of zeros
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 4 << 20], 9);
        let bomb = format!("v1={}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bomb));
        assert_eq!(decode(&bomb), Err(ShareError::TooLarge));
        assert_eq!(
            decode(&format!("#lang=zh&{link}")).map(|p| p.findings),
            Ok(vec!["hccl-connect-timeout".to_string()])
        );
    }

    /// A link made by version 1. It must decode forever.
    const FROZEN_V1: &str = "v1=q1YqU7Iy1FEqKs1JLVayUsrPSVHSUcpJzEsHclLzgOy0zLyUzLx0oGR0bC0A";

    /// Real links made by the first release (rule pack `49-…`) from a real
    /// transcript: `npu-smi info`, an 8-card `hccn_tool -link` loop with
    /// card 5 DOWN, `ss -tlnp`, `ulimit -n` = 1024 and an EI0006 plog; the
    /// user had clicked "every card has its own IP" on the timeout's `ip`
    /// step and picked `ray-nodes-not-joining` as a symptom. One without
    /// excerpts, one with them. Both must keep giving the report they gave.
    const FROZEN_V1_TRANSCRIPT: &str = "v1=nZNdb5swFIb_iuWrdgJkY4cPS71rNUWauqrbtIu0qgg4iVdiI2yadlH--46BRtlEdxGQAB-_5-G1j88ev2BBA9x2tbRYYJ6HyzyVdFktcYDrQq8h-HsD30o3nbO9eKV0pfQaBgu8Kcs6rJV-Diuz06DrarVVLnTGhLXZQaBXlEZrWUJYbaXpHITb4i3UppIWni78ZZQGJH4EelH6_yz2WMO_IVtHnv9kXeE6C5neJ4E3OMc_7rw1LAiYxWIWB9hB1OvRoBcIJIfgvzA6DWNnweJpGD8LxqZhs7NgfBqWnAWbjbDrrz9v_8KlE7he9A60FnDWST2SEpbmI4xE_X3KS8YqfJl_-35ziwjqL07yBL1fY5bwoH9Cn_ygs7K14uLiAa9L-wSDF9k-4KBR1RUjGY2DVXVF48vLo8PhCEfarFQtB2uUxPzUVTa48mF8gEO7UeOZbbBgSZpmLEsZOclIqaf7Wc5TyvKZP16nswCx0lplwMEeF9ruwHWP9L05FGKqj2AngYpVA99DFoyKug59O_bUt23jzLbv1g-a7hBg-VrKthkXAcWTYynl68fVHGT9XgyyYTuOMyk9ztzMCSGJQIu7-bVANM5jlrBHFJN4FhIekiykmSCpiEnEOY84S9Bn6Ry4Q9aUz9Ihv2KLYM0RupeFNVrAe2ucRPcFmKtUhWBNyEpdIbeRqCpcgZTu8yLYiMMf";
    const FROZEN_V1_TRANSCRIPT_NO_EXCERPTS: &str = "v1=hZLBboMwDIbfxeemggZI4bzztsu0QzVNFNI2W3BQE1Z1iHefA2yiEitCgsTx99vBfwtfkIUrODdaWsggStk-FTLcl3tYgc7xSMHvE60V1o2zffJBYanwSJsdnIpCM63wk5XmgpTXaFUpx5wxTJsLBfqMwiDKgsKqkqZxFD7nV4amlJbejn0YhSQJb6SeF77OrgWk2kTj2uu_W5e7xhLp-wzoS53Dy7NvDbKAmoUs3nSru1g4j_EFbDOPRQsYn8fiBSyax5IFLB6xh6fXxxtQ_ILWEmadxJFIuEhHKFj3z5RL_v7KMNI1moPScgDCYBNNc7cdTe6kxsHVkPFEiC3fCh5M0kToJf1pFImQp3HMb09JxEprlaGyLeRoL_I8SHqDDnefMxNdilRB1bQeKNrlWjPvyV71WtXOVL1l_3Fe1_0A";

    /// What those links gave when they were made: per finding its id,
    /// severity, evidence lines, facts and steps (state, clicked answer).
    fn summary(r: &Report) -> Vec<String> {
        r.findings
            .iter()
            .map(|f| {
                let ev: Vec<String> = f.evidence.iter().map(|e| format!("{}:{}", e.line, e.text)).collect();
                let facts: Vec<String> = f
                    .facts
                    .iter()
                    .map(|x| {
                        format!("{}[{}]={}@{}", x.name, x.subject.as_deref().unwrap_or(""), x.value.to_text(), x.line())
                    })
                    .collect();
                let steps: Vec<String> = f
                    .steps
                    .iter()
                    .map(|s| {
                        format!(
                            "{}={:?}{}",
                            s.id,
                            s.state,
                            s.answer.as_deref().map(|a| format!("({a})")).unwrap_or_default()
                        )
                    })
                    .collect();
                format!("{} {:?} ev={ev:?} facts={facts:?} steps={steps:?}", f.id, f.severity)
            })
            .collect()
    }

    /// `summary`, where a rule pack that grew a step since the link was made
    /// still counts as the same report: every step the link's report had
    /// keeps its place, state and clicked answer; steps may be added.
    fn same_report(got: &[String], want: &[String]) -> Result<(), String> {
        let split = |s: &str| -> (String, Vec<String>) {
            let (head, steps) = s.split_once(" steps=").unwrap_or((s, "[]"));
            let steps: Vec<String> = serde_json::from_str(steps).unwrap_or_default();
            (head.to_string(), steps)
        };
        if got.len() != want.len() {
            return Err(format!("{} findings, want {}:\n{got:#?}", got.len(), want.len()));
        }
        for (g, w) in got.iter().zip(want) {
            let ((gh, gs), (wh, ws)) = (split(g), split(w));
            if gh != wh {
                return Err(format!("got  {gh}\nwant {wh}"));
            }
            let mut it = gs.iter();
            if !ws.iter().all(|step| it.any(|x| x == step)) {
                return Err(format!("{gh}: steps {gs:?} lack {ws:?} in order"));
            }
        }
        Ok(())
    }

    #[test]
    fn old_links_still_decode() {
        // {"v":1,"rules":"old","lang":"en","findings":[]}, raw deflate, base64url: the v1 format.
        let p = decode(FROZEN_V1);
        assert!(p.is_ok(), "{p:?}");
    }

    #[test]
    fn a_real_v1_link_keeps_giving_its_report() {
        let timeout = "EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time.";
        let want_with_excerpts = vec![
            r#"hccl-link-down Error ev=["57:link status: DOWN"] facts=["hccn.link_status[5]=DOWN@57"] steps=["link=Answered", "history=Ask", "optical=Ask"]"#.to_string(),
            r#"ulimit-too-low Error ev=["68:1024"] facts=["ulimit.nofile[]=1024@68"] steps=["limit=Answered", "ray-limit=Ask", "docker=Ask"]"#.to_string(),
            format!(r#"hccl-connect-timeout Error ev=["71:{timeout}"] facts=[] steps=["link=Answered", "ip=Answered(all-own)", "tls=Ask", "ping=Ask", "timeout=Ask"]"#),
            r#"ray-nodes-not-joining Error ev=[] facts=[] steps=["ping=Ask", "listen=Answered", "connect=Ask", "firewall=Ask", "env=Ask", "status=Ask"]"#.to_string(),
        ];
        let p = decode(FROZEN_V1_TRANSCRIPT).expect("decodes");
        assert_eq!(p.lang, Lang::Zh);
        assert_eq!(p.session.answers.len(), 1);
        let back = report_from(&p);
        assert!(back.missing.is_empty(), "{:?}", back.missing);
        if let Err(e) = same_report(&summary(&back.report), &want_with_excerpts) {
            panic!("{e}");
        }
        // Without excerpts: the same findings, lines and facts; no text.
        let p = decode(FROZEN_V1_TRANSCRIPT_NO_EXCERPTS).expect("decodes");
        let back = report_from(&p);
        let ids: Vec<&str> = back.report.findings.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["hccl-link-down", "ulimit-too-low", "hccl-connect-timeout", "ray-nodes-not-joining"]);
        let lines: Vec<Vec<u32>> =
            back.report.findings.iter().map(|f| f.evidence.iter().map(|e| e.line).collect()).collect();
        assert_eq!(lines, vec![vec![57], vec![68], vec![71], vec![]]);
    }
}
