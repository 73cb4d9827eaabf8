/** Detail: the incident with its description; 404 for unknown cdids and cdids outside the window; 400 for non-integers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../types';
import { get, searchCrimes, start, type Crime } from './harness';

let sim: Simulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());

const QUIET = { lat: 39.76, lon: -104.95, radius: 0.02 };
const DAY = 86_400_000;

describe('detail', () => {
  it('returns the search incident plus its description, at the top level', async () => {
    const [first] = await searchCrimes(sim, { ...QUIET, max_records: 1 });
    expect(first).toBeDefined();
    const res = await get(sim, `/crimes/${first?.cdid}.json`, { key: 'dev-key' });
    expect(res.status).toBe(200);
    const d = res.json() as Crime;
    expect(Object.keys(d)).toEqual(['type', 'address', 'lat', 'lon', 'cdid', 'link', 'date', 'description']);
    const { description, ...rest } = d;
    expect(rest).toEqual(first);
    expect(description).toMatch(/Simulated record/);
  });

  it('unknown cdid is a 404 with an errors body', async () => {
    const res = await get(sim, '/crimes/999999999.json', { key: 'dev-key' });
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ errors: ['cdid 999999999 not found'] });
  });

  it('a cdid reported before the window is a 404 for Developer and a 200 for a longer window', async () => {
    const now = sim.clock.nowMs();
    const old = sim
      .groundTruth({ ...QUIET, radiusDeg: QUIET.radius, windowDays: 365 })
      .find((t) => now - Date.parse(t.reportedAt) > 120 * DAY && now - Date.parse(t.reportedAt) < 170 * DAY);
    expect(old).toBeDefined();
    expect((await get(sim, `/crimes/${old?.cdid}.json`, { key: 'dev-key' })).status).toBe(404);
    expect((await get(sim, `/crimes/${old?.cdid}.json`, { key: 'annual-key' })).status).toBe(200);
  });

  it('a cdid not yet reported at the clock is a 404 until the clock passes its report time', async () => {
    const late = await start({ scale: 'tiny' });
    try {
      const area = { lat: 40, lon: -95, radiusDeg: 30, windowDays: 3 };
      const before = new Set(late.groundTruth(area).map((t) => t.cdid));
      const start = late.clock.nowMs();
      late.clock.advance(36 * 3_600_000);
      // No evolve(): what appears occurred before the start and was reported after it.
      const revealed = late
        .groundTruth(area)
        .find((t) => !before.has(t.cdid) && Date.parse(t.occurredAt) < start);
      expect(revealed).toBeDefined();
      expect((await get(late, `/crimes/${revealed?.cdid}.json`, { key: 'dev-key' })).status).toBe(200);
      late.clock.set(start);
      expect((await get(late, `/crimes/${revealed?.cdid}.json`, { key: 'dev-key' })).status).toBe(404);
    } finally {
      await late.close();
    }
  });

  it.each(['abc', '-5', '1.5', '0', '1e3', '99999999999999999999'])(
    'cdid %s is a 400 naming cdid',
    async (cdid) => {
      const res = await get(sim, `/crimes/${cdid}.json`, { key: 'dev-key' });
      expect(res.status).toBe(400);
      expect((res.json() as { errors: string[] }).errors[0]).toMatch(/^cdid /);
    },
  );
});
