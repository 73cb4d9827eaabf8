/**
 * The live search's other readings of the spec, as options: great-circle distance instead of degree
 * space, an inclusive `since`, a lower maximum radius (a 400) and a silent radius clamp.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { degreesBetween, milesBetween } from '../../src-shared/geo';
import type { Simulator } from '../types';
import { get, localDate, LOOP, searchCrimes, start } from './harness';

const ARC_MI = (3958.8 * Math.PI) / 180;
const sims: Simulator[] = [];
const open = async (o: Parameters<typeof start>[0]): Promise<Simulator> => {
  const s = await start({ scale: 'small', ...o });
  sims.push(s);
  return s;
};
let plain: Simulator;
beforeAll(async () => {
  plain = await open({});
});
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
});

const all = { ...LOOP, max_records: 500 };
const cdids = (rows: { cdid: number }[]): number[] => rows.map((r) => r.cdid).sort((a, b) => a - b);

describe('searchDistance', () => {
  it("'degrees' (default) keeps sqrt(Δlat² + Δlon²) ≤ radius; 'great-circle' keeps radius degrees of arc", async () => {
    const round = await open({ searchDistance: 'great-circle' });
    const q = { ...all, radius: 0.012, since: '2025-11-01', sort_by: 'distance', sort_order: 'ASC' };
    const deg = await searchCrimes(plain, q);
    const arc = await searchCrimes(round, q);
    expect(deg.length).toBeGreaterThan(20);
    expect(arc.length).toBeLessThan(500);
    for (const c of deg) expect(degreesBetween(c.lat, c.lon, LOOP.lat, LOOP.lon)).toBeLessThanOrEqual(0.012);
    for (const c of arc)
      expect(milesBetween(LOOP.lat, LOOP.lon, c.lat, c.lon)).toBeLessThanOrEqual(0.012 * ARC_MI);
    // Away from the equator a degree of longitude is shorter on the ground: great-circle reaches
    // farther east and west, so it finds incidents the degree circle does not (and none it lacks).
    const extra = arc.filter((c) => degreesBetween(c.lat, c.lon, LOOP.lat, LOOP.lon) > 0.012);
    expect(extra.length).toBeGreaterThan(0);
    const arcSet = new Set(arc.map((c) => c.cdid));
    expect(deg.filter((c) => !arcSet.has(c.cdid))).toEqual([]);
  });
});

describe('sinceMode', () => {
  it("'exclusive' (default) serves what occurred after the day; 'inclusive' adds that day's incidents", async () => {
    const incl = await open({ sinceMode: 'inclusive' });
    const day = '2025-11-15';
    const truth = plain.groundTruth({
      lat: LOOP.lat,
      lon: LOOP.lon,
      radiusDeg: 0.004,
      key: 'ent-key',
      since: '2025-11-14T00:00:00Z',
    });
    const q = { ...all, radius: 0.004, since: day, sort_order: 'ASC' };
    const ex = cdids(await searchCrimes(plain, q));
    const inc = cdids(await searchCrimes(incl, q));
    const onDay = truth.filter((t) => localDate(t.occurredAt, t.timezone) === day).map((t) => t.cdid);
    const after = truth.filter((t) => localDate(t.occurredAt, t.timezone) > day).map((t) => t.cdid);
    expect(onDay.length).toBeGreaterThan(0);
    expect(inc.length).toBeLessThan(500);
    expect(ex).toEqual(after.sort((a, b) => a - b));
    expect(inc).toEqual([...after, ...onDay].sort((a, b) => a - b));
  });
});

describe('maxRadiusDeg', () => {
  it('a radius above it is a 400 naming radius; at it, a 200', async () => {
    const small = await open({ maxRadiusDeg: 0.05 });
    const over = await get(small, '/crimes.json', { key: 'ent-key', ...LOOP, radius: 0.051 });
    expect(over.status).toBe(400);
    expect((over.json() as { errors: string[] }).errors[0]).toMatch(/^radius/);
    expect((await get(small, '/crimes.json', { key: 'ent-key', ...LOOP, radius: 0.05 })).status).toBe(200);
  });
});

describe('radiusClampMi', () => {
  it('silently searches at most that many miles: a 200 that looks complete but misses the edge', async () => {
    const clamped = await open({ radiusClampMi: 0.5 });
    const q = { ...all, radius: 0.02, sort_by: 'distance', sort_order: 'DESC', max_records: 1 };
    const [farClamped] = await searchCrimes(clamped, q);
    const [far] = await searchCrimes(plain, q);
    expect(far).toBeDefined();
    expect(degreesBetween(far!.lat, far!.lon, LOOP.lat, LOOP.lon)).toBeGreaterThan(0.0145);
    expect(degreesBetween(farClamped!.lat, farClamped!.lon, LOOP.lat, LOOP.lon)).toBeLessThanOrEqual(
      0.5 * 0.01448,
    );
    // Below the clamp nothing changes.
    const near = { ...all, radius: 0.005, sort_order: 'ASC' };
    expect(cdids(await searchCrimes(clamped, near))).toEqual(cdids(await searchCrimes(plain, near)));
  });
});
