/**
 * Query benchmark: the engine's own query code over a seeded 1M-incident data file.
 *
 *   npx tsx bench/query.ts [--count 1000000] [--fresh]
 *
 * Seeds bench/results/query-<count>.sqlite once (reused by later runs), then
 * prints one JSON object per figure, each with its bound: snapshot load time and memory; filter
 * change → counts (median/p95 over a realistic sequence of filter changes, each a cache miss);
 * map points (plus their web-host wire encoding); first and deep table pages per sort key;
 * history calls; a sync page applied incrementally; and the slowest single call of the run
 * against the ~50 ms per-call budget. Times are wall-clock; cpuMedianMs is this process's CPU
 * time, which tells a busy machine from a slow query.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseCallInput, type CallName } from '../src-shared/contract';
import { encodeWire } from '../src-shared/wire';
import { incidentCalls, type IncidentCallName } from '../src-main/engine/query/calls';
import { QueryService } from '../src-main/engine/query/service';
import { openDatabase, type Db } from '../src-main/engine/store/database';
import { filterSequence } from './lib/filterScenarios';
import { round, summary, time, type Timing } from './lib/stats';
import { seedDatabase, type SeedSummary } from './seed';

const CALL_BUDGET_MS = 50;
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const count = Number(arg('count') ?? 1_000_000);
const out = (figure: Record<string, unknown>): void => console.log(JSON.stringify(figure));

function seeded(): SeedSummary {
  const dir = path.join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `query-${count}.sqlite`);
  const meta = `${file}.json`;
  // Reused across runs (openDatabase migrates an older schema forward); --fresh seeds again.
  if (!process.argv.includes('--fresh') && existsSync(file) && existsSync(meta)) {
    const cached = JSON.parse(readFileSync(meta, 'utf8')) as SeedSummary;
    if (cached.count === count) return cached;
  }
  const summaryOfSeed = seedDatabase(file, { count, seed: 42 });
  writeFileSync(meta, JSON.stringify(summaryOfSeed));
  out({ bench: 'seed', count, ms: round(summaryOfSeed.ms), boundMs: 60_000, ok: summaryOfSeed.ms < 60_000 });
  return summaryOfSeed;
}

/** One query service per connection, as the engine has one (engine/services.ts). */
const services = new Map<Db, QueryService>();
function serviceFor(db: Db, options?: ConstructorParameters<typeof QueryService>[1]): QueryService {
  let service = services.get(db);
  // The app's service: its views may answer from a saved snapshot behind the file (services.ts).
  if (!service) services.set(db, (service = new QueryService(db, { viewsMayLag: true, ...options })));
  return service;
}

const slowest = { ms: 0, call: '' };
const slowestCpu = { ms: 0, call: '' };

/** One contract call as the engine runs it: input parsed with the contract, then the query. */
async function call(db: Db, name: IncidentCallName, input: unknown): Promise<{ value: unknown } & Timing> {
  const t = await time(async () => {
    const parsed = parseCallInput(name as CallName, input);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const fn = incidentCalls[name] as (s: unknown, i: unknown, reading: 'view') => Promise<unknown>;
    return fn(serviceFor(db), parsed.value, 'view'); // as handlers/incidents.ts asks
  });
  const label = `${name} ${JSON.stringify(input).slice(0, 120)}`;
  if (t.ms > slowest.ms) Object.assign(slowest, { ms: t.ms, call: label });
  if (t.cpuMs > slowestCpu.ms) Object.assign(slowestCpu, { ms: t.cpuMs, call: label });
  return t;
}

/**
 * The verdict against a bound: `ok` on wall time; `cpuOk` on this process's CPU time, the same
 * verdict for a machine where the engine worker has a core to itself (a busy shared machine
 * stretches wall time several-fold; the `machine` line gives its load).
 */
const within = (figure: Record<string, number>, bound: number, key: 'medianMs' | 'maxMs' = 'medianMs') => ({
  ...figure,
  boundMs: bound,
  ok: (figure[key] as number) <= bound,
  cpuOk: (figure[key === 'medianMs' ? 'cpuMedianMs' : 'cpuMaxMs'] as number) <= bound,
});

async function main(): Promise<void> {
  const seed = seeded();
  const db = openDatabase(seed.file);
  const areaId = seed.areaIds[0] as number;
  const now = Date.parse(`${seed.endDay}T18:00:00`);
  out({ bench: 'machine', loadavg: loadavg().map((l) => round(l, 2)), node: process.version });

  // Snapshot load, cold: the first query of a session without a saved snapshot waits for it. It is
  // read in chunks, so other calls are answered in between.
  rmSync(`${seed.file}.snapshot`, { force: true });
  globalThis.gc?.();
  const before = process.memoryUsage();
  const cold = new QueryService(db, { now: () => now });
  const load = await time(() => cold.snapshot());
  globalThis.gc?.();
  const after = process.memoryUsage();
  out({
    bench: 'snapshot-load-cold',
    rows: load.value.size,
    ms: round(load.ms),
    cpuMs: round(load.cpuMs),
    columnsMB: round(load.value.columnBytes / 1e6),
    heapMB: round((after.heapUsed - before.heapUsed) / 1e6),
    arrayBuffersMB: round((after.arrayBuffers - before.arrayBuffers) / 1e6),
    rssMB: round((after.rss - before.rss) / 1e6),
    boundMs: 2000,
    ok: load.ms <= 2000,
    cpuOk: load.cpuMs <= 2000,
  });
  await cold.close(); // saves the snapshot beside the data file

  // Snapshot restore: the next session starts from the saved snapshot, then re-reads the store in
  // the background; calls made meanwhile must stay fast.
  const service = serviceFor(db, { now: () => now });
  const restore = await time(() => service.snapshot());
  const during: Timing[] = [];
  const revalidate = await time(async () => {
    for (let k = 0; service.keeper.reloading; k++) {
      during.push(await call(db, 'countIncidents', { filters: { preset: '30d', weekdays: [k % 7] } }));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
  await service.warmed; // the unfiltered set, address ranks, date order, ledgers: prepared in slices
  out({
    bench: 'snapshot-restore',
    ms: round(restore.ms),
    cpuMs: round(restore.cpuMs),
    boundMs: 300,
    ok: restore.ms <= 300,
    cpuOk: restore.cpuMs <= 300,
  });
  out({
    bench: 'snapshot-background-reread',
    ms: round(revalidate.ms),
    callsMeanwhile: summary(during),
    boundMs: CALL_BUDGET_MS,
    ok: Math.max(0, ...during.map((t) => t.ms)) <= CALL_BUDGET_MS,
    cpuOk: Math.max(0, ...during.map((t) => t.cpuMs)) <= CALL_BUDGET_MS,
    note: 'countIncidents answered from the restored snapshot while the store is re-read in chunks',
  });

  // Filter change → counts, then what the views ask next for the same filter.
  const counts: Timing[] = [];
  const maps: Timing[] = [];
  const wire: Timing[] = [];
  const firstPages: Timing[] = [];
  for (const filters of filterSequence(areaId, seed.endDay)) {
    counts.push(await call(db, 'countIncidents', { filters }));
    const points = await call(db, 'getMapPoints', { filters });
    maps.push(points);
    wire.push(await time(() => encodeWire(points.value).length));
    firstPages.push(
      await call(db, 'listIncidents', { filters, sort: { by: 'date', dir: 'desc' }, limit: 100 }),
    );
  }
  out({ bench: 'filter-counts', ...within(summary(counts), 100) });
  out({ bench: 'map-points', ...within(summary(maps), CALL_BUDGET_MS) });
  out({
    bench: 'map-points-wire-encode',
    ...summary(wire),
    note: 'web host only; Electron IPC clones typed arrays',
  });
  out({ bench: 'list-first-page-date-desc', ...within(summary(firstPages), CALL_BUDGET_MS, 'maxMs') });

  // Table pages per sort key over the whole archive and over an area (first page sorts; then slices).
  for (const by of ['date', 'type', 'address', 'distance'] as const) {
    const first: Timing[] = [];
    const deep: Timing[] = [];
    for (const [k, filters] of [{ area: { areaId } }, { preset: '90d', area: { areaId } }, {}].entries()) {
      for (const dir of ['asc', 'desc'] as const) {
        const sort =
          by === 'distance' && k === 2 ? { by, dir, center: { lat: 41.88, lon: -87.63 } } : { by, dir };
        first.push(await call(db, 'listIncidents', { filters, sort, offset: 0, limit: 100 }));
        deep.push(await call(db, 'listIncidents', { filters, sort, offset: 50_000, limit: 100 }));
      }
    }
    out({ bench: `list-first-page-${by}`, ...within(summary(first), CALL_BUDGET_MS, 'maxMs') });
    out({ bench: `list-deep-page-${by}`, ...within(summary(deep), CALL_BUDGET_MS, 'maxMs') });
  }

  // History views.
  const day = (offset: number) => new Date(now + offset * 86_400_000).toISOString().slice(0, 10);
  const history: [IncidentCallName, unknown][] = [
    ['historySeries', { filters: {}, interval: 'day' }],
    ['historySeries', { filters: { types: ['Theft'] }, interval: 'week' }],
    ['historySeries', { filters: { area: { areaId } }, interval: 'month' }],
    ['comparePeriods', { filters: {}, from: day(-29), to: day(0) }],
    ['comparePeriods', { filters: { area: { areaId } }, from: day(-89), to: day(0) }],
    ['comparePeriods', { filters: { types: ['Robbery'] }, from: day(-400), to: day(-370) }],
    ['hourWeekdayGrid', { filters: {} }],
    ['hourWeekdayGrid', { filters: { preset: '90d', area: { areaId } } }],
    ['topLocations', { filters: {}, limit: 20 }],
    ['topLocations', { filters: { preset: '30d', types: ['Theft'] }, limit: 50 }],
    ['coverageBand', {}],
    ['coverageBand', { areaId }],
    ['getArchiveSummary', {}],
    ['getIncident', { cdid: (load.value.cdid[12345] as number) ?? 1 }],
  ];
  for (const [name, input] of history) {
    const t = await call(db, name, input);
    out({
      bench: `history-${name}`,
      input,
      ms: round(t.ms),
      cpuMs: round(t.cpuMs),
      boundMs: CALL_BUDGET_MS,
      ok: t.ms <= CALL_BUDGET_MS,
      cpuOk: t.cpuMs <= CALL_BUDGET_MS,
    });
  }

  // A sync page: 400 incidents amended and 100 new ones written, then the next filter change. Rolled
  // back afterwards (the same connection sees its own uncommitted writes), so the cached file stays as seeded.
  const snap = await service.snapshot();
  db.exec('BEGIN');
  const cdids: number[] = [];
  try {
    const amend = db.prepare("UPDATE incidents SET type = 'Robbery', last_seen = ? WHERE cdid = ?");
    for (let k = 0; k < 400; k++) {
      const cdid = snap.cdid[(k * 2_477) % snap.size] as number;
      amend.run(now, cdid);
      cdids.push(cdid);
    }
    const copy = db.prepare(
      `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc,
         time_flag, local_day, local_hour, local_weekday, first_seen, last_seen)
       SELECT ?, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc, time_flag,
         local_day, local_hour, local_weekday, first_seen, last_seen FROM incidents WHERE cdid = ?`,
    );
    const top = (db.prepare('SELECT max(cdid) FROM incidents').pluck().get() as number) + 1;
    for (let k = 0; k < 100; k++) {
      copy.run(top + k, cdids[k] as number);
      cdids.push(top + k);
    }
    serviceFor(db).incidentsWritten(cdids);
    const afterSync = await call(db, 'countIncidents', { filters: { preset: '30d', types: ['Robbery'] } });
    out({
      bench: 'sync-page-then-counts',
      ms: round(afterSync.ms),
      cpuMs: round(afterSync.cpuMs),
      boundMs: 100,
      ok: afterSync.ms <= 100,
      cpuOk: afterSync.cpuMs <= 100,
    });
  } finally {
    db.exec('ROLLBACK');
    serviceFor(db).incidentsWritten(cdids);
  }

  out({
    bench: 'max-call',
    maxMs: round(slowest.ms),
    call: slowest.call,
    cpuMaxMs: round(slowestCpu.ms),
    cpuCall: slowestCpu.call,
    boundMs: CALL_BUDGET_MS,
    ok: slowest.ms <= CALL_BUDGET_MS,
    cpuOk: slowestCpu.ms <= CALL_BUDGET_MS,
    note: 'the slowest single call of this run, snapshot load excluded',
  });
  await service.close();
  db.close();
}

await main();
