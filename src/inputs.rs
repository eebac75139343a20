//! The inputs panel (wasm32 only): one textarea per input with its label,
//! the detected kind of each part as a chip the user can change, large
//! files as cards, the file picker, the toolbar, progress and notices.

use crate::i18n::{format_size, kind_label, t, tf, Lang, S};
use crate::panels;
use crate::state::{Ctx, Slot, CARD_LIMIT};
use leptos::prelude::*;
use roll_doctor_engine::InputKind;
use wasm_bindgen::JsCast;

fn area_id(slot: &Slot) -> String {
    format!("paste-{}", slot.id)
}

/// The detected parts of one input, each with a kind chip.
fn segments_of(ctx: Ctx, slot: Slot, lang: Lang) -> Option<impl IntoView> {
    let segs = ctx.diagnosis.with(|d| {
        let d = d.as_ref()?;
        let idx = d.slots.iter().position(|s| *s == slot.id)?;
        Some(d.report.segments.iter().filter(|s| s.input == idx && s.start_line > 0).cloned().collect::<Vec<_>>())
    });
    let segs = segs.filter(|s| !s.is_empty())?;
    let overrides = slot.overrides.get_untracked();
    let items = segs
        .into_iter()
        .map(|s| {
            let a = s.start_line.to_string();
            let range = if s.start_line == s.end_line {
                tf(lang, S::SegLine, &[("a", &a)])
            } else {
                tf(lang, S::SegLines, &[("a", &a), ("b", &s.end_line.to_string())])
            };
            let chosen = overrides.iter().any(|(l, _)| *l == s.start_line);
            let start = s.start_line;
            let options = InputKind::ALL
                .into_iter()
                .map(|k| view! { <option value=k.code() selected=k == s.kind>{t(lang, kind_label(k))}</option> })
                .collect_view();
            let on_change = move |ev: leptos::ev::Event| {
                let Some(sel) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()) else { return };
                if let Some(kind) = InputKind::from_code(&sel.value()) {
                    ctx.set_override(slot.id, start, kind);
                }
            };
            let aria = tf(lang, S::SegKindAria, &[("range", &range)]);
            let cmd = s.command.clone().map(|c| view! { <code class="seg-cmd">"$ "{c}</code> });
            let mark = chosen.then(|| view! { <span class="seg-chosen">{t(lang, S::SegOverridden)}</span> });
            view! {
                <li class="seg" data-kind=format!("{:?}", s.kind) data-start=start.to_string()>
                    <select class="chip" class:chosen=chosen aria-label=aria data-kind=s.kind.code() on:change=on_change>
                        {options}
                    </select>
                    {mark}
                    <span class="seg-range">{range}</span>
                    {cmd}
                </li>
            }
        })
        .collect_view();
    Some(view! {
        <details class="segments" open=true>
            <summary>{t(lang, S::SegmentsTitle)}</summary>
            <ul class="seg-list">{items}</ul>
        </details>
    })
}

fn slot_view(ctx: Ctx, slot: Slot) -> impl IntoView {
    let lang = ctx.lang;
    let pos = move || ctx.slots.with(|v| v.iter().position(|s| s.id == slot.id).unwrap_or(0));
    let n = move || (pos() + 1).to_string();
    let many = move || ctx.slots.with(|v| v.len() > 1);
    let on_label = move |ev: leptos::ev::Event| {
        let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        slot.label.set(el.value());
        ctx.save();
    };
    let remove = move || {
        many().then(|| {
            view! {
                <button type="button" class="icon remove" data-action="remove-input"
                    aria-label=move || tf(lang.get(), S::RemoveInputAria, &[("n", &n())])
                    title=move || tf(lang.get(), S::RemoveInputAria, &[("n", &n())])
                    on:click=move |_| ctx.remove_slot(slot.id)>"×"</button>
            }
        })
    };
    let body = move || {
        match slot.card.get() {
        Some(card) => view! {
            <div class="file-card" data-file-card="">
                <p>{move || {
                    let l = lang.get();
                    let name = card.name.clone().unwrap_or_else(|| t(l, S::PastedText).to_string());
                    let size = format_size(card.bytes);
                    match card.lines {
                        Some(lines) => tf(l, S::FileCard, &[("name", &name), ("size", &size), ("lines", &lines.to_string())]),
                        None => tf(l, S::FileCardPending, &[("name", &name), ("size", &size)]),
                    }
                }}</p>
                <button type="button" data-action="show-file" on:click=move |_| ctx.show_slot_line(slot.id, 1)>
                    {move || t(lang.get(), S::ShowText)}
                </button>
            </div>
        }
        .into_any(),
        None => {
            let initial = slot.text.get_value();
            view! {
                <textarea id=area_id(&slot) class="paste" node_ref=slot.area spellcheck="false" autocomplete="off"
                    autocapitalize="off" wrap="off"
                    aria-label=move || tf(lang.get(), S::InputTextAria, &[("n", &n())])
                    placeholder=move || if pos() == 0 { t(lang.get(), S::Placeholder) } else { t(lang.get(), S::PasteOutputPh) }
                    on:input=move |_| ctx.user_edit()
                    on:paste=move |ev: leptos::ev::ClipboardEvent| {
                        let text = ev.clipboard_data().and_then(|d| d.get_data("text/plain").ok()).unwrap_or_default();
                        if text.len() > CARD_LIMIT {
                            ev.prevent_default();
                            ctx.paste_big(slot.id, text);
                        } else {
                            ctx.pasted();
                        }
                    }>{initial}</textarea>
            }
            .into_any()
        }
    }
    };
    let notes = move || {
        let l = lang.get();
        let unsaved = slot.unsaved.get().map(|b| {
            view! { <p class="note" data-note="unsaved">{tf(l, S::NotSavedLarge, &[("size", &format_size(b))])}</p> }
        });
        let omitted = slot.omitted.get().map(|b| {
            view! { <p class="note" data-note="omitted">{tf(l, S::OmittedRestored, &[("size", &format_size(b))])}</p> }
        });
        (unsaved, omitted)
    };
    view! {
        <div class="slot" data-slot=slot.id.to_string()>
            <div class="slot-head">
                <span class="slot-n">{move || tf(lang.get(), S::InputN, &[("n", &n())])}</span>
                <input type="text" class="slot-label" autocomplete="off" spellcheck="false"
                    placeholder=move || t(lang.get(), S::InputLabelPh)
                    aria-label=move || tf(lang.get(), S::InputLabelAria, &[("n", &n())])
                    prop:value=move || slot.label.get()
                    on:input=on_label />
                {remove}
            </div>
            {body}
            {notes}
            {move || segments_of(ctx, slot, lang.get())}
        </div>
    }
}

/// The left column: inputs, toolbar, progress, notices, rule files.
pub fn inputs_panel(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let file_input = NodeRef::<leptos::html::Input>::new();
    let open_files = move |_| {
        if let Some(el) = file_input.get_untracked() {
            el.click();
        }
    };
    let on_files = move |_| {
        let Some(el) = file_input.get_untracked() else { return };
        let files = crate::web::files_of(el.files());
        el.set_value("");
        ctx.load_files(files);
    };
    let first_id = move || ctx.slots.with(|v| v.first().map(area_id).unwrap_or_default());
    view! {
        <section class="input">
            <label for=first_id class="input-label">{move || t(lang.get(), S::InputLabel)}</label>
            <For each=move || ctx.slots.get() key=|s| s.id children=move |slot| slot_view(ctx, slot) />
            <div class="toolbar">
                <button type="button" class="primary" data-action="diagnose" on:click=move |_| ctx.diagnose_now()>
                    {move || t(lang.get(), S::Diagnose)}
                </button>
                <button type="button" data-action="add-input" on:click=move |_| ctx.add_slot()>
                    {move || t(lang.get(), S::AddInput)}
                </button>
                <button type="button" data-action="open-files" on:click=open_files>
                    {move || t(lang.get(), S::OpenFiles)}
                </button>
                <button type="button" data-action="example" on:click=move |_| ctx.load_example()>
                    {move || t(lang.get(), S::Example)}
                </button>
                <button type="button" data-action="clear" on:click=move |_| ctx.clear_all()>
                    {move || t(lang.get(), S::Clear)}
                </button>
            </div>
            <input type="file" multiple=true class="offscreen" tabindex="-1" aria-hidden="true" node_ref=file_input
                on:change=on_files />
            {panels::progress_view(ctx)}
            {panels::notice_view(ctx)}
            <p class="shortcut">{move || t(lang.get(), S::Shortcut)}</p>
            <p class="shortcut">{move || t(lang.get(), S::DropHint)}</p>
            <p class="privacy">{move || t(lang.get(), S::Privacy)}</p>
            <p class="saved">{move || {
                let l = lang.get();
                if ctx.storage_ok.get() { t(l, S::SavedNote) } else { t(l, S::StorageUnavailable) }
            }}</p>
            {panels::collector_panel(ctx)}
            {panels::open_shared_box(ctx)}
            {panels::rules_panel(ctx)}
            {panels::offline_box(ctx)}
        </section>
    }
}
