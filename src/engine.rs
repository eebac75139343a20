//! The page's end of the engine (wasm32 only): a Web Worker running this
//! same WebAssembly module, or, where the page was not started by the
//! loader (the browser tests), the same message loop in the page.
//!
//! The loader (`web/loader.js`) leaves the worker's script in
//! `rdWorkerSource`: the wasm-bindgen glue as a classic script plus a few
//! lines that instantiate the module the page posts and pass every message
//! to [`crate::worker::rd_worker_message`]. The worker is made from a Blob
//! of that text, so it works from `file://` too and inherits the page's
//! Content-Security-Policy (no connection). Cancelling terminates the
//! worker and starts a new one.

use crate::model::{Reply, Request};
use crate::web;
use crate::worker::{self, Loop};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

type OnReply = Rc<dyn Fn(Reply)>;

enum Transport {
    Worker {
        worker: web_sys::Worker,
        _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
        _on_error: Closure<dyn FnMut(web_sys::Event)>,
    },
    Local(Rc<Loop>),
}

/// A connection to the engine.
pub struct Engine {
    transport: RefCell<Option<Transport>>,
    on_reply: OnReply,
    on_failure: Rc<dyn Fn()>,
}

impl Engine {
    /// Starts the engine; replies (and a failure of the worker) are handed
    /// to the callbacks.
    pub fn start(on_reply: OnReply, on_failure: Rc<dyn Fn()>) -> Rc<Engine> {
        let e = Rc::new(Engine { transport: RefCell::new(None), on_reply, on_failure });
        e.connect();
        e
    }

    /// Whether the engine runs in a Web Worker (else in the page).
    pub fn in_worker(&self) -> bool {
        matches!(*self.transport.borrow(), Some(Transport::Worker { .. }))
    }

    fn connect(&self) {
        let transport = match web::global_string("rdWorkerSource").and_then(|src| self.spawn(&src)) {
            Some(t) => t,
            None => {
                let on_reply = self.on_reply.clone();
                // Replies are delivered in a later task, as a worker's would be.
                Transport::Local(Loop::new(Rc::new(move |r: Reply| {
                    let on_reply = on_reply.clone();
                    leptos::prelude::set_timeout(move || on_reply(r), std::time::Duration::ZERO);
                })))
            }
        };
        *self.transport.borrow_mut() = Some(transport);
    }

    /// The worker the loader started while the page loaded (taken once),
    /// or a new one from `source`.
    fn spawn(&self, source: &str) -> Option<Transport> {
        let global = js_sys::global();
        let key = JsValue::from_str("rdWorker");
        let early = js_sys::Reflect::get(&global, &key).ok().and_then(|w| w.dyn_into::<web_sys::Worker>().ok());
        let _ = js_sys::Reflect::delete_property(global.unchecked_ref::<js_sys::Object>(), &key);
        let fresh = early.is_none();
        let worker = match early {
            Some(w) => w,
            None => {
                let parts = js_sys::Array::of1(&JsValue::from_str(source));
                let opts = web_sys::BlobPropertyBag::new();
                opts.set_type("text/javascript");
                let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).ok()?;
                let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
                let worker = web_sys::Worker::new(&url).ok()?;
                let _ = web_sys::Url::revoke_object_url(&url);
                worker
            }
        };
        let on_reply = self.on_reply.clone();
        let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let Some(json) = ev.data().as_string() else { return };
            if let Ok(reply) = serde_json::from_str::<Reply>(&json) {
                on_reply(reply);
            }
        });
        let on_failure = self.on_failure.clone();
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
            ev.prevent_default();
            on_failure();
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        if fresh {
            // The module this page runs: the worker instantiates it without compiling again.
            let msg = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&msg, &JsValue::from_str("rdModule"), &wasm_bindgen::module());
            worker.post_message(&msg).ok()?;
        }
        Some(Transport::Worker { worker, _on_message: on_message, _on_error: on_error })
    }

    /// Sends a request (with the Blobs its inputs name).
    pub fn send(&self, req: &Request, blobs: &[web_sys::Blob]) {
        let t = self.transport.borrow();
        match t.as_ref() {
            Some(Transport::Worker { worker, .. }) => {
                let Ok(json) = serde_json::to_string(req) else { return };
                let msg = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&msg, &JsValue::from_str("json"), &JsValue::from_str(&json));
                let arr = js_sys::Array::new();
                for b in blobs {
                    arr.push(b);
                }
                let _ = js_sys::Reflect::set(&msg, &JsValue::from_str("blobs"), &arr);
                if worker.post_message(&msg).is_err() {
                    (self.on_failure)();
                }
            }
            Some(Transport::Local(lp)) => worker::run(lp, req.clone(), blobs.to_vec()),
            None => {}
        }
    }

    /// Stops whatever the engine is doing: the worker is terminated and a
    /// new one started (it knows nothing yet: the caller sends the rules
    /// and the inputs again).
    pub fn restart(&self) {
        if let Some(Transport::Worker { worker, .. }) = self.transport.borrow_mut().take() {
            worker.terminate();
        }
        self.connect();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(Transport::Worker { worker, .. }) = self.transport.borrow_mut().take() {
            worker.terminate();
        }
    }
}
