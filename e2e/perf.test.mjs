// Performance of the release build, measured in Chromium and reported (e2e/out/perf.json):
// wasm size (raw, gzip), navigation → first interactive figure, frame times while playing at 64
// GPUs, and slider change → redrawn figure at 64 and 256 GPUs. The aims are printed next to them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, open, launch, setRange, setRangeTo, selectOption, DIST, OUT } from './harness.mjs';
import { loadSplit, medianSplit } from './load-split.mjs';

let server;
const perf = { measured_at: new Date().toISOString(), aims: { load_to_first_figure_ms: 300, frame_p95_ms: 16.7, slider_to_redraw_ms: 100 } };
before(async () => {
  server = await serve();
});
after(async () => {
  await server?.close();
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'perf.json'), JSON.stringify(perf, null, 2) + '\n');
  console.log('perf:', JSON.stringify(perf, null, 2));
});

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const round = (x) => Math.round(x * 100) / 100;

test('wasm size', () => {
  // The page's main module (the chapter's text and §1.1's figure), which the page waits for.
  const files = fs.readdirSync(DIST);
  const wasm = files.find((f) => /^allreduce-lab-[0-9a-f]+_bg\.wasm$/.test(f));
  const bytes = fs.readFileSync(path.join(DIST, wasm));
  perf.wasm_bytes = bytes.length;
  perf.wasm_gzip_bytes = zlib.gzipSync(bytes, { level: 9 }).length;
  // The modules split from it (scripts/wasm_split.py), fetched once the page runs and mounted at
  // their sections' turns: the lab, the chapter's later sections, the NCCL section.
  const parts = files.filter((f) => /^allreduce-lab-[0-9a-f]{16}-.+\.wasm$/.test(f));
  perf.split_modules_gzip_bytes = Object.fromEntries(parts.map((f) => [f.replace(/^allreduce-lab-[0-9a-f]{16}-/, ''), zlib.gzipSync(fs.readFileSync(path.join(DIST, f)), { level: 9 }).length]));
  perf.page_wasm_total_gzip_bytes = perf.wasm_gzip_bytes + Object.values(perf.split_modules_gzip_bytes).reduce((a, b) => a + b, 0);
  for (const name of ['lab', 'chapter', 'nccl']) {
    assert.ok(Object.keys(perf.split_modules_gzip_bytes).some((k) => new RegExp(`^module_\\d+_${name}\\.wasm$`).test(k)), `no ${name} module split from the page's wasm: ${parts}`);
  }
  // The Web Workers' wasm (the scaling charts' and the lab's large runs), loaded once the page
  // runs: the core, the points' wire and the lab's (99,169 B before the lab's runs came to it).
  const worker = fs.readFileSync(path.join(DIST, 'points-worker_bg.wasm'));
  perf.worker_wasm_gzip_bytes = zlib.gzipSync(worker, { level: 9 }).length;
  // Built at opt-level 3 (Cargo.toml's wasm-worker profile: the chart's 1024-GPU ring a fifth
  // faster than at "s"): 110,834 -> 144,995 B; the page's first figure does not wait for it.
  assert.ok(perf.worker_wasm_gzip_bytes <= 150_000, `worker wasm is ${perf.worker_wasm_gzip_bytes} B gzipped`);
  // The budget the build keeps (opt-level "s" and no name section, see Cargo.toml's wasm-release
  // profile): 559 KB when set, 567 KB before the Web Workers, 579 KB with their client and the
  // sections taking turns at load (a point crosses as a setup key and numbers: no serde decoding of
  // points and no exact-float parser in the page). A post-build hook then dropped the name and
  // producers sections wasm-bindgen writes (scripts/strip_wasm.py, −1.0 KB), which paid for the
  // lab's rate-change guard, the replay's kept buffers and the core's bottleneck scan (586.8 KB);
  // taking `auto`'s rate-change limit from its chosen run's own cost added 231 B (587,054 B), so
  // the budget moved up 100 B. One stable sort for the whole program instead of 16 compiled copies
  // (src/sim/order.rs, measured with twiggy: 67 KB raw) then brought it to 574,425 B with 16-byte
  // buffer cells, and to 571,227 B with the link timeline's rows and `when_idle` compiled once:
  // the budget comes down to 572,000. binaryen's wasm-opt -Oz after opt-level "s" (index.html;
  // the pairs measured are in Cargo.toml) took it to 560,772 B. Reusing the scaling charts'
  // simulations (ui/model/scaling_memo.rs: the overlap slider redraws 108 points in ~44 ms instead
  // of ~1.6 s) added 2.8 KB (564,053 B; 1.4 KB more with keys written by `Debug`, so they are
  // written as JSON, whose code the page already has). The lab's recent results (going back to a
  // setting it ran shows it at once) and an error for a run that does not verify added 1.4 KB
  // (565,699 B), their review's mends 0.7 KB more (566,442 B): the budget was 567,000. The lab's
  // memory guard (the wasm memory's size: a counting allocator would have cost 21 KB), the words
  // for a run the core refuses and for a result shown again, in both languages, and the
  // comparison's shared runs: 567,261 B; the budget was 568,000. The lab's large runs in a Web
  // Worker (issue 11: the worker's client, the reading of its result in slices with every index
  // checked, and the fallback to the page's own slices kept) added 9.9 KB (577,153 B; 20.6 KB
  // raw), its reviews' mends 0.5 KB more (577,635 B in CI): the budget was 579,000. The replay
  // indexed by a counting sort instead of a merge sort, and the transfers unpacked as they arrive
  // from the worker: 576,854 B; the budget was 578,000. Close instants kept as 16-bit distances
  // (sim/records.rs: the 1024-rank ring's peak 201.4 -> 174.8 MB RSS), with the reading of both
  // forms from the worker: 579,795 B; contributor counts two to a word (-4 MB more): 580,199 B.
  // Together they took the page's wasm memory after the lab's largest run from 765 to 624 MB.
  // Transfers in 16 bytes instead of 24 (four words on the wire) and the run's reverse index in
  // 16-bit distances: 580,625 B (581,050 B with the builder's `add` inlined in the wasm too, so
  // it is inlined natively only), and 556 MB of wasm memory after that run. A run's end in slices
  // too (sim/run.rs `Finishing`: no task of a 1,024-GPU run on the page over 50 ms, where its end
  // took 69-190 ms at once; the buffers' check and the records' handover each a piece of its own)
  // added 1.4 KB: 582,052 B. Transfers in 12 bytes, palette indexes in half a byte, dependency
  // lists as 16-bit distances and a run's count-down in 6 bytes (the 1024-rank ring's peak RSS
  // 145.6 -> 128.2 MB natively) added 1.3 KB: 583,189 B. 12-byte cells, list starts and a
  // transfer's byte distances in 2 bytes (128.2 -> 115.9 MB) added 0.3 KB, and one
  // helper for 16-bit values two to a word took 0.1 KB off: 583,466 B. The network's finish queue
  // in groups of one instant (sim/network.rs: 9 % fewer instructions for the chart's 1024-rank
  // ring) added 1.2 KB: 584,623 B. The lab's playback waiting while it is out of view (an
  // IntersectionObserver, hooks::use_on_screen) added 0.3 KB: 584,912-584,944 B. The chapter's
  // figures and claims refusing a run whose buffers did not verify added 0.5 KB (585,438 B);
  // wasm-opt -Oz run twice (index.html) took 2.1 KB off: 583,293 B, then 583,959 B with the
  // scaling charts' delivery timer. What the page's own code pulled in from the standard library
  // and serde then went (named build, sizes by function): the Unicode case tables behind two
  // `to_lowercase` of Debug strings (-9.8 KB), a failed point's Debug text (-0.9 KB), Rust's sine
  // and cosine for one figure (-2.8 KB) and serde's buffered reading of the `kind`-tagged
  // topology (-5.7 KB): 564,670 B. One spelling of a tier's name (Tier::name) took 0.5 KB off
  // (564,458 B); the claims table's sentences that follow their verdicts (the 3.5× root, the
  // latency, the ring's growth, the small trees and the scenarios under other conditions, in
  // English and Chinese, each sentence's words a few hundred bytes; shares in per cent, 倍 in
  // the Chinese speedups) added 1.1 KB: 565,585 B; the lab's latency-bound wording of its
  // lower bound and the NCCL card's skipped candidates 0.2 KB: 565,822 B; the speedup section's
  // "because" naming a flat tree's root (it said "the ring sends…" for the flat-tree scenario)
  // 0.3 KB: 566,107 B; the Ring-vs-Tree readout naming who leads, ties and a second crossing 0.8 KB:
  // 566,922 B; a review using the i18n helpers took 110 B off: 566,812 B. Eight component types
  // became functions of their parent's render (the scaling section's progress, speedup and sweep
  // cards, notes and network switch, the chapter's guide and map, the toggle buttons): each type
  // costs about 470 B of Yew's mount, create and reuse code, 4.6 KB in all, which paid for the
  // sentences the audit of the lab's and the NCCL section's words mended (ties, near ties, the
  // busiest link by its capacity, the rails' NICs in the lower bound, the fit's words): 566,183 B.
  // auto's reason in English, now a method the CLI calls (the page words its own), no longer
  // built by every auto run and sent by the worker (the worker's wasm 146.5 -> 136.9 KB); with the
  // review's mends, 566,310 B; the language switch a function of the page and the Ring-vs-Tree
  // figure's second crossing marked, its label left of it: 566,261 B; the final review's mends
  // 566,295 B. The core became a package of its own (crates/sim), so that the page's views are
  // built for size (opt-level "z") and the core for speed ("s", as before; Cargo.toml has the
  // measurements): 512,161 B. The NCCL card's words for a tie between its two fastest candidates
  // (it said the first had "the lowest predicted time"): 512,318 B; with every tied candidate
  // named and the note on skipped candidates its neighbours have, after review: 512,681 B. A run's
  // steps' ends kept as it goes, the ring's schedule and the buffers' filling made faster, the
  // predict answer's side in lower case: 512,483 B (a clean clone built 512,517 B). A `Starts` that
  // keeps its last block's first start and its last start, for runs with details 4-5 % faster
  // natively: 512,750 B. Stop 47's fixes from the chapter audit, the fuzzing and the visual
  // review (the sentence on latency and bandwidth parts that do not add up, the verdict band's
  // and the timeline's wording, the paste's size and row limits and their messages in both
  // languages, the file import's segments check, faults kept, the canvases' presentation scale,
  // the instant scroll to an anchor): 514,794 B in a clean clone. Stop 48's: 519,756 B in a clean
  // clone (+4.8 KB; built commit by commit, by zlib -9 of the page's wasm: the faults in a link
  // and their checks +1.7 KB, Ring or Tree's decade ticks and labels +1.3 KB, the charts' dashed
  // stretch along an earlier line and smaller dots on its points, with the sweep's and the
  // delay's changes, +0.7 KB, the visual review's mends +0.3 KB): 520,189 B. Stop 49's, from a
  // visual review and a fuzzing pass: 522,844 B (+2.7 KB, by this test's zlib -9, which reads
  // about 5 KB more than gzip -9 here: the chart lines piled on one stretch dashing in turn +0.6
  // KB; the Ring-or-Tree figure's binary units, its prediction on a slider stop and its padded
  // axis, the lab's NCCL card naming the system's links, the NCCL section's NVLS sentence and the
  // Chinese titles +1.0 KB; the links' percent-decoding and named unknown key, the files' unknown
  // fields refused by name with their messages cut, and the sweep budget's words +1.1 KB): the
  // budget was 522,950. Stop 50: the Ring-vs-Tree figure's runs in Web Workers (one pool per kind
  // of work behind a `Work` trait object, the figure's asks and answers, its fallback to the page)
  // +2.3 KB locally (522,283 -> 524,589 B; a clean clone read 561 B more than a local build last
  // time); its review's mends 0.2 KB. The lab's figure in two rows over 32 GPUs (its 64-GPU
  // cluster was a strip with names 6.6-7.3 px high) 0.4 KB: 525,178 B. The spine between those
  // rows drawn as a bar, Ring-vs-Tree's partial curves joining only neighbouring sizes, its intro's
  // words on a crossover that jumps, the link's and file's values refused rather than rounded and
  // the training model's gradients over 1 TB refused by name: 526,186 B. Stop 51: the lab
  // figure's chunks inset from their GPUs' boxes and nodes' names under narrow boxes, Ring or
  // Tree's last bars kept (dimmed) and its axis held while a newer setup computes: +1.3 KB,
  // 527,516 B, the budget 528,100. Then the page's wasm was split (scripts/wasm_split.py; by this
  // test's zlib -9): the main module 237,258 B, the lab's 234,318, the chapter's later sections'
  // 96,356, the NCCL section's 55,177 and an empty shared chunk's 142: 623,251 B in all, 96 KB more
  // than one module, as the splitter copies the code two modules share into each. The budget is
  // issue 11's aim; the modules' total grows only by what is written here. Stop 52, from two
  // visual reviews (locally, 624,119 -> 629,016 B): the NCCL overlay's ranges and crossings, the
  // idle tiers' notes and the ring step's latency, the sweep's segment rule (chapter module +2.4
  // KB); the lab's phone name columns, its figure in two rows when that reads better (lab module
  // +1.8 KB); the charts' margins, the Deferred's ending turn (main +0.8 KB). Stop 53 (locally,
  // 631,743 -> 634,736 B): the compared runs' verdict line and their stacked layout, links no
  // byte crosses drawn faint, the address written on leaving the page, the file import's and
  // the link's range errors, a slow link's error naming this topology's cables (lab module +2.3
  // KB, main +0.6 KB). A first version capitalised the verdict's first word with
  // `char::to_uppercase`, which brought Unicode's case tables: +12 KB, caught by this test. Stop
  // 54 (locally, 636,063 -> 640,968 B; the core's faster filling itself -87 B, measured with the
  // old network.rs): the crossover words kept off the lines, the note under a shape that does not
  // fill its nodes, the model card under two compared runs and their timelines at half width (lab
  // module +1.6 KB, NCCL module +1.0 KB, main +0.3 KB); the switches' names placed off the links
  // and the legend's line for the bar under each GPU (lab module +1.4 KB); the review's mends
  // (the card's kept prediction, a note for racks left unfilled) +0.7 KB. A clean clone reads
  // about 1.2 KB more than a local build (stop 53: 634,876 locally, 636,047 in CI): the budget
  // 643,000. Stop 55 (locally, 640,870 -> 645,406 B), from a visual review: the crossover words
  // of the Ring vs Tree chart placed off each other's lines and the curves, the claims' fixed
  // conditions, the presets' pressed state, the timeline note's tiers (chapter module +3.2 KB,
  // lab +0.9 KB, main +0.6 KB); the lab's figure from the keyboard and a GPU's "join late" on its
  // link (+0.8 KB); the placement rewritten as one loop, without its vectors and closures
  // (-1.9 KB). Its clean clone read 53 B less than the local build: the budget 647,000. Stop 56
  // (locally, 644,755 -> 653,214 B), from a learner's review: §1.2's "does the model fit one GPU?"
  // figure, Ring vs Tree in the link and every figure's note on a refused link value, the guess's
  // "show this case", the phone's swipe and greyed-slider lines, the NCCL sentence's NVLS count
  // (chapter module +6.2 KB); fill()'s spacing, grouped digits, the play action's end (main +1.0
  // KB); the slide's fault line and measured fitting, the rack name's check (lab +0.8 KB; NCCL
  // +0.5 KB). Its clean clone read 51 B more: the budget 656,000. Stop 57 (locally, 653,188 ->
  // 661,416 B), from an expert's review and the chapter's unexplored numbers: the intro's "three
  // months on one GPU" figure, the speedup section's link, the NCCL menus' machine names, the
  // tuner's ranking and its candidate column, the cross-rack claim's two more trees, the size axes'
  // units (main +6.4 KB, lab +1.7 KB): the budget 665,000. Stop 58 (locally, 662,577 -> 672,903
  // B): §1.2's roofline figure, "memory bandwidth matters as much as FLOPS" (chapter module +8.0
  // KB, drawn in its own few lines of SVG: the line-chart component would have copied 19 KB of its
  // code into that module, and a standard-library sort another 1 KB; its words, main +2.6 KB with
  // the NCCL summary's); the NCCL error table in words, its reason chosen from the rows, without a
  // sort of its own (NCCL module -0.7 KB): the budget 675,000.
  const BUDGET_GZIP_BYTES = 300_000;
  assert.ok(perf.wasm_gzip_bytes <= BUDGET_GZIP_BYTES, `wasm is ${perf.wasm_gzip_bytes} B gzipped, over the ${BUDGET_GZIP_BYTES} B budget`);
  assert.ok(perf.page_wasm_total_gzip_bytes <= 675_000, `the page's modules are ${perf.page_wasm_total_gzip_bytes} B gzipped in all`);
});

test('where the load time goes (e2e/load-split.mjs)', async () => {
  // Three loads: the median of each figure (ms since navigation), the trace's tasks from the last.
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await loadSplit(server.url, { trace: i === 2 }));
  const split = medianSplit(runs);
  split.trace.tasks_over_5_ms = split.trace.tasks_over_5_ms.filter((t) => t.ms >= 20);
  perf.load_split = split;
  for (const run of runs) {
    // The order the page promises: the loading note goes, the chapter's text shows, then §1.1's
    // figure (the first in the window at the top), then the lab's figure before every other
    // section; the wasm compiles while it downloads.
    const a = run.appear_ms;
    assert.ok(a['loading-removed'] <= a.chapter && a.chapter < a['why-figure'] && a['why-figure'] < a['cluster-figure'], JSON.stringify(a));
    for (const id of ['four-layers', 'claims', 'scaling', 'real-hardware']) assert.ok(a['cluster-figure'] < a[id], `${id} before the lab's figure: ${JSON.stringify(a)}`);
    assert.equal(run.wasm_instantiate.how, 'instantiateStreaming');
  }
});

/** Sets `testid` to `pos` and reports ms until the DOM shows a new time and until the next frame. */
async function sliderToRedraw(page, testid, pos) {
  return page.evaluate(async ([testid, pos]) => {
    const el = document.querySelector(`[data-testid="${testid}"]`);
    // A sliced run shows no time until it finishes: no time yet counts as "before".
    const before = document.querySelector('[data-testid=time-result]')?.getAttribute('data-secs') ?? null;
    const t0 = performance.now();
    el.value = String(pos);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    // The lab's sliders simulate when released (change), as a drag ends.
    el.dispatchEvent(new Event('change', { bubbles: true }));
    // The lab simulates when the slider settles.
    el.dispatchEvent(new Event('change', { bubbles: true }));
    await new Promise((resolve, reject) => {
      const check = () => {
        const now = document.querySelector('[data-testid=time-result]');
        if (now && now.getAttribute('data-secs') !== before) resolve();
        else if (performance.now() - t0 > 20000) reject(new Error(`${testid} change never redrew`));
        else setTimeout(check, 0);
      };
      check();
    });
    const dom = performance.now() - t0;
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    return { dom, frame: performance.now() - t0 };
  }, [testid, pos]);
}

/** Plays the lab's run for 3 s (from the start, at the speed set) and reports its frame times:
 * the intervals between frames (at 60 Hz never under 16.7 ms: a p95 of 16.8 ms is every frame on
 * time, within the timer's jitter) and how many frames came late (an interval over 25 ms, 1.5
 * vsync intervals: a frame missed). */
async function framesWhilePlaying(page) {
  await page.getByTestId('play').click();
  const deltas = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const stamps = [];
        const end = performance.now() + 3000;
        const frame = (t) => {
          stamps.push(t);
          if (t < end) requestAnimationFrame(frame);
          else resolve(stamps.slice(1).map((s, i) => s - stamps[i]));
        };
        requestAnimationFrame(frame);
      }),
  );
  await page.getByTestId('pause').click();
  return {
    frames: deltas.length,
    p50_ms: round(quantile(deltas, 0.5)),
    p95_ms: round(quantile(deltas, 0.95)),
    max_ms: round(Math.max(...deltas)),
    fps: round(deltas.length / 3),
    late_frames: deltas.filter((d) => d > 25).length,
  };
}

/** Starts a run too large to simulate at once with `start`, waits for its progress bar and then
 * for its verified result: its wall time, the time the page reports, and its transfer count. */
async function slicedRun(page, start) {
  await start();
  const began = Date.now();
  await page.getByTestId('figure-a').getByTestId('sim-progress').waitFor();
  await page.getByTestId('figure-a').getByTestId('verified').first().waitFor({ timeout: 300000 });
  return {
    simulate_wall_ms: Date.now() - began,
    simulate_ms: round(Number(await page.getByTestId('cluster-figure').first().getAttribute('data-sim-ms'))),
    transfers: await page.locator('.results .small').first().textContent(),
  };
}

async function sliderSeries(page, label) {
  const values = (await page.getByTestId('bandwidth-node').getAttribute('data-values')).split(',');
  const a = values.indexOf('200000');
  // Six NICs around 200–400 Gbps, none shown before in this series, so every change re-simulates
  // (the lab shows a setting it ran recently at once, without a run).
  const current = Number(await page.getByTestId('bandwidth-node').inputValue());
  const order = [a, a + 3, a - 1, a + 4, a + 1, a + 2, a - 2].filter((i) => i !== current).slice(0, 6);
  const runs = [];
  for (const pos of order) runs.push(await sliderToRedraw(page, 'bandwidth-node', pos));
  const frames = runs.slice(1).map((r) => r.frame); // the first includes warm-up
  const simMs = Number(await page.getByTestId('cluster-figure').first().getAttribute('data-sim-ms'));
  perf[label] = {
    median_ms: round(quantile(frames, 0.5)),
    max_ms: round(Math.max(...frames)),
    simulate_ms: round(simMs),
    transfers: await page.locator('.results .small').first().textContent(),
  };
  return order;
}

/** How many sliced runs handed their result over, and how many requests the recent results answered. */
function resultMarks(page) {
  return page.evaluate(() => ({
    runs: performance.getEntriesByName('allreduce-lab:sliced-result').length,
    recalled: performance.getEntriesByName('allreduce-lab:recalled').length,
  }));
}

test('load, playback frame times and slider latency', async () => {
  const { browser, page, problems, loadMs } = await open(server.url);
  try {
    // The first interactive figure a learner sees: §1.1's, in the window at the top of the page.
    perf.load_to_first_figure_ms = round(await page.evaluate(() => window.__figureInViewMs));
    // The lab's figure, further down (the first figure in the DOM before §1.1's took the first turn).
    perf.load_to_lab_figure_ms = round(await page.evaluate(() => window.__figureMs));
    perf.load_to_lab_figure_visible_wall_ms = loadMs;
    // The aim is 300 ms, not reached every time. §1.1's figure is in the DOM 242-342 ms after
    // navigation in this test's load in three clean-clone CI runs (349-377 ms, medians of
    // e2e/load-split.mjs's 3 loads; 0.43-0.51 s locally on a busier machine): the wasm is
    // instantiated at 0.20-0.22 s, the chapter's text rendered at 0.22-0.24 s, and §1.1's first
    // render, six simulations (2 to 64 GPUs) and its two claims' checks on code the browser has
    // only just compiled, with its DOM, takes 0.12-0.17 s. Before §1.1 took the first turn from
    // the lab, 9,000 px further down, the first figure in the window came at 0.87 s (the lab's at
    // 0.49 s, now 0.39-0.48 s). 1000 ms is the margin.
    assert.ok(perf.load_to_first_figure_ms <= 1000, `first figure after ${perf.load_to_first_figure_ms} ms`);
    // 64 GPUs: 4 racks × 2 nodes × 8 GPUs, ring (the most transfers in flight at once).
    await page.getByTestId('preset-two-nodes-400g').click();
    await page.getByTestId('compare-toggle').uncheck();
    await selectOption(page, 'algorithm', 'ring');
    await setRangeTo(page, 'gpu-count', 64);
    await selectOption(page, 'speed', '2'); // 0.5×: the run outlasts the measurement
    await setRange(page, 'scrub', 0);
    // Measured once the scaling charts' workers are done (they take both of this machine's cores
    // for 2-4 s after a load): a learner plays a run on a settled page.
    await page.waitForSelector('[data-testid=scaling-progress][data-complete=true]', { timeout: 60000 });
    perf.playing_64_gpus = await framesWhilePlaying(page);
    assert.ok(perf.playing_64_gpus.frames > 30, `only ${perf.playing_64_gpus.frames} frames in 3 s`);
    // The aim is 16.7 ms (60 fps). Measured here: p95 16.8 ms in the whole e2e run (58 fps), 16.8-33.4
    // ms alone on a busier machine, since the chunks are on a canvas and the page's sections paint on
    // their own layers; 50-67 ms before. 40 ms is the
    // margin for this shared 2-core machine: it fails if a frame's work doubles again.
    assert.ok(perf.playing_64_gpus.p95_ms <= 40, `frame p95 ${perf.playing_64_gpus.p95_ms} ms playing at 64 GPUs`);

    await sliderSeries(page, 'slider_to_redraw_64_gpus_ring');
    await selectOption(page, 'algorithm', 'hierarchical');
    await sliderSeries(page, 'slider_to_redraw_64_gpus_hierarchical');
    await setRangeTo(page, 'gpu-count', 256);
    await sliderSeries(page, 'slider_to_redraw_256_gpus_hierarchical');
    await selectOption(page, 'algorithm', 'ring');
    const order = await sliderSeries(page, 'slider_to_redraw_256_gpus_ring');
    // Back to the NIC before the last one: the lab ran it moments ago, so it shows it at once
    // from its recent results, without a run.
    const line = page.locator('.results .small').first();
    assert.equal(await line.getAttribute('data-recalled'), null, 'a run made for this setting');
    const before = await resultMarks(page);
    const back = await sliderToRedraw(page, 'bandwidth-node', order[order.length - 2]);
    const after = await resultMarks(page);
    assert.equal(after.runs, before.runs, 'no run for a setting run moments ago');
    assert.equal(after.recalled, before.recalled + 1);
    // It says so: the time shown is the earlier run's, not this redraw's.
    assert.equal(await line.getAttribute('data-recalled'), 'true');
    assert.match(await line.textContent(), /^shown again from a recent run \(simulated in [\d.]+ m?s\) · 130,560 transfers$/);
    perf.back_to_a_recent_setting_256_gpus_ring_ms = round(back.frame);
    // A comparison's figures share their runs: the second runs NCCL's rings; picking them for the
    // first too shows that run, without another.
    await page.getByTestId('compare-toggle').check();
    await selectOption(page, 'compare-algorithm', 'nccl-ring');
    const drawn = (side) => page.locator(`[data-testid=figure-${side}] [data-testid=cluster-figure][data-algorithm=nccl-ring]`);
    await drawn('b').waitFor({ timeout: 60000 });
    const beforeSwap = await resultMarks(page);
    await selectOption(page, 'algorithm', 'nccl-ring');
    await drawn('a').waitFor({ timeout: 60000 });
    const afterSwap = await resultMarks(page);
    assert.equal(afterSwap.runs, beforeSwap.runs, "the first figure shows the second's run");
    assert.ok(afterSwap.recalled > beforeSwap.recalled);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('the lab simulates and plays a 1024-GPU ring (aggregated view)', async () => {
  const { browser, page, problems } = await open(server.url);
  try {
    await page.getByTestId('preset-two-nodes-400g').click();
    await page.getByTestId('compare-toggle').uncheck();
    await selectOption(page, 'algorithm', 'ring');
    const started = Date.now();
    await setRangeTo(page, 'gpu-count', 1024);
    // 2.1 M transfers with details, sliced between frames: a progress bar meanwhile.
    await page.getByTestId('figure-a').getByTestId('sim-progress').waitFor();
    await page.getByTestId('figure-a').getByTestId('verified').first().waitFor({ timeout: 300000 });
    const simulate_wall_ms = Date.now() - started;
    assert.ok((await page.getByTestId('figure-a').getByTestId('unit').count()) > 0, 'aggregated units');
    // The 64 racks' names read: they were 7.1 px in the 1,328-unit-wide drawing at 1,440 px.
    const names = await page.getByTestId('figure-a').locator('g.unit text').evaluateAll((ts) => ts.map((t) => parseFloat(getComputedStyle(t).fontSize) * Math.hypot(t.getScreenCTM().a, t.getScreenCTM().b)));
    assert.ok(names.length === 64 && Math.min(...names) >= 9, `${names.length} rack names, the least ${Math.min(...names).toFixed(1)} px`);
    // The legend names the tiers whose links are drawn, no more (it listed GPU links and NICs
    // the aggregated view does not draw).
    const tiersOf = (sel) => page.getByTestId('figure-a').locator(sel).evaluateAll((els) => [...new Set(els.map((e) => [...e.classList].find((c) => c.startsWith('tier-'))))].sort());
    const [drawn, named] = [await tiersOf('svg.figure g.link'), await tiersOf('.legend .link-swatch')];
    assert.ok(named.length > 0 && named.length < 3, JSON.stringify({ drawn, named }));
    assert.deepEqual(named, drawn);
    await selectOption(page, 'speed', '2');
    await setRange(page, 'scrub', 0);
    perf.playing_1024_gpus_ring = {
      simulate_wall_ms,
      simulate_ms: round(Number(await page.getByTestId('cluster-figure').first().getAttribute('data-sim-ms'))),
      ...(await framesWhilePlaying(page)),
    };
    // The aim is 30 fps; measured 20 fps (p50 50 ms) on this shared 2-core machine: 5 fps is the margin.
    assert.ok(perf.playing_1024_gpus_ring.fps >= 5, `${perf.playing_1024_gpus_ring.fps} fps playing 1024 GPUs`);
    // On a rail network: refused by the lab's budget until the trace's records shrank (its bound
    // was 1.51 GB with details, then 1.19 GB, under the 1.5 GB budget of the time). Simulated,
    // verified, played.
    perf.rail_1024_gpus_ring = await slicedRun(page, () => selectOption(page, 'topology-kind', 'rail'));
    assert.equal(await page.getByTestId('scenario-error').count(), 0);
    await setRange(page, 'scrub', 0);
    const frames = await framesWhilePlaying(page);
    assert.ok(frames.frames > 5, `${frames.frames} frames playing the rail ring`);
    // NCCL's eight rings on 256 GPUs of a rail network (1 M transfers): refused until the estimate
    // counted the rate changes a ring is expected to record (3.4 GB counted before). Simulated,
    // verified.
    await setRangeTo(page, 'gpu-count', 256);
    await page.getByTestId('figure-a').getByTestId('verified').first().waitFor({ timeout: 300000 });
    perf.rail_256_gpus_nccl_ring = await slicedRun(page, () => selectOption(page, 'algorithm', 'nccl-ring'));
    assert.match(perf.rail_256_gpus_nccl_ring.transfers, /1,?044,?480/);
    assert.equal(await page.getByTestId('scenario-error').count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('the largest run the command line accepts at 1,024 GPUs runs in the lab within its typical cost', async () => {
  // NCCL's four rings on 1,024 GPUs of a rail network, 4 per node: 8.4 M transfers. The lab
  // refused it while it counted the bound of cells and rate changes (4.8 GB); it admits runs by
  // their typical cost now (1.7 GB, under 2 GB) and stops one that grows the page's wasm memory
  // past 3 GB. The page's wasm memory after it: 1,067 MB while the page held the transfers' words
  // beside the transfers, the concatenated timelines beside the links' own, and 32 bytes of sort
  // keys a transfer to index the replay; 765 MB since it unpacks the transfers as it copies them
  // in, reads the links from the last giving back what they copied, and counts starts per
  // instant instead (the simulation itself is 630 MB).
  // Not `open`: the lab's figure appears only once the run is done.
  const { browser, page, problems } = await launch();
  try {
    const began = Date.now();
    await page.goto(`${server.url}?alg=nccl-ring&topo=rail&gpus=1024&gpn=4&seg=1#lab`);
    const figure = page.getByTestId('figure-a');
    await figure.getByTestId('sim-progress').waitFor();
    await figure.getByTestId('verified').first().waitFor({ timeout: 300000 });
    const memory = Number(await page.getByTestId('cluster-figure').first().getAttribute('data-wasm-memory'));
    perf.rail_1024_gpus_nccl_ring = {
      simulate_wall_ms: Date.now() - began,
      simulate_ms: round(Number(await page.getByTestId('cluster-figure').first().getAttribute('data-sim-ms'))),
      transfers: await page.locator('.results .small').first().textContent(),
      wasm_memory_mb: round(memory / 1e6),
    };
    assert.match(perf.rail_1024_gpus_nccl_ring.transfers, /8,?380,?416 transfers/);
    assert.equal(await page.getByTestId('scenario-error').count(), 0);
    // The page's wasm memory held it: more than the run's 8.4 M transfers' schedule alone, and
    // not the decoding's and indexing's copies beside it (765 MB measured, 1,067 MB before).
    assert.ok(memory > 8_380_416 * 24 && memory < 0.95e9, `wasm memory ${memory} B`);
    await setRange(page, 'scrub', 0);
    const frames = await framesWhilePlaying(page);
    perf.rail_1024_gpus_nccl_ring.playing_fps = frames.fps;
    assert.ok(frames.frames > 5, `${frames.frames} frames playing NCCL's rings at 1,024 GPUs`);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
