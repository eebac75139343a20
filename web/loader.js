// roll-doctor's loader: the page in one file (`cargo xtask dist` fills it in).
// The app's WebAssembly module and its stylesheet are in the #rd-wasm
// element, xz-compressed together; #rd-unpack holds a small module (crates/unpack), gzip-compressed, that
// inflates it. Both are base64 in the served page and raw bytes in the
// offline file (xtask/src/pack.rs says why and how). The app module is
// compiled once and run here (the page) and in a Web Worker (the engine).
// The worker is made from a Blob of the wasm-bindgen glue below plus a few
// lines, so it works from file:// too and inherits this page's
// Content-Security-Policy: nothing is fetched, no connection is made.
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
  // The served page offers itself as the offline file: what was loaded, in
  // the offline file's form (windows-1252, the modules as raw bytes; a
  // quarter smaller than this page; xtask/src/pack.rs). The text is taken
  // now, before the loader adds the styles.
  if (/^https?:$/.test(location.protocol)) {
    const page = "<!DOCTYPE html>\n" + document.documentElement.outerHTML;
    // The first occurrence is the <head>'s (this script's text has one too).
    const offline = page.replace('<meta charset="utf-8">', '<meta charset="windows-1252">');
    self.rdOfflinePage = function () {
      const data = /(<script type="application\/octet-stream" id="rd-(?:unpack|wasm)" data-enc=")base64("[^>]*>)([^<]*)(<\/script>)/g;
      const parts = [];
      let at = 0;
      let m;
      while ((m = data.exec(offline))) {
        parts.push(ascii(offline.slice(at, m.index)), ascii(m[1] + "cp1252" + m[2]), toCp1252(fromBase64(m[3])), ascii(m[4]));
        at = data.lastIndex;
      }
      if (parts.length !== 8 || offline === page) return page; // not the shape xtask writes: the page as it was
      parts.push(ascii(offline.slice(at)));
      return new Blob(parts, { type: "text/html;charset=windows-1252" });
    };
  }
  // Page text as windows-1252 bytes: ASCII, other characters as HTML
  // references (only the <noscript> text has any).
  function ascii(text) {
    const s = text.replace(/[^\x00-\x7f]/gu, function (c) { return "&#x" + c.codePointAt(0).toString(16) + ";"; });
    return Uint8Array.from(s, function (c) { return c.charCodeAt(0); });
  }
  function fromBase64(b64) {
    b64 = b64.trim();
    if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(b64);
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  // The offline file's escape (pack.rs): ESC, then the byte XOR 0x40, for
  // NUL, CR, "<" and ESC itself, the bytes the HTML parser would change.
  const ESC = 0x01;
  function toCp1252(bytes) {
    const out = new Uint8Array(bytes.length * 2);
    let n = 0;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i];
      if (b === 0x00 || b === 0x0d || b === 0x3c || b === ESC) {
        out[n++] = ESC;
        out[n++] = b ^ 0x40;
      } else {
        out[n++] = b;
      }
    }
    return out.subarray(0, n);
  }
  // A transfer that changed bytes, or an editor that re-encoded the file.
  const DAMAGED = "the program inside this page is damaged: copy roll-doctor.html again, as a binary file. "
    + "页面内嵌的程序已损坏：请以二进制方式重新复制 roll-doctor.html。";
  // An embedded module's bytes. "base64": the served page (UTF-8, whatever
  // charset a server declares). "cp1252": the offline file, read as
  // windows-1252, where each byte of the file is one character, with the
  // escapes toCp1252 writes.
  function bytesOf(el) {
    const text = el.textContent;
    if (el.dataset.enc === "base64") return fromBase64(text);
    // Which byte each character of windows-1252 stands for, from the
    // browser's own decoder (0x80-0x9F are not U+0080-U+009F).
    const chars = new TextDecoder("windows-1252").decode(Uint8Array.from({ length: 256 }, (_, i) => i));
    const byteOf = new Int16Array(0x2200).fill(-1);
    for (let b = 0; b < 256; b++) byteOf[chars.charCodeAt(b)] = b;
    const out = new Uint8Array(text.length);
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      let b = byteOf[text.charCodeAt(i)];
      if (b === ESC) b = byteOf[text.charCodeAt(++i)] ^ 0x40;
      if (!(b >= 0)) throw new Error(DAMAGED + " (" + i + ")");
      out[n++] = b;
    }
    return out.subarray(0, n);
  }
  // The app module, compiled, once its stylesheet is in place: the
  // unpacker (inflated by the browser) inflates both.
  async function appModule() {
    const gz = new Blob([bytesOf(document.getElementById("rd-unpack"))]).stream();
    // A damaged gzip stream or module fails here ("Failed to fetch", a CompileError).
    const un = await new Response(gz.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer()
      .then(function (unpacker) { return WebAssembly.instantiate(unpacker); })
      .then(function (r) { return r.instance.exports; }, function (e) { throw new Error(DAMAGED + " (" + e + ")"); });
    const el = document.getElementById("rd-wasm");
    const packed = bytesOf(el);
    const size = Number(el.dataset.size);
    const total = size + Number(el.dataset.css);
    const dict = Number(el.dataset.dict);
    const at = un.space(packed.length + total + dict);
    if (!at) throw new Error("no memory to unpack the program. 内存不足，无法解压程序。");
    new Uint8Array(un.memory.buffer, at, packed.length).set(packed);
    const out = at + packed.length;
    const n = un.inflate(at, packed.length, out, total, out + total, dict);
    if (n !== total) throw new Error(DAMAGED + " (" + n + ")");
    performance.mark("rd-wasm-inflated");
    const style = document.createElement("style");
    style.textContent = new TextDecoder().decode(new Uint8Array(un.memory.buffer, out + size, total - size));
    document.head.append(style);
    // compile() copies the bytes: the unpacker's memory can go.
    return WebAssembly.compile(new Uint8Array(un.memory.buffer, out, size));
  }
  async function start() {
    performance.mark("rd-loader-start");
    // The engine's worker starts first: its thread comes up while the app
    // module is inflated, and it compiles the rules while the page renders
    // (the page adopts this worker).
    try {
      const url = URL.createObjectURL(new Blob([self.rdWorkerSource], { type: "text/javascript" }));
      self.rdWorker = new Worker(url);
      URL.revokeObjectURL(url);
    } catch (e) {
      self.rdWorker = undefined;
    }
    const module = await appModule();
    performance.mark("rd-wasm-compiled");
    if (self.rdWorker) self.rdWorker.postMessage({ rdModule: module });
    await glue.__wbg_init({ module_or_path: module });
  }
  start().catch(function (e) {
    const p = document.createElement("p");
    p.className = "crash";
    p.textContent = "roll-doctor could not start (" + e + "). roll-doctor 无法启动。";
    document.body.prepend(p);
    throw e;
  });
})();
