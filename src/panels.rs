//! The parts around the report (wasm32 only): the share panel with its
//! base address and redaction preview, the "open a shared diagnosis" box,
//! the symptom picker, the rule-file panel, failed commands, notices, the
//! banners of a shared diagnosis or a bad link, the offline download and
//! the log view (a dialog that keeps the focus, with search).

use crate::i18n::{area_label, format_size, redact_kind_label, t, tf, Lang, S};
use crate::model::LinkError;
use crate::report::{code_block, copy_button, inline_code};
use crate::state::{Ctx, Notice};
use crate::symptoms::{area_code, grouped};
use crate::web;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Commands worth pasting, shown in the initial hint (verbatim, not translated).
pub const USEFUL_COMMANDS: &[&str] = &[
    "npu-smi info",
    "for i in {0..7}; do hccn_tool -i $i -link -g; done",
    "ulimit -n",
    "ray status",
    "ss -tlnp",
    "pip list | grep -i -E \"torch|vllm|transformers\"",
];

pub fn useful_commands() -> impl IntoView {
    let items = USEFUL_COMMANDS.iter().map(|c| view! { <li><code>{*c}</code></li> }).collect_view();
    view! { <ul class="cmds">{items}</ul> }
}

/// "Start from a symptom": the catalogue's rules by area, filtered by words
/// or an error code.
pub fn symptom_picker(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let groups = move || {
        let l = lang.get();
        let other = if l == Lang::Zh { Lang::En } else { Lang::Zh };
        let filter = ctx.symptom_filter.get();
        let list = ctx.symptoms.get();
        let groups = grouped(&list, &filter);
        if groups.is_empty() && !list.is_empty() {
            return view! { <p class="help" data-symptoms-none="">{t(l, S::SymptomsNone)}</p> }.into_any();
        }
        let open = !filter.trim().is_empty();
        groups
            .into_iter()
            .map(|(g, rules)| {
                let n = format!(" ({})", rules.len());
                let items = rules
                    .into_iter()
                    .map(|r| {
                        let id = r.id.clone();
                        let codes = (!r.codes.is_empty()).then(|| view! { <span class="sym-codes">{r.codes.join(" ")}</span> });
                        view! {
                            <li>
                                <button type="button" class="sym" data-symptom=r.id.clone() on:click=move |_| ctx.pick_symptom(&id)>
                                    <span class="sym-title">{r.title.get(l).to_string()}</span>
                                    <span class="sym-alt" lang=crate::i18n::html_lang(other)>{r.title.get(other).to_string()}</span>
                                    {codes}
                                </button>
                            </li>
                        }
                    })
                    .collect_view();
                view! {
                    <details class="sym-group" data-group=area_code(g) open=open>
                        <summary>{t(l, area_label(g))}<span class="n">{n}</span></summary>
                        <ul class="sym-list">{items}</ul>
                    </details>
                }
            })
            .collect_view()
            .into_any()
    };
    view! {
        <section class="symptoms" data-symptoms="">
            <h2>{move || t(lang.get(), S::SymptomsTitle)}</h2>
            <p class="help">{move || t(lang.get(), S::SymptomsHelp)}</p>
            <input type="search" class="sym-filter" autocomplete="off" spellcheck="false"
                aria-label=move || t(lang.get(), S::SymptomsFilter) placeholder=move || t(lang.get(), S::SymptomsFilter)
                prop:value=move || ctx.symptom_filter.get()
                on:input=move |ev| ctx.symptom_filter.set(event_target_value(&ev)) />
            {groups}
        </section>
    }
}

pub fn hint_view(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    view! {
        <div class="hint" data-hint="">
            <h2>{move || t(lang.get(), S::HintTitle)}</h2>
            <ol>
                <li>{move || t(lang.get(), S::Hint1)}</li>
                <li>{move || t(lang.get(), S::Hint2)}</li>
                <li>{move || t(lang.get(), S::Hint3)}</li>
            </ol>
            <p>{move || t(lang.get(), S::HintCommands)}</p>
            {useful_commands()}
        </div>
        {symptom_picker(ctx)}
    }
}

/// The share panel: the base address, the link, its length, the opt-in for
/// excerpts, what it carries and every replacement made (which stays here).
pub fn share_panel(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    move || {
        let out = ctx.share_out.get()?;
        let lang = lang.get();
        let url = out.url.clone();
        let len = url.chars().count();
        let mapping = if out.mapping.is_empty() {
            view! { <p class="help" data-mapping-empty="">{t(lang, S::MappingEmpty)}</p> }.into_any()
        } else {
            let rows = out
                .mapping
                .iter()
                .map(|m| {
                    view! {
                        <tr data-kind=m.kind.clone()>
                            <td>{t(lang, redact_kind_label(&m.kind))}</td>
                            <td><code>{m.placeholder.clone()}</code></td>
                            <td><code>{m.original.clone()}</code></td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <div class="table-wrap"><table class="mapping">
                    <thead><tr><th>{t(lang, S::MappingKind)}</th><th>{t(lang, S::MappingPlaceholder)}</th><th>{t(lang, S::MappingOriginal)}</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table></div>
            }
            .into_any()
        };
        let on_toggle = move |ev: leptos::ev::Event| {
            ctx.excerpts.set(event_target_checked(&ev));
            ctx.make_share();
        };
        let copy_url = url.clone();
        let bare = out.bare.then(|| view! { <p class="help" data-bare="">{t(lang, S::ShareBareCode)}</p> });
        let base = ctx.share_base.get_untracked();
        let bad_base = (!base.is_empty() && !base.starts_with("http://") && !base.starts_with("https://"))
            .then(|| view! { <p class="note">{t(lang, S::ShareBaseBad)}</p> });
        Some(view! {
            <section class="share" id="share" data-share="" aria-labelledby="share-title">
                <h3 id="share-title">{t(lang, S::ShareTitle)}</h3>
                <p class="help">{t(lang, S::ShareHelp)}</p>
                <label class="check">
                    <input type="checkbox" data-action="excerpts" prop:checked=ctx.excerpts.get_untracked() on:change=on_toggle />
                    {t(lang, S::ShareExcerpts)}
                </label>
                <div class="share-row">
                    <input type="text" class="share-url" readonly=true aria-label=t(lang, S::ShareUrlAria) value=url
                        on:focus=move |ev| {
                            if let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                                el.select();
                            }
                        } />
                    {copy_button(move || copy_url.clone(), lang, S::CopyLink, "copy-link")}
                </div>
                <p class="share-len" data-len=len.to_string()>{tf(lang, S::ShareLen, &[("n", &len.to_string())])}</p>
                {bare}
                <div class="share-base">
                    <label for="share-base">{t(lang, S::ShareBase)}</label>
                    <input id="share-base" type="url" autocomplete="off" spellcheck="false" placeholder=t(lang, S::ShareBasePh)
                        value=base on:change=move |ev| ctx.set_share_base(&event_target_value(&ev)) />
                    <p class="help">{t(lang, S::ShareBaseHelp)}</p>
                    {bad_base}
                </div>
                <details class="preview">
                    <summary>{t(lang, S::SharePreview)}</summary>
                    <pre class="payload"><code>{out.json.clone()}</code></pre>
                </details>
                <details class="preview" open=true data-mapping="">
                    <summary>{tf(lang, S::MappingTitle, &[("n", &out.mapping.len().to_string())])}</summary>
                    {mapping}
                </details>
            </section>
        })
    }
}

/// "Open a shared diagnosis": a pasted link or bare code.
pub fn open_shared_box(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let field = NodeRef::<leptos::html::Input>::new();
    let go = move || {
        if let Some(el) = field.get_untracked() {
            ctx.open_link(&el.value());
        }
    };
    let go2 = go;
    view! {
        <details class="open-shared" data-open-shared="">
            <summary>{move || t(lang.get(), S::OpenShared)}</summary>
            <p class="help">{move || t(lang.get(), S::OpenSharedHelp)}</p>
            <div class="share-row">
                <input type="text" class="open-link" node_ref=field autocomplete="off" spellcheck="false"
                    aria-label=move || t(lang.get(), S::OpenShared) placeholder=move || t(lang.get(), S::OpenSharedPh)
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Enter" { ev.prevent_default(); go2(); } />
                <button type="button" data-action="open-link" on:click=move |_| go()>{move || t(lang.get(), S::OpenSharedGo)}</button>
            </div>
        </details>
    }
}

/// The offline download, offered where the page came over http(s).
pub fn offline_box(ctx: Ctx) -> Option<impl IntoView> {
    let served = web::page_address().starts_with("http");
    let available = web::global_string("rdWorkerSource").is_some();
    (served && available).then(|| {
        let lang = ctx.lang;
        view! {
            <p class="offline">
                <button type="button" class="link" data-action="download-offline" on:click=move |_| ctx.download_offline()>
                    {move || t(lang.get(), S::Offline)}
                </button>
                " "<span class="help">{move || t(lang.get(), S::OfflineHelp)}</span>
            </p>
        }
    })
}

/// How to run the collectors (verbatim commands, not translated).
pub const SHELL_RUN: &str = "sh roll-doctor-collect.sh -o \"$(hostname).txt\"\n\
for h in node1 node2 node3; do ssh $h sh -s < roll-doctor-collect.sh; done > bundle.txt";
pub const RAY_RUN: &str = "python3 roll-doctor-ray-collect.py --expect 4 -o bundle.txt";

/// The collectors the engine embeds: what they are, how to run them, the
/// script to copy and to download (a Blob: no request).
pub fn collector_panel(ctx: Ctx) -> impl IntoView {
    use roll_doctor_engine::collector::{RAY, RAY_NAME, SHELL, SHELL_NAME};
    let part =
        move |lang: Lang, kind: &'static str, help: S, run: &'static str, name: &'static str, script: &'static str| {
            view! {
                <div class="collector-part" data-collector-kind=kind>
                    <p>{inline_code(t(lang, help))}</p>
                    {code_block(run.to_string(), lang, "shell")}
                    <p class="collector-actions">
                        {copy_button(move || script.to_string(), lang, S::CopyScript, "copy-script")}
                        <button type="button" data-action="download-script" data-name=name
                            on:click=move |_| { web::download(name, script, "text/plain;charset=utf-8"); }>
                            {tf(lang, S::DownloadScript, &[("name", name)])}
                        </button>
                    </p>
                </div>
            }
        };
    view! {
        <details class="collector" data-collector="">
            <summary>{move || t(ctx.lang.get(), S::CollectorTitle)}</summary>
            {move || {
                let l = ctx.lang.get();
                view! {
                    <p class="help">{inline_code(t(l, S::CollectorHelp))}</p>
                    {part(l, "shell", S::CollectorShell, SHELL_RUN, SHELL_NAME, SHELL)}
                    {part(l, "ray", S::CollectorRay, RAY_RUN, RAY_NAME, RAY)}
                }
            }}
        </details>
    }
}

/// Extra rule files: a drop zone and picker, what is in use, what failed.
pub fn rules_panel(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let picker = NodeRef::<leptos::html::Input>::new();
    let over = RwSignal::new(false);
    let on_pick = move |_| {
        let Some(el) = picker.get_untracked() else { return };
        let files = crate::web::files_of(el.files());
        el.set_value("");
        ctx.add_rule_files(files);
    };
    let state = move || {
        let l = lang.get();
        let r = ctx.rules.get();
        let files = r
            .files
            .iter()
            .map(|(name, text)| {
                let n = name.clone();
                let aria = tf(l, S::RulesRemove, &[("name", name)]);
                view! {
                    <li data-rule-file=name.clone()>
                        <code>{name.clone()}</code>" "<span class="help">{format_size(text.len() as u64)}</span>
                        <button type="button" class="icon" data-action="remove-rule-file" aria-label=aria.clone() title=aria
                            on:click=move |_| ctx.remove_rule_file(&n)>"×"</button>
                    </li>
                }
            })
            .collect_view();
        let in_use = (!r.extra.is_empty())
            .then(|| view! { <p class="rules-ok" data-rules-ok="">{tf(l, S::RulesInUse, &[("ids", &r.extra.join(", "))])}</p> });
        let errors = (!r.errors.is_empty()).then(|| {
            let items = r.errors.iter().map(|e| view! { <li><code>{e.clone()}</code></li> }).collect_view();
            view! {
                <div class="rules-errors" role="alert" data-rules-errors="">
                    <p>{t(l, S::RulesErrors)}</p>
                    <ul>{items}</ul>
                </div>
            }
        });
        let unsaved = (!r.saved).then(|| view! { <p class="note">{t(l, S::RulesNotSaved)}</p> });
        let kb = r
            .kb
            .iter()
            .map(|k| match &k.error {
                None => view! {
                    <p class="rules-ok" data-kb-status=k.name.clone() data-kb-used=k.used.to_string()
                        data-kb-skipped=k.skipped.to_string()>
                        {tf(l, S::KbLoaded, &[("name", &k.name), ("used", &k.used.to_string()), ("skipped", &k.skipped.to_string())])}
                    </p>
                }
                .into_any(),
                Some(e) => view! {
                    <p class="rules-errors" role="alert" data-kb-status=k.name.clone() data-kb-error="">
                        {tf(l, S::KbFailed, &[("name", &k.name), ("error", e)])}
                    </p>
                }
                .into_any(),
            })
            .collect_view();
        view! { <ul class="rule-files">{files}</ul>{kb}{in_use}{errors}{unsaved} }
    };
    let open = move || !ctx.rules.with(|r| r.files.is_empty());
    view! {
        <details class="rules" data-rules="" open=open>
            <summary>{move || t(lang.get(), S::RulesTitle)}</summary>
            <p class="help">{move || t(lang.get(), S::RulesHelp)}</p>
            <p class="help">{move || inline_code(t(lang.get(), S::KbHelp))}</p>
            <div class="rules-drop" class:over=move || over.get() data-rules-drop=""
                on:dragover=move |ev: leptos::ev::DragEvent| { ev.prevent_default(); ev.stop_propagation(); over.set(true); }
                on:dragleave=move |_| over.set(false)
                on:drop=move |ev: leptos::ev::DragEvent| {
                    ev.prevent_default();
                    ev.stop_propagation();
                    over.set(false);
                    let _ = ctx.dragging.try_set(false);
                    let files = crate::web::files_of(ev.data_transfer().and_then(|d| d.files()));
                    ctx.add_rule_files(files);
                }>
                <span>{move || t(lang.get(), S::RulesDrop)}</span>
                <button type="button" data-action="pick-rules" on:click=move |_| {
                    if let Some(el) = picker.get_untracked() { el.click(); }
                }>{move || t(lang.get(), S::RulesPick)}</button>
            </div>
            <input type="file" multiple=true accept=".yaml,.yml,.json" class="offscreen" tabindex="-1" aria-hidden="true"
                node_ref=picker on:change=on_pick data-rules-input="" />
            {state}
        </details>
    }
}

/// Parts of the input that are a failed command, with what to do instead.
pub fn shell_errors_view(ctx: Ctx, lang: Lang) -> Option<impl IntoView> {
    let errs = ctx.diagnosis.with(|d| d.as_ref().map(|d| d.shell_errors.clone()))?;
    if errs.is_empty() {
        return None;
    }
    let items = errs
        .into_iter()
        .map(|e| {
            let (slot, line) = (e.slot, e.line);
            let hint = match &e.command {
                Some(c) => tf(lang, S::ShellErrHintCmd, &[("cmd", c)]),
                None => t(lang, S::ShellErrHint).to_string(),
            };
            let name = format!("{}:{line}", ctx.input_name(slot, lang));
            view! {
                <li data-shell-error="">
                    <button type="button" class="ln" on:click=move |_| ctx.show_slot_line(slot, line)>{name}</button>
                    <code class="lt">{e.text.clone()}</code>
                    <p class="help">{inline_code(&hint)}</p>
                </li>
            }
        })
        .collect_view();
    Some(view! {
        <section class="shell-errors" data-shell-errors="">
            <h3>{t(lang, S::ShellErrTitle)}</h3>
            <ul class="lines">{items}</ul>
        </section>
    })
}

/// Cancelled, failed, cleared (with Undo).
pub fn notice_view(ctx: Ctx) -> impl IntoView {
    move || {
        let l = ctx.lang.get();
        let n = ctx.notice.get()?;
        let (text, undo) = match n {
            Notice::Cancelled(name) => (tf(l, S::Cancelled, &[("name", &name)]), false),
            Notice::ReadFailed(name) => (tf(l, S::ReadFailed, &[("name", &name)]), false),
            Notice::EngineFailed => (t(l, S::EngineFailed).to_string(), false),
            Notice::Cleared => (t(l, S::Cleared).to_string(), true),
        };
        let undo = undo.then(|| {
            view! { <button type="button" data-action="undo-clear" on:click=move |_| ctx.undo_clear()>{t(l, S::Undo)}</button> }
        });
        let dismiss = view! {
            <button type="button" class="icon" data-action="dismiss-notice" aria-label=t(l, S::Dismiss) title=t(l, S::Dismiss)
                on:click=move |_| ctx.notice.set(None)>"×"</button>
        };
        Some(view! { <div class="note notice" role="status" data-notice="">{text}" "{undo}{dismiss}</div> })
    }
}

/// Reading / diagnosing a large input: progress and Cancel.
pub fn progress_view(ctx: Ctx) -> impl IntoView {
    move || {
        let l = ctx.lang.get();
        let b = ctx.busy.get().filter(|b| b.big)?;
        let (pct, text) = match b.phase {
            crate::model::Phase::Reading => {
                let pct = if b.total > 0.0 { (b.done / b.total * 100.0).round() as u32 } else { 0 };
                (Some(pct), tf(l, S::ReadingFile, &[("name", &b.name), ("pct", &pct.to_string())]))
            }
            crate::model::Phase::Diagnosing => {
                (None, tf(l, S::DiagnosingFile, &[("name", &b.name), ("size", &format_size(b.total as u64))]))
            }
        };
        let bar = match pct {
            Some(p) => view! { <progress max="100" value=p.to_string()></progress> }.into_any(),
            None => view! { <progress></progress> }.into_any(),
        };
        let aria = tf(l, S::CancelAria, &[("name", &b.name)]);
        Some(view! {
            <div class="progress" role="status" data-progress="" data-phase=format!("{:?}", b.phase)>
                {bar}
                <span>{text}</span>
                <button type="button" data-action="cancel" aria-label=aria on:click=move |_| ctx.cancel_work()>{t(l, S::Cancel)}</button>
            </div>
        })
    }
}

/// A share link that could not be opened.
pub fn link_error_view(ctx: Ctx) -> impl IntoView {
    move || {
        let lang = ctx.lang.get();
        let e = ctx.link_error.get()?;
        let why = match e {
            LinkError::Future(v) => tf(lang, S::LinkErrFuture, &[("v", &v.to_string())]),
            LinkError::TooLarge => t(lang, S::LinkErrTooLarge).to_string(),
            LinkError::NotALink => t(lang, S::LinkErrNotLink).to_string(),
            LinkError::Corrupt => t(lang, S::LinkErrCorrupt).to_string(),
        };
        Some(view! {
            <div class="banner link-error" role="alert" data-link-error="">
                <p><strong>{t(lang, S::LinkErrTitle)}</strong>" "{why}</p>
                <p>{t(lang, S::LinkErrKept)}</p>
                <button type="button" data-action="dismiss-link-error" on:click=move |_| ctx.dismiss_link_error()>{t(lang, S::Dismiss)}</button>
            </div>
        })
    }
}

/// The log view: a window of an input's lines around the target line,
/// the target highlighted, a search over the whole input; a modal dialog
/// that keeps the focus inside until it is closed.
pub fn log_view(ctx: Ctx) -> impl IntoView {
    move || {
        let lang = ctx.lang.get();
        let v = ctx.log.get()?;
        let marked = ctx.diagnosis.with_untracked(|d| {
            d.as_ref()
                .and_then(|d| d.slots.iter().position(|s| *s == v.slot).map(|i| evidence_lines_of(&d.report, i)))
                .unwrap_or_default()
        });
        let to = v.from + v.lines.len().saturating_sub(1) as u32;
        let items = v
            .lines
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let n = v.from + i as u32;
                let class = if n == v.target {
                    "hl"
                } else if marked.contains(&n) {
                    "ev"
                } else {
                    ""
                };
                view! { <li class=class data-line=n.to_string()><span class="ln">{n.to_string()}</span><code class="lt">{text.clone()}</code></li> }
            })
            .collect_view();
        let name = ctx.input_name(v.slot, lang);
        let title = tf(lang, S::LogTitle, &[("input", &name), ("n", &v.target.to_string())]);
        let window = if v.loading {
            t(lang, S::LogLoading).to_string()
        } else {
            tf(lang, S::LogWindow, &[("a", &v.from.to_string()), ("b", &to.to_string()), ("n", &v.total.to_string())])
        };
        let found = v.matches.map(|m| {
            let text = if m == 0 {
                t(lang, S::LogNoMatch).to_string()
            } else {
                tf(lang, S::LogMatches, &[("m", &m.to_string())])
            };
            view! { <span class="found" role="status" data-matches=m.to_string()>{text}</span> }
        });
        let query = NodeRef::<leptos::html::Input>::new();
        let search = move |back: bool| {
            if let Some(el) = query.get_untracked() {
                ctx.search_log(&el.value(), back);
            }
        };
        let close = move || ctx.close_log();
        // Keeps Tab inside the dialog.
        let trap = move |ev: leptos::ev::KeyboardEvent| {
            if ev.key() != "Tab" {
                return;
            }
            let Some(dialog) = web::query(".logview") else { return };
            let Ok(list) = dialog.query_selector_all("button, input, [tabindex=\"0\"]") else { return };
            let els: Vec<web_sys::HtmlElement> =
                (0..list.length()).filter_map(|i| list.item(i)).filter_map(|n| n.dyn_into().ok()).collect();
            let (Some(first), Some(last)) = (els.first(), els.last()) else { return };
            let active = web::active_element();
            let at_first = active.as_ref().is_some_and(|a| a == first);
            let at_last = active.as_ref().is_some_and(|a| a == last);
            let outside = active.as_ref().is_none_or(|a| !els.contains(a));
            if ev.shift_key() && (at_first || outside) {
                ev.prevent_default();
                let _ = last.focus();
            } else if !ev.shift_key() && (at_last || outside) {
                ev.prevent_default();
                let _ = first.focus();
            }
        };
        Some(view! {
            <div class="overlay" data-logview="" on:click=move |ev: leptos::ev::MouseEvent| {
                let on_backdrop = ev.target().zip(ev.current_target()).is_some_and(|(a, b)| a == b);
                if on_backdrop { close() }
            }>
                <div class="logview" role="dialog" aria-modal="true" aria-labelledby="logview-title" on:keydown=trap>
                    <header class="logview-head">
                        <h2 id="logview-title">{title}</h2>
                        <span class="window">{window}</span>
                        <button type="button" data-action="close-log" on:click=move |_| close()>{t(lang, S::Close)}</button>
                    </header>
                    <div class="log-search" role="search">
                        <input type="search" class="log-query" node_ref=query autocomplete="off" spellcheck="false"
                            aria-label=t(lang, S::LogSearch) placeholder=t(lang, S::LogSearch) value=v.query.clone()
                            on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Enter" {
                                ev.prevent_default();
                                search(ev.shift_key());
                            } />
                        <button type="button" data-action="search-prev" aria-label=t(lang, S::LogSearchPrev) title=t(lang, S::LogSearchPrev)
                            on:click=move |_| search(true)>"↑"</button>
                        <button type="button" data-action="search-next" aria-label=t(lang, S::LogSearchNext) title=t(lang, S::LogSearchNext)
                            on:click=move |_| search(false)>"↓"</button>
                        {found}
                    </div>
                    <ol class="log-lines" tabindex="0" aria-labelledby="logview-title">{items}</ol>
                </div>
            </div>
        })
    }
}

/// Every line of input `idx` some part of the report points at.
fn evidence_lines_of(report: &crate::model::ReportView, idx: usize) -> std::collections::HashSet<u32> {
    let mine = |e: &roll_doctor_engine::EvidenceLine| e.input.unwrap_or(0) == idx && e.answer.is_none();
    let mut out = std::collections::HashSet::new();
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
