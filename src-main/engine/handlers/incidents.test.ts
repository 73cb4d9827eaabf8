import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDatabase } from '../../../bench/seed';
import type { EngineEvent } from '../../../src-shared/contract';
import { decodeWire, encodeWire } from '../../../src-shared/wire';
import { dbFileOf } from '../dataDir';
import type { Engine } from '../engine';
import { openEngine, type EngineFixture } from '../testing/engineFixture';
import type { TempDir } from '../testing/tempDir';

/** 1,500 incidents over 200 days to 2025-03-14, the same every run. */
const seed = (dataDir: string) =>
  seedDatabase(dbFileOf(dataDir), { count: 1500, seed: 3, endDay: '2025-03-14', days: 200 });

describe('incident handlers through the engine', () => {
  let fx: EngineFixture;
  let tmp: TempDir;
  let engine: Engine;
  let events: EngineEvent[];

  beforeEach(() => {
    fx = openEngine({ version: '0.0.0', checkOutputs: true, before: seed });
    ({ tmp, engine, events } = fx);
  });
  afterEach(() => fx.close());

  it('answers every query call within the contract (outputs are checked)', async () => {
    const filters = { types: ['Theft', 'Robbery'], area: { areaId: 1 } };
    const calls: [string, unknown][] = [
      ['countIncidents', { filters }],
      ['getMapPoints', { filters }],
      ['listIncidents', { filters, sort: { by: 'distance', dir: 'asc' }, limit: 50 }],
      ['historySeries', { filters, interval: 'week' }],
      ['comparePeriods', { filters, from: '2025-02-01', to: '2025-02-28' }],
      ['hourWeekdayGrid', { filters }],
      ['topLocations', { filters, limit: 5 }],
      ['coverageBand', { areaId: 1 }],
      ['getArchiveSummary', {}],
      ['countIncidents', {}],
    ];
    for (const [name, input] of calls) {
      const result = await engine.dispatch(name, input);
      expect(result, name).toMatchObject({ ok: true });
    }
    const list = await engine.dispatch('listIncidents', { filters, limit: 1 });
    const cdid = list.ok ? (list.value as { rows: { cdid: number }[] }).rows[0]?.cdid : undefined;
    expect(await engine.dispatch('getIncident', { cdid })).toMatchObject({ ok: true, value: { cdid } });
  });

  it('sends map points over JSON for the web host', async () => {
    const result = await engine.dispatch('getMapPoints', { filters: { preset: 'all' } });
    if (!result.ok) throw new Error(result.error.message);
    const back = decodeWire(encodeWire(result.value)) as typeof result.value;
    expect(back.lat).toBeInstanceOf(Float32Array);
    expect(back.cdid).toEqual(result.value.cdid);
  });

  it('answers typed errors for bad input and unknown things', async () => {
    expect(await engine.dispatch('listIncidents', { limit: 501 })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
    expect(await engine.dispatch('countIncidents', { filters: { hours: [25, 1] } })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
    expect(await engine.dispatch('countIncidents', { filters: { area: { areaId: 77 } } })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await engine.dispatch('getIncident', { cdid: 5 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await engine.dispatch('listIncidents', { sort: { by: 'distance', dir: 'asc' } })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
  });

  it('tells the views when another process changed the file, and saves the snapshot on close', async () => {
    const before = await engine.dispatch('countIncidents', {});
    const other = new Database(dbFileOf(tmp.path));
    other.prepare('DELETE FROM incidents WHERE cdid IN (SELECT cdid FROM incidents LIMIT 10)').run();
    other.close();
    await engine.dispatch('countIncidents', {}); // notices, re-reads in the background
    for (let k = 0; k < 100 && !events.some((e) => e.type === 'incidentsChanged'); k++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(events).toContainEqual({ type: 'incidentsChanged' });
    const after = await engine.dispatch('countIncidents', {});
    expect(
      before.ok &&
        after.ok &&
        (before.value as { total: number }).total - (after.value as { total: number }).total,
    ).toBe(10);
    await engine.close();
    expect(existsSync(`${dbFileOf(tmp.path)}.snapshot`)).toBe(true);
  });
});
