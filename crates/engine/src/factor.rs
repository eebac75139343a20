//! Stage 4's preparation: the required factor of each signature, and how
//! each of its alternatives is searched (see `signatures`, "Searching the
//! buffer, not the lines").
//!
//! This module is pure analysis of a pattern's syntax tree (it uses nothing
//! else of the crate), so build.rs includes it too and works out the
//! branches of every embedded signature at build time: parsing the 411
//! rule signatures and walking their trees was half of loading the
//! catalogue natively, and the catalogue is on the page's path to its first
//! finding. The engine
//! reads those from the build's table ([`decode`]) and analyses here only
//! what the build did not see (extra rule files, a knowledge base, the
//! engine's own two patterns).

use regex_syntax::hir::{Class, Hir, HirKind};

/// The branches of `pattern`'s required factor (one per alternative), or
/// `None` when the pattern does not parse in the engine's dialect or can
/// match without a factor.
pub(crate) fn branches(pattern: &str) -> Option<Vec<Branch>> {
    let hir = regex_syntax::ParserBuilder::new().unicode(false).utf8(false).build().parse(pattern).ok()?;
    let (factor, _) = factor(&hir)?;
    let alternatives = match factor.kind() {
        HirKind::Alternation(xs) => xs.clone(),
        _ => vec![factor],
    };
    Some(alternatives.iter().map(branch).collect())
}

/// The key of `pattern` in the build's table: its FNV-1a hash. A hash, not
/// the text, keeps the table small (the page carries it); build.rs checks
/// that no two embedded signatures share one. A pattern of an extra rule
/// file that happened to share an embedded one's key would be searched by
/// that one's factor and could miss lines: at 64 bits, with about 400
/// keys, the chance is about one in 4·10^16 per pattern.
pub(crate) fn key(pattern: &str) -> u64 {
    pattern.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Appends `pattern`'s entry to the build's table (little-endian; counts,
/// lengths and offsets as `u16`): `key: u64, size: u16` (of what follows),
/// `branches, (tag: u8, …)*`, where tag 0 and 1 are literals (exact, any
/// case) `count, literal*`, 2 a piece `count, (32 bytes)*`, 3 a regex
/// `len, text`. A literal is `len, bytes`, or, when it is in the pattern's
/// text as written (most are), `0x8000 | len, offset`: the engine has the
/// text when it looks the entry up, so the table need not hold it twice.
/// `None` when something does not fit. (build.rs writes the table; the
/// engine only reads it, but for its tests.)
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn encode(pattern: &str, branches: &[Branch], out: &mut Vec<u8>) -> Option<()> {
    fn n(out: &mut Vec<u8>, x: usize) -> Option<()> {
        out.extend(u16::try_from(x).ok()?.to_le_bytes());
        Some(())
    }
    let mut body = Vec::new();
    n(&mut body, branches.len())?;
    for b in branches {
        match b {
            Branch::Lits(lits, folded) => {
                body.push(u8::from(*folded));
                n(&mut body, lits.len())?;
                for l in lits {
                    let written = (!l.is_empty()).then(|| pattern.as_bytes().windows(l.len()).position(|w| w == l));
                    match written.flatten() {
                        Some(at) if l.len() < 0x8000 => {
                            n(&mut body, 0x8000 | l.len())?;
                            n(&mut body, at)?;
                        }
                        _ if l.len() < 0x8000 => {
                            n(&mut body, l.len())?;
                            body.extend(l);
                        }
                        _ => return None,
                    }
                }
            }
            Branch::Piece(sets) => {
                body.push(2);
                n(&mut body, sets.len())?;
                for s in sets {
                    s.iter().for_each(|w| body.extend(w.to_le_bytes()));
                }
            }
            Branch::Regex(r) => {
                body.push(3);
                n(&mut body, r.len())?;
                body.extend(r.as_bytes());
            }
        }
    }
    out.extend(key(pattern).to_le_bytes());
    n(out, body.len())?;
    out.extend(body);
    Some(())
}

fn take<'a>(t: &'a [u8], at: &mut usize, len: usize) -> Option<&'a [u8]> {
    let s = t.get(*at..at.checked_add(len)?)?;
    *at += len;
    Some(s)
}

fn take_u16(t: &[u8], at: &mut usize) -> Option<usize> {
    take(t, at, 2).map(|b| usize::from(u16::from_le_bytes([b[0], b[1]])))
}

/// The key and the start of each entry of a table [`encode`] wrote (up to
/// a cut or malformed one).
pub(crate) fn entries(table: &[u8]) -> impl Iterator<Item = (u64, usize)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let start = at;
        let key = u64::from_le_bytes(take(table, &mut at, 8)?.try_into().ok()?);
        let size = take_u16(table, &mut at)?;
        take(table, &mut at, size)?;
        Some((key, start))
    })
}

/// The branches of the entry at `start` of a table [`encode`] wrote, with
/// `pattern` the text it was written for. `None` on a cut or malformed
/// entry, or one that does not fit `pattern` (its literals point past it).
pub(crate) fn decode(table: &[u8], start: usize, pattern: &str) -> Option<Vec<Branch>> {
    let mut at = start.checked_add(8)?;
    let size = take_u16(table, &mut at)?;
    let t = take(table, &mut at, size)?;
    let at = &mut 0;
    let count = take_u16(t, at)?;
    let mut branches = Vec::with_capacity(count.min(t.len()));
    for _ in 0..count {
        let tag = take(t, at, 1)?[0];
        let items = take_u16(t, at)?;
        branches.push(match tag {
            0 | 1 => {
                let mut lits = Vec::with_capacity(items.min(t.len()));
                for _ in 0..items {
                    let len = take_u16(t, at)?;
                    let lit = if len & 0x8000 != 0 {
                        let from = take_u16(t, at)?;
                        pattern.as_bytes().get(from..from + (len & 0x7fff))?
                    } else {
                        take(t, at, len)?
                    };
                    lits.push(lit.to_vec());
                }
                Branch::Lits(lits, tag == 1)
            }
            2 => {
                let mut sets = Vec::with_capacity(items.min(t.len()));
                for _ in 0..items {
                    let b = take(t, at, 32)?;
                    let w = |i: usize| u64::from_le_bytes(b[i * 8..i * 8 + 8].try_into().unwrap_or_default());
                    sets.push([w(0), w(1), w(2), w(3)]);
                }
                Branch::Piece(sets)
            }
            3 => Branch::Regex(String::from_utf8(take(t, at, items)?.to_vec()).ok()?),
            _ => return None,
        });
    }
    Some(branches)
}

/// The bytes a position of a fixed-width piece may hold.
pub(crate) type ByteSet = [u64; 4];

pub(crate) fn set_has(s: &ByteSet, b: u8) -> bool {
    s[(b >> 6) as usize] & (1u64 << (b & 63)) != 0
}

pub(crate) fn set_len(s: &ByteSet) -> u32 {
    s.iter().map(|w| w.count_ones()).sum()
}

pub(crate) fn set_bytes(s: &ByteSet) -> impl Iterator<Item = u8> + '_ {
    s.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = w.trailing_zeros();
                w &= w - 1;
                (i as u32 * 64 + b) as u8
            })
        })
    })
}

fn set_of(bytes: impl IntoIterator<Item = u8>) -> ByteSet {
    let mut s = [0u64; 4];
    for b in bytes {
        s[(b >> 6) as usize] |= 1u64 << (b & 63);
    }
    s
}

/// The set with ASCII letters folded to lower case.
fn set_folded(s: &ByteSet) -> ByteSet {
    // 'A'..='Z' are bits 1..=26 of the second word, 'a'..='z' bits 33..=58.
    const UPPER: u64 = 0x07ff_fffe;
    let mut f = *s;
    f[1] = (s[1] & !UPPER) | ((s[1] & UPPER) << 32);
    f
}

/// The byte sets of a fixed-width factor, position by position (assertions
/// are zero-width and left out), or `None` when it is not fixed-width.
fn positions(h: &Hir, out: &mut Vec<ByteSet>) -> Option<()> {
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(l) => out.extend(l.0.iter().map(|&b| set_of([b]))),
        HirKind::Class(Class::Bytes(c)) => out.push(set_of(c.iter().flat_map(|r| r.start()..=r.end()))),
        HirKind::Capture(c) => positions(&c.sub, out)?,
        HirKind::Repetition(r) if Some(r.min) == r.max && r.min <= 64 => {
            for _ in 0..r.min {
                positions(&r.sub, out)?;
            }
        }
        HirKind::Concat(xs) => {
            for x in xs {
                positions(x, out)?;
            }
        }
        _ => return None,
    }
    Some(())
}

/// How a factor's alternative is searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Branch {
    /// One of these literals is in the line; `folded`: in any case (the
    /// literals are in lower case, searched in the lower-cased line).
    Lits(Vec<Vec<u8>>, bool),
    /// A fixed-width run of byte sets, matched in the raw line; one of its
    /// positions holds at most three bytes (what the piece is found by).
    Piece(Vec<ByteSet>),
    /// Anything else: a regex (its text).
    Regex(String),
}

/// The longest common prefix of `lits`.
fn common_prefix(lits: &[Vec<u8>]) -> &[u8] {
    let first = &lits[0];
    let n = lits.iter().map(|l| first.iter().zip(l).take_while(|(a, b)| a == b).count()).min().unwrap_or(0);
    &first[..n]
}

/// The longest run of single-byte sets in `sets`, as `(start, end)`.
fn longest_run(sets: &[ByteSet]) -> (usize, usize) {
    let (mut best, mut start) = ((0, 0), 0);
    for i in 0..=sets.len() {
        if i == sets.len() || set_len(&sets[i]) != 1 {
            if i - start > best.1 - best.0 {
                best = (start, i);
            }
            start = i + 1;
        }
    }
    best
}

/// Classifies one alternative of a required factor.
fn branch(h: &Hir) -> Branch {
    let mut pos = Vec::new();
    if positions(h, &mut pos).is_some() && !pos.is_empty() {
        let run = longest_run(&pos);
        let folded: Vec<ByteSet> = pos.iter().map(set_folded).collect();
        let frun = longest_run(&folded);
        let bytes = |sets: &[ByteSet]| -> Vec<u8> { sets.iter().filter_map(|s| set_bytes(s).next()).collect() };
        // Text as written, unless `(?i)` leaves only a short run of it.
        if run.1 - run.0 >= 3 && (run.1 - run.0 >= 6 || frun.1 - frun.0 < 8) {
            return Branch::Lits(vec![bytes(&pos[run.0..run.1])], false);
        }
        if frun.1 - frun.0 >= 3 {
            return Branch::Lits(vec![bytes(&folded[frun.0..frun.1])], true);
        }
        // A few classes (`[EW]`): the longest window of at most 16 spellings.
        let mut win: Option<(usize, usize)> = None;
        for start in 0..pos.len() {
            let (mut end, mut variants) = (start, 1usize);
            while end < pos.len() && variants * set_len(&pos[end]) as usize <= 16 {
                variants *= set_len(&pos[end]) as usize;
                end += 1;
            }
            if end - start >= 3 && win.is_none_or(|(a, b)| end - start > b - a) {
                win = Some((start, end));
            }
        }
        if let Some((a, b)) = win {
            let mut lits: Vec<Vec<u8>> = vec![Vec::new()];
            for s in &pos[a..b] {
                lits = lits.iter().flat_map(|l| set_bytes(s).map(move |c| [l.as_slice(), &[c]].concat())).collect();
            }
            return Branch::Lits(lits, false);
        }
        // Found by a position of at most three bytes; without one, a regex.
        if pos.iter().any(|s| set_len(s) <= 3) {
            return Branch::Piece(pos);
        }
        return Branch::Regex(h.to_string());
    }
    // An alternation inside: its (few) literal prefixes.
    let seq = regex_syntax::hir::literal::Extractor::new().extract(h);
    if let Some(lits) = seq.literals() {
        let mut lits: Vec<Vec<u8>> = lits.iter().map(|l| l.as_bytes().to_vec()).collect();
        lits.sort();
        lits.dedup();
        if !lits.is_empty() && lits.len() <= 32 && lits.iter().all(|l| l.len() >= 3) {
            let lcp = common_prefix(&lits);
            if lcp.len() >= 4 {
                return Branch::Lits(vec![lcp.to_vec()], false);
            }
            return Branch::Lits(lits, false);
        }
    }
    Branch::Regex(h.to_string())
}

/// How selective a class is as part of a factor (a byte of a literal scores 1).
fn class_score(c: &Class) -> f64 {
    let k: usize = match c {
        Class::Bytes(b) => b.ranges().iter().map(|r| (r.end() - r.start()) as usize + 1).sum(),
        Class::Unicode(u) => u.ranges().iter().map(|r| r.end() as usize - r.start() as usize + 1).sum(),
    };
    match k {
        1 => 1.0,
        2 => 0.8,
        3..=4 => 0.6,
        5..=12 => 0.35,
        13..=40 => 0.2,
        _ => 0.0,
    }
}

/// The score of a fixed-width piece that is always there (literals,
/// classes, assertions, exact repetitions), or `None`.
fn rigid(h: &Hir) -> Option<f64> {
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) => Some(0.0),
        HirKind::Literal(l) => Some(l.0.len() as f64),
        HirKind::Class(c) => Some(class_score(c)),
        HirKind::Capture(c) => rigid(&c.sub),
        HirKind::Repetition(r) if Some(r.min) == r.max && r.min <= 16 => rigid(&r.sub).map(|s| s * f64::from(r.min)),
        HirKind::Concat(xs) => xs.iter().map(rigid).sum(),
        _ => None,
    }
}

/// `h` without its zero-width assertions (a factor is searched on its own).
fn strip_looks(h: &Hir) -> Hir {
    match h.kind() {
        HirKind::Look(_) => Hir::empty(),
        HirKind::Capture(c) => strip_looks(&c.sub),
        HirKind::Concat(xs) => Hir::concat(xs.iter().map(strip_looks).collect()),
        HirKind::Repetition(r) => {
            let mut r = r.clone();
            r.sub = Box::new(strip_looks(&r.sub));
            Hir::repetition(r)
        }
        _ => h.clone(),
    }
}

/// A required factor of `h`: a regex every match of `h` contains a match
/// of, with a score (higher is more selective). Alternatives of the factor
/// may be searched separately. `None` when `h` can match without one.
fn factor(h: &Hir) -> Option<(Hir, f64)> {
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) => None,
        HirKind::Literal(_) | HirKind::Class(_) => rigid(h).map(|s| (h.clone(), s)),
        HirKind::Capture(c) => factor(&c.sub),
        HirKind::Repetition(r) if r.min == 0 => None,
        HirKind::Repetition(r) => match rigid(h) {
            Some(s) if s > 0.0 => Some((strip_looks(h), s)),
            _ => factor(&r.sub),
        },
        HirKind::Alternation(xs) => {
            let mut subs = Vec::with_capacity(xs.len());
            let mut worst = f64::MAX;
            for x in xs {
                let (f, s) = factor(x)?;
                worst = worst.min(s);
                match f.kind() {
                    HirKind::Alternation(inner) => subs.extend(inner.iter().cloned()),
                    _ => subs.push(f),
                }
            }
            Some((Hir::alternation(subs), worst))
        }
        HirKind::Concat(xs) => {
            // Runs of adjacent rigid pieces are required substrings; so is
            // a factor of any required piece. Take the most selective.
            let mut best: Option<(Hir, f64)> = None;
            let mut consider = |c: (Hir, f64)| {
                if c.1 > 0.0 && best.as_ref().is_none_or(|b| c.1 > b.1) {
                    best = Some(c);
                }
            };
            let mut run: Vec<Hir> = Vec::new();
            let mut score = 0.0;
            for x in xs {
                if let Some(s) = rigid(x) {
                    if !matches!(x.kind(), HirKind::Look(_) | HirKind::Empty) {
                        run.push(strip_looks(x));
                    }
                    score += s;
                    continue;
                }
                if !run.is_empty() {
                    consider((Hir::concat(std::mem::take(&mut run)), score));
                }
                score = 0.0;
                if let Some(f) = factor(x) {
                    consider(f);
                }
            }
            if !run.is_empty() {
                consider((Hir::concat(run), score));
            }
            best
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_are_required_pieces() {
        let f = |p: &str| {
            let hir = regex_syntax::ParserBuilder::new().unicode(false).utf8(false).build().parse(p).unwrap();
            factor(&hir).map(|(h, _)| h.to_string())
        };
        assert!(
            f("Failed accept4: Too many open files").is_some_and(|s| s.contains("Failed accept4: Too many open files"))
        );
        assert!(
            f(r"^\s*(SyntaxError|NameError): ").is_some_and(|s| s.contains("SyntaxError") && s.contains("NameError"))
        );
        assert!(f(r"\b[EWI][A-Z0-9][0-9]{4}\b").is_some());
        assert_eq!(f(r"^\s*$"), None, "matches an empty line: no factor");
        assert_eq!(f(r"a?|b"), None);
    }

    #[test]
    fn table_entries_round_trip() {
        let cases = [
            ("Too many open files", None),
            (r"(?i)\bout of memory\b", None),
            (r"Out of memory \(code 137\)", None),
            (r"\b[EW][0-9A-Z][0-9]{4}\b", None),
            (r"x(?:ab|cd)+y", None),
            ("regex", Some(vec![Branch::Regex("a+b".into()), Branch::Lits(vec![vec![0, 255], b"ege".to_vec()], true)])),
        ];
        let mut table = Vec::new();
        let mut want = Vec::new();
        for (p, given) in cases {
            let b = given.unwrap_or_else(|| branches(p).unwrap());
            encode(p, &b, &mut table).unwrap();
            want.push((p, b));
        }
        let found: Vec<(u64, usize)> = entries(&table).collect();
        assert_eq!(found.len(), want.len());
        for ((key_, start), (p, b)) in found.iter().zip(&want) {
            assert_eq!(*key_, key(p));
            assert_eq!(decode(&table, *start, p).as_ref(), Some(b), "{p}");
        }
        // a literal taken from the pattern's text needs that text
        assert_eq!(decode(&table, found[0].1, "Too many"), None);
        // a cut table: the whole entries before the cut, and none cut
        let ends: Vec<usize> = found.iter().skip(1).map(|f| f.1).chain([table.len()]).collect();
        for cut in 0..table.len() {
            let whole = ends.iter().filter(|&&e| e <= cut).count();
            assert_eq!(entries(&table[..cut]).count(), whole);
            for (i, (start, (p, b))) in found.iter().map(|f| f.1).zip(&want).enumerate() {
                let got = decode(&table[..cut], start, p);
                assert_eq!(got.as_ref(), (ends[i] <= cut).then_some(b));
            }
        }
    }

    #[test]
    fn branches_by_shape() {
        assert_eq!(
            branches("Too many open files"),
            Some(vec![Branch::Lits(vec![b"Too many open files".to_vec()], false)])
        );
        assert_eq!(branches(r"^\s*$"), None);
        assert_eq!(branches("("), None, "does not parse");
        // a CANN code: a fixed-width run of classes, found by its first position
        assert!(matches!(branches(r"\b[EW][0-9A-Z][0-9]{4}\b").as_deref(), Some([Branch::Piece(_)])));
    }
}
