// roll-doctor's loader: the page in one file (`cargo xtask dist` fills it in).
// The WebAssembly module is in the #rd-wasm element, gzip-compressed and
// base64-encoded; it is inflated with DecompressionStream, compiled once,
// and run here (the page) and in a Web Worker (the engine). The worker is
// made from a Blob of the wasm-bindgen glue below plus a few lines, so it
// works from file:// too and inherits this page's Content-Security-Policy:
// nothing is fetched, no connection is made.
(function () {
  "use strict";
  const glue = (function () {
/*rd-glue-start*/
{{GLUE}}
/*rd-glue-end*/
    return { __wbg_init: __wbg_init };
  })();
  const me = document.currentScript.text;
  const from = me.indexOf("/*rd-glue-" + "start*/");
  const to = me.indexOf("/*rd-glue-" + "end*/");
  // The worker: the same glue, then wait for the module the page posts and
  // hand every later message to the engine (queued until it is ready).
  self.rdWorkerSource = me.slice(from, to) + "\n" + [
    "var rdQueue = [], rdReady = false;",
    "self.onmessage = function (e) {",
    "  var d = e.data;",
    "  if (d && d.rdModule) {",
    "    __wbg_init({ module_or_path: d.rdModule }).then(function () {",
    "      rd_worker_warm();",
    "      rdReady = true;",
    "      rdQueue.splice(0).forEach(function (m) { rd_worker_message(m); });",
    "    }, function (err) { setTimeout(function () { throw err; }); });",
    "    return;",
    "  }",
    "  if (rdReady) rd_worker_message(d); else rdQueue.push(d);",
    "};",
  ].join("\n");
  // The served page offers itself as the offline file: what was loaded, as it was.
  if (/^https?:$/.test(location.protocol)) {
    const page = "<!DOCTYPE html>\n" + document.documentElement.outerHTML;
    self.rdOfflinePage = function () { return page; };
  }
  const data = document.getElementById("rd-wasm").textContent.trim();
  function bytesOf(b64) {
    if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(b64);
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  async function start() {
    performance.mark("rd-loader-start");
    const inflated = new Blob([bytesOf(data)]).stream().pipeThrough(new DecompressionStream("gzip"));
    const module = await WebAssembly.compile(await new Response(inflated).arrayBuffer());
    performance.mark("rd-wasm-compiled");
    // The engine starts now, in parallel with the page: it compiles the
    // rules while the page renders (the page adopts this worker).
    try {
      const url = URL.createObjectURL(new Blob([self.rdWorkerSource], { type: "text/javascript" }));
      self.rdWorker = new Worker(url);
      URL.revokeObjectURL(url);
      self.rdWorker.postMessage({ rdModule: module });
    } catch (e) {
      self.rdWorker = undefined;
    }
    await glue.__wbg_init({ module_or_path: module });
  }
  start().catch(function (e) {
    const p = document.createElement("p");
    p.className = "crash";
    p.textContent = "roll-doctor could not start in this browser (" + e + "). roll-doctor 无法在此浏览器中启动。";
    document.body.prepend(p);
    throw e;
  });
})();
