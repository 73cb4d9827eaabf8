/** Each error status with its `{ "errors": [...] }` body: 401, 403 (allowlist, X-Forwarded-For), 404, 405, 429. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Simulator } from '../types';
import { LOOP, get, start, type Res } from './harness';

let sim: Simulator;
beforeAll(async () => {
  sim = await start({ scale: 'tiny' });
});
afterAll(() => sim.close());
beforeEach(() => sim.resetRateLimits());

const q = { lat: LOOP.lat, lon: LOOP.lon, radius: 0.01, max_records: 1 };

function expectErrors(res: Res, status: number, pattern: RegExp): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = res.json() as { errors: unknown };
  expect(Object.keys(body as object)).toEqual(['errors']);
  expect(Array.isArray(body.errors) && body.errors.every((m) => typeof m === 'string')).toBe(true);
  expect((body.errors as string[]).join(' ')).toMatch(pattern);
}

describe('401', () => {
  it('missing key', async () => {
    expectErrors(await get(sim, '/crimes.json', q), 401, /key/i);
    expectErrors(await get(sim, '/crimes.json', { ...q, key: '' }), 401, /key/i);
    expectErrors(await get(sim, '/crimes/10000001.json'), 401, /key/i);
  });

  it('invalid key', async () => {
    expectErrors(await get(sim, '/crimes.json', { ...q, key: 'nope' }), 401, /invalid/i);
    expectErrors(await get(sim, '/crimes.json', { ...q, key: 'DEV-KEY' }), 401, /invalid/i);
  });

  it('is checked before parameters and before the allowlist', async () => {
    expect((await get(sim, '/crimes.json', { lat: 'x', key: 'nope' })).status).toBe(401);
    expect(
      (
        await get(
          sim,
          '/crimes.json',
          { ...q, key: 'nope' },
          { headers: { 'X-Forwarded-For': '203.0.113.7' } },
        )
      ).status,
    ).toBe(401);
  });
});

describe('403', () => {
  it('a key used from an address not on its allowlist', async () => {
    expectErrors(await get(sim, '/crimes.json', { ...q, key: 'remote-key' }), 403, /allowlist/);
    expectErrors(await get(sim, '/crimes/10000001.json', { key: 'remote-key' }), 403, /allowlist/);
  });

  it('X-Forwarded-For is ignored without a trusted proxy', async () => {
    const spoof = { headers: { 'X-Forwarded-For': '203.0.113.7' } };
    expect((await get(sim, '/crimes.json', { ...q, key: 'remote-key' }, spoof)).status).toBe(403);
    expect((await get(sim, '/crimes.json', { ...q, key: 'dev-key' }, spoof)).status).toBe(200);
  });

  it('X-Forwarded-For is honoured when the socket address is a trusted proxy', async () => {
    const proxied = await start({ scale: 'tiny', trustedProxies: ['127.0.0.1'] });
    try {
      const via = (ip: string): RequestInit => ({ headers: { 'X-Forwarded-For': ip } });
      expect(
        (await get(proxied, '/crimes.json', { ...q, key: 'remote-key' }, via('203.0.113.7'))).status,
      ).toBe(200);
      expect(
        (await get(proxied, '/crimes.json', { ...q, key: 'remote-key' }, via('198.51.100.1'))).status,
      ).toBe(403);
      // The client cannot prepend its own claim: the right-most untrusted hop counts.
      expect(
        (await get(proxied, '/crimes.json', { ...q, key: 'remote-key' }, via('203.0.113.7, 198.51.100.1')))
          .status,
      ).toBe(403);
      expect((await get(proxied, '/crimes.json', { ...q, key: 'dev-key' }, via('198.51.100.1'))).status).toBe(
        403,
      );
    } finally {
      await proxied.close();
    }
  });
});

describe('404 and 405', () => {
  it.each(['/', '/crimes', '/crimes.xml', '/crime.json', '/crimes/1/2.json', '/v2/incidents'])(
    'unknown route %s',
    async (path) => {
      expectErrors(await get(sim, path, { ...q, key: 'dev-key' }), 404, /route/);
    },
  );

  it('only GET is allowed on the live endpoints', async () => {
    const res = await get(sim, '/crimes.json', { ...q, key: 'dev-key' }, { method: 'POST' });
    expectErrors(res, 405, /GET/);
    expect(res.headers.get('allow')).toBe('GET');
    for (const method of ['HEAD', 'DELETE']) {
      expect((await get(sim, '/crimes/1.json', { key: 'dev-key' }, { method })).status).toBe(405);
    }
  });
});

describe('429', () => {
  /** `n` detail requests (cdid 1 does not exist: 404s that still count), 50 at a time. */
  async function burst(key: string, n: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < n; i += 50) {
      const batch = Array.from({ length: Math.min(50, n - i) }, () => get(sim, '/crimes/1.json', { key }));
      statuses.push(...(await Promise.all(batch)).map((r) => r.status));
    }
    return statuses;
  }

  it.each([
    ['dev-key', 60],
    ['pro-key', 300],
    ['custom-key', 5],
  ])('%s gets %i requests a minute, then 429 with Retry-After', async (key, rate) => {
    const statuses = await burst(key, rate);
    expect(statuses.every((s) => s === 404)).toBe(true);
    const res = await get(sim, '/crimes.json', { ...q, key });
    expectErrors(res, 429, /rate limit/);
    const retry = Number(res.headers.get('retry-after'));
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThanOrEqual(59);
    expect(retry).toBeLessThanOrEqual(60);
  });

  it('is counted per key, and refused requests take no slot', async () => {
    await burst('custom-key', 5);
    expect(await burst('custom-key', 3)).toEqual([429, 429, 429]);
    expect((await get(sim, '/crimes.json', { ...q, key: 'dev-key' })).status).toBe(200);
    const before = sim.stats().byKey['custom-key'];
    expect(before?.rateLimited).toBeGreaterThanOrEqual(3);
  });

  it('frees slots as the 60-second window slides (simulator-time rate clock)', async () => {
    const timed = await start({ scale: 'tiny', rateClock: 'sim' });
    try {
      for (let i = 0; i < 5; i++) {
        expect((await get(timed, '/crimes/1.json', { key: 'custom-key' })).status).toBe(404);
        timed.clock.advance(10_000);
      }
      const refused = await get(timed, '/crimes/1.json', { key: 'custom-key' });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('10');
      timed.clock.advance(10_000);
      expect((await get(timed, '/crimes/1.json', { key: 'custom-key' })).status).toBe(404);
    } finally {
      await timed.close();
    }
  });
});

describe('stats', () => {
  it('counts requests per key and status', async () => {
    sim.resetStats();
    await get(sim, '/crimes.json', { ...q, key: 'dev-key' });
    await get(sim, '/crimes.json', { ...q, key: 'dev-key', lat: 99 });
    await get(sim, '/crimes.json', { ...q, key: 'nope' });
    const s = sim.stats();
    expect(s.total).toBe(3);
    expect(s.byKey['dev-key']).toEqual({ total: 2, byStatus: { 200: 1, 400: 1 }, rateLimited: 0 });
    expect(s.byStatus).toEqual({ 200: 1, 400: 1, 401: 1 });
    expect(s.byRoute).toEqual({ search: 3 });
  });
});

describe('defaults', () => {
  it('without keys, demo-key on the Developer plan works from loopback', async () => {
    const { startSimulator } = await import('../simulator');
    const plain = await startSimulator({ scale: 'tiny', clock: 'manual', now: '2025-11-20T15:00:00Z' });
    try {
      expect(plain.keys).toEqual([{ key: 'demo-key', plan: 'developer', ips: ['127.0.0.1', '::1'] }]);
      expect(plain.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await get(plain, '/crimes.json', { ...q, key: 'demo-key' })).status).toBe(200);
    } finally {
      await plain.close();
    }
  });
});
