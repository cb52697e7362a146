// Shared by the e2e tests: a static server for dist/, Chromium via playwright-core, and guards that
// fail a test on console errors or on any request leaving 127.0.0.1.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(ROOT, 'dist');
const ROOT_DIST = DIST;
export const SHOTS = path.join(ROOT, 'e2e', 'screenshots');
export const OUT = path.join(ROOT, 'e2e', 'out');
/** Where a picture for the docs goes: docs/ when DOCS_SHOTS is set (retaking them is a choice),
 * e2e/screenshots/ otherwise, so that a test run never rewrites a tracked file. */
export function docsShot(name) {
  const dir = process.env.DOCS_SHOTS ? path.join(ROOT, 'docs') : SHOTS;
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
};

/** Serves dist/ (or another build's directory) on 127.0.0.1 at a free port. */
export async function serve(DIST = ROOT_DIST) {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) {
    throw new Error('dist/index.html is missing: run `trunk build --release --offline` first');
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let file = path.normalize(path.join(DIST, decodeURIComponent(url.pathname)));
    if (!file.startsWith(DIST)) {
      res.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) {
        res.writeHead(404).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream' });
      res.end(data);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Launches Debian's Chromium with a page that records console errors and foreign requests, without
 * navigating. Options: viewport, colorScheme, locale, javaScriptEnabled.
 */
export async function launch({ viewport = { width: 1440, height: 1000 }, colorScheme = 'light', locale, javaScriptEnabled = true } = {}) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const context = await browser.newContext({ viewport, colorScheme, locale, javaScriptEnabled, acceptDownloads: true });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('request', (req) => {
    const u = new URL(req.url());
    if (!['127.0.0.1', 'localhost'].includes(u.hostname) && !['data:', 'blob:'].includes(u.protocol)) {
      problems.push(`foreign request: ${req.url()}`);
    }
  });
  return { browser, context, page, problems };
}

/** Waits until every section has mounted (the page defers them past the first frame). */
export async function allMounted(page) {
  // Neither waiting for its turn (`pending`) nor for its wasm module (`loading`).
  await page.waitForFunction(() => !document.querySelector('[data-deferred]'), null, { timeout: 60000 });
}

/**
 * Opens `url` and waits until every section has mounted (no deferred placeholder left) and the
 * lab's figure is visible. With `present`, switches presentation mode on with its key.
 */
export async function openReady(url, { present = false, ...options } = {}) {
  const s = await launch(options);
  await s.page.goto(url);
  await s.page.getByTestId('cluster-figure').first().waitFor({ state: 'visible', timeout: 60000 });
  await allMounted(s.page);
  if (present) {
    await s.page.keyboard.press('p');
    await s.page.waitForFunction(() => document.documentElement.hasAttribute('data-present'));
  }
  return s;
}

/** Clicks the button `testid` and returns the download: its name, bytes and text. */
export async function download(page, testid) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  const bytes = fs.readFileSync(await file.path());
  return { name: file.suggestedFilename(), bytes, text: bytes.toString('utf8') };
}

/** Presses Tab until the element with `testid` has the focus (at most `max` presses). */
export async function tabTo(page, testid, max = 200) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testid)) return i;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${testid}`);
}

/**
 * The on-screen size (px) of every visible text under `selector`: SVG text as its font size times
 * the SVG's scale on screen, HTML text as its computed font size. Returns [{ size, text, where }].
 */
export async function textSizes(page, selector) {
  return page.evaluate((sel) => {
    const out = [];
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none' && Number(cs.opacity) > 0;
    };
    for (const root of document.querySelectorAll(sel)) {
      if (!visible(root)) continue;
      for (const t of root.querySelectorAll('text')) {
        if (!t.textContent.trim() || !visible(t) || t.closest('defs, marker, title')) continue;
        const m = t.getScreenCTM();
        const scale = Math.hypot(m.a, m.b);
        out.push({ size: parseFloat(getComputedStyle(t).fontSize) * scale, text: t.textContent.trim().slice(0, 30), where: 'svg' });
      }
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!n.textContent.trim() || !el || el.closest('svg') || !visible(el)) continue;
        out.push({ size: parseFloat(getComputedStyle(el).fontSize), text: n.textContent.trim().slice(0, 30), where: el.tagName.toLowerCase() });
      }
    }
    return out;
  }, selector);
}
/** What a page's init script prints on the console when the lab's first figure is in the DOM. */
export const FIGURE_SIGNAL = "allreduce-lab e2e: the lab's figure is in the DOM";

/**
 * Resolves when the page prints FIGURE_SIGNAL. A load's measurement waits for this, not with a
 * locator: a locator's first use evaluates Playwright's selector engine in the page, 40 ms of
 * script on the page's main thread (DevTools trace), which would otherwise land inside the load
 * it measures, between the app's first render and the lab's mount.
 */
export function figureSignal(page, timeout) {
  const signal = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      page.off('console', seen);
      reject(new Error(`no figure within ${timeout} ms`));
    }, timeout);
    const seen = (msg) => {
      if (msg.text() === FIGURE_SIGNAL) {
        clearTimeout(timer);
        page.off('console', seen);
        resolve();
      }
    };
    page.on('console', seen);
  });
  // Handled here too: should the caller fail before awaiting it (a navigation that throws), its
  // timeout must not end the test file with an unhandled rejection.
  signal.catch(() => {});
  return signal;
}

/** Launches Debian's Chromium and opens a page that records console errors and foreign requests. */
export async function open(url, { viewport = { width: 1440, height: 1000 }, colorScheme = 'light' } = {}) {
  const { browser, context, page, problems } = await launch({ viewport, colorScheme });
  // Records when the lab's first figure is in the DOM (ms since navigation start) as
  // window.__figureMs, and says so on the console (see `figureSignal`); and when §1.1's figure,
  // the first in the window at the top of the page, is as window.__figureInViewMs.
  await context.addInitScript((signal) => {
    new MutationObserver((_, observer) => {
      if (window.__figureInViewMs === undefined && document.querySelector('[data-testid=why-speedup]')) {
        window.__figureInViewMs = performance.now();
      }
      if (window.__figureMs === undefined && document.querySelector('[data-testid=cluster-figure]')) {
        window.__figureMs = performance.now();
        console.debug(signal);
      }
      if (window.__figureMs !== undefined && window.__figureInViewMs !== undefined) observer.disconnect();
    }).observe(document, { subtree: true, childList: true });
  }, FIGURE_SIGNAL);
  const figure = figureSignal(page, 30000);
  const started = Date.now();
  await page.goto(url);
  await figure;
  await page.getByTestId('cluster-figure').first().waitFor({ state: 'visible', timeout: 30000 });
  const loadMs = Date.now() - started;
  await allMounted(page);
  return { browser, page, problems, loadMs };
}

export async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** What a person sees of an element: its text colour against the background behind it (the first
 * ancestor with an opaque background), as the WCAG contrast ratio, and the background's relative
 * luminance (0 black … 1 white). */
export async function legibility(page, selector) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => {
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    let bg = null;
    for (let n = el; n; n = n.parentElement) {
      const c = rgb(getComputedStyle(n).backgroundColor);
      if (c.length >= 3 && (c.length < 4 || c[3] > 0.9)) { bg = c; break; }
    }
    bg = bg || [255, 255, 255];
    const fg = rgb(getComputedStyle(el).color);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return { contrast: (a + 0.05) / (b + 0.05), background: lum(bg), visible: el.getBoundingClientRect().height > 0 };
  }, selector);
}

/** Sets a range input to `value` as a person would: the thumb moves (input), then settles (change). */
export async function setRange(page, testid, value) {
  await page.getByTestId(testid).evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, value);
}

/** Moves a range input's thumb to `value` without letting go (input events only, no change). */
export async function dragRange(page, testid, value) {
  await page.getByTestId(testid).evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}

/** Sets a ladder slider to the position of `value` (in the slider's unit, from its data-values). */
/**
 * Moves the speedup section's overlap slider to `value` (%) and returns the milliseconds from its
 * input to that value on screen, rounded to 0.1 ms: how fast the page answers a control.
 */
export function overlapLatency(page, value) {
  return page.evaluate(async (v) => {
    const el = document.querySelector('[data-testid=overlap]');
    const out = el.parentElement.querySelector('output');
    const t0 = performance.now();
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    while (out.textContent !== `${v}%`) await new Promise((r) => setTimeout(r, 0));
    return Math.round((performance.now() - t0) * 10) / 10;
  }, value);
}

export async function setRangeTo(page, testid, value) {
  const values = (await page.getByTestId(testid).getAttribute('data-values')).split(',');
  const i = values.indexOf(String(value));
  if (i < 0) throw new Error(`${testid} offers no ${value}: ${values.join(' ')}`);
  await setRange(page, testid, i);
  return page.getByTestId(testid).getAttribute('aria-valuetext');
}

export async function selectOption(page, testid, value) {
  await page.getByTestId(testid).selectOption(String(value));
}

export async function timeSecs(page, which = 'figure-a') {
  return Number(await page.getByTestId(which).getByTestId('time-result').getAttribute('data-secs'));
}
