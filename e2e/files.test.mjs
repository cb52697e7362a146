// Files: the scenario exports as JSON and imports back; the run exports as a Chrome trace (ph "X"
// events, for Perfetto or chrome://tracing) and its results as CSV; a malformed or hostile file
// shows a clear message and leaves the scenario as it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { serve, open, shot } from './harness.mjs';

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

async function download(page, testid) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return { name: file.suggestedFilename(), text: fs.readFileSync(await file.path(), 'utf8') };
}

const importFile = (page, text, name = 'scenario.json') =>
  page.getByTestId('import-json').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });

test('exports: scenario JSON, Chrome trace and results CSV parse', async () => {
  const { page, problems } = session;
  await page.getByTestId('preset-racks-800-200').click();
  await page.getByTestId('compare-toggle').uncheck();
  const scenario = await download(page, 'export-json');
  assert.match(scenario.name, /\.json$/);
  const s = JSON.parse(scenario.text);
  assert.equal(s.algorithm, 'ring');
  assert.ok(s.topology && s.size_bytes > 0);

  const trace = await download(page, 'export-trace');
  const events = JSON.parse(trace.text).traceEvents;
  assert.ok(Array.isArray(events));
  const spans = events.filter((e) => e.ph === 'X');
  assert.ok(spans.length > 10, `${spans.length} complete events`);
  assert.ok(spans.every((e) => Number.isFinite(e.ts) && Number.isFinite(e.dur) && e.dur >= 0));

  const csv = await download(page, 'export-csv');
  const lines = csv.text.trim().split('\n');
  assert.match(lines[0], /^run,kind,id,/); // one run: the same columns as a comparison
  assert.ok(lines.length > 5);
  const width = lines[0].split(',').length;
  assert.ok(lines.every((l) => l.split(',').length === width), 'every row has the header\'s columns');
  assert.deepEqual(problems, []);
});

test('importing a scenario file changes the lab; a bad file leaves it unchanged with a message', async () => {
  const { page, problems } = session;
  await page.getByTestId('preset-two-nodes-400g').click();
  const before = await page.getByTestId('cli-command').textContent();
  const good = {
    topology: {
      kind: 'cluster', racks: 2, nodes_per_rack: 2, gpus_per_node: 8,
      intra_bw: 400e9, intra_lat_secs: 1e-6, node_bw: 12.5e9, node_lat_secs: 2e-6,
      rack_bw: 25e9, rack_lat_secs: 5e-6, oversubscription: 1.0,
    },
    algorithm: 'tree-binomial', size_bytes: 50000000, segments: 8, gamma_secs_per_byte: 0,
  };
  await importFile(page, JSON.stringify(good));
  await page.waitForFunction((b) => document.querySelector('[data-testid=cli-command]')?.textContent !== b, before);
  assert.equal(await page.getByTestId('import-error').count(), 0);
  assert.equal(await page.getByTestId('algorithm').inputValue(), 'tree-binomial');
  assert.equal(await page.getByTestId('shape').textContent(), '2 racks × 2 nodes × 8 GPUs');
  const imported = await page.getByTestId('cli-command').textContent();

  const hostile = [
    'not json at all',
    '{}',
    '[]',
    JSON.stringify({ ...good, algorithm: '<script>window.__pwned=1</script>' }),
    JSON.stringify({ ...good, size_bytes: -5 }),
    JSON.stringify({ ...good, size_bytes: 1e300 }),
    JSON.stringify({ ...good, segments: 99999999 }),
    JSON.stringify({ ...good, topology: { ...good.topology, racks: 99999999 } }),
    JSON.stringify({ ...good, topology: { ...good.topology, node_bw: -1 } }),
    'x'.repeat(200 * 1024),
  ];
  for (const text of hostile) {
    await importFile(page, text);
    const error = page.getByTestId('import-error');
    await error.waitFor({ state: 'visible', timeout: 5000 });
    assert.ok((await error.textContent()).length > 20);
    assert.equal(await page.getByTestId('cli-command').textContent(), imported, `unchanged after ${text.slice(0, 40)}`);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    // Clear the message with a good import, so the next bad one must show it again.
    await importFile(page, JSON.stringify(good));
    await error.waitFor({ state: 'detached', timeout: 5000 });
  }
  // A latency between the controls' whole nanoseconds is refused by name, not rounded silently.
  await importFile(page, JSON.stringify({ ...good, topology: { ...good.topology, node_lat_secs: 2.0004e-6 } }));
  const rounded = page.getByTestId('import-error');
  await rounded.waitFor({ state: 'visible', timeout: 5000 });
  assert.match(await rounded.textContent(), /a latency of 2000\.4 ns for the NICs would be rounded to 2000 ns/);
  assert.equal(await page.getByTestId('cli-command').textContent(), imported);
  await importFile(page, 'not json');
  await shot(page, 'files-import-error');
  assert.deepEqual(problems, []);
});
