/**
 * The engine thread's longest stretch (no turn of its event loop) during each long job at 1M, on
 * the cached seeded archive (issue 31): CompStat over the seeded areas, repeat locations by block
 * address (twice: the first call reads the addresses), Gi*, KDE, Knox (~20k incidents), a
 * GeoPackage and a CSV export of every incident, the PDF report's figures (startExport pdf +
 * getReport) and an alert rule test over 365 days. A timer every 1 ms records the gaps, each with
 * the engine thread's own CPU time in it (on a loaded machine a gap's wall time is mostly the run
 * queue's); the control is the same timer with nothing to do. Bound: no stretch of more than 50 ms
 * of the thread's CPU. Before each job, five other filters are counted (the query keeps the last
 * four results), so a job resolves its filter as it would after the map's clicks.
 *
 *   npx tsx bench/analysisSlices.ts [--count 1000000] [--jobs compStat,gpkg]
 *
 * `node --cpu-prof --import tsx bench/analysisSlices.ts` names what a stretch ran.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadavg } from 'node:os';
import type { EngineEvent } from '../src-shared/contract';
import type { StartExportOutput } from '../src-shared/exports';
import { benchEngine, call, RESULTS, seededFile, waitForEvent } from './lib/benchEngine';
import { configureLogging } from '../src-main/engine/log';
import { round } from './lib/stats';

const argOf = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const count = Number(argOf('count') ?? 1_000_000);
const jobsAsked = argOf('jobs')?.split(',');

const { engine, events } = benchEngine(path.join(RESULTS, 'analysis-slices'), seededFile('export', count));
await call(engine, 'countIncidents', { filters: {} }); // the snapshot loaded beforehand

type Finished = Extract<EngineEvent, { type: 'exportProgress' }>;
async function exportOf(format: 'gpkg' | 'csv'): Promise<unknown> {
  const started = await call<StartExportOutput>(engine, 'startExport', {
    format,
    filters: { preset: 'all' },
  });
  const done = await waitForEvent(
    events,
    (e): e is Finished =>
      e.type === 'exportProgress' &&
      e.jobId === started.jobId &&
      ['done', 'failed', 'cancelled'].includes(e.state),
  );
  if (done.state !== 'done') throw new Error(`${format} export ${done.state}`);
  return done.manifest?.counts.written;
}

/** [job, start µs (monotonic), ms] of each stretch over 50 ms, written to $STRETCH_FILE. */
const windows: [string, number, number][] = [];

const jobs: Record<string, () => Promise<unknown>> = {
  idle: () => new Promise((done) => setTimeout(done, 2000)),
  compStat: () => call(engine, 'analyzeCompStat', { filters: {} }),
  repeatLocations: () => call(engine, 'analyzeRepeatLocations', { filters: {} }),
  'repeatLocations-again': () => call(engine, 'analyzeRepeatLocations', { filters: {} }),
  gistar: () => call(engine, 'analyzeHotSpots', { filters: { preset: 'all' } }),
  kde: () => call(engine, 'analyzeKde', { filters: { preset: 'all' }, radiusM: 3000, cellSizeM: 1500 }),
  knox: () =>
    call(engine, 'analyzeNearRepeat', {
      filters: { preset: '90d', types: ['Theft'] },
      spaceBands: [0, 400, 800],
      spaceUnit: 'ft',
      timeBandsDays: [0, 7, 14, 21],
      iterations: 99,
      seed: 1,
    }),
  gpkg: () => exportOf('gpkg'),
  csv: () => exportOf('csv'),
  report: async () => {
    const started = await call<StartExportOutput>(engine, 'startExport', {
      format: 'pdf',
      filters: { preset: 'all' },
    });
    await call(engine, 'getReport', { jobId: started.jobId });
    return call(engine, 'cancelExport', { jobId: started.jobId }).catch(() => undefined);
  },
  alertTest: () =>
    call(engine, 'testAlertRule', {
      rule: { name: 'Any', areaId: null, condition: { kind: 'any' } },
      days: 365,
    }),
};

/**
 * The engine thread's own CPU time so far, in ms (the kernel's /proc schedstat of this thread), or
 * null where there is none: a stretch's CPU time is the work that held the loop, whatever the
 * machine's load added to its wall time.
 */
function threadCpuMs(): number | null {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
}

async function timed(name: string, job: () => Promise<unknown>): Promise<void> {
  let longest = 0;
  let longestCpu = 0;
  let lastCpu = threadCpuMs();
  let last = performance.now();
  let running = true;
  const long: string[] = [];
  const t0 = performance.now();
  const tick = () => {
    const now = performance.now();
    const cpu = threadCpuMs();
    if (cpu !== null && lastCpu !== null) longestCpu = Math.max(longestCpu, cpu - lastCpu);
    lastCpu = cpu;
    if (now - last > 50) {
      long.push(`${Math.round(last - t0)}+${Math.round(now - last)}`);
      // For a CPU profile's samples of the stretch (the profile's clock is the monotonic one, in µs).
      windows.push([
        name,
        Math.round(process.hrtime()[0] * 1e6 + process.hrtime()[1] / 1e3 - (now - last) * 1e3),
        now - last,
      ]);
    }
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  let error: string | undefined;
  try {
    await job();
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const ms = Math.round(performance.now() - t0);
  running = false;
  tick();
  console.log(
    JSON.stringify({
      bench: `analysis-slices-${name}`,
      incidents: count,
      ms,
      longestStretchMs: Math.round(longest),
      longestStretchCpuMs: lastCpu === null ? null : Math.round(longestCpu),
      ok: !error && (lastCpu === null ? longest : longestCpu) <= 50,
      stretchesOver50: long,
      ...(error ? { error } : {}),
      load: loadavg().map((l) => round(l, 2)),
    }),
  );
}

/** The query's last filter results pushed out (it keeps 4), as the map's changing filters do. */
async function otherFilters(): Promise<void> {
  for (const h of [1, 2, 3, 4, 5])
    await call(engine, 'countIncidents', { filters: { preset: 'all', hours: [h, 23] } });
}

for (const [name, job] of Object.entries(jobs))
  if (!jobsAsked || name === 'idle' || jobsAsked.includes(name)) {
    if (name !== 'repeatLocations-again') await otherFilters();
    await timed(name, job);
  }
await engine.close();
if (process.env.STRETCH_FILE) writeFileSync(process.env.STRETCH_FILE, JSON.stringify(windows));
configureLogging({ file: null, stderr: true });
