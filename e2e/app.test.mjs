// What a person sees and clicks, driven in Debian's Chromium against the release build in dist/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serve, open, shot, setRange, setRangeTo, selectOption, timeSecs, legibility, textSizes, ROOT } from './harness.mjs';

let server;
let session;
before(async () => {
  server = await serve();
  session = await open(server.url);
});
after(async () => {
  await session?.browser.close();
  await server?.close();
});

/** The CLI's time for the command the page shows (`data-testid=cli-command`). */
function cliSecs(command) {
  const args = command.trim().split(/\s+/).slice(1); // drop "allreduce-lab"
  const bin = path.join(ROOT, 'target', 'release', 'allreduce-lab');
  const out = fs.existsSync(bin)
    ? execFileSync(bin, [...args, '--json'], { encoding: 'utf8' })
    : execFileSync('cargo', ['run', '--release', '--quiet', '--', ...args, '--json'], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out).time_s;
}

async function expectCliAgrees(page, testid = 'cli-command', figure = 'figure-a') {
  const command = await page.getByTestId(testid).textContent();
  const ui = await timeSecs(page, figure);
  const cli = cliSecs(command);
  assert.ok(Number.isFinite(ui) && ui > 0, `UI time ${ui}`);
  assert.ok(Math.abs(ui - cli) <= 1e-9 * cli, `UI ${ui} vs CLI ${cli} for: ${command}`);
}

async function pauseAt(page, scrub) {
  if (await page.getByTestId('pause').count()) await page.getByTestId('pause').click();
  await setRange(page, 'scrub', scrub);
}

async function fills(page) {
  // The cells are painted on a canvas; each row's list item carries its cells' contributor counts.
  return page.$$eval('[data-testid^=rank-buffer-]', (rows) => rows.flatMap((r) => r.getAttribute('data-fills').split(',').map(Number)));
}

async function clockSecs(page) {
  return Number(await page.getByTestId('clock').getAttribute('data-secs'));
}

async function resetToPreset(page, name) {
  await page.getByTestId(`preset-${name}`).click();
  // A preset turns the comparison on (it shows what it promises); these tests look at one run.
  await page.getByTestId('compare-toggle').uncheck();
  await selectOption(page, 'algorithm', 'ring');
}

test('the page loads without console errors, shows a verified run, and asks nothing of the network', async () => {
  const { page, problems } = session;
  await page.getByTestId('verified').first().waitFor();
  assert.match(await page.getByTestId('verified').first().textContent(), /verified/);
  assert.match(await page.getByTestId('time-result').first().textContent(), /s$/);
  await pauseAt(page, 300);
  await shot(page, '01-loaded');
  assert.deepEqual(problems, []);
});

test('changing the GPU count and a bandwidth gives the time the CLI prints for the same scenario', async () => {
  const { page } = session;
  await resetToPreset(page, 'racks-800-200');
  await expectCliAgrees(page);
  const before = await timeSecs(page);
  await setRangeTo(page, 'gpu-count', 64);
  assert.equal(await page.getByTestId('shape').textContent(), '4 racks × 2 nodes × 8 GPUs');
  assert.equal(await page.getByTestId('shape-uneven').count(), 0);
  await expectCliAgrees(page);
  // 12 GPUs do not fill 8-GPU nodes, 2 to a rack: split evenly, and the page says why the shape
  // is not what the two choices show (they keep 8 and 2).
  await setRangeTo(page, 'gpu-count', 12);
  assert.equal(await page.getByTestId('shape').textContent(), '3 racks × 1 node × 4 GPUs');
  assert.equal(await page.getByTestId('gpus-per-node').inputValue(), '8');
  assert.match(await page.getByTestId('shape-uneven').textContent(), /^12 GPUs do not fill nodes of 8 GPUs, 2 to a rack: the lab splits them evenly/);
  await expectCliAgrees(page);
  // 24 GPUs fill 8-GPU nodes but not racks of 2: the note says the racks.
  await setRangeTo(page, 'gpu-count', 24);
  assert.equal(await page.getByTestId('shape').textContent(), '3 racks × 1 node × 8 GPUs');
  assert.match(await page.getByTestId('shape-uneven').textContent(), /^24 GPUs fill nodes of 8 GPUs but not racks of 2 nodes/);
  await setRangeTo(page, 'gpu-count', 64);
  assert.equal(await page.getByTestId('shape-uneven').count(), 0);
  const label = await setRangeTo(page, 'bandwidth-rack', 100000);
  assert.match(label, /12\.5 GB\/s/);
  await expectCliAgrees(page);
  assert.notEqual(await timeSecs(page), before);
  // Trees with segments, and the uniform α-β topology.
  await selectOption(page, 'algorithm', 'tree-binary');
  await setRangeTo(page, 'segments', 8);
  await expectCliAgrees(page);
  await selectOption(page, 'topology-kind', 'uniform');
  await setRangeTo(page, 'latency-gpu', 5000);
  await expectCliAgrees(page);
  for (const alg of ['ring', 'double-binary-tree', 'recursive-doubling', 'rabenseifner', 'hierarchical', 'tree-flat', 'tree-binomial', 'auto']) {
    await selectOption(page, 'algorithm', alg);
    await expectCliAgrees(page);
  }
  await shot(page, '02-uniform-auto');
  assert.deepEqual(session.problems, []);
});

test('stepping forward and back moves chunks and updates the buffers', async () => {
  const { page } = session;
  await resetToPreset(page, 'nvlink-8');
  await pauseAt(page, 0);
  const start = await fills(page);
  assert.equal(start.length, 8 * 8);
  assert.ok(start.every((f) => f === 1), 'every cell starts with its own contribution');

  await page.getByTestId('step-forward').click();
  const t1 = await clockSecs(page);
  const after1 = await fills(page);
  assert.ok(t1 > 0);
  assert.notDeepEqual(after1, start, 'a step reduces chunks into buffers');
  assert.equal(after1.filter((f) => f === 2).length, 8, 'ring step 1: each rank holds one chunk of 2 contributions');

  await page.getByTestId('step-forward').click();
  const t2 = await clockSecs(page);
  assert.ok(t2 > t1);
  assert.notDeepEqual(await fills(page), after1);

  await page.getByTestId('step-back').click();
  assert.equal(await clockSecs(page), t1);
  assert.deepEqual(await fills(page), after1, 'stepping back restores the buffers');

  // Between two boundaries, chunks are on the wire, and they move as time passes.
  const mid = (t1 + t2) / 2;
  const end = await timeSecs(page);
  await setRange(page, 'scrub', Math.round((mid / end) * 1000));
  // The chunks are painted on a canvas over the figure: as many as the figure says are in flight,
  // and its pixels change as they move.
  const tokens = page.getByTestId('figure-a').getByTestId('figure-tokens');
  const drawn = Number(await tokens.getAttribute('data-drawn'));
  assert.ok(drawn > 0, 'chunks in flight mid-step');
  assert.equal(drawn, Number(await page.getByTestId('figure-a').getByTestId('cluster-figure').getAttribute('data-in-flight')));
  const inked = (c) => {
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < px.length; i += 4) if (px[i] > 0) n++;
    return { n, url: c.toDataURL() };
  };
  const where = await tokens.evaluate(inked);
  // A token is an 11-unit square: drawn ones cover at least half of that each.
  assert.ok(where.n >= drawn * 60, `${where.n} pixels inked for ${drawn} chunks`);
  await setRange(page, 'scrub', Math.round((mid / end) * 1000) + 3);
  await page.waitForFunction((u) => document.querySelector('[data-testid=figure-a] [data-testid=figure-tokens]').toDataURL() !== u, where.url);
  await page.keyboard.press('ArrowRight');
  assert.ok((await clockSecs(page)) > mid, 'the → key steps forward');
  await page.keyboard.press('ArrowLeft');
  assert.ok((await clockSecs(page)) <= mid, 'the ← key steps back');
  await shot(page, '03-mid-step');
  assert.deepEqual(session.problems, []);
});

test('scrubbing to the end shows every buffer complete and the result verified', async () => {
  const { page } = session;
  for (const [preset, n] of [['two-nodes-400g', 16], ['racks-800-200', 32]]) {
    await resetToPreset(page, preset);
    for (const alg of ['ring', 'tree-flat', 'double-binary-tree', 'hierarchical']) {
      await selectOption(page, 'algorithm', alg);
      await pauseAt(page, 1000);
      const all = await fills(page);
      assert.ok(all.length > 0);
      assert.ok(all.every((f) => f === n), `${preset}/${alg}: every cell holds all ${n} contributions`);
      const rows = await page.$$eval('[data-testid^=rank-buffer-]', (els) => els.map((e) => e.getAttribute('data-complete')));
      assert.equal(rows.length, n);
      assert.ok(rows.every((r) => r === 'true'));
      // The canvas shows it: most of the cell area is painted near-opaque.
      const painted = await page.getByTestId('buffer-grid').evaluate((c) => {
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let opaque = 0;
        for (let i = 3; i < px.length; i += 4) if (px[i] > 200) opaque++;
        return opaque / (c.width * c.height);
      });
      assert.ok(painted > 0.15, `${preset}/${alg}: ${(painted * 100).toFixed(0)} % of the buffer grid painted`);
      assert.equal((await page.getByTestId('verified').first().textContent()).trim(), '✓ verified');
      assert.equal(await page.getByTestId('figure-a').getByTestId('figure-tokens').getAttribute('data-drawn'), '0');
      assert.equal(await page.getByTestId('figure-a').getByTestId('figure-tokens').evaluate((c) =>
        c.getContext('2d').getImageData(0, 0, c.width, c.height).data.some((v, i) => i % 4 === 3 && v > 0)), false, 'no chunk drawn at the end');
    }
  }
  await shot(page, '04-end');
});

test('play and pause, by button and by space bar', async () => {
  const { page } = session;
  await resetToPreset(page, 'two-nodes-400g');
  await pauseAt(page, 0);
  await page.getByTestId('play').click();
  await page.waitForTimeout(400);
  const t = await clockSecs(page);
  assert.ok(t > 0, 'time advances while playing');
  await page.getByTestId('pause').click();
  const paused = await clockSecs(page);
  await page.waitForTimeout(200);
  assert.equal(await clockSecs(page), paused);
  // Space belongs to the lab while it is on screen (here: focus on the page, the lab in view).
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press(' ');
  await page.waitForTimeout(300);
  assert.ok((await clockSecs(page)) > paused, 'space plays');
  await page.keyboard.press(' ');
  // The render follows the key's dispatch on Yew's schedule: wait for it.
  await page.getByTestId('play').waitFor({ timeout: 5000 });
  assert.equal(await page.getByTestId('pause').count(), 0, 'space pauses');
  // At the end of the run, ▶ plays it again from the start, as the space bar does (the button
  // did nothing there).
  await pauseAt(page, 1000);
  const end = await clockSecs(page);
  assert.ok(end > 0);
  await page.getByTestId('play').click();
  await page.getByTestId('pause').waitFor({ timeout: 5000 });
  await page.waitForTimeout(200);
  const again = await clockSecs(page);
  assert.ok(again > 0 && again < end, `${again} s of ${end} s after ▶ at the end`);
});

test('a count\'s menu is never narrower than its number (beside "每机柜节点数" 16 showed as "1")', async () => {
  const { page } = session;
  for (const lang of ['zh', 'en']) {
    await page.goto(`${server.url}?lang=${lang}&gpus=256&gpn=16&npr=16#lab`);
    await page.getByTestId('nodes-per-rack').waitFor();
    const widths = await page.$$eval('#lab select.count', (sels) => sels.map((sel) => {
      const shown = sel.getBoundingClientRect().width;
      // Its natural width: the same menu left free to size itself.
      const { minWidth, maxWidth } = sel.style;
      sel.style.minWidth = 'max-content';
      sel.style.maxWidth = 'none';
      const natural = sel.getBoundingClientRect().width;
      Object.assign(sel.style, { minWidth, maxWidth });
      return { id: sel.dataset.testid, shown, natural };
    }));
    assert.ok(widths.some((w) => w.id === 'nodes-per-rack'), JSON.stringify(widths));
    for (const w of widths) assert.ok(w.shown >= w.natural - 0.5, `${lang}: ${JSON.stringify(w)}`);
  }
  await page.goto(server.url);
});

test('playback waits while the lab is scrolled out of view and goes on where it was', async () => {
  const { page } = session;
  await resetToPreset(page, 'two-nodes-400g');
  await pauseAt(page, 0);
  await selectOption(page, 'speed', '2'); // 0.5×: the run outlasts the test
  await page.getByTestId('play').click();
  const stage = page.locator('#lab main.stage');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=clock]').getAttribute('data-secs')) > 0);
  assert.equal(await stage.getAttribute('data-on-screen'), 'true');
  // The page's end (the NCCL section) is far below the lab.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForSelector('#lab main.stage[data-on-screen=false]', { timeout: 5000 });
  const away = await clockSecs(page);
  await page.waitForTimeout(600);
  assert.equal(await clockSecs(page), away, 'the clock holds while the lab is out of view');
  assert.equal(await page.getByTestId('pause').count(), 1, 'still playing: it goes on when the lab is back');
  await page.getByTestId('clock').scrollIntoViewIfNeeded();
  await page.waitForSelector('#lab main.stage[data-on-screen=true]', { timeout: 5000 });
  await page.waitForFunction((t) => Number(document.querySelector('[data-testid=clock]').getAttribute('data-secs')) > t, away, { timeout: 5000 });
  await page.getByTestId('pause').click();
  const back = await clockSecs(page);
  assert.ok(back > away, `${back} > ${away}`);
});

test('a preset\'s button says it is the scenario on screen, until a control moves', async () => {
  const { page } = session;
  const pressed = () => page.locator('button.preset[data-testid^=preset-]').evaluateAll((bs) =>
    bs.filter((b) => b.getAttribute('aria-pressed') === 'true').map((b) => b.dataset.testid));
  const look = (id) => page.getByTestId(id).evaluate((b) => getComputedStyle(b).backgroundColor);
  await page.getByTestId('preset-racks-800-200').click();
  await page.getByTestId('figure-b').waitFor();
  assert.deepEqual(await pressed(), ['preset-racks-800-200']);
  // Filled, not only outlined: it does not look like the others, nor like a focus ring.
  assert.notEqual(await look('preset-racks-800-200'), await look('preset-two-nodes-400g'));
  await page.getByTestId('compare-toggle').uncheck();
  assert.deepEqual(await pressed(), [], 'one run is not the preset\'s comparison');
  await page.getByTestId('preset-racks-800-200').click();
  assert.deepEqual(await pressed(), ['preset-racks-800-200']);
  await setRangeTo(page, 'gpu-count', 64);
  assert.deepEqual(await pressed(), [], 'a moved slider');
  await page.getByTestId('preset-superpod-4x8-rails').click();
  assert.deepEqual(await pressed(), ['preset-superpod-4x8-rails']);
  assert.deepEqual(session.problems, []);
});

test('from the keyboard alone: the figure takes focus, ↓ ↑ go through its links, Tab reaches "Slow this cable" and a GPU\'s "join late"', async () => {
  const { page } = session;
  await resetToPreset(page, 'nvlink-8');
  const figure = page.getByTestId('figure-a').getByTestId('cluster-figure');
  const lines = await page.getByTestId('figure-a').locator('[data-testid=link]').count();
  assert.ok(lines >= 8);
  const chosen = () => page.getByTestId('figure-a').locator('[data-testid=link].hovered').evaluateAll((ls) => ls.map((l) => Number(l.dataset.line)));
  await figure.focus();
  // Whether each arrow was the figure's, not the page's to scroll by (read on the window, after
  // the figure's handler).
  await page.evaluate(() => {
    window.__arrows = [];
    window.addEventListener('keydown', (e) => { if (e.key.startsWith('Arrow')) window.__arrows.push(e.defaultPrevented); });
  });
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await chosen(), [0]);
  assert.match(await page.getByTestId('figure-a').getByTestId('link-info').textContent(), /carried/);
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await chosen(), [1]);
  // The chosen wire is drawn in the focus colour, not only edged with it (a 2 px glow was lost
  // under the other direction's wire).
  const [wire, opacity] = await page.getByTestId('figure-a').locator('[data-testid=link].hovered .wire').evaluate((w) => [getComputedStyle(w).stroke, getComputedStyle(w).strokeOpacity]);
  assert.equal(opacity, '1', 'whatever its load');
  const focus = await page.evaluate(() => { const p = document.createElement('p'); p.style.color = 'var(--focus)'; document.body.append(p); const c = getComputedStyle(p).color; p.remove(); return c; });
  assert.equal(wire, focus);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.deepEqual(await chosen(), [lines - 1], 'round the figure');
  assert.deepEqual(await page.evaluate(() => window.__arrows), [true, true, true, true], 'the arrows move the choice, not the page');
  // A GPU's link: Tab goes on to its buttons, and Enter makes the GPU a straggler.
  for (let i = 0; i < lines && (await page.getByTestId('figure-a').getByTestId('late-gpu').count()) === 0; i++) {
    await page.keyboard.press('ArrowDown');
  }
  const late = page.getByTestId('figure-a').getByTestId('late-gpu');
  const rank = Number((await late.textContent()).match(/GPU (\d+)/)[1]);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'slow-link');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'late-gpu');
  await page.keyboard.press('Enter');
  await page.waitForFunction((r) => document.querySelector(`[data-testid=figure-a] [data-testid=gpu-${r}]`)?.dataset.late === 'true', rank);
  await page.getByTestId('figure-a').getByTestId('late-gpu').click();
  await page.waitForFunction((r) => document.querySelector(`[data-testid=figure-a] [data-testid=gpu-${r}]`)?.dataset.late === 'false', rank);
  assert.deepEqual(session.problems, []);
});

test('the comparison view shows both algorithms with one shared cursor', async () => {
  const { page } = session;
  await resetToPreset(page, 'racks-800-200');
  await page.getByTestId('compare-toggle').check();
  await selectOption(page, 'compare-algorithm', 'hierarchical');
  await page.getByTestId('figure-b').waitFor();
  assert.equal(await page.getByTestId('figure-a').getByTestId('figure-algorithm').textContent(), 'ring');
  assert.equal(await page.getByTestId('figure-b').getByTestId('figure-algorithm').textContent(), 'hierarchical');
  const a = await timeSecs(page, 'figure-a');
  const b = await timeSecs(page, 'figure-b');
  assert.ok(a > 0 && b > 0 && a !== b);
  await expectCliAgrees(page, 'cli-command-b', 'figure-b');
  await pauseAt(page, 400);
  const ta = await page.getByTestId('figure-a').getByTestId('cluster-figure').getAttribute('data-t');
  const tb = await page.getByTestId('figure-b').getByTestId('cluster-figure').getAttribute('data-t');
  assert.equal(ta, tb, 'one cursor drives both figures');
  await page.getByTestId('figure-b').locator('[data-testid=link] .hit').nth(2).hover({ force: true });
  assert.match(await page.getByTestId('figure-b').getByTestId('link-info').textContent(), /carried/);
  await shot(page, '05-compare');
  await page.getByTestId('compare-toggle').uncheck();
  assert.equal(await page.getByTestId('figure-b').count(), 0);
  assert.deepEqual(session.problems, []);
});

test('extreme inputs never panic or freeze the page, and large clusters are aggregated', async () => {
  const { page } = session;
  await resetToPreset(page, 'two-nodes-400g');
  await selectOption(page, 'nodes-per-rack', '4');
  for (const count of ['1', '2', '3', '128', '1024']) {
    await setRangeTo(page, 'gpu-count', count);
    for (const alg of ['ring', 'double-binary-tree', 'auto']) {
      const started = Date.now();
      // What the lab cannot run here is greyed out in the menu (the current choice excepted).
      const option = page.getByTestId('algorithm').locator(`option[value="${alg}"]`);
      if (await option.isDisabled()) {
        assert.ok(Number(count) >= 768, `${alg} refused at ${count} GPUs`);
        continue;
      }
      await selectOption(page, 'algorithm', alg);
      await page.getByTestId('figure-a').waitFor();
      const secs = (Date.now() - started) / 1000;
      assert.ok(secs < 10, `${count} GPUs, ${alg}: ${secs}s`);
      // At once: a result or a refusal; a large run instead shows its progress and can be stopped.
      await page.waitForFunction(() =>
        document.querySelector('[data-testid=figure-a]').querySelector(
          '[data-testid=scenario-error], [data-testid=verified], [data-testid=sim-progress]',
        ),
      );
      const error = page.getByTestId('scenario-error');
      const running = page.getByTestId('figure-a').getByTestId('sim-progress');
      if (await running.count()) {
        await running.getByTestId('sim-cancel').click();
        await page.getByTestId('figure-a').getByTestId('sim-cancelled').waitFor();
      } else if (await error.count()) {
        assert.match(await error.textContent(), /transfers|limit/);
      } else {
        assert.match(await page.getByTestId('verified').first().textContent(), /verified/);
      }
    }
  }
  await selectOption(page, 'algorithm', 'hierarchical');
  // 274 k transfers: run in slices, drawn when done.
  await page.getByTestId('figure-a').getByTestId('unit').first().waitFor({ timeout: 120000 });
  assert.ok((await page.getByTestId('figure-a').getByTestId('unit').count()) > 0, 'aggregated units above 64 GPUs');
  await shot(page, '06-1024-aggregated');
  for (const [id, end] of [['size', 'max'], ['bandwidth-gpu', 0], ['latency-gpu', 'max'], ['latency-node', 0], ['size', 0]]) {
    const max = Number(await page.getByTestId(id).getAttribute('max'));
    await setRange(page, id, end === 'max' ? max : 0);
  }
  await setRangeTo(page, 'gpu-count', 16);
  await pauseAt(page, 1000);
  assert.match(await page.getByTestId('verified').first().textContent(), /verified/);
  assert.deepEqual(session.problems, []);
});

test('dark mode renders dark, legible, with every part of the lab', async () => {
  const dark = await open(server.url, { colorScheme: 'dark' });
  try {
    await pauseAt(dark.page, 350);
    await shot(dark.page, '07-dark');
    assert.deepEqual(dark.problems, []);
    // What the picture shows: a dark page whose words read (WCAG AA: 4.5:1 for text) …
    for (const sel of ['body', '[data-testid=figure-a] h2.run-title', '[data-testid=time-result]', '#lab-title', '.masthead .tagline']) {
      const l = await legibility(dark.page, sel);
      assert.ok(l, `${sel} is on the page`);
      assert.ok(l.visible, `${sel} is visible`);
      assert.ok(l.background < 0.1, `${sel}: background luminance ${l.background.toFixed(3)} is dark`);
      assert.ok(l.contrast >= 4.5, `${sel}: contrast ${l.contrast.toFixed(2)} < 4.5`);
    }
    // … and the parts of the lab: the network drawn with its links and chunks, the results, the transport.
    for (const id of ['cluster-figure', 'algbw', 'busbw', 'scrub', 'gpu-count']) {
      assert.ok(await dark.page.getByTestId(id).first().isVisible(), `${id} is visible in dark mode`);
    }
    assert.ok(await dark.page.locator('[data-testid=cluster-figure] line, [data-testid=cluster-figure] path').count() > 8);
  } finally {
    await dark.browser.close();
  }
});

test('the whole page fits a 375 px phone in both languages (nothing scrolls sideways)', async () => {
  for (const q of ['', '?lang=zh']) {
    const phone = await open(server.url + q, { viewport: { width: 375, height: 740 } });
    try {
      await phone.page.waitForTimeout(500);
      const { width, scrollWidth } = await phone.page.evaluate(() => ({
        width: document.documentElement.clientWidth,
        scrollWidth: document.documentElement.scrollWidth,
      }));
      assert.equal(scrollWidth, width, `page width ${scrollWidth} on a ${width} px screen (${q || 'en'})`);
      await phone.page.getByTestId('step-forward').click();
      // The link timeline scrolls sideways in its own box; its heading stays (it scrolled away
      // with the chart, under the fade), and so do the links' names, at the box's left edge,
      // when the bars are scrolled to the end of the run (they scrolled away with them).
      const timeline = await phone.page.evaluate(async () => {
        const t = document.querySelector('.timeline');
        const g = t.querySelector('.gantt-scroll');
        g.scrollLeft = g.scrollWidth;
        await new Promise(requestAnimationFrame);
        const box = g.getBoundingClientRect();
        const names = [...g.querySelectorAll('.row-label')].map((n) => n.getBoundingClientRect());
        const bars = g.querySelector('svg.gantt').getBoundingClientRect();
        return {
          heading: t.scrollWidth <= t.clientWidth + 1,
          chart: g.scrollWidth > g.clientWidth,
          scrolled: g.scrollLeft > 0 && bars.left < box.left,
          namesShown: names.length > 0 && names.every((r) => r.left >= box.left - 0.5 && r.right <= box.left + box.width / 2),
        };
      });
      assert.deepEqual(timeline, { heading: true, chart: true, scrolled: true, namesShown: true });
      // Its links' names and axis at 9 px or more (8.4 px in a 720 px box).
      const gantt = (await textSizes(phone.page, '#lab .timeline')).filter((t) => t.where === 'svg');
      assert.deepEqual(gantt.filter((t) => t.size < 9).slice(0, 3), [], `${q || 'en'}: the timeline's words`);
      // The buffers' grid likewise: its heading stays, and the ranks' names over the canvas's own
      // (drawn in it, they scrolled away with the cells).
      const buffers = await phone.page.evaluate(async () => {
        const b = document.querySelector('.buffers');
        const g = b.querySelector('.grid-scroll');
        g.scrollLeft = g.scrollWidth;
        await new Promise(requestAnimationFrame);
        const box = g.getBoundingClientRect();
        const names = g.querySelector('svg.buffer-names');
        const n = names.getBoundingClientRect();
        const canvas = g.querySelector('canvas').getBoundingClientRect();
        return {
          heading: b.scrollWidth <= b.clientWidth + 1,
          scrolled: g.scrollLeft > 0 && canvas.left < box.left,
          namesShown: names.querySelectorAll('text').length === b.querySelectorAll('[data-testid^=rank-buffer-]').length && n.width > 40 && Math.abs(n.left - box.left) < 0.5
            && Math.abs(n.height - canvas.height) < 1,
        };
      });
      assert.deepEqual(buffers, { heading: true, scrolled: true, namesShown: true });
      // No sentence lies in a box that scrolls sideways, under its fade (the tree's readout and
      // the lab's legend did: each line's last word faded for good).
      const faded = await phone.page.$$eval('.ch-scroll p, .figure-scroll p, .figure-scroll .legend, .gantt-scroll p, .grid-scroll p',
        (els) => els.map((e) => e.textContent.slice(0, 40)));
      assert.deepEqual(faded, []);
      await shot(phone.page, `phone-lab${q ? '-zh' : ''}`);
      // The smallest phones, 320 px: still nothing sideways (Ring or Tree's bar values ran 14 px
      // past the edge).
      await phone.page.setViewportSize({ width: 320, height: 740 });
      await phone.page.waitForTimeout(300);
      const narrow = await phone.page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      assert.equal(narrow[0], narrow[1], `page width ${narrow[0]} on a ${narrow[1]} px screen (${q || 'en'})`);
      assert.deepEqual(phone.problems, []);
    } finally { await phone.browser.close(); }
  }
});

test('the cluster figure\'s names read at 4.5:1 at least on their boxes, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const s = await open(server.url + '?gpus=32', { colorScheme });
    try {
      const worst = await s.page.evaluate(() => {
        const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
        const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
        const ratio = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((m, n) => n - m); return (x + 0.05) / (y + 0.05); };
        const fig = document.querySelector('[data-testid=cluster-figure]');
        const boxes = ['g.rack-box rect', 'g.node-box rect'].map((q) => getComputedStyle(fig.querySelector(q)).fill);
        const names = [...fig.querySelectorAll('g.rack-box text, g.switch text')].map((t) => getComputedStyle(t).fill);
        return Math.min(...names.flatMap((n) => boxes.map((b) => ratio(n, b))));
      });
      assert.ok(worst >= 4.5, `${colorScheme}: a name at ${worst.toFixed(2)}:1`);
      assert.deepEqual(s.problems, []);
    } finally { await s.browser.close(); }
  }
});

test('no link runs through a switch\'s name (the spine\'s and a rack\'s were struck through by their uplinks)', async () => {
  const { page } = session;
  // In presentation mode too, where the names are drawn at 13 units instead of 10.
  for (const [preset, gpus, present] of [['racks-800-200', 32], ['racks-800-200', 16], ['two-nodes-400g', 16], ['superpod-4x8-rails', 32], ['racks-800-200', 32, true]]) {
    if (present) {
      await page.keyboard.press('p');
      await page.waitForFunction(() => document.documentElement.hasAttribute('data-present'));
    }
    await resetToPreset(page, preset);
    await setRangeTo(page, 'gpu-count', gpus);
    await pauseAt(page, 400);
    const struck = await page.getByTestId('figure-a').getByTestId('cluster-figure').evaluate((svg) => {
      const out = [];
      const wires = [...svg.querySelectorAll('.link .wire')].map((w) => ({
        a: [w.x1.baseVal.value, w.y1.baseVal.value], b: [w.x2.baseVal.value, w.y2.baseVal.value],
        half: parseFloat(getComputedStyle(w).strokeWidth) / 2,
      }));
      for (const t of svg.querySelectorAll('g.switch text')) {
        if (!t.textContent) continue;
        const r = t.getBBox();
        const meets = ({ a, b, half }) => {
          const n = Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]));
          for (let i = 0; i <= n; i++) {
            const [x, y] = [a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n];
            if (x > r.x - half + 1 && x < r.x + r.width + half - 1 && y > r.y - half + 2 && y < r.y + r.height + half - 2) return true;
          }
          return false;
        };
        if (wires.some(meets)) out.push(t.textContent);
      }
      return out;
    });
    assert.deepEqual(struck, [], `${preset}, ${gpus} GPUs${present ? ', presenting' : ''}`);
    if (present) {
      await page.locator('.present-toggle.on').first().click();
      await page.waitForFunction(() => !document.documentElement.hasAttribute('data-present'));
    }
  }
});

test('an 8-byte message, where only latency counts, runs in the lab as on the command line', async () => {
  const s = await open(server.url + '?alg=ring&topo=uniform&gpus=16&size=8#lab');
  try {
    const figure = s.page.getByTestId('figure-a');
    await figure.getByTestId('verified').first().waitFor();
    assert.equal(await s.page.getByTestId('url-error').count(), 0);
    assert.equal(await s.page.getByTestId('size').getAttribute('aria-valuetext'), '8 B');
    assert.match(await figure.getByTestId('lower-bound-terms').textContent(), /latency dominates/);
    assert.ok((await s.page.getByTestId('cli-command').textContent()).includes('--size 8'));
    assert.deepEqual(s.problems, []);
  } finally {
    await s.browser.close();
  }
});

test('racks too close for their names are numbered, said in the legend; two racks keep their names', async () => {
  const s = await open(server.url + '?gpus=512&alg=ring#lab');
  try {
    const figure = s.page.getByTestId('figure-a');
    await figure.getByTestId('verified').first().waitFor({ timeout: 60000 });
    // 32 racks: their names ran into the next switch and off the figure ("ack 0").
    assert.equal(await figure.getByTestId('rack-number').count(), 32);
    assert.match(await figure.getByTestId('rack-number-legend').textContent(), /^0, 1, 2 …: the racks' switches, numbered/);
    const box = await figure.locator('svg.figure').first().boundingBox();
    const out = await figure.getByTestId('rack-number').evaluateAll((ts, b) => ts.filter((t) => {
      const r = t.getBoundingClientRect();
      return r.left < b.x - 0.5 || r.right > b.x + b.width + 0.5;
    }).length, box);
    assert.equal(out, 0, 'every number inside the figure');
    await s.page.goto(server.url + '?gpus=32&alg=ring&npr=2#lab');
    await figure.getByTestId('verified').first().waitFor({ timeout: 60000 });
    assert.equal(await figure.getByTestId('rack-number').count(), 0);
    assert.equal(await figure.getByTestId('rack-number-legend').count(), 0);
    assert.deepEqual(s.problems, []);
  } finally {
    await s.browser.close();
  }
});

test('one GPU exchanges nothing: the lab says so instead of "algbw 0 B/s" and "1× the bound of 0 s"; tiers no transfer crosses say so, and their links are drawn dotted', async () => {
  const s = await open(server.url + '?gpus=1#lab');
  try {
    const figure = s.page.getByTestId('figure-a');
    await figure.getByTestId('verified').first().waitFor();
    assert.equal(await figure.getByTestId('algbw').textContent(), '—');
    // Too quick for the page's clock, not "simulated in 0 s".
    assert.match(await figure.getByTestId('simulated-in').textContent(), /^simulated in (< 0\.1 ms|[\d.]+ [mµ]s) · 0 transfers$/);
    assert.equal(await figure.getByTestId('busbw').textContent(), '—');
    assert.equal(await figure.getByTestId('lower-bound').textContent(), '—');
    assert.match(await figure.getByTestId('one-gpu').textContent(), /^One GPU: nothing to exchange/);
    assert.equal(await figure.getByTestId('lower-bound-terms').count(), 0);
    assert.match(await figure.locator('.buffers h3').textContent(), /one rank: nothing to gather/);
    assert.doesNotMatch(await figure.locator('.legend').textContent(), /1 ranks|chunk in flight|bar under a GPU/);
    // The one-node rack's box is too narrow for its name beside the switch, which names it: the
    // name is drawn once (the two sat on each other).
    assert.equal(await figure.locator('g.rack-box text').count(), 0);
    assert.deepEqual(await figure.locator('g.switch text').allTextContents().then((t) => t.filter((x) => /rack 0/.test(x))), ['rack 0']);
    // Neither NICs nor rack uplinks are crossed: their sliders say so.
    assert.equal(await s.page.getByTestId('tier-idle-node').textContent(), 'Not crossed: 1 GPU in one node.');
    assert.equal(await s.page.getByTestId('tier-idle-rack').count(), 1);
    // The default 16 GPUs cross NICs but not the rack uplinks of their one rack.
    await s.page.goto(server.url + '#lab');
    await s.page.getByTestId('figure-a').getByTestId('verified').first().waitFor();
    assert.equal(await s.page.getByTestId('tier-idle-node').count(), 0);
    assert.equal(await s.page.getByTestId('tier-idle-rack').textContent(), 'Not crossed: 16 GPUs in one rack.');
    // The figure draws those uplinks faint and dashed, and no link that carried data.
    const links = await s.page.getByTestId('figure-a').locator('[data-testid=link]').evaluateAll((gs) => gs.map((g) => ({
      tier: [...g.classList].find((c) => c.startsWith('tier-')),
      unused: g.classList.contains('unused'),
      dash: getComputedStyle(g.querySelector('.wire')).strokeDasharray,
    })));
    const unused = links.filter((l) => l.unused);
    assert.ok(unused.length > 0 && unused.every((l) => l.tier === 'tier-rack' && l.dash === '2px, 4px'), JSON.stringify(links));
    assert.ok(links.filter((l) => l.tier !== 'tier-rack').every((l) => !l.unused), JSON.stringify(links));
    assert.equal(await s.page.getByTestId('figure-a').getByTestId('unused-legend').textContent(), 'dotted: no byte crosses it in this run');
    // The bar under each GPU is in the legend: empty at the start, as wide as the GPU at the end.
    assert.equal(await s.page.getByTestId('figure-a').getByTestId('done-legend').textContent(), "the bar under a GPU: how much of its buffer holds every rank's contribution");
    const bars = () => s.page.getByTestId('figure-a').locator('g.gpu').evaluateAll((gs) => gs.map((g) =>
      Number(g.querySelector('.gpu-done').getAttribute('width')) / Number(g.querySelector('.gpu-body').getAttribute('width'))));
    await pauseAt(s.page, 0);
    assert.deepEqual([...new Set(await bars())], [0]);
    await pauseAt(s.page, 1000);
    const full = await bars();
    assert.ok(full.length === 16 && full.every((b) => Math.abs(b - 1) < 0.01), JSON.stringify(full));
    assert.deepEqual(s.problems, []);
  } finally { await s.browser.close(); }
});
