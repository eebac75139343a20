//! The engine's message loop (wasm32 only). In the page's Web Worker, the
//! loader's worker script calls [`rd_worker_message`] for every message the
//! page posts; without a worker (the browser tests), [`crate::engine`] calls
//! [`run`] in the page itself. Either way requests are handled one at a
//! time, in order, by the [`Host`]: a file (a Blob) is read in slices with
//! progress, then the engine runs on it.

use crate::host::Host;
use crate::model::{Phase, Reply, Request, WireInput};
use crate::web;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Bytes read per slice of a Blob.
const SLICE: f64 = 8.0 * 1024.0 * 1024.0;

type Post = Rc<dyn Fn(Reply)>;

/// One engine: its host, the requests waiting and where replies go.
pub struct Loop {
    host: RefCell<Host>,
    queue: RefCell<VecDeque<(Request, Vec<web_sys::Blob>)>>,
    busy: RefCell<bool>,
    post: Post,
}

impl Loop {
    pub fn new(post: Post) -> Rc<Loop> {
        Rc::new(Loop { host: RefCell::new(Host::new()), queue: RefCell::default(), busy: RefCell::new(false), post })
    }
}

/// Queues a request; the loop handles requests one after another.
pub fn run(lp: &Rc<Loop>, req: Request, blobs: Vec<web_sys::Blob>) {
    lp.queue.borrow_mut().push_back((req, blobs));
    if *lp.busy.borrow() {
        return;
    }
    *lp.busy.borrow_mut() = true;
    let lp = lp.clone();
    wasm_bindgen_futures::spawn_local(async move {
        loop {
            let next = lp.queue.borrow_mut().pop_front();
            let Some((req, blobs)) = next else { break };
            handle(&lp, req, blobs).await;
        }
        *lp.busy.borrow_mut() = false;
    });
}

async fn handle(lp: &Loop, req: Request, blobs: Vec<web_sys::Blob>) {
    let post = &lp.post;
    let now = web::now_ms;
    match req {
        Request::Rules { files } => post(lp.host.borrow_mut().set_rules(files)),
        Request::Diagnose { seq, inputs, session } => {
            let t0 = now();
            let mut texts: Vec<(WireInput, String)> = Vec::with_capacity(inputs.len());
            for w in inputs {
                let text = match (w.text.clone(), w.blob) {
                    (Some(t), _) => t,
                    (None, Some(b)) => {
                        // Bound first: a borrow taken in the `if let` would
                        // be held through the `else` and its await (edition 2021).
                        let cached = lp.host.borrow_mut().take_cached(w.slot, w.key);
                        if let Some(t) = cached {
                            t
                        } else {
                            let Some(blob) = blobs.get(b as usize) else { continue };
                            let name = w.name.clone();
                            let read = web::read_blob_text(blob, SLICE, |done, total| {
                                post(Reply::Progress { seq, phase: Phase::Reading, name: name.clone(), done, total })
                            })
                            .await;
                            match read {
                                Ok(t) => t,
                                Err(_) => {
                                    post(Reply::ReadFailed { seq, name: w.name.clone() });
                                    String::new()
                                }
                            }
                        }
                    }
                    (None, None) => String::new(),
                };
                texts.push((w, text));
            }
            let bytes: usize = texts.iter().map(|(_, t)| t.len()).sum();
            post(Reply::Progress {
                seq,
                phase: Phase::Diagnosing,
                name: String::new(),
                done: 0.0,
                total: bytes as f64,
            });
            let read_ms = now() - t0;
            post(lp.host.borrow_mut().diagnose(seq, texts, session, read_ms, &now));
        }
        Request::Evaluate { seq, session } => post(lp.host.borrow_mut().evaluate(seq, session, &now)),
        Request::Forget => lp.host.borrow_mut().forget(),
        Request::Share { seq, lang, excerpts } => post(lp.host.borrow().share(seq, lang, excerpts)),
        Request::Markdown { seq, lang, shared, base, excerpts } => {
            post(lp.host.borrow().markdown(seq, lang, shared.as_deref(), base.as_deref(), excerpts))
        }
        Request::Open { seq, fragment } => post(lp.host.borrow_mut().open(seq, &fragment)),
        Request::Lines { seq, slot, from, count } => post(lp.host.borrow_mut().lines(seq, slot, from, count)),
        Request::Search { seq, slot, query, line, back } => {
            post(lp.host.borrow_mut().search(seq, slot, &query, line, back))
        }
    }
}

thread_local! {
    static WORKER_LOOP: RefCell<Option<Rc<Loop>>> = const { RefCell::new(None) };
}

/// Decodes a message `{ json, blobs }` from the page.
pub fn decode(data: &JsValue) -> Option<(Request, Vec<web_sys::Blob>)> {
    let json = js_sys::Reflect::get(data, &JsValue::from_str("json")).ok()?.as_string()?;
    let req: Request = serde_json::from_str(&json).ok()?;
    let blobs = js_sys::Reflect::get(data, &JsValue::from_str("blobs"))
        .ok()
        .filter(|b| b.is_object())
        .map(|b| js_sys::Array::from(&b).iter().filter_map(|x| x.dyn_into::<web_sys::Blob>().ok()).collect())
        .unwrap_or_default();
    Some((req, blobs))
}

/// Compiles the embedded rule catalogue: the worker's script calls it as
/// soon as the module runs, before the page has asked anything.
#[wasm_bindgen]
pub fn rd_worker_warm() {
    let _ = roll_doctor_engine::catalogue();
}

/// The worker's entry point: the loader's worker script calls it for each
/// message (after the module is instantiated).
#[wasm_bindgen]
pub fn rd_worker_message(data: JsValue) {
    let lp = WORKER_LOOP.with(|l| {
        l.borrow_mut()
            .get_or_insert_with(|| {
                Loop::new(Rc::new(|reply: Reply| {
                    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
                    if let Ok(json) = serde_json::to_string(&reply) {
                        let _ = scope.post_message(&JsValue::from_str(&json));
                    }
                }))
            })
            .clone()
    });
    if let Some((req, blobs)) = decode(&data) {
        run(&lp, req, blobs);
    }
}
