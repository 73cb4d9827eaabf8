/**
 * Whether the engine answers while it works (issue 31): each long job runs at its benchmark size
 * through the engine's real call door — the built engine worker, as the hosts run it, on a data
 * folder holding the seeded archive — while `countIncidents` is asked every 100 ms with a filter
 * that changes each time (the map's counts call). Per job: the p50, p99 and largest wait of those
 * calls, the job's own wall time and the CPU time of the whole process (all threads) while it ran
 * (`cpuMs`). An engine that answers the count calls only after a job runs some of them outside
 * that window: `cpuWithCallsMs` runs on until every count call asked during the job is answered.
 * Bound: p99 ≤ 100 ms and max ≤ 500 ms for every job.
 *
 * Jobs (--jobs picks some, comma-separated):
 *   idle          the control: no job for 5 s (the waits this machine's load alone makes)
 *   import        previewImport + runImport of a CSV of the archive's own rows (1M; bench/export.ts's)
 *   boundaries    previewBoundaries of a 2,000,000-corner GeoJSON (500 beats of 4,000 corners)
 *   gpkg          startExport of every incident as GeoPackage, to its done event
 *   gistar        analyzeHotSpots over every incident (defaults)
 *   kde           analyzeKde over every incident, 1.5 km cells, r = 3 km (the seeded cities lie too
 *                 far apart for analysis.ts's 250 m cells: a grid may hold 2M cells)
 *   knox          analyzeNearRepeat over ~20k incidents, 99 permutations, bands to 800 ft (analysis.ts)
 *   selfcrossing  previewBoundaries of one 250k-corner zig-zag star (1 km / 1.01 km)
 *   csv           startExport of every incident as CSV, to its done event
 *   compstat      analyzeCompStat over the seeded areas
 *   repeats       analyzeRepeatLocations by block address over every incident
 *   report        startExport pdf + getReport (the printed report's figures), then cancelExport
 *   alerttest     testAlertRule ("any", no area) over the last 365 days
 *
 *   npx tsx bench/responsiveness.ts [--small] [--jobs import,kde] [--count N]
 *
 * --small: 50k incidents, a 200k-corner file and a 25k-corner star, for a quick run.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { EngineEvent } from '../src-shared/contract';
import type { StartExportOutput } from '../src-shared/exports';
import type { Filters } from '../src-shared/filters';
import type { LatLon } from '../src-shared/geo/bbox';
import { zigzagStar, wavyRing } from '../src-shared/geo/rings.testing';
import { dbFileOf } from '../src-main/engine/dataDir';
import type { EngineHandle } from '../src-main/engine/engineHandle';
import { engineCall as call, startBuiltEngine } from './lib/builtEngine';
import { RESULTS, seededFile, waitForEvent } from './lib/benchEngine';
import { filterSequence } from './lib/filterScenarios';
import { quantile, round } from './lib/stats';

const argOf = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const SMALL = process.argv.includes('--small');
const COUNT = Number(argOf('count') ?? (SMALL ? 50_000 : 1_000_000));
const BEATS = SMALL ? 50 : 500;
const STAR_CORNERS = SMALL ? 25_000 : 249_998; // + the closing corner: within the 250,000 a feature may hold
const KNOX_INCIDENTS = SMALL ? 2_000 : 20_000;
const ALL_JOBS = [
  'idle',
  'import',
  'boundaries',
  'gpkg',
  'gistar',
  'kde',
  'knox',
  'selfcrossing',
  'csv',
  'compstat',
  'repeats',
  'report',
  'alerttest',
] as const;
/** The control: how long the counts wait with no job at all (this machine's own noise), for 5 s. */
const IDLE_MS = 5_000;
type JobName = (typeof ALL_JOBS)[number];
const JOBS = (argOf('jobs')?.split(',') ?? [...ALL_JOBS]).filter((j): j is JobName =>
  (ALL_JOBS as readonly string[]).includes(j),
);
const POLL_MS = 100;
const BOUND = { p99Ms: 100, maxMs: 500 };
const WORK = path.join(RESULTS, 'responsiveness');
const out = (figure: Record<string, unknown>): void => console.log(JSON.stringify(figure));

/** Filters that need no area id or dates: the analyst's clicks through the filter bar, cycled. */
const FILTERS: Filters[] = filterSequence(0, '2026-01-01').filter(
  (f) => !f.from && !(f.area && 'areaId' in f.area),
);

/** Asks countIncidents every 100 ms (not waiting for the answer before the next) until stopped. */
function poller(engine: EngineHandle): { stop(): Promise<number[]> } {
  const waits: number[] = [];
  const pending = new Set<Promise<void>>();
  let k = 0;
  const ask = (): void => {
    const filters = FILTERS[k++ % FILTERS.length]!;
    const t0 = performance.now();
    const p = engine.call('countIncidents', { filters }).then(() => {
      waits.push(performance.now() - t0);
      pending.delete(p);
    });
    pending.add(p);
  };
  const timer = setInterval(ask, POLL_MS);
  ask();
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all([...pending]);
      return waits;
    },
  };
}

function geojsonFile(name: string, rings: readonly (readonly LatLon[])[]): string {
  const file = path.join(WORK, name);
  const features = rings.map((ring, k) => ({
    type: 'Feature',
    properties: { name: `beat ${k + 1}` },
    geometry: {
      type: 'Polygon',
      coordinates: [[...ring, ring[0]!].map(([lat, lon]) => [lon, lat])],
    },
  }));
  writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
  return file;
}

type Finished = Extract<EngineEvent, { type: 'exportProgress' }>;

async function csvOfArchive(engine: EngineHandle, events: EngineEvent[]): Promise<string> {
  const started = await call<StartExportOutput>(engine, 'startExport', {
    format: 'csv',
    filters: { preset: 'all' },
  });
  const done = await waitForEvent(
    events,
    (e): e is Finished =>
      e.type === 'exportProgress' && e.jobId === started.jobId && ['done', 'failed'].includes(e.state),
  );
  if (done.state !== 'done' || !done.file) throw new Error('the CSV export for the import job failed');
  return done.file.path;
}

/** Which filter selects closest to `want` incidents (for Knox at analysis.ts's size). */
async function filterNear(engine: EngineHandle, want: number): Promise<Filters> {
  const candidates: Filters[] = [
    { preset: '7d' },
    { preset: '30d' },
    { preset: '90d' },
    { preset: '30d', types: ['Theft'] },
    { preset: '90d', types: ['Theft'] },
    { preset: '90d', types: ['Assault'] },
    { preset: 'all', types: ['Shooting'] },
    { preset: 'all', types: ['Arson'] },
  ];
  let best = candidates[0]!;
  let bestGap = Infinity;
  for (const filters of candidates) {
    const { total } = await call<{ total: number }>(engine, 'countIncidents', { filters });
    const gap = Math.abs(Math.log(Math.max(1, total) / want));
    if (gap < bestGap) [best, bestGap] = [filters, gap];
  }
  return best;
}

async function main(): Promise<void> {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const dataDir = path.join(WORK, 'data');
  mkdirSync(dataDir, { recursive: true });
  copyFileSync(seededFile('export', COUNT), dbFileOf(dataDir));
  // The app's engine (the web host's, as the map asks it): views may answer from the snapshot in
  // place, marked updating, while a re-read after a bulk change builds the next.
  const engine = await startBuiltEngine(dataDir, 'web');
  const events: EngineEvent[] = [];
  engine.onEvent((e) => events.push(e));
  const load0 = loadavg().map((l) => round(l, 2));
  const results: Record<string, unknown>[] = [];
  try {
    const { total } = await call<{ total: number }>(engine, 'countIncidents', { filters: { preset: 'all' } });
    // Each job's setup (files written, filters chosen) is outside its timing.
    const setups: Record<JobName, () => Promise<() => Promise<unknown>>> = {
      idle: async () => () => new Promise((resolve) => setTimeout(resolve, IDLE_MS)),
      import: async () => {
        const csv = await csvOfArchive(engine, events);
        return async () => {
          const preview = await call<{ importId: string; rows: number }>(engine, 'previewImport', {
            source: { path: csv },
          });
          return call(engine, 'runImport', { importId: preview.importId, onBadRows: 'skip' });
        };
      },
      boundaries: async () => {
        const file = geojsonFile(
          'beats.geojson',
          Array.from({ length: BEATS }, (_, k) =>
            wavyRing(3999, 41.7 + (k % 25) * 0.02, -87.9 + Math.floor(k / 25) * 0.02, 0.008),
          ),
        );
        return async () => {
          const p = await call<{ previewId: string }>(engine, 'previewBoundaries', {
            source: { path: file },
          });
          return call(engine, 'discardBoundaries', { previewId: p.previewId });
        };
      },
      selfcrossing: async () => {
        const file = geojsonFile('star.geojson', [zigzagStar(STAR_CORNERS)]);
        return async () => {
          const p = await call<{ previewId: string }>(engine, 'previewBoundaries', {
            source: { path: file },
          });
          return call(engine, 'discardBoundaries', { previewId: p.previewId });
        };
      },
      gpkg: async () => async () => {
        const started = await call<StartExportOutput>(engine, 'startExport', {
          format: 'gpkg',
          filters: { preset: 'all' },
        });
        const done = await waitForEvent(
          events,
          (e): e is Finished =>
            e.type === 'exportProgress' &&
            e.jobId === started.jobId &&
            ['done', 'failed', 'cancelled'].includes(e.state),
        );
        if (done.state !== 'done') throw new Error(`gpkg export ${done.state}`);
        return done.manifest?.counts.written;
      },
      gistar: async () => () => call(engine, 'analyzeHotSpots', { filters: { preset: 'all' } }),
      csv: async () => () => csvOfArchive(engine, events),
      compstat: async () => () => call(engine, 'analyzeCompStat', { filters: {} }),
      repeats: async () => () => call(engine, 'analyzeRepeatLocations', { filters: { preset: 'all' } }),
      report: async () => async () => {
        const started = await call<StartExportOutput>(engine, 'startExport', {
          format: 'pdf',
          filters: { preset: 'all' },
        });
        await call(engine, 'getReport', { jobId: started.jobId });
        return call(engine, 'cancelExport', { jobId: started.jobId });
      },
      alerttest: async () => () =>
        call(engine, 'testAlertRule', {
          rule: { name: 'Any', areaId: null, condition: { kind: 'any' } },
          days: 365,
        }),
      kde: async () => () =>
        call(engine, 'analyzeKde', { filters: { preset: 'all' }, radiusM: 3000, cellSizeM: 1500 }),
      knox: async () => {
        const filters = await filterNear(engine, KNOX_INCIDENTS);
        const { total: chosen } = await call<{ total: number }>(engine, 'countIncidents', { filters });
        out({ bench: 'responsiveness-knox-filter', filters, incidents: chosen });
        return () =>
          call(engine, 'analyzeNearRepeat', {
            filters,
            spaceBands: [0, 400, 800],
            spaceUnit: 'ft',
            timeBandsDays: [0, 7, 14, 21],
            iterations: 99,
            seed: 1,
          });
      },
    };

    for (const job of JOBS) {
      const run = await setups[job]();
      const polls = poller(engine);
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      let error: string | undefined;
      try {
        await run();
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      const ms = performance.now() - t0;
      const used = process.cpuUsage(cpu);
      const waits = await polls.stop();
      const withCalls = process.cpuUsage(cpu);
      const cpuWithCallsMs = (withCalls.user + withCalls.system) / 1000;
      const p99 = quantile(waits, 0.99);
      const max = Math.max(...waits);
      const figure = {
        bench: 'responsiveness',
        job,
        incidents: total,
        jobMs: round(ms),
        cpuMs: round((used.user + used.system) / 1000),
        cpuWithCallsMs: round(cpuWithCallsMs),
        countCalls: waits.length,
        waitP50Ms: round(quantile(waits, 0.5)),
        waitP99Ms: round(p99),
        waitMaxMs: round(max),
        bound: BOUND,
        ok: !error && p99 <= BOUND.p99Ms && max <= BOUND.maxMs,
        ...(error ? { error } : {}),
        load: loadavg().map((l) => round(l, 2)),
      };
      results.push(figure);
      out(figure);
    }
  } finally {
    await engine.close();
  }
  const summary = {
    bench: 'responsiveness-summary',
    small: SMALL,
    jobs: results.map((r) => ({
      job: r.job,
      p99: r.waitP99Ms,
      max: r.waitMaxMs,
      cpuMs: r.cpuMs,
      cpuWithCallsMs: r.cpuWithCallsMs,
      ok: r.ok,
    })),
    bound: BOUND,
    ok: results.every((r) => r.ok),
    load: { start: load0, end: loadavg().map((l) => round(l, 2)) },
  };
  out(summary);
  writeFileSync(
    path.join(RESULTS, `responsiveness${SMALL ? '-small' : ''}.json`),
    JSON.stringify(summary, null, 2),
  );
  // Files the jobs wrote (exports) stay under bench/results/responsiveness/ until the next run.
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
