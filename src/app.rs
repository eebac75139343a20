//! The page's components (wasm32 only). Thin: every decision about what is
//! wrong comes from [`roll_doctor_engine::diagnose`]; this module only shows
//! the [`Report`] and moves text between the page and the engine.

use crate::i18n::{html_lang, initial_lang, kind_key, t, tf};
use leptos::prelude::*;
use roll_doctor_engine::render::{label, severity_label};
use roll_doctor_engine::report::{EvidenceLine, Finding, Report, SegmentInfo, StepReport};
use roll_doctor_engine::{diagnose, Lang, Severity, StepState};
use std::time::Duration;
use wasm_bindgen::{closure::Closure, JsCast, JsValue};

/// localStorage key holding the chosen language (`en` / `zh`).
pub const LANG_KEY: &str = "roll-doctor.lang";
/// Pause after the last keystroke before diagnosing.
pub const DEBOUNCE: Duration = Duration::from_millis(300);

/// The paste behind "Load an example": a short terminal transcript where
/// one card's link is down and the plog shows the timeout it causes.
pub const EXAMPLE: &str = "$ for i in {0..7}; do hccn_tool -i $i -link -g; done
link status: UP
link status: UP
link status: DOWN
link status: UP
link status: UP
link status: UP
link status: UP
link status: UP
$ tail -n 2 /root/ascend/log/debug/plog/plog-1292363_20250408180520.log
[ERROR] HCCL(60570,python):2025-04-08-18:07:20.444.436 [socket_manager.cc:200] [1][Wait] wait socket establish timeout, role[1] rank[12] timeout[120]
EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the reason for the rank being stuck
";

/// Commands worth pasting, shown in the initial hint (verbatim, not translated).
const USEFUL_COMMANDS: &[&str] = &[
    "npu-smi info",
    "for i in {0..7}; do hccn_tool -i $i -link -g; done",
    "ulimit -n",
    "ray status",
    "ss -tlnp",
    "pip list | grep -i -E \"torch|vllm|transformers\"",
];

/// A diagnosis and how long it took.
#[derive(Clone, Debug, PartialEq)]
struct Diagnosis {
    report: Report,
    lines: usize,
    ms: f64,
}

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

fn now_ms() -> f64 {
    window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

fn storage() -> Option<web_sys::Storage> {
    // localStorage can throw (disabled cookies, sandboxed frames): treat as absent.
    window().and_then(|w| w.local_storage().ok().flatten())
}

/// The language to start in: the remembered choice, else the browser's.
pub fn load_lang() -> Lang {
    let stored = storage().and_then(|s| s.get_item(LANG_KEY).ok().flatten());
    let browser = window().and_then(|w| w.navigator().language());
    initial_lang(stored.as_deref(), browser.as_deref())
}

fn save_lang(lang: Lang) {
    if let Some(s) = storage() {
        let _ = s.set_item(LANG_KEY, lang.code());
    }
}

/// Sets `<html lang>` and the document title.
fn apply_lang(lang: Lang) {
    if let Some(doc) = window().and_then(|w| w.document()) {
        if let Some(root) = doc.document_element() {
            let _ = root.set_attribute("lang", html_lang(lang));
        }
        doc.set_title(t(lang, "doc_title"));
    }
}

/// Logs panics to the console and shows a bilingual notice, since a panic
/// in wasm leaves the page dead.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&JsValue::from_str(&info.to_string()));
        let Some(doc) = window().and_then(|w| w.document()) else { return };
        let Some(body) = doc.body() else { return };
        if let Ok(div) = doc.create_element("div") {
            div.set_class_name("crash");
            div.set_text_content(Some(
                "roll-doctor hit an internal error; please reload the page and report the input that caused it. \
                 roll-doctor 发生内部错误，请刷新页面，并反馈导致该错误的输入。",
            ));
            let _ = body.prepend_with_node_1(&div);
        }
    }));
}

/// Copy feedback of one button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CopyState {
    Idle,
    Copied,
    Failed,
}

/// Copies `text`: the async Clipboard API when the page has it (secure
/// contexts), else the legacy `execCommand("copy")` on a hidden textarea.
fn copy_text(text: String, state: RwSignal<CopyState>) {
    let settle = move |s: CopyState| {
        let _ = state.try_set(s);
        set_timeout(
            move || {
                let _ = state.try_set(CopyState::Idle);
            },
            Duration::from_millis(1500),
        );
    };
    let Some(win) = window() else { return settle(CopyState::Failed) };
    let nav = win.navigator();
    let has_api =
        js_sys::Reflect::get(&nav, &JsValue::from_str("clipboard")).map(|v| !v.is_undefined()).unwrap_or(false);
    if has_api {
        let promise = nav.clipboard().write_text(&text);
        let ok = Closure::once_into_js(move |_: JsValue| settle(CopyState::Copied));
        let err = Closure::once_into_js(move |_: JsValue| settle(CopyState::Failed));
        let then = js_sys::Reflect::get(&promise, &JsValue::from_str("then"))
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        match then {
            Some(then) => {
                let _ = then.call2(&promise, &ok, &err);
            }
            None => settle(CopyState::Failed),
        }
    } else {
        settle(if legacy_copy(&win, &text) { CopyState::Copied } else { CopyState::Failed });
    }
}

fn legacy_copy(win: &web_sys::Window, text: &str) -> bool {
    let Some(doc) = win.document() else { return false };
    let Some(body) = doc.body() else { return false };
    let Ok(el) = doc.create_element("textarea") else { return false };
    let Ok(area) = el.dyn_into::<web_sys::HtmlTextAreaElement>() else { return false };
    area.set_value(text);
    let _ = area.set_attribute("readonly", "");
    area.set_class_name("offscreen");
    if body.append_child(&area).is_err() {
        return false;
    }
    area.select();
    let ok = doc.dyn_ref::<web_sys::HtmlDocument>().and_then(|d| d.exec_command("copy").ok()).unwrap_or(false);
    area.remove();
    ok
}

/// A `<pre>` block of commands or YAML with a Copy button.
#[component]
fn CodeBlock(code: String, lang: Lang, kind: &'static str) -> impl IntoView {
    let state = RwSignal::new(CopyState::Idle);
    let to_copy = code.clone();
    let on_copy = move |_| copy_text(to_copy.clone(), state);
    let button_label = move || match state.get() {
        CopyState::Idle => t(lang, "copy"),
        CopyState::Copied => t(lang, "copied"),
        CopyState::Failed => t(lang, "copy_failed"),
    };
    view! {
        <div class="code" data-kind=kind>
            <pre><code>{code}</code></pre>
            <button type="button" class="copy" data-copy="" data-state=move || match state.get() {
                CopyState::Idle => "idle",
                CopyState::Copied => "copied",
                CopyState::Failed => "failed",
            } on:click=on_copy>{button_label}</button>
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

fn evidence_list(lines: &[EvidenceLine], lang: Lang) -> impl IntoView {
    let items = lines
        .iter()
        .map(|e| {
            let no = match e.input {
                Some(i) => format!("{}:{}", i + 1, e.line),
                None => e.line.to_string(),
            };
            let title = format!("{} {}", label("line", lang), e.line);
            view! {
                <li><span class="ln" title=title>{no}</span><code class="lt">{e.text.clone()}</code></li>
            }
        })
        .collect_view();
    view! { <ol class="lines">{items}</ol> }
}

fn step_view(step: &StepReport, lang: Lang) -> impl IntoView {
    let answered = step.state == StepState::Answered;
    let state_text = if answered { label("answered", lang) } else { t(lang, "step_ask") };
    let run = step.run.clone().map(|r| view! { <CodeBlock code=r lang=lang kind="shell" /> });
    let evidence = (!step.evidence.is_empty()).then(|| evidence_list(&step.evidence, lang));
    view! {
        <li class="step" data-step-id=step.id.clone() data-state=if answered { "answered" } else { "ask" }>
            <div class="step-head">
                <span class="step-title">{step.title.get(lang).to_string()}</span>
                <span class=if answered { "state answered" } else { "state ask" }>{state_text}</span>
            </div>
            {run}
            <p class="expect"><span class="k">{label("expect", lang)}{t(lang, "colon")}</span>{inline_code(step.expect.get(lang))}</p>
            {evidence}
        </li>
    }
}

fn finding_view(f: &Finding, report: &Report, lang: Lang) -> impl IntoView {
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
                if let Some(el) = window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(&target)) {
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
                {evidence_list(&f.evidence, lang)}
                {more}
            </section>
        }
    });
    let steps = (!f.steps.is_empty()).then(|| {
        let items = f.steps.iter().map(|s| step_view(s, lang)).collect_view();
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
                let cmds = (!fix.commands.is_empty())
                    .then(|| view! { <CodeBlock code=fix.commands.join("\n") lang=lang kind="shell" /> });
                let yaml = fix
                    .yaml
                    .as_ref()
                    .map(|y| view! { <CodeBlock code=y.trim_end().to_string() lang=lang kind="yaml" /> });
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
        <article class=format!("finding sev-{sev}") id=format!("f-{}", f.id) data-rule-id=f.id.clone() data-severity=sev>
            <header class="finding-head">
                <span class=format!("badge sev-{sev}")>{severity_label(f.severity, lang)}</span>
                <h3 class="finding-title">{f.title.get(lang).to_string()}</h3>
                <code class="rule-id" title=t(lang, "rule_id")>{f.id.clone()}</code>
            </header>
            <p class="summary">{inline_code(f.summary.get(lang))}</p>
            {explained}
            {evidence}
            {steps}
            {fixes}
        </article>
    }
}

fn segments_view(segs: &[SegmentInfo], lang: Lang) -> impl IntoView {
    let items = segs
        .iter()
        .map(|s| {
            let a = s.start_line.to_string();
            let range = if s.start_line == s.end_line {
                tf(lang, "seg_line", &[("a", &a)])
            } else {
                tf(lang, "seg_lines", &[("a", &a), ("b", &s.end_line.to_string())])
            };
            let kind = format!("{:?}", s.kind);
            let cmd = s.command.clone().map(|c| view! { <code class="seg-cmd">"$ "{c}</code> });
            view! {
                <li class="seg" data-kind=kind>
                    <span class="seg-kind">{t(lang, kind_key(s.kind))}</span>
                    <span class="seg-range">{range}</span>
                    {cmd}
                </li>
            }
        })
        .collect_view();
    view! {
        <details class="segments" open=true>
            <summary>{t(lang, "segments_title")}</summary>
            <ul class="seg-list">{items}</ul>
        </details>
    }
}

fn useful_commands() -> impl IntoView {
    let items = USEFUL_COMMANDS.iter().map(|c| view! { <li><code>{*c}</code></li> }).collect_view();
    view! { <ul class="cmds">{items}</ul> }
}

fn hint_view(lang: Lang) -> impl IntoView {
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
    }
}

fn results_view(d: &Diagnosis, lang: Lang) -> AnyView {
    let r = &d.report;
    let n = r.findings.len();
    let count_of = |n: usize, one: &'static str, many: &'static str| {
        if n == 1 {
            t(lang, one).to_string()
        } else {
            tf(lang, many, &[("n", &n.to_string())])
        }
    };
    let stats = [
        count_of(d.lines, "n_line", "n_lines"),
        count_of(r.segments.len(), "n_part", "n_parts"),
        tf(lang, "n_ms", &[("n", &format!("{:.0}", d.ms))]),
    ]
    .join(" · ");
    let count = count_of(n, "findings_one", "findings_many");
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
        r.findings.iter().map(|f| finding_view(f, r, lang)).collect_view().into_any()
    };
    view! {
        <div class="status" data-count=n.to_string()>
            <span class="count">{count}</span>
            <span class="stats">{stats}</span>
        </div>
        {body}
        {segments_view(&r.segments, lang)}
        <p class="version">{tf(lang, "rules_version", &[("v", &r.rules_version)])}</p>
    }
    .into_any()
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let lang = RwSignal::new(load_lang());
    Effect::new(move |_| apply_lang(lang.get()));
    let diagnosis: RwSignal<Option<Diagnosis>> = RwSignal::new(None);
    let area = NodeRef::<leptos::html::Textarea>::new();
    let pending: StoredValue<Option<TimeoutHandle>> = StoredValue::new(None);

    let cancel = move || {
        if let Some(Some(h)) = pending.try_get_value() {
            h.clear();
        }
        let _ = pending.try_set_value(None);
    };
    let run = move || {
        cancel();
        let Some(el) = area.try_get_untracked().flatten() else { return };
        let text = el.value();
        if text.trim().is_empty() {
            let _ = diagnosis.try_set(None);
            return;
        }
        let t0 = now_ms();
        let report = diagnose(&text);
        let ms = now_ms() - t0;
        let _ = diagnosis.try_set(Some(Diagnosis { report, lines: text.lines().count(), ms }));
    };
    let schedule = move || {
        cancel();
        let h = set_timeout_with_handle(run, DEBOUNCE).ok();
        let _ = pending.try_set_value(h);
    };
    on_cleanup(cancel);
    // Compile the rule catalogue (regexes) once the page has painted, so the
    // first paste is diagnosed without that delay.
    set_timeout(
        || {
            let _ = roll_doctor_engine::catalogue();
        },
        Duration::from_millis(30),
    );

    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        if (ev.ctrl_key() || ev.meta_key()) && ev.key() == "Enter" {
            ev.prevent_default();
            run();
        }
    };
    let set_text = move |s: &str| {
        if let Some(el) = area.get_untracked() {
            el.set_value(s);
            let _ = el.focus();
        }
        run();
    };
    let switch = move |l: Lang| {
        save_lang(l);
        lang.set(l);
    };
    let lang_button = move |l: Lang, text: &'static str| {
        view! {
            <button type="button" class="lang-btn" data-lang=l.code()
                aria-pressed=move || if lang.get() == l { "true" } else { "false" }
                on:click=move |_| switch(l)>{text}</button>
        }
    };

    view! {
        <div class="page">
            <header class="top">
                <div class="brand">
                    <h1>"roll-doctor"</h1>
                    <p class="tagline">{move || t(lang.get(), "tagline")}</p>
                </div>
                <div class="lang" role="group" aria-label=move || t(lang.get(), "lang_label")>
                    {lang_button(Lang::En, "EN")}
                    {lang_button(Lang::Zh, "中文")}
                </div>
            </header>
            <main class="layout">
                <section class="input">
                    <label for="paste" class="input-label">{move || t(lang.get(), "input_label")}</label>
                    <textarea id="paste" class="paste" node_ref=area spellcheck="false" autocomplete="off"
                        autocapitalize="off" wrap="off"
                        placeholder=move || t(lang.get(), "placeholder")
                        on:input=move |_| schedule()
                        on:keydown=on_keydown></textarea>
                    <div class="toolbar">
                        <button type="button" class="primary" data-action="diagnose" on:click=move |_| run()>
                            {move || t(lang.get(), "diagnose")}
                        </button>
                        <button type="button" data-action="example" on:click=move |_| set_text(EXAMPLE)>
                            {move || t(lang.get(), "example")}
                        </button>
                        <button type="button" data-action="clear" on:click=move |_| set_text("")>
                            {move || t(lang.get(), "clear")}
                        </button>
                    </div>
                    <p class="shortcut">{move || t(lang.get(), "shortcut")}</p>
                    <p class="privacy">{move || t(lang.get(), "privacy")}</p>
                </section>
                <section class="results">
                    {move || {
                        let l = lang.get();
                        diagnosis.with(|d| match d {
                            None => hint_view(l).into_any(),
                            Some(d) => results_view(d, l),
                        })
                    }}
                </section>
            </main>
        </div>
    }
}
