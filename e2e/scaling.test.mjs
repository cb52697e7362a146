// The scaling section: the chapter's scenarios checked by simulation, the speedup, breakdown and
// sweep charts, and how long the 1…1024-GPU chart takes to complete without blocking the page
// (written to e2e/out/scaling-perf.json).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serve, open, launch, allMounted, setRange, setRangeTo, selectOption, legibility, overlapLatency, textSizes, ROOT, SHOTS, OUT } from './harness.mjs';

let server;
let session;
const perf = { measured_at: new Date().toISOString(), aims: { chart_complete_ms: 1000, longest_block_ms: 200 } };
before(async () => {
  server = await serve();
  session = await open(server.url);
});
after(async () => {
  await session?.browser.close();
  await server?.close();
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'scaling-perf.json'), JSON.stringify(perf, null, 2) + '\n');
  console.log('scaling perf:', JSON.stringify(perf, null, 2));
});

/** The CLI's JSON for `args`. */
function cli(args) {
  const bin = path.join(ROOT, 'target', 'release', 'allreduce-lab');
  const out = fs.existsSync(bin)
    ? execFileSync(bin, args, { encoding: 'utf8' })
    : execFileSync('cargo', ['run', '--release', '--quiet', '--', ...args], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out);
}

/** The CLI's verdict for a chapter scenario. */
function cliPreset(id) {
  return cli(['speedup', '--preset', id, '--max-gpus', '1', '--json']).preset;
}

const section = () => session.page.getByTestId('scaling-section');

/** Waits until the chart is complete, after the frames in which a change just made starts its run. */
async function complete(page, timeout = 60000) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForSelector('[data-testid=scaling-progress][data-complete=true]', { timeout });
}

/** The setup's generation: each change of the setup raises it. */
async function generation(page) {
  return Number(await page.getByTestId('scaling-progress').getAttribute('data-generation'));
}

/** Waits until a setup newer than `than` is complete. */
async function completeAfter(page, than, timeout = 60000) {
  await page.waitForFunction((g) => {
    const p = document.querySelector('[data-testid=scaling-progress]');
    return Number(p?.dataset.generation) > g && p.dataset.complete === 'true';
  }, than, { timeout });
}

async function speedupAt(page, algorithm, gpus) {
  return Number(await page.getByTestId(`speedup-point-${algorithm}-${gpus}`).getAttribute('data-speedup'));
}

async function sectionShot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await section().screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

const SCENARIOS = [
  'eight-gpus-6-7x',
  'bad-topology-under-4x',
  'network-100g-over-40pct',
  'io-bound-30pct',
  'racks-800-200-tree-wins',
  'inverted-400-800-ring-wins',
  'slow-network-under-4x',
];

test('every chapter scenario shows its claim, sources and the simulated figure the CLI prints', async () => {
  const { page, problems } = session;
  await section().scrollIntoViewIfNeeded();
  for (const id of SCENARIOS) {
    await page.getByTestId(`chapter-preset-${id}`).click();
    const verdict = page.getByTestId('preset-verdict');
    const cli = cliPreset(id);
    await page.waitForFunction(
      ([v]) => Number(document.querySelector('[data-testid=preset-verdict]')?.dataset.value) === v,
      [cli.value],
    );
    const text = await verdict.textContent();
    assert.ok(text.includes(cli.claim), `${id}: claim shown`);
    assert.ok(text.includes(cli.because), `${id}: the parameters that make it so are shown`);
    assert.match(text, /holds/);
    assert.doesNotMatch(text, /does not hold/, `${id}: ${text}`);
    // The band is the app's reading of the chapter, named as such (it said "the chapter says
    // over 1.05", which the chapter never does).
    assert.match(text, / — this app counts .+ as agreeing with the chapter: holds/, `${id}: ${text}`);
    assert.equal(await verdict.getAttribute('data-holds'), 'true');
    // The simulated value appears as the chapter states it (× or %).
    const shown = await page.getByTestId('verdict-value').textContent();
    assert.match(shown, /^[0-9.]+(×|%)?$/);
    assert.match(text, /Hardware/);
    assert.ok((await page.getByTestId('hardware-source').textContent()).length > 10);
    assert.ok((await page.getByTestId('model-source').textContent()).length > 10);
  }
  assert.deepEqual(problems, []);
});

/** Picks `next` after `from` on a freshly loaded page (nothing simulated before to reuse) and
 * measures until the chart is complete: time, long tasks, frame gaps. */
async function measureRun(page, from, next, { labAway = false } = {}) {
  await page.goto(server.url);
  await page.getByTestId(`chapter-preset-${from}`).click();
  await complete(page);
  await page.evaluate(() => {
    window.__longtasks = [];
    window.__observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longtasks.push(e.duration);
    });
    window.__observer.observe({ type: 'longtask' });
    window.__gaps = [];
    let last = performance.now();
    window.__watching = true;
    const frame = (t) => {
      window.__gaps.push(t - last);
      last = t;
      if (window.__watching) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    // Each time the chart shows more points (a delivery, drawn again): how many it shows.
    window.__shown = [];
    const bar = document.querySelector('[data-testid=scaling-progress]');
    const before = bar.dataset.generation;
    window.__drawnAt = undefined;
    window.__doneObserver = new MutationObserver(() => {
      const done = Number(bar.dataset.done);
      if (done !== window.__shown.at(-1)) window.__shown.push(done);
      // The new setup's chart complete: the frame after the next has shown it (the first
      // animation frame comes before its paint). Measured here, in the page, rather than when the
      // test's own polling notices (tens of ms later on a machine whose cores the workers fill).
      if (bar.dataset.generation !== before && bar.dataset.complete === 'true' && window.__drawnAt === undefined) {
        window.__drawnAt = null;
        requestAnimationFrame(() => requestAnimationFrame(() => { window.__drawnAt = performance.now(); }));
      }
    });
    window.__doneObserver.observe(bar, { attributes: true, attributeFilter: ['data-done', 'data-complete'] });
    window.__t0 = performance.now();
  });
  await page.getByTestId(`chapter-preset-${next}`).click();
  if (labAway) {
    // The lab's bottom edge (its stage) is at the top of the window here: scrolled just past it,
    // the lab's playback waits and leaves the cores to the workers.
    await page.evaluate(() => window.scrollBy(0, Math.max(0, document.querySelector('#lab main.stage').getBoundingClientRect().bottom + 1)));
    await page.waitForSelector('#lab main.stage[data-on-screen=false]', { timeout: 5000 });
  }
  await complete(page);
  await page.waitForFunction(() => typeof window.__drawnAt === 'number');
  const m = await page.evaluate(async () => {
    const total = window.__drawnAt - window.__t0;
    await new Promise((r) => requestAnimationFrame(() => r()));
    window.__watching = false;
    window.__observer.disconnect();
    window.__doneObserver.disconnect();
    const p = document.querySelector('[data-testid=scaling-progress]');
    const all = Number(p.dataset.total);
    return {
      // Deliveries drawn while points were still missing (the final one not counted).
      partial_redraws: window.__shown.filter((d) => d > 0 && d < all).length,
      click_to_complete_ms: total,
      computing_ms: Number(p.dataset.elapsedMs),
      points: Number(p.dataset.total),
      workers: Number(p.dataset.workers),
      reused: Number(p.dataset.reused),
      cores: navigator.hardwareConcurrency,
      longest_task_ms: Math.max(0, ...window.__longtasks),
      long_tasks: window.__longtasks.length,
      longest_frame_gap_ms: Math.max(0, ...window.__gaps),
    };
  });
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, Math.round(v * 10) / 10]));
}

/** The chart showed points before the last, drawn again at most every 200 ms while they came. */
function drawnEvery200Ms(run) {
  assert.ok(run.partial_redraws >= 1, `the chart shows points before the last: ${JSON.stringify(run)}`);
  assert.ok(run.partial_redraws <= Math.ceil(run.computing_ms / 200) + 1, `${run.partial_redraws} drawings in ${run.computing_ms} ms`);
}

test('the 1…1024-GPU chart completes progressively without blocking the page', async () => {
  const { page } = session;
  // Every point, the ring at 1024 GPUs (2 M transfers) included: large runs are sliced in the core.
  // The page loads with the first scenario (8 GPUs), whose points are then known: the second
  // scenario's are measured, none of them simulated before.
  perf.full = await measureRun(page, 'eight-gpus-6-7x', 'network-100g-over-40pct');
  assert.equal(perf.full.reused, 0, 'every point simulated anew');
  for (const alg of ['ring', 'tree-binomial', 'double-binary-tree', 'hierarchical']) {
    assert.ok((await speedupAt(page, alg, 1024)) > 1, alg);
  }
  assert.ok(perf.full.points > 75, `${perf.full.points} points`);
  // Off the main thread: one Web Worker per core the browser reports (at most 8).
  assert.equal(perf.full.workers, Math.min(8, Math.max(1, perf.full.cores)));
  assert.match(await page.getByTestId('scaling-progress').textContent(), new RegExp(`in ${perf.full.workers} background threads`));
  // No frame waits long on the computation: slices end after ~12 ms of work.
  assert.ok(perf.full.longest_frame_gap_ms < 250, `longest frame gap ${perf.full.longest_frame_gap_ms} ms`);
  // 108 points took 6–8 s on this shared 2-core machine when this test was written, 1.4–1.8 s
  // alone (cold workers) and 2.2 s under a load average of 4 on its slower kind of CPU, 0.86-1.53 s
  // on the current one with the charts drawn at most every 200 ms (the aim is 1 s). 3 s is the
  // margin for this noisy machine (it was 5 s).
  assert.ok(perf.full.computing_ms < 3000, `108 points took ${perf.full.computing_ms} ms`);
  // Progressive, but the charts are drawn again at most every 200 ms while points arrive (the
  // last at once): each drawing is tens of ms of the page's thread, which shares this machine's 2
  // cores with the 2 workers. Measured here with the lab out of view: 9-17 drawings and 350-585 ms
  // of the page's thread in 0.8-1.2 s before, 2-6 and 145-350 ms in 0.6-0.9 s after.
  drawnEvery200Ms(perf.full);
  // A measurement: the same with the lab's stage scrolled out of view, where its playback waits
  // (the window from the click to the scroll, a few frames, it still plays). Measured here:
  // 1.75-1.83 s against 1.95-2.11 s with the lab's bottom edge on screen and playing (its run,
  // restarted by the click, plays about 6 s at 1×: through the whole computation).
  perf.lab_out_of_view = await measureRun(page, 'eight-gpus-6-7x', 'network-100g-over-40pct', { labAway: true });
  assert.equal(perf.lab_out_of_view.reused, 0, 'every point simulated anew');
  assert.ok(perf.lab_out_of_view.computing_ms < 3000, `108 points took ${perf.lab_out_of_view.computing_ms} ms`);
  drawnEvery200Ms(perf.lab_out_of_view);
});

test('a control answers within 100 ms while the chart computes, and the newer setup replaces the older', async () => {
  const { page } = session;
  // A fresh page: the scenario clicked below has simulated nothing yet.
  await page.goto(server.url);
  await page.getByTestId('chapter-preset-network-100g-over-40pct').click();
  await complete(page);
  // Workers still busy with an older setup are terminated (closed), not left to finish.
  let closed = 0;
  const watch = (w) => w.on('close', () => closed++);
  page.workers().forEach(watch);
  page.on('worker', watch);
  const latencies = [];
  // (Not the scenario's own 60 %: the preset's click must change the setup each time.)
  for (const value of [35, 50, 85]) {
    const g = await generation(page);
    await page.getByTestId('chapter-preset-slow-network-under-4x').click();
    // The computation is under way (its 1,024-GPU ring never finished before a newer setup)…
    await page.waitForFunction((g) => Number(document.querySelector('[data-testid=scaling-progress]')?.dataset.generation) > g, g);
    assert.equal(await page.getByTestId('scaling-progress').getAttribute('data-complete'), 'false');
    const clicked = await generation(page);
    // …when the reader moves the overlap slider: time until its value shows.
    latencies.push(await overlapLatency(page, value));
    assert.equal(await page.getByTestId('overlap').getAttribute('aria-valuetext'), `${value}%`);
    // The charts take the edit 100 ms after the control shows it. The next click must come after
    // that: within those 100 ms, the slider's edit and the click would reach the charts together
    // and give them back the setup they already have, so that nothing new would start (this test
    // failed so, in 3 of 6 runs on one build, when the next click came quickly).
    await page.waitForFunction((g) => Number(document.querySelector('[data-testid=scaling-progress]')?.dataset.generation) > g, clicked);
  }
  perf.control_while_computing_ms = latencies;
  page.off('worker', watch);
  perf.workers_terminated_by_newer_setups = closed;
  // At least the first change finds both workers busy (later ones may find fresh workers still
  // loading, which are not busy, so nothing to terminate).
  assert.ok(closed >= 1, `${closed} workers terminated by 6 newer setups`);
  assert.ok(Math.max(...latencies) < 100, `the slider answered in ${latencies.join(', ')} ms`);
  // The last setup's points replace the interrupted ones: the chart completes with the values a
  // run at 85 % overlap gives, not those of 60 %.
  await complete(page);
  assert.equal(await page.getByTestId('overlap').inputValue(), '85');
  const interrupted = await speedupAt(page, 'ring', 1024);
  const settle = async (v) => {
    const g = await generation(page);
    await setRange(page, 'overlap', v);
    await completeAfter(page, g);
    return speedupAt(page, 'ring', 1024);
  };
  const at60 = await settle(60);
  const at85 = await settle(85);
  assert.notEqual(at60, at85, 'overlap changes the 1024-GPU ring speedup');
  assert.equal(interrupted, at85);
});

test('a change that simulates nothing new redraws at once, each point as the CLI computes it', async () => {
  const { page, problems } = session;
  await page.getByTestId('chapter-preset-eight-gpus-6-7x').click();
  await complete(page);
  const progress = page.getByTestId('scaling-progress');
  const total = Number(await progress.getAttribute('data-total'));
  // The overlap only decides how much of each allreduce the backward pass hides: no run is new.
  let g = await generation(page);
  // What the bar says from the change on: its completeness and the setup it shows.
  await progress.evaluate((el) => {
    window.barSeen = [];
    const see = () => window.barSeen.push([el.getAttribute('data-complete'), el.getAttribute('data-generation')]);
    new MutationObserver(see).observe(el, { attributes: true, attributeFilter: ['data-complete', 'data-generation'] });
  });
  const t0 = await page.evaluate(() => performance.now());
  await setRange(page, 'overlap', 20);
  await completeAfter(page, g);
  perf.overlap_change_to_complete_ms = Math.round((await page.evaluate((t) => performance.now() - t, t0)) * 10) / 10;
  // The charts take the edit later than the slider (CHARTS_AFTER_MS); meanwhile the bar does not
  // say complete, so that a reader (or a test) waiting for the complete chart gets the new one.
  const seen = await page.evaluate(() => window.barSeen);
  assert.deepEqual(seen[0], ['false', String(g)], JSON.stringify(seen));
  assert.deepEqual(seen.at(-1), ['true', String(g + 1)], JSON.stringify(seen));
  assert.equal(await progress.getAttribute('data-reused'), String(total));
  assert.match(await progress.textContent(), new RegExp(`^${total} points redrawn from earlier simulations`));
  // Each point is the step the CLI computes at 20 % overlap, to the last bit.
  const want = cli(['speedup', '--preset', 'eight-gpus-6-7x', '--overlap', '0.2', '--max-gpus', '1024', '--json']);
  assert.equal(want.rows.length, 11);
  for (const row of want.rows) assert.equal(await speedupAt(page, 'ring', row.gpus), row.speedup, `${row.gpus} GPUs`);
  // A point's tooltip names its GPU count as such (it read "ring: 6.37× at 8").
  assert.match(await page.getByTestId('speedup-point-ring-8').locator('title').textContent(), /^[Rr]ing[^:]*: [\d.]+× at 8 GPUs$/);
  // An algorithm turned off and on again: nothing new either.
  for (const check of [false, true]) {
    g = await generation(page);
    await page.getByTestId('algo-tree-binomial').setChecked(check);
    await completeAfter(page, g);
    assert.equal(await progress.getAttribute('data-reused'), await progress.getAttribute('data-total'));
  }
  // Another NIC is another network: every point is simulated anew.
  g = await generation(page);
  await setRangeTo(page, 'network-bw', 400000);
  await completeAfter(page, g);
  assert.equal(await progress.getAttribute('data-reused'), '0');
  assert.deepEqual(problems, []);
});

test('idle, the scaling workers are let go after 10 s; the next setup starts fresh ones', async () => {
  const { page } = session;
  await page.goto(server.url);
  await page.getByTestId('chapter-preset-eight-gpus-6-7x').click();
  await complete(page);
  // The scaling charts' workers (the lab's and the Ring-vs-Tree figure's are named by a query).
  const scalingWorkers = () => page.workers().filter((w) => w.url().endsWith('/points-worker_loader.js')).length;
  const progress = page.getByTestId('scaling-progress');
  const workers = Number(await progress.getAttribute('data-workers'));
  assert.ok(workers >= 1);
  const done = Date.now();
  // They wait for a newer setup a while (a learner moving the controls finds them ready)...
  await page.waitForTimeout(5000);
  assert.equal(scalingWorkers(), workers, 'still there 5 s after the chart completed');
  // ...and are then let go, with the memory a 1,024-GPU run grew.
  while (scalingWorkers() > 0 && Date.now() - done < 20000) await page.waitForTimeout(100);
  assert.equal(scalingWorkers(), 0, `${scalingWorkers()} workers left ${Date.now() - done} ms after the chart completed`);
  const g = await generation(page);
  await page.getByTestId('chapter-preset-network-100g-over-40pct').click();
  await completeAfter(page, g);
  assert.equal(await progress.getAttribute('data-workers'), String(workers));
  assert.equal(await progress.getAttribute('data-reused'), '0');
  assert.ok((await speedupAt(page, 'ring', 1024)) > 1);
  assert.equal(scalingWorkers(), workers);
  assert.deepEqual(session.problems, []);
});

test('where Web Workers cannot start, the page computes the same points itself', async () => {
  const { page } = session;
  // A fresh page: its points are computed in workers, none reused.
  await page.goto(server.url);
  await page.getByTestId('chapter-preset-eight-gpus-6-7x').click();
  await complete(page);
  assert.equal(await page.getByTestId('scaling-progress').getAttribute('data-reused'), '0');
  assert.notEqual(await page.getByTestId('scaling-progress').getAttribute('data-workers'), '0');
  const inWorkers = {};
  for (const alg of ['ring', 'hierarchical']) {
    for (const gpus of [8, 256, 1024]) inWorkers[`${alg}-${gpus}`] = await speedupAt(page, alg, gpus);
  }
  const blocked = await launch();
  try {
    // The worker's script cannot load: its error hands every point back to the page.
    await blocked.page.route('**/points-worker*', (route) => route.abort());
    await blocked.page.goto(server.url);
    await blocked.page.getByTestId('chapter-preset-eight-gpus-6-7x').click();
    await complete(blocked.page);
    const progress = blocked.page.getByTestId('scaling-progress');
    assert.equal(await progress.getAttribute('data-workers'), '0');
    assert.match(await progress.textContent(), /on this page/);
    for (const [key, value] of Object.entries(inWorkers)) {
      const [alg, gpus] = key.split('-');
      assert.equal(await speedupAt(blocked.page, alg, Number(gpus)), value, key);
    }
  } finally {
    await blocked.browser.close();
  }
});

test('a worker that falls silent is given up: the page computes the points left', async () => {
  const silent = await launch();
  try {
    // The points' workers start and say they are ready, then never answer (as a worker that died
    // without an error event): after 20 s of silence the page takes the chart over.
    await silent.page.route((u) => u.pathname.endsWith('/points-worker_loader.js') && u.search === '', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: "postMessage('ready'); onmessage = () => {};" }));
    await silent.page.goto(server.url);
    await silent.page.getByTestId('scaling-progress').waitFor({ timeout: 30000 });
    const started = await silent.page.evaluate(() => performance.now());
    await complete(silent.page, 90000);
    const waited = (await silent.page.evaluate(() => performance.now())) - started;
    assert.ok(waited > 15000, `complete after ${waited} ms: before the workers' silence was noticed`);
    const progress = silent.page.getByTestId('scaling-progress');
    assert.match(await progress.textContent(), /on this page/);
    assert.equal(await progress.getAttribute('data-workers'), '0');
    // Every point is there, as computed on the page.
    assert.ok(await speedupAt(silent.page, 'ring', 1024) > 1);
    assert.deepEqual(silent.problems, []);
  } finally {
    await silent.browser.close();
  }
});

test('moving the bandwidth slider moves the speedup chart', async () => {
  const { page } = session;
  await page.getByTestId('chapter-preset-network-100g-over-40pct').click();
  await complete(page);
  const before = await speedupAt(page, 'ring', 32);
  const verdictBefore = await page.getByTestId('verdict-value').textContent();
  const label = await setRangeTo(page, 'network-bw', 400000);
  assert.match(label, /400 Gbps/);
  await complete(page);
  const after = await speedupAt(page, 'ring', 32);
  assert.ok(after > before * 1.1, `ring at 32 GPUs: ${before} → ${after}`);
  // The claim no longer holds at 400 Gbps, and the card says what changed.
  assert.equal(await page.getByTestId('preset-verdict').getAttribute('data-holds'), 'false');
  assert.notEqual(await page.getByTestId('verdict-value').textContent(), verdictBefore);
  assert.match(await page.getByTestId('verdict-changes').textContent(), /400 Gbps instead of 100 Gbps/);
  // One GPU never communicates: its speedup stays 1.
  assert.equal(await speedupAt(page, 'ring', 1), 1);
});

/** Crossover labels that a point of the series covers somewhere along their words. */
async function coveredLabels(page) {
  await page.getByTestId('sweep-chart').scrollIntoViewIfNeeded();
  return page.$$eval('[data-testid=crossover] text', (texts) => texts.filter((t) => {
    const r = t.getBoundingClientRect();
    return [0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9].some((k) => {
      const hit = document.elementFromPoint(r.left + r.width * k, r.top + r.height / 2);
      return hit && hit !== t && !t.contains(hit) && !hit.closest('.chart-tooltip, .hover-line');
    });
  }).map((t) => t.textContent));
}

/** Crossover labels, in either size chart, that a series line runs through (sampled along each
 * line every 2 units of the drawing, against the words' box shrunk by a unit). */
async function labelsOnLines(page) {
  return page.$$eval('svg.chart-svg', (svgs) => svgs.flatMap((svg) => {
    const paths = [...svg.querySelectorAll('.series .series-line')].filter((p) => (p.getAttribute('d') ?? '').length > 0);
    return [...svg.querySelectorAll('[data-testid=crossover] text')].filter((t) => {
      const b = t.getBBox();
      return paths.some((p) => {
        const n = p.getTotalLength();
        for (let at = 0; at <= n; at += 2) {
          const q = p.getPointAtLength(at);
          if (q.x > b.x + 1 && q.x < b.x + b.width - 1 && q.y > b.y + 1 && q.y < b.y + b.height - 1) return true;
        }
        return false;
      });
    }).map((t) => `${svg.closest('[data-testid]')?.dataset.testid}: ${t.textContent}`);
  }));
}

test('charts: breakdown bars sum to the step, the sweep marks crossovers, hovering reads values out', async () => {
  const { page } = session;
  // The page's first setup (BERT-large on PCIe): its sweep's crossover words are on top, no point
  // of the series over them (eight were).
  await page.getByTestId('chapter-preset-eight-gpus-6-7x').click();
  await complete(page);
  assert.deepEqual(await coveredLabels(page), []);
  // Nor does a line run through them: on the bus bandwidth chart the plateaus run along the top,
  // where "double-binary-tree → ring" was written; there the words go to the bottom.
  assert.deepEqual(await labelsOnLines(page), []);
  await page.getByTestId('chapter-preset-racks-800-200-tree-wins').click();
  await complete(page);
  assert.deepEqual(await labelsOnLines(page), []);
  const bars = page.getByTestId('breakdown-chart').locator('[data-testid^=breakdown-bar-]');
  assert.ok((await bars.count()) >= 9); // 1…256 GPUs; 512 and 1024 for all but the heaviest
  const highlighted = page.getByTestId('breakdown-chart').locator('.bar.highlight');
  assert.equal(await highlighted.getAttribute('data-testid'), 'breakdown-bar-32');
  const crossovers = page.getByTestId('sweep-chart').getByTestId('crossover');
  assert.ok((await crossovers.count()) >= 1, 'a crossover is marked');
  // Every chart's y-axis title clears its tick labels ("bus bandwidth" ran through "10 GB/s"),
  // and no axis label leaves its drawing ("8 GiB" was cut at the right edge).
  const clashes = await page.$$eval('svg.chart-svg', (svgs) => svgs.flatMap((svg) => {
    const box = svg.getBoundingClientRect();
    const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const title = [...svg.querySelectorAll('text.axis-title')].find((t) => /rotate/.test(t.getAttribute('transform') ?? ''));
    const ticks = [...svg.querySelectorAll('.axes text, .tick text')].filter((t) => t.textContent.trim() && !t.classList.contains('axis-title'));
    const out = [];
    if (title) {
      const r = title.getBoundingClientRect();
      for (const t of ticks) if (meets(r, t.getBoundingClientRect())) out.push(`${title.textContent} over ${t.textContent}`);
    }
    for (const t of [...ticks, ...svg.querySelectorAll('text.axis-title')]) {
      const r = t.getBoundingClientRect();
      if (r.width && (r.left < box.left - 0.5 || r.right > box.right + 0.5)) out.push(`${t.textContent} out of its chart`);
    }
    return out;
  }));
  assert.deepEqual(clashes, []);
  assert.match(await crossovers.first().textContent(), /→/);

  // Hover over the speedup chart: a read-out of every algorithm at that GPU count.
  await page.getByTestId('speedup-chart').scrollIntoViewIfNeeded();
  const box = await page.getByTestId('speedup-chart').locator('svg.chart-svg').boundingBox();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
  const tip = page.getByTestId('speedup-chart').getByTestId('chart-tooltip');
  await tip.waitFor();
  assert.match(await tip.textContent(), /GPUs = \d+.*ring: [0-9.]+×/);
  await page.mouse.move(0, 0);
  // On one node the hierarchical ring is the ring: its line runs along the ring's there, dashed
  // so that the ring shows through (one line was seen where the legend names two), and solid
  // from the second node on, where they part.
  assert.equal(await speedupAt(page, 'hierarchical', 8), await speedupAt(page, 'ring', 8));
  assert.notEqual(await speedupAt(page, 'hierarchical', 64), await speedupAt(page, 'ring', 64));
  // Its last dashed stretch is along the ring alone (up to 2 GPUs the trees are there too).
  const along = page.getByTestId('speedup-chart').locator('g.series.alg-hierarchical [data-testid=series-along]').last();
  assert.equal(await page.getByTestId('speedup-chart').locator('g.series.alg-ring [data-testid=series-along]').count(), 0);
  const dashes = await along.evaluate((p) => getComputedStyle(p).strokeDasharray);
  assert.match(dashes, /^7px,? [0-9]+px$/, dashes);
  // It ends where the lines part: the ring's 8-GPU point, whichever of the chart's points that is.
  const ring8 = page.getByTestId('speedup-point-ring-8');
  const [cx, cy] = [Number(await ring8.getAttribute('cx')), Number(await ring8.getAttribute('cy'))];
  const end = (await along.getAttribute('d')).match(/L([0-9.]+),([0-9.]+)$/);
  assert.ok(end && Math.abs(Number(end[1]) - cx) < 0.6 && Math.abs(Number(end[2]) - cy) < 0.6, `${end} vs ${cx},${cy}`);
  // Where three or more lines pile up (on 2 GPUs every algorithm is the ring), each dashes in a
  // slot of its own: one pattern, a different offset each (with one pattern for all, the last
  // line drawn hid the others' dashes).
  const piles = {};
  for (const [d, dash, offset] of await page.getByTestId('speedup-chart').locator('[data-testid=series-along]')
    .evaluateAll((ps) => ps.map((p) => [p.getAttribute('d'), getComputedStyle(p).strokeDasharray, getComputedStyle(p).strokeDashoffset]))) {
    const points = d.split(/[ML]/).filter(Boolean);
    for (let i = 1; i < points.length; i++) (piles[`${points[i - 1]} ${points[i]}`] ??= []).push([dash, offset]);
  }
  const shared = Object.values(piles).filter((p) => p.length >= 2);
  assert.ok(shared.some((p) => p.length >= 3), JSON.stringify(piles));
  for (const pile of shared) {
    assert.equal(new Set(pile.map((p) => p[0])).size, 1, JSON.stringify(pile));
    assert.equal(new Set(pile.map((p) => p[1])).size, pile.length, JSON.stringify(pile));
  }
  // Pick a different algorithm set: only checked algorithms are drawn.
  await page.getByTestId('algo-rabenseifner').check();
  await complete(page);
  assert.ok((await speedupAt(page, 'rabenseifner', 64)) > 1);
  await page.getByTestId('algo-rabenseifner').uncheck();
  await complete(page);
  assert.equal(await page.getByTestId('speedup-point-rabenseifner-64').count(), 0);
});

test('screenshots of the charts in light and dark mode', async () => {
  const { page, problems } = session;
  await page.getByTestId('chapter-preset-eight-gpus-6-7x').click();
  await complete(page);
  await section().scrollIntoViewIfNeeded();
  await sectionShot(page, 'scaling-light');
  await selectOption(page, 'focus-gpus', 8);
  await page.getByTestId('chapter-preset-racks-800-200-tree-wins').click();
  await complete(page);
  const box = await page.getByTestId('sweep-chart').locator('svg.chart-svg').boundingBox();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  await sectionShot(page, 'scaling-racks-hover');
  await page.mouse.move(0, 0);
  await page.emulateMedia({ colorScheme: 'dark' });
  await sectionShot(page, 'scaling-dark');
  // What the dark picture shows: dark cards, legible words, every chart with its curves.
  for (const sel of ['[data-testid=scaling-section] h2', '[data-testid=verdict-value]', '.scaling .chart-card h3', '.scaling .chart-note']) {
    const l = await legibility(page, sel);
    assert.ok(l && l.visible, `${sel} is visible`);
    assert.ok(l.background < 0.1, `${sel}: background luminance ${l.background.toFixed(3)} is dark`);
    assert.ok(l.contrast >= 4.5, `${sel}: contrast ${l.contrast.toFixed(2)} < 4.5`);
  }
  for (const chart of ['speedup-chart', 'breakdown-chart', 'sweep-chart', 'busbw-chart']) {
    assert.ok(await page.getByTestId(chart).locator('svg').first().isVisible(), `${chart} is drawn`);
  }
  assert.ok(await page.locator('[data-testid=speedup-chart] [data-speedup]').count() >= 10);
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(problems, []);
});

test('presentation mode on a 1366×768 projector: one chart to a row, its words 12 px or more; the hardware menu shows its whole name', async () => {
  const { browser, page, problems } = await launch({ viewport: { width: 1366, height: 768 } });
  try {
    await page.goto(server.url);
    // The key is the page's once its sections are up (pressed at the load event, it could come
    // before the listener: a CI run timed out waiting for presentation mode).
    await allMounted(page);
    await page.keyboard.press('p');
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-present'));
    await complete(page);
    const columns = await page.locator('.chart-grid').evaluate((g) => getComputedStyle(g).gridTemplateColumns.split(' ').length);
    assert.equal(columns, 1);
    const sizes = await textSizes(page, '.chart-svg');
    const small = sizes.filter((s) => s.size < 12).map((s) => `${s.text} ${s.size.toFixed(1)}`);
    assert.deepEqual(small.slice(0, 5), [], `${small.length} words under 12 px`);
    // The chosen option's words against the menu's room for them (its padding and arrow aside).
    const spare = await page.locator('.scaling-controls select').first().evaluate((s) => {
      const cs = getComputedStyle(s);
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = `${cs.fontSize} ${cs.fontFamily}`;
      const text = ctx.measureText(s.options[s.selectedIndex].text).width;
      return s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20 - text;
    });
    assert.ok(spare >= 0, `the hardware menu is ${-spare} px short of its name`);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('two charts side by side on a laptop: their axes and markers read at 9.5 px or more', async () => {
  // The 640-unit charts are drawn 420-490 px wide there; their words were 7.4-9.8 px before the
  // cards drew them larger when narrow (static/scaling.css, a container query).
  for (const [width, least] of [[1280, 9.5], [1440, 11]]) {
    const { browser, page, problems } = await launch({ viewport: { width, height: 1000 } });
    try {
      await page.goto(server.url);
      await complete(page);
      const sizes = await textSizes(page, '.chart-svg');
      assert.ok(sizes.length > 60, `${sizes.length} words measured`);
      const small = sizes.filter((s) => s.size < least).map((s) => `${s.text} ${s.size.toFixed(1)}`);
      assert.deepEqual(small.slice(0, 10), [], `${small.length} words under ${least} px at ${width} px`);
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
    }
  }
});

test('the section\'s state travels in the link (speedup=), and a value it does not offer is named', async () => {
  const { browser, page, problems } = await launch();
  try {
    await page.goto(server.url);
    await complete(page);
    const q = () => page.evaluate(() => new URLSearchParams(location.search).get('speedup'));
    assert.equal(await q(), null, 'an untouched section keeps the address clean');
    await page.getByTestId('chapter-preset-network-100g-over-40pct').click();
    await setRangeTo(page, 'network-bw', 400000);
    await selectOption(page, 'scaling-model', 'gpt2-xl');
    await setRange(page, 'overlap', 35);
    await page.getByTestId('algo-tree-binomial').uncheck();
    await selectOption(page, 'focus-gpus', '16');
    await page.waitForFunction(() => /^\d+\.\d+\.2\.400000\.35\.16\.\d+\.0\.0$/.test(new URLSearchParams(location.search).get('speedup') ?? ''));
    await complete(page);
    const look = async (p) => ({
      nic: await p.getByTestId('network-bw').getAttribute('aria-valuetext'),
      model: await p.getByTestId('scaling-model').inputValue(),
      overlap: await p.getByTestId('overlap').inputValue(),
      binomial: await p.getByTestId('algo-tree-binomial').isChecked(),
      ring: await p.getByTestId('algo-ring').isChecked(),
      focus: await p.getByTestId('focus-gpus').inputValue(),
      changes: await p.getByTestId('verdict-changes').textContent(),
      verdict: await p.getByTestId('verdict-value').textContent(),
    });
    const here = await look(page);
    assert.deepEqual([here.nic, here.model, here.overlap, here.binomial, here.ring, here.focus],
      ['50 GB/s · 400 Gbps', 'gpt2-xl', '35', false, true, '16']);
    const other = await launch();
    try {
      await other.page.goto(page.url());
      await complete(other.page);
      assert.deepEqual(await look(other.page), here);
      assert.equal(await other.page.getByTestId('link-refused-speedup').count(), 0);
      // The NCCL model too: its system and NVLS.
      await other.page.getByTestId('scaling-model-nccl').check();
      await selectOption(other.page, 'scaling-nccl-system', 'dgx-a100');
      await other.page.waitForFunction(() => /\.1\.1$/.test(new URLSearchParams(location.search).get('speedup') ?? ''));
      assert.deepEqual(other.problems, []);
    } finally { await other.browser.close(); }
    // A value the section does not offer: its own setup, and it says so.
    const bad = await launch();
    try {
      await bad.page.goto(`${server.url}?speedup=0.0.0.100000.101.8.1.0.0`);
      await complete(bad.page);
      assert.equal(await bad.page.getByTestId('link-refused-speedup').textContent(),
        "This link's speedup=0.0.0.100000.101.8.1.0.0 is none of this figure's settings: it shows its own.");
      assert.equal(await bad.page.getByTestId('overlap').inputValue(), '60');
      assert.deepEqual(bad.problems, []);
    } finally { await bad.browser.close(); }
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
