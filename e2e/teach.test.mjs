// Teaching it true: the Ring-vs-Tree figure (its crossover moves to larger messages as GPUs are
// added), the predict-then-reveal prompt, the shortest stave in the lab (a clicked cable slows the
// run and becomes the busiest link; a clicked GPU becomes a straggler), the navigation at laptop
// width and the page at phone width. With DOCS_SHOTS=1 it also writes the docs/ screenshots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serve, open, setRange, setRangeTo, timeSecs, CHROMIUM_ARGS, ROOT } from './harness.mjs';

let server;
before(async () => { server = await serve(); });
after(async () => { await server?.close(); });

const DOCS = path.join(ROOT, 'docs');

async function openIn(locale, viewport = { width: 1440, height: 1000 }) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const context = await browser.newContext({ locale, viewport });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  await page.goto(server.url);
  await page.getByTestId('chapter-guide').waitFor({ state: 'visible', timeout: 30000 });
  return { browser, page, problems };
}

/** The crossover (bytes) the figure shows once all its simulations are done. */
async function crossoverAt(page, gpus) {
  await setRangeTo(page, 'versus-gpus', gpus);
  const readout = page.getByTestId('versus-readout');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=versus-readout]')?.dataset.complete === 'true',
    null,
    { timeout: 120000 },
  );
  return Number(await readout.getAttribute('data-crossover'));
}

test('the Ring-vs-Tree crossover moves to larger messages when GPUs are added', async () => {
  const { browser, page, problems } = await openIn('en-US');
  try {
    await page.getByTestId('section-versus').scrollIntoViewIfNeeded();
    const at8 = await crossoverAt(page, 8);
    // Where the latency and bandwidth parts do not add up to the simulated time, a sentence says
    // why (the tree's 12 + 77.3 µs stood beside 138 µs without a word): at 8 GPUs, 32 segments.
    const parts = async (name) => {
      const side = page.getByTestId(`versus-${name}`);
      const [t, l, b] = await Promise.all(['data-total', 'data-latency', 'data-bandwidth'].map(async (a) => Number(await side.getAttribute(a))));
      const note = page.getByTestId(`versus-${name}-parts`);
      const apart = Math.abs(t - (l + b)) > 0.02 * t;
      assert.equal(await note.count(), apart ? 1 : 0, `${name}: ${t} vs ${l} + ${b}`);
      return apart ? note.textContent() : null;
    };
    assert.equal(await parts('ring'), null);
    // The ring's latency part is its 2(N−1) steps at the latency of one step, said with the
    // number: within a node a hop crosses two GPU links of 1 µs (28 µs stood beside "GPU link
    // latency 1 µs" unexplained).
    assert.match(await page.getByTestId('versus-ring-hop').textContent(), /2\(N−1\) = 14 steps waits 2(\.00)? µs of latency: its slowest hop crosses 2 links/);
    const ringLatency = Number(await page.getByTestId('versus-ring').getAttribute('data-latency'));
    assert.ok(Math.abs(ringLatency - 14 * 2e-6) < 0.01 * ringLatency, `${ringLatency} s`);
    // On one node no transfer crosses a NIC or a rack uplink: their sliders say so, and not at 64.
    assert.match(await page.getByTestId('versus-node-bw-idle').textContent(), /^not crossed below 16 GPUs$/);
    assert.match(await page.getByTestId('versus-rack-lat-idle').textContent(), /^not crossed below 64 GPUs$/);
    // It describes the slider (a screen reader reads it after the name, not as part of it).
    assert.equal(await page.getByTestId('versus-node-bw').getAttribute('aria-describedby'), 'versus-node-bw-idle');
    assert.equal(await page.getByTestId('section-versus').getByRole('slider', { name: 'In-rack bandwidth (node NIC)', exact: true }).count(), 1);
    assert.match(await parts('tree'), /less than the .+ simulated: cut into 32 segments, the message pays the latency once per segment at every hop/);
    // A side's bar tracks have one width, so that their lengths compare (60 to 108 px before).
    for (const name of ['ring', 'tree']) {
      const widths = await page.getByTestId(`versus-${name}`).locator('.ch-track').evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect().width));
      assert.ok(widths.length === 3 && Math.max(...widths) - Math.min(...widths) <= 1, `${name}: ${widths}`);
    }
    const at64 = await crossoverAt(page, 64);
    assert.equal(await page.locator('[data-testid$=-idle]').count(), 0);
    assert.ok(at8 > 0 && at64 > at8, `crossover at 8 GPUs ${at8} B, at 64 GPUs ${at64} B`);
    assert.match(await page.getByTestId('versus-readout').innerText(), /tree is faster below about/);
    // Both sides show their parts, from simulations: the ring pays more latency than the tree.
    const ring = page.getByTestId('versus-ring');
    const tree = page.getByTestId('versus-tree');
    assert.ok(Number(await ring.getAttribute('data-latency')) > Number(await tree.getAttribute('data-latency')));
    assert.ok(Number(await ring.getAttribute('data-bandwidth')) < Number(await tree.getAttribute('data-bandwidth')));
    assert.equal(await page.getByTestId('versus-timeline-ring').locator('.vs-lane').count(), 3);
    assert.equal(await page.getByTestId('versus-crossover-mark').count(), 1);
    // Its axes read as logarithmic: a tick at each decade of time (only the two ends were
    // labelled), none of their labels on another, and the dotted line names the chosen size.
    const chart = page.getByTestId('versus-chart');
    const ticks = await chart.getByTestId('versus-y-tick').locator('text').evaluateAll((ts) => ts.map((t) => { const b = t.getBoundingClientRect(); return [t.textContent, b.top, b.bottom]; }));
    assert.ok(ticks.length >= 2, JSON.stringify(ticks));
    assert.ok(ticks.every(([text]) => /^(1|10|100) (ns|µs|ms|s)$/.test(text)), JSON.stringify(ticks));
    assert.ok(ticks.every((t, i) => i === 0 || t[1] >= ticks[i - 1][2] || t[2] <= ticks[i - 1][1]), JSON.stringify(ticks));
    assert.ok((await chart.getByTestId('versus-x-tick').count()) >= 2);
    // In binary units, as the speedup and NCCL sections write the same power-of-two sizes.
    assert.match(await chart.getByTestId('versus-chosen-label').textContent(), /^S = [0-9.]+ ([KMG]i)?B$/);
    assert.deepEqual(await chart.getByTestId('versus-x-tick').locator('text').allTextContents(), ['1 KiB', '1 MiB']);
    assert.match(await chart.textContent(), /time \(log scale\)/);
    // One segment: the tree's bandwidth part grows (it no longer pipelines).
    const piped = Number(await tree.getAttribute('data-bandwidth'));
    await setRangeTo(page, 'versus-segments', 1);
    await page.waitForFunction(
      (p) => { const b = Number(document.querySelector('[data-testid=versus-tree]')?.dataset.bandwidth); return b > p; },
      piped, { timeout: 60000 },
    );
    // 2 GPUs, 1 segment: ring and tree are the same exchange and take the same time at every
    // size; the readout says so (it said "one algorithm is faster at every simulated size").
    await setRangeTo(page, 'versus-gpus', 2);
    await page.waitForFunction(() => /same time at every simulated size/.test(document.querySelector('[data-testid=versus-readout]')?.textContent ?? ''), null, { timeout: 60000 });
    assert.equal(await page.getByTestId('versus-crossover-mark').count(), 0);
    // 64 GPUs on 15 GB/s links, 128 segments, 50 µs everywhere: the curves cross twice (the ring
    // ahead from about 15 MB, the tree again from about 43 MB), and the figure marks both changes.
    const changed = ['versus-intra-bw', 'versus-intra-lat', 'versus-node-lat', 'versus-rack-lat'];
    const before = await Promise.all(changed.map((id) => page.getByTestId(id).inputValue()));
    await setRangeTo(page, 'versus-segments', 128);
    await setRangeTo(page, 'versus-intra-bw', 15);
    for (const id of changed.slice(1)) await setRangeTo(page, id, 50000);
    await setRangeTo(page, 'versus-gpus', 64);
    await page.waitForFunction(() => document.querySelector('[data-testid=versus-readout]')?.dataset.complete === 'true'
      && /lead changes again/.test(document.querySelector('[data-testid=versus-readout]').textContent), null, { timeout: 120000 });
    // The readout says where and to whom (it said "see the curves").
    assert.match(await page.getByTestId('versus-readout').innerText(), /The ring is faster below about [\d.]+ [KMG]iB, the tree above .* Near [\d.]+ [KMG]iB the lead changes again: just above it the ring is faster\.|The tree is faster below about [\d.]+ [KMG]iB, the ring above .* Near [\d.]+ [KMG]iB the lead changes again: just above it the tree is faster\./);
    const xs = await page.getByTestId('versus-crossover-mark').locator('line').evaluateAll((ls) => ls.map((l) => Number(l.getAttribute('x1'))));
    assert.equal(xs.length, 2);
    assert.ok(xs[1] > xs[0], `second change at x = ${xs[1]}, after the first at ${xs[0]}`);
    for (const [i, id] of changed.entries()) await setRange(page, id, Number(before[i]));
    if (process.env.DOCS_SHOTS) {
      // The sticky top bar would cover the section's heading in an element screenshot.
      await page.addStyleTag({ content: '.ch-topbar, .transport { position: static !important; }' });
      await setRangeTo(page, 'versus-segments', 32);
      await setRangeTo(page, 'versus-gpus', 64);
      await page.waitForFunction(() => document.querySelector('[data-testid=versus-readout]')?.dataset.complete === 'true', null, { timeout: 120000 });
      await page.getByTestId('section-versus').screenshot({ path: path.join(DOCS, 'versus-en-light.png') });
      await page.getByTestId('lang-switch').click();
      await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
      await page.getByTestId('section-versus').screenshot({ path: path.join(DOCS, 'versus-zh-light.png') });
    }
    assert.deepEqual(problems, []);
  } finally { await browser.close(); }
});

test('a prediction prompt asks first, then reveals the simulated answer', async () => {
  const { browser, page, problems } = await openIn('en-US');
  try {
    assert.equal(await page.getByTestId('predict-answer').count(), 0, 'no answer before a guess');
    await page.getByTestId('predict-ring').click();
    const answer = page.getByTestId('predict-answer');
    await answer.waitFor();
    // At 2 MiB on 64 GPUs the ring's 126 latencies cost more than the tree's extra bandwidth.
    assert.match(await page.getByTestId('versus-predict').innerText(), /at 2 MiB on 64 GPUs/);
    assert.equal(await answer.getAttribute('data-faster'), 'tree');
    assert.match(await answer.innerText(), /Not this time\. Simulated: ring .+, tree .+; the tree is faster/);
    await page.getByTestId('predict-tree').click();
    assert.match(await answer.innerText(), /^Right\./);
    // The question is one the sliders can ask (it was 1 MB, between two stops): set to it, the
    // figure shows the answer's times.
    const [ring, tree] = [await answer.getAttribute('data-ring'), await answer.getAttribute('data-tree')];
    // One button sets the figure to it (the figure stayed at its own 8 GPUs and 16 MiB).
    await setRangeTo(page, 'versus-segments', 128);
    await page.getByTestId('predict-show').click();
    assert.equal(await page.getByTestId('versus-gpus').getAttribute('aria-valuetext'), '64 GPUs');
    assert.equal(await page.getByTestId('versus-size').getAttribute('aria-valuetext'), '2 MiB');
    await page.waitForFunction(([r, t]) => document.querySelector('[data-testid=versus-ring]')?.getAttribute('data-total') === r
      && document.querySelector('[data-testid=versus-tree]')?.getAttribute('data-total') === t, [ring, tree], { timeout: 60000 });
    // §1.1 asks too: the simulated speedup of the PCIe box is revealed only after a guess.
    assert.equal(await page.getByTestId('why-predict-answer').count(), 0);
    await page.getByTestId('why-guess-1').click();
    const why = page.getByTestId('why-predict-answer');
    const s = Number(await why.getAttribute('data-speedup'));
    assert.ok(s >= 6 && s <= 7, `${s}`);
    assert.match(await why.innerText(), /^Right\. Simulated: \d\.\d×/);
    // Verdict chips sit next to the text that makes each claim, linking to its row.
    assert.equal(await page.getByTestId('chip-tree-3.5x-ring').getAttribute('data-verdict'), 'approximately');
    assert.equal(await page.getByTestId('chip-bad-topology-under-4x').getAttribute('data-verdict'), 'holds');
    assert.equal(await page.getByTestId('chip-tree-3.5x-ring').locator('a').getAttribute('href'), '#claim-tree-3.5x-ring');
    assert.deepEqual(problems, []);
  } finally { await browser.close(); }
});

test('slowing one cable in the lab changes the time and the busiest link; a clicked GPU straggles', async () => {
  const { browser, page, problems } = await open(server.url);
  try {
    await page.getByTestId('pause').click();
    const figure = page.getByTestId('figure-a');
    const before = await timeSecs(page);
    const busiestBefore = await figure.getByTestId('busiest-link').getAttribute('data-link');
    // Pick node 1's NIC (node 0's is the busiest already, by tie) and slow its cable.
    const nics = figure.locator('g.link.tier-node .hit');
    const count = await nics.count();
    const hint = await figure.getByTestId('link-info').boundingBox();
    let found = false;
    for (let i = 0; i < count && !found; i++) {
      await nics.nth(i).click({ force: true });
      found = /node 1/.test(await figure.getByTestId('link-info').innerText());
    }
    assert.ok(found, "node 1's NIC is drawn and can be picked");
    // The line with the cable's button is no taller than the hint it replaced (the page below
    // jumped 5 px at every hover).
    const picked = await figure.getByTestId('link-info').boundingBox();
    assert.ok(Math.abs(picked.height - hint.height) < 1, `link line ${hint.height} -> ${picked.height} px`);
    // A real click: the pointer leaves the figure on its way to the button, and the clicked link
    // stays shown (the button went with the hover, and the click did nothing).
    await page.mouse.move(1, 1);
    assert.match(await figure.getByTestId('link-info').innerText(), /node 1/);
    await figure.getByTestId('slow-link').click();
    await page.waitForFunction((b) => Number(document.querySelector('[data-testid=figure-a] [data-testid=time-result]').dataset.secs) > b, before);
    const after = await timeSecs(page);
    assert.ok(after > 3 * before, `a quarter of one NIC: ${before} → ${after} s`);
    assert.notEqual(await figure.getByTestId('busiest-link').getAttribute('data-link'), busiestBefore);
    assert.match(await figure.getByTestId('busiest-link').innerText(), /node 1/);
    assert.equal(await figure.getByTestId('faults').getAttribute('data-count'), '1');
    assert.match(await page.getByTestId('cli-command').innerText(), /--slow-link (node1-rack0|rack0-node1)=0\.25/);
    // The figure marks the slowed cable itself (both of its directions, nothing else), not only
    // the words under it.
    const slowedLines = () => figure.locator('[data-testid=link].slowed').evaluateAll((ls) => ls.map((l) => l.classList.contains('tier-node')));
    const marked = await slowedLines();
    assert.ok(marked.length >= 1 && marked.length <= 2 && marked.every(Boolean), `slowed lines ${marked}`);
    // Restore it from the same button, which the slowed cable's new run kept: the healthy time is back.
    assert.equal(await figure.getByTestId('slow-link').getAttribute('data-slowed'), 'true');
    await figure.getByTestId('slow-link').click();
    await page.waitForFunction((b) => Number(document.querySelector('[data-testid=figure-a] [data-testid=time-result]').dataset.secs) === b, before);
    assert.deepEqual(await slowedLines(), []);
    // A clicked GPU joins late: the run takes longer and the GPU is marked.
    await figure.getByTestId('gpu-3').click({ force: true });
    await page.waitForFunction((b) => Number(document.querySelector('[data-testid=figure-a] [data-testid=time-result]').dataset.secs) > b, before);
    assert.equal(await figure.getByTestId('gpu-3').getAttribute('data-late'), 'true');
    assert.match(await figure.getByTestId('faults').innerText(), /GPU 3 joins .+ late/);
    // The address carries the faults: a reload (or the link, shared) shows the same late GPU and
    // the same time (they were lost, and the healthy run came back without a word).
    const late = await timeSecs(page);
    await page.waitForFunction(() => /[?&]late=3:[^&]+/.test(location.search));
    await page.reload();
    await page.waitForFunction((b) => Number(document.querySelector('[data-testid=figure-a] [data-testid=time-result]')?.dataset.secs) === b, late);
    assert.equal(await figure.getByTestId('gpu-3').getAttribute('data-late'), 'true');
    assert.match(await figure.getByTestId('faults').innerText(), /GPU 3 joins .+ late/);
    assert.equal(await figure.getByTestId('faults-not-in-link').count(), 0);
    if (process.env.DOCS_SHOTS) {
      await figure.screenshot({ path: path.join(DOCS, 'straggler-en-light.png') });
      await page.getByTestId('lang-switch').first().click();
      await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
      await figure.screenshot({ path: path.join(DOCS, 'straggler-zh-light.png') });
    }
    assert.deepEqual(problems, []);
  } finally { await browser.close(); }
});

test('the top navigation shows every section at 1440 px, and nothing scrolls sideways at 375 px', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const { browser, page } = await openIn(locale);
    try {
      const links = page.locator('.ch-toc a');
      assert.equal(await links.count(), 8);
      const bar = await page.locator('.ch-topbar').boundingBox();
      for (let i = 0; i < 8; i++) {
        const box = await links.nth(i).boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 1440, `${locale} link ${i} inside the width`);
        assert.ok(box.y >= bar.y && box.y + box.height <= bar.y + bar.height, `${locale} link ${i} inside the bar`);
      }
    } finally { await browser.close(); }
    const phone = await openIn(locale, { width: 375, height: 800 });
    try {
      await phone.page.getByTestId('section-versus').scrollIntoViewIfNeeded();
      const wide = await phone.page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 375, `${locale}: page is ${wide} px wide at 375`);
      // The figure's nine sliders share their rows, two to a line, so that its chart is within a
      // screen of the first (one per line, they put the chart 739 px below it).
      const gpus = await phone.page.getByTestId('versus-gpus').boundingBox();
      const size = await phone.page.getByTestId('versus-size').boundingBox();
      const chart = await phone.page.getByTestId('versus-chart').boundingBox();
      assert.ok(Math.abs(gpus.y - size.y) < 2 && size.x > gpus.x + gpus.width, `${locale}: sliders not side by side: ${JSON.stringify([gpus, size])}`);
      assert.ok(chart.y - gpus.y <= 520, `${locale}: the chart is ${chart.y - gpus.y} px below the first slider at 375`);
      // The chart, wider than the screen, fades out at its right edge while there is more to the
      // right (so that it reads as cut off on purpose), and not once scrolled to its end.
      const box = phone.page.getByTestId('versus-chart').locator('xpath=..');
      const fade = () => box.evaluate((e) => getComputedStyle(e).getPropertyValue('--more-right'));
      assert.equal(await fade(), '40px', `${locale}: no fade at the right edge`);
      await box.evaluate((e) => { e.scrollLeft = e.scrollWidth; });
      await phone.page.waitForFunction((e) => getComputedStyle(e).getPropertyValue('--more-right') === '0px', await box.elementHandle());
      await box.evaluate((e) => { e.scrollLeft = 0; });
      // The sticky bar leaves the screen to the page: its contents in one scrolling row (wrapped,
      // it was 155 px tall and hid the headings it scrolled to).
      // Its figures keep lettering that can be read (scaled to the column it came out at 4-7 px),
      // scrolling sideways in their own boxes.
      for (const id of ['versus-chart', 'tree-figure', 'speedup-chart']) {
        const svg = phone.page.getByTestId(id).locator('xpath=descendant-or-self::*[local-name()="svg"]').first();
        await svg.scrollIntoViewIfNeeded();
        const least = await svg.evaluate((el) => Math.min(...[...el.querySelectorAll('text')]
          .filter((t) => t.getBBox().width > 0)
          .map((t) => parseFloat(getComputedStyle(t).fontSize) * el.getScreenCTM().a)));
        assert.ok(least >= 8, `${locale}: ${id}'s smallest text is ${least.toFixed(1)} px at 375`);
      }
      assert.ok(await phone.page.evaluate(() => document.documentElement.scrollWidth) <= 375);
      const bar = await phone.page.locator('.ch-topbar').boundingBox();
      assert.ok(bar.height <= 100, `${locale}: the top bar is ${bar.height} px tall at 375`);
    } finally { await phone.browser.close(); }
  }
});

test('the lab says what its numbers show: equal senders as one amount, the busiest link by its capacity, a near tie as a near tie', async () => {
  // Auto on 3 GPUs of the default cluster, 1 MB: the ranks send 1,333,333 and 1,333,334 B, and
  // the ring and the hierarchical ring finish within rounding of each other.
  const { browser, page, problems } = await open(`${server.url}?alg=auto&topo=cluster&gpus=3&size=1000000#lab`);
  try {
    const figure = page.getByTestId('figure-a');
    await figure.getByTestId('time-result').waitFor();
    assert.match(await figure.getByTestId('rank-traffic').innerText(), /^Every rank sent 1\.33 MB/);
    const busiest = await figure.getByTestId('busiest-link').innerText();
    assert.match(busiest, /^Busiest link for its capacity: .* carried .*, (< 1|[1-9]\d*)% of what it could carry in the whole run\.$/);
    const reason = await figure.locator('.results p.explain').filter({ hasText: 'simulated algorithms' }).innerText();
    // An exact three-way tie (the ring, and the hierarchical and NCCL rings, which on 3 GPUs of
    // one node are the same ring).
    assert.match(reason, /^ring ties with hierarchical, nccl-ring for the fastest/);
    assert.doesNotMatch(reason, /0\.0%/);
    assert.deepEqual(problems, []);
  } finally { await browser.close(); }
});
