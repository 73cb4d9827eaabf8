/** Change over time, seen through the API: arrivals, amendments (type or address) and removals. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../types';
import { LOOP, get, start, type Crime } from './harness';

let sim: Simulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());

const HOUR = 3_600_000;
const area = { ...LOOP, radiusDeg: 0.03 };
const detail = async (s: Simulator, cdid: number) => get(s, `/crimes/${cdid}.json`, { key: 'ent-key' });

describe('evolve', () => {
  it('adds, amends and removes incidents, and the API shows it', async () => {
    sim.clock.advance(6 * HOUR);
    const before = new Map(sim.groundTruth({ ...area, key: 'ent-key' }).map((t) => [t.cdid, t]));
    const change = sim.evolve({ add: 10, amend: 4, remove: 3, area });
    expect(change.added.length).toBeGreaterThanOrEqual(10);
    expect(change.amended).toHaveLength(4);
    expect(change.removed).toHaveLength(3);

    const after = new Map(sim.groundTruth({ ...area, key: 'ent-key' }).map((t) => [t.cdid, t]));
    const extras = change.added.slice(-10);
    for (const cdid of extras) {
      expect(after.has(cdid)).toBe(true);
      expect((await detail(sim, cdid)).status).toBe(200);
    }
    for (const cdid of change.amended) {
      const was = before.get(cdid);
      const res = await detail(sim, cdid);
      expect(res.status).toBe(200);
      const now = res.json() as Crime;
      expect(was).toBeDefined();
      expect(now.type !== was?.type || now.address !== was?.address).toBe(true);
      expect(after.get(cdid)?.revision).toBe(1);
    }
    for (const cdid of change.removed) {
      expect(before.has(cdid)).toBe(true);
      expect(after.has(cdid)).toBe(false);
      expect((await detail(sim, cdid)).status).toBe(404);
    }
  });

  it('brings the incidents of the elapsed time, some reported only later', () => {
    const t = sim.clock.nowMs();
    sim.clock.advance(48 * HOUR);
    const change = sim.evolve({ amend: 0, remove: 0 });
    expect(change.added.length).toBeGreaterThan(5);
    const visible = new Set(
      sim.groundTruth({ lat: 38, lon: -97, radiusDeg: 40, windowDays: 3 }).map((x) => x.cdid),
    );
    const arrived = change.added.filter((c) => visible.has(c));
    expect(arrived.length).toBeGreaterThan(0);
    expect(t).toBeLessThan(sim.clock.nowMs());
  });

  it('is deterministic for a seed and a sequence of calls', async () => {
    const run = async (): Promise<string> => {
      const s = await start({ scale: 'tiny', seed: 5 });
      try {
        s.clock.advance(12 * HOUR);
        return JSON.stringify([s.evolve(), s.evolve({ add: 3, area })]);
      } finally {
        await s.close();
      }
    };
    expect(await run()).toBe(await run());
  });
});
