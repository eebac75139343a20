//! Evaluating compiled conditions over what was collected.
//!
//! A condition is evaluated within a [`ScopeSel`]: one node (its facts and
//! hits plus the cluster-wide ones, which carry no node) or the whole
//! cluster. Every way a condition reads facts is linear in their number:
//! facts are indexed by name once, and a comparison with another fact looks
//! at no more than [`MAX_OPERANDS`] candidates per fact.

use crate::facts::{Fact, FactValue, LineRef, NodeId};
use regex::bytes::Regex;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// How many operand facts one fact is compared with at most (a hostile
/// paste with a million `npu.count` facts must not make a rule quadratic).
pub const MAX_OPERANDS: usize = 256;

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Divisible,
    NotDivisible,
}

/// What a value is compared with.
#[derive(Debug)]
pub(crate) enum Operand {
    Lit(FactValue),
    Fact {
        name: &'static str,
        subject: Option<String>,
        same_subject: bool,
        /// Read text values as numbers (environment variables hold counts as text).
        as_number: bool,
    },
}

#[derive(Debug)]
pub(crate) enum Test {
    Cmp(Op, Operand),
    In(Vec<FactValue>, bool),
    Matches(LazyPattern, bool),
}

/// A `matches:` pattern, compiled when a fact is first tested against it.
/// Extra rule files have theirs compiled at load (to report errors at their
/// line); the embedded rules' are compiled by a test instead, so loading the
/// catalogue compiles none (in the page, 19 of them took about 20 ms).
#[derive(Debug)]
pub(crate) struct LazyPattern {
    source: String,
    compiled: std::sync::OnceLock<Option<Regex>>,
}

impl LazyPattern {
    /// A pattern already compiled (and so known to be valid).
    pub(crate) fn compiled(source: &str, re: Regex) -> LazyPattern {
        LazyPattern { source: source.to_string(), compiled: std::sync::OnceLock::from(Some(re)) }
    }

    /// A pattern known to compile, compiled on first use.
    pub(crate) fn later(source: &str) -> LazyPattern {
        LazyPattern { source: source.to_string(), compiled: std::sync::OnceLock::new() }
    }

    fn is_match(&self, text: &[u8]) -> bool {
        // A pattern that does not compile (cannot happen: see `later`) matches nothing.
        self.compiled
            .get_or_init(|| crate::pattern::compile(&self.source).ok())
            .as_ref()
            .is_some_and(|re| re.is_match(text))
    }
}

#[derive(Debug)]
pub(crate) enum SubjectSel {
    Any,
    Is(String),
    In(Vec<String>),
    /// The subject equals the value of such a fact.
    FromFact {
        name: &'static str,
        subject: Option<String>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Quant {
    Some,
    Every,
    Differs,
    DiffersPerSubject,
    Duplicate,
    Absent,
}

#[derive(Debug)]
pub(crate) struct FactCond {
    pub name: &'static str,
    pub subject: SubjectSel,
    pub tests: Vec<Test>,
    pub quant: Quant,
}

/// A condition compiled against the signature set and the fact declarations.
#[derive(Debug)]
pub(crate) enum Expr {
    Sig { index: usize, min: usize },
    Fact(FactCond),
    All(Vec<Expr>),
    Any(Vec<Expr>),
    Not(Box<Expr>),
}

/// A signature hit: where, and about which node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HitRef {
    /// The line.
    pub at: LineRef,
    /// The node of the input it is in.
    pub node: Option<NodeId>,
}

/// What made a condition true: signature hits `(hit, signature)` and facts (by index).
#[derive(Debug, Default, Clone)]
pub(crate) struct Why {
    pub hits: BTreeSet<(HitRef, usize)>,
    pub facts: BTreeSet<usize>,
    /// Facts the verdict was measured against without being its evidence:
    /// the majority an odd value differs from, the other owner of a
    /// duplicate. Not cited, but a share link must carry them, or the
    /// finding cannot be derived again from the link.
    pub context: BTreeSet<usize>,
}

impl Why {
    pub fn extend(&mut self, other: Why) {
        self.hits.extend(other.hits);
        self.facts.extend(other.facts);
        self.context.extend(other.context);
    }
}

/// The facts and hits a condition is evaluated against, indexed once.
pub(crate) struct Evidence<'a> {
    pub facts: &'a [Fact],
    by_name: HashMap<&'static str, Vec<usize>>,
    /// The same, by name and a hash of the subject: a comparison with the
    /// fact about the same subject looks there, not through every fact of
    /// the name (a collision only adds candidates, which are checked).
    by_subject: HashMap<(&'static str, u64), Vec<usize>>,
    /// Hits grouped by signature index.
    pub hits_by_sig: Vec<Vec<HitRef>>,
}

impl<'a> Evidence<'a> {
    pub fn new(facts: &'a [Fact], hits_by_sig: Vec<Vec<HitRef>>) -> Evidence<'a> {
        let mut by_name: HashMap<&'static str, Vec<usize>> = HashMap::new();
        let mut by_subject: HashMap<(&'static str, u64), Vec<usize>> = HashMap::new();
        for (i, f) in facts.iter().enumerate() {
            by_name.entry(f.name).or_default().push(i);
            by_subject.entry((f.name, subject_hash(f.subject.as_deref()))).or_default().push(i);
        }
        // The lists grew by doubling; a fact-dense paste (every line a fact)
        // would carry up to half of them spare through evaluation.
        by_name.values_mut().chain(by_subject.values_mut()).for_each(Vec::shrink_to_fit);
        Evidence { facts, by_name, by_subject, hits_by_sig }
    }

    /// Indices of the facts named `name` about `subject` (and maybe a few others).
    pub fn about(&self, name: &'static str, subject: Option<&str>) -> &[usize] {
        self.by_subject.get(&(name, subject_hash(subject))).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Indices of the facts named `name`.
    pub fn named(&self, name: &str) -> &[usize] {
        self.by_name.get(name).map(Vec::as_slice).unwrap_or(&[])
    }
}

fn subject_hash(s: Option<&str>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

/// Which facts a condition sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScopeSel {
    /// Everything.
    Cluster,
    /// One node's facts and hits, and the ones with no node.
    Node(NodeId),
}

impl ScopeSel {
    fn sees(self, node: Option<NodeId>) -> bool {
        match self {
            ScopeSel::Cluster => true,
            ScopeSel::Node(n) => node.is_none() || node == Some(n),
        }
    }
}

/// Two facts can be compared when they describe the same node, or when
/// one of them is cluster-wide.
fn same_node(a: Option<NodeId>, b: Option<NodeId>) -> bool {
    a.is_none() || b.is_none() || a == b
}

/// Total order on values of one type, for majorities and ties.
fn value_key(v: &FactValue) -> (u8, i128, String) {
    match v {
        FactValue::Bool(b) => (0, *b as i128, String::new()),
        FactValue::Int(i) => (1, *i as i128, String::new()),
        // Floats by the usual total-order transform of their bits.
        FactValue::Float(f) => {
            let b = f.to_bits() as i64;
            (2, (b ^ ((((b >> 63) as u64) >> 1) as i64)) as i128, String::new())
        }
        FactValue::Str(s) => (3, 0, s.clone()),
    }
}

fn cmp_values(op: Op, a: &FactValue, b: &FactValue, as_number: bool) -> bool {
    let num = |v: &FactValue| if as_number { v.as_number() } else { v.as_f64() };
    match op {
        Op::Eq | Op::Ne => {
            let eq = match (a, b) {
                (FactValue::Int(x), FactValue::Float(y)) | (FactValue::Float(y), FactValue::Int(x)) => *x as f64 == *y,
                _ if as_number => matches!((num(a), num(b)), (Some(x), Some(y)) if x == y),
                _ => a == b,
            };
            eq == (op == Op::Eq)
        }
        Op::Lt | Op::Le | Op::Gt | Op::Ge => {
            let (Some(x), Some(y)) = (num(a), num(b)) else { return false };
            match op {
                Op::Lt => x < y,
                Op::Le => x <= y,
                Op::Gt => x > y,
                _ => x >= y,
            }
        }
        Op::Divisible | Op::NotDivisible => {
            let (Some(x), Some(y)) = (num(a), num(b)) else { return false };
            if y == 0.0 || x.fract() != 0.0 || y.fract() != 0.0 {
                return false;
            }
            ((x % y) == 0.0) == (op == Op::Divisible)
        }
    }
}

impl Test {
    /// Whether fact `i` passes; operand facts it was compared with go to `why`.
    fn holds(&self, ev: &Evidence<'_>, scope: ScopeSel, i: usize, why: &mut Why) -> bool {
        let f = &ev.facts[i];
        match self {
            Test::In(list, negate) => list.iter().any(|v| cmp_values(Op::Eq, &f.value, v, false)) != *negate,
            Test::Matches(re, negate) => re.is_match(f.value.to_text().as_bytes()) != *negate,
            Test::Cmp(op, Operand::Lit(v)) => cmp_values(*op, &f.value, v, false),
            Test::Cmp(op, Operand::Fact { name, subject, same_subject, as_number }) => {
                // Facts of that name, narrowed by subject through the index when the operand names one.
                let pool = match (subject, same_subject) {
                    (Some(s), _) => ev.about(name, Some(s)),
                    (None, true) => ev.about(name, f.subject.as_deref()),
                    (None, false) => ev.named(name),
                };
                let candidates = pool
                    .iter()
                    .copied()
                    .filter(|&j| j != i)
                    .filter(|&j| {
                        let g = &ev.facts[j];
                        scope.sees(g.node)
                            && same_node(f.node, g.node)
                            && subject.as_ref().is_none_or(|s| g.subject.as_ref() == Some(s))
                            && (!same_subject || g.subject == f.subject)
                    })
                    .take(MAX_OPERANDS);
                for j in candidates {
                    if cmp_values(*op, &f.value, &ev.facts[j].value, *as_number) {
                        why.facts.insert(j);
                        return true;
                    }
                }
                false
            }
        }
    }
}

impl FactCond {
    fn eval(&self, ev: &Evidence<'_>, scope: ScopeSel, why: &mut Why) -> bool {
        // The subjects allowed by `subject: { fact: … }`, and the facts naming them.
        let from: Option<(HashSet<String>, Vec<usize>)> = match &self.subject {
            SubjectSel::FromFact { name, subject } => {
                let refs: Vec<usize> = ev
                    .named(name)
                    .iter()
                    .copied()
                    .filter(|&j| scope.sees(ev.facts[j].node))
                    .filter(|&j| subject.as_ref().is_none_or(|s| ev.facts[j].subject.as_ref() == Some(s)))
                    .collect();
                let texts: HashSet<String> =
                    refs.iter().map(|&j| ev.facts[j].value.to_text().trim().to_string()).collect();
                Some((texts, refs))
            }
            _ => None,
        };
        let candidates: Vec<usize> = ev
            .named(self.name)
            .iter()
            .copied()
            .filter(|&i| scope.sees(ev.facts[i].node))
            .filter(|&i| {
                let s = ev.facts[i].subject.as_deref();
                match (&self.subject, &from) {
                    (SubjectSel::Any, _) => true,
                    (SubjectSel::Is(want), _) => s == Some(want.as_str()),
                    (SubjectSel::In(list), _) => s.is_some_and(|s| list.iter().any(|w| w == s)),
                    (SubjectSel::FromFact { .. }, Some((texts, _))) => s.is_some_and(|s| texts.contains(s)),
                    _ => false,
                }
            })
            .collect();
        if self.quant == Quant::Absent {
            return candidates.is_empty();
        }
        let mut local = Why::default();
        let passing: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&i| {
                let mut w = Why::default();
                let ok = self.tests.iter().all(|t| t.holds(ev, scope, i, &mut w));
                if ok {
                    local.extend(w);
                }
                ok
            })
            .collect();
        // For the comparing quantifiers, the facts compared with.
        let mut compared: Vec<usize> = Vec::new();
        let chosen: Vec<usize> = match self.quant {
            Quant::Some => passing,
            Quant::Every => {
                if candidates.is_empty() || passing.len() != candidates.len() {
                    return false;
                }
                passing
            }
            Quant::Differs => {
                let odd = odd_ones_out(ev, &passing);
                if !odd.is_empty() {
                    compared = passing;
                }
                odd
            }
            Quant::DiffersPerSubject => {
                let mut by_subject: BTreeMap<Option<&str>, Vec<usize>> = BTreeMap::new();
                for &i in &passing {
                    by_subject.entry(ev.facts[i].subject.as_deref()).or_default().push(i);
                }
                let mut out = Vec::new();
                for list in by_subject.values() {
                    let odd = odd_ones_out(ev, list);
                    if !odd.is_empty() {
                        out.extend(odd);
                        compared.extend(list.iter().copied());
                    }
                }
                out.sort_unstable();
                out
            }
            Quant::Duplicate => duplicated(ev, &passing),
            Quant::Absent => unreachable!("handled above"),
        };
        if chosen.is_empty() {
            return false;
        }
        let odd: HashSet<usize> = chosen.iter().copied().collect();
        why.context.extend(compared.into_iter().filter(|i| !odd.contains(i)));
        why.facts.extend(chosen);
        why.extend(local);
        if let Some((_, refs)) = from {
            // Only the facts that named a subject that was used.
            let used: BTreeSet<String> = why.facts.iter().filter_map(|&i| ev.facts[i].subject.clone()).collect();
            why.facts.extend(refs.into_iter().filter(|&j| used.contains(ev.facts[j].value.to_text().trim())));
        }
        true
    }
}

/// The facts whose value differs from the majority (ties: the smallest
/// value is the majority, so 0 = TLS off, the recommended setting, wins a
/// one-to-one tie). Empty when all values agree.
fn odd_ones_out(ev: &Evidence<'_>, idx: &[usize]) -> Vec<usize> {
    let mut counts: HashMap<(u8, i128, String), usize> = HashMap::new();
    for &i in idx {
        *counts.entry(value_key(&ev.facts[i].value)).or_default() += 1;
    }
    if counts.len() < 2 {
        return Vec::new();
    }
    let majority = counts.iter().max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0))).map(|(k, _)| k.clone());
    idx.iter().copied().filter(|&i| Some(value_key(&ev.facts[i].value)) != majority).collect()
}

/// The facts whose value another subject (or the same subject on another node) also has.
fn duplicated(ev: &Evidence<'_>, idx: &[usize]) -> Vec<usize> {
    let mut by_value: HashMap<(u8, i128, String), Vec<usize>> = HashMap::new();
    for &i in idx {
        by_value.entry(value_key(&ev.facts[i].value)).or_default().push(i);
    }
    let mut out = Vec::new();
    for list in by_value.values() {
        let owners: BTreeSet<(Option<NodeId>, Option<&str>)> =
            list.iter().map(|&i| (ev.facts[i].node, ev.facts[i].subject.as_deref())).collect();
        if owners.len() >= 2 {
            out.extend(list.iter().copied());
        }
    }
    out.sort_unstable();
    out
}

impl Expr {
    /// Evaluates the condition in `scope`; what made it true goes to `why`.
    pub(crate) fn eval(&self, ev: &Evidence<'_>, scope: ScopeSel, why: &mut Why) -> bool {
        match self {
            Expr::Sig { index, min } => {
                let hits: Vec<HitRef> = ev.hits_by_sig[*index].iter().copied().filter(|h| scope.sees(h.node)).collect();
                if hits.len() < (*min).max(1) {
                    return false;
                }
                why.hits.extend(hits.into_iter().map(|h| (h, *index)));
                true
            }
            Expr::Fact(c) => c.eval(ev, scope, why),
            Expr::All(xs) => {
                let mut local = Why::default();
                if xs.iter().all(|x| x.eval(ev, scope, &mut local)) {
                    why.extend(local);
                    true
                } else {
                    false
                }
            }
            Expr::Any(xs) => {
                let mut any = false;
                for x in xs {
                    any |= x.eval(ev, scope, why);
                }
                any
            }
            Expr::Not(x) => !x.eval(ev, scope, &mut Why::default()),
        }
    }
}
