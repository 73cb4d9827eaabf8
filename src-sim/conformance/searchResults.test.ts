/** Live search: fields and date format, both sort keys and orders, the types filter, since and the window. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRIME_TYPES } from '../../src-shared/crimeTypes';
import type { Simulator } from '../types';
import { LOOP, get, legacyDate, localDate, searchCrimes, start, type Crime } from './harness';

let sim: Simulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());

const DAY = 86_400_000;
const dist = (c: Crime, lat: number, lon: number): number => Math.hypot(c.lat - lat, c.lon - lon);
/** A quiet spot in Denver: fewer than 500 incidents in 90 days within 0.02°, so answers are complete. */
const QUIET = { lat: 39.76, lon: -104.95, radius: 0.02 };

describe('incident fields', () => {
  it('has exactly the spec fields, no description, and the date in local report time', async () => {
    const crimes = await searchCrimes(sim, { ...QUIET, key: 'dev-key', max_records: 500 });
    expect(crimes.length).toBeGreaterThan(20);
    const truth = new Map(
      sim.groundTruth({ ...QUIET, radiusDeg: QUIET.radius, key: 'dev-key' }).map((t) => [t.cdid, t]),
    );
    for (const c of crimes) {
      expect(Object.keys(c)).toEqual(['type', 'address', 'lat', 'lon', 'cdid', 'link', 'date']);
      expect(CRIME_TYPES).toContain(c.type);
      expect(Number.isInteger(c.cdid) && c.cdid > 0).toBe(true);
      expect(c.link).toBe(`https://crime.example.test/incident/${c.cdid}`);
      expect(c.date).toMatch(
        /^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/\d\d (0[1-9]|1[0-2]):[0-5]\d (AM|PM)$/,
      );
      const t = truth.get(c.cdid);
      expect(t).toBeDefined();
      expect(c.date).toBe(legacyDate(t?.reportedAt ?? '', 'America/Denver'));
    }
  });

  it("prints every city's dates in that city's own zone", async () => {
    for (const city of sim.cities) {
      const crimes = await searchCrimes(sim, {
        lat: city.lat,
        lon: city.lon,
        radius: 0.05,
        max_records: 100,
      });
      expect(crimes.length, city.name).toBeGreaterThan(0);
      const truth = new Map(
        sim
          .groundTruth({ lat: city.lat, lon: city.lon, radiusDeg: 0.05, key: 'ent-key' })
          .map((t) => [t.cdid, t]),
      );
      for (const c of crimes) {
        const t = truth.get(c.cdid);
        expect(t?.timezone).toBe(city.timezone);
        expect(c.date).toBe(legacyDate(t?.reportedAt ?? '', city.timezone));
      }
    }
  });

  it('serves exactly the ground truth when the answer is not saturated', async () => {
    const crimes = await searchCrimes(sim, { ...QUIET, key: 'dev-key', max_records: 500 });
    expect(crimes.length).toBeLessThan(500);
    const truth = sim.groundTruth({ ...QUIET, radiusDeg: QUIET.radius, key: 'dev-key' });
    expect(crimes.map((c) => c.cdid).sort((a, b) => a - b)).toEqual(truth.map((t) => t.cdid));
  });
});

describe('sorting', () => {
  const q = { ...LOOP, radius: 0.006, max_records: 500 };

  it('sort_by=date orders by report time, DESC the exact reverse of ASC', async () => {
    const truth = new Map(
      sim.groundTruth({ ...QUIET, radiusDeg: QUIET.radius, key: 'ent-key' }).map((t) => [t.cdid, t]),
    );
    const quiet = { ...QUIET, max_records: 500, sort_by: 'date' };
    const asc = await searchCrimes(sim, { ...quiet, sort_order: 'ASC' });
    const desc = await searchCrimes(sim, { ...quiet, sort_order: 'DESC' });
    expect(asc.length).toBeGreaterThan(50);
    expect(asc.length).toBeLessThan(500);
    expect(desc.map((c) => c.cdid)).toEqual(asc.map((c) => c.cdid).reverse());
    const reported = asc.map((c) => Date.parse(truth.get(c.cdid)?.reportedAt ?? ''));
    for (let i = 1; i < reported.length; i++)
      expect(reported[i]).toBeGreaterThanOrEqual(reported[i - 1] ?? 0);
  });

  it('sort_by=date DESC returns the most recently reported first (the newest 500 of a saturated area)', async () => {
    const desc = await searchCrimes(sim, { ...q, sort_by: 'date' });
    const truth = sim.groundTruth({ ...LOOP, radiusDeg: 0.006, key: 'ent-key' });
    expect(truth.length).toBeGreaterThan(500);
    const newest = truth
      .sort((a, b) => Date.parse(b.reportedAt) - Date.parse(a.reportedAt) || b.cdid - a.cdid)
      .slice(0, 500)
      .map((t) => t.cdid);
    expect(desc.map((c) => c.cdid)).toEqual(newest);
  });

  it('sort_by=distance orders by distance from the centre, ties by cdid, DESC the reverse', async () => {
    const asc = await searchCrimes(sim, { ...q, sort_by: 'distance', sort_order: 'ASC' });
    for (let i = 1; i < asc.length; i++) {
      const [a, b] = [asc[i - 1] as Crime, asc[i] as Crime];
      const d = dist(b, LOOP.lat, LOOP.lon) - dist(a, LOOP.lat, LOOP.lon);
      expect(d > 0 || (d === 0 && b.cdid > a.cdid)).toBe(true);
    }
    const quiet = { ...QUIET, max_records: 500, sort_by: 'distance' };
    const quietAsc = await searchCrimes(sim, { ...quiet, sort_order: 'ASC' });
    const quietDesc = await searchCrimes(sim, { ...quiet, sort_order: 'DESC' });
    expect(quietAsc.length).toBeLessThan(500);
    expect(quietDesc.map((c) => c.cdid)).toEqual(quietAsc.map((c) => c.cdid).reverse());
    // Saturated ASC keeps the nearest 500: nothing left out is nearer than the farthest kept.
    const farthest = dist(asc[asc.length - 1] as Crime, LOOP.lat, LOOP.lon);
    const kept = new Set(asc.map((c) => c.cdid));
    const nearerLeftOut = sim
      .groundTruth({ ...LOOP, radiusDeg: 0.006, key: 'ent-key' })
      .filter((t) => !kept.has(t.cdid) && Math.hypot(t.lat - LOOP.lat, t.lon - LOOP.lon) < farthest);
    expect(nearerLeftOut).toEqual([]);
  });

  it('every result lies within the radius, measured in degree space', async () => {
    const crimes = await searchCrimes(sim, { ...q, sort_by: 'distance', sort_order: 'DESC', radius: 0.004 });
    expect(crimes.length).toBeGreaterThan(0);
    for (const c of crimes) expect(dist(c, LOOP.lat, LOOP.lon)).toBeLessThanOrEqual(0.004);
  });
});

describe('types filter', () => {
  it('keeps only the listed types, case-insensitively, and matches ground truth', async () => {
    const crimes = await searchCrimes(sim, {
      ...QUIET,
      max_records: 500,
      key: 'dev-key',
      types: 'theft, ASSAULT',
    });
    expect(crimes.length).toBeGreaterThan(0);
    expect(new Set(crimes.map((c) => c.type))).toEqual(new Set(['Theft', 'Assault']));
    const truth = sim.groundTruth({
      ...QUIET,
      radiusDeg: QUIET.radius,
      key: 'dev-key',
      types: ['Theft', 'Assault'],
    });
    expect(crimes.map((c) => c.cdid).sort((a, b) => a - b)).toEqual(truth.map((t) => t.cdid));
  });
});

describe('since and the plan window', () => {
  it('since keeps incidents that occurred on a local date after it (report dates may be later)', async () => {
    const all = sim.groundTruth({ ...QUIET, radiusDeg: QUIET.radius, key: 'dev-key' });
    const occurred = (t: (typeof all)[number]): string => localDate(t.occurredAt, t.timezone);
    const reported = (t: (typeof all)[number]): string => localDate(t.reportedAt, t.timezone);
    // A day on which an incident occurred and was reported only the next day or later.
    const since = all
      .map((t) => (reported(t) > occurred(t) ? occurred(t) : ''))
      .filter((d) => d > '2025-10-01')[0];
    expect(since).toBeDefined();
    const crimes = await searchCrimes(sim, {
      ...QUIET,
      key: 'dev-key',
      since: since ?? '',
      max_records: 500,
    });
    const expected = all.filter((t) => occurred(t) > (since ?? '')).map((t) => t.cdid);
    expect(expected.length).toBeGreaterThan(0);
    expect(crimes.map((c) => c.cdid).sort((a, b) => a - b)).toEqual(expected);
    // Not served: what occurred on the since day itself, even when it was reported after it.
    const onTheDay = all.filter((t) => occurred(t) === since);
    expect(onTheDay.some((t) => reported(t) > (since ?? ''))).toBe(true);
    expect(onTheDay.some((t) => crimes.some((c) => c.cdid === t.cdid))).toBe(false);
  });

  it('serves only incidents reported within the plan window (Developer 90 days, Pro annual ~6 months)', async () => {
    const now = sim.clock.nowMs();
    const reportedAge = (cdid: number, truth: { cdid: number; reportedAt: string }[]): number =>
      (now - Date.parse(truth.find((t) => t.cdid === cdid)?.reportedAt ?? '')) / DAY;
    const oldest = async (key: string): Promise<number> => {
      const crimes = await searchCrimes(sim, { ...QUIET, key, max_records: 500, sort_order: 'ASC' });
      return reportedAge(
        crimes[0]?.cdid ?? 0,
        sim.groundTruth({ ...QUIET, radiusDeg: QUIET.radius, windowDays: 1000 }),
      );
    };
    sim.resetRateLimits();
    const dev = await oldest('dev-key');
    const annual = await oldest('annual-key');
    expect(dev).toBeLessThanOrEqual(90);
    expect(dev).toBeGreaterThan(85);
    expect(annual).toBeLessThanOrEqual(182);
    expect(annual).toBeGreaterThan(170);
  });

  it('a since older than the window is a 200 with what the window holds', async () => {
    const res = await get(sim, '/crimes.json', {
      ...QUIET,
      key: 'dev-key',
      since: '2020-01-01',
      max_records: 500,
    });
    expect(res.status).toBe(200);
    const crimes = (res.json() as { crimes: Crime[] }).crimes;
    const window = sim.groundTruth({ ...QUIET, radiusDeg: QUIET.radius, key: 'dev-key' });
    expect(crimes.map((c) => c.cdid).sort((a, b) => a - b)).toEqual(window.map((t) => t.cdid));
  });

  it("with sinceBeforeWindow 'empty' (the spec's literal rule) such a since is a 200 with no crimes", async () => {
    const strict = await start({ sinceBeforeWindow: 'empty', scale: 'tiny' });
    try {
      const stale = await get(strict, '/crimes.json', { ...QUIET, key: 'dev-key', since: '2020-01-01' });
      expect(stale.status).toBe(200);
      expect(stale.json()).toEqual({ crimes: [] });
      const inside = await get(strict, '/crimes.json', { ...QUIET, key: 'dev-key', since: '2025-10-01' });
      expect((inside.json() as { crimes: Crime[] }).crimes.length).toBeGreaterThan(0);
    } finally {
      await strict.close();
    }
  });
});
