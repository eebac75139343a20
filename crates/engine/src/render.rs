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
    ("more_facts", "more facts not listed", "条事实未列出"),
    ("more_unexplained", "more failure-like lines of other shapes not listed", "行其他形式的疑似错误行未列出"),
    ("line", "line", "行"),
    ("error", "error", "错误"),
    ("warn", "warning", "警告"),
    ("info", "info", "提示"),
    ("findings", "Findings", "诊断结果"),
    ("title", "roll-doctor diagnosis", "roll-doctor 诊断报告"),
    ("unexplained", "Failure-like lines no rule explains", "未被任何规则解释的疑似错误行"),
    ("you_answered", "You answered", "你的回答"),
    ("nodes", "Nodes", "节点"),
    ("origin", "From the operator's knowledge base", "来自运维知识库"),
    ("node", "Node", "节点"),
    ("cluster", "Cluster", "集群概览"),
    ("missing", "missing", "缺失"),
    ("answered_lines", "Answered by", "回答依据"),
    ("answers_given", "Answers given", "已给出的回答"),
    ("share_link", "Share link", "分享链接"),
    (
        "share_code",
        "open it in any roll-doctor page, \"Open a shared diagnosis\"",
        "可在任意 roll-doctor 页面的“打开分享的诊断”中打开",
    ),
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
        let _ = writeln!(o, "  {} {}: {}  (×{})", label("line", lang), g.first.line, g.first.text, g.count);
        if let Some(note) = &g.note {
            let _ = writeln!(o, "    {}", note.get(lang));
        }
    }
    if report.unexplained_omitted > 0 {
        let _ = writeln!(o, "  (+{} {})", report.unexplained_omitted, label("more_unexplained", lang));
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
    if report.unexplained_omitted > 0 {
        let _ = writeln!(o, "\n(+{} {})", report.unexplained_omitted, label("more_unexplained", lang));
    }
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
        if f.facts_omitted > 0 {
            let _ = writeln!(o, "     (+{} {})", f.facts_omitted, label("more_facts", lang));
        }
        if !f.steps.is_empty() {
            let _ = writeln!(o, "   {}:", label("steps", lang));
            for (i, s) in f.steps.iter().enumerate() {
                let mark = match (&s.conclusion, s.state) {
                    (Some(c), _) => format!(" [{}: {}]", label("answered", lang), c.get(lang)),
                    (None, StepState::Answered) => format!(" [{}]", label("answered", lang)),
                    (None, StepState::Ask) => String::new(),
                };
                let _ = writeln!(o, "     {}. {}{}", i + 1, t(&s.title, lang), mark);
                if let Some(run) = &s.run {
                    let _ = writeln!(o, "        $ {}", run.replace('\n', "\n          "));
                }
                if let Some(expect) = &s.expect {
                    let _ = writeln!(o, "        {}: {}", label("expect", lang), t(expect, lang));
                }
                for e in &s.evidence {
                    let _ = writeln!(o, "        {} {}: {}", label("line", lang), e.line, evidence_text(e, lang));
                }
                if s.evidence_omitted > 0 {
                    let _ = writeln!(o, "        (+{} {})", s.evidence_omitted, label("more_lines", lang));
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

/// Text for Markdown outside code: back-quoted parts stay code, and a
/// `<placeholder>` (which Markdown would take for an HTML tag and hide)
/// becomes code too; any other `<` is escaped.
fn md_text(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 8);
    for (i, part) in s.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(o, "`{part}`");
            continue;
        }
        let mut rest = part;
        while let Some(at) = rest.find('<') {
            o.push_str(&rest[..at]);
            let tail = &rest[at..];
            let end = tail.find('>').filter(|&e| e > 1 && e <= 64 && !tail[1..e].contains(['<', '\n', '`']));
            match end {
                Some(e) => {
                    let _ = write!(o, "`{}`", &tail[..=e]);
                    rest = &tail[e + 1..];
                }
                None => {
                    o.push_str("&lt;");
                    rest = &tail[1..];
                }
            }
        }
        o.push_str(rest);
    }
    o
}

/// A fenced code block indented by `indent`, with a fence longer than any
/// run of back-quotes inside.
fn md_code(o: &mut String, indent: &str, lang: &str, body: &str) {
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest.max(2) + 1);
    let _ = writeln!(o, "{indent}{fence}{lang}");
    for l in body.lines() {
        let _ = writeln!(o, "{indent}{l}");
    }
    let _ = writeln!(o, "{indent}{fence}");
}

/// Renders the report as Markdown (for a GitHub issue or a chat).
pub fn markdown(report: &Report, lang: Lang) -> String {
    markdown_with(report, lang, None)
}

/// [`markdown`], ending with the share link (or a bare `v1=…` code) when
/// there is one. Placeholders in texts stay visible (as code), answered
/// steps show the lines or the answer that answered them, and the answers
/// the user clicked are listed.
pub fn markdown_with(report: &Report, lang: Lang, link: Option<&str>) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "## {}\n", label("title", lang));
    if report.findings.is_empty() {
        let _ = writeln!(o, "{}\n", label("no_findings", lang));
        unexplained_markdown(report, lang, &mut o);
        link_markdown(link, lang, &mut o);
        return o;
    }
    let mut answers = Vec::new();
    for f in &report.findings {
        let _ = writeln!(o, "### [{}] {} (`{}`)\n", severity_label(f.severity, lang), md_text(t(&f.title, lang)), f.id);
        let _ = writeln!(o, "{}\n", md_text(t(&f.summary, lang)));
        if !f.nodes.is_empty() {
            let _ = writeln!(o, "{}: {}\n", label("nodes", lang), md_text(&f.nodes.join(", ")));
        }
        if !f.explained_by.is_empty() {
            let ids: Vec<String> = f.explained_by.iter().map(|i| format!("`{i}`")).collect();
            let _ = writeln!(o, "{}: {}\n", label("explained_by", lang), ids.join(", "));
        }
        if !f.evidence.is_empty() {
            let _ = writeln!(o, "**{}**\n", label("evidence", lang));
            let body: Vec<String> =
                f.evidence.iter().map(|e| format!("{:>5}: {}", e.line, evidence_text(e, lang))).collect();
            md_code(&mut o, "", "text", &body.join("\n"));
            o.push('\n');
        }
        let more = f.evidence_total.saturating_sub(f.evidence.len());
        if more > 0 || f.facts_omitted > 0 {
            let mut parts = Vec::new();
            if more > 0 {
                parts.push(format!("+{more} {}", label("more_lines", lang)));
            }
            if f.facts_omitted > 0 {
                parts.push(format!("+{} {}", f.facts_omitted, label("more_facts", lang)));
            }
            let _ = writeln!(o, "({})\n", parts.join("; "));
        }
        if !f.steps.is_empty() {
            let _ = writeln!(o, "**{}**\n", label("steps", lang));
            for (i, s) in f.steps.iter().enumerate() {
                let mark = match (&s.conclusion, s.state) {
                    (Some(c), _) => format!(" _({}: {})_", label("answered", lang), md_text(c.get(lang))),
                    (None, StepState::Answered) => format!(" _({})_", label("answered", lang)),
                    (None, StepState::Ask) => String::new(),
                };
                let _ = writeln!(o, "{}. {}{}", i + 1, md_text(t(&s.title, lang)), mark);
                if let Some(run) = &s.run {
                    md_code(&mut o, "   ", "bash", run);
                }
                if let Some(expect) = &s.expect {
                    let _ = writeln!(o, "   {}: {}", label("expect", lang), md_text(t(expect, lang)));
                }
                if let Some(a) = &s.answer {
                    let text = s.answers.iter().find(|(id, _)| id == a).map_or(a.as_str(), |(_, l)| l.get(lang));
                    let _ = writeln!(o, "   {}: **{}**", label("you_answered", lang), md_text(text));
                    answers.push(format!("{} — {}: {}", md_text(t(&s.title, lang)), f.id, md_text(text)));
                }
                let pasted: Vec<String> = s
                    .evidence
                    .iter()
                    .filter(|e| e.answer.is_none())
                    .map(|e| format!("{:>5}: {}", e.line, evidence_text(e, lang)))
                    .collect();
                if s.state == StepState::Answered && !pasted.is_empty() {
                    let _ = writeln!(o, "   {}:", label("answered_lines", lang));
                    md_code(&mut o, "   ", "text", &pasted.join("\n"));
                    if s.evidence_omitted > 0 {
                        let _ = writeln!(o, "   (+{} {})", s.evidence_omitted, label("more_lines", lang));
                    }
                }
            }
            o.push('\n');
        }
        if !f.fixes.is_empty() {
            let _ = writeln!(o, "**{}**\n", label("fixes", lang));
            for fix in &f.fixes {
                let _ = writeln!(o, "- {}", md_text(t(&fix.title, lang)));
                if !fix.commands.is_empty() {
                    md_code(&mut o, "  ", "bash", &fix.commands.join("\n"));
                }
                if let Some(y) = &fix.yaml {
                    md_code(&mut o, "  ", "yaml", y.trim_end());
                }
            }
            o.push('\n');
        }
    }
    unexplained_markdown(report, lang, &mut o);
    answers.sort();
    answers.dedup();
    if !answers.is_empty() {
        let _ = writeln!(o, "### {}\n", label("answers_given", lang));
        for a in &answers {
            let _ = writeln!(o, "- {a}");
        }
        o.push('\n');
    }
    link_markdown(link, lang, &mut o);
    o
}

fn link_markdown(link: Option<&str>, lang: Lang, o: &mut String) {
    let Some(link) = link.filter(|l| !l.trim().is_empty()) else { return };
    if link.starts_with("https://") || link.starts_with("http://") {
        let _ = writeln!(o, "**{}**: <{link}>", label("share_link", lang));
    } else {
        let _ = writeln!(o, "**{}** ({}):\n", label("share_link", lang), label("share_code", lang));
        md_code(o, "", "text", link);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::has_cjk;

    #[test]
    fn markdown_keeps_placeholders_visible_and_lists_answers_and_the_link() {
        assert_eq!(md_text("run `npu-smi -i <id>` on <node> if a<b"), "run `npu-smi -i <id>` on `<node>` if a&lt;b");
        let report = crate::diagnose("link status: DOWN\nEI0006: Getting socket times out.\n");
        let md = markdown_with(&report, Lang::En, Some("https://intra.example/rd/#v1=abc"));
        assert!(md.ends_with("**Share link**: <https://intra.example/rd/#v1=abc>\n"), "{md}");
        let outside_code: String = md.split("```").step_by(2).collect();
        for seg in outside_code.split('`').step_by(2) {
            assert!(!seg.contains('<') || seg.contains("<https://"), "raw < outside code: {seg}");
        }
        let mut session = crate::Session::default();
        session.answers.push(crate::AnswerRef {
            rule: "hccl-connect-timeout".into(),
            step: "link".into(),
            answer: "some-down".into(),
        });
        let r = crate::diagnose_session(
            &[crate::Input { text: "EI0006: Getting socket times out.\n".into(), ..Default::default() }],
            &session,
        );
        let md = markdown_with(&r, Lang::Zh, Some("v1=abc"));
        assert!(md.contains("已给出的回答"), "{md}");
        assert!(md.contains("```text\nv1=abc\n```"), "{md}");
    }

    #[test]
    fn every_label_is_bilingual() {
        for (k, en, zh) in LABELS {
            assert!(!en.is_empty() && has_cjk(zh), "label {k}");
        }
    }
}
