//! Templates in step commands, texts and fixes: one mechanism that fills in
//! what the evidence knows.
//!
//! - `{0..7}` — the NPU loop of an 8-NPU (A2) node. When the finding's node
//!   shows another NPU count (16 on A3), it becomes `{0..15}`, in commands
//!   and texts alike.
//! - `{{subject:FACT|placeholder}}` — the subjects of the finding's `FACT`
//!   facts (the card whose link is DOWN: `5`; several are joined with
//!   spaces, so `for i in {{subject:hccn.link_status|<card-id>}}` loops over
//!   them). The placeholder stands when no such fact is known, and says
//!   what to put there.
//! - `{{value:FACT|placeholder}}` — their values.
//! - `{{node|placeholder}}` — the node(s) the finding is about.
//!
//! Other `{{…}}` (Go templates of `docker inspect --format`) are text.
//! [`check`] validates a template when its rule file loads.

use crate::facts::Fact;

/// What a template can be filled with.
#[derive(Debug, Default)]
pub struct Vars<'a> {
    /// NPUs per node, when the input shows it.
    pub npus: Option<u32>,
    /// The finding's facts.
    pub facts: Vec<&'a Fact>,
    /// The finding's node names.
    pub nodes: Vec<&'a str>,
}

enum Var<'s> {
    Subject(&'s str),
    Value(&'s str),
    Node,
}

/// Whether `{{…}}` is one of ours (`docker inspect --format '{{.State}}'`
/// and other Go templates are left as they are).
fn is_ours(inner: &str) -> bool {
    let t = inner.trim_start();
    t.starts_with("subject:") || t.starts_with("value:") || t.starts_with("node|") || t.trim() == "node"
}

/// Parses the inside of `{{…}}`: the variable and its placeholder.
fn parse_var(inner: &str) -> Result<(Var<'_>, &str), String> {
    let (head, placeholder) = inner
        .split_once('|')
        .ok_or_else(|| format!("{{{{{inner}}}}} needs a placeholder after `|`, such as <card-id>"))?;
    let head = head.trim();
    let var = if head == "node" {
        Var::Node
    } else if let Some(f) = head.strip_prefix("subject:") {
        Var::Subject(f.trim())
    } else if let Some(f) = head.strip_prefix("value:") {
        Var::Value(f.trim())
    } else {
        return Err(format!("unknown template variable {head:?} (subject:FACT, value:FACT, node)"));
    };
    if let Var::Subject(f) | Var::Value(f) = var {
        if crate::parse::fact_def(f).is_none() {
            return Err(format!("template names unknown fact {f:?}"));
        }
    }
    Ok((var, placeholder))
}

/// Checks every `{{…}}` of a template.
pub fn check(s: &str) -> Result<(), String> {
    let mut rest = s;
    while let Some(i) = rest.find("{{") {
        let after = &rest[i + 2..];
        let Some(j) = after.find("}}") else {
            rest = after;
            continue;
        };
        if is_ours(&after[..j]) {
            parse_var(&after[..j])?;
        }
        rest = &after[j + 2..];
    }
    Ok(())
}

/// Values a variable stands for at most: a finding resting on ten thousand
/// facts fills in (and repeats a command for) the first few, in linear time.
pub const MAX_VALUES: usize = 32;

fn distinct(items: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for i in items {
        // `?` (a card not known) is never filled in, so it takes no place.
        if !i.is_empty() && i != "?" && seen.insert(i.clone()) {
            out.push(i);
            if out.len() == MAX_VALUES {
                break;
            }
        }
    }
    out
}

/// The values a variable stands for (empty when nothing is known).
fn values_of(var: &Var<'_>, vars: &Vars<'_>) -> Vec<String> {
    let values = match var {
        Var::Subject(f) => distinct(vars.facts.iter().filter(|x| x.name == *f).filter_map(|x| x.subject.clone())),
        Var::Value(f) => distinct(vars.facts.iter().filter(|x| x.name == *f).map(|x| x.value.to_text())),
        Var::Node => distinct(vars.nodes.iter().map(|n| n.to_string())),
    };
    // Answers whose card is not known say `?`: not a value to fill in.
    values.into_iter().filter(|v| v != "?").collect()
}

/// Fills in a command: when its first variable stands for several values
/// (two cards are DOWN), the command is repeated once per value, so
/// `hccn_tool -i {{subject:hccn.link_status|<card-id>}} -cfg recovery`
/// gives one runnable line per card.
pub fn render_command(cmd: &str, vars: &Vars<'_>) -> Vec<String> {
    let first = cmd.find("{{").and_then(|i| {
        let after = &cmd[i + 2..];
        let j = after.find("}}")?;
        let inner = &after[..j];
        is_ours(inner).then_some((i, j, inner))
    });
    let Some((i, j, inner)) = first else { return vec![render(cmd, vars)] };
    let Ok((var, _)) = parse_var(inner) else { return vec![render(cmd, vars)] };
    let values = values_of(&var, vars);
    if values.len() < 2 {
        return vec![render(cmd, vars)];
    }
    let (head, tail) = (&cmd[..i], &cmd[i + 2 + j + 2..]);
    values.iter().map(|v| render(&format!("{head}{v}{tail}"), vars)).collect()
}

/// Fills `s` in (several values of one variable are joined with spaces).
pub fn render(s: &str, vars: &Vars<'_>) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("{{") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let Some(j) = after.find("}}") else {
            out.push_str(&rest[i..]);
            rest = "";
            break;
        };
        let inner = &after[..j];
        if !is_ours(inner) {
            out.push_str(&rest[i..i + 2 + j + 2]);
            rest = &after[j + 2..];
            continue;
        }
        let filled = match parse_var(inner) {
            Ok((var, placeholder)) => {
                let values = values_of(&var, vars);
                if values.is_empty() {
                    placeholder.to_string()
                } else {
                    values.join(" ")
                }
            }
            Err(_) => format!("{{{{{inner}}}}}"),
        };
        out.push_str(&filled);
        rest = &after[j + 2..];
    }
    out.push_str(rest);
    match vars.npus {
        Some(n) if (2..=64).contains(&n) && n != 8 => out.replace("{0..7}", &format!("{{0..{}}}", n - 1)),
        _ => out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{FactValue, LineRef, Origin};

    fn fact(name: &'static str, subject: &str, value: &str) -> Fact {
        Fact {
            name,
            subject: Some(subject.into()),
            value: FactValue::Str(value.into()),
            node: None,
            origin: Origin::Line { at: LineRef::default(), segment: 0, text: "".into() },
        }
    }

    #[test]
    fn fills_in_what_the_evidence_knows() {
        let f = [fact("hccn.link_status", "5", "DOWN"), fact("hccn.link_status", "3", "DOWN")];
        let vars = Vars { npus: Some(16), facts: f.iter().collect(), nodes: vec!["node-3"] };
        assert_eq!(
            render("hccn_tool -i {{subject:hccn.link_status|<card-id>}} -link -g on {{node|<node>}}", &vars),
            "hccn_tool -i 5 3 -link -g on node-3"
        );
        assert_eq!(
            render("for i in {0..7}; do x; done (loop {0..7})", &vars),
            "for i in {0..15}; do x; done (loop {0..15})"
        );
        let none = Vars::default();
        assert_eq!(
            render("hccn_tool -i {{subject:hccn.link_status|<card-id>}} -link -g", &none),
            "hccn_tool -i <card-id> -link -g"
        );
        assert_eq!(render("for i in {0..7}", &none), "for i in {0..7}");
    }

    #[test]
    fn a_command_is_repeated_per_card() {
        let f = [fact("hccn.link_status", "5", "DOWN"), fact("hccn.link_status", "3", "DOWN")];
        let vars = Vars { facts: f.iter().collect(), ..Vars::default() };
        assert_eq!(
            render_command("hccn_tool -i {{subject:hccn.link_status|<card-id>}} -cfg recovery", &vars),
            vec!["hccn_tool -i 5 -cfg recovery", "hccn_tool -i 3 -cfg recovery"]
        );
        let one = Vars { facts: f[..1].iter().collect(), ..Vars::default() };
        assert_eq!(
            render_command("hccn_tool -i {{subject:hccn.link_status|<card-id>}} -link -g", &one),
            vec!["hccn_tool -i 5 -link -g"]
        );
        assert_eq!(render_command("ls {{.State}}", &Vars::default()), vec!["ls {{.State}}"]);
    }

    #[test]
    fn unknown_subjects_keep_the_placeholder() {
        let f = [fact("hccn.link_status", "?", "DOWN")];
        let vars = Vars { facts: f.iter().collect(), ..Vars::default() };
        assert_eq!(render("{{subject:hccn.link_status|<card-id>}}", &vars), "<card-id>");
    }

    #[test]
    fn check_names_the_problem() {
        assert!(check("plain {0..7} text").is_ok());
        assert!(check("{{subject:hccn.link_status|<card-id>}}").is_ok());
        assert!(check("{{subject:no.such|x}}").unwrap_err().contains("unknown fact"));
        assert!(check("{{subject:hccn.link_status}}").unwrap_err().contains("placeholder"));
        assert!(check("{{subject:|x}}").unwrap_err().contains("unknown fact"));
        // Go templates of `docker inspect --format` are text, not ours.
        assert!(check("docker inspect --format '{{range .Mounts}}{{.Source}}{{end}}' c").is_ok());
        let go = "docker inspect --format '{{.HostConfig.Ulimits}}' c";
        assert_eq!(render(go, &Vars::default()), go);
    }
}
