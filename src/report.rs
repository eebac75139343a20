//! The report (wasm32 only): findings root cause first, each consequence
//! collapsed under its cause, evidence lines that open the log view, the
//! guided steps with their answers and conclusions, fixes, unexplained
//! lines and failed commands. Findings are keyed by id and content, so a
//! click that changes one finding re-renders only that finding. Every
//! pasted text is rendered as a text node, never as HTML.

use crate::i18n::{count, t, tf, Lang, S};
use crate::model::{CellStatus, ClusterView, FindingView, ReportView, StepView, UnexplainedView};
use crate::state::Ctx;
use crate::web::{copy_text, CopyState};
use leptos::prelude::*;
use roll_doctor_engine::render::{evidence_text, label, severity_label};
use roll_doctor_engine::{EvidenceLine, Severity};

/// How a report is shown: the local one (interactive) or a shared one (read-only).
#[derive(Clone, Copy)]
pub struct Mode {
    pub ctx: Ctx,
    pub lang: Lang,
    pub read_only: bool,
}

/// A button that copies `text()` and says whether it worked.
pub fn copy_button(text: impl Fn() -> String + 'static, lang: Lang, idle: S, action: &'static str) -> impl IntoView {
    let state = RwSignal::new(CopyState::Idle);
    let label_text = move || match state.get() {
        CopyState::Idle => t(lang, idle),
        CopyState::Copied => t(lang, S::Copied),
        CopyState::Failed => t(lang, S::CopyFailed),
    };
    view! {
        <button type="button" class="copy" data-copy="" data-action=action data-state=move || state.get().code()
            aria-live="polite" on:click=move |_| copy_text(text(), state)>{label_text}</button>
    }
}

/// A `<pre>` block of commands or YAML with a Copy button.
pub fn code_block(code: String, lang: Lang, kind: &'static str) -> impl IntoView {
    let to_copy = code.clone();
    view! {
        <div class="code" data-kind=kind>
            <pre><code>{code}</code></pre>
            {copy_button(move || to_copy.clone(), lang, S::Copy, "copy")}
        </div>
    }
}

/// Renders `a `code` b` with the back-quoted parts as `<code>`.
pub fn inline_code(s: &str) -> Vec<AnyView> {
    s.split('`')
        .enumerate()
        .filter(|(_, part)| !part.is_empty())
        .map(|(i, part)| {
            if i % 2 == 1 {
                view! { <code>{part.to_string()}</code> }.into_any()
            } else {
                part.to_string().into_any()
            }
        })
        .collect()
}

fn severity_class(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warn => "warn",
        Severity::Info => "info",
    }
}

fn severity_mark(s: Severity) -> &'static str {
    match s {
        Severity::Error => "\u{2716}",
        Severity::Warn => "\u{25B2}",
        Severity::Info => "\u{2139}",
    }
}

/// The name of engine input `input` for a line number: its label (local)
/// or its number (shared); None for a single input.
fn input_prefix(m: Mode, input: Option<usize>) -> Option<String> {
    let i = input?;
    if m.read_only {
        return Some((i + 1).to_string());
    }
    let slot = m.ctx.diagnosis.with_untracked(|d| d.as_ref().and_then(|d| d.slots.get(i).copied()))?;
    Some(m.ctx.input_name(slot, m.lang))
}

/// One line number: a button opening the log view (local), or plain text.
fn line_no(m: Mode, input: Option<usize>, line: u32) -> AnyView {
    let shown = match input_prefix(m, input) {
        Some(p) => format!("{p}:{line}"),
        None => line.to_string(),
    };
    if m.read_only || line == 0 {
        return view! { <span class="ln">{shown}</span> }.into_any();
    }
    let aria = tf(m.lang, S::LineNAria, &[("n", &line.to_string())]);
    let ctx = m.ctx;
    view! {
        <button type="button" class="ln" data-line=line.to_string() data-input=input.map(|i| i.to_string())
            aria-label=aria.clone() title=aria
            on:click=move |_| ctx.show_line(input, line)>{shown}</button>
    }
    .into_any()
}

fn line_text(m: Mode, e: &EvidenceLine) -> AnyView {
    if e.text.is_empty() && e.answer.is_none() && m.read_only {
        view! { <code class="lt missing">{t(m.lang, S::TextNotShared)}</code> }.into_any()
    } else if e.answer.is_some() {
        view! { <span class="lt answer">{evidence_text(e, m.lang)}</span> }.into_any()
    } else {
        view! { <code class="lt">{evidence_text(e, m.lang)}</code> }.into_any()
    }
}

fn evidence_list(m: Mode, lines: &[EvidenceLine]) -> impl IntoView {
    let items = lines
        .iter()
        .map(|e| {
            let no = (e.answer.is_none()).then(|| line_no(m, e.input, e.line));
            view! { <li>{no}{line_text(m, e)}</li> }
        })
        .collect_view();
    view! { <ol class="lines">{items}</ol> }
}

/// The box under an open step: answers to click, and a place to paste the
/// command's output.
fn answer_box(m: Mode, rule: &str, step: &StepView, is_next: bool) -> Option<AnyView> {
    if m.read_only || (step.run.is_none() && step.answers.is_empty()) {
        return None;
    }
    let ctx = m.ctx;
    let lang = m.lang;
    let answers = (!step.answers.is_empty()).then(|| {
        let buttons = step
            .answers
            .iter()
            .map(|(id, text)| {
                let (r, s, a) = (rule.to_string(), step.id.clone(), id.clone());
                view! {
                    <button type="button" class="answer" data-answer=id.clone()
                        on:click=move |_| ctx.answer(&r, &s, &a)>{inline_code(text.get(lang))}</button>
                }
            })
            .collect_view();
        view! {
            <div class="answers" role="group" aria-label=t(lang, S::OrClick)>
                <span class="k">{t(lang, S::OrClick)}</span>
                {buttons}
            </div>
        }
    });
    let paste = step.run.clone().map(|run| {
        let area = NodeRef::<leptos::html::Textarea>::new();
        let key = (rule.to_string(), step.id.clone());
        let draft = ctx.drafts.with_value(|d| d.get(&key).cloned().unwrap_or_default());
        let label = step.title.get(lang).to_string();
        let id = format!("out-{}-{}", rule, step.id);
        let submit = {
            let (run, label, key, rule) = (run.clone(), label.clone(), key.clone(), rule.to_string());
            move || {
                let Some(el) = area.get_untracked() else { return };
                let out = el.value();
                if out.trim().is_empty() {
                    let _ = el.focus();
                    return;
                }
                ctx.drafts.update_value(|d| {
                    d.remove(&key);
                });
                ctx.add_output(&rule, &label, Some(&run), &out);
            }
        };
        let submit2 = submit.clone();
        let key2 = key.clone();
        view! {
            <div class="paste-out">
                <label class="k" for=id.clone()>{t(lang, S::PasteOutputLabel)}</label>
                <textarea id=id class="step-paste" node_ref=area rows="4" spellcheck="false" autocomplete="off" wrap="off"
                    placeholder=t(lang, S::PasteOutputPh)
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        ctx.drafts.update_value(|d| { d.insert(key2.clone(), v); });
                    }
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                        if (ev.ctrl_key() || ev.meta_key()) && ev.key() == "Enter" {
                            ev.prevent_default();
                            ev.stop_propagation();
                            submit2();
                        }
                    }>{draft}</textarea>
                <button type="button" data-action="add-output" on:click=move |_| submit()>{t(lang, S::AddOutput)}</button>
            </div>
        }
    });
    Some(
        view! {
            <details class="answer-box" open=is_next>
                <summary>{t(lang, S::StepAnswer)}</summary>
                {answers}
                {paste}
            </details>
        }
        .into_any(),
    )
}

fn step_view(m: Mode, rule: &str, step: &StepView, is_next: bool) -> impl IntoView {
    let lang = m.lang;
    let answered = step.answered;
    let (state_text, state_class) = if answered {
        (label("answered", lang), "state answered")
    } else if is_next {
        (t(lang, S::StepNext), "state next")
    } else {
        (t(lang, S::StepAsk), "state ask")
    };
    let conclusion = step.conclusion.as_ref().map(|c| {
        view! {
            <p class="conclusion" data-conclusion="">
                <span class="k">{t(lang, S::Conclusion)}{t(lang, S::Colon)}</span><strong>{inline_code(c.get(lang))}</strong>
            </p>
        }
    });
    let run = step.run.clone().map(|r| code_block(r, lang, "shell"));
    let expect = step.expect.as_ref().map(|e| {
        view! { <p class="expect"><span class="k">{label("expect", lang)}{t(lang, S::Colon)}</span>{inline_code(e.get(lang))}</p> }
    });
    // The lines that answered it, or the answer clicked on another finding's
    // step (the same question is not asked twice); this step's own click is
    // shown below with a Change button.
    let own = step.answer.is_some();
    let pasted: Vec<EvidenceLine> = step.evidence.iter().filter(|e| !(own && e.answer.is_some())).cloned().collect();
    let evidence = (!pasted.is_empty()).then(|| {
        let more = (step.evidence_omitted > 0).then(|| {
            view! { <p class="more">{tf(lang, S::MoreEvidence, &[("n", &step.evidence_omitted.to_string())])}</p> }
        });
        view! {
            <div class="answered-by">
                <span class="k">{t(lang, S::AnsweredBy)}{t(lang, S::Colon)}</span>
                {evidence_list(m, &pasted)}
                {more}
            </div>
        }
    });
    let clicked = step.answer.as_ref().map(|a| {
        let text = match step.answers.iter().find(|(id, _)| id == a) {
            Some((_, l)) => inline_code(l.get(lang)),
            None => inline_code(a),
        };
        let change = (!m.read_only).then(|| {
            let (ctx, r, s) = (m.ctx, rule.to_string(), step.id.clone());
            view! { <button type="button" class="link" data-action="change-answer" on:click=move |_| ctx.unanswer(&r, &s)>{t(lang, S::ChangeAnswer)}</button> }
        });
        view! {
            <p class="your-answer" data-answered=a.clone()>
                <span class="k">{t(lang, S::YourAnswer)}{t(lang, S::Colon)}</span>
                <strong>{text}</strong>" "{change}
            </p>
        }
    });
    let ask = (!answered).then(|| answer_box(m, rule, step, is_next)).flatten();
    view! {
        <li class="step" data-step-id=step.id.clone() data-state=if answered { "answered" } else { "ask" }
            data-next=is_next.then_some("")>
            <div class="step-head">
                <span class="step-title">{inline_code(step.title.get(lang))}</span>
                <span class=state_class>{state_text}</span>
            </div>
            {conclusion}
            {run}
            {expect}
            {evidence}
            {clicked}
            {ask}
        </li>
    }
}

/// Everything of a finding below its title.
fn finding_body(m: Mode, f: &FindingView, titles: &[(String, String)]) -> impl IntoView {
    let lang = m.lang;
    let causes = f
        .explained_by
        .iter()
        .map(|id| {
            let title = titles.iter().find(|(i, _)| i == id).map(|(_, t)| t.clone()).unwrap_or_else(|| id.clone());
            let target = format!("#f-{id} .finding-title");
            view! { <button type="button" class="cause" data-cause=id.clone() on:click=move |_| { crate::web::focus(&target, true); }>{title}</button> }
        })
        .collect_view();
    let explained = (!f.explained_by.is_empty()).then(|| {
        view! { <p class="explained"><span class="k">{label("explained_by", lang)}{t(lang, S::Colon)}</span>{causes}</p> }
    });
    let nodes = (!f.nodes.is_empty()).then(|| {
        view! { <p class="nodes"><span class="k">{label("nodes", lang)}{t(lang, S::Colon)}</span>{f.nodes.join(", ")}</p> }
    });
    let by_node = (!f.by_node.is_empty()).then(|| {
        let rows = f
            .by_node
            .iter()
            .map(|n| {
                let what = match &n.subject {
                    Some(s) => format!("{} [{s}]", n.fact),
                    None => n.fact.clone(),
                };
                view! {
                    <tr class:flagged=n.flagged data-flagged=n.flagged.then_some("")>
                        <td>{n.node.clone()}</td><td><code>{what}</code></td><td><code>{n.value.clone()}</code></td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <div class="table-wrap"><table class="by-node">
                <thead><tr><th>{label("node", lang)}</th><th>{t(lang, S::MappingKind)}</th><th>{t(lang, S::MappingOriginal)}</th></tr></thead>
                <tbody>{rows}</tbody>
            </table></div>
        }
    });
    let more = f.evidence_total.saturating_sub(f.evidence.len());
    let more =
        (more > 0).then(|| view! { <p class="more">{tf(lang, S::MoreEvidence, &[("n", &more.to_string())])}</p> });
    let evidence = (!f.evidence.is_empty()).then(|| {
        view! {
            <section class="evidence">
                <h4>{label("evidence", lang)}</h4>
                {evidence_list(m, &f.evidence)}
                {more}
            </section>
        }
    });
    let next = if m.read_only { None } else { f.steps.iter().position(|s| !s.answered) };
    let steps = (!f.steps.is_empty()).then(|| {
        let items = f.steps.iter().enumerate().map(|(i, s)| step_view(m, &f.id, s, next == Some(i))).collect_view();
        view! {
            <section class="steps">
                <h4>{label("steps", lang)}</h4>
                <ol class="step-list">{items}</ol>
            </section>
        }
    });
    let fixes = (!f.fixes.is_empty()).then(|| {
        let items = f
            .fixes
            .iter()
            .map(|fix| {
                let cmds = (!fix.commands.is_empty()).then(|| code_block(fix.commands.join("\n"), lang, "shell"));
                let yaml = fix.yaml.as_ref().map(|y| code_block(y.trim_end().to_string(), lang, "yaml"));
                view! { <li class="fix"><p class="fix-title">{inline_code(fix.title.get(lang))}</p>{cmds}{yaml}</li> }
            })
            .collect_view();
        view! {
            <section class="fixes">
                <h4>{label("fixes", lang)}</h4>
                <ul class="fix-list">{items}</ul>
            </section>
        }
    });
    view! {
        <p class="summary">{inline_code(f.summary.get(lang))}</p>
        {nodes}
        {explained}
        {by_node}
        {evidence}
        {steps}
        {fixes}
    }
}

fn finding_head(m: Mode, f: &FindingView, symptoms: &[String]) -> impl IntoView {
    let lang = m.lang;
    let sev = severity_class(f.severity);
    let symptom = f.from_symptom.then(|| view! { <span class="chip symptom">{t(lang, S::FromSymptom)}</span> });
    let origin = f.origin.as_ref().map(|o| {
        view! { <span class="chip origin" data-origin=o.clone()>{tf(lang, S::FromOrigin, &[("origin", o)])}</span> }
    });
    let remove = (!m.read_only && symptoms.contains(&f.id)).then(|| {
        let (ctx, id) = (m.ctx, f.id.clone());
        view! {
            <button type="button" class="icon" data-action="remove-symptom" aria-label=t(lang, S::RemoveSymptom)
                title=t(lang, S::RemoveSymptom) on:click=move |_| ctx.drop_symptom(&id)>"×"</button>
        }
    });
    view! {
        <span class=format!("badge sev-{sev}")><span aria-hidden="true">{severity_mark(f.severity)}" "</span>{severity_label(f.severity, lang)}</span>
        <h3 class="finding-title" tabindex="-1">{inline_code(f.title.get(lang))}</h3>
        {symptom}
        {origin}
        <code class="rule-id" title=t(lang, S::RuleId)>{f.id.clone()}</code>
        {remove}
    }
}

/// One finding; a consequence of another is one line that opens.
fn finding_view(m: Mode, f: FindingView, cause: Option<String>, titles: Vec<(String, String)>) -> AnyView {
    let lang = m.lang;
    let sev = severity_class(f.severity);
    let symptoms = if m.read_only { Vec::new() } else { m.ctx.session.with_untracked(|s| s.symptoms.clone()) };
    let id = f.id.clone();
    match cause {
        None => view! {
            <article class=format!("finding sev-{sev}") id=format!("f-{id}") data-rule-id=id.clone() data-severity=sev
                data-from-symptom=f.from_symptom.then_some("")>
                <header class="finding-head">{finding_head(m, &f, &symptoms)}</header>
                {finding_body(m, &f, &titles)}
            </article>
        }
        .into_any(),
        Some(cause) => {
            let cause_title = titles.iter().find(|(i, _)| *i == cause).map(|(_, t)| t.clone()).unwrap_or(cause.clone());
            let head = finding_head(m, &f, &symptoms);
            let open = RwSignal::new(false);
            let body = move || open.get().then(|| finding_body(m, &f, &titles));
            view! {
                <details class=format!("finding consequence sev-{sev}") id=format!("f-{id}") data-rule-id=id.clone()
                    data-severity=sev data-consequence-of=cause.clone()
                    on:toggle=move |ev| {
                        let el: web_sys::HtmlDetailsElement = wasm_bindgen::JsCast::unchecked_into(event_target::<web_sys::Element>(&ev));
                        open.set(el.open());
                    }>
                    <summary class="finding-head">
                        {head}
                        <span class="consequence-of">{tf(lang, S::ConsequenceOf, &[("cause", &cause_title)])}</span>
                    </summary>
                    {body}
                </details>
            }
            .into_any()
        }
    }
}

/// The findings of `report`, keyed by id and content: only findings that
/// changed are rendered again.
pub fn findings_list(ctx: Ctx, report: Memo<Option<(ReportView, bool)>>) -> impl IntoView {
    let rows = move || {
        let lang = ctx.lang.get();
        report.with(|r| {
            let Some((r, read_only)) = r else { return Vec::new() };
            let titles: Vec<(String, String)> =
                r.findings.iter().map(|f| (f.id.clone(), f.title.get(lang).to_string())).collect();
            r.rows()
                .into_iter()
                .map(|(i, cause)| {
                    let f = r.findings[i].clone();
                    let key = (f.id.clone(), f.rev, cause.clone(), lang == Lang::Zh, *read_only);
                    (key, f, cause, titles.clone(), *read_only, lang)
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <div class="findings">
            <For each=rows key=|row| row.0.clone() children=move |(_, f, cause, titles, read_only, lang)| {
                finding_view(Mode { ctx, lang, read_only }, f, cause, titles)
            } />
        </div>
    }
}

pub fn unexplained_view(m: Mode, list: &[UnexplainedView], omitted: usize) -> Option<impl IntoView> {
    if list.is_empty() {
        return None;
    }
    let lang = m.lang;
    let items = list
        .iter()
        .map(|g| {
            let note = g.note.as_ref().map(|n| view! { <p class="note">{inline_code(n.get(lang))}</p> });
            let stub = (!g.stub.is_empty()).then(|| {
                view! {
                    <details class="new-rule" data-new-rule="">
                        <summary data-action="new-rule">{t(lang, S::NewRule)}</summary>
                        <p class="help">{inline_code(t(lang, S::NewRuleHelp))}</p>
                        {code_block(g.stub.clone(), lang, "yaml")}
                    </details>
                }
            });
            view! {
                <li>
                    {line_no(m, g.first.input, g.first.line)}
                    {line_text(m, &g.first)}
                    <span class="count" data-count=g.count.to_string()>{tf(lang, S::NTimes, &[("n", &g.count.to_string())])}</span>
                    {note}
                    {stub}
                </li>
            }
        })
        .collect_view();
    Some(view! {
        <section class="unexplained" data-unexplained="">
            <h3>{label("unexplained", lang)}</h3>
            <p class="help">{t(lang, S::UnexplainedHelp)}</p>
            <ol class="lines">{items}</ol>
            {(omitted > 0).then(|| view! {
                <p class="note" data-unexplained-omitted=omitted.to_string()>
                    {format!("+{omitted} {}", label("more_unexplained", lang))}
                </p>
            })}
        </section>
    })
}

/// The cluster summary (nodes × checks) when the input has more than one
/// node: each cell `✔ value`, `✘ value` or `–`; clicking a cell goes to the
/// finding that rests on it and focuses its evidence line. The table
/// scrolls sideways inside its box on a narrow screen.
pub fn cluster_view(m: Mode, c: &ClusterView) -> Option<impl IntoView> {
    if c.rows.len() < 2 || c.checks.is_empty() {
        return None;
    }
    let lang = m.lang;
    let head = c
        .checks
        .iter()
        .map(|(id, title)| view! { <th scope="col" data-check=id.clone()>{title.get(lang).to_string()}</th> })
        .collect_view();
    let rows = c
        .rows
        .iter()
        .map(|(node, cells)| {
            let tds = cells
                .iter()
                .zip(&c.checks)
                .map(|(cell, (id, title))| {
                    let (mark, state, status) = match cell.status {
                        CellStatus::Ok => ("\u{2714}", t(lang, S::CellOk), "ok"),
                        CellStatus::Fail => ("\u{2718}", t(lang, S::CellFail), "fail"),
                        CellStatus::Unknown => ("\u{2013}", t(lang, S::CellUnknown), "unknown"),
                    };
                    let aria = tf(
                        lang,
                        S::CellAria,
                        &[("node", node), ("check", title.get(lang)), ("state", state), ("value", &cell.value)],
                    );
                    let body = view! { <span aria-hidden="true">{mark}</span>" "<span class="v">{cell.value.clone()}</span> };
                    let clickable = !cell.findings.is_empty() || (cell.evidence.is_some() && !m.read_only);
                    let inner = if clickable {
                        let (ctx, read_only) = (m.ctx, m.read_only);
                        let (finding, evidence) = (cell.findings.first().cloned(), cell.evidence.clone());
                        view! {
                            <button type="button" class="cell" data-cell="" data-finding=finding.clone()
                                aria-label=aria.clone() title=aria
                                on:click=move |_| ctx.focus_cell(finding.clone(), evidence.clone(), read_only)>{body}</button>
                        }
                        .into_any()
                    } else {
                        view! { <span class="cell" aria-label=aria.clone() title=aria>{body}</span> }.into_any()
                    };
                    view! { <td data-check=id.clone() data-status=status>{inner}</td> }
                })
                .collect_view();
            view! { <tr data-node=node.clone()><th scope="row">{node.clone()}</th>{tds}</tr> }
        })
        .collect_view();
    let missing = (!c.missing.is_empty()).then(|| {
        view! { <p class="missing" data-missing-nodes="">{tf(lang, S::ClusterMissing, &[("nodes", &c.missing.join(", "))])}</p> }
    });
    Some(view! {
        <section class="cluster" data-cluster="">
            <h3>{t(lang, S::ClusterTitle)}</h3>
            <p class="help">{t(lang, S::ClusterHelp)}</p>
            <div class="table-wrap cluster-wrap" role="region" tabindex="0" aria-label=t(lang, S::ClusterAria)>
                <table class="cluster-table">
                    <thead><tr><th scope="col">{label("node", lang)}</th>{head}</tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            {missing}
        </section>
    })
}

/// The count of findings and what was diagnosed.
pub fn count_text(lang: Lang, n: usize) -> String {
    count(lang, n, S::FindingsOne, S::FindingsMany)
}
