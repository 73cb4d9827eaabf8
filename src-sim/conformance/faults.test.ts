/** Fault injection: 5xx share, HTML error pages, truncated bodies, latency and 429 storms, at start and at runtime. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Simulator } from '../types';
import { LOOP, get, start } from './harness';

let sim: Simulator;
beforeAll(async () => {
  sim = await start({ scale: 'tiny' });
});
afterAll(() => sim.close());
beforeEach(() =>
  sim.setFaults({ errorRate: 0, htmlRate: 0, truncateRate: 0, latencyMs: 0, storm429: null, rate429: 0 }),
);

const q = { key: 'ent-key', lat: LOOP.lat, lon: LOOP.lon, radius: 0.01, max_records: 20 };

describe('faults', () => {
  it('none by default: every answer is a 200 with JSON', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await get(sim, '/crimes.json', q);
      expect(res.status).toBe(200);
      expect(() => res.json()).not.toThrow();
    }
  });

  it('errorRate 1 turns every authenticated request into a 5xx with an errors body', async () => {
    sim.setFaults({ errorRate: 1 });
    for (let i = 0; i < 10; i++) {
      const res = await get(sim, '/crimes.json', q);
      expect([500, 502, 503]).toContain(res.status);
      expect(res.json()).toEqual({ errors: ['internal server error (injected fault)'] });
    }
    expect((await get(sim, '/crimes.json', { ...q, key: 'nope' })).status).toBe(401);
  });

  it('htmlRate 1 answers with an HTML 502/503 page', async () => {
    sim.setFaults({ htmlRate: 1 });
    const res = await get(sim, '/crimes.json', q);
    expect([502, 503]).toContain(res.status);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/^<html>/);
  });

  it('truncateRate 1 cuts 200 bodies mid-JSON, consistently with Content-Length', async () => {
    sim.setFaults({ truncateRate: 1 });
    const res = await get(sim, '/crimes.json', q);
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(res.text));
    expect(() => res.json()).toThrow();
    expect((await get(sim, '/crimes.json', { ...q, lat: 100 })).status).toBe(400);
  });

  it('latencyMs delays every response', async () => {
    sim.setFaults({ latencyMs: 120 });
    const t0 = performance.now();
    await get(sim, '/crimes.json', q);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(115);
  });

  it('a 429 storm of a given count, with its Retry-After, then normal service', async () => {
    sim.setFaults({ storm429: { count: 3, retryAfterSec: 7 } });
    for (let i = 0; i < 3; i++) {
      const res = await get(sim, '/crimes.json', q);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('7');
    }
    expect((await get(sim, '/crimes.json', q)).status).toBe(200);
  });

  it('rate429 answers a share of requests with a 429 (Retry-After 1) at random', async () => {
    sim.setFaults({ rate429: 0.5 });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await get(sim, '/crimes.json', q);
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get('retry-after')).toBe('1');
    }
    sim.setFaults({ rate429: 0 });
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(5);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(5);
    expect(() => sim.setFaults({ rate429: 2 })).toThrow(/rate429/);
  });

  it('a 429 storm for a duration', async () => {
    sim.setFaults({ storm429: { forMs: 150 } });
    expect((await get(sim, '/crimes.json', q)).status).toBe(429);
    await new Promise((r) => setTimeout(r, 200));
    expect((await get(sim, '/crimes.json', q)).status).toBe(200);
  });

  it('rejects nonsense settings', () => {
    expect(() => sim.setFaults({ errorRate: 2 })).toThrow(RangeError);
    expect(() => sim.setFaults({ storm429: {} })).toThrow(RangeError);
  });

  it('set at start, and deterministic for a seed', async () => {
    const run = async (): Promise<number[]> => {
      const s = await start({ scale: 'tiny', seed: 9, faults: { errorRate: 0.3, htmlRate: 0.1 } });
      try {
        const out: number[] = [];
        for (let i = 0; i < 30; i++) out.push((await get(s, '/crimes.json', q)).status);
        return out;
      } finally {
        await s.close();
      }
    };
    const a = await run();
    expect(a.filter((s) => s !== 200).length).toBeGreaterThan(3);
    expect(a.filter((s) => s === 200).length).toBeGreaterThan(10);
    expect(await run()).toEqual(a);
  });
});
