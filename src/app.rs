//! The page (wasm32 only): the layout, the right column's report, and the
//! page-wide events (address fragment, dropped files, keys). State is in
//! [`crate::state`], what the user does in [`crate::actions`], the engine
//! behind [`crate::engine`].

use crate::actions::{apply_lang, load_lang};
use crate::i18n::{count, t, tf, Lang, S};
use crate::panels;
use crate::report::{cluster_view, count_text, findings_list, unexplained_view, Mode};
use crate::state::Ctx;
use crate::web;
use leptos::prelude::*;
use roll_doctor_engine::render::label;
use wasm_bindgen::JsValue;

pub use crate::actions::{install_panic_hook, EXAMPLE};
pub use crate::state::{INPUTS_KEY, LANG_KEY};

/// The status line: how many findings, what was read, Markdown and Share.
fn status_bar(ctx: Ctx, report: Memo<Option<(crate::model::ReportView, bool)>>) -> impl IntoView {
    move || {
        let lang = ctx.lang.get();
        let (n, read_only, nparts) =
            report.with(|r| r.as_ref().map(|(r, ro)| (r.findings.len(), *ro, r.segments.len())))?;
        let d = if read_only { None } else { ctx.diagnosis.get_untracked() };
        let stats = d.as_ref().map(|d| {
            [
                count(lang, d.lines as usize, S::NLine, S::NLines),
                count(lang, nparts, S::NPart, S::NParts),
                tf(lang, S::NMs, &[("n", &format!("{:.0}", d.engine_ms + d.read_ms))]),
            ]
            .join(" · ")
        });
        let (engine_ms, read_ms, bytes, memory) =
            d.map(|d| (d.engine_ms, d.read_ms, d.bytes, d.memory_bytes)).unwrap_or_default();
        let share_btn = (!read_only).then(|| {
            view! { <button type="button" data-action="share" on:click=move |_| ctx.make_share()>{t(lang, S::Share)}</button> }
        });
        let md_label = move || match ctx.md_copy.get() {
            web::CopyState::Idle => t(lang, S::Markdown),
            web::CopyState::Copied => t(lang, S::Copied),
            web::CopyState::Failed => t(lang, S::CopyFailed),
        };
        Some(view! {
            <div class="status" data-count=n.to_string() data-engine-ms=format!("{engine_ms:.1}")
                data-read-ms=format!("{read_ms:.1}") data-bytes=bytes.to_string() data-memory=format!("{memory:.0}")>
                <span class="count" role="status" tabindex="-1">{count_text(lang, n)}</span>
                {stats.map(|s| view! { <span class="stats">{s}</span> })}
                <div class="actions">
                    <button type="button" class="copy" data-action="markdown" data-state=move || ctx.md_copy.get().code()
                        aria-live="polite" on:click=move |_| ctx.copy_markdown()>{md_label}</button>
                    {share_btn}
                </div>
            </div>
        })
    }
}

fn shared_banner(ctx: Ctx) -> impl IntoView {
    move || {
        let lang = ctx.lang.get();
        let s = ctx.shared.get()?;
        let changed = s.rules_changed.then(|| view! { <p>{tf(lang, S::SharedRulesChanged, &[("v", &s.rules)])}</p> });
        let missing = (!s.missing.is_empty())
            .then(|| view! { <p data-missing="">{tf(lang, S::SharedMissing, &[("ids", &s.missing.join(", "))])}</p> });
        let no_text = (!s.excerpts).then(|| view! { <p class="help">{t(lang, S::SharedNoText)}</p> });
        Some(view! {
            <div class="banner shared-banner" data-shared="">
                <p><strong>{t(lang, S::SharedBanner)}</strong></p>
                {changed}
                {missing}
                {no_text}
                <button type="button" data-action="close-shared" on:click=move |_| {
                    ctx.close_shared();
                    ctx.focus_first_input();
                }>{t(lang, S::SharedClose)}</button>
            </div>
        })
    }
}

/// The right column: a shared diagnosis, the local one, or the start hint.
fn results(ctx: Ctx) -> impl IntoView {
    let report = Memo::new(move |_| {
        if let Some(s) = ctx.shared.get() {
            return Some((s.report, true));
        }
        ctx.diagnosis.get().map(|d| (d.report, false))
    });
    let hint = move || report.with(|r| r.is_none()).then(|| panels::hint_view(ctx));
    let empty = move || {
        let lang = ctx.lang.get();
        report.with(|r| r.as_ref().is_some_and(|(r, _)| r.findings.is_empty())).then(|| {
            view! {
                <div class="empty" data-empty="">
                    <p class="empty-title">{label("no_findings", lang)}</p>
                    <p>{t(lang, S::EmptyNext)}</p>
                    {panels::useful_commands()}
                </div>
            }
        })
    };
    let unexplained = move || {
        let lang = ctx.lang.get();
        report.with(|r| {
            let (r, read_only) = r.as_ref()?;
            unexplained_view(Mode { ctx, lang, read_only: *read_only }, &r.unexplained, r.unexplained_omitted)
                .map(|v| v.into_any())
        })
    };
    let cluster = move || {
        let lang = ctx.lang.get();
        report.with(|r| {
            let (r, read_only) = r.as_ref()?;
            cluster_view(Mode { ctx, lang, read_only: *read_only }, r.cluster.as_ref()?).map(|v| v.into_any())
        })
    };
    let shell = move || {
        let lang = ctx.lang.get();
        report.with(|r| matches!(r, Some((_, false)))).then(|| panels::shell_errors_view(ctx, lang)).flatten()
    };
    let picker = move || {
        report.with(|r| matches!(r, Some((r, false)) if r.findings.is_empty())).then(|| panels::symptom_picker(ctx))
    };
    let version = move || {
        let lang = ctx.lang.get();
        report.with(|r| {
            r.as_ref()
                .map(|(r, _)| view! { <p class="version">{tf(lang, S::RulesVersion, &[("v", &r.rules_version)])}</p> })
        })
    };
    view! {
        {shared_banner(ctx)}
        {hint}
        {status_bar(ctx, report)}
        {cluster}
        {findings_list(ctx, report)}
        {empty}
        {shell}
        {unexplained}
        {picker}
        {move || report.with(|r| matches!(r, Some((_, false)))).then(|| panels::share_panel(ctx))}
        {version}
    }
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let (lang, chosen) = load_lang();
    let ctx = Ctx::new(lang, chosen);
    ctx.restore();
    ctx.start_engine();
    Effect::new(move |_| apply_lang(ctx.lang.get()));
    web::mark("rd-app-mounted");

    // A link in the address opens once the engine can evaluate it; what
    // was restored is diagnosed at once (the worker queues both).
    let hash = web::location_hash();
    if !hash.is_empty() {
        ctx.open_link(&hash);
    }
    if ctx.has_inputs() {
        ctx.diagnose(None);
    }

    // A link pasted into the address bar of an open page.
    let on_hash = window_event_listener(leptos::ev::hashchange, move |_| ctx.open_link(&web::location_hash()));
    // Files dropped anywhere on the page (also keeps the browser from
    // navigating away to a dropped file).
    let on_over = window_event_listener(leptos::ev::dragover, move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        let files = ev.data_transfer().map(|d| d.types().includes(&JsValue::from_str("Files"), 0)).unwrap_or(false);
        if files && !ctx.dragging.get_untracked() {
            ctx.dragging.set(true);
        }
    });
    let on_leave = window_event_listener(leptos::ev::dragleave, move |ev: web_sys::DragEvent| {
        if ev.related_target().is_none() {
            let _ = ctx.dragging.try_set(false);
        }
    });
    let on_drop = window_event_listener(leptos::ev::drop, move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        let _ = ctx.dragging.try_set(false);
        let files = web::files_of(ev.data_transfer().and_then(|d| d.files()));
        ctx.load_files(files);
    });
    on_cleanup(move || {
        on_hash.remove();
        on_over.remove();
        on_leave.remove();
        on_drop.remove();
        let _ = ctx.engine.try_set_value(None);
    });

    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        if (ev.ctrl_key() || ev.meta_key()) && ev.key() == "Enter" {
            ev.prevent_default();
            ctx.close_shared();
            ctx.diagnose(Some(crate::state::FocusNext::FirstFinding { scroll: true }).filter(|_| web::is_narrow()));
        } else if ev.key() == "Escape" && ctx.log.get_untracked().is_some() {
            ctx.close_log();
        }
    };
    let lang = ctx.lang;
    let lang_button = move |l: Lang, text: &'static str| {
        view! {
            <button type="button" class="lang-btn" data-lang=l.code()
                aria-pressed=move || if lang.get() == l { "true" } else { "false" }
                on:click=move |_| ctx.choose_lang(l)>{text}</button>
        }
    };
    let engine = if ctx.engine_in_worker() { "worker" } else { "page" };

    view! {
        <div class="page" class:dragging=move || ctx.dragging.get() on:keydown=on_keydown data-engine=engine>
            <a class="skip" href="#results" on:click=move |ev: leptos::ev::MouseEvent| {
                ev.prevent_default();
                let _ = web::focus(".results .finding .finding-title", true) || web::focus(".results h2, .results .status .count", true);
            }>{move || t(lang.get(), S::SkipToResults)}</a>
            <header class="top">
                <div class="brand">
                    <h1>"roll-doctor"</h1>
                    <p class="tagline">{move || t(lang.get(), S::Tagline)}</p>
                </div>
                <div class="lang" role="group" aria-label=move || t(lang.get(), S::LangLabel)>
                    {lang_button(Lang::En, "EN")}
                    {lang_button(Lang::Zh, "中文")}
                </div>
            </header>
            {panels::link_error_view(ctx)}
            <main class="layout">
                {crate::inputs::inputs_panel(ctx)}
                <section class="results" id="results" aria-live="polite" aria-busy=move || ctx.busy.get().is_some().to_string()>
                    {results(ctx)}
                </section>
            </main>
            {panels::log_view(ctx)}
            <div class="drop-overlay" aria-hidden="true">{move || t(lang.get(), S::DropHere)}</div>
        </div>
    }
}
