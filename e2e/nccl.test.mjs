// The real-hardware panel: the model switch, the published points, paste-and-fit, a garbage paste.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, open, shot, selectOption, ROOT } from './harness.mjs';

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

async function busbw(page) {
  return Number(await page.getByTestId('nccl-busbw').getAttribute('data-busbw'));
}

test('switching the model moves 8×H100 from ~450 to ~365 GB/s (NVLS off) and the chart shows the published points', async () => {
  const { page, problems } = session;
  const section = page.getByTestId('nccl-section');
  await section.scrollIntoViewIfNeeded();
  await selectOption(page, 'nccl-system', 'dgx-h100');
  // The menu names machines, not the command line's ids.
  assert.deepEqual(await page.getByTestId('nccl-system').locator('option').allTextContents(), [
    'DGX H100 · NVSwitch', 'DGX A100 · NVSwitch', 'DGX A100 · NVSwitch, 2 nodes', 'DGX H200 · NVSwitch',
    'DGX B200 · NVSwitch', '8× RTX 4090 · PCIe Gen4, no P2P', '8× H100 PCIe · PCIe Gen5',
  ]);
  await page.getByTestId('nccl-nvls').uncheck();
  await page.getByTestId('model-ideal').check();
  const ideal = await busbw(page);
  assert.ok(ideal > 440 && ideal <= 451, `textbook busbw ${ideal}`);
  await page.getByTestId('model-nccl').check();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=nccl-busbw]')?.dataset.busbw) < 400);
  const nccl = await busbw(page);
  assert.ok(nccl > 355 && nccl < 375, `like-NCCL busbw ${nccl}`);
  assert.equal(await page.getByTestId('nccl-over-wire').count(), 0, 'under the links, nothing to explain');
  assert.equal(await page.getByTestId('published-point').count(), 11);
  assert.equal(await page.getByTestId('nccl-error-row').count(), 11);
  // The table was measured with NVLS on: the summary says the gap is what NVLS buys.
  assert.match(await page.getByTestId('nccl-error-summary').innerText(), /measured with NVLS on; .* that gap is what NVLS buys, not a fault of the model\.$/);
  // NVLS on (as the published table was measured): the switch reduces, busbw above the wire rate,
  // every row within 25 %, and the change is marked and explained.
  await page.getByTestId('nccl-nvls').check();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=nccl-busbw]')?.dataset.busbw) > 450);
  // Above the links' 450 GB/s: the line under it says why (it read as a mistake).
  assert.match(await page.getByTestId('nccl-over-wire').innerText(), /the switch adds.*S\(1 \+ 1\/N\) each way/);
  const errors = await page.$$eval('[data-testid=nccl-error-row]', (rows) => rows.map((r) => Number(r.dataset.error)));
  assert.ok(errors.every((e) => Math.abs(e) < 0.25), `errors ${errors}`);
  // The table in words, from the rows the table shows: how many sizes are within 5 %, and the
  // largest miss the optimistic way (a learner reading a prediction knows how far off it may be).
  const summary = await page.getByTestId('nccl-error-summary').innerText();
  const within = errors.filter((e) => Math.abs(e) <= 0.05).length;
  assert.ok(summary.includes(`within 5% at ${within} of the table's ${errors.length} sizes`), summary);
  const worst = Math.min(...errors);
  assert.ok(worst < -0.05, `the H100 table has an optimistic miss: ${errors}`);
  assert.match(summary, new RegExp(`It is most optimistic at [^:]+: ${(worst * 100).toFixed(1)}% \\(predicted faster than measured\\)`));
  assert.match(summary, /Misses are largest at small and mid sizes\..*trust its large-message bandwidth more than its small- and mid-size times\.$/);
  // Two A100 nodes miss most at their largest sizes (the NICs' delivered bandwidth): the summary
  // says that, not the one-node reason.
  await selectOption(page, 'nccl-system', 'dgx-a100x2');
  await page.waitForFunction(() => /largest at the big sizes/.test(document.querySelector('[data-testid=nccl-error-summary]')?.textContent ?? ''));
  const a100x2 = await page.$$eval('[data-testid=nccl-error-row]', (rows) => rows.map((r) => [r.cells[0].textContent, Number(r.dataset.error)]));
  const [worstSize] = a100x2.reduce((a, b) => (Math.abs(b[1]) > Math.abs(a[1]) ? b : a));
  assert.ok(/MiB|GiB/.test(worstSize) && !/^(1|16) MiB$/.test(worstSize), `the worst miss at ${worstSize}`);
  assert.doesNotMatch(await page.getByTestId('nccl-error-summary').innerText(), /small and mid sizes/);
  await selectOption(page, 'nccl-system', 'dgx-h100');
  await page.waitForFunction(() => /small and mid sizes/.test(document.querySelector('[data-testid=nccl-error-summary]')?.textContent ?? ''));
  const changes = await page.getByTestId('nccl-change').allTextContents();
  assert.ok(changes.some((t) => /NVLS/.test(t)));
  // The change comes at 2 MiB, where busbw is a fifth of the wire rate: its sentence says how
  // NVLS works, not that busbw is above the wire (true here only from 512 MiB).
  assert.ok(changes.every((t) => !/wire rate/.test(t)), changes.join('\n'));
  assert.ok(await page.getByTestId('nccl-change-marker').count() >= 1);
  await shot(page, 'nccl-h100');
  assert.deepEqual(problems, []);
});

test('the figure reads: prediction and measurements in two colours, legend to match, labels apart, inside the page', async () => {
  const { page } = session;
  await selectOption(page, 'nccl-system', 'dgx-h100');
  await page.getByTestId('model-nccl').check();
  await page.getByTestId('published-point').first().waitFor();
  const look = await page.evaluate(() => {
    const chart = document.querySelector('[data-testid=nccl-chart]');
    const series = [...chart.querySelectorAll('svg.chart-svg g.series')].map((g) => getComputedStyle(g.querySelector('.series-line')).stroke);
    const swatches = [...chart.querySelectorAll('.chart-legend .legend-item')].map((i) => getComputedStyle(i.querySelector('.series-line')).stroke);
    const box = (el) => el.getBoundingClientRect();
    const title = box(chart.querySelector('.axis-title[transform]'));
    const ticks = [...chart.querySelectorAll('.axes text:not(.axis-title)')].map(box).filter((b) => b.right <= box(chart.querySelector('.plot-bg')).left + 1);
    const section = document.querySelector('[data-testid=nccl-section]');
    const heading = box(section.querySelector('h2'));
    return {
      series,
      swatches,
      overlaps: ticks.filter((t) => t.left < title.right && t.right > title.left && t.top < title.bottom && t.bottom > title.top).length,
      ticks: ticks.length,
      headingLeft: heading.left,
      chapter: box(document.querySelector('#compare h2')).left,
      lab: box(document.querySelector('#lab')).left,
      chartWidth: box(chart).width,
      window: window.innerWidth,
      // Published points beyond the plot (16 GiB ones were drawn past the 8 GiB axis's end).
      outside: [...chart.querySelectorAll('[data-testid=published-point]')].filter((p) => {
        const b = box(p), plot = box(chart.querySelector('.plot-bg'));
        const [x, y] = [(b.left + b.right) / 2, (b.top + b.bottom) / 2];
        return x < plot.left - 0.5 || x > plot.right + 0.5 || y < plot.top - 0.5 || y > plot.bottom + 0.5;
      }).length,
    };
  });
  assert.equal(look.outside, 0, JSON.stringify(look));
  // The "like NCCL" prediction and the published measurement are told apart by colour, and each
  // legend swatch has its series' colour (the prediction's was the text's, as the measurement's).
  assert.equal(look.series.length, 2, JSON.stringify(look));
  assert.notEqual(look.series[0], look.series[1], JSON.stringify(look));
  assert.deepEqual(look.swatches, look.series);
  // The y axis's title stands clear of its tick labels ("500 GB/s" ran into it).
  assert.ok(look.ticks >= 3, JSON.stringify(look));
  assert.equal(look.overlaps, 0, JSON.stringify(look));
  // The section keeps the chapter's column (its blocks sat at the page's left edge, 640 px empty
  // beside them) and the figure the size of the speedup section's charts, instead of the window's
  // whole width.
  assert.ok(look.headingLeft > look.lab + 100 && Math.abs(look.headingLeft - look.chapter) <= 4, JSON.stringify(look));
  assert.ok(look.chartWidth <= 800 && look.chartWidth < look.window * 0.75, JSON.stringify(look));
});

test('a pasted all_reduce_perf table is fitted and described in plain words', async () => {
  const { page } = session;
  await selectOption(page, 'nccl-system', 'dgx-a100x2');
  const text = fs.readFileSync(path.join(ROOT, 'src/sim/nccl/published/dgx-a100-2nodes-ib-hdr.txt'), 'utf8');
  await page.getByTestId('paste-box').fill(text);
  // The fit runs between frames: record the page's long tasks while it runs.
  await page.evaluate(() => {
    window.__fitTasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__fitTasks.push(e.duration); })
      .observe({ type: 'longtask' });
  });
  await page.getByTestId('paste-fit').click();
  // Its progress shows while it runs, and the page still answers: the paste box takes typing.
  await page.getByTestId('paste-fitting').waitFor({ timeout: 10000 });
  const result = page.getByTestId('paste-result');
  await result.waitFor({ timeout: 120000 });
  const tasks = await page.evaluate(() => window.__fitTasks);
  console.log(`# fit: ${tasks.length} long tasks, longest ${Math.max(0, ...tasks).toFixed(0)} ms`);
  // One predicted row per slice: 54 ms measured on this 2-core machine under load (372 ms when the
  // final tables were predicted in one piece); 150 ms leaves room for a busier machine.
  assert.ok(Math.max(0, ...tasks) < 150, `longest task while fitting: ${Math.max(0, ...tasks)} ms`);
  const words = await result.innerText();
  assert.match(words, /NICs deliver \d+(\.\d)?% of 200 Gb\/s/);
  assert.match(words, /Your fastest row, 8 B, took 37\.3 µs\./);
  assert.match(words, /From \d+(\.\d+)? [KMG]iB up, the fitted model predicts your rows within 5%\./);
});

test('a garbage paste shows a message naming the line and changes nothing else', async () => {
  const { page } = session;
  const before = await busbw(page);
  await page.getByTestId('paste-box').fill('# my cluster\n8 2 float sum -1 oops 0.00 0.00 0\n');
  await page.getByTestId('paste-fit').click();
  const err = page.getByTestId('paste-error');
  await err.waitFor();
  assert.match(await err.innerText(), /Line 2/);
  assert.equal(await busbw(page), before);
  await page.getByTestId('paste-box').fill('hello, world');
  await page.getByTestId('paste-fit').click();
  await page.waitForFunction(() => /all_reduce_perf/.test(document.querySelector('[data-testid=paste-error]')?.textContent));
  // A size beyond 1 TB is refused on its line (u64::MAX panicked in the model, 10^14 froze the
  // tab for minutes), and so is a table of more rows than any sweep: at once, in a sentence.
  const row = (size) => `${size} ${size / 4} float sum -1 37.33 28.09 49.16 0`;
  await page.getByTestId('paste-box').fill([row(1048576), row(2097152), '18446744073709551615 1 float sum -1 90.0 28.09 49.16 0'].join('\n'));
  await page.getByTestId('paste-fit').click();
  await page.waitForFunction(() => /Line 3.*1 TB/.test(document.querySelector('[data-testid=paste-error]')?.textContent));
  const rows = Array.from({ length: 1001 }, (_, k) => row(8 * (k + 1))).join('\n');
  await page.getByTestId('paste-box').fill(rows);
  const started = Date.now();
  await page.getByTestId('paste-fit').click();
  await page.waitForFunction(() => /Line 1001.*1000 rows/.test(document.querySelector('[data-testid=paste-error]')?.textContent));
  assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
  assert.equal(await busbw(page), before);
});
