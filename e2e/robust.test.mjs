// Nothing brings the lab down (issue 14): two inputs in one task both land; the heaviest runs the
// lab accepts (1,024 GPUs) run in a Web Worker (issue 11), or, where no worker can start, in slices
// between frames (in the idle time after each frame too, where the browser reports it), with a
// progress bar and a cancel button either way, so the page keeps drawing; a drag starts no run
// until it settles; a UTF-16 scenario file imports.
// Measurements go to e2e/out/robust.json.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serve, open, launch, allMounted, setRangeTo, overlapLatency, CHROMIUM_ARGS, OUT } from './harness.mjs';

let server;
const measured = { measured_at: new Date().toISOString() };
before(async () => {
  server = await serve();
});
after(async () => {
  await server?.close();
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'robust.json'), JSON.stringify(measured, null, 2) + '\n');
  console.log('robust:', JSON.stringify(measured, null, 2));
});

// The aim: no frame waits more than 200 ms while a run computes. What the test asserts is weaker
// (see the report in e2e/out/robust.json): the median frame gap stays under MEDIAN_GAP_MS, so the
// page keeps drawing throughout. On a loaded machine any frame can wait; the long tasks of
// preparing, simulating and drawing such a run are measured in prepare.test.mjs.
const AIM_MAX_GAP_MS = 200;
const MEDIAN_GAP_MS = 100;
const HOSTILE = '?alg=hierarchical&topo=uniform&gpus=1024';

/**
 * Opens `url` with a frame recorder running from the first script on: window.__frames holds every
 * animation frame's timestamp; window.__progressMs and window.__figureMs when a progress bar and a
 * drawn figure first appeared. `withoutIdleCallbacks` removes `requestIdleCallback` first;
 * `withoutLabWorker` blocks the lab's worker script (the scaling charts' workers still run), so
 * that the lab runs on the page.
 */
async function openRecording(url, { withoutIdleCallbacks = false, withoutLabWorker = false } = {}) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  if (withoutLabWorker) {
    await context.route((u) => u.pathname.endsWith('/points-worker_loader.js') && u.search === '?for=lab', (route) => route.abort());
  }
  if (withoutIdleCallbacks) {
    // As a browser without requestIdleCallback (Safari, for one): the page must not rely on it.
    await context.addInitScript(() => {
      delete window.requestIdleCallback;
      delete window.cancelIdleCallback;
    });
  }
  await context.addInitScript(() => {
    window.__frames = [];
    const frame = (t) => {
      window.__frames.push(t);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    new MutationObserver(() => {
      if (window.__progressMs === undefined && document.querySelector('[data-testid=sim-progress]')) {
        window.__progressMs = performance.now();
      }
      if (window.__figureMs === undefined && document.querySelector('[data-testid=cluster-figure]')) {
        window.__figureMs = performance.now();
      }
    }).observe(document, { subtree: true, childList: true });
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

/** The longest gap between animation frames from `fromMs` to `toMs` (page clock). */
const maxGap = (page, fromMs, toMs) =>
  page.evaluate(
    ([from, to]) => {
      const f = window.__frames.filter((t) => t >= from && t <= to);
      let gap = 0;
      const long = [];
      for (let i = 1; i < f.length; i++) {
        const d = f[i] - f[i - 1];
        gap = Math.max(gap, d);
        if (d > 100) long.push([Math.round(f[i - 1] - from), Math.round(d)]);
      }
      const gaps = f.slice(1).map((t, i) => t - f[i]).sort((a, b) => a - b);
      const median = gaps.length ? gaps[Math.floor(gaps.length / 2)] : Infinity;
      return { gap, median, frames: f.length, long };
    },
    [fromMs, toMs],
  );

const round = (x) => Math.round(x * 10) / 10;

/**
 * Waits for the page's sliced run (a progress bar, then a drawn figure) and checks that it
 * verified and that frames kept coming while it ran; returns what was measured.
 */
async function slicedRunFrames(page) {
  await page.getByTestId('sim-progress').waitFor({ timeout: 30000 });
  await page.getByTestId('cluster-figure').first().waitFor({ timeout: 180000 });
  const { progressMs, figureMs } = await page.evaluate(() => ({
    progressMs: window.__progressMs,
    figureMs: window.__figureMs,
  }));
  // A few frames more, so the frame that drew the figure is measured too.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const { gap, median, frames, long } = await maxGap(page, progressMs, figureMs + 100);
  assert.equal(await page.getByTestId('verified').first().getAttribute('class'), 'ok');
  assert.ok(frames > 10, `${frames} frames while it ran`);
  assert.ok(median < MEDIAN_GAP_MS, `frames came every ${median} ms (median) while it ran`);
  return {
    run_ms: round(figureMs - progressMs),
    max_frame_gap_ms: round(gap),
    median_frame_gap_ms: round(median),
    aim_max_frame_gap_ms: AIM_MAX_GAP_MS,
    frames,
    frames_over_100_ms_at_ms_since_progress: long,
    transfers: await page.locator('.results .small').first().textContent(),
  };
}

/**
 * While the lab's run is simulating (its bar says "running"), moves the speedup section's overlap
 * slider three times (a control that leaves the lab's run alone) and returns the milliseconds from
 * each input to its value on screen.
 */
async function controlLatencies(page) {
  const latencies = [];
  for (const value of [35, 50, 85]) {
    await page.waitForFunction(() => document.querySelector('[data-testid=sim-progress]')?.dataset.phase === 'running', null, {
      timeout: 60000,
    });
    latencies.push(await overlapLatency(page, value));
  }
  return latencies;
}

test('two inputs in one task both land, and the algorithm select and the figure agree', async () => {
  const { browser, page, problems } = await open(server.url);
  try {
    const values = async (testid) => (await page.getByTestId(testid).getAttribute('data-values')).split(',');
    const gpus = await values('gpu-count');
    const sizes = await values('size');
    const cases = [
      ['32', '4000000'],
      ['16', '250000000'],
      ['48', '1000000'],
    ];
    for (const [g, s] of cases) {
      // The GPU slider, the size slider and the algorithm menu, all in one task: no render between.
      await page.evaluate(
        ([gi, si]) => {
          const fire = (testid, value, type) => {
            const el = document.querySelector(`[data-testid=${testid}]`);
            el.value = String(value);
            el.dispatchEvent(new Event(type, { bubbles: true }));
          };
          // Sliders commit on release (input moves the thumb, change commits).
          fire('gpu-count', gi, 'input');
          fire('gpu-count', gi, 'change');
          fire('algorithm', 'tree-binary', 'change');
          fire('size', si, 'input');
          fire('size', si, 'change');
        },
        [gpus.indexOf(g), sizes.indexOf(s)],
      );
      await page.waitForFunction(
        ([g, s]) => {
          const cli = document.querySelector('[data-testid=cli-command]').textContent;
          return cli.includes(`--size ${s}`) && document.querySelector('[data-testid=gpu-count]').getAttribute('aria-valuetext') === g;
        },
        [g, s],
        { timeout: 5000 },
      );
      const cli = await page.getByTestId('cli-command').textContent();
      assert.match(cli, /--algorithm tree-binary /, cli);
      assert.equal(await page.getByTestId('algorithm').inputValue(), 'tree-binary');
      await page.getByTestId('cluster-figure').first().waitFor();
      assert.equal(
        await page.getByTestId('figure-a').getByTestId('figure-algorithm').getAttribute('data-algorithm'),
        'tree-binary',
      );
      // And the next round starts from the ring again, so the menu's change is a change.
      await page.getByTestId('algorithm').selectOption('ring');
      await page.waitForFunction(() =>
        document.querySelector('[data-testid=cli-command]')?.textContent.includes('--algorithm ring'),
      );
    }
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('the hostile link at 1,024 GPUs runs in a Web Worker: the page keeps drawing and says where it ran', async () => {
  const { browser, page, problems } = await openRecording(server.url + HOSTILE);
  try {
    // A control elsewhere on the page answers at once while the run computes in its worker.
    const latencies = await controlLatencies(page);
    const run = await slicedRunFrames(page);
    run.control_while_running_ms = latencies;
    measured.hostile_link_1024_in_a_worker = run;
    assert.ok(Math.max(...latencies) < 100, `the overlap slider answered in ${latencies.join(', ')} ms`);
    const line = page.getByTestId('simulated-in').first();
    assert.equal(await line.getAttribute('data-in-worker'), 'true');
    assert.match(await line.textContent(), /in a background thread \(Web Worker\) · 2,095,104 transfers/);
    // Nothing of the simulation ran on the page (only the result's reading and indexing did).
    assert.equal(await page.evaluate(() => performance.getEntriesByName('allreduce-lab:page-simulation-slice').length), 0);
    // The page's memory holds the result, not the run: measured 263 MB against 404 MB on the page.
    run.page_wasm_memory_bytes = Number(await page.getByTestId('cluster-figure').first().getAttribute('data-wasm-memory'));
    assert.ok(run.page_wasm_memory_bytes < 350e6, `${run.page_wasm_memory_bytes} B of wasm memory`);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('where no Web Worker can start, the hostile link runs in slices on the page, in idle time too', async () => {
  const { browser, page, problems } = await openRecording(server.url + HOSTILE, { withoutLabWorker: true });
  try {
    // The same control while the page runs it: measured for comparison (a slice delays it).
    const latencies = await controlLatencies(page);
    const run = await slicedRunFrames(page);
    run.control_while_running_ms = latencies;
    measured.hostile_link_1024_hierarchical_uniform = run;
    assert.equal(await page.getByTestId('simulated-in').first().getAttribute('data-in-worker'), null);
    assert.ok(await page.evaluate(() => performance.getEntriesByName('allreduce-lab:page-simulation-slice').length) > 10);
    // The run also worked in the idle time after its frames (a mark per such slice).
    const idleSlices = await page.evaluate(() => performance.getEntriesByName('allreduce-lab:idle-slice').length);
    run.idle_slices = idleSlices;
    // Measured: 70 in 159 frames (a busy frame leaves no idle time); a run with none fails here.
    assert.ok(idleSlices > run.frames / 8, `${idleSlices} idle-time slices in ${run.frames} frames`);
    assert.equal(await page.getByTestId('sim-progress').count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('without Web Workers and requestIdleCallback the hostile link still runs in frame slices and completes', async () => {
  // The lab's runs on the page also work in the idle time the browser reports after each frame;
  // where it reports none, they run in the frames' slices alone (a timer would work past the frame).
  const { browser, page, problems } = await openRecording(server.url + HOSTILE, {
    withoutIdleCallbacks: true,
    withoutLabWorker: true,
  });
  try {
    assert.equal(await page.evaluate(() => 'requestIdleCallback' in window), false);
    measured.hostile_link_1024_without_idle_callbacks = await slicedRunFrames(page);
    // No slice ran in idle time here (the test before counts them with idle callbacks). The same
    // run took 2.9-3.9 s with them, 4.6-5.1 s without (e2e/out/robust.json).
    assert.equal(await page.evaluate(() => performance.getEntriesByName('allreduce-lab:idle-slice').length), 0);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('a lab worker that falls silent is given up: the page runs the request itself', async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    // The lab's worker starts and says it is ready, then says nothing (as one that died without an
    // error event): after 10 s of silence the page runs the 256-GPU ring (130,560 transfers).
    await context.route((u) => u.pathname.endsWith('/points-worker_loader.js') && u.search === '?for=lab', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: "postMessage('ready'); onmessage = () => {};" }));
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (err) => problems.push(err.message));
    await page.goto(server.url + '?alg=ring&topo=uniform&gpus=256');
    await page.getByTestId('sim-progress').first().waitFor({ timeout: 30000 });
    const started = await page.evaluate(() => performance.now());
    await page.getByTestId('cluster-figure').first().waitFor({ timeout: 90000 });
    const waited = (await page.evaluate(() => performance.now())) - started;
    measured.silent_lab_worker_given_up_after_ms = Math.round(waited);
    assert.ok(waited > 8000, `the figure came after ${waited} ms: before the worker's silence was noticed`);
    const line = page.getByTestId('simulated-in').first();
    assert.equal(await line.getAttribute('data-in-worker'), null);
    // The line says what happened, and times the page's own run, not the wait for the worker.
    assert.equal(await line.getAttribute('data-worker-lost'), 'true');
    const said = (await line.textContent()).match(/^simulated on this page in ([\d.]+) (ms|s): its background thread \(Web Worker\) failed, stopped answering or could not hand its result over · 130,560 transfers$/);
    assert.ok(said, await line.textContent());
    const ownMs = Number(said[1]) * (said[2] === 's' ? 1000 : 1);
    assert.ok(ownMs < waited - 5000, `the page's run timed at ${ownMs} ms`);
    // No worker is tried again: the next large run starts on the page at once.
    await setRangeTo(page, 'gpu-count', 512);
    await page.getByText('523,264 transfers').first().waitFor({ timeout: 8000 });
    assert.equal(await line.getAttribute('data-in-worker'), null);
    assert.equal(await line.getAttribute('data-worker-lost'), null);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('a comparison at 1,024 GPUs runs both sides, each in its own worker', async () => {
  const { browser, page, problems } = await openRecording(server.url + '?alg=ring&topo=uniform&gpus=1024&cmp=hierarchical');
  try {
    await page.getByTestId('sim-progress').first().waitFor({ timeout: 30000 });
    for (const side of ['figure-a', 'figure-b']) {
      await page.getByTestId(side).getByTestId('cluster-figure').waitFor({ timeout: 180000 });
    }
    const progressMs = await page.evaluate(() => window.__progressMs);
    const doneMs = await page.evaluate(() => performance.now());
    const { gap, median, frames } = await maxGap(page, progressMs, doneMs);
    for (const side of ['figure-a', 'figure-b']) {
      assert.equal(await page.getByTestId(side).getByTestId('simulated-in').getAttribute('data-in-worker'), 'true');
    }
    measured.comparison_1024_ring_vs_hierarchical_uniform = {
      both_done_ms: round(doneMs - progressMs),
      max_frame_gap_ms: round(gap),
      median_frame_gap_ms: round(median),
      frames,
    };
    assert.ok(frames > 10, `${frames} frames while they ran`);
    assert.ok(median < MEDIAN_GAP_MS, `frames came every ${median} ms (median) while they ran`);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('a large run can be cancelled and run again; a drag starts nothing until its release, a change alone starts at once, a held key settles first', async () => {
  const { browser, page, problems } = await openRecording(server.url + HOSTILE);
  try {
    await page.waitForFunction(() => {
      const p = document.querySelector('[data-testid=sim-progress]');
      return p && Number(p.dataset.done) > 0;
    }, null, { timeout: 30000 });
    await page.getByTestId('sim-cancel').click();
    await page.getByTestId('sim-cancelled').waitFor();
    // Cancelled means stopped: nothing arrives later.
    await page.waitForTimeout(1000);
    assert.equal(await page.getByTestId('cluster-figure').count(), 0);
    await page.getByTestId('sim-restart').click();
    await page.getByTestId('cluster-figure').first().waitFor({ timeout: 120000 });

    // Drag the size slider at 1,024 GPUs: 25 positions 40 ms apart, as a hand would. Dragging
    // moves the thumb only; the release commits the value (`change`).
    const atOnce = () => page.evaluate(() => performance.getEntriesByName('allreduce-lab:run-at-once').length);
    const atOnceBefore = await atOnce();
    const dragged = await page.evaluate(async () => {
      const el = document.querySelector('[data-testid=size]');
      const started = performance.now();
      const seen = [];
      for (let i = 0; i < 25; i++) {
        el.value = String(10 + (i % 20));
        el.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((r) => setTimeout(r, 40));
        const p = document.querySelector('[data-testid=sim-progress]');
        seen.push(p ? Number(p.dataset.done) : -1);
      }
      const ended = performance.now();
      const marks = performance.getEntriesByName('allreduce-lab:run-at-once').length;
      // The release commits the last position.
      el.dispatchEvent(new Event('change', { bubbles: true }));
      return { started, ended, seen, marks };
    });
    const { gap, median } = await maxGap(page, dragged.started, dragged.ended);
    measured.drag_size_slider_1024 = {
      max_frame_gap_ms: round(gap),
      median_frame_gap_ms: round(median),
      aim_max_frame_gap_ms: AIM_MAX_GAP_MS,
      drag_ms: round(dragged.ended - dragged.started),
    };
    assert.ok(median < MEDIAN_GAP_MS, `frames came every ${median} ms (median) during the drag`);
    assert.ok(dragged.seen.every((d) => d <= 0), `a run started during the drag: ${dragged.seen}`);
    assert.equal(dragged.marks, atOnceBefore, 'a run started at once during the drag');
    // The release's value is simulated, started at once: a change alone has nothing to settle.
    assert.equal(await atOnce(), atOnceBefore + 1);
    await page.getByTestId('cluster-figure').first().waitFor({ timeout: 120000 });
    const values = (await page.getByTestId('size').getAttribute('data-values')).split(',');
    assert.ok((await page.getByTestId('cli-command').textContent()).includes(`--size ${values[10 + (24 % 20)]}`));
    // So does a key's step.
    await page.waitForTimeout(300);
    await page.evaluate(() => {
      const el = document.querySelector('[data-testid=size]');
      el.value = String(Number(el.value) + 1);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    });
    assert.equal(await atOnce(), atOnceBefore + 2);
    await page.getByTestId('cluster-figure').first().waitFor({ timeout: 120000 });
    assert.ok((await page.getByTestId('cli-command').textContent()).includes(`--size ${values[10 + (24 % 20) + 1]}`));
    // A held key's steps, 30 ms apart: the first starts at once, the others wait for the input to
    // settle, and only the last is simulated then.
    await page.waitForTimeout(300);
    const held = await page.evaluate(async () => {
      const el = document.querySelector('[data-testid=size]');
      const at = [];
      for (let i = 0; i < 5; i++) {
        at.push(performance.now());
        el.value = String(Number(el.value) + 1);
        el.dispatchEvent(new Event('input', { bubbles: true }));
        el.dispatchEvent(new Event('change', { bubbles: true }));
        await new Promise((r) => setTimeout(r, 30));
      }
      return Math.max(...at.slice(1).map((t, i) => t - at[i]));
    });
    // (Only the first unless this busy machine held a step back near the settle time.)
    assert.ok((await atOnce()) >= atOnceBefore + 3, 'the first step did not start at once');
    if (held < 60) assert.equal(await atOnce(), atOnceBefore + 3, `steps at most ${held} ms apart started at once`);
    await page.getByTestId('cluster-figure').first().waitFor({ timeout: 120000 });
    assert.ok((await page.getByTestId('cli-command').textContent()).includes(`--size ${values[10 + (24 % 20) + 6]}`));
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('a UTF-16 scenario file with its byte-order mark imports like the UTF-8 one', async () => {
  const { browser, page, problems } = await open(server.url);
  try {
    const scenario = JSON.stringify({
      topology: { kind: 'uniform', ranks: 12, bandwidth: 12.5e9, latency_secs: 5e-6 },
      algorithm: 'rabenseifner', size_bytes: 16000000, segments: 1, gamma_secs_per_byte: 0,
    });
    const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(scenario, 'utf16le')]);
    await page.getByTestId('import-json').setInputFiles({ name: 's.json', mimeType: 'application/json', buffer: utf16le });
    await page.waitForFunction(() => document.querySelector('[data-testid=cli-command]')?.textContent.includes('--ranks 12'));
    assert.equal(await page.getByTestId('import-error').count(), 0);
    assert.equal(await page.getByTestId('algorithm').inputValue(), 'rabenseifner');
    // Junk is refused with the core's words.
    await page.getByTestId('import-json').setInputFiles({ name: 'j.json', mimeType: 'application/json', buffer: Buffer.from([0x7b, 0, 0, 0]) });
    await page.getByTestId('import-error').waitFor();
    assert.match(await page.getByTestId('import-error').textContent(), /NUL/);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('a section whose wasm module does not arrive says so, and the sections after it still mount', async () => {
  // The page's wasm is split (scripts/wasm_split.py): the lab's module fails to load.
  const s = await launch();
  try {
    await s.page.route((u) => /^\/allreduce-lab-[0-9a-f]{16}-module_\d+_lab\.wasm$/.test(u.pathname), (route) => route.abort());
    await s.page.goto(server.url);
    await allMounted(s.page);
    const missing = s.page.getByTestId('section-not-loaded');
    assert.equal(await missing.count(), 1);
    assert.match(await missing.textContent(), /could not be loaded .+ Reload the page/);
    assert.equal(await s.page.locator('#lab [data-testid=section-not-loaded]').count(), 1);
    // The lab's turn ended with its message: the chapter's later sections and the NCCL section,
    // after it in turn, are in place and work.
    for (const id of ['section-versus', 'claims']) await s.page.getByTestId(id).first().waitFor({ timeout: 5000 });
    await s.page.locator('#nccl, [data-testid=nccl-section]').first().waitFor({ timeout: 5000 });
    assert.deepEqual(s.problems.filter((p) => !/Failed to load wasm-split module|ERR_FAILED/.test(p)), []);
  } finally {
    await s.browser.close();
  }
});

test('a section whose wasm module is slow holds up the sections after it for 10 s at most, then fills in', async () => {
  const s = await launch();
  try {
    let release;
    const held = new Promise((r) => { release = r; });
    await s.page.route((u) => /^\/allreduce-lab-[0-9a-f]{16}-module_\d+_lab\.wasm$/.test(u.pathname), async (route) => {
      await held;
      await route.continue();
    });
    const t0 = Date.now();
    await s.page.goto(server.url);
    // The chapter's sections after the lab's turn mount while the lab's module is still on its way.
    await s.page.getByTestId('claims').waitFor({ timeout: 30000 });
    const waited = Date.now() - t0;
    assert.equal(await s.page.locator('#lab [data-deferred=loading]').count(), 1, 'the lab still loading');
    assert.ok(waited >= 9000, `the later sections came ${waited} ms after the start: before the lab's 10 s`);
    release();
    await s.page.getByTestId('cluster-figure').first().waitFor({ timeout: 30000 });
    await allMounted(s.page);
    assert.deepEqual(s.problems, []);
  } finally {
    await s.browser.close();
  }
});
