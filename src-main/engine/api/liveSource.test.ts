import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import { ApiError, parseRetryAfter } from './apiError';
import { createLiveSource, searchUrl } from './liveSource';
import { proxyFromEnv } from './nodeFetch';

const KEY = 'live-test-key-123';
const NOW = '2025-06-01T12:00:00Z';
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 3,
    scale: 'tiny',
    now: NOW,
    clock: 'manual',
    keys: [
      { key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 10_000 },
      { key: 'elsewhere-key', plan: 'developer', ips: ['203.0.113.9'] },
    ],
  });
});
afterAll(() => sim.close());

const source = (key = KEY, baseUrl = sim.url) =>
  createLiveSource({ baseUrl, key, fetch: (u, i) => fetch(u, i) });
const chicago = { lat: 41.8837, lon: -87.6289, radius: 0.01, maxRecords: 500, sortOrder: 'ASC' as const };

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected a failure');
}

describe('live source against the simulator', () => {
  it('sends every useful parameter and parses the answer', async () => {
    // Types go as the sync spelled them (sync/typesSpelling.ts).
    const url = searchUrl('http://h', 'k', { ...chicago, since: '2025-05-01', types: ['Theft', 'arrest'] });
    const q = new URL(url).searchParams;
    expect(Object.fromEntries(q)).toEqual({
      lat: '41.883700',
      lon: '-87.628900',
      radius: '0.010000',
      key: 'k',
      since: '2025-05-01',
      max_records: '500',
      sort_by: 'date',
      sort_order: 'ASC',
      types: 'Theft,arrest',
    });
    const r = await source().search({ ...chicago, since: '2025-05-20' });
    expect(r.incidents.length).toBeGreaterThan(0);
    expect(r.meta.status).toBe(200);
    expect(r.meta.url).toContain('key=REDACTED');
    expect(r.meta.url).not.toContain(KEY);
    const d = await source().detail(r.incidents[0]!.cdid);
    expect(d.incident.description.length).toBeGreaterThan(0);
  });

  it('maps 401 to re-entering the key', async () => {
    const e = await failure(source('wrong-key-999').search(chicago));
    expect([e.code, e.details.status, e.fatal]).toEqual(['unauthorized', 401, true]);
    expect(e.message).toMatch(/Re-enter the key/);
    expect(e.details.url).not.toContain('wrong-key-999');
  });

  it('maps 403 to registering the office’s static IP', async () => {
    const e = await failure(source('elsewhere-key').search(chicago));
    expect([e.code, e.details.status, e.fatal]).toEqual(['ip_not_allowed', 403, true]);
    expect(e.message).toMatch(/allowlist/);
    expect(e.message).toMatch(/register your office's static IP/);
  });

  it('maps 429 to waiting as long as the server asked', async () => {
    sim.setFaults({ storm429: { count: 1, retryAfterSec: 7 } });
    const e = await failure(source().search(chicago));
    expect([e.code, e.details.retryAfterSeconds, e.retryable]).toEqual(['rate_limited', 7, true]);
    expect(e.message).toMatch(/waiting 7 s/);
  });

  it('maps 5xx (JSON or an HTML proxy page) to a retryable server error', async () => {
    sim.setFaults({ errorRate: 1 });
    const e = await failure(source().search(chicago));
    expect(e.code).toBe('server_error');
    expect(e.retryable).toBe(true);
    sim.setFaults({ errorRate: 0, htmlRate: 1 });
    const h = await failure(source().search(chicago));
    expect([h.code, h.details.status! >= 502]).toEqual(['server_error', true]);
    sim.setFaults({ htmlRate: 0 });
  });

  it('treats truncated JSON as a bad response', async () => {
    sim.setFaults({ truncateRate: 1 });
    const e = await failure(source().search(chicago));
    sim.setFaults({ truncateRate: 0 });
    expect([e.code, e.retryable]).toEqual(['bad_response', true]);
    expect(e.message).toMatch(/nothing was saved/);
  });

  it('maps a refused connection to offline', async () => {
    const e = await failure(source(KEY, 'http://127.0.0.1:1').search(chicago));
    expect(e.code).toBe('offline');
    expect(e.message).toMatch(/Cannot reach the service/);
  });

  it('maps an unknown incident to not_found', async () => {
    const e = await failure(source().detail(1));
    expect(e.code).toBe('not_found');
  });
});

describe('live source against a misbehaving server', () => {
  let server: Server;
  let base: string;
  let reply: { status: number; type: string; body: string } = { status: 200, type: 'text/html', body: '' };

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(reply.status, { 'Content-Type': reply.type });
      res.end(reply.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it.each([
    ['an HTML page with status 200', 'text/html', '<html><body>Maintenance</body></html>', /HTML page/],
    ['a wrong shape', 'application/json', '{"crimes":[{"cdid":"x"}]}', /unexpected shape/],
    ['a wrong top level', 'application/json', '[1,2,3]', /unexpected shape/],
    [
      'an unreadable date',
      'application/json',
      JSON.stringify({
        crimes: [{ type: 'Theft', address: 'a', lat: 1, lon: 2, cdid: 5, link: 'l', date: '2025-01-01' }],
      }),
      /date/,
    ],
  ])('rejects %s as a bad response', async (_name, type, body, message) => {
    reply = { status: 200, type, body };
    const e = await failure(source(KEY, base).search(chicago));
    expect(e.code).toBe('bad_response');
    expect(e.message).toMatch(message);
  });

  it('accepts JSONP and ignores extra fields', async () => {
    const crime = {
      type: 'Theft',
      address: 'a',
      lat: 1,
      lon: 2,
      cdid: 5,
      link: 'l',
      date: '01/02/25 03:04 PM',
      extra: 1,
    };
    reply = {
      status: 200,
      type: 'application/javascript',
      body: `cb(${JSON.stringify({ crimes: [crime] })});`,
    };
    const r = await source(KEY, base).search(chicago);
    expect(r.incidents).toEqual([
      { type: 'Theft', address: 'a', lat: 1, lon: 2, cdid: 5, link: 'l', date: '01/02/25 03:04 PM' },
    ]);
  });

  it('keeps the service’s own words for a 400', async () => {
    reply = { status: 400, type: 'application/json', body: '{"errors":["radius must be at most 1"]}' };
    const e = await failure(source(KEY, base).search(chicago));
    expect(e.code).toBe('bad_input');
    expect(e.message).toMatch(/radius must be at most 1/);
  });
});

describe('helpers', () => {
  it('reads Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('12')).toBe(12);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', Date.parse('2015-10-21T07:28:00Z'))).toBe(30);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
    // Seconds with a fraction: rounded up, not read as a date in 2001 (no wait at all).
    expect(parseRetryAfter('1.5')).toBe(2);
    expect(parseRetryAfter('30.0')).toBe(30);
  });

  it('finds a proxy in the environment', () => {
    expect(proxyFromEnv({ HTTPS_PROXY: 'http://proxy:3128' })).toBe('http://proxy:3128');
    expect(proxyFromEnv({})).toBeUndefined();
  });
});
