import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import { readProfile } from './serverProfile';
import { missing, simOptions, startHarness, storedIn, truthIn, type Harness } from './testing/harness';

let h: Harness<Simulator> | null = null;
const start = async (extra: Record<string, unknown> = {}) =>
  startHarness(await startSimulator(simOptions(extra)));
afterEach(async () => {
  await h?.close();
  h = null;
});

const midtown = { kind: 'circle' as const, lat: 40.7549, lon: -73.984, radiusMi: 1.5 };
const urls = (): string[] =>
  h!.db
    .prepare<[], { url: string }>('SELECT url FROM request_log ORDER BY id')
    .all()
    .map((r) => r.url);

describe('a first backfill from wide circles', () => {
  it('asks the whole area as one circle, whose own rows prove the server searched it, and is complete', async () => {
    h = await start();
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [r] = await h.service.syncAreas([area], h.conn);
    expect(r?.state).toBe('done');
    expect(missing(truthIn(h.sim, midtown), storedIn(h.db, midtown))).toEqual([]);
    const radii = urls().map((u) => Number(new URL(u).searchParams.get('radius')));
    expect(Math.max(...radii)).toBeGreaterThan(0.025);
    // The first page's rows reach past the area's edge in both measures: no check request.
    expect(urls().filter((u) => u.includes('sort_by=distance'))).toHaveLength(0);
    expect(readProfile(h.db, h.conn.baseUrl).radius).toMatchObject({ max: null, reading: null });
    expect(readProfile(h.db, h.conn.baseUrl).radius.trusted).toBeGreaterThan(1.5 / 69.09);
    const wider = { kind: 'circle' as const, lat: 39.9568, lon: -86.0134, radiusMi: 2 };
    const second = h.service.areas.create({ name: 'Fishers', shape: wider }, h.sim.clock.nowMs());
    await h.service.syncAreas([second], h.conn);
    expect(urls().filter((u) => u.includes('sort_by=distance')).length).toBeLessThanOrEqual(1);
    expect(missing(truthIn(h.sim, wider), storedIn(h.db, wider))).toEqual([]);
    // The fair bound: ceil(N / 500) of the area's incidents after the run's since.
    expect(r?.fairLowerBound).toBe(Math.ceil(storedIn(h.db, midtown).size / 500));
    expect(h.service.jobs.run(r!.runId)?.fair_lower_bound).toBe(r?.fairLowerBound);
  });

  it('checks a page whose rows stop short of the area (a silent clamp below a page) and is still complete', async () => {
    // Fishers at 2 miles holds fewer than 500 incidents within the 1-mile clamp: a page that is not
    // full, which would look complete; its rows do not reach the area's edge, so it is checked.
    h = await start({ radiusClampMi: 1 });
    const fishers = { kind: 'circle' as const, lat: 39.9568, lon: -86.0134, radiusMi: 2 };
    const area = h.service.areas.create({ name: 'Fishers', shape: fishers }, h.sim.clock.nowMs());
    const [r] = await h.service.syncAreas([area], h.conn);
    expect(r?.state).toBe('done');
    expect(urls().filter((u) => u.includes('sort_by=distance')).length).toBeGreaterThanOrEqual(1);
    expect(readProfile(h.db, h.conn.baseUrl).radius.max!).toBeLessThanOrEqual(1 / 69.09);
    expect(missing(truthIn(h.sim, fishers), storedIn(h.db, fishers))).toEqual([]);
  });

  it('learns that a server measures great-circle distance and asks ground circles from then on', async () => {
    h = await start({ searchDistance: 'great-circle' });
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [r] = await h.service.syncAreas([area], h.conn);
    expect(r?.state).toBe('done');
    expect(readProfile(h.db, h.conn.baseUrl).radius.reading).toBe('great-circle');
    expect(missing(truthIn(h.sim, midtown), storedIn(h.db, midtown))).toEqual([]);
    // After the first page, the whole-area circle is asked as the 1.5-mile ground circle (+2 %), not
    // as the degree circle of its east–west reach (1/cos 40.75° ≈ 1.32 times wider).
    const radii = urls()
      .filter((u) => u.includes('/crimes.json'))
      .map((u) => Number(new URL(u).searchParams.get('radius')));
    expect(radii[0]).toBeGreaterThan(0.028);
    expect(Math.max(...radii.slice(1))).toBeLessThan((1.5 / 69.09) * 1.03);
  });

  it('on a great-circle server a refresh of ground circles removes exactly what the server removed', async () => {
    h = await start({ searchDistance: 'great-circle' });
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    await h.service.syncAreas([area], h.conn);
    h.sim.clock.advance(2 * 3_600_000);
    const change = h.sim.evolve({
      add: 10,
      remove: 8,
      amend: 0,
      area: { lat: midtown.lat, lon: midtown.lon, radiusDeg: 0.012 },
    });
    const before = urls().length;
    const [r] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn, { depth: 'deep' });
    expect(r?.state).toBe('done');
    // The refresh asked ground circles only (none as wide as the area's degree circle, 0.0287°).
    const radii = urls()
      .slice(before)
      .filter((u) => u.includes('/crimes.json'))
      .map((u) => Number(new URL(u).searchParams.get('radius')));
    expect(Math.max(...radii)).toBeLessThan((1.5 / 69.09) * 1.03);
    expect(r?.removed).toBe(change.removed.length);
    const removed = h.db.prepare<[number], { removed_at: number | null }>(
      'SELECT removed_at FROM incidents WHERE cdid = ?',
    );
    for (const c of change.removed) expect(removed.get(c)?.removed_at).not.toBeNull();
    expect(missing(truthIn(h.sim, midtown), storedIn(h.db, midtown))).toEqual([]);
  });

  it('finds a server that silently searches a smaller circle, learns its radius and is still complete', async () => {
    h = await start({ radiusClampMi: 0.6 });
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [r] = await h.service.syncAreas([area], h.conn);
    expect(r?.state).toBe('done');
    expect(missing(truthIn(h.sim, midtown), storedIn(h.db, midtown))).toEqual([]);
    const learned = readProfile(h.db, h.conn.baseUrl).radius;
    expect(learned.max).not.toBeNull();
    expect(learned.max!).toBeLessThanOrEqual(0.6 * 0.01448);
    // The next area starts from circles that fit, without another clamp.
    const other = { kind: 'circle' as const, lat: 41.8837, lon: -87.6289, radiusMi: 1 };
    const second = h.service.areas.create({ name: 'Loop', shape: other }, h.sim.clock.nowMs());
    const before = urls().length;
    await h.service.syncAreas([second], h.conn);
    const radii = urls()
      .slice(before)
      .map((u) => Number(new URL(u).searchParams.get('radius')));
    for (const x of radii) expect(x).toBeLessThanOrEqual(learned.max! + 1e-5);
    expect(missing(truthIn(h.sim, other), storedIn(h.db, other))).toEqual([]);
  });

  it('learns from a 400 that a radius is too wide and asks smaller circles', async () => {
    h = await start({ maxRadiusDeg: 0.015 });
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [r] = await h.service.syncAreas([area], h.conn);
    expect(r?.state).toBe('done');
    expect(missing(truthIn(h.sim, midtown), storedIn(h.db, midtown))).toEqual([]);
    expect(readProfile(h.db, h.conn.baseUrl).radius.max).toBeLessThanOrEqual(0.015);
  });

  it('resumes after a stop in the middle with the same final set', async () => {
    h = await start({ radiusClampMi: 0.6 });
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const stop = new AbortController();
    const timer = setInterval(() => {
      if (h && h.events.filter((e) => e.state === 'running').length >= 4) stop.abort();
    }, 1);
    const [first] = await h.service.syncAreas([area], h.conn, { signal: stop.signal });
    clearInterval(timer);
    expect(first?.state).toBe('cancelled');
    h.reopen();
    const [second] = await h.service.syncAreas([area], h.conn);
    expect(second?.resumed).toBe(true);
    const truth = truthIn(h.sim, midtown);
    expect(missing(truth, storedIn(h.db, midtown))).toEqual([]);
    expect(second?.new).toBe(storedIn(h.db, midtown).size);
  });
});
