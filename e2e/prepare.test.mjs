// A 1,024-GPU run in the lab never blocks the page (issue 14): its preparation (schedule, indexes,
// buffers) runs in slices between frames like the simulation itself, so no main-thread task is
// long while it is prepared, simulated and shown, and the cancel button stops it while it is still
// being prepared. Long tasks are read from a PerformanceObserver ('longtask': every task over
// 50 ms); figures go to e2e/out/prepare.json.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serve, CHROMIUM_ARGS, OUT } from './harness.mjs';

// The aim is what the browser calls a long task: none over 50 ms. The assertion allows twice that
// (100 ms) for a loaded CI machine: on this shared 2-core machine (load average 2–10) a 10 ms slice
// is now and then stretched several times over by the other processes; a task that blocks in one
// piece, as the preparation did (about 2.5 s), is far beyond either.
const AIM_MS = 50;
const BUDGET_MS = 100;
const HOSTILE = '?alg=hierarchical&topo=uniform&gpus=1024';

let server;
const measured = { measured_at: new Date().toISOString(), aim_ms: AIM_MS, budget_ms: BUDGET_MS };
before(async () => {
  server = await serve();
});
after(async () => {
  await server?.close();
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'prepare.json'), JSON.stringify(measured, null, 2) + '\n');
  console.log('prepare:', JSON.stringify(measured, null, 2));
});

/**
 * Opens `url` recording, from the first script on, every long task (window.__long: [start, ms]),
 * when a progress bar first showed (window.__progressMs), when it first said "preparing"
 * (window.__preparingMs) and when a drawn figure first appeared (window.__figureMs).
 */
async function openRecording(url) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  await context.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
    new MutationObserver(() => {
      const p = document.querySelector('[data-testid=sim-progress]');
      if (window.__progressMs === undefined && p) window.__progressMs = performance.now();
      if (window.__preparingMs === undefined && p?.dataset.phase === 'preparing') {
        window.__preparingMs = performance.now();
      }
      if (window.__figureMs === undefined && document.querySelector('[data-testid=cluster-figure]')) {
        window.__figureMs = performance.now();
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await page.goto(url);
  return { browser, page, problems };
}

/** Long tasks that started at or after `fromMs` (page clock): [[ms since fromMs, duration]]. */
const longTasksSince = (page, fromMs) =>
  page.evaluate(
    (from) => window.__long.filter(([s]) => s >= from).map(([s, d]) => [Math.round(s - from), Math.round(d)]),
    fromMs,
  );

/** Two more frames, so that the frame that drew the result is measured too. */
const twoFrames = (page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 100)))));

test('preparing, simulating and showing a 1,024-GPU hierarchical run makes no long task', async () => {
  const { browser, page, problems } = await openRecording(server.url + HOSTILE);
  try {
    await page.getByTestId('sim-progress').waitFor({ timeout: 60000 });
    await page.getByTestId('cluster-figure').first().waitFor({ timeout: 240000 });
    await twoFrames(page);
    const { progressMs, preparingMs, figureMs } = await page.evaluate(() => ({
      progressMs: window.__progressMs,
      preparingMs: window.__preparingMs,
      figureMs: window.__figureMs,
    }));
    const long = await longTasksSince(page, progressMs);
    const longest = long.reduce((m, [, d]) => Math.max(m, d), 0);
    measured.hierarchical_uniform_1024 = {
      run_ms: Math.round(figureMs - progressMs),
      longest_task_ms: longest,
      long_tasks_at_ms_since_progress: long,
    };
    assert.ok(preparingMs !== undefined, 'the progress bar never said the run was being prepared');
    assert.equal(await page.getByTestId('verified').first().getAttribute('class'), 'ok');
    assert.ok(longest <= BUDGET_MS, `a task blocked the page ${longest} ms: ${JSON.stringify(long)}`);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('the cancel button stops a 1,024-GPU run while it is still being prepared', async () => {
  const { browser, page, problems } = await openRecording(server.url + HOSTILE);
  try {
    const progress = page.getByTestId('sim-progress');
    await page.waitForFunction(() => document.querySelector('[data-testid=sim-progress]')?.dataset.phase === 'preparing', null, {
      timeout: 60000,
    });
    const clickedMs = await page.evaluate(() => performance.now());
    await page.getByTestId('sim-cancel').click();
    await page.getByTestId('sim-cancelled').waitFor({ timeout: 5000 });
    const cancelledMs = await page.evaluate(() => performance.now());
    assert.equal(await progress.count(), 0);
    // Cancelled means stopped: no slice runs any more (no progress bar, no result, no busy page).
    await page.waitForTimeout(2000);
    assert.equal(await page.getByTestId('cluster-figure').count(), 0);
    assert.equal(await progress.count(), 0);
    // The rest of the page (the chapter's figures, the scaling charts) may still be loading.
    measured.cancel_while_preparing = {
      click_to_cancelled_ms: Math.round(cancelledMs - clickedMs),
      long_tasks_after_ms: await longTasksSince(page, cancelledMs),
    };
    // And it can be run again.
    await page.getByTestId('sim-restart').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=sim-progress]')?.dataset.phase === 'preparing', null, {
      timeout: 10000,
    });
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
