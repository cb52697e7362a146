// Shared by the e2e tests: a static server for dist/, Chromium via playwright-core, and guards that
// fail a test on console errors or on any request leaving 127.0.0.1.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(ROOT, 'dist');
export const SHOTS = path.join(ROOT, 'e2e', 'screenshots');
export const OUT = path.join(ROOT, 'e2e', 'out');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
};

/** Serves dist/ on 127.0.0.1 at a free port. */
export async function serve() {
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

/** Launches Debian's Chromium and opens a page that records console errors and foreign requests. */
export async function open(url, { viewport = { width: 1440, height: 1000 }, colorScheme = 'light' } = {}) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const context = await browser.newContext({ viewport, colorScheme });
  // Records when the first figure is in the DOM (ms since navigation start) as window.__figureMs.
  await context.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.querySelector('[data-testid=cluster-figure]')) {
        window.__figureMs = performance.now();
        observer.disconnect();
      }
    }).observe(document, { subtree: true, childList: true });
  });
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
  const started = Date.now();
  await page.goto(url);
  await page.getByTestId('cluster-figure').first().waitFor({ state: 'visible', timeout: 30000 });
  const loadMs = Date.now() - started;
  return { browser, page, problems, loadMs };
}

export async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Sets a range input to `value` as a person would (an input event). */
export async function setRange(page, testid, value) {
  await page.getByTestId(testid).evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}

/** Sets a ladder slider to the position of `value` (in the slider's unit, from its data-values). */
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
