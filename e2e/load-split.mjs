// Where the time from navigation to the first interactive figures (§1.1's at the top of the page,
// then the lab's) goes, measured in Chromium:
// resource timings (HTML, CSS, JS, wasm), the wasm's streaming compile + instantiate (wrapped at
// the page's start), when each part of the page appears in the DOM, and a DevTools trace of the
// main thread's tasks (timers, layout, paint, wasm compile) up to the figure.
// Usage: node e2e/load-split.mjs [runs]  (after `trunk build --release --offline`); prints JSON.
// perf.test.mjs uses `loadSplit` for e2e/out/perf.json.
import { serve, launch, FIGURE_SIGNAL, figureSignal } from './harness.mjs';

const SECTIONS = ['why-not-8x', 'four-layers', 'ring', 'tree', 'versus', 'compare', 'map', 'claims', 'scaling', 'real-hardware'];

/** Page-side recorder, installed before any of the page's scripts run. */
function recorder({ sections, signal }) {
  const t = (window.__load = { appear: {} });
  const now = () => performance.now();
  const wrap = (name) => {
    const orig = WebAssembly[name];
    if (!orig) return;
    WebAssembly[name] = function (...args) {
      const start = now();
      return orig.apply(this, args).then((r) => {
        // The first: the page's main module (its split modules come after the page starts).
        t.wasm ??= { how: name, start, end: now() };
        return r;
      });
    };
  };
  wrap('instantiateStreaming');
  wrap('instantiate');
  addEventListener('TrunkApplicationStarted', () => (t.trunkStarted = now()));
  const seen = (key, ok) => {
    if (t.appear[key] === undefined && ok()) t.appear[key] = now();
  };
  new MutationObserver(() => {
    seen('loading-removed', () => document.readyState !== 'loading' && !document.getElementById('loading'));
    seen('chapter', () => document.querySelector('[data-testid=chapter-guide]'));
    for (const id of sections) seen(id, () => document.getElementById(id));
    seen('lab', () => document.querySelector('[data-testid=lab] .app, [data-testid=lab] [data-testid=cluster-figure]'));
    seen('cluster-figure', () => document.querySelector('[data-testid=cluster-figure]'));
    seen('why-figure', () => document.querySelector('[data-testid=why-speedup]'));
    seen('all-mounted', () => document.querySelector('[data-testid=chapter-guide]') && !document.querySelector('[data-deferred=pending]'));
    if (t.appear['cluster-figure'] !== undefined && t.figurePainted === undefined) {
      t.figurePainted = -1;
      console.debug(signal);
      requestAnimationFrame(() => setTimeout(() => (t.figurePainted = now()), 0));
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-deferred'] });
}

const r1 = (x) => (x === undefined || x === null ? null : Math.round(x * 10) / 10);

/** Sums the main thread's trace events by name, between two page times (ms). */
function traceSplit(events, navStartTs, from, to) {
  // The renderer's main thread: the one with the most RunTask time.
  const byThread = new Map();
  for (const e of events) {
    if (e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask')) {
      const k = `${e.pid}:${e.tid}`;
      byThread.set(k, (byThread.get(k) ?? 0) + (e.dur ?? 0));
    }
  }
  const threadNames = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  const main = [...threadNames].find(([, n]) => n === 'CrRendererMain')?.[0];
  const ms = (ts) => (ts - navStartTs) / 1000;
  const sums = {};
  const tasks = [];
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== main || e.ph !== 'X') continue;
    const s = ms(e.ts);
    if (s < from || s > to) continue;
    const d = (e.dur ?? 0) / 1000;
    sums[e.name] = (sums[e.name] ?? 0) + d;
    if (e.name === 'ThreadControllerImpl::RunTask') tasks.push({ at: r1(s), ms: r1(d) });
  }
  const pick = (...names) => r1(names.reduce((a, n) => a + (sums[n] ?? 0), 0));
  const big = tasks.filter((x) => x.ms >= 5);
  // What each big task ran (the first child event names), for the record.
  for (const b of big) {
    const start = b.at;
    const end = b.at + b.ms;
    const kids = {};
    for (const e of events) {
      if (`${e.pid}:${e.tid}` !== main || e.ph !== 'X' || e.name.endsWith('RunTask')) continue;
      const s = ms(e.ts);
      if (s >= start && s <= end && ['TimerFire', 'FunctionCall', 'EvaluateScript', 'v8.compileModule', 'FireIdleCallback', 'FireAnimationFrame', 'Layout', 'UpdateLayoutTree', 'Paint', 'ParseHTML', 'v8.wasm.compiledModule', 'v8.wasm.streamFromResponseCallback', 'v8.wasm.finishedStreaming', 'HandlePostMessage', 'V8.GC_SCAVENGER', 'MajorGC', 'MinorGC'].includes(e.name)) {
        kids[e.name] = r1((kids[e.name] ?? 0) + (e.dur ?? 0) / 1000);
      }
    }
    b.what = kids;
  }
  return {
    main_thread_busy_ms: r1(tasks.reduce((a, x) => a + x.ms, 0)),
    script_ms: pick('FunctionCall', 'EvaluateScript', 'TimerFire', 'FireIdleCallback', 'FireAnimationFrame', 'v8.run'),
    style_ms: pick('UpdateLayoutTree'),
    layout_ms: pick('Layout'),
    paint_ms: pick('Paint', 'PaintImage', 'RasterTask'),
    parse_html_ms: pick('ParseHTML'),
    gc_ms: pick('MajorGC', 'MinorGC', 'V8.GC_SCAVENGER', 'V8.GC_MARK_COMPACTOR'),
    tasks_over_5_ms: big,
  };
}

/** One load of `url`: the split, in ms since navigation start. */
export async function loadSplit(url, { trace = true } = {}) {
  const { browser, context, page } = await launch();
  try {
    await context.addInitScript(recorder, { sections: SECTIONS, signal: FIGURE_SIGNAL });
    if (trace) {
      await browser.startTracing(page, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.wasm', 'blink.user_timing', 'loading', 'toplevel', '__metadata'],
      });
    }
    // Nothing of Playwright's runs in the page until its first figure is in (see figureSignal).
    const figure = figureSignal(page, 60000);
    await page.goto(url);
    await figure;
    await page.waitForFunction(() => window.__load.figurePainted > 0 && window.__load.appear['all-mounted'] !== undefined, null, { timeout: 60000 });
    const data = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const res = performance.getEntriesByType('resource').map((r) => ({ name: r.name.split('/').pop(), start: r.startTime, end: r.responseEnd, bytes: r.encodedBodySize }));
      const paint = Object.fromEntries(performance.getEntriesByType('paint').map((p) => [p.name, p.startTime]));
      return { nav: { responseEnd: nav.responseEnd, domInteractive: nav.domInteractive, dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd }, res, paint, load: window.__load, origin: performance.timeOrigin };
    });
    let traced = null;
    if (trace) {
      const buf = await browser.stopTracing();
      if (process.env.TRACE_OUT) (await import('node:fs')).writeFileSync(process.env.TRACE_OUT, buf);
      const events = JSON.parse(buf.toString()).traceEvents;
      // navigationStart in the trace: the first 'navigationStart' mark of the main frame.
      const navEv = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && e.args?.data?.documentLoaderURL?.startsWith('http'));
      if (navEv) traced = traceSplit(events, navEv.ts, 0, data.load.appear['all-mounted'] ?? data.load.figurePainted);
    }
    const L = data.load;
    const find = (suffix) => data.res.find((r) => r.name.endsWith(suffix));
    const wasmRes = find('_bg.wasm');
    const jsRes = data.res.find((r) => r.name.endsWith('.js') && !r.name.startsWith('inline'));
    // The stylesheets are inlined in index.html (Trunk's rel="inline"): they arrive with the HTML.
    const css = data.res.filter((r) => r.name.endsWith('.css'));
    const cssEnd = css.length ? Math.max(...css.map((r) => r.end)) : data.nav.responseEnd;
    const split = {
      html_response_end_ms: r1(data.nav.responseEnd),
      css_loaded_ms: r1(cssEnd),
      js_loaded_ms: r1(jsRes?.end),
      wasm_fetch: { start_ms: r1(wasmRes?.start), end_ms: r1(wasmRes?.end), bytes: wasmRes?.bytes },
      first_contentful_paint_ms: r1(data.paint['first-contentful-paint']),
      wasm_instantiate: L.wasm ? { how: L.wasm.how, start_ms: r1(L.wasm.start), end_ms: r1(L.wasm.end) } : null,
      rust_start_and_first_render_ms: r1(L.appear.chapter),
      appear_ms: Object.fromEntries(Object.entries(L.appear).map(([k, v]) => [k, r1(v)])),
      trunk_started_ms: r1(L.trunkStarted),
      // §1.1's figure, the first in the window at the top of the page, mounts first; the lab's,
      // 9,000 px further down, second.
      why_figure_in_dom_ms: r1(L.appear['why-figure']),
      lab_figure_in_dom_ms: r1(L.appear['cluster-figure']),
      lab_figure_painted_ms: r1(L.figurePainted),
      trace: traced,
    };
    return split;
  } finally {
    await browser.close();
  }
}

/** The median of each figure over several loads (the trace's task list from the last). */
export function medianSplit(all) {
  const med = (xs) => {
    const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
    return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
  };
  const merge = (objs) => {
    const out = {};
    for (const k of Object.keys(objs[0] ?? {})) {
      const vals = objs.map((o) => o?.[k]);
      if (typeof vals[0] === 'number') out[k] = med(vals);
      else if (vals[0] && typeof vals[0] === 'object' && !Array.isArray(vals[0])) out[k] = merge(vals);
      else out[k] = vals.find((v) => v !== undefined && v !== null) ?? null;
    }
    return out;
  };
  const traced = all.map((s) => s.trace).filter(Boolean);
  const m = merge(all.map(({ trace, ...rest }) => rest));
  m.runs = all.length;
  if (traced.length) m.trace = traced[traced.length - 1];
  return m;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // node e2e/load-split.mjs [runs] [dist directory]
  const runs = Number(process.argv[2] ?? 3);
  const server = await serve(process.argv[3] ? (await import('node:path')).resolve(process.argv[3]) : undefined);
  try {
    const all = [];
    for (let i = 0; i < runs; i++) all.push(await loadSplit(server.url, { trace: i === runs - 1 }));
    const m = medianSplit(all);
    if (process.env.BRIEF && m.trace) m.trace.tasks_over_5_ms = m.trace.tasks_over_5_ms.filter((t) => t.ms >= 20);
    console.log(JSON.stringify(m, null, 1));
  } finally {
    await server.close();
  }
}
