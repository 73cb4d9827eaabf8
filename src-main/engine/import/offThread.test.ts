/**
 * A large import's merge runs on its helper thread's own connection (mergeThread.ts), off the
 * engine's call path: a call asked while it merges is answered before the merge ends, and a sync
 * against the simulator that writes its pages meanwhile loses none and never fails "database is
 * locked" — its commits wait for the import's (store/writeTurns.ts).
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src-shared/contract';
import type { ImportPreview, ImportResult } from '../../../src-shared/exports';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import { apiRow } from '../export/exportTesting';
import { connectTo, enterpriseKey, openEngine, type EngineFixture } from '../testing/engineFixture';
import { Imports } from './imports';
import { allDistinct, eachDistinct } from './distinct';

const KEY = 'import-beside-sync-key';
/** The import's cdids: far from the simulator's. */
const BASE = 900_000_000;

let fx: EngineFixture;
afterEach(() => fx.close());

const total = () => fx.engine.context.db.prepare('SELECT count(*) FROM incidents').pluck().get() as number;
const writing = (e: EngineEvent): e is Extract<EngineEvent, { type: 'importProgress' }> =>
  e.type === 'importProgress' && e.phase === 'writing';

/** A previewed JSON file of `n` new rows (the bulk path: indexes and FTS rebuilt inside the merge). */
async function previewed(n: number): Promise<ImportPreview> {
  const rows = Array.from({ length: n }, (_, k) => apiRow(BASE + k, { lat: 41.5 + (k % 1000) / 10_000 }));
  const file = fx.file('many.json', JSON.stringify(rows));
  return fx.call<ImportPreview>('previewImport', { source: { path: file } });
}

/**
 * Makes the merge last (a trigger in the file, so the helper's connection meets it): heavy work for
 * one imported row in `every`, none for any other row.
 */
function slowMerge(every: number): void {
  fx.engine.context.db.exec(`CREATE TRIGGER slow_import AFTER INSERT ON incidents
    WHEN new.cdid >= ${BASE} AND new.cdid % ${every} = 0 BEGIN
      SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000) SELECT x FROM c);
    END`);
}

describe('an import merging off the engine thread', () => {
  it('answers a call asked while the merge runs before the merge ends', async () => {
    fx = openEngine({ host: 'cli', version: 't' });
    const pv = await previewed(40_000);
    slowMerge(2_000);
    await fx.call('countIncidents', { filters: { preset: 'all' } }); // the snapshot is loaded
    const run = fx.call<ImportResult>('runImport', { importId: pv.importId });
    await fx.waitFor(writing, 60_000);
    const counted = await fx.call<{ total: number }>('countIncidents', { filters: { preset: 'all' } });
    // Answered while the merge still ran: the import had not ended (it announces its end).
    expect(fx.events.some((e) => e.type === 'incidentsChanged')).toBe(false);
    expect(counted.total).toBe(0); // the merge has not committed
    expect(await run).toMatchObject({ inserted: 40_000 });
    expect(fx.events.some((e) => e.type === 'incidentsChanged')).toBe(true);
    expect(total()).toBe(40_000);
  }, 120_000);
});

describe('a sync beside a large import', () => {
  let sim: Simulator;
  beforeAll(async () => {
    // Slow answers, so the backfill's pages go on arriving while the import merges.
    sim = await startSimulator({
      seed: 5,
      spanDays: 40,
      keys: [enterpriseKey(KEY)],
      faults: { latencyMs: 200 },
    });
  });
  afterAll(() => sim.close());

  it('writes every page and every imported row, never "database is locked"', async () => {
    fx = openEngine({ host: 'cli', version: 't' });
    await connectTo(fx.engine, sim.url, KEY);
    const shape = { kind: 'circle' as const, lat: 41.8837, lon: -87.6289, radiusMi: 1.5 };
    const area = await fx.call<{ id: number }>('createArea', { name: 'Loop', shape });
    const pv = await previewed(40_000);
    slowMerge(1_000);
    // A write on the engine's connection that met the merge's lock would fail at once, not wait.
    fx.engine.context.db.pragma('busy_timeout = 50');

    await fx.call('startSync', { areaIds: [area.id] });
    const synced = (e: EngineEvent) => e.type === 'syncProgress' && e.state === 'running' && e.new > 0;
    await fx.waitFor((e): e is EngineEvent => synced(e), 60_000);
    const result = await fx.call<ImportResult>('runImport', { importId: pv.importId });
    const importedAt = fx.events.length;
    const end = await fx.waitFor(
      (e): e is Extract<EngineEvent, { type: 'syncProgress' }> =>
        e.type === 'syncProgress' && ['done', 'failed', 'cancelled'].includes(e.state),
      120_000,
    );
    // The sync went on after the import's commit: its pages came during and after the merge.
    expect(fx.events.indexOf(end)).toBeGreaterThan(importedAt);
    expect(end).toMatchObject({ state: 'done', areaId: area.id });
    expect(JSON.stringify(fx.events)).not.toMatch(/locked/i);

    expect(result).toMatchObject({ inserted: 40_000 });
    const truth = sim.groundTruth({ ...shape, key: KEY });
    expect(truth.length).toBeGreaterThan(1_000); // pages of 500: several
    const held = fx.engine.context.db.prepare('SELECT 1 FROM incidents WHERE cdid = ?').pluck();
    expect(truth.filter((t) => held.get(t.cdid) === undefined).map((t) => t.cdid)).toEqual([]);
    const imported = fx.engine.context.db
      .prepare('SELECT count(*) FROM incidents WHERE cdid >= ?')
      .pluck()
      .get(BASE) as number;
    expect(imported).toBe(40_000);
    expect(total()).toBeGreaterThanOrEqual(40_000 + truth.length); // and rows near the area, kept too
  }, 180_000);

  it('starts a sync asked during the merge in its turn: the engine answers meanwhile, every row lands', async () => {
    fx = openEngine({ host: 'cli', version: 't' });
    await connectTo(fx.engine, sim.url, KEY);
    const shape = { kind: 'circle' as const, lat: 41.8837, lon: -87.6289, radiusMi: 1.5 };
    const area = await fx.call<{ id: number }>('createArea', { name: 'Loop', shape });
    const pv = await previewed(40_000);
    slowMerge(1_000);
    await fx.call('countIncidents', { filters: { preset: 'all' } }); // the snapshot is loaded
    const run = fx.call<ImportResult>('runImport', { importId: pv.importId });
    await fx.waitFor(writing, 60_000);

    // The run's start (its lock, its sync_runs and sync_jobs rows) waits for the merge's commit.
    const asked = performance.now();
    const started = fx.call<number[]>('startSync', { areaIds: [area.id] });
    const counted = await fx.call<{ total: number }>('countIncidents', { filters: { preset: 'all' } });
    expect(performance.now() - asked).toBeLessThan(1_000);
    expect(counted.total).toBe(0); // answered while the merge still ran
    expect(fx.events.some((e) => e.type === 'incidentsChanged')).toBe(false);
    // Another engine-thread write meanwhile never fails for the merge: it went in before the merge
    // took the write lock, or it is made in its turn after the commit (writesDuringMerge.test.ts).
    const edit = fx.call<{ name: string }>('createArea', { name: 'Later', shape });

    expect(await run).toMatchObject({ inserted: 40_000 });
    expect(await edit).toMatchObject({ name: 'Later' });
    await started;
    const end = await fx.waitFor(
      (e): e is Extract<EngineEvent, { type: 'syncProgress' }> =>
        e.type === 'syncProgress' && ['done', 'failed', 'cancelled'].includes(e.state),
      120_000,
    );
    expect(end).toMatchObject({ state: 'done', areaId: area.id });
    expect(JSON.stringify(fx.events)).not.toMatch(/locked/i);
    const truth = sim.groundTruth({ ...shape, key: KEY });
    const held = fx.engine.context.db.prepare('SELECT 1 FROM incidents WHERE cdid = ?').pluck();
    expect(truth.filter((t) => held.get(t.cdid) === undefined).map((t) => t.cdid)).toEqual([]);
    const runs = fx.engine.context.db
      .prepare("SELECT state FROM sync_runs WHERE area_id = ? AND state = 'done'")
      .all(area.id);
    expect(runs).toHaveLength(1);
  }, 180_000);
});

describe('placing unplaced rows off the engine thread', () => {
  const CHICAGO = path.join(__dirname, 'places/fixtures/chicago-crimes-2016-01-01-to-03.csv');
  const mapping = {
    name: 'Chicago portal',
    id: 'ID',
    type: 'Primary Type',
    address: 'Block',
    date: 'Date',
    dateStyle: 'auto' as const,
    location: { kind: 'latlon' as const, lat: 'Latitude', lon: 'Longitude' },
    keep: [],
  };

  it('places on the helper thread exactly as on the engine thread', async () => {
    const outcomes = [];
    for (const helperMinRows of [100, Infinity]) {
      fx = openEngine({ host: 'cli', version: 't' });
      const ctx = fx.engine.context;
      const imports = new Imports({ ...ctx, query: ctx.services.query }, Date.now, { helperMinRows });
      const pv = await imports.preview({ path: CHICAGO }, mapping);
      await imports.run(pv.importId, 'skip');
      const { cdids, ...placed } = await imports.place();
      outcomes.push({
        placed,
        cdids: [...cdids].sort((a, b) => a - b),
        rows: ctx.db.prepare('SELECT cdid, address, lat, lon, source FROM incidents ORDER BY cdid').all(),
        left: ctx.db.prepare('SELECT count(*) FROM unplaced_incidents').pluck().get(),
      });
      if (helperMinRows === 100) await fx.close();
    }
    const [thread, here] = outcomes as [(typeof outcomes)[number], (typeof outcomes)[number]];
    expect(thread.placed.tried).toBe(188);
    expect(thread.placed.placed).toBeGreaterThan(100);
    expect(thread).toEqual(here);
  });
});

describe('judging id columns off the engine thread', () => {
  it('finds a repeat in a long column on the helper thread as a sort here does', async () => {
    const n = 60_000;
    const distinct = Float64Array.from({ length: n }, (_, k) => (k * 7919) % n);
    const repeated = distinct.slice();
    repeated[n - 1] = repeated[3] as number;
    expect(await eachDistinct([distinct, repeated, distinct.subarray(0, 10)])).toEqual([true, false, true]);
    expect([allDistinct(distinct), allDistinct(repeated)]).toEqual([true, false]);
  });
});
