//! Plain-text and Markdown renderings of a [`Report`], in either language.
//! The CLI prints them; the web app copies the Markdown for issues and chats.

use crate::report::{Report, StepState};
use crate::rules::Severity;
use crate::text::{Lang, Text};
use std::fmt::Write;

/// Labels used by the renderers; every one exists in both languages.
pub const LABELS: &[(&str, &str, &str)] = &[
    ("no_findings", "No known problem found in this input.", "未在输入中发现已知问题。"),
    ("evidence", "Evidence", "证据"),
    ("steps", "Checks, in order", "按顺序检查"),
    ("fixes", "Fixes", "修复方法"),
    ("answered", "answered by your input", "已由输入回答"),
    ("run", "Run", "运行"),
    ("expect", "Expect", "预期"),
    ("explained_by", "Likely a consequence of", "可能由以下问题引起"),
    ("more_lines", "more lines", "行未显示"),
    ("line", "line", "行"),
    ("error", "error", "错误"),
    ("warn", "warning", "警告"),
    ("info", "info", "提示"),
    ("findings", "Findings", "诊断结果"),
    ("title", "roll-doctor diagnosis", "roll-doctor 诊断报告"),
    ("unexplained", "Failure-like lines no rule explains", "未被任何规则解释的疑似错误行"),
    ("times", "times", "次"),
    ("you_answered", "You answered", "你的回答"),
    ("nodes", "Nodes", "节点"),
    ("origin", "From the operator's knowledge base", "来自运维知识库"),
    ("node", "Node", "节点"),
    ("cluster", "Cluster", "集群概览"),
    ("missing", "missing", "缺失"),
];

/// An evidence line as shown to a user: the pasted text (with its node
/// when known), or the answer they clicked, in `lang`.
pub fn evidence_text(e: &crate::report::EvidenceLine, lang: Lang) -> String {
    match (&e.answer, &e.node) {
        (Some(a), _) => format!("{}: {}", label("you_answered", lang), a.get(lang)),
        (None, Some(node)) => format!("[{node}] {}", e.text),
        (None, None) => e.text.clone(),
    }
}

fn unexplained_text(report: &Report, lang: Lang, o: &mut String) {
    if report.unexplained.is_empty() {
        return;
    }
    let _ = writeln!(o, "{}:", label("unexplained", lang));
    for g in &report.unexplained {
        let _ = writeln!(
            o,
            "  {} {}: {}  (×{} {})",
            label("line", lang),
            g.first.line,
            g.first.text,
            g.count,
            label("times", lang)
        );
        if let Some(note) = &g.note {
            let _ = writeln!(o, "    {}", note.get(lang));
        }
    }
}

fn unexplained_markdown(report: &Report, lang: Lang, o: &mut String) {
    if report.unexplained.is_empty() {
        return;
    }
    let _ = writeln!(o, "### {}\n\n```text", label("unexplained", lang));
    for g in &report.unexplained {
        let _ = writeln!(o, "{:>5}: {}  (×{})", g.first.line, g.first.text, g.count);
    }
    let _ = writeln!(o, "```");
}

/// A renderer label in `lang`.
pub fn label(key: &str, lang: Lang) -> &'static str {
    LABELS.iter().find(|(k, _, _)| *k == key).map(|(_, en, zh)| if lang == Lang::Zh { *zh } else { *en }).unwrap_or("")
}

/// The name of a severity in `lang`.
pub fn severity_label(s: Severity, lang: Lang) -> &'static str {
    label(
        match s {
            Severity::Error => "error",
            Severity::Warn => "warn",
            Severity::Info => "info",
        },
        lang,
    )
}

fn t(x: &Text, lang: Lang) -> &str {
    x.get(lang)
}

/// The cluster table: one row per node, a column per check, `✔ value`,
/// `✘ value` or `–`. In Markdown it is a pipe table.
fn cluster_table(report: &Report, lang: Lang, markdown: bool, o: &mut String) {
    let Some(s) = &report.cluster else { return };
    if s.checks.is_empty() && s.missing.is_empty() {
        return;
    }
    let mut head = vec![label("node", lang).to_string()];
    head.extend(s.checks.iter().map(|c| c.title.get(lang).to_string()));
    let mut rows: Vec<Vec<String>> = s
        .rows
        .iter()
        .map(|(node, cells)| {
            let mut r = vec![node.clone()];
            r.extend(cells.iter().map(|c| match c.status {
                crate::report::ClusterStatus::Ok => format!("✔ {}", c.value),
                crate::report::ClusterStatus::Fail => format!("✘ {}", c.value),
                crate::report::ClusterStatus::Unknown => "–".to_string(),
            }));
            r
        })
        .collect();
    for m in &s.missing {
        let mut r = vec![m.clone(), format!("✘ {}", label("missing", lang))];
        r.extend(std::iter::repeat_n(String::new(), s.checks.len().saturating_sub(1)));
        rows.push(r);
    }
    let _ = writeln!(o, "{}{}", if markdown { "### " } else { "" }, label("cluster", lang));
    if markdown {
        let _ = writeln!(o, "\n| {} |", head.join(" | "));
        let _ = writeln!(o, "|{}|", vec!["---"; head.len()].join("|"));
        for r in &rows {
            let _ = writeln!(o, "| {} |", r.iter().map(|c| c.replace('|', "\\|")).collect::<Vec<_>>().join(" | "));
        }
        let _ = writeln!(o);
        return;
    }
    let width = |i: usize| {
        std::iter::once(&head[i])
            .chain(rows.iter().filter_map(|r| r.get(i)))
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..head.len()).map(width).collect();
    let line = |cells: &[String]| -> String {
        cells.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}", w = *w)).collect::<Vec<_>>().join("  ")
    };
    let _ = writeln!(o, "  {}", line(&head).trim_end());
    for r in &rows {
        let _ = writeln!(o, "  {}", line(r).trim_end());
    }
    let _ = writeln!(o);
}

/// Renders the report for a terminal.
pub fn text(report: &Report, lang: Lang) -> String {
    let mut o = String::new();
    cluster_table(report, lang, false, &mut o);
    if report.findings.is_empty() {
        let _ = writeln!(o, "{}", label("no_findings", lang));
        unexplained_text(report, lang, &mut o);
        return o;
    }
    for (n, f) in report.findings.iter().enumerate() {
        let _ = writeln!(o, "{}. [{}] {}  ({})", n + 1, severity_label(f.severity, lang), t(&f.title, lang), f.id);
        let _ = writeln!(o, "   {}", t(&f.summary, lang));
        if let Some(origin) = &f.origin {
            let _ = writeln!(o, "   {}: {origin}", label("origin", lang));
        }
        if !f.nodes.is_empty() {
            let _ = writeln!(o, "   {}: {}", label("nodes", lang), f.nodes.join(", "));
        }
        if !f.explained_by.is_empty() {
            let _ = writeln!(o, "   {}: {}", label("explained_by", lang), f.explained_by.join(", "));
        }
        let _ = writeln!(o, "   {}:", label("evidence", lang));
        for e in &f.evidence {
            let _ = writeln!(o, "     {} {}: {}", label("line", lang), e.line, evidence_text(e, lang));
        }
        if f.evidence_total > f.evidence.len() {
            let _ = writeln!(o, "     (+{} {})", f.evidence_total - f.evidence.len(), label("more_lines", lang));
        }
        if !f.steps.is_empty() {
            let _ = writeln!(o, "   {}:", label("steps", lang));
            for (i, s) in f.steps.iter().enumerate() {
                let mark = if s.state == StepState::Answered {
                    format!(" [{}]", label("answered", lang))
                } else {
                    String::new()
                };
                let _ = writeln!(o, "     {}. {}{}", i + 1, t(&s.title, lang), mark);
                if let Some(run) = &s.run {
                    let _ = writeln!(o, "        $ {}", run.replace('\n', "\n          "));
                }
                let _ = writeln!(o, "        {}: {}", label("expect", lang), t(&s.expect, lang));
                for e in &s.evidence {
                    let _ = writeln!(o, "        {} {}: {}", label("line", lang), e.line, evidence_text(e, lang));
                }
            }
        }
        if !f.fixes.is_empty() {
            let _ = writeln!(o, "   {}:", label("fixes", lang));
            for fix in &f.fixes {
                let _ = writeln!(o, "     - {}", t(&fix.title, lang));
                for c in &fix.commands {
                    let _ = writeln!(o, "         {}", c.replace('\n', "\n         "));
                }
                if let Some(y) = &fix.yaml {
                    for l in y.lines() {
                        let _ = writeln!(o, "         {l}");
                    }
                }
            }
        }
        o.push('\n');
    }
    unexplained_text(report, lang, &mut o);
    o
}

/// Renders the report as Markdown (for a GitHub issue or a chat).
pub fn markdown(report: &Report, lang: Lang) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "## {}\n", label("title", lang));
    cluster_table(report, lang, true, &mut o);
    if report.findings.is_empty() {
        let _ = writeln!(o, "{}\n", label("no_findings", lang));
        unexplained_markdown(report, lang, &mut o);
        return o;
    }
    for f in &report.findings {
        let _ = writeln!(o, "### [{}] {} (`{}`)\n", severity_label(f.severity, lang), t(&f.title, lang), f.id);
        let _ = writeln!(o, "{}\n", t(&f.summary, lang));
        if let Some(origin) = &f.origin {
            let _ = writeln!(o, "{}: {origin}\n", label("origin", lang));
        }
        if !f.nodes.is_empty() {
            let _ = writeln!(o, "{}: {}\n", label("nodes", lang), f.nodes.join(", "));
        }
        if !f.explained_by.is_empty() {
            let ids: Vec<String> = f.explained_by.iter().map(|i| format!("`{i}`")).collect();
            let _ = writeln!(o, "{}: {}\n", label("explained_by", lang), ids.join(", "));
        }
        let _ = writeln!(o, "**{}**\n\n```text", label("evidence", lang));
        for e in &f.evidence {
            let _ = writeln!(o, "{:>5}: {}", e.line, evidence_text(e, lang));
        }
        let _ = writeln!(o, "```\n");
        if !f.steps.is_empty() {
            let _ = writeln!(o, "**{}**\n", label("steps", lang));
            for (i, s) in f.steps.iter().enumerate() {
                let mark = if s.state == StepState::Answered {
                    format!(" _({})_", label("answered", lang))
                } else {
                    String::new()
                };
                let _ = writeln!(o, "{}. {}{}", i + 1, t(&s.title, lang), mark);
                if let Some(run) = &s.run {
                    let _ = writeln!(o, "   ```bash\n   {}\n   ```", run.replace('\n', "\n   "));
                }
                let _ = writeln!(o, "   {}: {}", label("expect", lang), t(&s.expect, lang));
            }
            o.push('\n');
        }
        if !f.fixes.is_empty() {
            let _ = writeln!(o, "**{}**\n", label("fixes", lang));
            for fix in &f.fixes {
                let _ = writeln!(o, "- {}", t(&fix.title, lang));
                if !fix.commands.is_empty() {
                    let _ = writeln!(o, "  ```bash\n  {}\n  ```", fix.commands.join("\n").replace('\n', "\n  "));
                }
                if let Some(y) = &fix.yaml {
                    let _ = writeln!(o, "  ```yaml\n  {}\n  ```", y.trim_end().replace('\n', "\n  "));
                }
            }
            o.push('\n');
        }
    }
    unexplained_markdown(report, lang, &mut o);
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::has_cjk;

    #[test]
    fn every_label_is_bilingual() {
        for (k, en, zh) in LABELS {
            assert!(!en.is_empty() && has_cjk(zh), "label {k}");
        }
    }
}
