import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import {
  missing,
  OTHER_IP_KEY,
  simOptions,
  startHarness,
  storedIn,
  truthIn,
  type Harness,
} from './testing/harness';

let h: Harness<Simulator> | null = null;
const start = async (extra: Record<string, unknown> = {}) =>
  startHarness(await startSimulator(simOptions(extra)));
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('sync against the simulator', () => {
  it('mirrors a small dense area completely, with every request written once', async () => {
    h = await start();
    const shape = { kind: 'circle' as const, lat: 40.7549, lon: -73.984, radiusMi: 0.6 };
    const area = h.service.areas.create({ name: 'Midtown', shape }, h.sim.clock.nowMs());
    const [summary] = await h.service.syncAreas([area], h.conn);
    expect(summary?.state).toBe('done');
    const truth = truthIn(h.sim, shape);
    const got = storedIn(h.db, shape);
    expect(truth.size).toBeGreaterThan(500);
    expect(missing(truth, got)).toEqual([]);
    expect(got.size).toBe(truth.size);
    console.log(
      JSON.stringify({ truth: truth.size, requests: h.sim.stats().total, lb: summary?.lowerBound }),
    );
  });
});

describe('the block with more than 500 incidents on one day', () => {
  it('is mirrored completely although no circle can separate them', async () => {
    h = await start();
    const b = h.sim.bigBlock;
    const shape = { kind: 'circle' as const, lat: b.lat, lon: b.lon, radiusMi: 0.3 };
    const area = h.service.areas.create({ name: 'Big block', shape }, h.sim.clock.nowMs());
    const [summary] = await h.service.syncAreas([area], h.conn);
    expect(summary?.state).toBe('done');
    expect(summary?.incomplete).toEqual([]);
    const truth = truthIn(h.sim, shape);
    const got = storedIn(h.db, shape);
    const atBlock = h.db
      .prepare<[number, number], { n: number }>(
        'SELECT count(*) AS n FROM incidents WHERE lat = ? AND lon = ?',
      )
      .get(b.lat, b.lon);
    expect(atBlock?.n).toBeGreaterThanOrEqual(b.count);
    expect(missing(truth, got)).toEqual([]);
    console.log(
      JSON.stringify({ truth: truth.size, requests: h.sim.stats().total, lb: summary?.lowerBound }),
    );
  });
});

const midtown = { kind: 'circle' as const, lat: 40.7549, lon: -73.984, radiusMi: 0.6 };

describe('resuming', () => {
  it('finishes an interrupted sync from where it stopped, with the same final set', async () => {
    h = await start();
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const stop = new AbortController();
    const unsub = setInterval(() => {
      if (h && h.events.filter((e) => e.state === 'running').length >= 3) stop.abort();
    }, 1);
    const [first] = await h.service.syncAreas([area], h.conn, { signal: stop.signal });
    clearInterval(unsub);
    expect(first?.state).toBe('cancelled');
    const partial = storedIn(h.db, midtown).size;
    h.reopen();
    const [second] = await h.service.syncAreas([area], h.conn);
    expect(second?.resumed).toBe(true);
    expect(second?.runId).toBe(first?.runId);
    const truth = truthIn(h.sim, midtown);
    expect(missing(truth, storedIn(h.db, midtown))).toEqual([]);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(truth.size);
    // Counted once each across the interruption: nothing was written twice.
    expect(second?.new).toBe(truth.size);
    const states = h.events.map((e) => e.state);
    expect(states).toContain('paused');
    expect(h.events.find((e) => e.state === 'planning' && e.done > 0)).toBeDefined();
  });
});

describe('a sync killed after its last page, before it was finished', () => {
  it('is finished on the next sync without a request, its incidents counted once', async () => {
    h = await start();
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [first] = await h.service.syncAreas([area], h.conn);
    expect(first?.state).toBe('done');
    // What a kill -9 between the last page and the run's end leaves: every job settled, the run running.
    h.db.prepare("UPDATE sync_runs SET state = 'running', finished_at = NULL WHERE id = ?").run(first!.runId);
    const asked = h.sim.stats().total;
    h.reopen();
    const [second] = await h.service.syncAreas([area], h.conn);
    expect(second?.state).toBe('done');
    expect(second?.resumed).toBe(true);
    expect(second?.runId).toBe(first?.runId);
    expect(h.sim.stats().total).toBe(asked);
    expect(second?.new).toBe(truthIn(h.sim, midtown).size);
  });
});

describe('refresh', () => {
  it('picks up new, amended and removed incidents after the data changed', async () => {
    h = await start();
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    await h.service.syncAreas([area], h.conn);
    h.sim.clock.advance(2 * 3_600_000);
    const deg = 0.6 / 69 / Math.cos((midtown.lat * Math.PI) / 180) / 1.5;
    const change = h.sim.evolve({
      add: 15,
      amend: 8,
      remove: 6,
      area: { lat: midtown.lat, lon: midtown.lon, radiusDeg: deg },
    });
    const [r] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn, { depth: 'deep' });
    expect(r?.state).toBe('done');
    const truth = new Map(
      h.sim
        .groundTruth({ lat: midtown.lat, lon: midtown.lon, radiusMi: midtown.radiusMi })
        .map((t) => [t.cdid, t]),
    );
    const got = storedIn(h.db, midtown);
    expect(missing(new Set(truth.keys()), got)).toEqual([]);
    // Anything kept beyond the truth has only left the plan window (the local file outlives it).
    const windowStart = h.sim.clock.nowMs() - 30 * 86_400_000;
    const reported = h.db.prepare<[number], { at: number }>(
      'SELECT occurred_utc AS at FROM incidents WHERE cdid = ?',
    );
    for (const c of [...got].filter((c) => !truth.has(c)))
      expect(reported.get(c)?.at).toBeLessThan(windowStart);
    const row = h.db.prepare<[number], { type: string; address: string; removed_at: number | null }>(
      'SELECT type, address, removed_at FROM incidents WHERE cdid = ?',
    );
    for (const c of change.added.filter((c) => truth.has(c))) expect(row.get(c)?.removed_at).toBeNull();
    for (const c of change.amended) {
      const t = truth.get(c);
      expect(t).toBeDefined();
      expect(row.get(c)).toMatchObject({ type: t?.type, address: t?.address, removed_at: null });
    }
    for (const c of change.removed) expect(row.get(c)?.removed_at).not.toBeNull();
    expect(r?.new).toBeGreaterThanOrEqual(change.added.filter((c) => truth.has(c)).length);
    expect(r?.updated).toBe(change.amended.length);
    expect(r?.removed).toBe(change.removed.length);
  });
});

describe('faults', () => {
  it('completes through 5xx, HTML pages, truncated bodies and a 429 storm, writing only whole answers', async () => {
    h = await start();
    h.sim.setFaults({
      errorRate: 0.15,
      htmlRate: 0.1,
      truncateRate: 0.15,
      storm429: { count: 3, retryAfterSec: 1 },
    });
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [r] = await h.service.syncAreas([area], h.conn);
    h.sim.setFaults({ errorRate: 0, htmlRate: 0, truncateRate: 0 });
    expect(r?.state).toBe('done');
    expect(missing(truthIn(h.sim, midtown), storedIn(h.db, midtown))).toEqual([]);
    const states = new Set(h.events.map((e) => e.state));
    expect(states.has('retrying') || states.has('waiting-rate')).toBe(true);
    const logged = h.db
      .prepare<[], { ok: number; bad: number }>(
        'SELECT sum(status = 200 AND error IS NULL) AS ok, sum(error IS NOT NULL) AS bad FROM request_log',
      )
      .get();
    expect(logged?.bad).toBeGreaterThan(0);
    const urls = h.db.prepare<[], { url: string }>('SELECT url FROM request_log').all();
    // The live surface's key is redacted; the v1 probe's URL never held it (v1 sends it in a header).
    for (const { url } of urls) expect(url).toMatch(/key=REDACTED|\/v1\//);
    for (const { url } of urls) expect(url).not.toContain(h.conn.key);
  });

  it('stops at once on 401 and 403 with what to do', async () => {
    h = await start();
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [bad] = await h.service.syncAreas([area], { ...h.conn, key: 'not-a-key-000' });
    expect(bad?.state).toBe('failed');
    expect(bad?.error?.code).toBe('unauthorized');
    expect(h.events.at(-1)).toMatchObject({ state: 'failed', error: { code: 'unauthorized' } });
    expect(h.sim.stats().total).toBeLessThanOrEqual(4);
    const [elsewhere] = await h.service.syncAreas([area], { ...h.conn, key: OTHER_IP_KEY });
    expect(elsewhere?.error?.code).toBe('ip_not_allowed');
    expect(elsewhere?.error?.message).toMatch(/static IP/);
  });
});

describe('a server that answers nothing for a since before the window', () => {
  it('is asked with no since for the oldest part, so no tile is believed empty and no day is lost', async () => {
    h = await start({ sinceBeforeWindow: 'empty' });
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [r] = await h.service.syncAreas([area], h.conn);
    expect(r?.state).toBe('done');
    const truth = truthIn(h.sim, midtown);
    const got = storedIn(h.db, midtown);
    expect(truth.size).toBeGreaterThan(500);
    expect(missing(truth, got)).toEqual([]);
  });
});
