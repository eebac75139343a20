// End-to-end test of the built page in Debian's Chromium (driven by playwright-core).
//
//   node e2e/e2e.mjs http dist [screenshot.png]
//       serves dist/ with node's own http server on 127.0.0.1 (free port) and tests it
//   node e2e/e2e.mjs file dist/roll-doctor.html [screenshot.png]
//       opens the self-contained page from file:// (clipboard checks are skipped there)
//
// Screenshots go next to <screenshot.png> (default e2e/out/<mode>.png): <name>-1280.png (desktop,
// a full diagnosis), <name>-360-en.png / <name>-360-zh.png (phone), <name>-dark.png (dark mode).
// Env: CHROMIUM (default /usr/bin/chromium); E2E_SHOTS=1 also writes a few intermediate states;
// RD_NATIVE_BIN: the native `roll-doctor` binary to time on the same 100 MB file (else
// target/release/roll-doctor when it exists); E2E_BIG_MB (default 100).
// Fails on: any request to another origin, any request after the page's own file has loaded,
// any page error, any console error, any dialog, any failed check.
// Prints the figures issue 12 asks for: time from opening the page to the first finding of a
// pasted 10 KB log, the longest main-thread task while a 100 MB file is read and diagnosed,
// the engine's throughput in the worker and natively on the same file, and the worker's peak
// wasm memory for that file.
// "GAP" lines name what the page shows correctly but the engine does not do yet; they do not
// fail the run. Last line is always `e2e: N passed, M failed, G gaps`; the exit status is
// non-zero on any failure.

import { createServer } from 'node:http';
import { readFile, stat, mkdir, writeFile, readdir, open } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { resolve, join, extname, sep, dirname } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';

const [mode = 'http', target = 'dist', shotArg] = process.argv.slice(2);
const shot = shotArg || `e2e/out/${mode}.png`;
const outDir = dirname(shot);
const shotName = (suffix) => shot.replace(/\.png$/, `-${suffix}.png`);
const EXECUTABLE = process.env.CHROMIUM || '/usr/bin/chromium';
const ALL_SHOTS = process.env.E2E_SHOTS === '1';
const BIG_MB = Number(process.env.E2E_BIG_MB || 100);
const DEADLINE_MS = 900_000;
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = join(ROOT, 'crates/engine/tests/fixtures');

const LOG = `$ tail -n 2 /root/ascend/log/debug/plog/plog-1292363_20250408180520.log
[ERROR] HCCL(60570,python):2025-04-08-18:07:20.444.436 [socket_manager.cc:200] [1][Wait] wait socket establish timeout, role[1] rank[12] timeout[120]
EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the reason for the rank being stuck
`;
const LOG_WITH_IP = `[root@gpu-node-17 ~]# tail -n 1 plog.log
EI0006: [PID: 1292363] Getting socket times out. peer 10.20.0.29 rank[12] from jdoe@corp.example.com
`;
// Names learned from the prompt must be replaced wherever they occur (issue 14).
const LOG_WITH_NAMES = `[jdoe@ascend-node-17 ~]$ tail -n 1 /data/jdoe_runs/plog.log
EI0006: [PID: 1292363] Getting socket times out. host ascend-node-17 peer 10.20.0.29 dir /data/jdoe_runs
`;
const HEALTHY = '[INFO] HCCL(60570,python):2025-04-08-18:07:20.444.436 hccl init success\n';
const EVIL = '<script>alert("xss")</script><img src=x onerror="alert(2)"> EI0006: Getting socket times out. <b>bold</b>';
// How long a check waits for what it expects to appear (or go). It returns as soon as the state
// is there, so a long bound costs nothing when the page is right and spares a slow CI machine.
const WAIT = 15_000;
/** Whether `fn` (run in the page) comes true within WAIT: states that follow
 *  a re-render (focus above all) land a frame or more after the action. */
async function holds(page, fn) {
  return page.waitForFunction(fn, null, { timeout: WAIT }).then(() => true, () => false);
}
const RULE = 'hccl-connect-timeout';
const TITLE_EN = 'HCCL link establishment timed out (EI0006)';
const TITLE_ZH = 'HCCL 建链超时（EI0006）';
const FINDING = `[data-rule-id="${RULE}"]`;
const LINK_STEP = `${FINDING} .step[data-step-id="link"]`;

let passed = 0;
let failed = 0;
let gaps = 0;
function check(name, ok, detail = '') {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${detail ? `: ${detail}` : ''}`);
  }
}
// Something the page cannot do alone: reported, not failed.
function known(name, ok, detail = '') {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    gaps++;
    console.log(`GAP  ${name}${detail ? `: ${detail}` : ''}`);
  }
}
function finish(code) {
  console.log(`e2e: ${passed} passed, ${failed} failed, ${gaps} gaps`);
  process.exit(code ?? (failed > 0 ? 1 : 0));
}

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

// A static server for one directory, bound to 127.0.0.1 on a free port.
async function serve(dir) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = resolve(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) throw new Error('outside root');
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': MIME[extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise((ok, err) => server.once('error', err).listen(0, '127.0.0.1', ok));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

// A deterministic mixed log of about `mb` MB (Ray, vLLM, ROLL and HCCL lines, a rare failure).
async function bigLog(mb) {
  const path = join(resolve(outDir), `big-${mb}mb.log`);
  if (existsSync(path) && (await stat(path)).size >= mb * 1024 * 1024) return path;
  const healthy = [
    '(WorkerDict pid=12345) INFO 06-09 06:57:48 worker_base.py:581] Loading weights took 12.34 seconds',
    "[2026-08-19 10:00:00] [initialize.py (80)] [INFO] [DRIVER 0 / 1][PID 1234] Current ray cluster resources: {'CPU': 192.0, 'NPU': 16.0}",
    '[INFO] HCCL(60570,python):2026-04-08-18:07:20.444.436 [hccl_comm.cc:120] [60570][Init] hccl init success, rank[3] rankSize[16]',
    '(NPURayWorkerWrapper pid=45464) INFO 06-09 06:57:48 metrics.py:455] Avg prompt throughput: 1234.5 tokens/s, Running: 64 reqs',
    '  File "/workspace/ROLL/roll/pipeline/rlvr/rlvr_pipeline.py", line 412, in run',
    '[2026-08-19 10:00:01] [rlvr_pipeline.py (530)] [INFO] step 17 reward/mean: 0.4321 actor/pg_loss: -0.0123 timing/gen: 45.6',
    'Processed prompts:  45%|████▌     | 29/64 [00:12<00:14,  2.41it/s, est. speed input: 1523.12 toks/s]',
    '[WARNING] [2026-08-19 10:00:03] checkpoint saved to ./output/checkpoints/step_17 in 3.2s',
  ];
  const failure = 'EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time.';
  const fh = await open(path, 'w');
  let written = 0;
  let state = 0x2545f491n;
  let n = 0;
  const target = mb * 1024 * 1024;
  while (written < target) {
    const lines = [];
    for (let i = 0; i < 20000; i++) {
      state = (state * 1103515245n + 12345n) & 0x7fffffffn;
      n++;
      lines.push(`${Number(state % 5000n) === 0 ? failure : healthy[Number(state >> 8n) % healthy.length]} #${n}`);
    }
    const chunk = lines.join('\n') + '\n';
    await fh.write(chunk);
    written += Buffer.byteLength(chunk);
  }
  await fh.write(`${failure} #last\n`);
  await fh.close();
  return path;
}

function nativeBin() {
  const cands = [process.env.RD_NATIVE_BIN, process.env.CARGO_TARGET_DIR && join(process.env.CARGO_TARGET_DIR, 'release/roll-doctor'),
    join(ROOT, 'target/release/roll-doctor')].filter(Boolean);
  return cands.find((c) => existsSync(c));
}

// WCAG contrast of every visible text on the page: [ratio, needed, text] of those below AA.
const CONTRAST = () => {
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const parse = (s) => (s.match(/[\d.]+/g) || []).map(Number);
  const bgOf = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) return c;
    }
    return parse(getComputedStyle(document.body).backgroundColor);
  };
  const bad = [];
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !n.textContent.trim() || seen.has(el)) continue;
    seen.add(el);
    const r = el.getBoundingClientRect();
    const st = getComputedStyle(el);
    if (r.width === 0 || r.height === 0 || st.visibility === 'hidden' || el.closest('[aria-hidden="true"], .offscreen, option')) continue;
    if (el.closest('.skip') && document.activeElement !== el.closest('.skip')) continue;
    const fg = parse(st.color);
    const bg = bgOf(el);
    const a = lum(fg);
    const b = lum(bg);
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(st.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(st.fontWeight) >= 700);
    const need = large ? 3 : 4.5;
    if (ratio < need) bad.push(`${ratio.toFixed(2)}<${need} "${n.textContent.trim().slice(0, 30)}" (${el.tagName.toLowerCase()}.${el.className})`);
  }
  return bad;
};

async function main() {
  let server = null;
  let url;
  if (mode === 'http') {
    ({ server, url } = await serve(target));
  } else if (mode === 'file') {
    url = pathToFileURL(resolve(target)).href;
  } else {
    console.log(`usage: node e2e/e2e.mjs http <dir> [shot.png] | file <page.html> [shot.png]`);
    finish(2);
  }
  await mkdir(outDir, { recursive: true });
  const origin = mode === 'http' ? new URL(url).origin : 'file://';
  console.log(`testing ${url}`);

  const browser = await chromium.launch({
    executablePath: EXECUTABLE,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const foreign = [];
  const problems = [];
  const dialogs = [];
  const late = []; // requests made after the page's own file had loaded
  const phase = new WeakMap(); // page -> 'loading' | 'ready'
  const watch = (page, tag) => {
    phase.set(page, 'loading');
    page.on('request', (r) => {
      const u = r.url();
      // data: and blob: are not network requests (the empty favicon, the engine's worker, a download)
      if (u.startsWith('data:') || u.startsWith('blob:')) return;
      if (phase.get(page) === 'ready') late.push(`${tag}: ${r.method()} ${u}`);
      // the downloaded offline file is opened from file:// in http mode too
      const same = u.startsWith('file://') ? mode === 'file' || tag === 'downloaded' : new URL(u).origin === origin;
      if (!same) foreign.push(`${tag}: ${u}`);
    });
    page.on('pageerror', (e) => problems.push(`${tag} page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${tag} console error: ${m.text()}`);
    });
    page.on('requestfailed', (r) => {
      if (!r.url().startsWith('blob:')) problems.push(`${tag} request failed: ${r.url()} ${r.failure()?.errorText}`);
    });
    page.on('dialog', (d) => {
      dialogs.push(`${tag}: ${d.type()} ${d.message()}`);
      d.dismiss().catch(() => {});
    });
  };
  // Loads (or reloads) a page and waits until the app is up; from then on it must not fetch anything.
  const load = async (page, how) => {
    phase.set(page, 'loading');
    await how();
    await page.locator('textarea.paste').first().waitFor({ timeout: 15_000 });
    await page.waitForLoadState('networkidle').catch(() => {});
    phase.set(page, 'ready');
  };
  const ids = (page) => page.locator('[data-rule-id]').evaluateAll((els) => els.map((e) => e.dataset.ruleId));
  const overflowOf = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  // Diagnoses `text` in the first input (Ctrl+Enter) and waits until the page shows the result.
  const diagnose = async (page, text) => {
    const area = page.locator('textarea.paste').first();
    await area.fill(text);
    await area.press('Control+Enter');
    await page.waitForFunction(() => document.querySelector('#results')?.getAttribute('aria-busy') === 'false'
      && document.querySelector('.status'), null, { timeout: 30_000 }).catch(() => {});
  };
  const marks = (page) => page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)])));

  try {
    // --- time to first finding: open the page, paste a 10 KB log ---------------------------
    {
      const line = '[INFO] HCCL(60570,python):2025-04-08-18:07:20.444.436 [hccl_comm.cc:120] [60570][Init] hccl init success, rank[3] rankSize[16]\n';
      const log = line.repeat(Math.ceil(10 * 1024 / line.length)) + LOG;
      const runs = [];
      for (let i = 0; i < 3; i++) {
        const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
        // Count the diagnoses the page asks its worker for (the requests are
        // JSON, externally tagged: `{"Diagnose":…}`).
        await ctx.addInitScript(() => {
          const post = Worker.prototype.postMessage;
          self.__rdDiagnoses = 0;
          Worker.prototype.postMessage = function (msg, ...rest) {
            if (typeof msg?.json === 'string' && msg.json.startsWith('{"Diagnose"')) self.__rdDiagnoses++;
            return post.call(this, msg, ...rest);
          };
        });
        const p = await ctx.newPage();
        watch(p, 'first-finding');
        await p.goto(url, { waitUntil: 'commit' });
        const area = p.locator('textarea.paste').first();
        await area.waitFor({ timeout: 15_000 });
        // a paste as the browser does it: `paste`, the text goes in, then
        // `input` (insertFromPaste) in the same task; the paste diagnoses at once
        await area.evaluate((el, text) => {
          el.focus();
          const dt = new DataTransfer();
          dt.setData('text/plain', text);
          el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
          el.value = text;
          el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
        }, log);
        await p.locator(FINDING).waitFor({ timeout: 15_000 }).catch(() => {});
        const m = await marks(p);
        const engine = await p.getAttribute('.page', 'data-engine');
        // past the typing debounce (300 ms): a second request would be sent by now
        await p.waitForTimeout(600);
        const diagnoses = await p.evaluate(() => self.__rdDiagnoses);
        runs.push({ ...m, engine, diagnoses });
        await ctx.close();
      }
      const first = runs.map((r) => r['rd-first-finding']).filter((x) => x !== undefined);
      const best = Math.min(...first);
      const median = first.sort((a, b) => a - b)[Math.floor(first.length / 2)];
      const r = runs[runs.length - 1];
      console.log(`     (open → first finding of a pasted 10 KB log, ${mode}: best ${best} ms, median ${median} ms of ${runs.length}; `
        + `last run: loader ${r['rd-loader-start']} ms, wasm compiled ${r['rd-wasm-compiled']}, page mounted ${r['rd-app-mounted']}, `
        + `engine ready ${r['rd-engine-ready']}, finding ${r['rd-first-finding']})`);
      check('the engine runs in a Web Worker', runs.every((x) => x.engine === 'worker'), JSON.stringify(runs.map((x) => x.engine)));
      check('a pasted 10 KB log gives its finding (open → finding printed above)', first.length === runs.length);
      check('a paste is diagnosed once (its own input event starts no second diagnosis)',
        runs.every((x) => x.diagnoses === 1), JSON.stringify(runs.map((x) => x.diagnoses)));
      known('open → first finding under 400 ms (issue 12)', best < 400,
        `${best} ms: the engine compiles its rule catalogue in the worker in ${r['rd-engine-ready'] - r['rd-wasm-compiled']} ms after the module is compiled`);
    }

    // --- desktop, English browser ---------------------------------------------------
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', acceptDownloads: true });
    if (mode === 'http') await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const page = await ctx.newPage();
    watch(page, 'desktop');
    await load(page, () => page.goto(url, { waitUntil: 'load' }));
    const area = page.locator('textarea.paste').first();
    const clear = async () => {
      await page.locator('button[data-action="clear"]').click();
      await page.locator('[data-hint]').waitFor({ timeout: WAIT }).catch(() => {});
    };
    check('page starts: paste area, initial hint and symptom list', await page.locator('[data-hint]').count() === 1
      && await page.locator('[data-symptoms] details.sym-group').first().waitFor({ timeout: 10_000 }).then(() => true, () => false)
      && await page.locator('[data-symptoms] details.sym-group').count() >= 6);
    check('English by default for an en-US browser', (await page.getAttribute('html', 'lang')) === 'en'
      && (await page.locator('button[data-action="diagnose"]').innerText()).trim() === 'Diagnose');
    check('paste area has a placeholder', ((await area.getAttribute('placeholder')) || '').length > 40);
    const nameless = await page.evaluate(() => [...document.querySelectorAll('button, textarea, input:not([type=file]), select')]
      .filter((b) => !(b.getAttribute('aria-label') || b.textContent || b.labels?.[0]?.textContent || b.placeholder || '').trim())
      .map((b) => b.outerHTML.slice(0, 80)));
    check('every control has an accessible name', nameless.length === 0, nameless.join('\n  '));
    if (ALL_SHOTS) await page.screenshot({ path: shotName('hint') });

    // keyboard: skip link first; after the language buttons, the first input's label and text, then the toolbar
    await page.keyboard.press('Tab');
    check('the first Tab reaches "Skip to the diagnosis"', await holds(page, () => document.activeElement?.classList.contains('skip')));
    await page.locator('button[data-lang="zh"]').focus();
    const order = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => {
        const a = document.activeElement;
        return a.dataset.action || a.className || a.tagName;
      }));
    }
    check('focus order: label, text, Diagnose, Add input', JSON.stringify(order) === JSON.stringify(['slot-label', 'paste', 'diagnose', 'add-input']),
      JSON.stringify(order));

    // the CANN layer's finding: its summary's paragraphs shown as such (CSS), no expected result under
    // its checks (the code table has none; the code's title once stood in for one)
    await area.fill('[ERROR] aclrtSetDevice(deviceId) failed: 507033\n'
      + '[ERROR] RecentErrMsg: Invalid_Argument(EE1001): The argument is invalid.Reason: rtGetDevMsg execution failed, the context is a null pointer.\n');
    const cann = page.locator('[data-rule-id="cann-error-code"]');
    await cann.waitFor({ timeout: WAIT }).catch(() => {});
    const cannSummary = await cann.locator('.summary').innerText().catch(() => '');
    check('a CANN finding shows one paragraph per code and no expected result under its checks',
      /:\n\n507033: /.test(cannSummary) && /\n\nEE1001: /.test(cannSummary)
      && await cann.locator('.step').count() > 0 && await cann.locator('.step .expect').count() === 0, JSON.stringify(cannSummary));

    // diagnosis as you type (debounced)
    await area.fill(LOG);
    const f = page.locator(FINDING);
    await f.waitFor({ timeout: WAIT }).catch(() => {});
    check(`typing a log shows ${RULE}`, await f.count() === 1);
    check('finding is an error with the English title and a severity badge', (await f.getAttribute('data-severity')) === 'error'
      && (await f.locator('.finding-title').innerText()).trim() === TITLE_EN
      && (await f.locator('.badge').innerText()).toLowerCase().includes('error'));
    const ev = await f.locator('.evidence .lines li').allInnerTexts();
    check('evidence lines carry line numbers', ev.length === 2 && /^2\s/.test(ev[0]) && /^3\s+EI0006/.test(ev[1]), JSON.stringify(ev));
    check('detected parts listed with a kind chip', (await page.locator('.seg').count()) >= 1
      && (await page.locator('.seg-cmd').first().innerText()).includes('tail -n 2')
      && (await page.locator('.seg select.chip').first().getAttribute('data-kind')) === 'log');

    // evidence line -> log view at that line, search, focus kept inside, Escape
    await f.locator('.evidence button.ln[data-line="3"]').click();
    const hl = page.locator('[data-logview] li.hl');
    await hl.waitFor({ timeout: WAIT }).catch(() => {});
    check('clicking an evidence line opens the log view at that line',
      (await hl.getAttribute('data-line')) === '3' && (await hl.innerText()).includes('Getting socket times out')
      && await hl.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }));
    check('the log view takes the focus', await holds(page, () => !!document.activeElement?.closest('.logview')));
    for (let i = 0; i < 8; i++) await page.keyboard.press('Tab');
    check('Tab stays inside the log view', await holds(page, () => !!document.activeElement?.closest('.logview')));
    await page.locator('[data-logview] input.log-query').fill('wait socket');
    await page.locator('[data-logview] input.log-query').press('Enter');
    await page.locator('[data-logview] li.hl[data-line="2"]').waitFor({ timeout: WAIT }).catch(() => {});
    check('the log view searches the input', await page.locator('[data-logview] li.hl[data-line="2"]').count() === 1
      && (await page.locator('[data-logview] [data-matches]').getAttribute('data-matches')) === '1');
    await page.keyboard.press('Escape');
    check('Escape closes the log view and the focus goes back to the line number', await page.locator('[data-logview]').count() === 0
      && await holds(page, () => document.activeElement?.dataset.line === '3'));

    // immediate diagnosis with Ctrl+Enter; healthy input gives the empty state
    await diagnose(page, HEALTHY);
    await page.locator('[data-empty]').waitFor({ timeout: WAIT }).catch(() => {});
    check('Ctrl+Enter diagnoses at once: healthy input -> empty state',
      await page.locator('[data-empty]').count() === 1 && await page.locator('[data-rule-id]').count() === 0);
    await area.fill(LOG);
    await page.locator('button[data-action="diagnose"]').click();
    await f.waitFor({ timeout: WAIT }).catch(() => {});
    check('Diagnose button diagnoses and takes the focus to the first finding', await f.count() === 1
      && await holds(page, () => document.activeElement?.classList.contains('finding-title')));

    // a command that failed
    await diagnose(page, '$ npu-smi info\nbash: npu-smi: command not found\n');
    await page.locator('[data-shell-errors]').waitFor({ timeout: WAIT }).catch(() => {});
    check('"command not found" is shown with what to do instead',
      (await page.locator('[data-shell-errors]').innerText().catch(() => '')).includes('npu-smi info'));

    // copy buttons -> clipboard (async API), and the execCommand fallback of plain-http pages
    if (mode === 'http') {
      await diagnose(page, LOG);
      const block = f.locator('.fixes .code').first();
      const expected = (await block.locator('pre').innerText()).trim();
      await block.locator('button.copy').click();
      await page.waitForFunction((el) => el.dataset.state !== 'idle', await block.locator('button.copy').elementHandle(), { timeout: WAIT }).catch(() => {});
      const clip = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => `ERR ${e}`);
      check('copy button puts the fix command on the clipboard', clip === expected && expected === 'export HCCL_CONNECT_TIMEOUT=3600',
        `clipboard=${JSON.stringify(clip)}`);
      check('copy button confirms', (await block.locator('button.copy').innerText()).trim() === 'Copied');

      const plain = await ctx.newPage();
      watch(plain, 'no-clipboard-api');
      await plain.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
      await load(plain, () => plain.goto(url, { waitUntil: 'load' }));
      await diagnose(plain, LOG);
      const b = plain.locator(`${FINDING} .fixes .code button.copy`).first();
      await b.click();
      const state = await b.getAttribute('data-state');
      const clip2 = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => `ERR ${e}`);
      check('without the Clipboard API (plain http) the fallback copies and confirms',
        state === 'copied' && clip2 === 'export HCCL_CONNECT_TIMEOUT=3600', `state=${state} clipboard=${JSON.stringify(clip2)}`);
      await plain.close();
    }

    // the example: root cause first, consequence collapsed under it, answered steps with their lines and conclusion
    await page.locator('button[data-action="example"]').click();
    await page.locator('[data-rule-id="hccl-link-down"]').waitFor({ timeout: WAIT }).catch(() => {});
    const order1 = await ids(page);
    check('example: root cause (hccl-link-down) before the timeout it explains',
      order1.indexOf('hccl-link-down') === 0 && order1.indexOf(RULE) > 0, JSON.stringify(order1));
    check('example: the consequence is one line under its cause, opened on demand',
      await page.locator(`details${FINDING}[data-consequence-of="hccl-link-down"]:not([open])`).count() === 1
      && await page.locator(`${FINDING} .step`).count() === 0);
    await page.locator(`${FINDING} > summary`).click();
    await page.locator(`${FINDING} .explained`).waitFor({ timeout: WAIT }).catch(() => {});
    check('example: opened, it says "Likely a consequence of" and links the cause',
      (await f.locator('.explained').innerText()).includes('Likely a consequence of')
      && await f.locator('.explained [data-cause="hccl-link-down"]').count() === 1);
    const down = page.locator('article[data-rule-id="hccl-link-down"]');
    const answered = (await down.locator('.step[data-state="answered"]').first().innerText().catch(() => ''));
    check('the answered link step shows the DOWN line that answered it and states its conclusion',
      answered.includes('link status: DOWN') && await down.locator('.step[data-state="answered"] [data-conclusion]').count() >= 1, answered);
    const fixText = await down.locator('.fixes').innerText().catch(() => '');
    check('the DOWN card (card 2 in the example) is named in the fix', /-i 2\b/.test(fixText) && !fixText.includes('<id>'),
      fixText.replace(/\s+/g, ' ').slice(0, 160));
    check('example: the next open step offers answers and a paste box',
      await down.locator('.step[data-next] textarea.step-paste').count() === 1);
    await page.screenshot({ path: shotName('1280'), fullPage: true });

    // share link of the example: length, preview, round trip in a fresh browser
    await page.locator('button[data-action="share"]').click();
    await page.locator('[data-share] input.share-url').waitFor({ timeout: WAIT }).catch(() => {});
    const shareUrl = await page.locator('[data-share] input.share-url').inputValue();
    const shareLen = Number(await page.locator('[data-share] [data-len]').getAttribute('data-len'));
    console.log(`     (share link of the example: ${shareLen} characters)`);
    check('Share puts the focus on the link', await holds(page, () => document.activeElement?.classList.contains('share-url')));
    if (mode === 'http') {
      check('share link (http): this page\'s address and a #v1= fragment, its length shown',
        shareUrl.startsWith(url) && /#v1=[A-Za-z0-9_-]+$/.test(shareUrl) && shareLen === shareUrl.length, `${shareLen} ${shareUrl.slice(0, 80)}`);
    } else {
      check('share link made from file:// carries no file: path (the bare code)',
        !shareUrl.includes('file:') && !shareUrl.includes('/') && shareUrl.startsWith('v1=') && await page.locator('[data-share] [data-bare]').count() === 1,
        shareUrl.slice(0, 80));
    }
    check('share link: the preview shows exactly the payload, no raw text by default',
      await page.locator('[data-share] pre.payload').evaluate((el) => {
        const p = JSON.parse(el.textContent);
        return p.v === 1 && Array.isArray(p.findings) && !('excerpts' in p) && !el.textContent.includes('Getting socket');
      }));
    await page.locator('[data-share] input[data-action="excerpts"]').check();
    await page.waitForFunction(() => document.querySelector('[data-share] pre.payload')?.textContent.includes('"excerpts"'), null, { timeout: WAIT }).catch(() => {});
    const withEx = await page.locator('[data-share] pre.payload').textContent();
    check('opting in adds redacted evidence lines', withEx.includes('"excerpts"') && withEx.includes('Getting socket times out'));
    await page.locator('[data-share] input[data-action="excerpts"]').uncheck();
    await page.waitForFunction((u) => document.querySelector('[data-share] input.share-url')?.value === u, shareUrl, { timeout: WAIT }).catch(() => {});
    check('opting out again gives the short link back', (await page.locator('[data-share] input.share-url').inputValue()) === shareUrl);
    // a team's own address, kept in this browser
    await page.locator('#share-base').fill('https://intra.example/roll-doctor/');
    await page.locator('#share-base').press('Tab');
    await page.waitForFunction(() => document.querySelector('[data-share] input.share-url')?.value.startsWith('https://intra.example/roll-doctor/#v1='), null, { timeout: WAIT }).catch(() => {});
    const based = await page.locator('[data-share] input.share-url').inputValue();
    check('the link base is configurable and kept', based.startsWith('https://intra.example/roll-doctor/#v1=')
      && await page.evaluate(() => localStorage.getItem('roll-doctor.share-base')) === 'https://intra.example/roll-doctor/', based.slice(0, 60));
    if (mode === 'http') {
      await page.locator('.status button[data-action="markdown"]').click();
      await page.waitForFunction(() => document.querySelector('.status button[data-action="markdown"]')?.dataset.state !== 'idle', null, { timeout: WAIT }).catch(() => {});
      const md = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => `ERR ${e}`);
      const outside = md.split('```').filter((_, i) => i % 2 === 0).join('').split('`').filter((_, i) => i % 2 === 0).join('');
      check('"Copy as Markdown": the report, placeholders as code, and the share link',
        md.startsWith('## roll-doctor diagnosis') && md.includes(`(\`${RULE}\`)`) && md.includes('<https://intra.example/roll-doctor/#v1=')
        && !/<[a-z-]+>/i.test(outside.replace(/<https:[^>]+>/g, '')), md.slice(0, 200));
    }
    await page.locator('#share-base').fill('');
    await page.locator('#share-base').press('Tab');
    await page.waitForFunction((u) => document.querySelector('[data-share] input.share-url')?.value === u, shareUrl, { timeout: WAIT }).catch(() => {});
    {
      const other = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
      const p = await other.newPage();
      watch(p, 'shared');
      const opened = mode === 'http' ? shareUrl : `${url}#${shareUrl}`;
      await load(p, () => p.goto(opened, { waitUntil: 'load' }));
      await p.locator('[data-shared]').waitFor({ timeout: WAIT }).catch(() => {});
      await p.locator('[data-rule-id]').first().waitFor({ timeout: WAIT }).catch(() => {});
      const got = await ids(p);
      check('share round trip: a fresh page shows the same findings in the same order, read-only',
        await p.locator('[data-shared]').count() === 1 && JSON.stringify(got) === JSON.stringify(order1)
        && await p.locator('[data-answer], textarea.step-paste').count() === 0, `${JSON.stringify(got)} vs ${JSON.stringify(order1)}`);
      // the bare code, pasted into the box of a page with no fragment
      const q = await other.newPage();
      watch(q, 'open-box');
      await load(q, () => q.goto(url, { waitUntil: 'load' }));
      await q.locator('[data-open-shared] summary').click();
      await q.locator('input.open-link').fill(shareUrl.slice(shareUrl.indexOf('v1=')));
      await q.locator('button[data-action="open-link"]').click();
      await q.locator('[data-shared]').waitFor({ timeout: WAIT }).catch(() => {});
      await q.locator('[data-rule-id]').first().waitFor({ timeout: WAIT }).catch(() => {});
      check('"Open a shared diagnosis" opens a pasted code', JSON.stringify(await ids(q)) === JSON.stringify(order1));
      await other.close();
    }

    // redaction: with excerpts, addresses are replaced and the local table lists them
    await clear();
    await diagnose(page, LOG_WITH_IP);
    await page.locator('button[data-action="share"]').click();
    await page.locator('[data-share] input[data-action="excerpts"]').check();
    await page.waitForFunction(() => document.querySelector('[data-share] pre.payload')?.textContent.includes('"excerpts"'), null, { timeout: WAIT }).catch(() => {});
    const payload = await page.locator('[data-share] pre.payload').textContent();
    const link = await page.locator('[data-share] input.share-url').inputValue();
    const table = await page.locator('[data-share] table.mapping').innerText().catch(() => '');
    check('redaction preview: the payload carries placeholders, not the address',
      !payload.includes('10.20.0.29') && !payload.includes('jdoe') && payload.includes('192.0.2.'), payload.slice(0, 300));
    check('the mapping table (kept on the page) lists every replacement with its kind',
      table.includes('10.20.0.29') && table.includes('192.0.2.') && table.includes('IPv4')
      && (await page.locator('[data-share] [data-mapping] summary').innerText()).includes('stays on this page'), table);
    check('the link itself does not contain the address', !decodeURIComponent(link).includes('10.20.0.29'));
    await page.locator('[data-share] input[data-action="excerpts"]').uncheck();
    await clear();
    await diagnose(page, LOG_WITH_NAMES);
    await page.locator('button[data-action="share"]').click();
    await page.locator('[data-share] input[data-action="excerpts"]').check();
    await page.waitForFunction(() => document.querySelector('[data-share] pre.payload')?.textContent.includes('"excerpts"'), null, { timeout: WAIT }).catch(() => {});
    const p2 = await page.locator('[data-share] pre.payload').textContent();
    check('bare host names learned from the prompt are replaced', !p2.includes('ascend-node-17'),
      'the excerpt keeps "ascend-node-17"');
    check('user names learned from the prompt are replaced inside longer tokens', !p2.includes('jdoe'),
      'the excerpt keeps "jdoe_runs"');
    await page.locator('[data-share] input[data-action="excerpts"]').uncheck();

    // a guided step answered by pasting its command's output
    await clear();
    await diagnose(page, LOG);
    check('the link check is the next open step', await page.locator(`${LINK_STEP}[data-next]`).count() === 1);
    await page.locator(`${LINK_STEP} textarea.step-paste`).fill('link status: UP\nlink status: UP\nlink status: DOWN');
    await page.locator(`${LINK_STEP} button[data-action="add-output"]`).click();
    await page.locator('[data-rule-id="hccl-link-down"]').waitFor({ timeout: WAIT }).catch(() => {});
    const order2 = await ids(page);
    check('pasting the output: hccl-link-down appears and comes first', order2[0] === 'hccl-link-down' && order2.includes(RULE), JSON.stringify(order2));
    check('the output became a second input named after the step', await page.locator('textarea.paste').count() === 2
      && (await page.locator('input.slot-label').nth(1).inputValue()) === "Check that every NPU's network link is up"
      && (await page.locator('textarea.paste').nth(1).inputValue()).startsWith('$ for i in {0..7}; do hccn_tool -i $i -link -g; done\n'));

    // clicking an answer: the diagnosis updates, the question is not asked again, the focus moves on
    await clear();
    await diagnose(page, LOG);
    await page.locator(`${LINK_STEP} button[data-answer="some-down"]`).click();
    await page.locator('[data-rule-id="hccl-link-down"]').waitFor({ timeout: WAIT }).catch(() => {});
    const order3 = await ids(page);
    check('clicking an answer: the diagnosis updates (hccl-link-down first)', order3[0] === 'hccl-link-down', JSON.stringify(order3));
    check('one click answers every finding that asks it', await page.locator('article[data-rule-id="hccl-link-down"] .step[data-state="ask"] button[data-answer="some-down"]').count() === 0);
    check('after answering, the focus is on the next thing to do in a finding', await holds(page, () => !!document.activeElement?.closest('[data-rule-id]')));
    await page.locator(`${FINDING} > summary`).click();
    await page.locator(`${LINK_STEP} button[data-action="change-answer"]`).click();
    await page.waitForFunction(() => !document.querySelector('[data-rule-id="hccl-link-down"]'), null, { timeout: WAIT }).catch(() => {});
    check('the answer can be taken back', JSON.stringify(await ids(page)) === JSON.stringify([RULE]));

    // Clear, then Undo
    await clear();
    check('Clear empties the inputs and offers Undo', (await area.inputValue()) === '' && await page.locator('button[data-action="undo-clear"]').count() === 1
      && await holds(page, () => document.activeElement?.classList.contains('paste')));
    await page.locator('button[data-action="undo-clear"]').click();
    await f.waitFor({ timeout: WAIT }).catch(() => {});
    check('Undo brings them back', (await area.inputValue()) === LOG && await f.count() === 1);

    // start from a symptom, found by its error code
    // Clear moves the focus to the paste area on the next frame, but not
    // away from a field the user went to before it: the symptom filter,
    // focused in the same task as the click (the picker renders in
    // microtasks, the frame comes after). It did, and what was then typed
    // went into the paste area: the symptom-picker failures of three
    // .ci/run runs on 2026-12-06, which a busy machine's late frames made.
    const kept = await page.evaluate(async () => {
      document.querySelector('button[data-action="clear"]').click();
      for (let i = 0; i < 50 && !document.querySelector('input.sym-filter'); i++) await Promise.resolve();
      const filter = document.querySelector('input.sym-filter');
      if (!filter) return 'no symptom filter after Clear';
      filter.focus();
      for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(r));
      return document.activeElement === filter ? '' : `the focus went to ${document.activeElement?.outerHTML.slice(0, 60)}`;
    });
    check('after Clear, a field focused before the next frame keeps the focus', kept === '', kept);
    await page.locator('[data-hint]').waitFor({ timeout: WAIT }).catch(() => {});
    // The list re-renders after the input event.
    const filtered = () => page.waitForFunction(
      () => document.querySelectorAll('[data-symptoms] button[data-symptom]').length < 10, null, { timeout: WAIT },
    ).then(() => true, () => false);
    await page.locator('input.sym-filter').fill('EI0006');
    await filtered();
    const pickerState = () => page.evaluate(() => ({
      value: document.querySelector('input.sym-filter')?.value,
      inputs: document.querySelectorAll('input.sym-filter').length,
      pickers: document.querySelectorAll('[data-symptoms]').length,
      shown: [...document.querySelectorAll('[data-symptoms] button[data-symptom]')].map((b) => b.dataset.symptom).slice(0, 12),
      none: document.querySelectorAll('[data-symptoms-none]').length,
      groups: document.querySelectorAll('[data-symptoms] details').length,
      open: document.querySelectorAll('[data-symptoms] details[open]').length,
      hint: document.querySelectorAll('[data-hint]').length,
      results: document.querySelectorAll('.results .finding').length,
      focus: document.activeElement?.outerHTML.slice(0, 80),
      paste: document.querySelector('textarea.paste')?.value.slice(0, 80),
    }));
    const pickerOk = await page.locator(`[data-symptoms] button[data-symptom="${RULE}"]`).count() === 1
      && await page.locator('[data-symptoms] button[data-symptom]').count() < 10;
    check('the symptom picker filters by error code', pickerOk, pickerOk ? '' : JSON.stringify(await pickerState()));
    await page.locator(`[data-symptoms] button[data-symptom="${RULE}"]`).click();
    await f.waitFor({ timeout: WAIT }).catch(() => {});
    check('start from a symptom: its finding and first question', await page.locator(`${FINDING}[data-from-symptom]`).count() === 1
      && await page.locator(`${LINK_STEP}[data-next] button[data-answer]`).count() >= 2);
    await page.locator(`${LINK_STEP} button[data-answer="some-down"]`).click();
    await page.locator('[data-rule-id="hccl-link-down"]').waitFor({ timeout: WAIT }).catch(() => {});
    check('symptom: answering walks the tree', (await ids(page))[0] === 'hccl-link-down');

    // pasted HTML stays text
    await clear();
    const scripts = await page.locator('script').count();
    await diagnose(page, EVIL);
    check('a <script> paste is inert: shown as text, nothing runs, nothing loads',
      (await f.locator('.evidence .lt').first().textContent()) === EVIL && dialogs.length === 0
      && await page.locator('script').count() === scripts && await page.locator('.results img, .results b').count() === 0,
      dialogs.join(', '));

    // a file from the picker, then one dropped on the page
    await clear();
    const fileBody = Buffer.from(`${('x'.repeat(100) + '\n').repeat(30_000)}${LOG}`);
    await page.locator('input[type="file"]:not([data-rules-input])').setInputFiles({ name: 'plog-17.log', mimeType: 'text/plain', buffer: fileBody });
    await f.waitFor({ timeout: 10_000 }).catch(() => {});
    check('a picked file (3 MB) is read and diagnosed', await f.count() === 1
      && (await page.locator('input.slot-label').first().inputValue()) === 'plog-17.log');
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'node-2-ulimit.txt', { type: 'text/plain' }));
      const target = document.querySelector('.results');
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, '$ ulimit -n\n1024\n');
    await page.locator('.seg select.chip[data-kind="ulimit"]').waitFor({ timeout: WAIT }).catch(() => {});
    check('a dropped file becomes another input', (await page.locator('input.slot-label').nth(1).inputValue().catch(() => '')) === 'node-2-ulimit.txt'
      && await page.locator('.seg select.chip[data-kind="ulimit"]').count() === 1);

    // a rule file dropped on its zone: applies, its errors are listed
    await clear();
    await page.locator('[data-rules] > summary').click();
    await page.evaluate(() => {
      const good = 'id: e2e-widget\nseverity: warn\narea: other\ntitle: { en: "Widget failure", zh: "部件故障" }\n'
        + 'summary: { en: "The widget failed.", zh: "部件失败。" }\nwhen: { signature: \'WIDGET-FAILURE-42\' }\n'
        + 'fixes:\n  - title: { en: "Restart it", zh: "重启" }\n    commands: [\'widget restart\']\n'
        + "examples:\n  match: ['WIDGET-FAILURE-42']\n  no_match: ['fine']\n";
      const dt = new DataTransfer();
      dt.items.add(new File([good], 'widget.yaml'));
      dt.items.add(new File(['id: broken\nseverity: nope\n'], 'broken.yaml'));
      document.querySelector('[data-rules-drop]').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.locator('[data-rules-errors]').waitFor({ timeout: WAIT }).catch(() => {});
    await diagnose(page, 'x WIDGET-FAILURE-42 y\n');
    check('a rule file applies at run time and a broken one shows file:line', await page.locator('[data-rule-id="e2e-widget"]').count() === 1
      && (await page.locator('[data-rules-errors]').innerText()).includes('broken.yaml:'));
    for (const name of ['widget.yaml', 'broken.yaml']) {
      await page.locator(`[data-rule-file="${name}"] button[data-action="remove-rule-file"]`).click();
    }
    await page.waitForFunction(() => !document.querySelector('[data-rule-id="e2e-widget"]'), null, { timeout: WAIT }).catch(() => {});

    // --- the whole cluster (issue 11), the knowledge base and "new rule" (issue 10) -------------
    {
      const bundle = await readFile(join(FIXTURES, 'node-stack-version-differs--three-node-bundle.txt'), 'utf8');
      const dropFiles = (files) => page.evaluate((list) => {
        const dt = new DataTransfer();
        for (const [name, text] of list) dt.items.add(new File([text], name, { type: 'text/plain' }));
        const target = document.querySelector('.results');
        target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, files);
      const nodesOf = () => page.locator('[data-cluster] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.node));
      const NODES = JSON.stringify(['ascend-node-1', 'ascend-node-2', 'ascend-node-3']);
      // the Ray collector's bundle, dropped as one file: its own markers name the nodes
      await clear();
      await dropFiles([['bundle.txt', bundle]]);
      await page.locator('[data-cluster]').waitFor({ timeout: 10_000 }).catch(() => {});
      const cell = (node, check) => page.locator(`[data-cluster] tr[data-node="${node}"] td[data-check="${check}"]`);
      const linkCell = cell('ascend-node-3', 'links');
      const got = {
        nodes: await nodesOf(),
        status: await linkCell.getAttribute('data-status').catch(() => null),
        text: (await linkCell.innerText().catch(() => '')).trim(),
        others: [await cell('ascend-node-1', 'links').getAttribute('data-status').catch(() => null),
          await cell('ascend-node-2', 'links').getAttribute('data-status').catch(() => null)],
        torch: await cell('ascend-node-2', 'torch-npu').getAttribute('data-status').catch(() => null),
        missing: await page.locator('[data-cluster] [data-missing-nodes]').innerText().catch(() => ''),
      };
      console.log(`     (cluster table of the bundle: ${JSON.stringify(got)})`);
      check('a three-node bundle (one dropped file) shows the cluster table, the odd cells flagged',
        JSON.stringify(got.nodes) === NODES && got.status === 'fail' && got.text.includes('5: DOWN')
        && got.others.every((s) => s === 'ok') && got.torch === 'fail' && got.missing.includes('ascend-node-4'), JSON.stringify(got));
      // the cluster table sits above the findings
      check('the cluster table comes before the findings', await page.evaluate(() => {
        const t = document.querySelector('[data-cluster]');
        const f = document.querySelector('.findings');
        return !!t && !!f && !!(t.compareDocumentPosition(f) & Node.DOCUMENT_POSITION_FOLLOWING);
      }));
      await linkCell.locator('button.cell').click();
      await holds(page, () => !!document.activeElement?.closest('[data-rule-id="hccl-link-down"] .evidence'));
      await page.waitForTimeout(300); // the scroll into view settles
      const focus = await page.evaluate(() => {
        const a = document.activeElement;
        const r = a?.closest('.finding')?.getBoundingClientRect();
        return { rule: a?.closest('[data-rule-id]')?.dataset.ruleId, evidence: !!a?.closest('.evidence'),
          line: (a?.closest('li')?.innerText || '').trim(), top: r ? Math.round(r.top) : null };
      });
      check('clicking the flagged cell focuses its finding and the evidence line it comes from',
        focus.rule === 'hccl-link-down' && focus.evidence && focus.line.includes('link status: DOWN') && focus.top !== null && focus.top < 200,
        JSON.stringify(focus));
      await cell('ascend-node-2', 'torch-npu').locator('button.cell').click();
      await holds(page, () => document.activeElement?.closest('[data-rule-id]')?.dataset.ruleId === 'node-stack-version-differs');
      const focus2 = await page.evaluate(() => document.activeElement?.closest('[data-rule-id]')?.dataset.ruleId);
      check('clicking node 2\'s torch-npu cell focuses the version finding', focus2 === 'node-stack-version-differs', String(focus2));
      if (ALL_SHOTS) await page.screenshot({ path: shotName('cluster'), fullPage: true });

      // the same cluster as one file per node (an ssh loop's way): each file's name is its node
      await clear();
      const parts = bundle.split('===== roll-doctor node: ').slice(1).map((p) => {
        const nl = p.indexOf('\n');
        return [`${p.slice(0, nl).replace(/ =+$/, '')}.txt`, p.slice(nl + 1)];
      });
      await dropFiles(parts);
      await page.waitForFunction(() => document.querySelectorAll('[data-cluster] tbody tr').length === 3, null, { timeout: 10_000 }).catch(() => {});
      const perNode = { names: parts.map((p) => p[0]), nodes: await nodesOf(),
        status: await cell('ascend-node-3', 'links').getAttribute('data-status').catch(() => null) };
      check('three per-node files dropped at once: each file\'s name is its node',
        JSON.stringify(perNode.nodes) === NODES && perNode.status === 'fail', JSON.stringify(perNode));

      // one node's input: no cluster table
      await clear();
      await diagnose(page, LOG);
      check('a single-node input shows no cluster table', await page.locator(FINDING).count() === 1 && await page.locator('[data-cluster]').count() === 0);

      // the collectors: copy and download, equal to what `roll-doctor collector [--ray]` prints
      await page.locator('[data-collector] > summary').click();
      const bin = nativeBin();
      const expected = (ray) => (bin
        ? execFileSync(bin, ray ? ['collector', '--ray'] : ['collector'], { encoding: 'utf8', maxBuffer: 1 << 24 })
        : null);
      for (const [kind, name, ray] of [['shell', 'roll-doctor-collect.sh', false], ['ray', 'roll-doctor-ray-collect.py', true]]) {
        const part = page.locator(`[data-collector-kind="${kind}"]`);
        const dl = page.waitForEvent('download', { timeout: 10_000 }).catch(() => null);
        await part.locator('[data-action="download-script"]').click();
        const d = await dl;
        const saved = join(resolve(outDir), `downloaded-${name}`);
        if (d) await d.saveAs(saved);
        const text = d ? await readFile(saved, 'utf8') : '';
        const want = expected(ray) ?? await readFile(join(ROOT, 'collector', name), 'utf8');
        console.log(`     (collector ${name}: downloaded ${text.length} chars, compared with ${bin ? `${bin} collector${ray ? ' --ray' : ''}` : `collector/${name} (no native binary)`})`);
        check(`collector (${kind}): Download gives ${name}, equal to \`roll-doctor collector${ray ? ' --ray' : ''}\``,
          d?.suggestedFilename() === name && text.length > 1000 && text === want);
        check(`collector (${kind}): the run command and Copy buttons are there`,
          await part.locator('.code pre').count() === 1 && await part.locator('button[data-action="copy-script"]').count() === 1
          && await part.locator('.code button.copy').count() === 1);
        if (mode === 'http') {
          await part.locator('button[data-action="copy-script"]').click();
          await page.waitForTimeout(200);
          const clip = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => `ERR ${e}`);
          check(`collector (${kind}): Copy script puts the script on the clipboard`, clip === want, `${clip.length} chars`);
        }
      }

      // an ascend-fd knowledge base dropped on the rule-file zone
      await page.evaluate(() => {
        const kg = JSON.stringify({ 'knowledge-repository': {
          E2E_GIZMO: { attribute: { class: 'Software', component: 'CANN', module: 'HCCL', cause_en: 'Gizmo jammed', cause_zh: '小部件卡住',
            description_en: 'The gizmo jammed.', description_zh: '小部件卡住了。', suggestion_en: ['1. Unjam it.'], suggestion_zh: ['1. 疏通它。'] },
          source_file: 'TrainLog', regex: { in: [['GIZMO-77', 'jammed']] } },
          E2E_MULTI: { attribute: { cause_en: 'Multi-line', cause_zh: '多行' }, regex: { opt: [{ all: [['a'], ['b']] }] } },
        } });
        const dt = new DataTransfer();
        dt.items.add(new File([kg], 'kg-config.json', { type: 'application/json' }));
        document.querySelector('[data-rules-drop]').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      });
      const kb = page.locator('[data-kb-status="kg-config.json"]');
      await kb.waitFor({ timeout: WAIT }).catch(() => {});
      const kbText = await kb.innerText().catch(() => '');
      console.log(`     (knowledge base: ${kbText})`);
      await diagnose(page, 'GIZMO-77 is jammed\n');
      const kbFinding = page.locator('[data-rule-id="kb:E2E_GIZMO"]');
      await kbFinding.waitFor({ timeout: WAIT }).catch(() => {});
      check('an ascend-fd knowledge base drop: entries used/skipped shown, its entry fires with its source',
        (await kb.getAttribute('data-kb-used').catch(() => null)) === '1' && (await kb.getAttribute('data-kb-skipped').catch(() => null)) === '1'
        && kbText.includes('1 entries used') && await kbFinding.count() === 1
        && (await kbFinding.locator('[data-origin]').innerText().catch(() => '')).includes('ascend-fd'), kbText);
      await page.evaluate(() => {
        const dt = new DataTransfer();
        dt.items.add(new File(['{"not": "a knowledge base"}'], 'other.json'));
        document.querySelector('[data-rules-drop]').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      });
      await page.locator('[data-kb-status="other.json"][data-kb-error]').waitFor({ timeout: WAIT }).catch(() => {});
      check('a JSON file that is not a knowledge base says why', (await page.locator('[data-kb-status="other.json"]').innerText().catch(() => ''))
        .includes('not an ascend-fd knowledge base'));
      for (const name of ['kg-config.json', 'other.json']) {
        await page.locator(`[data-rule-file="${name}"] button[data-action="remove-rule-file"]`).click();
      }
      // Each removal re-diagnoses: wait for the last one's report (no knowledge-base status
      // left), not only the first one's (its finding gone), or a slow machine races them.
      await page.waitForFunction(() => !document.querySelector('[data-rule-id="kb:E2E_GIZMO"]') && !document.querySelector('[data-kb-status]'),
        null, { timeout: WAIT }).catch(() => {});
      check('removing the knowledge base removes its findings', await kbFinding.count() === 0 && await page.locator('[data-kb-status]').count() === 0);

      // "new rule from this line" on an unexplained line
      const odd = '(WorkerDict pid=2211) ValueError: Expected tensor of shape [4096, 128] but got [2048, 128] on device 3';
      await diagnose(page, `${odd}\n`);
      await page.locator('[data-unexplained] [data-action="new-rule"]').first().click().catch(() => {});
      const stub = await page.locator('[data-unexplained] [data-new-rule] pre').first().innerText().catch(() => '');
      console.log(`     (new-rule stub: ${JSON.stringify(stub.split('\n').filter((l) => /^(id|  signature):/.test(l)))})`);
      check('"New rule from this line" shows a rule stub with the line\'s key tokens and a Copy button',
        stub.includes('id: new-value-error') && /signature: 'ValueError:.*Expected.*tensor.*shape/.test(stub) && stub.includes(odd)
        && await page.locator('[data-unexplained] [data-new-rule] .code button.copy').count() >= 1, stub.slice(0, 400));

      // 360 px: the cluster table scrolls inside its box, the page does not
      for (const lang of ['en', 'zh']) {
        const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
        const p = await phone.newPage();
        watch(p, `cluster-360-${lang}`);
        await load(p, () => p.goto(url, { waitUntil: 'load' }));
        await diagnose(p, bundle);
        await p.locator('[data-cluster]').waitFor({ timeout: 10_000 }).catch(() => {});
        await p.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
        await p.waitForTimeout(100);
        const o = await overflowOf(p);
        const box = await p.locator('[data-cluster] .cluster-wrap').boundingBox().catch(() => null);
        check(`360 px (${lang}): cluster table shown, no page overflow (the table scrolls in its box)`,
          await p.locator('[data-cluster] tbody tr').count() === 3 && o <= 0 && !!box && box.x >= 0 && box.x + box.width <= 360,
          `overflow ${o}px, box ${JSON.stringify(box)}`);
        if (lang === 'zh' || ALL_SHOTS) await p.screenshot({ path: shotName(`cluster-360-${lang}`), fullPage: false });
        await phone.close();
      }
    }

    // 10 MB paste kept out of the textarea (a Blob card) and diagnosed in the worker
    await clear();
    const pasted = await page.evaluate(async (tail) => {
      const line = '(WorkerDict pid=12345) INFO 06-09 06:57:48 worker_base.py:581] Loading weights took 12.34 seconds\n';
      const text = line.repeat(Math.ceil((10 * 1024 * 1024) / line.length)) + tail;
      const dt = new DataTransfer();
      dt.setData('text/plain', text);
      const el = document.querySelector('textarea.paste');
      const ev = new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true });
      const t0 = performance.now();
      el.dispatchEvent(ev);
      await new Promise((done) => {
        const poll = () => (document.querySelector('[data-rule-id="hccl-connect-timeout"]') && document.querySelector('#results')?.getAttribute('aria-busy') === 'false'
          ? done() : requestAnimationFrame(poll));
        poll();
      });
      const st = document.querySelector('.status');
      return { prevented: ev.defaultPrevented, ms: performance.now() - t0, engineMs: Number(st.dataset.engineMs), readMs: Number(st.dataset.readMs) };
    }, LOG);
    console.log(`     (10 MB paste → findings on screen: ${pasted.ms.toFixed(0)} ms; read in the worker ${pasted.readMs.toFixed(0)} ms, engine ${pasted.engineMs.toFixed(0)} ms)`);
    check('a 10 MB paste is kept out of the textarea (a card) and diagnosed', pasted.prevented
      && await page.locator('[data-file-card]').count() === 1 && await f.count() === 1
      && (await page.locator('[data-file-card]').innerText()).includes('Pasted text'));
    check('a 10 MB input is not kept in localStorage, with a visible note', await page.locator('[data-note="unsaved"]').count() === 1
      && await page.evaluate(() => (localStorage.getItem('roll-doctor.inputs') || '').length < 100_000));
    await page.locator('button[data-action="show-file"]').click();
    await page.locator('[data-logview] li.hl').waitFor({ timeout: WAIT }).catch(() => {});
    check('the text of a large input is shown from the worker', (await page.locator('[data-logview] .window').innerText()).includes('of'));
    await page.keyboard.press('Escape');

    // language switch
    await page.locator('button[data-action="example"]').click();
    await page.locator('[data-rule-id="hccl-link-down"]').waitFor({ timeout: WAIT }).catch(() => {});
    await page.locator('button[data-lang="zh"]').click();
    await page.locator('.finding-title', { hasText: TITLE_ZH }).waitFor({ timeout: WAIT }).catch(() => {});
    check('switching to Chinese shows the Chinese title', (await f.locator('.finding-title').innerText()).trim() === TITLE_ZH);
    check('<html lang> follows the language', (await page.getAttribute('html', 'lang')) === 'zh-CN');
    check('UI strings switch too', (await page.locator('button[data-action="diagnose"]').innerText()).trim() === '诊断'
      && (await page.title()).includes('诊断') && (await page.locator('button[data-action="share"]').innerText()).trim() === '分享链接');
    await page.locator('button[data-action="share"]').click();
    await page.locator('[data-share] input.share-url').waitFor({ timeout: WAIT }).catch(() => {});
    const zhLink = await page.locator('[data-share] input.share-url').inputValue();

    // the inputs and the language survive a reload
    await load(page, () => page.reload({ waitUntil: 'load' }));
    check('language remembered across reload', (await page.getAttribute('html', 'lang')) === 'zh-CN'
      && await page.locator('button[data-lang="zh"][aria-pressed="true"]').count() === 1);
    await f.waitFor({ timeout: WAIT }).catch(() => {});
    check('inputs restored after reload and diagnosed again', (await area.inputValue()).startsWith('$ for i in {0..7}')
      && (await f.locator('.finding-title').innerText().catch(() => '')).trim() === TITLE_ZH);
    await page.screenshot({ path: shot, fullPage: true });

    // a corrupt link (same page, new fragment): a message, and the local input stays
    const before = await page.evaluate(() => localStorage.getItem('roll-doctor.inputs'));
    const code = zhLink.slice(zhLink.indexOf('v1='));
    await page.evaluate((c) => { location.hash = c.slice(0, 40); }, code);
    await page.locator('[data-link-error]').waitFor({ timeout: WAIT }).catch(() => {});
    check('a truncated link shows a clear message (zh)', (await page.locator('[data-link-error]').innerText().catch(() => '')).includes('无法打开该分享链接'));
    check('... and loses no local input', (await area.inputValue()).startsWith('$ for i in {0..7}')
      && await page.evaluate(() => localStorage.getItem('roll-doctor.inputs')) === before);
    {
      const p = await ctx.newPage();
      watch(p, 'future-link');
      await load(p, () => p.goto(`${url}#v7=AAAA`, { waitUntil: 'load' }));
      await p.locator('[data-link-error]').waitFor({ timeout: WAIT }).catch(() => {});
      const msg = await p.locator('[data-link-error]').innerText().catch(() => '');
      check('a future-version link says so, and the saved inputs are shown', msg.includes('7')
        && (await p.locator('textarea.paste').first().inputValue()).startsWith('$ for i in {0..7}'), msg);
      await p.close();
    }
    {
      const other = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
      const p = await other.newPage();
      watch(p, 'zh-link');
      await load(p, () => p.goto(`${url}#${code}`, { waitUntil: 'load' }));
      await p.locator('[data-shared]').waitFor({ timeout: WAIT }).catch(() => {});
      await p.locator(`${FINDING} .finding-title`).waitFor({ timeout: WAIT }).catch(() => {});
      check("a shared link opens in the sender's language", (await p.getAttribute('html', 'lang')) === 'zh-CN'
        && (await p.locator(`${FINDING} .finding-title`).innerText().catch(() => '')).trim() === TITLE_ZH);
      await other.close();
    }

    // the served page offers itself as the offline file (no request), which works from file://
    if (mode === 'http') {
      const dl = page.waitForEvent('download', { timeout: 10_000 }).catch(() => null);
      await page.locator('[data-action="download-offline"]').click();
      const d = await dl;
      const saved = join(resolve(outDir), 'downloaded-roll-doctor.html');
      if (d) await d.saveAs(saved);
      const bytes = d ? await readFile(saved) : Buffer.alloc(0);
      const html = bytes.toString('latin1');
      const servedSize = (await stat(join(resolve(target), 'index.html'))).size;
      check('"Download for offline use" gives the whole page as one file', d?.suggestedFilename() === 'roll-doctor.html'
        && html.startsWith('<!DOCTYPE html>') && html.includes('id="rd-wasm"') && html.includes("connect-src 'none'"));
      // In the offline file's form: windows-1252 with the modules as bytes, a quarter smaller than the served page.
      check('the downloaded file is the compact offline form', html.includes('<meta charset="windows-1252">')
        && html.includes('data-enc="cp1252"') && bytes.length < servedSize * 0.85, `${bytes.length} bytes, served page ${servedSize}`);
      if (html) {
        const q = await browser.newPage();
        watch(q, 'downloaded');
        await load(q, () => q.goto(pathToFileURL(saved).href, { waitUntil: 'load' }));
        await diagnose(q, LOG);
        check('the downloaded file works from file://', await q.locator(FINDING).count() === 1);
        await q.close();
      }
    } else {
      check('a page opened from a file offers no download of itself', await page.locator('[data-action="download-offline"]').count() === 0);
      // A copy damaged on the way (a changed byte; an editor that re-saved the windows-1252 file
      // as UTF-8) says so in both languages instead of failing silently or running broken code.
      const bytes = await readFile(resolve(target));
      const at = bytes.indexOf('id="rd-wasm"') + 20_000;
      const flipped = Buffer.from(bytes);
      flipped[at] = flipped[at] === 0x41 ? 0x42 : 0x41;
      const reencoded = Buffer.from(bytes.toString('latin1'), 'utf8');
      for (const [name, data] of [['one changed byte', flipped], ['re-saved as UTF-8', reencoded]]) {
        const copy = join(resolve(outDir), 'damaged-roll-doctor.html');
        await writeFile(copy, data);
        const q = await browser.newPage(); // not watched: its start-up error is the point
        await q.goto(pathToFileURL(copy).href, { waitUntil: 'load' });
        const crash = await q.locator('.crash').textContent({ timeout: WAIT }).catch(() => '');
        check(`a damaged copy of the offline file (${name}) says it is damaged, in both languages`,
          crash.includes('damaged') && crash.includes('损坏') && await q.locator('textarea.paste').count() === 0, crash);
        await q.close();
      }
    }

    // contrast (WCAG AA) in both themes, with a report, a share panel and the symptom list on screen
    for (const scheme of ['light', 'dark']) {
      const c = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', colorScheme: scheme });
      const p = await c.newPage();
      watch(p, `contrast-${scheme}`);
      await load(p, () => p.goto(url, { waitUntil: 'load' }));
      await p.locator('[data-symptoms] details.sym-group').first().waitFor({ timeout: 10_000 }).catch(() => {});
      await p.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
      const bad1 = await p.evaluate(CONTRAST);
      await p.locator('button[data-action="example"]').click();
      await p.locator('[data-rule-id="hccl-link-down"]').waitFor({ timeout: WAIT }).catch(() => {});
      await p.locator('button[data-action="share"]').click();
      await p.locator('[data-share]').waitFor({ timeout: WAIT }).catch(() => {});
      await p.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
      await p.waitForTimeout(200);
      const bad2 = await p.evaluate(CONTRAST);
      if (scheme === 'dark') {
        const bg = await p.evaluate(() => getComputedStyle(document.body).backgroundColor);
        const lum = (bg.match(/\d+/g) || [255, 255, 255]).slice(0, 3).reduce((a, b) => a + Number(b), 0) / 3;
        check('dark mode: a dark background when the system prefers dark', lum < 60, bg);
        await p.screenshot({ path: shotName('dark'), fullPage: true });
      }
      const bad = [...new Set([...bad1, ...bad2])];
      check(`WCAG AA contrast of every visible text (${scheme} theme)`, bad.length === 0, bad.slice(0, 12).join('\n  '));
      await c.close();
    }

    // --- phone, 360 px ---------------------------------------------------------------------
    for (const lang of ['zh', 'en']) {
      const phone = await browser.newContext({
        viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
        locale: lang === 'zh' ? 'zh-CN' : 'en-US',
      });
      const p = await phone.newPage();
      watch(p, `phone-${lang}`);
      await load(p, () => p.goto(url, { waitUntil: 'load' }));
      const o0 = await overflowOf(p);
      await p.locator('button[data-action="example"]').click();
      await p.locator(`${FINDING} .finding-title`).waitFor({ timeout: WAIT }).catch(() => {});
      const title = (await p.locator(`${FINDING} .finding-title`).innerText().catch(() => '')).trim();
      check(`phone 360 px (${lang}): browser language ${lang} picked up, finding shown`, title === (lang === 'zh' ? TITLE_ZH : TITLE_EN), title);
      await p.locator('textarea.paste').first().fill(LOG);
      await p.locator('button[data-action="diagnose"]').click();
      await p.waitForFunction(() => document.querySelector('#results')?.getAttribute('aria-busy') === 'false', null, { timeout: WAIT }).catch(() => {});
      await p.waitForTimeout(300);
      const pos = await p.evaluate(() => {
        const t = document.querySelector('.results .finding .finding-title');
        const r = t?.getBoundingClientRect();
        return { top: r?.top, bottom: r?.bottom, focused: document.activeElement === t, h: innerHeight };
      });
      check(`phone 360×740 (${lang}): after Diagnose the first finding is in view and focused`,
        pos.top >= 0 && pos.bottom <= pos.h && pos.focused, JSON.stringify(pos));
      await p.locator('button[data-action="share"]').click();
      await p.locator('[data-share]').waitFor({ timeout: WAIT }).catch(() => {});
      const o1 = await overflowOf(p);
      check(`phone 360 px (${lang}): no sideways scrolling (start, diagnosis, share panel)`, o0 <= 0 && o1 <= 0, `overflow ${o0}px / ${o1}px`);
      const phoneLink = await p.locator('[data-share] input.share-url').inputValue();
      await p.screenshot({ path: shotName(`360-${lang}`), fullPage: true });
      await p.locator(`${FINDING} .evidence button.ln`).first().click();
      await p.locator('.logview').waitFor({ timeout: WAIT }).catch(() => {});
      const box = await p.locator('.logview').boundingBox().catch(() => null);
      check(`phone 360 px (${lang}): the log view fits the screen`, !!box && box.width <= 360 && box.x >= 0, JSON.stringify(box));
      // a shared link opened on a phone: the recipient sees the finding first
      const q = await phone.newPage();
      watch(q, `phone-link-${lang}`);
      const opened = phoneLink.startsWith('v1=') ? `${url}#${phoneLink}` : phoneLink;
      await load(q, () => q.goto(opened, { waitUntil: 'load' }));
      await q.locator('[data-shared]').waitFor({ timeout: WAIT }).catch(() => {});
      await q.waitForTimeout(300);
      const qpos = await q.evaluate(() => {
        const t = document.querySelector('.results .finding .finding-title');
        const r = t?.getBoundingClientRect();
        return { top: r?.top, bottom: r?.bottom, focused: document.activeElement === t, h: innerHeight };
      });
      check(`phone 360×740 (${lang}): opening a shared link shows and focuses the first finding`,
        qpos.top >= 0 && qpos.bottom <= qpos.h && qpos.focused, JSON.stringify(qpos));
      await phone.close();
    }

    // no horizontal overflow at 360 px for every fixture, both languages (http only: same page)
    if (mode === 'http') {
      const names = (await readdir(FIXTURES)).filter((n) => n.endsWith('.txt')).sort();
      for (const lang of ['en', 'zh']) {
        const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
        const p = await phone.newPage();
        watch(p, `fixtures-${lang}`);
        await load(p, () => p.goto(url, { waitUntil: 'load' }));
        const wide = [];
        for (const n of names) {
          const text = await readFile(join(FIXTURES, n), 'utf8');
          await diagnose(p, text);
          await p.evaluate(() => document.querySelectorAll('.results details').forEach((d) => { d.open = true; }));
          await p.waitForTimeout(30);
          const o = await overflowOf(p);
          if (o > 0) {
            const culprit = await p.evaluate(() => [...document.querySelectorAll('.results *')]
              .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
              .map((e) => `${e.tagName.toLowerCase()}.${e.className}`).slice(-1)[0]);
            wide.push(`${n}: ${o}px (${culprit})`);
          }
        }
        check(`360 px, ${lang}: no horizontal overflow for any of ${names.length} fixtures`, wide.length === 0, wide.slice(0, 10).join('\n  '));
        await phone.close();
      }
    }

    // --- a 100 MB file: read and diagnosed in the worker; the page never blocks ----------------
    {
      const path = await bigLog(BIG_MB);
      const size = (await stat(path)).size;
      const c = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
      const p = await c.newPage();
      watch(p, 'big');
      await load(p, () => p.goto(url, { waitUntil: 'load' }));
      await p.waitForTimeout(300);
      await p.evaluate(() => {
        window.__long = [];
        window.__sawProgress = false;
        new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(e.duration))).observe({ type: 'longtask' });
        new MutationObserver(() => { if (document.querySelector('[data-progress] button[data-action="cancel"]')) window.__sawProgress = true; })
          .observe(document.body, { childList: true, subtree: true });
        window.__t0 = performance.now();
      });
      await p.locator('input[type="file"]:not([data-rules-input])').setInputFiles(path);
      await p.locator(FINDING).waitFor({ timeout: 180_000 }).catch(() => {});
      await p.waitForFunction(() => document.querySelector('#results')?.getAttribute('aria-busy') === 'false', null, { timeout: 180_000 }).catch(() => {});
      const r = await p.evaluate(() => {
        const st = document.querySelector('.status');
        return { long: window.__long, progress: window.__sawProgress, total: performance.now() - window.__t0,
          engineMs: Number(st?.dataset.engineMs), readMs: Number(st?.dataset.readMs), bytes: Number(st?.dataset.bytes),
          memory: Number(st?.dataset.memory) };
      });
      const maxLong = r.long.length ? Math.max(...r.long) : 0;
      const mb = size / 1e6;
      console.log(`     (${mb.toFixed(1)} MB file: ${r.total.toFixed(0)} ms to the findings; read in the worker ${r.readMs.toFixed(0)} ms, `
        + `engine ${r.engineMs.toFixed(0)} ms = ${(mb / (r.engineMs / 1000)).toFixed(0)} MB/s in wasm; main-thread long tasks: ${r.long.length}, `
        + `longest ${maxLong.toFixed(0)} ms; the worker's wasm memory ${(r.memory / 1e6).toFixed(1)} MB = ${(r.memory / size).toFixed(2)}× the file)`);
      check(`a ${BIG_MB} MB file is diagnosed in the worker with a progress line and Cancel`, await p.locator(FINDING).count() === 1 && r.progress && r.bytes === size);
      check('the main thread has no task over 100 ms while it is read and diagnosed', maxLong <= 100, `${maxLong.toFixed(0)} ms`);
      // A wasm memory only grows: its size after the diagnosis is the engine's peak (issue 13:
      // at most 3× the input, in the page too). It holds the file's text, read into it once.
      check('the worker\'s wasm memory peaks at no more than 3× the file', r.memory > size && r.memory <= 3 * size,
        `${r.memory} B for ${size} B`);
      const bin = nativeBin();
      if (bin) {
        const times = [];
        for (let i = 0; i < 2; i++) {
          const t0 = process.hrtime.bigint();
          execFileSync(bin, ['diagnose', '--format', 'json', path], { stdio: ['ignore', 'ignore', 'ignore'], maxBuffer: 1 << 26 });
          times.push(Number(process.hrtime.bigint() - t0) / 1e6);
        }
        const native = Math.min(...times);
        console.log(`     (native ${bin} diagnose --format json on the same file: ${native.toFixed(0)} ms = ${(mb / (native / 1000)).toFixed(0)} MB/s; `
          + `wasm engine / native = ${(r.engineMs / native).toFixed(2)}, wasm read+engine / native = ${((r.engineMs + r.readMs) / native).toFixed(2)})`);
        known('wasm throughput within 2× of native (issue 12)', r.engineMs / native <= 2, `${(r.engineMs / native).toFixed(2)}×`);
      } else {
        console.log('     (no native roll-doctor binary found: set RD_NATIVE_BIN or build target/release/roll-doctor for the wasm/native ratio)');
      }
      // Cancel: a second large file, cancelled while it is read or diagnosed
      await p.locator('button[data-action="clear"]').click();
      await p.locator('input[type="file"]:not([data-rules-input])').setInputFiles(path);
      await p.locator('[data-progress] button[data-action="cancel"]').waitFor({ timeout: 10_000 }).catch(() => {});
      await p.locator('[data-progress] button[data-action="cancel"]').click().catch(() => {});
      await p.locator('[data-notice]').waitFor({ timeout: WAIT }).catch(() => {});
      check('Cancel stops it: the file is dropped and the page says so', await p.locator('[data-file-card]').count() === 0
        && (await p.locator('[data-notice]').innerText().catch(() => '')).includes('Cancelled'));
      await diagnose(p, LOG);
      await p.locator(FINDING).waitFor({ timeout: 10_000 }).catch(() => {});
      check('after Cancel the engine (a new worker) diagnoses again', await p.locator(FINDING).count() === 1);
      await c.close();
    }
    await ctx.close();
  } catch (e) {
    check('no exception while driving the page', false, e.stack || String(e));
  } finally {
    await browser.close();
    if (server) server.close();
  }
  check('no request to another origin', foreign.length === 0, foreign.join('\n  '));
  check('no request at all after the page had loaded', late.length === 0, late.join('\n  '));
  check('no dialog opened', dialogs.length === 0, dialogs.join('\n  '));
  check('no page or console errors', problems.length === 0, problems.join('\n  '));
  finish();
}

const timer = setTimeout(() => {
  check(`finished within ${DEADLINE_MS / 1000} s`, false);
  finish(1);
}, DEADLINE_MS);
timer.unref();
main().catch((e) => {
  check('e2e ran', false, e.stack || String(e));
  finish(1);
});
