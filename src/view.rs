//! The right column (wasm32 only): the report — findings root cause first,
//! evidence lines that open the log view, the guided steps with their
//! answers, fixes, unexplained lines — and around it the symptom picker,
//! the share panel, a shared diagnosis and the log view. Every pasted text
//! is rendered as a text node, never as HTML.

use crate::app::{Ctx, LogTarget, SharedView};
use crate::i18n::{t, tf, Lang};
use crate::inputs::USEFUL_COMMANDS;
use crate::symptoms::{area_code, area_key, grouped};
use crate::web::{copy_text, CopyState};
use leptos::prelude::*;
use roll_doctor_engine::render::{self, label, severity_label};
use roll_doctor_engine::report::{EvidenceLine, Finding, Report, StepReport};
use roll_doctor_engine::share::ShareError;
use roll_doctor_engine::{Severity, StepState};
use std::collections::HashSet;

/// Lines shown before and after the target line in the log view.
pub const LOG_CONTEXT: usize = 300;

/// How a report is shown: the local one (interactive) or a shared one (read-only).
#[derive(Clone, Copy)]
struct Mode {
    ctx: Ctx,
    lang: Lang,
    read_only: bool,
}

/// A button that copies `text()` and says whether it worked.
fn copy_button(
    text: impl Fn() -> String + 'static,
    lang: Lang,
    idle: &'static str,
    action: &'static str,
) -> impl IntoView {
    let state = RwSignal::new(CopyState::Idle);
    let label_text = move || match state.get() {
        CopyState::Idle => t(lang, idle),
        CopyState::Copied => t(lang, "copied"),
        CopyState::Failed => t(lang, "copy_failed"),
    };
    view! {
        <button type="button" class="copy" data-copy="" data-action=action data-state=move || state.get().code()
            aria-live="polite" on:click=move |_| copy_text(text(), state)>{label_text}</button>
    }
}

/// A `<pre>` block of commands or YAML with a Copy button.
fn code_block(code: String, lang: Lang, kind: &'static str) -> impl IntoView {
    let to_copy = code.clone();
    view! {
        <div class="code" data-kind=kind>
            <pre><code>{code}</code></pre>
            {copy_button(move || to_copy.clone(), lang, "copy", "copy")}
        </div>
    }
}

/// Renders `a `code` b` with the back-quoted parts as `<code>`.
fn inline_code(s: &str) -> Vec<AnyView> {
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
    let aria = tf(m.lang, "line_n_aria", &[("n", &line.to_string())]);
    let ctx = m.ctx;
    view! {
        <button type="button" class="ln" data-line=line.to_string() aria-label=aria.clone() title=aria
            on:click=move |_| ctx.show_line(input, line)>{shown}</button>
    }
    .into_any()
}

fn line_text(m: Mode, text: &str) -> AnyView {
    if text.is_empty() && m.read_only {
        view! { <code class="lt missing">{t(m.lang, "text_not_shared")}</code> }.into_any()
    } else {
        view! { <code class="lt">{text.to_string()}</code> }.into_any()
    }
}

fn evidence_list(m: Mode, lines: &[EvidenceLine]) -> impl IntoView {
    let items =
        lines.iter().map(|e| view! { <li>{line_no(m, e.input, e.line)}{line_text(m, &e.text)}</li> }).collect_view();
    view! { <ol class="lines">{items}</ol> }
}

/// The box under an open step: answers to click, and a place to paste the
/// command's output.
fn answer_box(m: Mode, rule: &str, step: &StepReport, is_next: bool) -> Option<AnyView> {
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
            <div class="answers" role="group" aria-label=t(lang, "or_click")>
                <span class="k">{t(lang, "or_click")}</span>
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
            let (run, label, key) = (run.clone(), label.clone(), key.clone());
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
                ctx.add_output(&label, Some(&run), &out);
            }
        };
        let submit2 = submit.clone();
        let key2 = key.clone();
        view! {
            <div class="paste-out">
                <label class="k" for=id.clone()>{t(lang, "paste_output_label")}</label>
                <textarea id=id class="step-paste" node_ref=area rows="4" spellcheck="false" autocomplete="off" wrap="off"
                    placeholder=t(lang, "paste_output_ph")
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
                <button type="button" data-action="add-output" on:click=move |_| submit()>{t(lang, "add_output")}</button>
            </div>
        }
    });
    Some(
        view! {
            <details class="answer-box" open=is_next>
                <summary>{t(lang, "step_answer")}</summary>
                {answers}
                {paste}
            </details>
        }
        .into_any(),
    )
}

fn step_view(m: Mode, rule: &str, step: &StepReport, is_next: bool) -> impl IntoView {
    let lang = m.lang;
    let answered = step.state == StepState::Answered;
    let state_text = if answered {
        label("answered", lang)
    } else if is_next {
        t(lang, "step_next")
    } else {
        t(lang, "step_ask")
    };
    let state_class = if answered {
        "state answered"
    } else if is_next {
        "state next"
    } else {
        "state ask"
    };
    let run = step.run.clone().map(|r| code_block(r, lang, "shell"));
    let evidence = (!step.evidence.is_empty()).then(|| evidence_list(m, &step.evidence));
    let clicked = step.answer.as_ref().map(|a| {
        let text = match step.answers.iter().find(|(id, _)| id == a) {
            Some((_, l)) => inline_code(l.get(lang)),
            None => inline_code(a),
        };
        let change = (!m.read_only).then(|| {
            let (ctx, r, s) = (m.ctx, rule.to_string(), step.id.clone());
            view! { <button type="button" class="link" data-action="change-answer" on:click=move |_| ctx.unanswer(&r, &s)>{t(lang, "change_answer")}</button> }
        });
        view! {
            <p class="your-answer" data-answered=a.clone()>
                <span class="k">{t(lang, "your_answer")}{t(lang, "colon")}</span>
                <strong>{text}</strong>" "{change}
            </p>
        }
    });
    let ask = (!answered).then(|| answer_box(m, rule, step, is_next)).flatten();
    view! {
        <li class="step" data-step-id=step.id.clone() data-state=if answered { "answered" } else { "ask" }
            data-next=is_next.then_some("")>
            <div class="step-head">
                <span class="step-title">{step.title.get(lang).to_string()}</span>
                <span class=state_class>{state_text}</span>
            </div>
            {run}
            <p class="expect"><span class="k">{label("expect", lang)}{t(lang, "colon")}</span>{inline_code(step.expect.get(lang))}</p>
            {evidence}
            {clicked}
            {ask}
        </li>
    }
}

fn finding_view(m: Mode, f: &Finding, report: &Report, symptoms: &[String]) -> impl IntoView {
    let lang = m.lang;
    let sev = severity_class(f.severity);
    let causes = f
        .explained_by
        .iter()
        .map(|id| {
            let title = report
                .findings
                .iter()
                .find(|x| &x.id == id)
                .map(|x| x.title.get(lang).to_string())
                .unwrap_or_else(|| id.clone());
            let target = format!("f-{id}");
            let jump = move |_| {
                if let Some(el) = crate::web::document().and_then(|d| d.get_element_by_id(&target)) {
                    el.scroll_into_view();
                }
            };
            view! { <button type="button" class="cause" data-cause=id.clone() on:click=jump>{title}</button> }
        })
        .collect_view();
    let explained = (!f.explained_by.is_empty()).then(|| {
        view! { <p class="explained"><span class="k">{label("explained_by", lang)}{t(lang, "colon")}</span>{causes}</p> }
    });
    let more = f.evidence_total.saturating_sub(f.evidence.len());
    let more =
        (more > 0).then(|| view! { <p class="more">{tf(lang, "more_evidence", &[("n", &more.to_string())])}</p> });
    let evidence = (!f.evidence.is_empty()).then(|| {
        view! {
            <section class="evidence">
                <h4>{label("evidence", lang)}</h4>
                {evidence_list(m, &f.evidence)}
                {more}
            </section>
        }
    });
    let next = if m.read_only { None } else { f.steps.iter().position(|s| s.state == StepState::Ask) };
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
    let symptom = f.from_symptom.then(|| view! { <span class="chip symptom">{t(lang, "from_symptom")}</span> });
    let remove = (!m.read_only && symptoms.contains(&f.id)).then(|| {
        let (ctx, id) = (m.ctx, f.id.clone());
        view! {
            <button type="button" class="icon" data-action="remove-symptom" aria-label=t(lang, "remove_symptom")
                title=t(lang, "remove_symptom") on:click=move |_| ctx.drop_symptom(&id)>"×"</button>
        }
    });
    view! {
        <article class=format!("finding sev-{sev}") id=format!("f-{}", f.id) data-rule-id=f.id.clone() data-severity=sev
            data-from-symptom=f.from_symptom.then_some("")>
            <header class="finding-head">
                <span class=format!("badge sev-{sev}")><span aria-hidden="true">{severity_mark(f.severity)}" "</span>{severity_label(f.severity, lang)}</span>
                <h3 class="finding-title">{f.title.get(lang).to_string()}</h3>
                {symptom}
                <code class="rule-id" title=t(lang, "rule_id")>{f.id.clone()}</code>
                {remove}
            </header>
            <p class="summary">{inline_code(f.summary.get(lang))}</p>
            {explained}
            {evidence}
            {steps}
            {fixes}
        </article>
    }
}

fn unexplained_view(m: Mode, report: &Report) -> Option<impl IntoView> {
    if report.unexplained.is_empty() {
        return None;
    }
    let lang = m.lang;
    let items = report
        .unexplained
        .iter()
        .map(|g| {
            view! {
                <li>
                    {line_no(m, g.first.input, g.first.line)}
                    {line_text(m, &g.first.text)}
                    <span class="count" data-count=g.count.to_string()>{tf(lang, "n_times", &[("n", &g.count.to_string())])}</span>
                </li>
            }
        })
        .collect_view();
    Some(view! {
        <section class="unexplained" data-unexplained="">
            <h3>{label("unexplained", lang)}</h3>
            <p class="help">{t(lang, "unexplained_help")}</p>
            <ol class="lines">{items}</ol>
        </section>
    })
}

fn useful_commands() -> impl IntoView {
    let items = USEFUL_COMMANDS.iter().map(|c| view! { <li><code>{*c}</code></li> }).collect_view();
    view! { <ul class="cmds">{items}</ul> }
}

/// "Start from a symptom": the catalogue's rules by area.
fn symptom_picker(ctx: Ctx, lang: Lang) -> impl IntoView {
    let other = if lang == Lang::Zh { Lang::En } else { Lang::Zh };
    let groups = grouped()
        .into_iter()
        .map(|(g, rules)| {
            let items = rules
                .into_iter()
                .map(|r| {
                    let id = r.id.clone();
                    view! {
                        <li>
                            <button type="button" class="sym" data-symptom=r.id.clone() on:click=move |_| ctx.pick_symptom(&id)>
                                <span class="sym-title">{r.title.get(lang).to_string()}</span>
                                <span class="sym-alt" lang=crate::i18n::html_lang(other)>{r.title.get(other).to_string()}</span>
                            </button>
                        </li>
                    }
                })
                .collect_view();
            let n = format!(" ({})", items.len());
            view! {
                <details class="sym-group" data-group=area_code(g)>
                    <summary>{t(lang, area_key(g))}<span class="n">{n}</span></summary>
                    <ul class="sym-list">{items}</ul>
                </details>
            }
        })
        .collect_view();
    view! {
        <section class="symptoms" data-symptoms="">
            <h2>{t(lang, "symptoms_title")}</h2>
            <p class="help">{t(lang, "symptoms_help")}</p>
            {groups}
        </section>
    }
}

fn hint_view(ctx: Ctx, lang: Lang) -> impl IntoView {
    view! {
        <div class="hint" data-hint="">
            <h2>{t(lang, "hint_title")}</h2>
            <ol>
                <li>{t(lang, "hint_1")}</li>
                <li>{t(lang, "hint_2")}</li>
                <li>{t(lang, "hint_3")}</li>
            </ol>
            <p>{t(lang, "hint_commands")}</p>
            {useful_commands()}
        </div>
        {symptom_picker(ctx, lang)}
    }
}

/// The share panel: the link, its length, the opt-in for excerpts, what it
/// carries and the replacements that stay here.
fn share_panel(ctx: Ctx, lang: Lang) -> impl IntoView {
    move || {
        let out = ctx.share_out.get()?;
        let url = out.url.clone();
        let len = url.chars().count();
        let mapping = if out.mapping.is_empty() {
            view! { <p class="help" data-mapping-empty="">{t(lang, "mapping_empty")}</p> }.into_any()
        } else {
            let rows = out
                .mapping
                .iter()
                .map(|m| {
                    let kind = serde_json::to_value(m.kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
                    view! { <tr><td>{kind}</td><td><code>{m.placeholder.clone()}</code></td><td><code>{m.original.clone()}</code></td></tr> }
                })
                .collect_view();
            view! {
                <table class="mapping">
                    <thead><tr><th>{t(lang, "mapping_kind")}</th><th>{t(lang, "mapping_placeholder")}</th><th>{t(lang, "mapping_original")}</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            }
            .into_any()
        };
        let on_toggle = move |ev: leptos::ev::Event| {
            ctx.excerpts.set(event_target_checked(&ev));
            ctx.make_share();
        };
        let copy_url = url.clone();
        Some(view! {
            <section class="share" id="share" data-share="">
                <h3>{t(lang, "share_title")}</h3>
                <p class="help">{t(lang, "share_help")}</p>
                <label class="check">
                    <input type="checkbox" data-action="excerpts" prop:checked=ctx.excerpts.get_untracked() on:change=on_toggle />
                    {t(lang, "share_excerpts")}
                </label>
                <div class="share-row">
                    <input type="text" class="share-url" readonly=true aria-label=t(lang, "share_url_aria") value=url
                        on:focus=move |ev| {
                            if let Some(el) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok()) {
                                el.select();
                            }
                        } />
                    {copy_button(move || copy_url.clone(), lang, "copy_link", "copy-link")}
                </div>
                <p class="share-len" data-len=len.to_string()>{tf(lang, "share_len", &[("n", &len.to_string())])}</p>
                <details class="preview">
                    <summary>{t(lang, "share_preview")}</summary>
                    <pre class="payload"><code>{out.json.clone()}</code></pre>
                </details>
                <details class="preview" open=true>
                    <summary>{t(lang, "mapping_title")}</summary>
                    {mapping}
                </details>
            </section>
        })
    }
}

fn count_text(lang: Lang, n: usize, one: &'static str, many: &'static str) -> String {
    if n == 1 {
        t(lang, one).to_string()
    } else {
        tf(lang, many, &[("n", &n.to_string())])
    }
}

/// Status line, findings, unexplained lines, for a local or shared report.
fn report_view(m: Mode, report: &Report, stats: Option<String>) -> impl IntoView {
    let lang = m.lang;
    let n = report.findings.len();
    let count_of = |n: usize, one: &'static str, many: &'static str| count_text(lang, n, one, many);
    let count = count_of(n, "findings_one", "findings_many");
    let md = {
        let r = report.clone();
        move || render::markdown(&r, lang)
    };
    let share_btn = (!m.read_only).then(|| {
        let ctx = m.ctx;
        view! {
            <button type="button" data-action="share" on:click=move |_| {
                ctx.make_share();
                request_animation_frame(|| {
                    if let Some(el) = crate::web::document().and_then(|d| d.get_element_by_id("share")) {
                        el.scroll_into_view();
                    }
                });
            }>{t(lang, "share")}</button>
        }
    });
    let symptoms = if m.read_only { Vec::new() } else { m.ctx.session.with_untracked(|s| s.symptoms.clone()) };
    let body = if n == 0 {
        view! {
            <div class="empty" data-empty="">
                <p class="empty-title">{label("no_findings", lang)}</p>
                <p>{t(lang, "empty_next")}</p>
                {useful_commands()}
            </div>
        }
        .into_any()
    } else {
        report.findings.iter().map(|f| finding_view(m, f, report, &symptoms)).collect_view().into_any()
    };
    let stats = stats.map(|s| view! { <span class="stats">{s}</span> });
    view! {
        <div class="status" data-count=n.to_string()>
            <span class="count" role="status">{count}</span>
            {stats}
            <div class="actions">
                {copy_button(md, lang, "markdown", "markdown")}
                {share_btn}
            </div>
        </div>
        {body}
        {unexplained_view(m, report)}
    }
}

fn shared_view(ctx: Ctx, s: &SharedView, lang: Lang) -> impl IntoView {
    let m = Mode { ctx, lang, read_only: true };
    let changed = s.rules_changed.then(|| view! { <p>{tf(lang, "shared_rules_changed", &[("v", &s.rules)])}</p> });
    let missing = (!s.missing.is_empty()).then(|| {
        view! { <p data-missing="">{tf(lang, "shared_missing", &[("ids", &s.missing.join(", "))])}</p> }
    });
    let no_text = (!s.excerpts).then(|| view! { <p class="help">{t(lang, "shared_no_text")}</p> });
    view! {
        <div class="banner shared-banner" data-shared="">
            <p><strong>{t(lang, "shared_banner")}</strong></p>
            {changed}
            {missing}
            {no_text}
            <button type="button" data-action="close-shared" on:click=move |_| ctx.close_shared()>{t(lang, "shared_close")}</button>
        </div>
        {report_view(m, &s.report, None)}
        <p class="version">{tf(lang, "rules_version", &[("v", &s.report.rules_version)])}</p>
    }
}

/// The right column.
pub fn results(ctx: Ctx, lang: Lang) -> AnyView {
    if let Some(view) = ctx.shared.with(|s| s.as_ref().map(|s| shared_view(ctx, s, lang).into_any())) {
        return view;
    }
    ctx.diagnosis.with(|d| match d {
        None => hint_view(ctx, lang).into_any(),
        Some(d) => {
            let m = Mode { ctx, lang, read_only: false };
            let r = &d.report;
            let stats = [
                count_text(lang, d.lines, "n_line", "n_lines"),
                count_text(lang, r.segments.len(), "n_part", "n_parts"),
                tf(lang, "n_ms", &[("n", &format!("{:.0}", d.ms))]),
            ]
            .join(" · ");
            let picker = r.findings.is_empty().then(|| symptom_picker(ctx, lang));
            view! {
                {report_view(m, r, Some(stats))}
                {picker}
                {share_panel(ctx, lang)}
                <p class="version">{tf(lang, "rules_version", &[("v", &r.rules_version)])}</p>
            }
            .into_any()
        }
    })
}

/// A share link that could not be opened.
pub fn link_error_view(ctx: Ctx, lang: Lang) -> Option<impl IntoView> {
    let e = ctx.link_error.get()?;
    let why = match e {
        ShareError::FutureVersion(v) => tf(lang, "link_err_future", &[("v", &v.to_string())]),
        ShareError::TooLarge => t(lang, "link_err_too_large").to_string(),
        ShareError::NotALink => t(lang, "link_err_not_link").to_string(),
        _ => t(lang, "link_err_corrupt").to_string(),
    };
    Some(view! {
        <div class="banner link-error" role="alert" data-link-error="">
            <p><strong>{t(lang, "link_err_title")}</strong>" "{why}</p>
            <p>{t(lang, "link_err_kept")}</p>
            <button type="button" data-action="dismiss-link-error" on:click=move |_| ctx.dismiss_link_error()>{t(lang, "dismiss")}</button>
        </div>
    })
}

/// Every line of input `idx` some part of the report points at.
fn evidence_lines_of(report: &Report, idx: usize) -> HashSet<u32> {
    let mine = |e: &EvidenceLine| e.input.unwrap_or(0) == idx;
    let mut out = HashSet::new();
    for f in &report.findings {
        out.extend(f.evidence.iter().filter(|e| mine(e)).map(|e| e.line));
        for s in &f.steps {
            out.extend(s.evidence.iter().filter(|e| mine(e)).map(|e| e.line));
        }
    }
    for g in &report.unexplained {
        if mine(&g.first) {
            out.extend(g.lines.iter().copied());
        }
    }
    out
}

/// The read-only log view: the input with line numbers, the target line
/// highlighted and scrolled to, other evidence lines marked.
pub fn log_view(ctx: Ctx, target: LogTarget, lang: Lang) -> Option<impl IntoView> {
    let slot = ctx.slot(target.slot)?;
    let marked = ctx.diagnosis.with_untracked(|d| {
        d.as_ref()
            .and_then(|d| d.slots.iter().position(|s| *s == target.slot).map(|i| evidence_lines_of(&d.report, i)))
            .unwrap_or_default()
    });
    let want = target.line.max(1) as usize;
    let from = want.saturating_sub(LOG_CONTEXT).max(1);
    let (rows, total) = slot.text.with_value(|text| {
        let total = text.split('\n').count();
        let rows: Vec<(usize, String)> = text
            .split('\n')
            .enumerate()
            .skip(from - 1)
            .take(2 * LOG_CONTEXT + 1)
            .map(|(i, l)| (i + 1, l.trim_end_matches('\r').to_string()))
            .collect();
        (rows, total)
    });
    let to = rows.last().map(|(n, _)| *n).unwrap_or(from);
    let items = rows
        .into_iter()
        .map(|(n, text)| {
            let class = if n == want {
                "hl"
            } else if marked.contains(&(n as u32)) {
                "ev"
            } else {
                ""
            };
            view! { <li class=class data-line=n.to_string()><span class="ln">{n.to_string()}</span><code class="lt">{text}</code></li> }
        })
        .collect_view();
    let name = ctx.input_name(target.slot, lang);
    let title = tf(lang, "log_title", &[("input", &name), ("n", &want.to_string())]);
    let window = tf(lang, "log_window", &[("a", &from.to_string()), ("b", &to.to_string()), ("n", &total.to_string())]);
    let close = move || ctx.close_log();
    Some(view! {
        <div class="overlay" data-logview="" on:click=move |ev: leptos::ev::MouseEvent| {
            let on_backdrop = ev.target().zip(ev.current_target()).is_some_and(|(a, b)| a == b);
            if on_backdrop { close() }
        }>
            <div class="logview" role="dialog" aria-modal="true" aria-labelledby="logview-title">
                <header class="logview-head">
                    <h2 id="logview-title">{title}</h2>
                    <span class="window">{window}</span>
                    <button type="button" data-action="close-log" on:click=move |_| close()>{t(lang, "close")}</button>
                </header>
                <ol class="log-lines" tabindex="0" aria-labelledby="logview-title">{items}</ol>
            </div>
        </div>
    })
}
