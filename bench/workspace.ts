/**
 * The workspace benchmark: the real renderer in Debian's Chromium over the web host, on a data
 * folder with 1M incidents. Prints one JSON object per figure with its bound; a gated figure has
 * `ok`, an informational one `withinBound` (and says why it is not gated).
 *
 * - launch → interactive map (first clusters drawn, counting every incident of the filters), the
 *   median of `--runs` (5): engine warm (a reload, ≤ 500 ms), engine restarted on the folder (its
 *   saved snapshot and map view, ≤ 1,000 ms), first open of the file (≤ 1,500 ms). Each prints its
 *   timeline: the page's marks and every engine call until then as [start, duration], and the
 *   engine's share split from the renderer's; and the web host's event-loop delay during the
 *   launches (monitorEventLoopDelay, bound 50 ms);
 * - re-cluster on pan or zoom, from the move's first Leaflet event to the clusters drawn, measured
 *   in the page: median over `--moves` moves, for the default 90-day filter and for all history;
 * - filter change → updated counts (legend), and → map points reloaded;
 * - renderer memory after all history is on the map: the JS heaps of the page and of the cluster
 *   worker with their ArrayBuffer stores (CDP Runtime.getHeapUsage, after a GC), also
 *   performance.memory and Performance.getMetrics (page only); renderer process RSS for information.
 *
 *   npx tsx bench/workspace.ts [--count 1000000] [--moves 30] [--runs 5] [--cpu-prof DIR]
 *
 * `--cpu-prof DIR` writes a V8 CPU profile of each web host started (its main thread is
 * `*.0.001.cpuprofile`) under DIR, to see what held the host's loop during a launch.
 *
 * Builds first when out/ is older than its sources. The seeded file is cached in bench/results/
 * (same schema and count) and copied to a fresh temp folder, removed at the end with the host and
 * the browser (also on Ctrl+C).
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { quantile, round } from './lib/stats';
import { ROOT, startHost, type HostProcess } from './lib/webHostProcess';
import { ensureBuilt, seededFile } from './lib/prepared';
import { DEFAULT_FILTERS } from '../src-renderer/filters/filterModel';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const count = Number(arg('count') ?? 1_000_000);
const moves = Number(arg('moves') ?? 30);
const cpuProfDir = arg('cpu-prof');
let hostsStarted = 0;

/** Launch → first clusters (median of RUNS): warm engine, engine restarted, first open of the file. */
const WARM_BOUND_MS = 500;
const RESTART_BOUND_MS = 1000;
const FIRST_OPEN_BOUND_MS = 1500;
const RUNS = Number(arg('runs') ?? 5);
/** The host's event loop may not be blocked longer than this during a launch. */
const LOOP_BOUND_MS = 50;
const LOOP_FILE = path.join(tmpdir(), `blotter-bench-loop-${process.pid}.json`);
const MONITOR = pathToFileURL(path.join(ROOT, 'bench', 'lib', 'loopMonitor.mjs')).href;
process.env.BLOTTER_LOOP_FILE = LOOP_FILE; // read by the monitor in the host
const RECLUSTER_BOUND_MS = 50;
const COUNTS_BOUND_MS = 100;
const MEMORY_BOUND_MB = 500;
const STEP_TIMEOUT_MS = 120_000;

const out = (figure: Record<string, unknown>) =>
  console.log(JSON.stringify({ bench: 'workspace', ...figure }));
const stats = (values: number[]) => ({
  n: values.length,
  medianMs: round(quantile(values, 0.5)),
  p95Ms: round(quantile(values, 0.95)),
  maxMs: round(Math.max(...values)),
});

const seeded = (): string =>
  seededFile('workspace', count, (s) => out({ figure: 'seed', count, ms: round(s.ms) }));

/**
 * RSS (MB) of the renderer processes this benchmark's Chromium started: the page's (the largest
 * content renderer: the page, its cluster worker, canvases, code) and the others (Chromium's own UI
 * renderer, a spare one).
 */
function rendererRss(): { pageMb: number; othersMb: number[] } | null {
  const parentOf = (pid: number): number => {
    try {
      return Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      return 0;
    }
  };
  const descends = (pid: number): boolean => {
    for (let p = pid, depth = 0; p > 1 && depth < 8; p = parentOf(p), depth++)
      if (p === process.pid) return true;
    return false;
  };
  const content: number[] = [];
  const others: number[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes('--type=renderer') || !descends(Number(pid))) continue;
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      (cmdline.includes('--top-chrome-webui') ? others : content).push(round(kb / 1024));
    } catch {
      // the process ended meanwhile
    }
  }
  if (!content.length) return null;
  content.sort((a, b) => b - a);
  return { pageMb: content[0] as number, othersMb: [...content.slice(1), ...others] };
}

const perfOf = (page: Page) =>
  page.evaluate(() => {
    const p = window.__blotterPerf;
    return p
      ? {
          ...p,
          recluster: [...p.recluster],
          countsUpdated: [...p.countsUpdated],
          mapRedrawn: [...p.mapRedrawn],
        }
      : null;
  });

/**
 * The launch breakdown, in ms since navigation: the page's marks (map created, points asked and
 * received, index built, first clusters) and each engine call made until then as [start, duration].
 */
const marksOf = (page: Page) =>
  page.evaluate(() => {
    const marks = Object.fromEntries(
      performance
        .getEntriesByType('mark')
        .filter((m) => m.name.startsWith('blotter:'))
        .map((m) => [m.name.slice('blotter:'.length), Math.round(m.startTime)]),
    );
    const calls: Record<string, [number, number]> = {};
    for (const r of performance.getEntriesByType('resource')) {
      const call = /\/api\/call\/(\w+)/.exec(r.name)?.[1];
      if (call && r.startTime <= (marks['first-clusters'] ?? Infinity) && !calls[call])
        calls[call] = [Math.round(r.startTime), Math.round(r.duration)];
    }
    // How long at least one engine call was outstanding before the first clusters (a union of intervals).
    const end = marks['first-clusters'] ?? Infinity;
    const spans = Object.values(calls)
      .map(([a, d]) => [a, Math.min(a + d, end)] as [number, number])
      .sort((a, b) => a[0] - b[0]);
    let waited = 0;
    let reach = -Infinity;
    for (const [a, b] of spans) {
      if (b > reach) waited += b - Math.max(a, reach);
      reach = Math.max(reach, b);
    }
    return { marks, calls, waited };
  });

async function waitForClusters(page: Page, timeoutMs = STEP_TIMEOUT_MS): Promise<void> {
  await page.waitForFunction(() => window.__blotterPerf?.firstClustersAt != null, null, {
    timeout: timeoutMs,
    polling: 20,
  });
}

/**
 * A launch: to the first clusters, of which `engineMs` with an engine call outstanding (the app's
 * start-up calls, then getMapPoints and the legend's counts) and `rendererMs` the rest (the page's
 * own work: scripts, the map, the worker's index, the draw); `pointsMs` is getMapPoints alone.
 */
type Launch = {
  ms: number;
  /** The first clusters' incidents (a sketch counts every one), the filters' total, the source. */
  first: { source: string; total: number; updating: boolean } | null;
  trueTotal: number | null;
  /**
   * The host's event loop during the launch (monitorEventLoopDelay), and its main thread's own CPU
   * between two 5 ms ticks at most, and the longest stall split into CPU and run-queue wait
   * (schedstat; bench/lib/loopMonitor.mjs).
   */
  loop: {
    maxMs: number;
    p99Ms: number;
    meanMs: number;
    ownMaxMs: number | null;
    worst: { stallMs: number; cpuMs: number; runQueueMs: number } | null;
  } | null;
  engineMs: number;
  rendererMs: number;
  pointsMs: number;
  marks: Record<string, number>;
  calls: Record<string, [number, number]>;
};

/** Loads (or reloads) the page and times it to the first clusters. */
async function launch(page: Page, how: () => Promise<unknown>): Promise<Launch> {
  await how();
  await waitForClusters(page);
  const p = await perfOf(page);
  const ms = p?.firstClustersAt ?? NaN;
  const { marks, calls, waited } = await marksOf(page);
  // The filters' true total, asked of the engine as the page asks (the default filters).
  const trueTotal = await page.evaluate(async (filters) => {
    const r = await fetch('/api/call/countIncidents', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filters }),
    });
    const answer = (await r.json()) as { ok: boolean; value?: { total: number } };
    return answer.value?.total ?? null;
  }, DEFAULT_FILTERS);
  return {
    ms: round(ms),
    first: p?.firstClusters ?? null,
    trueTotal,
    loop: null,
    engineMs: round(waited),
    rendererMs: round(ms - waited),
    pointsMs: round(p?.points?.fetchMs ?? NaN),
    marks,
    calls,
  };
}

/** The host's event loop since the last report (the monitor writes it on SIGUSR2). */
async function loopStats(host: HostProcess): Promise<Launch['loop']> {
  rmSync(LOOP_FILE, { force: true });
  host.child.kill('SIGUSR2');
  for (let i = 0; i < 100 && !existsSync(LOOP_FILE); i++) await new Promise((r) => setTimeout(r, 20));
  try {
    return JSON.parse(readFileSync(LOOP_FILE, 'utf8')) as Launch['loop'];
  } catch {
    return null;
  }
}

/** Median-of-runs figure of one launch kind, with the median run's timeline. */
function launchFigure(name: string, runs: Launch[], boundMs: number, note: string): void {
  const ms = quantile(
    runs.map((l) => l.ms),
    0.5,
  );
  const median = runs.find((l) => l.ms === round(ms)) ?? runs[Math.floor(runs.length / 2)];
  const sums = runs.every((l) => l.first !== null && l.first.total === l.trueTotal);
  const loopMax = Math.max(...runs.map((l) => l.loop?.maxMs ?? Infinity));
  const own = runs.map((l) => l.loop?.ownMaxMs ?? null);
  out({
    figure: name,
    medianMs: round(ms),
    runs: runs.map((l) => l.ms),
    boundMs,
    ok: ms <= boundMs && sums,
    firstClusters: median?.first,
    trueTotal: median?.trueTotal,
    firstClustersSumToTotal: sums,
    engineMs: median?.engineMs,
    rendererMs: median?.rendererMs,
    pointsMs: median?.pointsMs,
    marks: median?.marks,
    engineCalls: median?.calls,
    note,
  });
  out({
    figure: `host event loop blocked during launch (${name.replace(/^launch to interactive map /, '')})`,
    maxMs: loopMax,
    p99Ms: runs.map((l) => l.loop?.p99Ms ?? null),
    boundMs: LOOP_BOUND_MS,
    ok: loopMax <= LOOP_BOUND_MS,
    ownCpuMaxMs: own.every((v) => v !== null) ? Math.max(...(own as number[])) : null,
    ownCpuMsPerRun: own,
    worstStallPerRun: runs.map((l) => l.loop?.worst ?? null),
    load: loadavg().map((v) => round(v)),
    note:
      'Gated: monitorEventLoopDelay in the web host (10 ms resolution), from its URL printed (or the previous launch) to the first clusters. ' +
      "Information: ownCpuMaxMs, the most CPU the host's main thread used between two 5 ms ticks (its own work holding the loop, an upper bound), " +
      'and each run’s longest stall split into CPU and run-queue wait (schedstat): on a loaded machine a stall that is mostly run-queue wait was the scheduler’s.',
  });
}

/** ~`moves` pans and zooms around a city; the page records each re-cluster (worker + draw). */
async function reclusterRun(page: Page): Promise<number[]> {
  const before = (await perfOf(page))?.recluster.length ?? 0;
  for (let i = 0; i < moves; i++) {
    const zoom = 10 + (i % 6);
    const view: [number, number, number] = [41.85 + 0.02 * Math.sin(i), -87.68 + 0.03 * Math.cos(i), zoom];
    const n = await page.evaluate(() => window.__blotterPerf?.recluster.length ?? 0);
    // setView returns nothing: a page.evaluate that returned the map would serialize all of it.
    await page.evaluate(([a, o, z]) => window.__blotterMapTest?.setView(a, o, z), view);
    await page.waitForFunction((k) => (window.__blotterPerf?.recluster.length ?? 0) > k, n, {
      polling: 5,
      timeout: STEP_TIMEOUT_MS,
    });
  }
  return ((await perfOf(page))?.recluster ?? []).slice(before);
}

/** CDP sessions of the page and of its cluster worker (auto-attached, messages relayed). */
async function heapReader(cdp: CDPSession) {
  let worker: string | null = null;
  let nextId = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string } }) => {
    if (e.targetInfo.type === 'worker') worker = e.sessionId;
  });
  cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
    const m = JSON.parse(e.message) as { id?: number; result?: unknown };
    if (m.id !== undefined) waiting.get(m.id)?.(m.result ?? null);
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  const inWorker = async (method: string): Promise<unknown> => {
    if (!worker) return null;
    const id = nextId++;
    const answer = new Promise<unknown>((resolve) => {
      waiting.set(id, resolve);
      setTimeout(() => resolve(null), 10_000);
    });
    await cdp.send('Target.sendMessageToTarget', {
      sessionId: worker,
      message: JSON.stringify({ id, method }),
    });
    return answer;
  };
  type Usage = { usedSize: number; backingStorageSize?: number } | null;
  const mb = (u: Usage) => (u ? round((u.usedSize + (u.backingStorageSize ?? 0)) / 1e6) : null);
  const heapMb = (u: Usage) => (u ? round(u.usedSize / 1e6) : null);
  return async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    await inWorker('HeapProfiler.collectGarbage');
    const page = (await cdp.send('Runtime.getHeapUsage')) as Usage;
    const work = (await inWorker('Runtime.getHeapUsage')) as Usage;
    return {
      pageJsHeapMb: heapMb(page),
      pageWithBuffersMb: mb(page),
      workerJsHeapMb: heapMb(work),
      workerWithBuffersMb: mb(work),
      totalMb: page && work ? round((mb(page) ?? 0) + (mb(work) ?? 0)) : null,
    };
  };
}

type BenchState = {
  host: HostProcess | null;
  browser: Browser | null;
  chromium: ChildProcess | null;
  dataDir: string;
};

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
  '--enable-precise-memory-info',
];

/**
 * Chromium for the page. By default it is started here, in this benchmark's session, and driven over
 * CDP: as Electron's renderer and GPU processes share the session of the main process that starts
 * them. Playwright's own launch (`--detached-browser`) puts the browser in a session of its own, and
 * the kernel's per-session CPU groups (autogroup) then weigh the host against the whole browser.
 */
async function startChromium(state: BenchState): Promise<Browser> {
  const executablePath = process.env.BLOTTER_CHROMIUM ?? '/usr/bin/chromium';
  if (process.argv.includes('--detached-browser'))
    return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const profile = path.join(state.dataDir, '..', `${path.basename(state.dataDir)}-chromium`);
  const child = spawn(
    executablePath,
    [
      ...CHROMIUM_ARGS,
      '--headless',
      '--hide-scrollbars',
      '--mute-audio',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  state.chromium = child;
  const ws = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`Chromium printed no DevTools URL.\n${seen}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}).\n${seen}`)));
    child.stderr?.on('data', (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4000);
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return chromium.connectOverCDP(ws);
}

async function run(state: BenchState) {
  const seed = seeded();
  state.browser = await startChromium(state);
  const browser = state.browser;
  const db = path.join(state.dataDir, 'blotter.sqlite');
  const startHostHere = async () => {
    const profile = cpuProfDir
      ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(cpuProfDir, `host-${++hostsStarted}`)]
      : [];
    state.host = await startHost(state.dataDir, ['--import', MONITOR, ...profile]);
    // From here on: the host's own start (tsx compiling its TypeScript, which the built Electron
    // app does not do) is not the launch's.
    await loopStats(state.host);
    return state.host;
  };
  const measured = async (host: HostProcess, page: Page, how: () => Promise<unknown>) => {
    const l = await launch(page, how);
    return { ...l, loop: await loopStats(host) };
  };
  const newPage = () => browser.newPage({ viewport: { width: 1440, height: 900 } });

  // First open: the engine starts on a file it has never seen (no saved snapshot, no saved view).
  const firsts: Launch[] = [];
  let page: Page | null = null;
  for (let i = 0; i < RUNS; i++) {
    await page?.close();
    await state.host?.stop();
    for (const f of readdirSync(state.dataDir))
      rmSync(path.join(state.dataDir, f), { recursive: true, force: true });
    copyFileSync(seed, db);
    const host = await startHostHere();
    const p = await newPage();
    page = p;
    firsts.push(await measured(host, p, () => p.goto(host.url)));
  }
  launchFigure(
    'launch to interactive map (first open, cold engine)',
    firsts,
    FIRST_OPEN_BOUND_MS,
    'A fresh copy of the file: the engine has read nothing of it yet.',
  );
  if (!page) throw new Error('no page');

  // Warm: reloads, as when the window is reopened with the engine running.
  await new Promise((r) => setTimeout(r, 1500)); // the map's view is saved a second after it settles
  const warm: Launch[] = [];
  for (let i = 0; i < RUNS; i++) {
    const p = page;
    warm.push(await measured(state.host as HostProcess, p, () => p.reload()));
  }
  launchFigure(
    'launch to interactive map (warm engine)',
    warm,
    WARM_BOUND_MS,
    'A reload with the engine running.',
  );

  // Restart: a new engine on the same folder (its saved snapshot, the saved view), a new page.
  const restarts: Launch[] = [];
  for (let i = 0; i < RUNS; i++) {
    await page.close();
    await state.host?.stop();
    const host = await startHostHere();
    const p = await newPage();
    page = p;
    restarts.push(await measured(host, p, () => p.goto(host.url)));
  }
  launchFigure(
    'launch to interactive map (engine restarted)',
    restarts,
    RESTART_BOUND_MS,
    'A new engine on the same folder, as when Blotter is started again.',
  );

  if (process.argv.includes('--launch-only')) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const heaps = await heapReader(cdp);

  // The first paint may be the engine's sketch: re-clustering is the worker's index, once built.
  await page.waitForFunction(() => window.__blotterPerf?.points != null, null, { timeout: STEP_TIMEOUT_MS });
  const recluster = await reclusterRun(page);
  out({
    figure: 're-cluster on pan or zoom (90 days)',
    ...stats(recluster),
    boundMs: RECLUSTER_BOUND_MS,
    ok: quantile(recluster, 0.5) <= RECLUSTER_BOUND_MS,
    points: (await perfOf(page))?.points,
  });

  // Filter change → counts: toggle types in the legend (the shared filter), one change at a time.
  const legend = page.getByTestId('map-legend');
  for (const type of [
    'Theft',
    'Assault',
    'Theft',
    'Burglary',
    'Assault',
    'Burglary',
    'Robbery',
    'Robbery',
  ].concat(['Arrest', 'Arrest', 'Vandalism', 'Vandalism', 'Other', 'Other', 'Shooting', 'Shooting'])) {
    const p = await perfOf(page);
    const [n, m] = [p?.countsUpdated.length ?? 0, p?.mapRedrawn.length ?? 0];
    await legend.getByRole('button', { name: new RegExp(`^${type}\\b`) }).click();
    await page.waitForFunction(
      ([k, j]) =>
        (window.__blotterPerf?.countsUpdated.length ?? 0) > (k as number) &&
        (window.__blotterPerf?.mapRedrawn.length ?? 0) > (j as number),
      [n, m],
      { polling: 5, timeout: STEP_TIMEOUT_MS },
    );
  }
  const p = await perfOf(page);
  const counts = p?.countsUpdated ?? [];
  out({
    figure: 'filter change to updated counts (in the page)',
    ...stats(counts),
    boundMs: COUNTS_BOUND_MS,
    ok: quantile(counts, 0.5) <= COUNTS_BOUND_MS,
  });
  out({
    figure: 'filter change to map points reloaded (in the page)',
    ...stats(p?.mapRedrawn ?? []),
    note: 'Information: getMapPoints over the web host + the worker index build.',
  });

  // Every incident on the map.
  const started = Date.now();
  const before = (await perfOf(page))?.points?.incidents ?? 0;
  await page.getByRole('button', { name: 'All history' }).click();
  await page.waitForFunction((prev) => (window.__blotterPerf?.points?.incidents ?? 0) > prev, before, {
    timeout: STEP_TIMEOUT_MS,
  });
  out({
    figure: 'all history on the map',
    ms: Date.now() - started,
    points: (await perfOf(page))?.points,
    note: 'Information: fetchMs = getMapPoints over the web host, buildMs = sites + cluster index in the worker.',
  });
  const reAll = await reclusterRun(page);
  out({
    figure: 're-cluster on pan or zoom (all history)',
    ...stats(reAll),
    boundMs: RECLUSTER_BOUND_MS,
    ok: quantile(reAll, 0.5) <= RECLUSTER_BOUND_MS,
  });

  const heap = await heaps();
  const pageHeap = await page.evaluate(
    () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? null,
  );
  const metrics = (await cdp.send('Performance.getMetrics')).metrics;
  const jsHeap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? null;
  const rss = rendererRss();
  out({
    figure: 'renderer memory (all history on the map)',
    mb: heap.totalMb,
    ...heap,
    performanceMemoryMb: pageHeap === null ? null : round(pageHeap / 1e6),
    cdpJsHeapUsedSizeMb: jsHeap === null ? null : round(jsHeap / 1e6),
    boundMb: MEMORY_BOUND_MB,
    ok: (heap.totalMb ?? Infinity) <= MEMORY_BOUND_MB,
    pageRendererRssMb: rss?.pageMb ?? null,
    otherRenderersRssMb: rss?.othersMb ?? null,
    note:
      'Gated: JS heap + ArrayBuffer stores of the page and of the cluster worker, after a GC. ' +
      "Information: RSS of the page's renderer process (also canvases, compiled code, V8 reservations) " +
      "and of Chromium's other renderers (its own UI, a spare).",
  });
}

async function main(): Promise<void> {
  await ensureBuilt();
  const state: BenchState = {
    host: null,
    browser: null,
    chromium: null,
    dataDir: mkdtempSync(path.join(tmpdir(), 'blotter-bench-')),
  };
  let cleaning: Promise<void> | null = null;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      await state.browser?.close().catch(() => undefined);
      const browserProcess = state.chromium;
      if (browserProcess && browserProcess.exitCode === null && browserProcess.signalCode === null) {
        const exited = new Promise((r) => browserProcess.once('exit', r));
        browserProcess.kill('SIGKILL');
        await exited; // its profile is written to until then
      }
      rmSync(`${state.dataDir}-chromium`, { recursive: true, force: true, maxRetries: 5 });
      await state.host?.stop();
      rmSync(state.dataDir, { recursive: true, force: true });
    })());
  const interrupted = () => void cleanUp().then(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    await run(state);
  } finally {
    await cleanUp();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
