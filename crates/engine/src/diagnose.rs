//! The pipeline, in two phases.
//!
//! [`collect`] reads the inputs: segments, detection, facts, signature hits,
//! and which node each came from. [`evaluate`] runs the rules over what was
//! collected, plus the user's answers and chosen symptoms, and builds the
//! [`Report`], in named steps: the facts answers stand for, which rules fire
//! (node by node), each finding's evidence, steps and fixes, the root-cause
//! order, and the failure-like lines nothing explains. The split lets a
//! share link carry only the collected facts and hits (never the raw text)
//! and reproduce the same report with [`evaluate`].

use crate::catalogue::Catalogue;
use crate::detect::{self, Detection};
use crate::facts::{Fact, FactValue, LineRef, NodeId, Origin};
use crate::parse::{self, FactSink};
use crate::report::{
    order, EvidenceLine, Finding, NodeValue, Report, SegmentInfo, StepReport, StepState, MAX_EVIDENCE,
    MAX_FINDING_FACTS, MAX_NODE_ROWS, MAX_STEP_EVIDENCE, SCHEMA,
};
use crate::rules::eval::{Evidence, Expr, HitRef, ScopeSel, Why};
use crate::rules::{Rule, Scope};
use crate::segment::{self, Line};
use crate::template::{self, Vars};
use crate::unexplained;
use crate::Input;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap, HashSet};

pub use crate::facts::AnswerRef;

/// A signature hit of the collected input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SigHit {
    /// Index of the signature in the catalogue's set.
    pub signature: usize,
    /// Where, and about which node.
    pub at: HitRef,
}

/// What the inputs yielded before any rule ran.
#[derive(Clone, Debug, Default)]
pub struct Collected {
    /// Number of inputs.
    pub inputs: usize,
    /// The nodes the inputs name (a fact's `node` indexes this).
    pub nodes: Vec<String>,
    /// Facts from parsers and combiners.
    pub facts: Vec<Fact>,
    /// Signature hits, in input and line order (at most
    /// [`MAX_HITS_PER_SIGNATURE`] per signature and input).
    pub hits: Vec<SigHit>,
    /// Per input, the lines that hits point at (sorted by line, each
    /// clipped as evidence shows it): only those, so a 100 MB log is not
    /// kept twice.
    pub lines: Vec<Vec<Line>>,
    /// How the inputs were split (at most [`MAX_SEGMENTS`] per input).
    pub segments: Vec<SegmentInfo>,
    /// Segments left out of `segments` (past [`MAX_SEGMENTS`] in an input).
    pub segments_omitted: usize,
    /// Hits not kept (past [`MAX_HITS_PER_SIGNATURE`]), per signature.
    pub hits_omitted: Vec<usize>,
}

impl Collected {
    /// The text of a pasted line that a hit points at.
    fn line_text(&self, at: LineRef) -> String {
        let Some(lines) = self.lines.get(at.input as usize) else { return String::new() };
        match lines.binary_search_by_key(&at.line, |l| l.no) {
            Ok(i) => lines[i].text.clone(),
            Err(_) => String::new(),
        }
    }
}

/// Hits kept per signature and input: a log that repeats one error a
/// million times gives its first 10,000 (the rest are counted in
/// [`Collected::hits_omitted`]), so memory and the report stay bounded.
pub const MAX_HITS_PER_SIGNATURE: usize = 10_000;

/// Segments described per input ([`Collected::segments`]); a million
/// prompts are still parsed and scanned, but not listed.
pub use crate::report::MAX_SEGMENTS;

/// Facts kept per input: parsing stops adding facts past this.
pub const MAX_FACTS: usize = 100_000;

/// Nodes told apart; segments of further nodes count as of no node.
pub const MAX_NODES: usize = 1024;

/// What parsers that read [`segment::Segment::lines`] get: real outputs of
/// their kinds (a version file, `hostname -I`, the collector's node list)
/// are a few lines; a hostile paste cannot make them copy more.
const MATERIAL: segment::Bounds = segment::Bounds { lines: 10_000, line_bytes: 4096, total: 1 << 20 };

/// Kinds whose parser reads [`segment::Segment::rows`] (borrowing the
/// input, line by line or by searching it); the others get their lines
/// materialised, within [`MATERIAL`].
fn streams(kind: crate::InputKind) -> bool {
    use crate::InputKind as K;
    matches!(kind, K::Log | K::Unrecognised)
}

/// What the user added on top of the inputs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// Answers clicked in decision trees.
    #[serde(default)]
    pub answers: Vec<AnswerRef>,
    /// Rules the user picked as their symptom ("start from a symptom"); they
    /// are shown, with their trees, even when no evidence fired them.
    #[serde(default)]
    pub symptoms: Vec<String>,
}

/// Phase 1: reads the inputs: one pass over each to split it into
/// segments (no line is copied), detection on each segment's head, the
/// parser of its kind, and the signature scan over its spans. Time and
/// memory grow linearly with the input; what is kept is bounded
/// ([`MAX_HITS_PER_SIGNATURE`], [`MAX_SEGMENTS`], [`MAX_FACTS`], clipped lines).
pub fn collect(cat: &Catalogue, inputs: &[Input]) -> Collected {
    let mut c = Collected { inputs: inputs.len(), hits_omitted: vec![0; cat.signatures.len()], ..Collected::default() };
    let mut node_ids: HashMap<String, NodeId> = HashMap::new();
    let mut seg_index = 0u32;
    let mut texts = parse::LineTexts::default();
    for (input_idx, input) in inputs.iter().enumerate() {
        let input_no = input_idx as u32;
        let mut hit_lines: Vec<Line> = Vec::new();
        let mut kept = vec![0usize; cat.signatures.len()];
        let facts_start = c.facts.len();
        let mut described = 0usize;
        for raw in segment::segments(&input.text) {
            for (mut seg, det) in detect::split_and_detect(raw) {
                let det = match input.overrides.iter().find(|o| o.start_line == seg.start_line()) {
                    Some(o) => Detection { kind: o.kind, confidence: 100 },
                    None => det,
                };
                let parser = parse::parser(det.kind);
                // A config or `ray status` describes the cluster, whichever node it was pasted from.
                let node_name = if parser.cluster_wide { None } else { seg.node.as_deref().or(input.node.as_deref()) };
                let node = node_name.and_then(|n| match node_ids.get(n) {
                    Some(&id) => Some(id),
                    None if c.nodes.len() < MAX_NODES => {
                        let id = c.nodes.len() as NodeId;
                        c.nodes.push(n.to_string());
                        node_ids.insert(n.to_string(), id);
                        Some(id)
                    }
                    None => None,
                });
                if described < MAX_SEGMENTS {
                    described += 1;
                    c.segments.push(SegmentInfo {
                        input: input_idx,
                        kind: det.kind,
                        confidence: det.confidence,
                        command: seg.command.clone(),
                        node: node_name.map(str::to_string),
                        start_line: seg.start_line(),
                        end_line: seg.end_line(),
                    });
                } else {
                    c.segments_omitted += 1;
                }
                if c.facts.len() - facts_start < MAX_FACTS {
                    if !streams(det.kind) {
                        seg.materialize(MATERIAL);
                    }
                    let sink = FactSink::new(&mut c.facts, parser, input_no, seg_index, node);
                    (parser.parse)(&seg, &mut sink.sharing(&mut texts));
                    c.facts.truncate(facts_start + MAX_FACTS);
                }
                if parser.scanned {
                    let (hits, facts, omitted) = (&mut c.hits, &mut c.facts, &mut c.hits_omitted);
                    cat.signatures.scan_segment(&seg, &mut |no, text, sigs| {
                        let at = LineRef { input: input_no, line: no };
                        let mut any = false;
                        for &s in sigs {
                            if kept[s] >= MAX_HITS_PER_SIGNATURE {
                                omitted[s] += 1;
                                continue;
                            }
                            kept[s] += 1;
                            any = true;
                            hits.push(SigHit { signature: s, at: HitRef { at, node } });
                            // A CANN error code on the line becomes a fact (crate::cann).
                            if s == cat.cann_signature {
                                crate::cann::facts_for_line(at, seg_index, node, &segment::clip(text), facts);
                            }
                        }
                        if any {
                            hit_lines.push(Line { no, text: segment::clip(text).into_owned() });
                        }
                    });
                }
                seg_index += 1;
            }
        }
        hit_lines.sort_by_key(|l| l.no);
        hit_lines.dedup_by_key(|l| l.no);
        c.lines.push(hit_lines);
    }
    parse::combine::run(&mut c.facts);
    // The vector grew by doubling: up to half of it is spare room, which a
    // fact-dense paste (every line a fact) would carry through evaluation.
    c.facts.shrink_to_fit();
    c
}

/// Step 1: the facts the user's answers stand for.
fn answer_facts(cat: &Catalogue, session: &Session) -> Vec<Fact> {
    let mut out = Vec::new();
    for a in &session.answers {
        let Some(opt) = cat
            .rule(&a.rule)
            .and_then(|r| r.steps.iter().find(|s| s.id == a.step))
            .and_then(|s| s.answers.iter().find(|o| o.id == a.answer))
        else {
            continue;
        };
        for f in &opt.facts {
            // Checked when the rule loaded: the name is declared, the value of its type.
            let Some(def) = parse::fact_def(&f.fact) else { continue };
            let Some(value) = FactValue::from_json_as(&f.value, def.ty) else { continue };
            out.push(Fact {
                name: def.name,
                subject: f.subject.clone(),
                value,
                node: None,
                origin: Origin::Answer(Box::new(a.clone())),
            });
        }
    }
    out
}

/// Step 2: the scopes rules are evaluated in: one per node the input
/// names, or the whole input when it names none.
fn node_scopes(c: &Collected) -> Vec<ScopeSel> {
    if c.nodes.is_empty() {
        vec![ScopeSel::Cluster]
    } else {
        (0..c.nodes.len() as NodeId).map(ScopeSel::Node).collect()
    }
}

/// A rule that fired (or that the user picked), with what made it fire.
#[derive(Debug)]
pub(crate) struct Fired {
    pub rule: usize,
    pub why: Why,
    pub from_symptom: bool,
    /// Only the rule's `weak` condition held: the finding is shown at info
    /// level, outranks nothing and absorbs no CANN code.
    pub weak_only: bool,
}

/// Step 3: which rules fire.
fn fire(
    cat: &Catalogue,
    ev: &Evidence<'_>,
    scopes: &[ScopeSel],
    session: &Session,
    only: Option<&[String]>,
) -> Vec<Fired> {
    let mut out = Vec::new();
    for (i, (rule, (expr, weak))) in cat.rules.iter().zip(&cat.exprs).enumerate() {
        if only.is_some_and(|ids| !ids.contains(&rule.id)) {
            continue;
        }
        let mut why = Why::default();
        let strong = holds(expr, rule.scope, ev, scopes, &mut why);
        // The weak condition's evidence is shown too when the rule fired on
        // firmer ground.
        let weak = weak.as_ref().is_some_and(|w| holds(w, rule.scope, ev, scopes, &mut why));
        let fired = strong || weak;
        if fired || session.symptoms.contains(&rule.id) {
            out.push(Fired { rule: i, why, from_symptom: !fired, weak_only: weak && !strong });
        }
    }
    out
}

/// Whether `expr` holds once over the cluster or on any node, adding what
/// made it hold to `why`.
fn holds(expr: &Expr, scope: Scope, ev: &Evidence<'_>, scopes: &[ScopeSel], why: &mut Why) -> bool {
    match scope {
        Scope::Cluster => expr.eval(ev, ScopeSel::Cluster, why),
        Scope::Node => {
            let mut any = false;
            for &s in scopes {
                let mut w = Why::default();
                if expr.eval(ev, s, &mut w) {
                    why.extend(w);
                    any = true;
                }
            }
            any
        }
    }
}

/// What building a finding needs to know beyond its rule.
struct Ctx<'a> {
    cat: &'a Catalogue,
    c: &'a Collected,
    ev: &'a Evidence<'a>,
    session: &'a Session,
    /// Facts some finding rests on: shown first when a step cites facts.
    cited: &'a BTreeSet<usize>,
}

impl Ctx<'_> {
    fn node_name(&self, node: Option<NodeId>) -> Option<String> {
        node.and_then(|n| self.c.nodes.get(n as usize).cloned())
    }

    fn evidence_of_fact(&self, f: &Fact) -> EvidenceLine {
        let multi = self.c.inputs > 1;
        match &f.origin {
            Origin::Line { at, text, .. } => EvidenceLine {
                input: multi.then_some(at.input as usize),
                line: at.line,
                text: text.to_string(),
                node: self.node_name(f.node),
                answer: None,
            },
            Origin::Answer(a) => EvidenceLine {
                input: None,
                line: 0,
                text: String::new(),
                node: None,
                answer: self
                    .cat
                    .rule(&a.rule)
                    .and_then(|r| r.steps.iter().find(|s| s.id == a.step))
                    .and_then(|s| s.answers.iter().find(|o| o.id == a.answer))
                    .map(|o| o.label.clone()),
            },
        }
    }

    fn evidence_of_hit(&self, h: HitRef) -> EvidenceLine {
        EvidenceLine {
            input: (self.c.inputs > 1).then_some(h.at.input as usize),
            line: h.at.line,
            text: self.c.line_text(h.at),
            node: self.node_name(h.node),
            answer: None,
        }
    }
}

/// The facts that answer a step: of the step's fact (and subject), on the
/// finding's nodes; the ones other findings rest on first (the DOWN link,
/// not the seven UP ones).
fn step_facts(ctx: &Ctx<'_>, name: &str, subject: Option<&str>, nodes: &BTreeSet<Option<NodeId>>) -> Vec<usize> {
    let mut idx: Vec<usize> = ctx
        .ev
        .named(name)
        .iter()
        .copied()
        .filter(|&i| {
            let f = &ctx.ev.facts[i];
            subject.is_none_or(|s| f.subject.as_deref() == Some(s))
                && (nodes.is_empty() || f.node.is_none() || nodes.contains(&f.node))
        })
        .collect();
    idx.sort_by_key(|i| (!ctx.cited.contains(i), *i));
    idx
}

/// What a step's answering facts conclude, in a few words: the values some
/// finding rests on (`5: DOWN`), else the one value they all share (`UP`),
/// else nothing; an answer the user clicked says its label.
fn conclusion(ctx: &Ctx<'_>, answering: &[usize]) -> Option<crate::Text> {
    let facts: Vec<&Fact> = answering.iter().map(|&i| &ctx.ev.facts[i]).collect();
    if let Some(Origin::Answer(a)) = facts.first().map(|f| &f.origin) {
        let label =
            ctx.cat.rule(&a.rule)?.steps.iter().find(|s| s.id == a.step)?.answers.iter().find(|o| o.id == a.answer)?;
        return Some(label.label.clone());
    }
    // Each name once: a subject that already ends with the value (the
    // config key path `actor_train.model_args.flash_attn` of the key
    // `flash_attn`) is said alone, and so is a value that names its subject
    // (`/dev/davinci_manager` → `no --device /dev/davinci_manager`). Short
    // subjects (a card number) are always said: `0` is in many values.
    let show = |f: &Fact| {
        let value = f.value.to_text();
        let Some(s) = f.subject.as_deref().filter(|s| *s != "?") else { return value };
        if s == value || s.strip_suffix(value.as_str()).is_some_and(|p| p.ends_with('.')) {
            s.to_string()
        } else if s.len() >= 4 && value.contains(s) {
            value
        } else {
            format!("{s}: {value}")
        }
    };
    let cited: Vec<String> =
        answering.iter().filter(|i| ctx.cited.contains(i)).map(|&i| show(&ctx.ev.facts[i])).collect();
    let text = if !cited.is_empty() {
        let mut c = cited;
        c.dedup();
        c.truncate(8);
        c.join(", ")
    } else {
        let values: BTreeSet<String> = facts.iter().map(|f| f.value.to_text()).collect();
        match (values.len(), values.into_iter().next()) {
            (1, Some(v)) if facts.len() > 1 => format!("{}× {v}", facts.len()),
            (1, Some(_)) => show(facts[0]),
            _ => return None,
        }
    };
    Some(crate::Text::new(text.clone(), text))
}

/// A finding's evidence: its facts' and hits' lines, one entry per line, in
/// input order (answers the user clicked first), at most [`MAX_EVIDENCE`],
/// with the number of distinct lines there were. Only the lines kept are
/// copied: a finding resting on 100,000 facts (a fact-dense paste) would
/// otherwise copy every line's text to keep twenty.
fn evidence_lines(facts: &[&Fact], why: &crate::rules::eval::Why, ctx: &Ctx<'_>) -> (Vec<EvidenceLine>, usize) {
    let multi = ctx.c.inputs > 1;
    // Answers carry no line: few, and sorted before every line (line 0).
    let mut lines: Vec<EvidenceLine> =
        facts.iter().filter(|f| f.line_ref().is_none()).map(|f| ctx.evidence_of_fact(f)).collect();
    lines.sort();
    lines.dedup_by(|a, b| a.input == b.input && a.line == b.line && a.answer == b.answer);
    // (input, line, source) in 12 bytes: a source below `facts.len()` is a
    // fact, the rest index `hits`. The input is 0 for all when there is
    // one (the report leaves it out), as the lines' own order has it.
    let hits: Vec<HitRef> = why.hits.iter().map(|(h, _)| *h).collect();
    let input = |at: LineRef| if multi { at.input } else { 0 };
    let mut keyed: Vec<(u32, u32, u32)> = Vec::with_capacity(facts.len() + hits.len());
    for (i, f) in facts.iter().enumerate() {
        if let Some(at) = f.line_ref() {
            keyed.push((input(at), at.line, i as u32));
        }
    }
    for (i, h) in hits.iter().enumerate() {
        keyed.push((input(h.at), h.at.line, (facts.len() + i) as u32));
    }
    keyed.sort_unstable();
    let answers = lines.len();
    let room = MAX_EVIDENCE.saturating_sub(answers);
    let mut distinct = 0;
    let mut last = None;
    for &(input, line, src) in &keyed {
        if last != Some((input, line)) {
            distinct += 1;
            last = Some((input, line));
        }
        // Every entry of the first `room` lines: which of a line's entries
        // (fact or hit, and its node) is shown is decided as before, below.
        if distinct <= room {
            let src = src as usize;
            lines.push(match facts.get(src) {
                Some(f) => ctx.evidence_of_fact(f),
                None => ctx.evidence_of_hit(hits[src - facts.len()]),
            });
        }
    }
    let total = answers + distinct;
    lines.sort();
    lines.dedup_by(|a, b| a.input == b.input && a.line == b.line && a.answer == b.answer);
    lines.truncate(MAX_EVIDENCE);
    (lines, total)
}

/// Step 4: one finding, with its evidence, steps and fixes filled in.
fn finding(rule: &Rule, fired: &Fired, ctx: &Ctx<'_>) -> (Finding, BTreeSet<usize>) {
    let why = &fired.why;
    let facts: Vec<&Fact> = why.facts.iter().map(|&i| &ctx.ev.facts[i]).collect();
    let nodes: BTreeSet<Option<NodeId>> =
        facts.iter().map(|f| f.node).chain(why.hits.iter().map(|(h, _)| h.node)).filter(|n| n.is_some()).collect();
    let node_names: Vec<String> = nodes.iter().filter_map(|n| ctx.node_name(*n)).collect();

    let (lines, total) = evidence_lines(&facts, why, ctx);

    // Templates: loops sized to the node's NPUs, cards and nodes named.
    let npus = ctx
        .ev
        .named("npu.count")
        .iter()
        .map(|&i| &ctx.ev.facts[i])
        .filter(|f| nodes.is_empty() || f.node.is_none() || nodes.contains(&f.node))
        .filter_map(|f| f.value.as_f64())
        .fold(0.0, f64::max) as u32;
    let vars = Vars {
        npus: (npus > 0).then_some(npus),
        facts: facts.clone(),
        nodes: node_names.iter().map(String::as_str).collect(),
    };
    // A Chinese fallback filled in between spaces (`恢复 {{node|异常节点}} 上`)
    // would leave the gaps the rule's author kept for a Latin name.
    let fill = |t: &crate::Text| {
        crate::Text::new(template::render(&t.en, &vars), crate::text::tidy_zh(&template::render(&t.zh, &vars)))
    };

    let mut step_support = BTreeSet::new();
    let steps = rule
        .steps
        .iter()
        .map(|s| {
            let clicked =
                ctx.session.answers.iter().find(|a| a.rule == rule.id && a.step == s.id).map(|a| a.answer.clone());
            let answering = match &s.answered_by {
                Some(name) => step_facts(ctx, name, s.answered_subject.as_deref(), &nodes),
                None => Vec::new(),
            };
            let concluded = conclusion(ctx, &answering);
            let evidence_omitted = answering.len().saturating_sub(MAX_STEP_EVIDENCE);
            let answering: Vec<usize> = answering.into_iter().take(MAX_STEP_EVIDENCE).collect();
            step_support.extend(answering.iter().copied().filter(|&i| ctx.ev.facts[i].line_ref().is_some()));
            let evidence: Vec<EvidenceLine> =
                answering.iter().map(|&i| ctx.evidence_of_fact(&ctx.ev.facts[i])).collect();
            let answered = !evidence.is_empty() || clicked.is_some();
            StepReport {
                id: s.id.clone(),
                title: fill(&s.title),
                run: s.run.as_deref().map(|r| template::render(r, &vars)),
                expect: Some(fill(&s.expect)),
                state: if answered { StepState::Answered } else { StepState::Ask },
                evidence,
                evidence_omitted,
                answers: s.answers.iter().map(|a| (a.id.clone(), a.label.clone())).collect(),
                answer: clicked,
                conclusion: concluded,
            }
        })
        .collect();
    let fixes = rule
        .fixes
        .iter()
        .map(|f| crate::rules::Fix {
            title: fill(&f.title),
            commands: f.commands.iter().flat_map(|c| template::render_command(c, &vars)).collect(),
            yaml: f.yaml.as_deref().map(|y| template::render(y, &vars)),
        })
        .collect();
    // A rule that compares nodes shows every node's value, the odd ones flagged.
    let mut by_node = Vec::new();
    if rule.scope == Scope::Cluster && !ctx.c.nodes.is_empty() {
        let keys: BTreeSet<(&str, Option<&str>)> = facts.iter().map(|f| (f.name, f.subject.as_deref())).collect();
        for (name, subject) in keys {
            for &i in ctx.ev.named(name) {
                let f = &ctx.ev.facts[i];
                let Some(node) = ctx.node_name(f.node) else { continue };
                if f.subject.as_deref() != subject || by_node.len() >= MAX_NODE_ROWS {
                    continue;
                }
                by_node.push(NodeValue {
                    node,
                    fact: name.to_string(),
                    subject: f.subject.clone(),
                    value: f.value.to_text(),
                    line: f.line(),
                    flagged: fired.why.facts.contains(&i),
                });
            }
        }
        by_node.sort_by(|a, b| (&a.fact, &a.subject, &a.node).cmp(&(&b.fact, &b.subject, &b.node)));
        by_node.dedup_by(|a, b| a.fact == b.fact && a.subject == b.subject && a.node == b.node && a.value == b.value);
    }
    let finding = Finding {
        id: rule.id.clone(),
        severity: if fired.weak_only { crate::Severity::Info } else { rule.severity },
        title: fill(&rule.title),
        summary: fill(&rule.summary),
        evidence: lines,
        evidence_total: total,
        nodes: node_names,
        by_node,
        origin: rule.origin.clone(),
        explained_by: Vec::new(),
        from_symptom: fired.from_symptom,
        // The first few, cloned; the cluster table reads them all by index.
        facts_omitted: facts.len().saturating_sub(MAX_FINDING_FACTS),
        facts: facts.into_iter().take(MAX_FINDING_FACTS).cloned().collect(),
        steps,
        fixes,
    };
    (finding, step_support)
}

/// Step 5: findings from an operator's knowledge base come after the
/// product's own, as their own group; one whose lines a product finding
/// already explains says so.
fn knowledge_base_last(list: &mut Vec<Finding>) {
    let (ours, theirs): (Vec<Finding>, Vec<Finding>) =
        std::mem::take(list).into_iter().partition(|f| f.origin.is_none());
    let mut theirs = theirs;
    for kb in &mut theirs {
        let covering: BTreeSet<&str> = ours
            .iter()
            .filter(|o| o.evidence.iter().any(|e| kb.evidence.iter().any(|k| k.input == e.input && k.line == e.line)))
            .map(|o| o.id.as_str())
            .collect();
        kb.explained_by.extend(covering.into_iter().map(String::from));
    }
    *list = ours;
    list.extend(theirs);
}

/// The id of the CANN error-code layer's finding.
pub const CANN_FINDING: &str = "cann-error-code";

/// Step 6: CANN error codes on lines no finding rests on. Codes the table
/// explains become one `cann-error-code` finding (after the findings of the
/// same severity: a specific rule is always the better lead); the others
/// are returned with their lines, to be named in the unexplained panel.
fn cann_layer(
    ctx: &Ctx<'_>,
    explained: &HashSet<LineRef>,
    list: &mut Vec<Finding>,
    support: &mut Support,
    flags: &mut Vec<(usize, &str)>,
) -> Unknown {
    let table = crate::cann::table();
    // Codes the findings' rules say they explain; not a finding shown below
    // its rule's severity, which fired on its `weak` condition alone.
    let absorbed: BTreeSet<&str> = list
        .iter()
        .filter_map(|f| ctx.cat.rule(&f.id).filter(|r| r.severity == f.severity))
        .flat_map(|r| r.codes.iter().map(String::as_str))
        .collect();
    let loose: Vec<usize> = ctx
        .ev
        .named(crate::cann::FACTS[0].name)
        .iter()
        .copied()
        .filter(|&i| ctx.ev.facts[i].line_ref().is_some_and(|l| !explained.contains(&l)))
        .filter(|&i| !absorbed.contains(ctx.ev.facts[i].value.to_text().as_str()))
        .collect();
    let mut known: Vec<&crate::cann::Code> = Vec::new();
    let mut unknown = Unknown::default();
    for &i in &loose {
        let f = &ctx.ev.facts[i];
        let code = f.value.to_text();
        match table.code(&code) {
            Some(c) if !known.iter().any(|k| k.code == c.code) => known.push(c),
            Some(_) => {}
            None => {
                // (`loose` holds only facts on lines.)
                unknown.lines.extend(f.line_ref().map(|at| HitRef { at, node: f.node }));
                if !unknown.codes.contains(&code) {
                    unknown.codes.push(code);
                }
            }
        }
    }
    if known.is_empty() {
        return unknown;
    }
    // At most a handful of codes get their checks listed; the rest are named.
    const MAX_CODES: usize = 6;
    let cited: Vec<usize> =
        loose.iter().copied().filter(|&i| known.iter().any(|k| k.code == ctx.ev.facts[i].value.to_text())).collect();
    let all: Vec<&Fact> = cited.iter().map(|&i| &ctx.ev.facts[i]).collect();
    let mut evidence: Vec<EvidenceLine> = all.iter().map(|f| ctx.evidence_of_fact(f)).collect();
    evidence.sort();
    evidence.dedup_by(|a, b| a.input == b.input && a.line == b.line);
    let total = evidence.len();
    evidence.truncate(MAX_EVIDENCE);
    let codes: Vec<String> = known.iter().map(|k| k.code.clone()).collect();
    let title = match known.as_slice() {
        [one] => crate::cann::texts::title_one(&one.code, &one.title),
        _ => crate::cann::texts::title_many(&codes),
    };
    let mut summary = crate::cann::texts::intro();
    for k in known.iter().take(MAX_CODES) {
        let component = table.component(&k.code).map(|p| crate::cann::texts::component(&k.code, &p.component));
        let add = |s: &mut String, t: &str| {
            s.push_str("\n\n");
            s.push_str(t);
        };
        let head_en = format!("{}: {}", k.code, k.meaning.en);
        let head_zh = format!("{}：{}", k.code, k.meaning.zh);
        add(&mut summary.en, &head_en);
        add(&mut summary.zh, &head_zh);
        if let Some(c) = component {
            summary.en.push(' ');
            summary.en.push_str(&c.en);
            summary.zh.push_str(&c.zh);
        }
    }
    let mut steps = Vec::new();
    for k in known.iter().take(MAX_CODES) {
        for (n, check) in k.checks.iter().enumerate() {
            steps.push(StepReport {
                id: format!("{}-{}", k.code, n + 1),
                title: crate::Text::new(check.en.clone(), check.zh.clone()),
                run: check.run.clone(),
                // The code's table gives no expected result per check; the
                // code's title (shown here until 2026-12-07) read as one.
                expect: None,
                state: StepState::Ask,
                evidence: Vec::new(),
                evidence_omitted: 0,
                answers: Vec::new(),
                answer: None,
                conclusion: None,
            });
        }
    }
    let grep = format!("grep -rn -E \"{}\" ~/ascend/log/debug/plog/ | head -n 20", codes.join("|"));
    let severity =
        if codes.iter().all(|c| c.starts_with('W')) { crate::Severity::Warn } else { crate::Severity::Error };
    let finding = Finding {
        id: CANN_FINDING.to_string(),
        severity,
        title,
        summary,
        evidence,
        evidence_total: total,
        nodes: all.iter().filter_map(|f| ctx.node_name(f.node)).collect::<BTreeSet<_>>().into_iter().collect(),
        by_node: Vec::new(),
        origin: None,
        explained_by: Vec::new(),
        from_symptom: false,
        facts_omitted: all.len().saturating_sub(MAX_FINDING_FACTS),
        facts: all.iter().take(MAX_FINDING_FACTS).map(|&f| f.clone()).collect(),
        steps,
        fixes: vec![crate::rules::Fix { title: crate::cann::texts::fix_title(), commands: vec![grep], yaml: None }],
    };
    if severity <= crate::Severity::Warn {
        flags.extend(cited.iter().map(|&i| (i, CANN_FINDING)));
    }
    support.facts.extend(cited);
    let at = list.iter().position(|f| f.from_symptom || f.severity > severity).unwrap_or(list.len());
    list.insert(at, finding);
    unknown
}

/// The codes the CANN layer found that its table does not explain.
#[derive(Debug, Default)]
struct Unknown {
    /// The codes, each once, in order of appearance.
    codes: Vec<String>,
    /// The lines they are on.
    lines: Vec<HitRef>,
}

/// What a report's findings rest on: what a share link needs to carry to
/// reproduce it.
#[derive(Debug, Default)]
pub struct Support {
    /// Indices into the evaluated facts ([`Collected::facts`] first, then
    /// the answers' facts): the findings' facts and the facts that answer
    /// their steps.
    pub facts: BTreeSet<usize>,
    /// The hits, as `(hit, signature)`.
    pub hits: BTreeSet<(HitRef, usize)>,
}

/// A report and what it rests on.
#[derive(Debug)]
pub struct Evaluation {
    /// The report.
    pub report: Report,
    /// What each finding rests on.
    pub support: Support,
}

/// Phase 2: runs the rules. With `only`, just those rule ids are evaluated
/// (a share link lists the findings it had, so a rule pack that changed since
/// cannot add findings the sender never saw).
pub fn evaluate(cat: &Catalogue, c: &Collected, session: &Session, only: Option<&[String]>) -> Report {
    evaluate_full(cat, c, session, only).report
}

/// [`evaluate`], also returning what the report rests on.
pub fn evaluate_full(cat: &Catalogue, c: &Collected, session: &Session, only: Option<&[String]>) -> Evaluation {
    // The collected facts, and the answers' after them (borrowed when there
    // are none: a copy of a hundred thousand facts is not free).
    let answers = answer_facts(cat, session);
    let facts: std::borrow::Cow<'_, [Fact]> = if answers.is_empty() {
        std::borrow::Cow::Borrowed(&c.facts)
    } else {
        let mut all = c.facts.clone();
        all.extend(answers);
        std::borrow::Cow::Owned(all)
    };
    let facts: &[Fact] = &facts;
    let mut hits_by_sig: Vec<Vec<HitRef>> = vec![Vec::new(); cat.signatures.len()];
    for h in &c.hits {
        if let Some(list) = hits_by_sig.get_mut(h.signature) {
            list.push(h.at);
        }
    }
    let ev = Evidence::new(facts, hits_by_sig);
    let fired = fire(cat, &ev, &node_scopes(c), session, only);

    let cited: BTreeSet<usize> = fired.iter().flat_map(|f| f.why.facts.iter().copied()).collect();
    let ctx = Ctx { cat, c, ev: &ev, session, cited: &cited };
    let mut support = Support::default();
    // Lines the product's own findings rest on (a knowledge base's findings
    // do not hide a line from the CANN layer or the unexplained panel).
    let mut explained: HashSet<LineRef> = HashSet::new();
    let mut list = Vec::with_capacity(fired.len());
    for f in &fired {
        let (finding, step_support) = finding(&cat.rules[f.rule], f, &ctx);
        if cat.rules[f.rule].origin.is_none() {
            explained.extend(f.why.hits.iter().map(|(h, _)| h.at));
            explained.extend(f.why.facts.iter().chain(&step_support).filter_map(|&i| facts[i].line_ref()));
        }
        support.facts.extend(f.why.facts.iter().chain(&f.why.context).copied());
        support.facts.extend(step_support);
        support.hits.extend(f.why.hits.iter().copied());
        list.push(finding);
    }

    // The facts each finding at error or warn level rests on (all of
    // them, where the report lists the first few): the cluster table's ✘,
    // which there is only when the input names nodes.
    let mut flags: Vec<(usize, &str)> = Vec::new();
    for f in fired.iter().filter(|f| !f.from_symptom && !f.weak_only && !c.nodes.is_empty()) {
        let rule = &cat.rules[f.rule];
        if rule.severity <= crate::Severity::Warn {
            flags.extend(f.why.facts.iter().map(|&i| (i, rule.id.as_str())));
        }
    }

    // Root cause first: rule A outranks B when both fired.
    let position: HashMap<&str, usize> = list.iter().enumerate().map(|(i, f)| (f.id.as_str(), i)).collect();
    // A finding on weak evidence alone is no root cause.
    let outranks: Vec<Vec<usize>> = fired
        .iter()
        .map(|f| {
            let ids = if f.weak_only { &[][..] } else { &cat.rules[f.rule].outranks[..] };
            ids.iter().filter_map(|id| position.get(id.as_str()).copied()).collect()
        })
        .collect();
    for (cause, effects) in outranks.iter().enumerate() {
        for &e in effects {
            let cause_id = list[cause].id.clone();
            list[e].explained_by.push(cause_id);
        }
    }
    order(&mut list, &outranks);
    knowledge_base_last(&mut list);

    let unknown = if only.is_none_or(|ids| ids.iter().any(|id| id == CANN_FINDING)) {
        cann_layer(&ctx, &explained, &mut list, &mut support, &mut flags)
    } else {
        Unknown::default()
    };
    // Now every finding's lines, the CANN layer's and a knowledge base's too.
    explained.extend(support.facts.iter().filter_map(|&i| facts[i].line_ref()));
    explained.extend(support.hits.iter().map(|(h, _)| h.at));
    let mut failure_like: Vec<HitRef> = ev.hits_by_sig.get(cat.unexplained_signature).cloned().unwrap_or_default();
    // A line with a code the table does not explain is shown with it even
    // when nothing else on it looks like a failure (`acl init failed,
    // errorCode = 100003` has no `Error` for the failure-like signature).
    failure_like.extend(&unknown.lines);
    failure_like.sort();
    failure_like.dedup_by_key(|h| h.at);
    let mut report_walk = ReportWalk::default();
    let (mut unexplained, unexplained_omitted) = unexplained::group(
        failure_like
            .into_iter()
            .filter(|h| !explained.contains(&h.at))
            .map(|h| (h, ctx.evidence_of_hit(h)))
            .filter(|(h, l)| {
                !unexplained::only_the_log_level(&l.text)
                    && !tail_of_explained(h.at, &l.text, &explained)
                    && !report_walk.explained(c, h.at, &explained)
            })
            .map(|(_, l)| l)
            .collect(),
    );
    // A code the table does not explain is still named with its component.
    for g in &mut unexplained {
        let code = crate::cann::codes_in(&g.first.text).into_iter().find(|c| unknown.codes.contains(c));
        if let Some((code, p)) = code.and_then(|c| crate::cann::table().component(&c).map(|p| (c.clone(), p))) {
            g.note = Some(crate::cann::texts::unknown(&code, &p.component));
        } else if let Some((code, kind)) = crate::cann::torch_npu_code(&g.first.text) {
            // torch_npu's own code says which layer failed, not why.
            g.note = Some(crate::cann::texts::torch_npu(code, kind));
        }
    }
    let cluster = crate::cluster::summary(&c.nodes, facts, &flags, |f| ctx.evidence_of_fact(f));
    let report = Report {
        schema: SCHEMA,
        rules_version: cat.version().to_string(),
        findings: list,
        unexplained,
        segments: c.segments.clone(),
        segments_omitted: c.segments_omitted,
        unexplained_omitted,
        nodes: c.nodes.clone(),
        cluster,
    };
    Evaluation { report, support }
}

/// How far from a line [`ReportWalk`] looks, each way, in lines: CANN's
/// reports are a few to a few dozen lines; the bound keeps the walk short
/// whatever the input.
const REPORT_LINES: u32 = 40;

/// The most lines [`ReportWalk`] steps over between two lines it can see
/// (lines with a hit): a report's `[Error]: …` line and its indented advice
/// between torch_npu's code line and CANN's code line.
const REPORT_GAP: u32 = 4;

/// Whether lines belong to a torch_npu / CANN error report
/// ([`unexplained::ReportLine`]) of which a finding explains a line, or
/// whose raising line just above it a finding explains: the report is one
/// failure, and its other lines (`ERR00100 PTA call acl api failed`,
/// `[Error]: …`, `Rectify the fault …`, `TraceBack …`) listed as
/// unexplained read as more failures. A CANN code line is never taken in
/// (the CANN layer explains or lists it), and the report is the run of
/// adjacent report lines around a line, so a failure a line away from it
/// stays listed. Asked in line order, it walks each report once (a
/// million report lines cost a million looks, not forty times that).
#[derive(Default)]
struct ReportWalk {
    /// The last report walked: its input, first and last line, and the answer.
    last: Option<(u32, u32, u32, bool)>,
}

impl ReportWalk {
    fn explained(&mut self, c: &Collected, at: LineRef, explained: &HashSet<LineRef>) -> bool {
        use unexplained::{report_line, ReportLine};
        let Some(lines) = c.lines.get(at.input as usize) else { return false };
        let Ok(i) = lines.binary_search_by_key(&at.line, |l| l.no) else { return false };
        if report_line(&lines[i].text) != ReportLine::Body {
            return false;
        }
        if let Some((input, first, last, answer)) = self.last {
            if input == at.input && (first..=last).contains(&at.line) {
                return answer;
            }
        }
        let is_explained = |j: usize| explained.contains(&LineRef { input: at.input, line: lines[j].no });
        // Only lines with a hit are kept (`Collected::lines`): a report's
        // `[Error]: …` and indented lines often have none, so the walk steps
        // over up to `REPORT_GAP` lines it cannot see, and stops
        // `REPORT_LINES` lines away whatever it finds.
        let near = |a: usize, b: usize| lines[b].no - lines[a].no <= REPORT_GAP;
        let within = |j: usize| lines[j].no.abs_diff(at.line) <= REPORT_LINES;
        let mut answer = false;
        // Up to the report's first line, then the line that raised it.
        let mut top = i;
        loop {
            answer |= is_explained(top);
            if top == 0 || !near(top - 1, top) || !within(top - 1) {
                break;
            }
            if report_line(&lines[top - 1].text) == ReportLine::No {
                answer |= is_explained(top - 1);
                break;
            }
            top -= 1;
        }
        // Down to its last line.
        let mut bottom = i;
        while bottom + 1 < lines.len()
            && near(bottom, bottom + 1)
            && within(bottom + 1)
            && report_line(&lines[bottom + 1].text) != ReportLine::No
        {
            bottom += 1;
            answer |= is_explained(bottom);
        }
        self.last = Some((at.input, lines[top].no, lines[bottom].no, answer));
        answer
    }
}

/// How many lines after an explained error torch_npu's code line may come:
/// the message it ends can wrap (`Current npuStreamCaptureStatus: …` goes
/// on the next line in some releases).
const CODE_TAIL_LINES: u32 = 3;

/// Whether `text` (at `at`) is torch_npu's own error code closing an error
/// a finding explains: torch_npu raises the message (`RuntimeError: Cannot
/// run aclop operators during NPU graph capture …`) and prints its code
/// right after it (`[ERROR] … ERR00007 PTA feature not supported`). The
/// code says which layer raised, which the finding says better; listed as
/// unexplained, it read as a second, unknown failure. A code line with no
/// explained error just before it stays in the panel, with its note.
fn tail_of_explained(at: LineRef, text: &str, explained: &HashSet<LineRef>) -> bool {
    crate::cann::torch_npu_code(text).is_some()
        && (1..=CODE_TAIL_LINES.min(at.line.saturating_sub(1)))
            .any(|back| explained.contains(&LineRef { input: at.input, line: at.line - back }))
}
