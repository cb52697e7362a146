// Shareable state: a link restores the lab's scenario and step; a malformed or hostile link shows
// a clear message and the default scenario, never a blank page. The transport keys belong to the
// lab: while the reader is in the chapter, space scrolls the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, open, shot } from './harness.mjs';

let server;
before(async () => { server = await serve(); });
after(async () => { await server?.close(); });

const RING_STEP_5_ON_2_RACKS =
  '?alg=ring&topo=cluster&gpus=32&gpn=8&npr=2&bw=400Gbps,400Gbps,200Gbps&lat=1us,2us,5us&size=100000000&step=5';
const DEFAULT_SHAPE = '1 rack × 2 nodes × 8 GPUs';

const clockSecs = async (page) => Number(await page.getByTestId('clock').getAttribute('data-secs'));

test('a shared link restores the scenario and the step, and the address follows the lab', async () => {
  const { browser, page, problems } = await open(server.url + RING_STEP_5_ON_2_RACKS);
  try {
    assert.equal(await page.getByTestId('url-error').count(), 0);
    assert.equal(await page.getByTestId('algorithm').inputValue(), 'ring');
    assert.equal(await page.getByTestId('shape').textContent(), '2 racks × 2 nodes × 8 GPUs');
    assert.equal(await page.getByTestId('gpu-count').getAttribute('aria-valuetext'), '32');
    assert.match(await page.getByTestId('bandwidth-rack').getAttribute('aria-valuetext'), /200 Gbps/);
    assert.equal(await page.getByTestId('play').count(), 1, 'a shared step is shown paused');
    const shared = await clockSecs(page);
    assert.ok(shared > 0);
    assert.match(await page.getByTestId('clock').textContent(), /\S+ \/ \S+/);

    // The same scenario from step 0, stepped 5 times by hand, lands on the same time.
    await page.goto(server.url + RING_STEP_5_ON_2_RACKS.replace('step=5', 'step=0'));
    await page.getByTestId('cluster-figure').first().waitFor();
    assert.equal(await clockSecs(page), 0);
    for (let i = 0; i < 5; i++) await page.getByTestId('step-forward').click();
    assert.equal(await clockSecs(page), shared);
    await page.waitForFunction(() => location.search.includes('step=5'));
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('gpus'), '32');
    assert.equal(url.searchParams.get('alg'), 'ring');

    // The address the lab wrote opens the same state.
    await page.goto(page.url());
    await page.getByTestId('cluster-figure').first().waitFor();
    assert.equal(await clockSecs(page), shared);
    await shot(page, 'share-ring-step-5');
    assert.deepEqual(problems, []);
  } finally { await browser.close(); }
});

test('malformed and hostile links show a message and the default scenario', async () => {
  const hostile = [
    '?garbage',
    '?gpus=99999999',
    '?alg=ring&bw=-400Gbps',
    '?bw=NaNGbps',
    '?size=NaN',
    '?step=-3',
    '?alg=<script>window.__pwned=1</script>',
    '?alg=%3Cscript%3Ewindow.__pwned%3D1%3C%2Fscript%3E',
    `?alg=${'ring'.repeat(2000)}`,
    '?topo=cluster&gpus=32&gpn=8&npr=2&bw=400Gbps,400Gbps,200Gbps,1Gbps',
  ];
  const { browser, page, problems } = await open(server.url);
  try {
    for (const q of hostile) {
      await page.goto(server.url + q);
      await page.getByTestId('cluster-figure').first().waitFor({ state: 'visible', timeout: 30000 });
      const error = page.getByTestId('url-error');
      assert.equal(await error.count(), 1, `message for ${q.slice(0, 60)}`);
      assert.ok((await error.textContent()).length > 20);
      assert.equal(await page.getByTestId('shape').textContent(), DEFAULT_SHAPE, q.slice(0, 60));
      assert.equal(await page.evaluate(() => window.__pwned), undefined);
      assert.ok((await page.getByTestId('chapter-guide').innerText()).length > 100, 'the page is not blank');
    }
    await shot(page, 'share-hostile');
    assert.deepEqual(problems, []);
  } finally { await browser.close(); }
});

test('the transport keys act in the lab only; in the chapter space scrolls', async () => {
  const { browser, page, problems } = await open(server.url + RING_STEP_5_ON_2_RACKS.replace('step=5', 'step=0'));
  try {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('body').click({ position: { x: 2, y: 2 } });
    const transportOnScreen = await page.getByTestId('scrub').evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight;
    });
    assert.equal(transportOnScreen, false, 'the lab starts below the chapter');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press(' ');
    await page.waitForFunction(() => scrollY > 0);
    assert.equal(await clockSecs(page), 0, 'keys in the chapter leave the lab alone');
    assert.equal(await page.getByTestId('play').count(), 1);

    await page.getByTestId('clock').scrollIntoViewIfNeeded();
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('ArrowRight');
    assert.ok((await clockSecs(page)) > 0, '→ steps while the lab is on screen');
    assert.deepEqual(problems, []);
  } finally { await browser.close(); }
});

test("a link's language wins over the browser's, and the lab writes it back", async () => {
  const { browser, page, problems } = await open(`${server.url + RING_STEP_5_ON_2_RACKS}&lang=zh`);
  try {
    assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
    assert.equal(await page.getByTestId('url-error').count(), 0);
    assert.equal(await page.getByTestId('shape').textContent(), '2 个机柜 × 2 个节点 × 8 张卡');
    await page.getByTestId('lang-switch').click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('lang') === 'en');
    assert.deepEqual(problems, []);
  } finally { await browser.close(); }
});

test('in the Chinese lab a bad link and a bad file are explained in Chinese, with no English from the core', async () => {
  // Words that may stay: the link's own keys and values, units, identifiers.
  const keep = new Set(['GB', 'Gbps', 'bw', 'lat', 'us', 'ns', 'ms', 's', 'µs', 'B', 'KB', 'MB', 'TB', 'TB/s', 'GB/s',
    'MB/s', 'KB/s', 'B/s', 'bps', 'Kbps', 'Mbps', 'Tbps', 'Gb/s', 'NUL', 'UTF', 'JSON', 'KiB', 'MiB', 'GiB', 'TiB']);
  const english = (text) => (text.match(/[A-Za-z][A-Za-z0-9/]*/g) ?? []).filter((w) => !keep.has(w) && !/^\d/.test(w));
  const { browser, page, problems } = await open(`${server.url}?lang=zh&alg=ring&bw=-400Gbps`);
  try {
    assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
    const error = page.getByTestId('url-error');
    await error.waitFor();
    const text = await error.textContent();
    assert.match(text, /带宽“-400Gbps”必须为正数/);
    assert.deepEqual(english(text.replace('-400Gbps', '')), [], text);
    assert.equal(await error.locator('[lang=en]').count(), 0, 'no part of it is left in English');
    // A file with NUL bytes: the core's kind, worded in Chinese.
    await page.getByTestId('import-json').setInputFiles({ name: 'j.json', mimeType: 'application/json', buffer: Buffer.from([0x7b, 0, 0, 0]) });
    const imported = page.getByTestId('import-error');
    await imported.waitFor();
    const why = await imported.textContent();
    assert.match(why, /文件含有 NUL 字节/);
    assert.deepEqual(english(why), [], why);
    assert.deepEqual(problems, []);
  } finally { await browser.close(); }
});
