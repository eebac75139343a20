//! The analysis half of the signature finder: from the patterns' syntax
//! trees to what the finder searches for (each pattern's required factor,
//! its alternatives classified as literals, fixed-width pieces or regexes,
//! and the literal keys chosen for the searcher passes).
//!
//! It depends on the patterns alone, so for the embedded rules it runs at
//! build time: `build.rs` includes this file, analyses the embedded
//! catalogue's patterns and writes the result ([`Analysis::encode`]);
//! loading the catalogue then decodes it instead of parsing every pattern
//! with `regex-syntax` and choosing keys (most of the finder's start-up,
//! and start-up is what a user waits for in the page). Patterns from
//! `--rules` files or a knowledge base are analysed at run time, by the
//! same code. Nothing here may depend on the platform: the build machine
//! analyses for wasm.

use regex_syntax::hir::{Class, Hir, HirKind};

/// The finder's plan for a list of patterns, before any automaton is built.
#[derive(Debug, PartialEq)]
pub(super) struct Analysis {
    /// Per literal branch: its spellings, whether they are searched in any
    /// case (then they are in lower case), and the patterns it stands for.
    pub variants: Vec<Vec<Vec<u8>>>,
    pub folded: Vec<bool>,
    pub owners: Vec<Vec<usize>>,
    /// Fixed-width pieces (none covering another) and their patterns.
    pub pieces: Vec<Vec<ByteSet>>,
    pub piece_owners: Vec<Vec<usize>>,
    /// The other alternatives, as regex syntax, and their patterns.
    pub regexes: Vec<String>,
    pub regex_owners: Vec<Vec<usize>>,
    /// The literal keys: `(key, stands for one literal only, folded)`.
    pub keys: Vec<(Vec<u8>, bool, bool)>,
}

impl Analysis {
    /// Analyses `patterns`; `None` when one does not parse or can match
    /// without a required factor (then there is no finder).
    pub(super) fn of(patterns: &[String]) -> Option<Analysis> {
        use std::collections::BTreeMap;
        let mut lits: BTreeMap<(Vec<Vec<u8>>, bool), Vec<usize>> = BTreeMap::new();
        let mut pieces: BTreeMap<Vec<ByteSet>, Vec<usize>> = BTreeMap::new();
        let mut regexes: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (pi, p) in patterns.iter().enumerate() {
            let hir = regex_syntax::ParserBuilder::new().unicode(false).utf8(false).build().parse(p).ok()?;
            let (factor, _) = factor(&hir)?;
            let alternatives = match factor.kind() {
                HirKind::Alternation(xs) => xs.clone(),
                _ => vec![factor],
            };
            for a in &alternatives {
                let owners = match branch(a) {
                    Branch::Lits(l, folded) => lits.entry((l, folded)).or_default(),
                    Branch::Piece(s) if anchor(&s).is_some() => pieces.entry(s).or_default(),
                    Branch::Piece(_) => regexes.entry(a.to_string()).or_default(),
                    Branch::Regex(h) => regexes.entry(h.to_string()).or_default(),
                };
                owners.push(pi);
            }
        }
        // A piece whose matches hold another piece's is found through that one.
        let all: Vec<(Vec<ByteSet>, Vec<usize>)> = pieces.into_iter().collect();
        let kept: Vec<usize> =
            (0..all.len()).filter(|&i| !(0..all.len()).any(|j| j != i && piece_covers(&all[j].0, &all[i].0))).collect();
        let mut piece_owners: Vec<Vec<usize>> = kept.iter().map(|&i| all[i].1.clone()).collect();
        for (i, (sets, owners)) in all.iter().enumerate() {
            if !kept.contains(&i) {
                let k = kept.iter().position(|&j| piece_covers(&all[j].0, sets))?;
                piece_owners[k].extend(owners);
            }
        }
        let pieces: Vec<Vec<ByteSet>> = kept.iter().map(|&i| all[i].0.clone()).collect();

        let mut variants = Vec::new();
        let mut folded = Vec::new();
        let mut owners = Vec::new();
        for ((v, f), o) in lits {
            variants.push(v);
            folded.push(f);
            owners.push(o);
        }
        let mut keys: Vec<(Vec<u8>, bool, bool)> = Vec::new();
        for mode in [false, true] {
            let of_mode: Vec<&Vec<Vec<u8>>> =
                variants.iter().zip(&folded).filter(|(_, f)| **f == mode).map(|(v, _)| v).collect();
            keys.extend(choose_keys(&of_mode).into_iter().map(|(k, private)| (k, private, mode)));
        }
        let (regexes, regex_owners) = regexes.into_iter().unzip();
        Some(Analysis { variants, folded, owners, pieces, piece_owners, regexes, regex_owners, keys })
    }

    /// A compact byte form (lengths and numbers as little-endian `u32`);
    /// `build.rs` writes it, the engine only reads it.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(super) fn encode(&self) -> Vec<u8> {
        let mut w = Writer(Vec::new());
        w.list(&self.variants, |w, v| w.list(v, |w, s| w.bytes(s)));
        w.list(&self.folded, |w, f| w.num(usize::from(*f)));
        w.list(&self.owners, |w, o| w.nums(o));
        w.list(&self.pieces, |w, p| w.list(p, |w, set| set.iter().for_each(|x| w.0.extend(x.to_le_bytes()))));
        w.list(&self.piece_owners, |w, o| w.nums(o));
        w.list(&self.regexes, |w, r| w.bytes(r.as_bytes()));
        w.list(&self.regex_owners, |w, o| w.nums(o));
        w.list(&self.keys, |w, (k, private, folded)| {
            w.bytes(k);
            w.num(usize::from(*private) | usize::from(*folded) << 1);
        });
        w.0
    }

    /// Reads [`Analysis::encode`]'s form back; `None` unless it is whole and
    /// every pattern index is below `patterns`.
    pub(super) fn decode(b: &[u8], patterns: usize) -> Option<Analysis> {
        let mut r = Reader(b);
        let owners_ok = |o: &Vec<Vec<usize>>| o.iter().flatten().all(|&i| i < patterns);
        let variants = r.list(|r| r.list(|r| r.bytes().map(<[u8]>::to_vec)))?;
        let folded = r.list(|r| r.num().map(|n| n != 0))?;
        let owners = r.list(Reader::nums)?;
        let pieces = r.list(|r| {
            r.list(|r| {
                let mut set = [0u64; 4];
                for x in &mut set {
                    *x = u64::from_le_bytes(r.take(8)?.try_into().ok()?);
                }
                Some(set)
            })
        })?;
        let piece_owners = r.list(Reader::nums)?;
        let regexes = r.list(|r| String::from_utf8(r.bytes()?.to_vec()).ok())?;
        let regex_owners = r.list(Reader::nums)?;
        let keys = r.list(|r| {
            let k = r.bytes()?.to_vec();
            let flags = r.num()?;
            Some((k, flags & 1 != 0, flags & 2 != 0))
        })?;
        let whole = r.0.is_empty()
            && folded.len() == variants.len()
            && owners.len() == variants.len()
            && piece_owners.len() == pieces.len()
            && regex_owners.len() == regexes.len()
            && [&owners, &piece_owners, &regex_owners].into_iter().all(owners_ok);
        whole.then_some(Analysis { variants, folded, owners, pieces, piece_owners, regexes, regex_owners, keys })
    }
}

/// A fingerprint of a pattern list (FNV-1a, 64 bits): tells whether a
/// prepared analysis is of these patterns.
pub(super) fn fingerprint(patterns: &[String]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in patterns {
        for &b in p.as_bytes().iter().chain(&[0xff]) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

#[cfg_attr(not(test), allow(dead_code))]
struct Writer(Vec<u8>);

#[cfg_attr(not(test), allow(dead_code))]
impl Writer {
    fn num(&mut self, n: usize) {
        self.0.extend(u32::try_from(n).expect("fits in u32").to_le_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.num(b.len());
        self.0.extend(b);
    }
    fn nums(&mut self, ns: &[usize]) {
        self.list(ns, |w, n| w.num(*n));
    }
    fn list<T>(&mut self, xs: &[T], mut f: impl FnMut(&mut Writer, &T)) {
        self.num(xs.len());
        for x in xs {
            f(self, x);
        }
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = (self.0.get(..n)?, self.0.get(n..)?);
        self.0 = rest;
        Some(head)
    }
    fn num(&mut self) -> Option<usize> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?) as usize)
    }
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.num()?;
        self.take(n)
    }
    fn nums(&mut self) -> Option<Vec<usize>> {
        self.list(Reader::num)
    }
    fn list<T>(&mut self, mut f: impl FnMut(&mut Reader<'a>) -> Option<T>) -> Option<Vec<T>> {
        let n = self.num()?;
        // Each item takes at least a byte: a corrupt count cannot ask for
        // more room than the input has.
        let mut out = Vec::with_capacity(n.min(self.0.len()));
        for _ in 0..n {
            out.push(f(self)?);
        }
        Some(out)
    }
}

/// The position of a fixed-width piece that is searched for: the rarest of
/// those with at most three bytes; `None` when no position is that narrow
/// (then the piece is searched as a regex).
pub(super) fn anchor(sets: &[ByteSet]) -> Option<usize> {
    (0..sets.len())
        .filter(|&i| set_len(&sets[i]) <= 3)
        .min_by_key(|&i| (set_len(&sets[i]), set_bytes(&sets[i]).map(commonness).max().unwrap_or(0)))
}

/// The bytes a position of a fixed-width piece may hold.
pub(super) type ByteSet = [u64; 4];

pub(super) fn set_has(s: &ByteSet, b: u8) -> bool {
    s[(b >> 6) as usize] & (1u64 << (b & 63)) != 0
}

pub(super) fn set_len(s: &ByteSet) -> u32 {
    s.iter().map(|w| w.count_ones()).sum()
}

pub(super) fn set_bytes(s: &ByteSet) -> impl Iterator<Item = u8> + '_ {
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

pub(super) fn set_of(bytes: impl IntoIterator<Item = u8>) -> ByteSet {
    let mut s = [0u64; 4];
    for b in bytes {
        s[(b >> 6) as usize] |= 1u64 << (b & 63);
    }
    s
}

/// The set with ASCII letters folded to lower case.
pub(super) fn set_folded(s: &ByteSet) -> ByteSet {
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
enum Branch {
    /// One of these literals is in the line; `folded`: in any case (the
    /// literals are in lower case, searched in the lower-cased line).
    Lits(Vec<Vec<u8>>, bool),
    /// A fixed-width run of byte sets, matched in the raw line.
    Piece(Vec<ByteSet>),
    /// Anything else: a regex.
    Regex(Hir),
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
        return Branch::Piece(pos);
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
    Branch::Regex(h.clone())
}
/// Whether every match of piece `a` contains a match of piece `b` (then
/// searching for `b` finds `a`'s lines too).
fn piece_covers(b: &[ByteSet], a: &[ByteSet]) -> bool {
    b.len() <= a.len()
        && (0..=a.len() - b.len())
            .any(|k| b.iter().zip(&a[k..]).all(|(sb, sa)| sb.iter().zip(sa).all(|(x, y)| y & !x == 0)))
}

/// How often a key's first three bytes (what Teddy tells keys apart by)
/// may start a position of text: a product of byte commonness, in (0, 1].
pub(super) fn start_cost(k: &[u8]) -> f64 {
    k.iter().take(3).map(|&b| f64::from(commonness(b)) / 100.0).product()
}

/// Chooses the keys of literal branches `lits` (all of one case mode):
/// few (each searcher pass costs a read of the input) and selective (a
/// key whose first bytes are common text makes the searcher stop often).
/// Greedily, the substring of 4 to 10 bytes worth most: the square of the
/// branches not yet covered that it covers, over how common its start is
/// (sharing matters most: a scan demotes a shared key that turns out hot). A key that
/// covers one branch alone becomes that branch's rarest window. Returns
/// `(key, covers one branch only)`.
fn choose_keys(lits: &[&Vec<Vec<u8>>]) -> Vec<(Vec<u8>, bool)> {
    // Candidates (packed in a u64, at most 8 bytes) with their branch.
    let pack = |w: &[u8]| w.iter().fold(0u64, |a, &b| a << 8 | u64::from(b)) << (8 * (8 - w.len()));
    let mut cands: Vec<(u64, u8, u32)> = Vec::new();
    for (i, variants) in lits.iter().enumerate() {
        let first = &variants[0];
        for n in [4, 6, 8].into_iter().filter(|&n| n <= first.len()) {
            // Not a piece of text around a space (` the `) or a number.
            cands.extend(
                first
                    .windows(n)
                    .filter(|w| w[0] != b' ' && w[n - 1] != b' ' && !w.iter().all(|b| b.is_ascii_digit() || *b == b'.'))
                    .filter(|w| variants[1..].iter().all(|v| v.windows(w.len()).any(|x| x == *w)))
                    .map(|w| (pack(w), n as u8, i as u32)),
            );
        }
    }
    cands.sort_unstable();
    cands.dedup();
    // Group by candidate, valued by what it covers over how common it starts.
    let unpack = |p: u64, n: u8| -> Vec<u8> { p.to_be_bytes()[..n as usize].to_vec() };
    let mut groups: Vec<(u64, Vec<u8>, Vec<u32>)> = Vec::new();
    for c in cands.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        if c.len() < 2 {
            continue;
        }
        let k = unpack(c[0].0, c[0].1);
        let value = (((c.len() * c.len()) as f64 / (start_cost(&k) + 0.02)) * 1000.0) as u64;
        groups.push((value, k, c.iter().map(|x| x.2).collect()));
    }
    groups.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(b.1.len().cmp(&a.1.len())).then(a.1.cmp(&b.1)));
    // Greedily, in that order, while a candidate still covers two branches.
    let mut covered = vec![false; lits.len()];
    let mut keys: Vec<(Vec<u8>, bool)> = Vec::new();
    for (_, k, bs) in &groups {
        let open = bs.iter().filter(|&&b| !covered[b as usize]).count();
        if open >= 2 {
            for &b in bs {
                covered[b as usize] = true;
            }
            keys.push((k.to_vec(), false));
        }
    }
    // The rest: each branch its rarest window (each spelling when they differ).
    for (i, variants) in lits.iter().enumerate().filter(|(i, _)| !covered[*i]) {
        let _ = i;
        keys.extend(variants.iter().map(|v| (window(v).to_vec(), true)));
    }
    keys
}

/// The window of `lit` worth searching: up to 16 bytes, starting where its
/// first three bytes are rarest, among the starts that keep at least 8.
pub(super) fn window(lit: &[u8]) -> &[u8] {
    let keep = lit.len().min(8);
    let start =
        (0..=lit.len() - keep).min_by(|&a, &b| start_cost(&lit[a..]).total_cmp(&start_cost(&lit[b..]))).unwrap_or(0);
    &lit[start..lit.len().min(start + 16)]
}

/// How common a byte is in logs (higher = more common); picks rare windows.
pub(super) fn commonness(b: u8) -> u32 {
    match b {
        b' ' => 100,
        b'e' => 90,
        b't' | b'a' | b'o' | b'i' | b'n' => 80,
        b's' | b'r' | b'h' | b'l' => 70,
        b'0'..=b'9' => 65,
        b'd' | b'c' | b'u' | b'm' => 60,
        b'.' | b':' | b'/' | b'_' | b'-' | b'=' | b',' | b'(' | b')' | b'[' | b']' => 55,
        b'f' | b'p' | b'g' | b'w' | b'y' | b'b' | b'v' => 50,
        b'A'..=b'Z' => 35,
        b'k' | b'x' | b'j' | b'q' | b'z' | b'\'' | b'"' => 30,
        _ => 10,
    }
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
pub(super) fn factor(h: &Hir) -> Option<(Hir, f64)> {
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

    fn embedded() -> &'static [String] {
        &crate::catalogue().signatures.patterns
    }

    #[test]
    fn the_prepared_analysis_is_the_run_time_one() {
        let fresh = Analysis::of(embedded()).expect("the embedded patterns have a finder");
        let prepared = super::super::prepared(embedded()).expect("build.rs prepared these patterns");
        assert_eq!(prepared, fresh);
    }

    #[test]
    fn the_byte_form_round_trips_and_refuses_damage() {
        let a = Analysis::of(embedded()).unwrap();
        let bytes = a.encode();
        let n = embedded().len();
        assert_eq!(Analysis::decode(&bytes, n), Some(Analysis::of(embedded()).unwrap()));
        // Cut short, one byte too many, or an owner past the patterns: refused.
        assert_eq!(Analysis::decode(&bytes[..bytes.len() - 1], n), None);
        assert_eq!(Analysis::decode(&[bytes.as_slice(), &[0]].concat(), n), None);
        assert_eq!(Analysis::decode(&bytes, 1), None);
        // A count far past the input is an error, not an allocation of it.
        assert_eq!(Analysis::decode(&[0xff, 0xff, 0xff, 0xff], n), None);
    }

    #[test]
    fn a_changed_pattern_list_has_another_fingerprint() {
        let mut other = embedded().to_vec();
        let base = fingerprint(&other);
        other.swap(0, 1);
        assert_ne!(fingerprint(&other), base);
        other.swap(0, 1);
        other.last_mut().unwrap().push('x');
        assert_ne!(fingerprint(&other), base);
        // Where one pattern ends counts: ["ab", "c"] is not ["a", "bc"].
        assert_ne!(fingerprint(&["ab".into(), "c".into()]), fingerprint(&["a".into(), "bc".into()]));
    }
}
