// Issue 13: the rail-optimized preset draws its rails and their load; NICs per node and PXN are
// controls; NCCL's shapes say what makes them different. With DOCS_SHOTS=1 writes docs/lab-rail-en-light.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { serve, open, setRange, setRangeTo, selectOption, docsShot } from './harness.mjs';

let server;
let session;
before(async () => {
  server = await serve();
  session = await open(`${server.url}?lang=en`);
});
after(async () => {
  await session?.browser.close();
  await server?.close();
});

const figure = () => session.page.getByTestId('figure-a');

async function pauseAt(page, scrub) {
  if (await page.getByTestId('pause').count()) await page.getByTestId('pause').click();
  await setRange(page, 'scrub', scrub);
}

/** Each rail's `attr` (data-load: its load at the cursor; data-bytes: carried so far), by rail index. */
async function rails(page, attr) {
  return page.getByTestId('figure-a').locator('[data-testid=rail-load]').evaluateAll((gs, a) =>
    gs.map((g) => [Number(g.getAttribute('data-rail')), Number(g.getAttribute(a))]).sort((x, y) => x[0] - y[0]).map((x) => x[1]),
  attr);
}

async function loadPreset(page, algorithm) {
  await page.getByTestId('preset-superpod-4x8-rails').click();
  await selectOption(page, 'algorithm', algorithm);
  await figure().getByTestId('figure-algorithm').filter({ hasText: algorithm }).waitFor();
  await page.getByTestId('verified').first().waitFor();
}

test('the SuperPOD-style preset draws 8 rails; nccl-ring loads every rail, the textbook ring one and the page says why; with PXN the spine is marked not crossed', async () => {
  const { page, problems } = session;
  await loadPreset(page, 'nccl-ring');
  assert.match(await page.getByTestId('shape').textContent(), /4 node\(s\) × 8 GPU\(s\), one NIC per GPU on 8 rail\(s\)/);
  assert.equal(await page.getByTestId('shape-uneven').count(), 0);
  const cli = await page.getByTestId('cli-command').textContent();
  for (const flag of ['--topology rail', '--nodes 4', '--gpus-per-node 8', '--nic-bw 400Gbps', '--pxn on']) {
    assert.ok(cli.includes(flag), `${flag} in ${cli}`);
  }
  // The figure: 32 GPUs, 8 rail switches with a load bar each, the spine.
  assert.equal(await figure().locator('[data-testid^=gpu-]').count(), 32);
  assert.equal(await figure().getByTestId('rail-load').count(), 8);
  assert.match((await figure().getByTestId('rail-load').allTextContents()).join(' '), /^rail 0 · .*rail 7 · /);
  await figure().getByTestId('rail-legend').waitFor();
  // Half-way through nccl-ring, every rail has carried the same bytes.
  await pauseAt(page, 500);
  const nccl = await rails(page, 'data-bytes');
  assert.equal(nccl.length, 8);
  assert.ok(nccl.every((b) => b > 0 && Math.abs(b - nccl[0]) <= 1e-6 * nccl[0]), `nccl-ring rail bytes ${nccl}`);
  // The note says what makes it different.
  assert.match(await page.getByTestId('algorithm-note').textContent(), /one channel per NIC/);
  // The textbook ring, with PXN: every node boundary is crossed on rail 0 only.
  await selectOption(page, 'algorithm', 'ring');
  await figure().getByTestId('figure-algorithm').filter({ hasText: /^ring$/ }).waitFor();
  await pauseAt(page, 500);
  const ring = await rails(page, 'data-bytes');
  assert.ok(ring[0] > 0 && ring.slice(1).every((b) => b === 0), `ring rail bytes ${ring}`);
  // And the note says why the other rails stay idle.
  assert.match(await page.getByTestId('algorithm-note').textContent(), /^ring on rails: .* so most rails stay idle/);
  // With PXN no route climbs to the spine: its tier box says so, and its links are drawn unused.
  assert.equal(await page.getByTestId('tier-idle-rack').textContent(), 'Not crossed: with PXN, traffic between rails hops over NVLink to the right rail first.');
  assert.equal(await page.getByTestId('tier-idle-node').count(), 0);
  assert.equal(await page.getByTestId('tier-idle-gpu').count(), 0);
  const spineUnused = await figure().locator('[data-testid=link].tier-rack').evaluateAll((ls) => ls.map((l) => l.classList.contains('unused')));
  assert.ok(spineUnused.length > 0 && spineUnused.every(Boolean), `spine unused ${spineUnused}`);
  // Without PXN the ring's hops between nodes climb to the spine: its dashed uplinks load up.
  await page.getByTestId('pxn-toggle').click();
  await page.getByTestId('cli-command').filter({ hasText: '--pxn off' }).waitFor();
  assert.equal(await page.getByTestId('tier-idle-rack').count(), 0);
  await pauseAt(page, 500);
  const spineLoads = await figure().locator('[data-testid=link].tier-rack').evaluateAll((ls) => ls.map((l) => Number(l.getAttribute('data-load'))));
  assert.ok(spineLoads.some((l) => l > 0), `spine loads ${spineLoads}`);
  await page.getByTestId('pxn-toggle').click();
  await page.getByTestId('cli-command').filter({ hasText: '--pxn on' }).waitFor();
  // 12 GPUs do not fill nodes of 8 rails: 3 nodes of 4, and the page says why.
  await setRangeTo(page, 'gpu-count', 12);
  assert.match(await page.getByTestId('shape').textContent(), /^3 node\(s\) × 4 GPU\(s\)/);
  assert.match(await page.getByTestId('shape-uneven').textContent(), /^12 GPUs do not fill nodes of 8 rails: the lab splits them evenly/);
  await setRangeTo(page, 'gpu-count', 32);
  assert.equal(await page.getByTestId('shape-uneven').count(), 0);
  assert.deepEqual(problems, []);
});

test('NICs per node on a cluster: 8 NICs draw 8 NIC links per node and the command line says so', async () => {
  const { page, problems } = session;
  await page.getByTestId('preset-two-nodes-400g').click();
  await selectOption(page, 'algorithm', 'nccl-ring');
  const nicLinks = () => figure().locator('[data-testid=link].tier-node').count();
  assert.equal(await nicLinks(), 2 * 2);
  await selectOption(page, 'nics-per-node', 8);
  await page.getByTestId('cli-command').filter({ hasText: '--nics-per-node 8' }).waitFor();
  assert.equal(await nicLinks(), 2 * 2 * 8);
  assert.match(await page.getByTestId('shape').textContent(), /8 NICs per node/);
  // The shared link carries it (the URL follows the lab while paused).
  await pauseAt(page, 100);
  await page.waitForURL(/nics=8/);
  await selectOption(page, 'nics-per-node', 1);
  assert.deepEqual(problems, []);
});

test('a 1 KB run says its bound is latency-dominated', async () => {
  const { page } = session;
  await page.getByTestId('preset-two-nodes-400g').click();
  assert.equal(await setRangeTo(page, 'size', 1000), '1 KB');
  const terms = page.getByTestId('figure-a').getByTestId('lower-bound-terms');
  await terms.and(page.locator('[data-dominant=latency]')).waitFor();
  const text = await terms.textContent();
  assert.match(text, /latency dominates: at least one message latency between nodes/);
  // The nodes' cut wins here on its route's latency, not on bandwidth: not called the tighter cut.
  assert.doesNotMatch(text, /tighter cut/);
  // The bound beside the run: how many times it the run takes ("run at 51% of it" read as the
  // run being half its bound).
  const bound = await page.getByTestId('figure-a').getByTestId('lower-bound').textContent();
  const times = Number(bound.match(/· the run takes ([0-9.]+)× as long$/)?.[1]);
  assert.ok(times >= 1, bound);
});

test('screenshot: the rail-optimized preset mid-run with nccl-ring', async () => {
  const { page } = session;
  await loadPreset(page, 'nccl-ring');
  await pauseAt(page, 450);
  // The lab from its controls to the figure's legend: the rails and their load, the controls that made them.
  const top = await page.locator('.masthead').first().boundingBox();
  const lab = await page.getByTestId('lab').boundingBox();
  const fig = await figure().locator('.figure-wrap').boundingBox();
  const pxn = await page.getByTestId('pxn-toggle').boundingBox();
  const scroll = await page.evaluate(() => window.scrollY);
  const bottom = Math.max(fig.y + fig.height, pxn.y + pxn.height + 30) + 16;
  const file = docsShot('lab-rail-en-light.png');
  await page.screenshot({
    path: file,
    fullPage: true,
    clip: { x: lab.x, y: top.y + scroll - 8, width: lab.width, height: Math.min(bottom - top.y + 8, 1400) },
  });
  assert.ok(fs.statSync(file).size > 20000);
});
