import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDatabase } from '../../../bench/seed';
import type { NearRepeatOutput } from '../../../src-shared/analysis';
import { dbFileOf } from '../dataDir';
import type { Engine } from '../engine';
import { openEngine, type EngineFixture } from '../testing/engineFixture';
import { FEET } from './knox';

/** 1,500 incidents over 200 days, a quarter of them repeated a day later at the same block. */
function seedWithNearRepeats(dataDir: string): void {
  const file = dbFileOf(dataDir);
  seedDatabase(file, { count: 1500, seed: 3, endDay: '2025-03-14', days: 200 });
  const db = new Database(file);
  db.prepare(
    `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc,
       time_flag, local_day, local_hour, local_weekday, first_seen, last_seen)
     SELECT cdid + 5000000, type, address, lat, lon, link || '-again', date_raw,
       strftime('%Y-%m-%dT%H:%M', occurred_local, '+1 day'), timezone, occurred_utc + 86400000, time_flag,
       date(local_day, '+1 day'), local_hour, (local_weekday + 1) % 7, first_seen, last_seen
     FROM incidents WHERE cdid % 4 = 0 AND local_day < '2025-03-14'`,
  ).run();
  db.close();
}

type Ok<T> = { ok: true; value: T };

describe('a significant Knox cell lists its pairs', () => {
  let fx: EngineFixture;
  let engine: Engine;
  beforeEach(() => {
    fx = openEngine({ version: '0.0.0', checkOutputs: true, before: seedWithNearRepeats });
    ({ engine } = fx);
  });
  afterEach(() => fx.close());

  it('names both incidents of each pair (id, type, block, instant and zone), feet and days apart', async () => {
    const r = (await engine.dispatch('analyzeNearRepeat', {
      filters: { preset: 'all', area: { areaId: 1 } },
      spaceBands: [0, 400, 800],
      spaceUnit: 'ft',
      timeBandsDays: [0, 1, 14],
    })) as Ok<NearRepeatOutput>;
    expect(r).toMatchObject({ ok: true });
    const near = r.value.cells[0]!;
    expect(near.significant).toBe(true);
    expect(near.pairs!.length).toBe(Math.min(near.observed, 1000));
    for (const c of r.value.cells) if (!c.significant) expect(c.pairs).toBeUndefined();
    const again = near.pairs!.find((p) => Math.abs(p.a.cdid - p.b.cdid) === 5_000_000)!;
    expect(again).toBeTruthy();
    expect(again.distance).toBe(0);
    expect(again.days).toBe(1);
    expect(again.a.address).toBe(again.b.address);
    expect(Math.abs(again.a.utc - again.b.utc)).toBe(86_400_000);
    expect(again.a.zone).toBe('America/Chicago');
    for (const p of near.pairs!) {
      expect(p.distance).toBeLessThanOrEqual(400);
      expect(p.days).toBeLessThanOrEqual(1);
      expect(p.a.type).not.toBe('');
    }
    // In metres the same pairs, their distances converted.
    const m = (await engine.dispatch('analyzeNearRepeat', {
      filters: { preset: 'all', area: { areaId: 1 } },
      spaceBands: [0, 400 * FEET, 800 * FEET],
      spaceUnit: 'm',
      timeBandsDays: [0, 1, 14],
    })) as Ok<NearRepeatOutput>;
    const far = near.pairs!.reduce((a, b) => (b.distance > a.distance ? b : a));
    const same = m.value.cells[0]!.pairs!.find((p) => p.a.cdid === far.a.cdid && p.b.cdid === far.b.cdid)!;
    expect(same.distance).toBeCloseTo(far.distance * FEET, 0);
  });
});
