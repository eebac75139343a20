//! Stage 4: log signatures.
//!
//! Every `signature:` of every rule is compiled once into one [`SignatureSet`]
//! and each line is matched once against all of them (a `RegexSet`, a single
//! multi-pattern automaton), instead of one regex pass per rule.
//!
//! Patterns are in the one dialect of [`crate::pattern`]: bytes with ASCII
//! semantics (a Unicode word boundary cannot run in the lazy DFA, and on
//! lines with non-ASCII text the whole set fell back to a slow engine —
//! 100× slower on a mixed log).
//!
//! # Searching the buffer, not the lines
//!
//! Running the set on every line of a 100 MB log costs a call per line and
//! an automaton step per byte. Most lines match nothing, so the scan, as
//! ripgrep's does, searches the whole span of a segment for *candidates*
//! and finds line boundaries only around them:
//!
//! - when the set is built, each pattern's syntax tree yields a **required
//!   factor**: a piece that every match contains (`Too many open files` for
//!   `Failed accept4: Too many open files`, `SyntaxError: ` or `NameError: `
//!   for `^\s*(SyntaxError|NameError): `, `[EWI][A-Z0-9][0-9]{4}` for a CANN
//!   error code). Factors that are literals (a short, rare window of each)
//!   are searched with a SIMD multi-literal searcher (Teddy, through
//!   `aho-corasick`), a few dozen at a time; the rest are one small regex;
//! - a line holding a factor (or an escape sequence, which cleaning removes)
//!   is a candidate, and only candidates are cleaned and matched against the
//!   whole set, so the hits are exactly those of matching every line.
//!
//! A pattern with no required factor (one that can match an empty line)
//! turns the finder off: every line is then matched, as before.
//!
//! Lines the user *typed* are not evidence: `grep EI0006 plog` or
//! `export HCCL_CONNECT_TIMEOUT=3600` mention an error string or a setting
//! without anything having failed. [`is_typed_command`] filters them.

use crate::factor::{set_bytes, set_has, set_len, Branch, ByteSet};
use crate::segment::{clean, Line, Segment, Widths};
use regex::bytes::{Regex, RegexSet};

/// All signatures, compiled.
#[derive(Debug)]
pub struct SignatureSet {
    /// All patterns in one set, for lines matched one by one (sets without
    /// a finder, hard-wrapped pastes): built on first use.
    set: std::sync::OnceLock<RegexSet>,
    /// The pattern texts, in set order.
    pub patterns: Vec<String>,
    /// Finds the lines that may match; `None` when some pattern can match
    /// without a required factor (then every line is matched).
    finder: Option<Finder>,
    /// Each pattern alone, compiled when a line first needs it: a candidate
    /// line is matched against the few patterns whose factor it holds.
    single: Vec<std::sync::OnceLock<Option<Regex>>>,
}

/// One signature match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Index of the signature in the set.
    pub signature: usize,
    /// The line it matched.
    pub line: u32,
}

/// Words that start a command a user typed rather than a line a program printed.
const TYPED: &[&str] = &[
    "grep", "egrep", "zgrep", "rg", "export", "echo", "cat", "tail", "less", "head", "find", "sed", "awk", "history",
    "unset", "set", "vim", "vi",
];

/// True for a line that looks like a command typed at a shell (possibly
/// with a `history` number in front) rather than program output.
pub fn is_typed_command(text: &str) -> bool {
    let t = text.trim_start();
    let t = t.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start();
    let first = t.split_whitespace().next().unwrap_or("");
    TYPED.contains(&first) && t.len() > first.len()
}

/// The width a paste was hard-wrapped at, if it looks wrapped: at least
/// three lines of the same length, 60 characters or more, and that length is
/// the longest in the paste (nothing can be longer than the wrap width),
/// and the paste has at most [`MAX_WRAPPED_LINES`] lines.
pub fn wrap_width(lines: &[Line]) -> Option<usize> {
    let mut w = Widths::default();
    for l in lines {
        w.add(l.text.chars().count(), l.no);
    }
    wrap_of(&w, lines.len())
}

/// The most lines a paste may have to be taken as hard-wrapped. A terminal
/// or `fold` wraps what a person pastes, not a 100 MB log file, whose
/// longest lines are often many of one length; joining each with the next
/// would cost a second match of every such line.
pub const MAX_WRAPPED_LINES: usize = 20_000;

fn wrap_of(w: &Widths, lines: usize) -> Option<usize> {
    w.wrap().filter(|_| lines <= MAX_WRAPPED_LINES)
}

impl SignatureSet {
    /// Compiles `patterns`, each already accepted by [`crate::pattern::compile`].
    pub fn new(patterns: &[String]) -> Result<SignatureSet, String> {
        let s = SignatureSet::new_unchecked(patterns);
        let _ = s.set.set(crate::pattern::compile_set(patterns)?);
        Ok(s)
    }

    /// [`SignatureSet::new`] for patterns known to compile together (the
    /// embedded rules': a test checks), without compiling their set now:
    /// most scans never need it, and building it is a third of loading the
    /// catalogue (more in wasm). It is built when first needed.
    pub fn new_unchecked(patterns: &[String]) -> SignatureSet {
        let single = patterns.iter().map(|_| std::sync::OnceLock::new()).collect();
        SignatureSet {
            set: std::sync::OnceLock::new(),
            patterns: patterns.to_vec(),
            finder: Finder::new(patterns),
            single,
        }
    }

    /// The set of all patterns (built now if it was not).
    fn set(&self) -> &RegexSet {
        self.set.get_or_init(|| crate::pattern::compile_set(&self.patterns).expect("the patterns compile together"))
    }

    /// What the candidate finder searches for (for `examples/stages` and
    /// the docs): literal keys, their searcher passes, pieces, regex pieces.
    #[doc(hidden)]
    pub fn finder_summary(&self) -> String {
        match &self.finder {
            None => "no finder: every line is matched".into(),
            Some(f) => format!(
                "{} keys in {} searcher passes for {} literal alternatives; {} byte-set pieces; {} regex pieces",
                f.plan.keys.len(),
                f.plan.groups.len(),
                f.variants.len(),
                f.pieces.len(),
                f.regex_owners.len()
            ),
        }
    }

    /// Number of signatures.
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    /// True when there are no signatures.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Scans `lines` once, returning every (signature, line) hit in line
    /// order: the reference scan, line by line (tests compare
    /// [`SignatureSet::scan_segment`] with it).
    ///
    /// Hard-wrapped pastes (a terminal or `fold` cut long lines at a fixed
    /// width) are handled too: when a line is exactly the wrap width, it is
    /// also matched joined with the next line, and a hit that only the join
    /// reveals is reported on the first line.
    pub fn scan(&self, lines: &[Line], out: &mut Vec<Hit>) {
        let wrap = wrap_width(lines);
        let rows: Vec<(u32, &str)> = lines.iter().map(|l| (l.no, l.text.as_str())).collect();
        self.scan_rows(&rows, wrap, false, &mut |no, _, sigs| {
            out.extend(sigs.iter().map(|&s| Hit { signature: s, line: no }))
        });
    }

    /// Line by line over `rows` (`(number, cleaned text)`), wrap joins
    /// included. With `by_finder`, a line's matches are the patterns the
    /// finder finds a factor of in it that then match alone, as in
    /// [`SignatureSet::scan_segment`]; without, the set of all patterns
    /// (the reference).
    fn scan_rows(
        &self,
        rows: &[(u32, &str)],
        wrap: Option<usize>,
        by_finder: bool,
        f: &mut dyn FnMut(u32, &str, &[usize]),
    ) {
        let mut m = LineMatcher { set: self, finder: self.finder.as_ref().filter(|_| by_finder), low: Vec::new() };
        let (mut joined, mut sigs, mut own, mut theirs, mut both) =
            (String::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (i, &(no, text)) in rows.iter().enumerate() {
            // The line's own matches: its hits, and what a join of it with
            // the next line must not report again.
            m.matches(text, &mut own);
            sigs.clear();
            if !is_typed_command(text) {
                sigs.extend_from_slice(&own);
            }
            if let (Some(w), Some(&(_, next))) = (wrap, rows.get(i + 1)) {
                if text.chars().count() == w {
                    joined.clear();
                    joined.push_str(text);
                    joined.push_str(next);
                    if !is_typed_command(&joined) {
                        m.matches(next, &mut theirs);
                        m.matches(&joined, &mut both);
                        sigs.extend(both.iter().filter(|p| !own.contains(p) && !theirs.contains(p)));
                    }
                }
            }
            if !sigs.is_empty() {
                f(no, text, &sigs);
            }
        }
    }

    /// Scans a segment's lines: calls `f(line number, cleaned line,
    /// signatures)` for every line with a hit, in line order. The same hits
    /// as [`SignatureSet::scan`] over the segment's lines, found by
    /// searching the segment's spans for candidates (see the module docs).
    pub fn scan_segment(&self, seg: &Segment<'_>, f: &mut dyn FnMut(u32, &str, &[usize])) {
        let spans = seg.spans();
        let wrap = wrap_of(&seg.widths(), seg.line_count());
        // Sets without a finder, and wrapped pastes (small, see
        // [`MAX_WRAPPED_LINES`]), go line by line.
        let (Some(finder), None, false) = (&self.finder, wrap, spans.is_empty()) else {
            let rows: Vec<(u32, std::borrow::Cow<'_, str>)> = seg.rows().map(|r| (r.no, r.text)).collect();
            let rows: Vec<(u32, &str)> = rows.iter().map(|(n, t)| (*n, t.as_ref())).collect();
            return self.scan_rows(&rows, wrap, true, f);
        };
        let mut events: Vec<(usize, u32)> = Vec::new();
        let mut plan = std::borrow::Cow::Borrowed(&finder.plan);
        let mut misses = vec![0u32; plan.keys.len()];
        let (mut sigs, mut plausible) = (Vec::new(), Vec::new());
        let (mut low, mut low_line) = (Vec::new(), Vec::new());
        for span in spans {
            let hay = span.text.as_bytes();
            let (mut at, mut no) = (0usize, span.first);
            let mut w0 = 0usize;
            while w0 < hay.len() {
                // A window of whole lines, small enough to stay in cache
                // while every searcher runs over it.
                let w1 = match hay.get(w0 + WINDOW..) {
                    Some(rest) => memchr::memchr(b'\n', rest).map_or(hay.len(), |i| w0 + WINDOW + i + 1),
                    None => hay.len(),
                };
                events.clear();
                finder.events(&plan, &hay[w0..w1], w0, &mut low, &mut events, &mut misses);
                if let Some(p) = finder.demote(&plan, &misses) {
                    plan = std::borrow::Cow::Owned(p);
                    misses = vec![0u32; plan.keys.len()];
                }
                misses.iter_mut().for_each(|m| *m = 0);
                events.sort_unstable();
                let mut i = 0;
                while i < events.len() {
                    let ls = events[i].0;
                    let j = i + events[i..].iter().take_while(|e| e.0 == ls).count();
                    no += memchr::memchr_iter(b'\n', &hay[at..ls]).count() as u32;
                    at = ls;
                    let le = memchr::memchr(b'\n', &hay[ls..]).map_or(hay.len(), |i| ls + i);
                    let text = clean(&span.text[ls..le]);
                    plausible.clear();
                    if events[j - 1].1 == DIRTY {
                        finder.plausible(text.as_bytes(), &mut low_line, &mut plausible);
                    } else {
                        for &(_, code) in &events[i..j] {
                            match code {
                                REGEX => finder.regex_owners_of(text.as_bytes(), &mut plausible),
                                c => plausible.extend(finder.owners_of(c)),
                            }
                        }
                    }
                    i = j;
                    plausible.sort_unstable();
                    plausible.dedup();
                    sigs.clear();
                    sigs.extend(plausible.iter().copied().filter(|&p| self.single_match(p, text.as_bytes())));
                    if !sigs.is_empty() && !is_typed_command(&text) {
                        f(no, &text, &sigs);
                    }
                }
                w0 = w1;
            }
        }
    }

    /// Whether pattern `p` alone matches `text`.
    fn single_match(&self, p: usize, text: &[u8]) -> bool {
        match self.single(p) {
            Some(re) => re.is_match(text),
            // (cannot happen: the set compiled every pattern)
            None => self.set().matches(text).matched(p),
        }
    }

    /// Pattern `i` alone.
    fn single(&self, i: usize) -> Option<&Regex> {
        self.single[i].get_or_init(|| crate::pattern::compile(&self.patterns[i]).ok()).as_ref()
    }
}

/// Which patterns match one line, for the line-by-line scan.
struct LineMatcher<'a> {
    set: &'a SignatureSet,
    /// With a finder, only the patterns with a factor in the line are
    /// matched, each alone: the set of all patterns is never built, which
    /// is a third of loading the catalogue (the page's first diagnosis of a
    /// paste that looks hard-wrapped paid for it).
    finder: Option<&'a Finder>,
    low: Vec<u8>,
}

impl LineMatcher<'_> {
    /// The patterns matching `text`, ascending, into `out` (cleared first).
    fn matches(&mut self, text: &str, out: &mut Vec<usize>) {
        out.clear();
        match self.finder {
            Some(finder) => {
                finder.plausible(text.as_bytes(), &mut self.low, out);
                out.sort_unstable();
                out.dedup();
                out.retain(|&p| self.set.single_match(p, text.as_bytes()));
            }
            None => out.extend(self.set.set().matches(text.as_bytes()).iter()),
        }
    }
}

/// Bytes searched at a time (each searcher runs over one window before the next).
const WINDOW: usize = 256 << 10;

/// Keys one SIMD (Teddy) searcher takes at most. The keys of a mode are
/// spread evenly over as few passes as this allows, and every pass reads the
/// input once more: at 32, the 97th exact key of 2026-12-05 made a fourth
/// exact pass and the scan 16 % slower; at 40 the same keys take three
/// passes of 33 and the scan costs what it did with 32 keys a pass.
const GROUP: usize = 40;

/// A fixed-width piece, found by its rarest position (`memchr` over at most
/// three bytes) and checked position by position around it.
#[derive(Debug)]
struct Piece {
    sets: Vec<ByteSet>,
    /// The position searched for, and its bytes.
    anchor: usize,
    bytes: Vec<u8>,
}

impl Piece {
    fn new(sets: Vec<ByteSet>) -> Option<Piece> {
        let anchor = (0..sets.len())
            .filter(|&i| set_len(&sets[i]) <= 3)
            .min_by_key(|&i| (set_len(&sets[i]), set_bytes(&sets[i]).map(commonness).max().unwrap_or(0)))?;
        let bytes = set_bytes(&sets[anchor]).collect();
        Some(Piece { sets, anchor, bytes })
    }

    /// Whether the piece matches with its anchor at `p`.
    fn at(&self, hay: &[u8], p: usize) -> bool {
        let Some(start) = p.checked_sub(self.anchor) else { return false };
        let Some(window) = hay.get(start..start + self.sets.len()) else { return false };
        window.iter().zip(&self.sets).all(|(&b, s)| set_has(s, b))
    }

    /// The next position of an anchor byte in `hay[pos..]`.
    fn next(&self, hay: &[u8], pos: usize) -> Option<usize> {
        let h = &hay[pos..];
        let i = match self.bytes.as_slice() {
            [a] => memchr::memchr(*a, h),
            [a, b] => memchr::memchr2(*a, *b, h),
            [a, b, c] => memchr::memchr3(*a, *b, *c, h),
            _ => None,
        }?;
        Some(pos + i)
    }
}

/// Whether every match of piece `a` contains a match of piece `b` (then
/// searching for `b` finds `a`'s lines too).
fn piece_covers(b: &[ByteSet], a: &[ByteSet]) -> bool {
    b.len() <= a.len()
        && (0..=a.len() - b.len())
            .any(|k| b.iter().zip(&a[k..]).all(|(sb, sa)| sb.iter().zip(sa).all(|(x, y)| y & !x == 0)))
}

/// A searcher over lower-case keys: Teddy (SIMD) when the platform has it.
#[derive(Clone, Debug)]
enum Searcher {
    Packed(aho_corasick::packed::Searcher),
    Automaton(aho_corasick::AhoCorasick),
}

impl Searcher {
    fn new(keys: &[&[u8]]) -> Option<Searcher> {
        if keys.len() <= GROUP {
            // Fat Teddy (16 buckets) for more than 16 keys: left to itself,
            // aho-corasick takes it only past 32, and a pass of 32 keys in
            // Slim Teddy's 8 buckets stops on many more bytes that are no key
            // (the scan of the bench's log: 0.25 s of CPU against 0.20 s in
            // Fat). Fat needs AVX2 (x86-64 only); without it, the default.
            let fat = (cfg!(target_arch = "x86_64") && keys.len() > 16).then_some(true);
            let packed = |fat| aho_corasick::packed::Config::new().only_teddy_fat(fat).builder().extend(keys).build();
            if let Some(s) = packed(fat).or_else(|| fat.and_then(|_| packed(None))) {
                return Some(Searcher::Packed(s));
            }
        }
        let kind = (keys.len() > GROUP).then_some(aho_corasick::AhoCorasickKind::DFA);
        aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .kind(kind)
            .build(keys)
            .ok()
            .map(Searcher::Automaton)
    }

    /// One automaton over `keys` that finds them in any ASCII case (Teddy
    /// cannot, so this is for platforms without it).
    fn any_case(keys: &[&[u8]]) -> Option<Searcher> {
        aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .ascii_case_insensitive(true)
            .kind((keys.len() > GROUP).then_some(aho_corasick::AhoCorasickKind::DFA))
            .build(keys)
            .ok()
            .map(Searcher::Automaton)
    }

    fn find(&self, hay: &[u8], pos: usize) -> Option<(usize, usize, usize)> {
        let m = match self {
            Searcher::Packed(s) => s.find_in(hay, aho_corasick::Span::from(pos..hay.len()))?,
            Searcher::Automaton(a) => a.find(aho_corasick::Input::new(hay).span(pos..hay.len()))?,
        };
        Some((m.pattern().as_usize(), m.start(), m.end()))
    }
}

/// What put a line among the candidates (see [`Finder::events`]).
const REGEX: u32 = u32::MAX - 1;
/// A line with an escape sequence: cleaning may change what it holds.
const DIRTY: u32 = u32::MAX;

/// The branches of every embedded signature, worked out by build.rs with
/// `crate::factor` (`$OUT_DIR/factors.bin`, [`crate::factor::encode`]).
mod precomputed {
    use crate::factor::Branch;
    use std::sync::OnceLock;

    static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/factors.bin"));

    /// Each entry's key and start, read once (the build wrote them in key
    /// order).
    fn index() -> &'static [(u64, usize)] {
        static INDEX: OnceLock<Vec<(u64, usize)>> = OnceLock::new();
        INDEX.get_or_init(|| crate::factor::entries(TABLE).collect())
    }

    /// The build's branches of `pattern`, if the build saw it.
    pub(super) fn branches(pattern: &str) -> Option<Vec<Branch>> {
        let index = index();
        let i = index.binary_search_by_key(&crate::factor::key(pattern), |e| e.0).ok()?;
        crate::factor::decode(TABLE, index[i].1, pattern)
    }

    /// How many patterns the table has, and whether in key order (for the
    /// test that checks it).
    #[cfg(test)]
    pub(super) fn len_sorted() -> (usize, bool) {
        (index().len(), index().windows(2).all(|w| w[0].0 < w[1].0))
    }
}

/// Finds the lines that may match some signature, and which may.
#[derive(Debug)]
struct Finder {
    /// The keys searched at first (see [`Plan`]).
    plan: Plan,
    /// Per literal branch: its spellings, whether they are searched in
    /// any case (then in lower case), and its patterns.
    variants: Vec<Vec<Vec<u8>>>,
    folded: Vec<bool>,
    owners: Vec<Vec<usize>>,
    /// Every spelling of every branch (as written; in lower case), for
    /// lines that cleaning changes; `*_branch[i]`: the branch of spelling `i`.
    exact_lits: aho_corasick::AhoCorasick,
    exact_branch: Vec<u32>,
    folded_lits: aho_corasick::AhoCorasick,
    folded_branch: Vec<u32>,
    pieces: Vec<Piece>,
    piece_owners: Vec<Vec<usize>>,
    /// The alternatives that are neither, as one regex (to search) and a
    /// set (to tell which); `regex_owners[i]`: the patterns of set entry `i`.
    regex: Option<(Regex, RegexSet)>,
    regex_owners: Vec<Vec<usize>>,
}

impl Finder {
    fn new(patterns: &[String]) -> Option<Finder> {
        use std::collections::BTreeMap;
        let mut lits: BTreeMap<(Vec<Vec<u8>>, bool), Vec<usize>> = BTreeMap::new();
        let mut pieces: BTreeMap<Vec<ByteSet>, Vec<usize>> = BTreeMap::new();
        let mut regexes: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (pi, p) in patterns.iter().enumerate() {
            // The embedded signatures' branches were worked out at build time.
            let branches = precomputed::branches(p).or_else(|| crate::factor::branches(p))?;
            for b in branches {
                let owners = match b {
                    Branch::Lits(l, folded) => lits.entry((l, folded)).or_default(),
                    Branch::Piece(s) => pieces.entry(s).or_default(),
                    Branch::Regex(r) => regexes.entry(r).or_default(),
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
        let pieces: Vec<Piece> = kept.iter().filter_map(|&i| Piece::new(all[i].0.clone())).collect();

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
        let plan = Plan::new(keys, &variants, &folded)?;
        let spellings = |mode: bool| -> Option<(aho_corasick::AhoCorasick, Vec<u32>)> {
            let mut every: Vec<&[u8]> = Vec::new();
            let mut branch: Vec<u32> = Vec::new();
            for (b, vs) in variants.iter().enumerate().filter(|(b, _)| folded[*b] == mode) {
                for v in vs {
                    every.push(v);
                    branch.push(b as u32);
                }
            }
            Some((nfa(&every)?, branch))
        };
        let (exact_lits, exact_branch) = spellings(false)?;
        let (folded_lits, folded_branch) = spellings(true)?;
        let (regex, regex_owners) = if regexes.is_empty() {
            (None, Vec::new())
        } else {
            let (pats, owners): (Vec<String>, Vec<Vec<usize>>) = regexes.into_iter().unzip();
            let limit = crate::pattern::SET_SIZE_LIMIT;
            let one = regex::bytes::RegexBuilder::new(&pats.join("|")).unicode(false).size_limit(limit).build().ok()?;
            let set = regex::bytes::RegexSetBuilder::new(&pats).unicode(false).size_limit(limit).build().ok()?;
            (Some((one, set)), owners)
        };
        Some(Finder {
            plan,
            variants,
            folded,
            owners,
            exact_lits,
            exact_branch,
            folded_lits,
            folded_branch,
            pieces,
            piece_owners,
            regex,
            regex_owners,
        })
    }

    /// The patterns that may match the cleaned line `text` (a line whose
    /// cleaning removed escapes): those with a required factor in it.
    fn plausible(&self, text: &[u8], low: &mut Vec<u8>, out: &mut Vec<usize>) {
        for m in self.exact_lits.find_overlapping_iter(text) {
            out.extend(&self.owners[self.exact_branch[m.pattern().as_usize()] as usize]);
        }
        lowercase(text, low);
        for m in self.folded_lits.find_overlapping_iter(low.as_slice()) {
            out.extend(&self.owners[self.folded_branch[m.pattern().as_usize()] as usize]);
        }
        for (p, owners) in self.pieces.iter().zip(&self.piece_owners) {
            let mut pos = 0;
            while let Some(i) = p.next(text, pos) {
                if p.at(text, i) {
                    out.extend(owners);
                    break;
                }
                pos = i + 1;
            }
        }
        self.regex_owners_of(text, out);
    }

    /// The patterns of the regex alternatives that match `text`.
    fn regex_owners_of(&self, text: &[u8], out: &mut Vec<usize>) {
        if let Some((_, set)) = &self.regex {
            for i in set.matches(text).iter() {
                out.extend(&self.regex_owners[i]);
            }
        }
    }

    /// The patterns an event stands for (see [`Finder::events`]).
    fn owners_of(&self, code: u32) -> &[usize] {
        let nb = self.owners.len();
        match code as usize {
            b if b < nb => &self.owners[b],
            p if p < nb + self.pieces.len() => &self.piece_owners[p - nb],
            _ => &[],
        }
    }

    /// Pushes `(line start + base, code)` for every factor found in `hay`:
    /// a literal branch (its index), a piece (`branches + index`), a regex
    /// alternative ([`REGEX`]), an escape sequence ([`DIRTY`]). Every line
    /// a pattern matches (once cleaned) has an event naming that pattern,
    /// or a [`REGEX`] or [`DIRTY`] one. `low` is scratch space;
    /// `misses[k]` counts the hits of key `k` that were no literal.
    fn events(
        &self,
        plan: &Plan,
        hay: &[u8],
        base: usize,
        low: &mut Vec<u8>,
        out: &mut Vec<(usize, u32)>,
        misses: &mut [u32],
    ) {
        let line_start = |at: usize| memchr::memrchr(b'\n', &hay[..at]).map_or(0, |i| i + 1);
        let next_line = |at: usize| memchr::memchr(b'\n', &hay[at..]).map_or(hay.len(), |i| at + i + 1);
        if plan.groups.iter().any(|g| g.2) {
            lowercase(hay, low);
        }
        let low = low.as_slice();
        // Whether `lit` is at `at` of the text as written: a literal of the
        // folded mode (kept in lower case) in any case. The same as looking
        // in the lower-cased text, which a pass may not have made.
        let is_at = |k: usize, at: usize, lit: &[u8]| {
            let t = &hay[at..];
            if plan.folded[k] {
                t.len() >= lit.len() && t[..lit.len()].eq_ignore_ascii_case(lit)
            } else {
                t.starts_with(lit)
            }
        };
        let check = |k: usize, s: usize, out: &mut Vec<(usize, u32)>, misses: &mut [u32]| {
            let before = out.len();
            for &(b, v, o) in &plan.within[k] {
                let Some(st) = s.checked_sub(o as usize) else { continue };
                if is_at(k, st, &self.variants[b as usize][v as usize]) {
                    out.push((base + line_start(st), b));
                }
            }
            if out.len() == before {
                misses[k] += 1;
            }
        };
        for (searcher, first, folded) in &plan.groups {
            let text = if *folded { low } else { hay };
            let mut pos = 0;
            while pos < text.len() {
                let Some((k, s, _)) = searcher.find(text, pos) else { break };
                let k = first + k;
                check(k, s, out, misses);
                for &j in &plan.costart[k] {
                    let j = j as usize;
                    if is_at(j, s, &plan.keys[j]) {
                        check(j, s, out, misses);
                    }
                }
                pos = s + 1;
            }
        }
        let nb = self.owners.len() as u32;
        for (pi, p) in self.pieces.iter().enumerate() {
            let mut pos = 0;
            while let Some(i) = p.next(hay, pos) {
                if p.at(hay, i) {
                    out.push((base + line_start(i), nb + pi as u32));
                    pos = next_line(i);
                } else {
                    pos = i + 1;
                }
                if pos >= hay.len() {
                    break;
                }
            }
        }
        if let Some((re, _)) = &self.regex {
            let mut pos = 0;
            while pos < hay.len() {
                let Some(end) = re.shortest_match_at(hay, pos) else { break };
                let last = end.max(pos + 1) - 1;
                out.push((base + line_start(last), REGEX));
                pos = next_line(last);
            }
        }
        // Cleaning removes escapes from the middle of a line: such a line
        // may match only once cleaned.
        for i in memchr::memchr_iter(0x1b, hay) {
            out.push((base + line_start(i), DIRTY));
        }
    }

    /// `plan` without its hot shared keys (`misses[k] >= HOT`): the literals
    /// only they covered get keys of their own. `None` when none is hot.
    fn demote(&self, plan: &Plan, misses: &[u32]) -> Option<Plan> {
        let hot: Vec<bool> = (0..plan.keys.len()).map(|k| !plan.private[k] && misses[k] >= HOT).collect();
        if !hot.contains(&true) {
            return None;
        }
        let mut covered = vec![false; self.variants.len()];
        let mut keys: Vec<(Vec<u8>, bool, bool)> = Vec::new();
        for k in (0..plan.keys.len()).filter(|&k| !hot[k]) {
            keys.push((plan.keys[k].clone(), plan.private[k], plan.folded[k]));
            for &(b, _, _) in &plan.within[k] {
                covered[b as usize] = true;
            }
        }
        for b in (0..self.variants.len()).filter(|&b| !covered[b]) {
            keys.extend(self.variants[b].iter().map(|v| (window(v).to_vec(), true, self.folded[b])));
        }
        Plan::new(keys, &self.variants, &self.folded)
    }
}

/// The keys a scan searches for, and how each maps to the literals it
/// stands for. A key shared by several literals (`Failed`) keeps the
/// number of searcher passes low; when a scan finds it often where none of
/// its literals is (a log full of `Failed` of another kind), the scan
/// demotes it ([`Finder::demote`]): its literals get keys of their own.
#[derive(Clone, Debug)]
struct Plan {
    /// The keys; `private[k]`: key `k` stands for one literal only;
    /// `folded[k]`: it is searched in the lower-cased text.
    keys: Vec<Vec<u8>>,
    private: Vec<bool>,
    folded: Vec<bool>,
    /// Searcher passes over the keys: the searcher, the index of its first
    /// key, and whether it runs over the lower-cased text.
    groups: Vec<(Searcher, usize, bool)>,
    /// Per key: where it sits in the literals it stands for, as
    /// `(branch, variant, offset)`: a hit at `s` is that literal if the
    /// literal starts at `s - offset`.
    within: Vec<Vec<(u32, u32, u32)>>,
    /// Per key: the other keys that can start where it does (a searcher
    /// reports one key per position).
    costart: Vec<Vec<u32>>,
}

/// Misses per window that make a shared key hot (about one per 4 KiB).
const HOT: u32 = 64;

impl Plan {
    fn new(mut keys: Vec<(Vec<u8>, bool, bool)>, variants: &[Vec<Vec<u8>>], folded: &[bool]) -> Option<Plan> {
        // Folded keys after the others, each mode sorted, no key twice; the
        // keys shorter than 4 bytes first, so they share a searcher pass
        // (Teddy tells keys apart by as many leading bytes as its shortest
        // key has: one 3-byte key makes its whole pass less selective).
        keys.sort_by(|a, b| (a.2, a.0.len() >= 4, &a.0).cmp(&(b.2, b.0.len() >= 4, &b.0)));
        keys.dedup_by(|a, b| a.0 == b.0 && a.2 == b.2);
        let mut within: Vec<Vec<(u32, u32, u32)>> = vec![Vec::new(); keys.len()];
        let all = nfa(keys.iter().map(|k| &k.0))?;
        for (b, vs) in variants.iter().enumerate() {
            for (v, lit) in vs.iter().enumerate() {
                for m in all.find_overlapping_iter(lit) {
                    let k = m.pattern().as_usize();
                    if keys[k].2 == folded[b] {
                        within[k].push((b as u32, v as u32, m.start() as u32));
                    }
                }
            }
        }
        // Teddy takes a few dozen keys at a time; past a few passes (a big
        // knowledge base) one automaton over all of them is faster. Without
        // Teddy (wasm) every pass is a byte-at-a-time automaton over the
        // whole text, so there is one: every key, in any case, over the text
        // as written; a key of the exact mode then has its literals checked
        // in their case (`Finder::events`).
        let one_pass = !teddy();
        let searched: Vec<Vec<u8>> =
            keys.iter().map(|k| if one_pass { k.0.to_ascii_lowercase() } else { k.0.clone() }).collect();
        let costart: Vec<Vec<u32>> = (0..keys.len())
            .map(|i| {
                let (a, fa) = (&searched[i], keys[i].2);
                let other = |j: &usize| {
                    let b = &searched[*j];
                    *j != i && (one_pass || fa == keys[*j].2) && (a.starts_with(b) || b.starts_with(a))
                };
                (0..keys.len()).filter(other).map(|j| j as u32).collect()
            })
            .collect();
        let mut groups = Vec::new();
        if one_pass && !keys.is_empty() {
            // Case-insensitive over the text as written: no lower-cased copy.
            let ks: Vec<&[u8]> = searched.iter().map(Vec::as_slice).collect();
            groups.push((Searcher::any_case(&ks)?, 0, false));
        }
        for mode in [false, true].into_iter().filter(|_| !one_pass) {
            let start = keys.iter().position(|k| k.2 == mode).unwrap_or(keys.len());
            let end = start + keys[start..].iter().take_while(|k| k.2 == mode).count();
            let n = (end - start).div_ceil(GROUP);
            if n == 0 {
                continue;
            }
            let per = if n <= 6 { (end - start).div_ceil(n) } else { end - start };
            for (i, chunk) in keys[start..end].chunks(per).enumerate() {
                let ks: Vec<&[u8]> = chunk.iter().map(|k| k.0.as_slice()).collect();
                groups.push((Searcher::new(&ks)?, start + i * per, mode));
            }
        }
        let mut plan = Plan { keys: Vec::new(), private: Vec::new(), folded: Vec::new(), groups, within, costart };
        for (k, p, f) in keys {
            plan.keys.push(k);
            plan.private.push(p);
            plan.folded.push(f);
        }
        Some(plan)
    }
}

/// Whether aho-corasick has its SIMD multi-literal searcher (Teddy) here:
/// x86-64 and aarch64 do, wasm32 does not (tests can turn it off).
pub(crate) fn teddy() -> bool {
    #[cfg(test)]
    if NO_TEDDY.with(std::cell::Cell::get) {
        return false;
    }
    static TEDDY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TEDDY.get_or_init(|| aho_corasick::packed::Config::new().builder().add("roll").build().is_some())
}

#[cfg(test)]
thread_local! {
    /// Plans built on this thread search as if there were no Teddy (wasm).
    static NO_TEDDY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// An automaton over `lits` that is quick to build (a contiguous NFA, not
/// the DFA `AhoCorasick::new` picks for few literals): these run over
/// single lines and literals, not over the whole input.
fn nfa<I: IntoIterator<Item = P>, P: AsRef<[u8]>>(lits: I) -> Option<aho_corasick::AhoCorasick> {
    aho_corasick::AhoCorasick::builder().kind(Some(aho_corasick::AhoCorasickKind::ContiguousNFA)).build(lits).ok()
}

/// `hay` with ASCII letters in lower case, into `out`.
fn lowercase(hay: &[u8], out: &mut Vec<u8>) {
    out.clear();
    // A byte at a time, branch-free: the compiler vectorises it.
    out.extend(hay.iter().map(|&b| b | (u8::from(b.wrapping_sub(b'A') < 26) << 5)));
}

/// How often a key's first three bytes (what Teddy tells keys apart by)
/// may start a position of text: a product of byte commonness, in (0, 1].
fn start_cost(k: &[u8]) -> f64 {
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
                    .filter(|w| variants[1..].iter().all(|v| memchr::memmem::find(v, w).is_some()))
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
fn window(lit: &[u8]) -> &[u8] {
    let keep = lit.len().min(8);
    let start =
        (0..=lit.len() - keep).min_by(|&a, &b| start_cost(&lit[a..]).total_cmp(&start_cost(&lit[b..]))).unwrap_or(0);
    &lit[start..lit.len().min(start + 16)]
}

/// How common a byte is in logs (higher = more common); picks rare windows.
fn commonness(b: u8) -> u32 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::{normalise, segment};
    use proptest::prelude::*;

    fn fast(set: &SignatureSet, text: &str) -> Vec<Hit> {
        let mut out = Vec::new();
        for seg in segment(text) {
            set.scan_segment(&seg, &mut |no, _, sigs| {
                out.extend(sigs.iter().map(|&s| Hit { signature: s, line: no }));
            });
        }
        out
    }

    fn reference(set: &SignatureSet, text: &str) -> Vec<Hit> {
        let mut out = Vec::new();
        for seg in segment(text) {
            set.scan(&seg.lines, &mut out);
        }
        out
    }

    #[test]
    fn one_scan_finds_all_patterns() {
        let set = SignatureSet::new(&["EI0006".into(), "Too many open files".into()]).unwrap();
        let mut hits = Vec::new();
        set.scan(&normalise("ok\nEI0006: boom\nFailed accept4: Too many open files\n"), &mut hits);
        assert_eq!(hits, vec![Hit { signature: 0, line: 2 }, Hit { signature: 1, line: 3 }]);
        assert_eq!(fast(&set, "ok\nEI0006: boom\nFailed accept4: Too many open files\n"), hits);
    }

    #[test]
    fn typed_commands_are_not_evidence() {
        assert!(is_typed_command("grep EI0006 plog/*.log"));
        assert!(is_typed_command("  123  export HCCL_CONNECT_TIMEOUT=3600"));
        assert!(!is_typed_command("EI0006: Getting socket times out."));
        let set = SignatureSet::new(&["EI0006".into()]).unwrap();
        let mut hits = Vec::new();
        set.scan(&normalise("grep EI0006 plog\n"), &mut hits);
        assert!(hits.is_empty());
        assert!(fast(&set, "grep EI0006 plog\n").is_empty());
    }

    #[test]
    fn hard_wrapped_lines_are_joined() {
        let long = "[ERROR] HCCL(1,python):2025-04-08 [socket.cc:1] [1][Wait] wait socket establish timeout, role[1] rank[12] timeout[120]";
        let folded: String =
            long.chars().collect::<Vec<_>>().chunks(60).map(|c| c.iter().collect::<String>() + "\n").collect();
        let text = format!("{folded}{}\n{}\n", "x".repeat(60), "y".repeat(60));
        let lines = normalise(&text);
        assert_eq!(wrap_width(&lines), Some(60));
        let set = SignatureSet::new(&["wait socket establish timeout".into()]).unwrap();
        let mut hits = Vec::new();
        set.scan(&lines, &mut hits);
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert_eq!(fast(&set, &text), hits);
    }

    #[test]
    fn bad_pattern_is_reported() {
        assert!(SignatureSet::new(&["ok".into(), "(".into()]).is_err());
    }

    #[test]
    fn the_finder_is_on_for_the_embedded_set() {
        // every built-in pattern has a required factor
        assert!(crate::catalogue().signatures.finder.is_some());
    }

    /// The build's branches are what the analysis gives now, for every
    /// embedded signature, and the build saw every one of them.
    #[test]
    fn precomputed_branches_equal_the_analysis() {
        let cat = crate::catalogue();
        let built_in = [crate::pattern::FAILURE_LIKE, crate::cann::SIGNATURE];
        let mut n = 0;
        for p in cat.signatures.patterns.iter().filter(|p| !built_in.contains(&p.as_str())) {
            let pre = precomputed::branches(p).unwrap_or_else(|| panic!("not in the build's table: {p}"));
            assert_eq!(Some(pre), crate::factor::branches(p), "{p}");
            n += 1;
        }
        assert!(n > 300, "{n} signatures checked");
        // and the table holds nothing else: one entry per rule signature
        assert_eq!(precomputed::len_sorted(), (n, true));
        // a pattern the build did not see is analysed at run time
        assert!(precomputed::branches("a signature of no rule: XYZ0001").is_none());
    }

    #[test]
    fn without_teddy_one_pass_agrees_with_the_reference() {
        // As in wasm: no SIMD searcher, so the keys of both modes are one automaton.
        let set = no_teddy_set();
        let plan = &set.finder.as_ref().expect("the catalogue has a finder").plan;
        assert!(plan.folded.contains(&true) && plan.folded.contains(&false), "keys of both modes");
        assert_eq!(plan.groups.len(), 1, "one pass");
        let text = "INFO ok\r\n\u{1b}[31mEI\u{1b}[0m0006: Getting socket times out.\n> EZ9999: Inner Error!\n  SyntaxError: bad\nprogress\rFailed accept4: Too many open files\nRuntimeError: NPU out of memory\nERROR\nnothing\nE1234 trailing\ngrep EI0006 log\nWORLD_SIZE: 3 IS NOT DIVISIBLE BY 2\nCurrent CANN Version Does Not Support this api\n";
        assert_eq!(fast(set, text), reference(set, text));
        assert!(fast(set, text).len() >= 6);
    }

    #[test]
    fn the_finder_agrees_with_the_reference_on_the_catalogue() {
        let set = &crate::catalogue().signatures;
        let text = "INFO ok\r\n\u{1b}[31mEI\u{1b}[0m0006: Getting socket times out.\n> EZ9999: Inner Error!\n  SyntaxError: bad\nprogress\rFailed accept4: Too many open files\nRuntimeError: x\nERROR\nnothing\nE1234 trailing\n";
        assert_eq!(fast(set, text), reference(set, text));
        assert!(!fast(set, text).is_empty());
    }

    proptest! {
        /// The buffer search finds exactly the hits of matching every line.
        #[test]
        fn finder_equals_reference(
            lines in proptest::collection::vec(prop_oneof![
                Just("EI0006: Getting socket times out.".to_string()),
                Just("Failed accept4: Too many open files".to_string()),
                Just("  SyntaxError: x".to_string()),
                Just("RuntimeError: NPU out of memory".to_string()),
                Just("\u{1b}[1mERROR\u{1b}[0m here".to_string()),
                Just("grep EI0006 log".to_string()),
                Just("> quoted EL0004: Failed to allocate memory".to_string()),
                "[ -~]{0,40}",
                "\\PC{0,20}",
            ], 0..40),
            crlf in proptest::bool::ANY,
        ) {
            let set = &crate::catalogue().signatures;
            let text = lines.join(if crlf { "\r\n" } else { "\n" });
            prop_assert_eq!(fast(set, &text), reference(set, &text));
        }

        /// A hard-wrapped paste goes line by line, each line (and each join
        /// of a full-width line with the next) matched by the patterns the
        /// finder finds a factor of, each alone: the same hits as matching
        /// the set of all patterns.
        #[test]
        fn wrapped_pastes_equal_reference(
            parts in proptest::collection::vec(prop_oneof![
                Just("EI0006: Getting socket times out. Reason: Remote Rank did not send the data in time.".to_string()),
                Just("[ERROR] HCCL(1,python):2025-04-08 [socket.cc:1] [1][Wait] wait socket establish timeout, role[1] rank[12] timeout[120]".to_string()),
                Just("Failed accept4: Too many open files".to_string()),
                Just("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.01 GiB already allocated)".to_string()),
                Just("WORLD_SIZE: 3 IS NOT DIVISIBLE BY 2".to_string()),
                Just("grep EI0006 log".to_string()),
                "[ -~]{0,120}",
            ], 1..12),
            width in 60usize..100,
        ) {
            let set = &crate::catalogue().signatures;
            let flat: Vec<char> = parts.join(" ").chars().collect();
            let folded: String = flat.chunks(width).map(|c| c.iter().collect::<String>() + "\n").collect();
            let text = format!("{folded}{}\n{}\n{}\n", "x".repeat(width), "y".repeat(width), "z".repeat(width));
            prop_assert_eq!(wrap_width(&normalise(&text)), Some(width));
            prop_assert_eq!(fast(set, &text), reference(set, &text));
        }

        /// The same without Teddy (wasm's one pass), with case changes
        /// that the exact keys must not take for their literals.
        #[test]
        fn finder_without_teddy_equals_reference(
            lines in proptest::collection::vec(prop_oneof![
                Just("EI0006: Getting socket times out.".to_string()),
                Just("ei0006: getting socket times out.".to_string()),
                Just("Failed accept4: Too many open files".to_string()),
                Just("FAILED ACCEPT4: TOO MANY OPEN FILES".to_string()),
                Just("RuntimeError: NPU out of memory".to_string()),
                Just("runtimeerror: npu OUT OF MEMORY".to_string()),
                Just("Address already in use".to_string()),
                Just("ADDRESS ALREADY IN USE".to_string()),
                Just("  SyntaxError: x".to_string()),
                // Signatures written `(?i)`, in other cases than their literals.
                Just("WORLD_SIZE: 3 IS NOT DIVISIBLE BY 2".to_string()),
                Just("World Size (3) is not Divisible by 2".to_string()),
                Just("Current CANN Version Does Not Support this api".to_string()),
                "[ -~]{0,40}",
            ], 0..30),
        ) {
            let set = no_teddy_set();
            let text = lines.join("\n");
            prop_assert_eq!(fast(set, &text), reference(set, &text));
        }
    }

    /// The catalogue's signatures planned as in wasm (no Teddy), built once.
    fn no_teddy_set() -> &'static SignatureSet {
        static SET: std::sync::OnceLock<SignatureSet> = std::sync::OnceLock::new();
        SET.get_or_init(|| {
            super::NO_TEDDY.with(|c| c.set(true));
            let set = SignatureSet::new_unchecked(&crate::catalogue().signatures.patterns);
            super::NO_TEDDY.with(|c| c.set(false));
            set
        })
    }

    /// A signature whose required literal is a short, common word (`NPU`,
    /// `ret`) makes most lines of a log candidates, and every scan pays for
    /// it: round 19's bare `NPUs?` took the bench's scan from 0.35 to 0.47 s.
    /// The embedded set's literals are at least 3 bytes, and the 3-byte ones
    /// are these, each looked at: a new one must be added here on purpose.
    #[test]
    fn the_embedded_literals_are_not_short_common_words() {
        const SHORT_BUT_RARE: &[&str] = &["0):", "310", "910", "tcp", "udp"];
        let cat = crate::catalogue::catalogue();
        let f = cat.signatures.finder.as_ref().expect("the embedded set has a finder");
        // A branch is one literal in several spellings (`0):` … `9):`):
        // named by its first.
        for (spellings, owners) in f.variants.iter().zip(&f.owners) {
            let first = String::from_utf8_lossy(&spellings[0]);
            let shortest = spellings.iter().map(Vec::len).min().unwrap_or(0);
            let pattern = &cat.signatures.patterns[owners[0]];
            assert!(
                shortest >= 4 || shortest == 3 && SHORT_BUT_RARE.contains(&first.as_ref()),
                "{pattern}: its literal {first:?} is short: most log lines would be candidates"
            );
        }
    }
}
