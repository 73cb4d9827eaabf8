/** The v1 client against the simulator's v1 surface: types both ways, cursor pages, errors, the key only in a header. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import { CRIME_TYPES } from '../../../src-shared/crimeTypes';
import { incidentTime } from '../time/incidentTime';
import { ApiError } from './apiError';
import { createLiveSource } from './liveSource';
import type { FetchLike, PageQuery } from './source';
import { appIncident, hasV1Extras, pageUrl, withV1 } from './v1Source';
import { fromV1Type, toV1Type } from './v1Types';

const KEY = 'v1-test-key-123';
const DEV = 'v1-dev-key-4567';
const NOW = '2025-06-01T12:00:00Z';
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 3,
    scale: 'tiny',
    now: NOW,
    clock: 'manual',
    v1: true,
    keys: [
      { key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 10_000 },
      { key: DEV, plan: 'developer', ips: ['127.0.0.1', '::1'], ratePerMinute: 10_000 },
    ],
  });
});
afterAll(() => sim.close());

const seen: { url: string; headers: Record<string, string> }[] = [];
const recording: FetchLike = (u, i) => {
  seen.push({ url: u, headers: i.headers ?? {} });
  return fetch(u, i);
};
const source = (key = KEY, f: FetchLike = recording) => {
  const opts = { baseUrl: sim.url, key, fetch: f };
  return withV1(createLiveSource(opts), opts);
};
const chicago = { lat: 41.8837, lon: -87.6289, radiusMi: 0.6, limit: 100 };

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected a failure');
}

describe('types between the two spellings', () => {
  it('maps every app type to lower case and back; raw_type wins when given', () => {
    for (const t of CRIME_TYPES) {
      expect(toV1Type(t)).toBe(t.toLowerCase());
      expect(fromV1Type(toV1Type(t))).toBe(t);
      expect(fromV1Type(toV1Type(t), t)).toBe(t);
    }
    expect(fromV1Type('theft', 'Petty Theft')).toBe('Petty Theft');
    expect(fromV1Type('carjacking')).toBe('Carjacking');
  });
});

describe('cursor pages', () => {
  it('pages through every incident of the circle once, in the app form, the key only in the header', async () => {
    seen.length = 0;
    const s = source();
    const ids: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const q: PageQuery = { ...chicago, ...(cursor ? { cursor } : {}) };
      const r = await s.page!(q);
      pages++;
      expect(r.occurredUtc).toHaveLength(r.incidents.length);
      r.incidents.forEach((i, k) => {
        ids.push(i.cdid);
        expect(CRIME_TYPES as readonly string[]).toContain(i.type);
        // `date` is the occurred_at instant as local legacy text in the incident's zone.
        expect(incidentTime(i.date, i.lat, i.lon)?.occurredUtc).toBe(
          Math.floor((r.occurredUtc[k] ?? 0) / 60_000) * 60_000,
        );
      });
      cursor = r.nextCursor ?? undefined;
    } while (cursor && pages < 200);
    const truth = sim.groundTruth({
      lat: chicago.lat,
      lon: chicago.lon,
      radiusMi: chicago.radiusMi,
      key: KEY,
    });
    expect(truth.length).toBeGreaterThan(100);
    expect(pages).toBe(Math.ceil(truth.length / 100));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(truth.map((t) => t.cdid));
    const byCdid = new Map(truth.map((t) => [t.cdid, t]));
    const first = await s.page!({ ...chicago, limit: 20 });
    for (const i of first.incidents) {
      const t = byCdid.get(i.cdid);
      expect(i.type).toBe(t?.type);
      expect(i.address).toBe(t?.address);
      expect(i.link).toBe(t?.link);
    }
    for (const r of seen) {
      expect(r.url).not.toContain(KEY);
      expect(r.headers.Authorization).toBe(`Bearer ${KEY}`);
    }
  });

  it('sends radius_mi, ISO start/end and lower-case types; history without a limit', () => {
    const url = new URL(
      pageUrl('https://api.example.test/', {
        ...chicago,
        start: '2025-05-01T00:00:00.000Z',
        end: '2025-05-02T00:00:00.000Z',
        types: ['Theft', 'Arrest'],
      }),
    );
    expect(url.pathname).toBe('/v1/incidents');
    expect(url.searchParams.get('radius_mi')).toBe('0.6000');
    expect(url.searchParams.get('types')).toBe('theft,arrest');
    expect(url.searchParams.get('limit')).toBe('100');
    expect(url.searchParams.has('radius')).toBe(false);
    const h = new URL(pageUrl('https://api.example.test', { ...chicago, history: true }));
    expect(h.pathname).toBe('/v1/history');
    expect(h.searchParams.has('limit')).toBe(false);
  });

  it('reads score and trends', async () => {
    const s = source();
    expect(hasV1Extras(s)).toBe(true);
    if (!hasV1Extras(s)) return;
    const score = await s.score({ lat: chicago.lat, lon: chicago.lon });
    expect(score.score.radius_mi).toBe(0.5);
    const trends = await s.trends({ lat: chicago.lat, lon: chicago.lon, radiusMi: 0.5, window: 'P4W' });
    expect(trends.trends.buckets).toHaveLength(4);
  });
});

describe('errors', () => {
  it('a base URL without v1 is not_found, naming the endpoint', async () => {
    sim.setV1(false);
    try {
      const e = await failure(source().page!(chicago));
      expect(e.code).toBe('not_found');
      expect(e.message).toMatch(/\/v1\/incidents.*not live/);
    } finally {
      sim.setV1(true);
    }
  });

  it('a refused key is unauthorized; history outside the plan is bad_input naming the plan', async () => {
    expect((await failure(source('no-such-key-000').page!(chicago))).code).toBe('unauthorized');
    const start = '2025-01-01T00:00:00Z';
    const e = await failure(source(DEV).page!({ ...chicago, history: true, start, end: NOW }));
    expect(e.code).toBe('bad_input');
    expect(e.message).toMatch(/plan/);
    const t = await failure(
      hasV1Extras(source(DEV)) ? source(DEV).trends({ ...chicago }) : Promise.resolve(),
    );
    expect(t.code).toBe('bad_input');
  });

  it('a bad cursor is a 400 (bad_input); an HTML body or a wrong shape is bad_response', async () => {
    expect((await failure(source().page!({ ...chicago, cursor: 'nope' }))).code).toBe('bad_input');
    const html: FetchLike = async () => new Response('<html>oops</html>', { status: 200 });
    expect((await failure(source(KEY, html).page!(chicago))).code).toBe('bad_response');
    const shape: FetchLike = async () =>
      new Response(JSON.stringify({ incidents: [{ id: 'x1', type: 'theft' }], next_cursor: null }), {
        status: 200,
      });
    const e = await failure(source(KEY, shape).page!(chicago));
    expect(e.code).toBe('bad_response');
    expect(e.message).toMatch(/nothing was saved/);
  });
});

describe('what a hostile server can send', () => {
  it('cannot put the key into an error message, its details or the live surface’s errors by echoing it', async () => {
    for (const status of [400, 401, 404, 500, 418]) {
      const echo: FetchLike = async () =>
        new Response(JSON.stringify({ errors: [`key ${KEY} is not valid`] }), {
          status,
          headers: { 'content-type': 'application/json' },
        });
      for (const e of [
        await failure(source(KEY, echo).page!(chicago)),
        await failure(
          source(KEY, echo).search({
            lat: chicago.lat,
            lon: chicago.lon,
            radius: 0.01,
            maxRecords: 10,
            sortOrder: 'DESC',
          }),
        ),
      ]) {
        expect(`${e.message} ${JSON.stringify(e.details)}`).not.toContain(KEY);
        expect(e.message).toMatch(/REDACTED|refused|key/);
      }
    }
  });

  it('a next_cursor that is an absolute URL is sent back as an opaque value to the same host and path', async () => {
    const urls: string[] = [];
    let first = true;
    const f: FetchLike = async (u) => {
      urls.push(u);
      const body = first
        ? { incidents: [], next_cursor: 'https://evil.example/steal?x=1&radius_mi=99#frag' }
        : { incidents: [], next_cursor: null };
      first = false;
      return new Response(JSON.stringify(body), { status: 200 });
    };
    const s = source(KEY, f);
    const one = await s.page!(chicago);
    await s.page!({ ...chicago, cursor: one.nextCursor ?? undefined });
    const second = new URL(urls[1] as string);
    expect(second.origin).toBe(new URL(sim.url).origin);
    expect(second.pathname).toBe('/v1/incidents');
    expect(second.searchParams.get('cursor')).toBe('https://evil.example/steal?x=1&radius_mi=99#frag');
    expect(second.searchParams.getAll('radius_mi')).toEqual(['0.6000']);
  });
});

describe('occurred_at outside 2000–2099', () => {
  it.each([
    '1970-01-01T00:00:00Z',
    '1999-12-31T23:30:00-05:00',
    '2150-06-01T12:00:00+00:00',
    '2099-12-31T23:59:00Z',
    '2000-01-01T05:00:00Z',
  ])('%s keeps its instant (never moved by a century through the legacy text)', (at) => {
    const { incident, occurredUtc } = appIncident({
      id: '12345',
      type: 'theft',
      occurred_at: at,
      lat: 40.75,
      lon: -73.98,
    });
    expect(occurredUtc).toBe(Date.parse(at));
    expect(incidentTime(incident.date, incident.lat, incident.lon)?.occurredUtc).toBe(Date.parse(at));
  });
});
