// The Ring-vs-Tree figure's runs in Web Workers (issue 11: any run longer than a frame off the
// page's thread). Above a few milliseconds of work (64 GPUs and more at the default 32 segments)
// they go to workers of their
// own, as many as the browser reports cores; a control elsewhere answers within 100 ms while they
// compute; a newer setup terminates the workers busy with the older one; and where the workers
// cannot start, the page computes the same times itself. Figures go to e2e/out/versus-perf.json.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, allMounted, setRangeTo, overlapLatency, OUT } from './harness.mjs';

let server;
const perf = { measured_at: new Date().toISOString() };
before(async () => { server = await serve(); });
after(async () => {
  await server?.close();
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'versus-perf.json'), JSON.stringify(perf, null, 2) + '\n');
  console.log('versus perf:', JSON.stringify(perf, null, 2));
});

/** A fresh page with every section mounted, its Ring-vs-Tree figure done at its 8 GPUs. */
async function ready({ blockWorkers = false, dieAfter = 0 } = {}) {
  const s = await launch();
  const loader = (u) => u.pathname.endsWith('/points-worker_loader.js') && u.search === '?for=versus';
  if (blockWorkers) {
    // The figure's worker script cannot load: its error hands every run back to the page.
    await s.page.route(loader, (route) => route.abort());
  }
  if (dieAfter > 0) {
    // The figure's workers are the real ones, but each dies (an uncaught error) after its
    // `dieAfter`-th answer, in the middle of a batch.
    await s.page.route(loader, (route) => route.fulfill({ contentType: 'text/javascript', body: `
      const post = self.postMessage.bind(self);
      let answers = 0;
      self.postMessage = (m, ...rest) => {
        post(m, ...rest);
        if (m !== 'ready' && ++answers === ${dieAfter}) setTimeout(() => { throw new Error('worker died'); });
      };
      importScripts('./points-worker.js');
      wasm_bindgen('./points-worker_bg.wasm');` }));
  }
  await s.page.goto(server.url);
  await allMounted(s.page);
  await complete(s.page);
  // The scaling charts' workers, busy as the page loads, are done: the cores are the figure's.
  await s.page.waitForFunction(() => document.querySelector('[data-testid=scaling-progress]')?.dataset.complete === 'true', null, { timeout: 60000 });
  return s;
}

function complete(page) {
  return page.waitForFunction(() => document.querySelector('[data-testid=versus-readout]')?.dataset.complete === 'true', null, { timeout: 120000 });
}

/** What the figure shows: each side's times (exact, from its data attributes), the crossover, the curves as drawn. */
function shown(page) {
  return page.evaluate(() => {
    const q = (t) => document.querySelector(`[data-testid=${t}]`);
    const side = (name) => ({ ...q(`versus-${name}`).dataset });
    return {
      ring: side('ring'),
      tree: side('tree'),
      crossover: q('versus-readout').dataset.crossover,
      readout: q('versus-readout').textContent,
      curves: [...document.querySelectorAll('[data-testid^=versus-curve-] polyline')].map((p) => p.getAttribute('points')),
      lanes: [...document.querySelectorAll('.vs-cell')].map((c) => c.getAttribute('style')).join(';'),
    };
  });
}

test('at 64 GPUs and more the runs go to Web Workers, and the page computes the same where they cannot start', async () => {
  const s = await ready();
  const blocked = await ready({ blockWorkers: true });
  try {
    // The default 8 GPUs are a few milliseconds of work: computed on the page, no worker started.
    assert.equal(await s.page.getByTestId('versus-readout').getAttribute('data-workers'), '0');
    // Each curve's points say whose they are (they read "8 B: 28 µs" on both).
    const tips = await s.page.$$eval('[data-testid^=versus-curve-] circle title', (ts) => ts.map((t) => t.textContent));
    assert.ok(tips.length > 0);
    for (const t of tips) assert.match(t, /^(Ring|Double binary tree, up to \d+ segments of at least 32 KiB), [\d.]+ [KMG]?i?B: /, t);
    const cores = await s.page.evaluate(() => navigator.hardwareConcurrency);
    for (const gpus of [64, 256]) {
      await setRangeTo(s.page, 'versus-gpus', gpus);
      // While it computes, the readout says where.
      await s.page.waitForFunction(() => {
        const r = document.querySelector('[data-testid=versus-readout]');
        return r?.dataset.complete === 'false' && r.dataset.workers !== '0' && /in \d+ background threads/.test(r.textContent);
      }, null, { polling: 'raf' });
      await setRangeTo(blocked.page, 'versus-gpus', gpus);
      await complete(s.page);
      await complete(blocked.page);
      assert.equal(await s.page.getByTestId('versus-readout').getAttribute('data-workers'), String(Math.min(8, Math.max(1, cores))));
      assert.equal(await blocked.page.getByTestId('versus-readout').getAttribute('data-workers'), '0');
      const [inWorkers, onPage] = [await shown(s.page), await shown(blocked.page)];
      assert.ok(Number(inWorkers.ring.total) > 0 && Number(inWorkers.tree.total) > 0, JSON.stringify(inWorkers));
      assert.equal(inWorkers.curves.length, 2);
      assert.ok(inWorkers.lanes.length > 0);
      assert.deepEqual(inWorkers, onPage, `${gpus} GPUs`);
    }
    assert.deepEqual(s.problems, []);
    assert.deepEqual(blocked.problems.filter((p) => !/points-worker_loader|ERR_FAILED/.test(p)), []);
  } finally {
    await s.browser.close();
    await blocked.browser.close();
  }
});

test('a figure worker that dies in the middle of a batch: the page computes the runs left, and shows the same', async () => {
  const s = await ready();
  const dying = await ready({ dieAfter: 3 });
  try {
    let died = 0;
    dying.page.on('worker', (w) => w.on('close', () => died++));
    await setRangeTo(s.page, 'versus-gpus', 64);
    await setRangeTo(dying.page, 'versus-gpus', 64);
    await dying.page.waitForFunction(() => document.querySelector('[data-testid=versus-readout]')?.dataset.workers !== '0');
    await complete(s.page);
    await complete(dying.page);
    assert.equal(await dying.page.getByTestId('versus-readout').getAttribute('data-workers'), '0');
    const [clean, recovered] = [await shown(s.page), await shown(dying.page)];
    assert.equal(recovered.curves.length, 2);
    assert.deepEqual(recovered, clean);
    perf.workers_closed_after_dying = died;
    // They did die: the pool has given up its workers, and a newer setup computes on the page.
    await setRangeTo(dying.page, 'versus-gpus', 128);
    await dying.page.waitForFunction(() => document.querySelector('[data-testid=versus-readout]')?.dataset.complete === 'false');
    assert.equal(await dying.page.getByTestId('versus-readout').getAttribute('data-workers'), '0');
    await complete(dying.page);
    assert.deepEqual(s.problems, []);
    assert.deepEqual(dying.problems.filter((p) => !/worker died/.test(p)), []);
  } finally {
    await s.browser.close();
    await dying.browser.close();
  }
});

test('1,024 GPUs: the page answers a control within 100 ms while the runs compute, and a newer setup stops the older one', async () => {
  const { browser, page, problems } = await ready();
  try {
    let closed = 0;
    const watch = (w) => w.on('close', () => closed++);
    page.on('worker', watch);
    const t0 = Date.now();
    await setRangeTo(page, 'versus-gpus', 1024);
    await page.waitForFunction(() => document.querySelector('[data-testid=versus-readout]')?.dataset.workers !== '0');
    // The speedup section's overlap slider, elsewhere on the page, while the figure computes.
    const latencies = [];
    for (const value of [35, 50, 85]) {
      latencies.push(await overlapLatency(page, value));
      assert.equal(await page.getByTestId('versus-readout').getAttribute('data-complete'), 'false');
    }
    await page.waitForFunction(() => document.querySelector('[data-testid=versus-ring]')?.dataset.total);
    perf.first_split_1024_ms = Date.now() - t0;
    await complete(page);
    perf.complete_1024_ms = Date.now() - t0;
    perf.control_while_computing_ms = latencies;
    assert.ok(Math.max(...latencies) < 100, `the slider answered in ${latencies.join(', ')} ms`);
    // Measured on this 2-core machine: 3.6 s in 2 workers, 9.7 s on the page before (stop 49's
    // build). The bound leaves room for a loaded CI machine.
    assert.ok(perf.complete_1024_ms < 20000, `1,024 GPUs took ${perf.complete_1024_ms} ms`);
    // Its crossover, near the right edge at 1,024 GPUs, is named inside the chart.
    const inside = await page.evaluate(() => {
      const chart = document.querySelector('[data-testid=versus-chart]').getBoundingClientRect();
      const label = document.querySelector('[data-testid=versus-crossover-label]').getBoundingClientRect();
      return [label.left >= chart.left, label.right <= chart.right];
    });
    assert.deepEqual(inside, [true, true]);
    // Once its runs are done, the figure's workers are let go (a 1,024-GPU run grows a worker's memory).
    const versusWorkers = () => page.workers().filter((w) => w.url().includes('for=versus')).length;
    for (let i = 0; i < 40 && versusWorkers() > 0; i++) await page.waitForTimeout(50);
    assert.equal(versusWorkers(), 0);
    const before = await shown(page);
    const section = () => page.evaluate(() => ({
      height: document.querySelector('[data-testid=section-versus]').getBoundingClientRect().height,
      stale: ['ring', 'tree'].map((n) => document.querySelector(`[data-testid=versus-${n}]`).dataset.stale),
      bars: document.querySelectorAll('[data-testid=versus-ring] .ch-track').length,
      ticks: [...document.querySelectorAll('[data-testid=versus-y-tick] text')].map((t) => t.textContent),
    }));
    const settled = await section();
    // A newer setup while the workers are busy: they are terminated, and its runs replace the older ones.
    await setRangeTo(page, 'versus-segments', 128);
    await page.waitForFunction(() => document.querySelector('[data-testid=versus-readout]')?.dataset.complete === 'false');
    // Meanwhile the last bars stay, dimmed, and the axis keeps its range: the page below does not
    // move (the columns shrank to "Simulating…" and the axis read 1 µs to 1 s, 44 px less).
    const computing = await section();
    assert.deepEqual(computing.stale, ['true', 'true']);
    assert.equal(computing.bars, 3);
    assert.ok(Math.abs(computing.height - settled.height) <= 1, `${settled.height} px, then ${computing.height} px while computing`);
    assert.ok(!computing.ticks.includes('1 µs') || settled.ticks.includes('1 µs'), `${settled.ticks} -> ${computing.ticks}`);
    await page.waitForTimeout(300);
    closed = 0;
    await setRangeTo(page, 'versus-segments', 64);
    // Counted before the newer setup's own runs can be done (seconds at 1,024 GPUs) and let go.
    for (let i = 0; i < 40 && closed < 1; i++) await page.waitForTimeout(50);
    perf.workers_terminated_by_newer_setups = closed;
    assert.ok(closed >= 1, `${closed} workers terminated by a newer setup`);
    await complete(page);
    const after = await shown(page);
    assert.notEqual(after.tree.total, before.tree.total);
    assert.equal(after.ring.total, before.ring.total);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
