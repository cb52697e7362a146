// The model switch where runs happen: the lab ("like NCCL on <system>" beside the textbook run,
// kept in the address) and the speedup charts (each point NCCL's predicted allreduce).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serve, open, launch, selectOption, setRangeTo, shot, docsShot, ROOT } from './harness.mjs';

let server;
let session;
before(async () => {
  server = await serve();
});
after(async () => {
  await session?.browser.close();
  await server?.close();
});

/** The CLI's JSON for `args`. */
function cli(args) {
  const bin = path.join(ROOT, 'target', 'release', 'allreduce-lab');
  const out = fs.existsSync(bin)
    ? execFileSync(bin, args, { encoding: 'utf8' })
    : execFileSync('cargo', ['run', '--release', '--quiet', '--', ...args], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out);
}

const attr = async (page, testid, name) => Number(await page.getByTestId(testid).getAttribute(name));

// 8 GPUs on one 450 GB/s switch, 8 GiB: the textbook ring's busbw is the wire rate.
const LAB = '?alg=ring&topo=uniform&gpus=8&bw=3600Gbps&lat=1us&size=8589934592&seg=1&step=0';

/** In the Ring vs Tree chart, each crossover marker's words that lie on a marker's line, on a
 * curve (sampled along each stretch), or on the other marker's words. */
function markerClashes(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('[data-testid=versus-chart]');
    const labels = [...svg.querySelectorAll('.vs-crossover text')].map((t) => ({ name: t.textContent, b: t.getBBox() }));
    const xs = [...svg.querySelectorAll('.vs-crossover line')].map((l) => Number(l.getAttribute('x1')));
    const curves = [...svg.querySelectorAll('.vs-curve polyline')].map((p) =>
      p.getAttribute('points').trim().split(/\s+/).map((q) => q.split(',').map(Number)));
    const out = [];
    const inside = (b, x, y) => x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height;
    for (const { name, b } of labels) {
      for (const x of xs) if (x >= b.x - 1 && x <= b.x + b.width + 1) out.push(`${name}: on the line at ${x}`);
      for (const pts of curves) {
        for (let i = 1; i < pts.length; i++) {
          const [[ax, ay], [bx, by]] = [pts[i - 1], pts[i]];
          const steps = Math.ceil(Math.hypot(bx - ax, by - ay));
          if ([...Array(steps + 1).keys()].some((k) => inside(b, ax + (bx - ax) * k / steps, ay + (by - ay) * k / steps))) {
            out.push(`${name}: crossed by a curve`);
            break;
          }
        }
      }
    }
    if (labels.length === 2) {
      const [a, c] = labels.map((l) => l.b);
      if (a.x < c.x + c.width && c.x < a.x + a.width && a.y < c.y + c.height && c.y < a.y + a.height) out.push('the two overlap');
    }
    return out;
  });
}

test('the lab shows NCCL on 8×H100 beside the textbook run: ~450 GB/s textbook, ~365 like NCCL (NVLS off), kept in a shared link', async () => {
  session = await open(server.url + LAB);
  const { page, problems } = session;
  const card = page.getByTestId('lab-nccl');
  await card.scrollIntoViewIfNeeded();
  assert.equal(await card.getAttribute('data-on'), 'false');
  await page.getByTestId('lab-model-nccl').check();
  await page.getByTestId('lab-nccl-busbw').waitFor();
  await selectOption(page, 'lab-nccl-system-pick', 'dgx-h100');
  await page.getByTestId('lab-nccl-nvls').uncheck();
  await page.waitForFunction(() => /Ring/.test(document.querySelector('[data-testid=lab-nccl-choice]')?.textContent));
  const textbook = await attr(page, 'lab-textbook-busbw', 'data-busbw');
  assert.ok(textbook > 440e9 && textbook <= 451e9, `textbook busbw ${textbook}`);
  const nccl = await attr(page, 'lab-nccl-busbw', 'data-busbw');
  assert.ok(nccl > 355e9 && nccl < 375e9, `like-NCCL busbw ${nccl}`);
  // The numbers are the core's: the CLI prints the same prediction.
  const want = cli(['simulate', '--model', 'nccl', '--system', 'dgx-h100', '--nodes', '1', '--gpus-per-node', '8',
    '--size', '8589934592', '--nvls', 'off', '--json']);
  assert.equal(await attr(page, 'lab-nccl-time', 'data-secs'), want.time_s);
  assert.match(await page.getByTestId('lab-nccl-choice').innerText(), new RegExp(`${want.algorithm}/${want.protocol} × ${want.channels}`));
  assert.match(await page.getByTestId('lab-nccl-why').innerText(), /lowest time NCCL's tuner predicts \(every channel busy\), .* of 6 candidates simulated/);
  // The card says the system's links are its own, not the sliders' (on 2 nodes its 235 GB/s over
  // the sliders' one 400 Gbps NIC looked impossible).
  assert.match(await page.getByTestId('lab-nccl-system').innerText(), /On dgx-h100's own links, not the sliders': 450 GB\/s per GPU into its node, 8 × 400 Gbps NICs per node\./);
  assert.equal(await page.getByTestId('lab-nccl-cli').innerText(),
    'allreduce-lab simulate --model nccl --system dgx-h100 --nodes 1 --gpus-per-node 8 --size 8589934592 --nvls off');
  // NVLS on: the switch reduces and busbw passes the wire rate.
  await page.getByTestId('lab-nccl-nvls').check();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=lab-nccl-busbw]')?.dataset.busbw) > 450e9);
  assert.match(await page.getByTestId('lab-nccl-choice').innerText(), /NVLS/);
  await page.getByTestId('lab-nccl-nvls').uncheck();
  await page.waitForFunction(() => /nccl=dgx-h100&nvls=off/.test(location.search));
  await page.getByTestId('lab-nccl-cli').waitFor();
  fs.mkdirSync(path.join(ROOT, 'e2e', 'screenshots'), { recursive: true });
  await card.screenshot({ path: path.join(ROOT, 'e2e', 'screenshots', 'lab-nccl-card.png') });
  // The lab with the switch on: the run, its results and NCCL's card beside them.
  // (the sticky transport bar hidden, as it would cover the middle of an element's picture; the buffers and the link timeline left out)
  await page.getByTestId('figure-a').screenshot({ path: docsShot('lab-nccl-en-light.png'),
    style: '.transport { visibility: hidden; } .buffers, .timeline { display: none; }' });
  // A shared link keeps the switch.
  await page.goto(page.url());
  await page.getByTestId('lab-nccl-busbw').waitFor();
  assert.equal(await page.getByTestId('lab-model-nccl').isChecked(), true);
  assert.equal(await page.getByTestId('lab-nccl-nvls').isChecked(), false);
  assert.equal(await attr(page, 'lab-nccl-busbw', 'data-busbw'), nccl);
  // Shapes the systems cannot take are explained: 12 GPUs on one switch.
  await page.goto(server.url + LAB.replace('gpus=8', 'gpus=12') + '&nccl=dgx-h100');
  await page.getByTestId('lab-nccl-refused').waitFor();
  assert.match(await page.getByTestId('lab-nccl-refused').innerText(), /whole nodes/);
  // Back to the textbook model: the card shows only the switch.
  await page.getByTestId('lab-model-ideal').check();
  await page.waitForFunction(() => document.querySelector('[data-testid=lab-nccl]')?.dataset.on === 'false');
  assert.equal(await page.getByTestId('lab-nccl-refused').count(), 0);
  // Two runs compared: one card, under both runs (in run A's column it pushed A's buffers 80 px
  // below B's); its textbook column is run A's.
  await page.goto(server.url + LAB + '&cmp=tree-binomial&nccl=dgx-h100');
  await page.getByTestId('lab-textbook-busbw').and(page.locator('[data-busbw]:not([data-busbw=""])')).waitFor();
  assert.equal(await page.getByTestId('lab-nccl').count(), 1);
  assert.equal(await page.locator('[data-testid=figure-a] [data-testid=lab-nccl], [data-testid=figure-b] [data-testid=lab-nccl]').count(), 0);
  const runs = await page.getByTestId('runs').boundingBox();
  const below = await page.getByTestId('lab-nccl').boundingBox();
  assert.ok(below.y >= runs.y + runs.height - 1, `card at ${below.y}, runs end at ${runs.y + runs.height}`);
  assert.equal(await page.getByTestId('lab-textbook-time').textContent(), await page.getByTestId('figure-a').getByTestId('time-result').textContent());
  assert.notEqual(await page.getByTestId('lab-textbook-time').textContent(), await page.getByTestId('figure-b').getByTestId('time-result').textContent());
  const tops = await Promise.all(['figure-a', 'figure-b'].map((id) => page.getByTestId(id).locator('.buffers').first().boundingBox().then((b) => b.y)));
  assert.ok(Math.abs(tops[0] - tops[1]) < 2, `buffers at ${tops}`);
  // Turning the comparison off moves the card beside run A's results with its prediction: it
  // is not made again (64 GPUs: it showed its progress a second time).
  await page.goto(server.url + LAB.replace('gpus=8', 'gpus=64') + '&cmp=tree-binomial&nccl=dgx-h100');
  await page.getByTestId('lab-nccl-busbw').waitFor();
  await page.evaluate(() => {
    window.progressShown = 0;
    new MutationObserver(() => { if (document.querySelector('[data-testid=lab-nccl-progress]')) window.progressShown += 1; })
      .observe(document.body, { subtree: true, childList: true });
  });
  await page.getByTestId('compare-toggle').uncheck();
  await page.getByTestId('figure-a').getByTestId('lab-nccl-busbw').waitFor();
  assert.equal(await page.evaluate(() => window.progressShown), 0);
  assert.deepEqual(problems, []);
});

test('the speedup charts switch to NCCL on a system: each point is the CLI\'s speedup --model nccl', async () => {
  const { page, problems } = session;
  await page.goto(server.url);
  const section = page.getByTestId('scaling-section');
  await section.scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-testid=scaling-progress][data-complete=true]', { timeout: 120000 });
  const textbook8 = await attr(page, 'speedup-point-ring-8', 'data-speedup');
  await page.getByTestId('scaling-model-nccl').check();
  await selectOption(page, 'scaling-nccl-system', 'dgx-h100');
  await page.getByTestId('scaling-nccl-nvls').uncheck();
  await page.waitForSelector('[data-testid=scaling-progress][data-complete=true]', { timeout: 120000 });
  assert.equal(await page.getByTestId('speedup-point-ring-8').count(), 0);
  // The chapter's first scenario trains BERT-large with 60 % overlap: the same on the CLI.
  const want = cli(['speedup', '--model', 'nccl', '--system', 'dgx-h100', '--nodes', '16', '--nvls', 'off',
    '--model', 'bert-large', '--overlap', '0.6', '--json']);
  for (const row of want.rows) {
    const got = await attr(page, `speedup-point-nccl-${row.gpus}`, 'data-speedup');
    assert.ok(Math.abs(got - row.speedup) < 1e-9 * row.speedup, `${row.gpus} GPUs: ${got} vs ${row.speedup}`);
  }
  const nccl8 = await attr(page, 'speedup-point-nccl-8', 'data-speedup');
  assert.notEqual(nccl8, textbook8);
  // The sweep at 8 GPUs: NCCL's ring at about 365 GB/s busbw for 8 GiB with NVLS off.
  const busbw = await attr(page, `busbw-point-nccl-${8 * 2 ** 30}`, 'data-busbw');
  assert.ok(busbw > 355e9 && busbw < 375e9, `sweep busbw ${busbw}`);
  assert.match(await page.getByTestId('scaling-nccl-choices').innerText(), /Ring\/Simple/);
  // Back to the textbook model: the algorithms' series return.
  await page.getByTestId('scaling-model-ideal').check();
  await page.waitForSelector('[data-testid=scaling-progress][data-complete=true]', { timeout: 120000 });
  assert.equal(await attr(page, 'speedup-point-ring-8', 'data-speedup'), textbook8);
  assert.deepEqual(problems, []);
});

test('the Ring-vs-Tree figure overlays NCCL on real hardware: each size\'s pick is the CLI\'s nccl-tests choice', async () => {
  const { page, problems } = session;
  await page.goto(server.url);
  const section = page.getByTestId('section-versus');
  await section.scrollIntoViewIfNeeded();
  await setRangeTo(page, 'versus-gpus', 16);
  await page.getByTestId('versus-nccl-toggle').check();
  await page.getByTestId('versus-nccl-nvls').uncheck();
  await page.waitForSelector('[data-testid=versus-nccl][data-complete=true]', { timeout: 120000 });
  // Every size NCCL runs in the figure is what `nccl-tests` prints for two DGX H100 nodes.
  const want = cli(['nccl-tests', '--system', 'dgx-h100', '--nodes', '2', '--gpus-per-node', '8', '--nvls', 'off',
    '-b', '8', '-e', '8GiB', '-f', '8', '--json']);
  const picks = page.getByTestId('versus-nccl-pick');
  assert.equal(await picks.count(), want.rows.length);
  for (const row of want.rows) {
    const got = await page.locator(`[data-testid=versus-nccl-pick][data-size="${row.size_bytes}"]`).getAttribute('data-choice');
    assert.equal(got, `${row.algorithm}/${row.protocol}`, `${row.size_bytes} B`);
  }
  // Two dashed curves of 11 sizes each; the tree wins small messages, the ring large ones.
  assert.equal(await page.getByTestId('versus-nccl-curve-ring').getAttribute('data-points'), String(want.rows.length));
  assert.equal(await page.getByTestId('versus-nccl-curve-tree').getAttribute('data-points'), String(want.rows.length));
  const at = Number(await page.getByTestId('versus-nccl').getAttribute('data-crossover'));
  assert.ok(at > 10e6, `NCCL's crossover on 2 nodes: ${at} B`);
  assert.deepEqual(await markerClashes(page), []);
  // At 64 GPUs the two crossovers are a few units apart: each one's words stayed on the other's
  // line ("crossover" ended on NCCL's, "NCCL crossover" began on the simulation's).
  await setRangeTo(page, 'versus-gpus', 64);
  await page.waitForFunction(() => document.querySelector('[data-testid=versus-nccl][data-complete=true]')
    && document.querySelector('[data-testid=versus-readout]')?.dataset.complete === 'true', null, { timeout: 120000 });
  assert.equal(await page.getByTestId('versus-crossover-label').count(), 1);
  assert.equal(await page.getByTestId('versus-nccl-crossover-label').count(), 1);
  assert.deepEqual(await markerClashes(page), []);
  await setRangeTo(page, 'versus-gpus', 16);
  await page.waitForSelector('[data-testid=versus-nccl][data-complete=true]', { timeout: 120000 });
  assert.match(await page.getByTestId('versus-nccl-readout').innerText(), /dgx-h100.*of its ring and tree as its tuner rates them, the tree is faster below about/);
  assert.ok((await page.getByTestId('versus-nccl-switches').locator('li').count()) >= 2);
  assert.match(await page.getByTestId('versus-nccl-cli').innerText(), /nccl-tests --system dgx-h100 --nodes 2 --gpus-per-node 8/);
  await shot(page, 'versus-nccl');
  // On one node with NVLS, as NCCL's tuner rates them (every channel busy), its ring is ahead of
  // its tree at every size: no crossing, and no tree among the picks (by the times they ran in,
  // on 8 channels against the ring's one, the tree was ahead from about 6.5 to 100 KiB, beside a
  // list of Ring/LL picks).
  await setRangeTo(page, 'versus-gpus', 8);
  await page.getByTestId('versus-nccl-nvls').check();
  await page.waitForFunction(() => document.querySelector('[data-testid=versus-nccl][data-complete=true]')
    && /do not cross/.test(document.querySelector('[data-testid=versus-nccl-readout]')?.textContent ?? ''), null, { timeout: 120000 });
  // It compares NCCL's ring and tree, and says that what NCCL picks at some sizes is neither
  // (it read "its ring at the other sizes" above a list of NVLS picks from 2 MiB on).
  const nvlsPicks = await page.$$eval('[data-testid=versus-nccl-pick]', (els) => els.filter((e) => e.dataset.choice.startsWith('NVLS/')).length);
  assert.ok(nvlsPicks > 0);
  assert.match(await page.getByTestId('versus-nccl-readout').innerText(),
    new RegExp(`^Like NCCL on dgx-h100 with 8 GPUs: its tree and ring curves, as its tuner rates them, do not cross between 8 B and 8 GiB\\. At ${nvlsPicks} of the sizes below it picks neither but NVLS, where the NVSwitch adds the data itself\\.$`));
  assert.equal(await page.getByTestId('versus-nccl-crossover-mark').count(), 0);
  assert.equal(await page.$$eval('[data-testid=versus-nccl-pick]', (els) => els.filter((e) => e.dataset.choice.startsWith('Tree/')).length), 0);
  // Each pick's words fit its chip ("NVLS/Simple" ran 80 px wide out of a 66-px box).
  const spill = await page.$$eval('[data-testid=versus-nccl-pick]', (els) => els
    .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => `${e.dataset.choice} ${e.scrollWidth} > ${e.clientWidth}`));
  assert.deepEqual(spill, []);
  // Beyond what the page runs: a reason and the command, no curves.
  await setRangeTo(page, 'versus-gpus', 128);
  await page.getByTestId('versus-nccl-refused').waitFor({ timeout: 10000 });
  assert.match(await page.getByTestId('versus-nccl-refused').innerText(), /up to 64 GPUs/);
  assert.equal(await page.getByTestId('versus-nccl-curve-ring').count(), 0);
  // Off again: the textbook figure alone.
  await setRangeTo(page, 'versus-gpus', 16);
  await page.getByTestId('versus-nccl-toggle').uncheck();
  assert.equal(await page.getByTestId('versus-nccl').count(), 0);
  assert.deepEqual(problems, []);
});

test('on a 375 px phone the lab\'s NCCL card and its candidates (tuner and run times) stay inside the page', async () => {
  const { browser, page, problems } = await launch({ viewport: { width: 375, height: 740 } });
  try {
    await page.goto(`${server.url}?gpus=8&gpn=8&size=32000&nccl=dgx-h100#lab`);
    await page.getByTestId('lab-nccl-why').waitFor({ timeout: 60000 });
    await page.locator('.lab-nccl-candidates summary').click();
    // The fourth column (the tuner's time) took the page to 461 px; the list scrolls in itself.
    assert.equal(await page.getByTestId('lab-nccl-tuner').count(), 7);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 375);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
