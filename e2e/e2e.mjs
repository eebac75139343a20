// End-to-end test of the built page in Debian's Chromium (driven by playwright-core).
//
//   node e2e/e2e.mjs http dist [screenshot.png]
//       serves dist/ with node's own http server on 127.0.0.1 (free port) and tests it
//   node e2e/e2e.mjs file dist/standalone.html [screenshot.png]
//       opens a self-contained page from file:// (the clipboard check is skipped there)
//
// Env: CHROMIUM (default /usr/bin/chromium); E2E_SHOTS=1 also writes <screenshot>-{en,zh}-{desktop,phone}.png.
// Fails on: any request to another origin, any page error, any console error, any failed check.
// Last line is always `e2e: N passed, M failed`; the exit status is non-zero on any failure.

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { resolve, join, extname, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const [mode = 'http', target = 'dist', shot] = process.argv.slice(2);
const EXECUTABLE = process.env.CHROMIUM || '/usr/bin/chromium';
const ALL_SHOTS = process.env.E2E_SHOTS === '1';
const DEADLINE_MS = 30_000;

const LOG = `$ tail -n 2 /root/ascend/log/debug/plog/plog-1292363_20250408180520.log
[ERROR] HCCL(60570,python):2025-04-08-18:07:20.444.436 [socket_manager.cc:200] [1][Wait] wait socket establish timeout, role[1] rank[12] timeout[120]
EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the reason for the rank being stuck
`;
const HEALTHY = '[INFO] HCCL(60570,python):2025-04-08-18:07:20.444.436 hccl init success\n';
const RULE = 'hccl-connect-timeout';
const TITLE_EN = 'HCCL link establishment timed out (EI0006)';
const TITLE_ZH = 'HCCL 建链超时（EI0006）';
const FINDING = `[data-rule-id="${RULE}"]`;

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${detail ? `: ${detail}` : ''}`);
  }
}
function finish(code) {
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  process.exit(code ?? (failed > 0 ? 1 : 0));
}

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
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
      res.writeHead(200, {
        'Content-Type': MIME[extname(file)] || 'application/octet-stream',
        'Cache-Control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise((ok, err) => server.once('error', err).listen(0, '127.0.0.1', ok));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

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
  const origin = mode === 'http' ? new URL(url).origin : 'file://';
  console.log(`testing ${url}`);

  const browser = await chromium.launch({
    executablePath: EXECUTABLE,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const foreign = [];
  const problems = [];
  const watch = (page, tag) => {
    page.on('request', (r) => {
      const u = r.url();
      if (u.startsWith('data:') || u.startsWith('blob:')) return;
      const same = mode === 'http' ? new URL(u).origin === origin : u.startsWith('file://');
      if (!same) foreign.push(`${tag}: ${u}`);
    });
    page.on('pageerror', (e) => problems.push(`${tag} page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${tag} console error: ${m.text()}`);
    });
    page.on('requestfailed', (r) => problems.push(`${tag} request failed: ${r.url()} ${r.failure()?.errorText}`));
  };

  try {
    // --- desktop, English browser ---------------------------------------------------
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    if (mode === 'http') await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const page = await ctx.newPage();
    watch(page, 'desktop');
    await page.goto(url, { waitUntil: 'load' });
    const area = page.locator('textarea.paste');
    await area.waitFor({ timeout: 10_000 });
    check('page starts: paste area and initial hint', await page.locator('[data-hint]').count() === 1);
    check('English by default for an en-US browser', (await page.getAttribute('html', 'lang')) === 'en'
      && (await page.locator('button[data-action="diagnose"]').innerText()).trim() === 'Diagnose');
    check('paste area has a placeholder', ((await area.getAttribute('placeholder')) || '').length > 40);
    const extra = (name) => (ALL_SHOTS && shot ? shot.replace(/\.png$/, `-${name}.png`) : null);
    if (extra('en-hint')) await page.screenshot({ path: extra('en-hint') });

    // diagnosis as you type (debounced)
    await area.fill(LOG);
    const f = page.locator(FINDING);
    await f.waitFor({ timeout: 3000 }).catch(() => {});
    check(`typing a log shows ${RULE}`, await f.count() === 1);
    console.log(`     (first diagnosis: ${await page.locator('.status .stats').innerText().catch(() => '?')})`);
    check('finding is an error with the English title', (await f.getAttribute('data-severity')) === 'error'
      && (await f.locator('.finding-title').innerText()).trim() === TITLE_EN);
    const ev = await f.locator('.evidence .lines li').allInnerTexts();
    check('evidence lines carry line numbers', ev.length === 2 && /^2\s/.test(ev[0]) && /^3\s+EI0006/.test(ev[1]),
      JSON.stringify(ev));
    check('detected segments listed', (await page.locator('.seg').count()) >= 1
      && (await page.locator('.seg-cmd').first().innerText()).includes('tail -n 2'));

    // immediate diagnosis with Ctrl+Enter; healthy input gives the empty state
    await area.fill(HEALTHY);
    await area.press('Control+Enter');
    await page.locator('[data-empty]').waitFor({ timeout: 250 }).catch(() => {});
    check('Ctrl+Enter diagnoses at once: healthy input -> empty state',
      await page.locator('[data-empty]').count() === 1 && await page.locator('[data-rule-id]').count() === 0);
    if (extra('en-empty')) await page.screenshot({ path: extra('en-empty') });
    await area.fill(LOG);
    await page.locator('button[data-action="diagnose"]').click();
    check('Diagnose button diagnoses at once', await page.locator(FINDING).count() === 1);

    // copy button -> clipboard
    if (mode === 'http') {
      const block = f.locator('.fixes .code').first();
      const expected = (await block.locator('pre').innerText()).trim();
      await block.locator('button.copy').click();
      await page.waitForFunction((el) => el.dataset.state !== 'idle',
        await block.locator('button.copy').elementHandle(), { timeout: 2000 }).catch(() => {});
      const clip = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => `ERR ${e}`);
      check('copy button puts the fix command on the clipboard',
        clip === expected && expected === 'export HCCL_CONNECT_TIMEOUT=3600', `clipboard=${JSON.stringify(clip)}`);
      check('copy button confirms', (await block.locator('button.copy').innerText()).trim() === 'Copied');
    }
    if (extra('en-desktop')) await page.screenshot({ path: extra('en-desktop'), fullPage: true });

    // the example: root cause first, "likely a consequence of", answered steps
    await page.locator('button[data-action="example"]').click();
    const order = await page.locator('[data-rule-id]').evaluateAll((els) => els.map((e) => e.dataset.ruleId));
    check('example: root cause (hccl-link-down) before the timeout it explains',
      order.indexOf('hccl-link-down') === 0 && order.indexOf(RULE) > 0, JSON.stringify(order));
    check('example: "Likely a consequence of" links the cause',
      (await f.locator('.explained').innerText()).includes('Likely a consequence of')
      && await f.locator('.explained [data-cause="hccl-link-down"]').count() === 1);
    check('example: answered step shows its evidence line',
      (await f.locator('.step[data-state="answered"]').first().innerText()).includes('link status: DOWN'));
    if (extra('en-example')) await page.screenshot({ path: extra('en-example') });

    // language switch
    await page.locator('button[data-lang="zh"]').click();
    await page.locator('.finding-title', { hasText: TITLE_ZH }).waitFor({ timeout: 2000 }).catch(() => {});
    check('switching to Chinese shows the Chinese title', (await f.locator('.finding-title').innerText()).trim() === TITLE_ZH);
    check('<html lang> follows the language', (await page.getAttribute('html', 'lang')) === 'zh-CN');
    check('UI strings switch too', (await page.locator('button[data-action="diagnose"]').innerText()).trim() === '诊断'
      && (await page.title()).includes('诊断'));
    if (extra('zh-desktop')) await page.screenshot({ path: extra('zh-desktop'), fullPage: true });

    // the choice survives a reload
    await page.reload({ waitUntil: 'load' });
    await area.waitFor({ timeout: 10_000 });
    check('language remembered across reload', (await page.getAttribute('html', 'lang')) === 'zh-CN'
      && await page.locator('button[data-lang="zh"][aria-pressed="true"]').count() === 1);
    await area.fill(LOG);
    await area.press('Control+Enter');
    check('after reload the finding is in Chinese', (await page.locator(`${FINDING} .finding-title`).innerText()).trim() === TITLE_ZH);
    if (shot) await page.screenshot({ path: shot, fullPage: true });

    // --- phone ---------------------------------------------------------------------------
    for (const lang of ['zh', 'en']) {
      const phone = await browser.newContext({
        viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
        locale: lang === 'zh' ? 'zh-CN' : 'en-US',
      });
      const p = await phone.newPage();
      watch(p, `phone-${lang}`);
      await p.goto(url, { waitUntil: 'load' });
      const a = p.locator('textarea.paste');
      await a.waitFor({ timeout: 10_000 });
      if (ALL_SHOTS && shot) await p.screenshot({ path: shot.replace(/\.png$/, `-${lang}-phone-hint.png`) });
      await a.fill(LOG);
      await a.press('Control+Enter');
      const title = (await p.locator(`${FINDING} .finding-title`).innerText().catch(() => '')).trim();
      check(`phone (${lang}): browser language ${lang} picked up, finding shown`,
        title === (lang === 'zh' ? TITLE_ZH : TITLE_EN), title);
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      check(`phone (${lang}): no sideways scrolling of the page`, overflow <= 0, `overflow ${overflow}px`);
      if (ALL_SHOTS && shot) await p.screenshot({ path: shot.replace(/\.png$/, `-${lang}-phone.png`), fullPage: true });
      await phone.close();
    }
    await ctx.close();
  } catch (e) {
    check('no exception while driving the page', false, e.stack || String(e));
  } finally {
    await browser.close();
    if (server) server.close();
  }
  check('no request to another origin', foreign.length === 0, foreign.join('\n  '));
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
