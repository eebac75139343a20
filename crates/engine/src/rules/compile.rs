//! Compiling a rule file: its condition into an [`Expr`], type-checked
//! against the fact declarations, its patterns through the one regex
//! dialect ([`crate::pattern`]). Every error names the file and the line.

use super::eval::{Expr, FactCond, LazyPattern, Op, Operand, Quant, SubjectSel, Test};
use super::{line_of, Cond, Parsed, Rule, RuleError};
use crate::facts::{FactDef, FactValue, ValueType};
use crate::parse::fact_def;
use serde_json::Value as J;

/// A rule compiled: its condition, with signature indices into the
/// catalogue's pattern list (which `compile_rule` extends).
#[derive(Debug)]
pub(crate) struct Compiled {
    pub rule: Rule,
    pub expr: Expr,
    /// The `weak` condition, when the rule has one.
    pub weak: Option<Expr>,
}

type Res<T> = Result<T, (String, String)>;

fn fail<T>(path: &str, msg: impl Into<String>) -> Res<T> {
    Err((path.to_string(), msg.into()))
}

fn def_of(path: &str, name: &str) -> Res<&'static FactDef> {
    match fact_def(name) {
        Some(d) => Ok(d),
        None => fail(path, format!("unknown fact {name:?} (`roll-doctor facts` lists the declared ones)")),
    }
}

fn describe(v: &J) -> String {
    match v {
        J::String(s) => format!("the string {s:?}"),
        J::Number(n) => format!("the number {n}"),
        J::Bool(b) => format!("{b}"),
        J::Null => "null".into(),
        J::Array(_) => "a list".into(),
        J::Object(_) => "a map".into(),
    }
}

/// A literal of the fact's type.
fn literal(path: &str, def: &FactDef, v: &J) -> Res<FactValue> {
    match FactValue::from_json_as(v, def.ty) {
        Some(x) => Ok(x),
        None => fail(path, format!("fact {} holds {} values; {} is not one", def.name, def.ty.name(), describe(v))),
    }
}

fn numeric(path: &str, def: &FactDef, what: &str) -> Res<()> {
    if def.ty.is_numeric() {
        Ok(())
    } else {
        fail(path, format!("{what} compares numbers; fact {} holds {} values", def.name, def.ty.name()))
    }
}

fn operand(path: &str, def: &FactDef, op: Op, v: &J) -> Res<Operand> {
    let ordering = matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge);
    let division = matches!(op, Op::Divisible | Op::NotDivisible);
    if ordering {
        numeric(path, def, "this test")?;
    }
    if division && def.ty != ValueType::Int {
        return fail(path, format!("divisible_by needs an int fact; {} holds {} values", def.name, def.ty.name()));
    }
    let J::Object(map) = v else {
        if ordering || division {
            if !v.is_number() {
                return fail(path, format!("expected a number, not {}", describe(v)));
            }
            return Ok(Operand::Lit(FactValue::from_json(v).unwrap_or(FactValue::Int(0))));
        }
        return Ok(Operand::Lit(literal(path, def, v)?));
    };
    for k in map.keys() {
        if !matches!(k.as_str(), "fact" | "subject" | "same_subject" | "as") {
            return fail(path, format!("unknown key {k:?} in a fact operand (fact, subject, same_subject, as)"));
        }
    }
    let Some(J::String(name)) = map.get("fact") else {
        return fail(path, "a map operand names a fact: `{ fact: NAME }`");
    };
    let other = def_of(path, name)?;
    let as_number = match map.get("as") {
        None => false,
        Some(J::String(s)) if s == "number" => true,
        Some(x) => return fail(path, format!("`as` takes `number`, not {}", describe(x))),
    };
    let same_subject = match map.get("same_subject") {
        None => false,
        Some(J::Bool(b)) => *b,
        Some(x) => return fail(path, format!("same_subject is true or false, not {}", describe(x))),
    };
    let subject = match map.get("subject") {
        None => None,
        Some(J::String(s)) => Some(s.clone()),
        Some(J::Number(n)) => Some(n.to_string()),
        Some(x) => return fail(path, format!("an operand's subject is text, not {}", describe(x))),
    };
    let compatible = if as_number {
        other.ty == ValueType::Str || other.ty.is_numeric()
    } else if ordering || division {
        other.ty.is_numeric()
    } else {
        other.ty == def.ty || (other.ty.is_numeric() && def.ty.is_numeric())
    };
    if !compatible {
        return fail(
            path,
            format!(
                "fact {} ({}) cannot be compared with fact {} ({}){}",
                def.name,
                def.ty.name(),
                other.name,
                other.ty.name(),
                if other.ty == ValueType::Str { "; add `as: number` to read it as a number" } else { "" }
            ),
        );
    }
    Ok(Operand::Fact { name: other.name, subject, same_subject, as_number })
}

fn subject_sel(path: &str, v: &Option<J>) -> Res<SubjectSel> {
    Ok(match v {
        None => SubjectSel::Any,
        Some(J::String(s)) => SubjectSel::Is(s.clone()),
        Some(J::Number(n)) => SubjectSel::Is(n.to_string()),
        Some(J::Array(items)) => {
            let mut out = Vec::new();
            for x in items {
                match x {
                    J::String(s) => out.push(s.clone()),
                    J::Number(n) => out.push(n.to_string()),
                    x => return fail(path, format!("a subject list holds texts, not {}", describe(x))),
                }
            }
            SubjectSel::In(out)
        }
        Some(J::Object(map)) => {
            let Some(J::String(name)) = map.get("fact") else {
                return fail(path, "subject: a text, or `{ fact: NAME, subject: S }`");
            };
            if map.keys().any(|k| k != "fact" && k != "subject") {
                return fail(path, "subject: `{ fact: NAME, subject: S }` takes no other keys");
            }
            let subject = match map.get("subject") {
                None => None,
                Some(J::String(s)) => Some(s.clone()),
                Some(J::Number(n)) => Some(n.to_string()),
                Some(x) => return fail(path, format!("subject is text, not {}", describe(x))),
            };
            SubjectSel::FromFact { name: def_of(path, name)?.name, subject }
        }
        Some(x) => return fail(path, format!("subject is text, not {}", describe(x))),
    })
}

/// Compiles a condition; its signatures are added to `patterns` (an
/// identical pattern reuses its slot: one scan per distinct pattern).
/// With `check`, each new signature is compiled alone, so an error names
/// its rule (extra files); the embedded rules skip that at startup (a
/// test compiles each of their signatures alone:
/// `catalogue::tests::embedded_signatures_compile_alone`).
pub(crate) fn compile_cond(c: &Cond, path: &str, patterns: &mut Vec<String>, check: bool) -> Res<Expr> {
    let forms = [c.signature.is_some(), c.fact.is_some(), c.all.is_some(), c.any.is_some(), c.not.is_some()];
    if forms.iter().filter(|b| **b).count() != 1 {
        return fail(path, "a condition needs exactly one of signature, fact, all, any, not");
    }
    let tests_given = [
        c.equals.is_some(),
        c.ne.is_some(),
        c.one_of.is_some(),
        c.not_in.is_some(),
        c.lt.is_some(),
        c.le.is_some(),
        c.gt.is_some(),
        c.ge.is_some(),
        c.divisible_by.is_some(),
        c.not_divisible_by.is_some(),
        c.matches.is_some(),
        c.not_matches.is_some(),
    ];
    let has_test = tests_given.iter().any(|b| *b);
    let differs = match &c.differs {
        None | Some(J::Bool(false)) => None,
        Some(J::Bool(true)) => Some(Quant::Differs),
        Some(J::String(s)) if s == "per_subject" => Some(Quant::DiffersPerSubject),
        Some(x) => {
            return fail(&format!("{path}.differs"), format!("differs is true or per_subject, not {}", describe(x)))
        }
    };
    let mut quants: Vec<Quant> = [(c.absent, Quant::Absent), (c.every, Quant::Every), (c.duplicate, Quant::Duplicate)]
        .iter()
        .filter(|(b, _)| *b == Some(true))
        .map(|(_, q)| *q)
        .collect();
    quants.extend(differs);
    if c.signature.is_none() && c.min_count.is_some() {
        return fail(path, "min_count only goes with signature");
    }
    if c.fact.is_none() && (has_test || c.subject.is_some() || !quants.is_empty()) {
        return fail(path, "subject, the tests and absent/every/differs/duplicate only go with fact");
    }
    if let Some(sig) = &c.signature {
        let index = match patterns.iter().position(|p| p == sig) {
            Some(i) => i,
            None => {
                if check {
                    crate::pattern::compile(sig).or_else(|e| fail(&format!("{path}.signature"), e))?;
                }
                patterns.push(sig.clone());
                patterns.len() - 1
            }
        };
        return Ok(Expr::Sig { index, min: c.min_count.unwrap_or(1) });
    }
    if let Some(name) = &c.fact {
        let def = def_of(&format!("{path}.fact"), name)?;
        if quants.len() > 1 {
            return fail(path, "absent, every, differs and duplicate exclude each other");
        }
        let quant = quants.first().copied().unwrap_or(Quant::Some);
        if quant == Quant::Absent && has_test {
            return fail(path, "absent cannot be combined with a test");
        }
        let subject = subject_sel(&format!("{path}.subject"), &c.subject)?;
        let mut tests = Vec::new();
        let cmps = [
            ("equals", &c.equals, Op::Eq),
            ("ne", &c.ne, Op::Ne),
            ("lt", &c.lt, Op::Lt),
            ("le", &c.le, Op::Le),
            ("gt", &c.gt, Op::Gt),
            ("ge", &c.ge, Op::Ge),
            ("divisible_by", &c.divisible_by, Op::Divisible),
            ("not_divisible_by", &c.not_divisible_by, Op::NotDivisible),
        ];
        for (key, v, op) in cmps {
            if let Some(v) = v {
                tests.push(Test::Cmp(op, operand(&format!("{path}.{key}"), def, op, v)?));
            }
        }
        for (key, list, negate) in [("in", &c.one_of, false), ("not_in", &c.not_in, true)] {
            if let Some(list) = list {
                let p = format!("{path}.{key}");
                let values = list.iter().map(|v| literal(&p, def, v)).collect::<Res<Vec<_>>>()?;
                tests.push(Test::In(values, negate));
            }
        }
        for (key, pat, negate) in [("matches", &c.matches, false), ("not_matches", &c.not_matches, true)] {
            if let Some(p) = pat {
                let at = format!("{path}.{key}");
                if def.ty != ValueType::Str {
                    return fail(&at, format!("{key} tests text; fact {} holds {} values", def.name, def.ty.name()));
                }
                let pattern = if check {
                    LazyPattern::compiled(p, crate::pattern::compile(p).or_else(|e| fail(&at, e))?)
                } else {
                    LazyPattern::later(p)
                };
                tests.push(Test::Matches(pattern, negate));
            }
        }
        return Ok(Expr::Fact(FactCond { name: def.name, subject, tests, quant }));
    }
    let list = |key: &str, xs: &Vec<Cond>, patterns: &mut Vec<String>| -> Res<Vec<Expr>> {
        if xs.is_empty() {
            return fail(&format!("{path}.{key}"), "needs at least one condition");
        }
        xs.iter().enumerate().map(|(i, x)| compile_cond(x, &format!("{path}.{key}[{i}]"), patterns, check)).collect()
    };
    if let Some(xs) = &c.all {
        return Ok(Expr::All(list("all", xs, patterns)?));
    }
    if let Some(xs) = &c.any {
        return Ok(Expr::Any(list("any", xs, patterns)?));
    }
    let inner = c.not.as_ref().expect("checked above: exactly one form is set");
    Ok(Expr::Not(Box::new(compile_cond(inner, &format!("{path}.not"), patterns, check)?)))
}

/// Type-checks the parts of a rule outside its condition: the facts that
/// answer steps, the facts clicked answers stand for, and the templates.
fn check_rest(rule: &Rule) -> Res<()> {
    for t in [&rule.title.en, &rule.title.zh, &rule.summary.en, &rule.summary.zh] {
        crate::template::check(t).or_else(|e| fail("title", e))?;
    }
    for (i, code) in rule.codes.iter().enumerate() {
        if !crate::cann::is_code(code) {
            return fail(
                &format!("codes[{i}]"),
                format!("{code:?} is not a CANN error code (E or W, a module character, four digits; or a six-digit ACL, runtime or aclnn return code)"),
            );
        }
    }
    for (i, s) in rule.steps.iter().enumerate() {
        let p = format!("steps[{i}]");
        if let Some(name) = &s.answered_by {
            def_of(&format!("{p}.answered_by"), name)?;
        }
        for (j, a) in s.answers.iter().enumerate() {
            for (k, f) in a.facts.iter().enumerate() {
                let at = format!("{p}.answers[{j}].facts[{k}]");
                let def = def_of(&format!("{at}.fact"), &f.fact)?;
                literal(&format!("{at}.value"), def, &f.value)?;
            }
        }
        for t in [s.run.as_deref().unwrap_or(""), &s.title.en, &s.title.zh, &s.expect.en, &s.expect.zh] {
            crate::template::check(t).or_else(|e| fail(&p, e))?;
        }
    }
    for (i, f) in rule.fixes.iter().enumerate() {
        let p = format!("fixes[{i}]");
        for t in
            f.commands.iter().map(String::as_str).chain([f.yaml.as_deref().unwrap_or(""), &f.title.en, &f.title.zh])
        {
            crate::template::check(t).or_else(|e| fail(&p, e))?;
        }
    }
    Ok(())
}

/// Compiles a parsed rule file. On error nothing is added to `patterns`.
/// `check`: see [`compile_cond`].
pub(crate) fn compile_rule(
    file: &str,
    parsed: Parsed,
    patterns: &mut Vec<String>,
    check: bool,
) -> Result<Compiled, RuleError> {
    let err = |(path, message): (String, String)| RuleError {
        file: file.to_string(),
        line: line_of(&parsed.tree, &path),
        message: if path.is_empty() { message } else { format!("{path}: {message}") },
    };
    // Conditions only push patterns: on error, drop what this rule added.
    let before = patterns.len();
    let compiled = compile_cond(&parsed.rule.when, "when", patterns, check)
        .and_then(|e| match &parsed.rule.weak {
            Some(w) => compile_cond(w, "weak", patterns, check).map(|w| (e, Some(w))),
            None => Ok((e, None)),
        })
        .and_then(|e| check_rest(&parsed.rule).map(|()| e));
    let (expr, weak) = compiled.map_err(|e| {
        patterns.truncate(before);
        err(e)
    })?;
    Ok(Compiled { rule: parsed.rule, expr, weak })
}
