/** The planned v1 surface: bearer auth, miles, ISO-8601 with offsets, lower-case types, cursor paging, plan gating. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V1HistoryIncident, V1Incident } from '../data/serialize';
import type { Simulator } from '../types';
import { LOOP, get, start } from './harness';

let sim: Simulator;
beforeAll(async () => {
  sim = await start({ v1: true });
});
afterAll(() => sim.close());

const DAY = 86_400_000;
const bearer = (key: string): RequestInit => ({ headers: { Authorization: `Bearer ${key}` } });
type Page<T> = { incidents: T[]; next_cursor: string | null };

async function v1<T>(
  path: string,
  params: Record<string, string | number>,
  key = 'ent-key',
): Promise<Page<T>> {
  const res = await get(sim, path, params, bearer(key));
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
  return res.json() as Page<T>;
}

async function all<T extends { id: string }>(
  path: string,
  params: Record<string, string | number>,
  key?: string,
) {
  const pages: Page<T>[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await v1<T>(path, cursor ? { ...params, cursor } : params, key);
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor !== null && pages.length < 1000);
  return { pages, ids: pages.flatMap((p) => p.incidents.map((i) => Number(i.id))) };
}

describe('auth', () => {
  it('needs a bearer token: a key query parameter is not enough', async () => {
    const params = { ...LOOP, radius_mi: 0.5 };
    expect((await get(sim, '/v1/incidents', params)).status).toBe(401);
    expect((await get(sim, '/v1/incidents', { ...params, key: 'ent-key' })).status).toBe(401);
    expect((await get(sim, '/v1/incidents', params, bearer('nope'))).status).toBe(401);
    expect((await get(sim, '/v1/incidents', params, bearer('remote-key'))).status).toBe(403);
    expect((await get(sim, '/v1/incidents', params, bearer('ent-key'))).status).toBe(200);
  });
});

describe('/v1/incidents', () => {
  const area = { ...LOOP, radius_mi: 0.8 };

  it('cursor paging returns every incident of the area exactly once, in occurred_at order', async () => {
    const { pages, ids } = await all<V1Incident>('/v1/incidents', { ...area, limit: 250 });
    const truth = sim.groundTruth({ ...LOOP, radiusMi: 0.8, key: 'ent-key' }).map((t) => t.cdid);
    expect(truth.length).toBeGreaterThan(1000);
    expect(pages.length).toBe(Math.ceil(truth.length / 250));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(truth);
    const times = pages.flatMap((p) => p.incidents.map((i) => Date.parse(i.occurred_at)));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1] ?? 0);
    expect(pages[pages.length - 1]?.next_cursor).toBeNull();
  });

  it('keeps every incident exactly once while data changes between pages', async () => {
    const changing = await start({ scale: 'tiny', v1: true });
    try {
      const before = changing.groundTruth({ ...LOOP, radiusMi: 3, key: 'ent-key' }).map((t) => t.cdid);
      const ids: number[] = [];
      let cursor: string | null = null;
      do {
        const res = await get(
          changing,
          '/v1/incidents',
          { ...LOOP, radius_mi: 3, limit: 50, ...(cursor ? { cursor } : {}) },
          bearer('ent-key'),
        );
        const page = res.json() as Page<V1Incident>;
        ids.push(...page.incidents.map((i) => Number(i.id)));
        cursor = page.next_cursor;
        changing.evolve({ add: 5, amend: 2, remove: 0, area: { ...LOOP, radiusDeg: 0.02 } });
      } while (cursor !== null);
      expect(new Set(ids).size).toBe(ids.length);
      expect(before.every((c) => ids.includes(c))).toBe(true);
    } finally {
      await changing.close();
    }
  });

  it('has the v1 fields, a lower-case type and occurred_at with the local offset', async () => {
    const page = await v1<V1Incident>('/v1/incidents', { ...area, limit: 20 });
    expect(page.incidents).toHaveLength(20);
    const truth = new Map(
      sim.groundTruth({ ...LOOP, radiusMi: 0.8, key: 'ent-key' }).map((t) => [String(t.cdid), t]),
    );
    for (const i of page.incidents) {
      expect(Object.keys(i)).toEqual([
        'id',
        'type',
        'raw_type',
        'occurred_at',
        'address',
        'lat',
        'lon',
        'url',
      ]);
      expect(i.type).toBe(i.raw_type.toLowerCase());
      expect(i.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-0[56]:00$/);
      expect(Date.parse(i.occurred_at)).toBe(Date.parse(truth.get(i.id)?.occurredAt ?? ''));
    }
  });

  it('defaults limit to 100 and bounds it to 1..500', async () => {
    expect((await v1<V1Incident>('/v1/incidents', area)).incidents).toHaveLength(100);
    expect((await v1<V1Incident>('/v1/incidents', { ...area, limit: 500 })).incidents).toHaveLength(500);
    for (const limit of [0, 501, 'x']) {
      const res = await get(sim, '/v1/incidents', { ...area, limit }, bearer('ent-key'));
      expect(res.status).toBe(400);
      expect((res.json() as { errors: string[] }).errors[0]).toMatch(/^limit /);
    }
  });

  it('start and end are inclusive bounds on occurred_at, with any offset', async () => {
    const [first] = (await v1<V1Incident>('/v1/incidents', { ...area, limit: 1 })).incidents;
    const at = first?.occurred_at ?? '';
    const utc = new Date(at).toISOString();
    const hit = await v1<V1Incident>('/v1/incidents', { ...area, start: at, end: utc });
    expect(hit.incidents.map((i) => i.id)).toContain(first?.id);
    const after = new Date(Date.parse(at) + 60_000).toISOString();
    const miss = await v1<V1Incident>('/v1/incidents', { ...area, start: after, end: after });
    expect(miss.incidents.map((i) => i.id)).not.toContain(first?.id);
  });

  it.each([
    ['start', '2025-11-01T00:00:00'],
    ['start', '2025-11-01'],
    ['end', '2025-13-01T00:00:00Z'],
    ['radius_mi', 0],
    ['radius_mi', 51],
    ['types', 'Theft'],
    ['cursor', 'not-a-cursor'],
  ])('%s=%s is a 400 naming it', async (name, value) => {
    const res = await get(sim, '/v1/incidents', { ...area, [name]: value }, bearer('ent-key'));
    expect(res.status).toBe(400);
    expect((res.json() as { errors: string[] }).errors[0]).toMatch(new RegExp(`^${name} `));
  });

  it('a cursor only continues the query it came from', async () => {
    const page = await v1<V1Incident>('/v1/incidents', { ...area, limit: 5 });
    const other = await get(
      sim,
      '/v1/incidents',
      { ...area, radius_mi: 0.7, cursor: page.next_cursor ?? '' },
      bearer('ent-key'),
    );
    expect(other.status).toBe(400);
    expect(other.text).toMatch(/cursor/);
  });

  it('lower-case types filter', async () => {
    const page = await v1<V1Incident>('/v1/incidents', { ...area, types: 'theft,arrest', limit: 200 });
    expect(new Set(page.incidents.map((i) => i.type))).toEqual(new Set(['theft', 'arrest']));
  });
});

describe('/v1/history', () => {
  const now = Date.parse('2025-11-20T15:00:00Z');
  const span = { start: new Date(now - 300 * DAY).toISOString(), end: new Date(now).toISOString() };

  it('is gated by plan: Developer gets a 403 with an errors body', async () => {
    const res = await get(sim, '/v1/history', { ...LOOP, radius_mi: 0.3, ...span }, bearer('dev-key'));
    expect(res.status).toBe(403);
    expect((res.json() as { errors: string[] }).errors[0]).toMatch(/Pro and Enterprise/);
  });

  it('serves the short form beyond the plan window, every incident once', async () => {
    const { pages, ids } = await all<V1HistoryIncident>(
      '/v1/history',
      { ...LOOP, radius_mi: 0.3, ...span },
      'pro-key',
    );
    expect(Object.keys(pages[0]?.incidents[0] ?? {})).toEqual(['id', 'type', 'occurred_at', 'lat', 'lon']);
    const truth = sim
      .groundTruth({ ...LOOP, radiusMi: 0.3, windowDays: 1096, since: span.start, until: span.end })
      .map((t) => t.cdid);
    expect([...ids].sort((a, b) => a - b)).toEqual(truth);
    const oldest = Math.min(...pages.flatMap((p) => p.incidents.map((i) => Date.parse(i.occurred_at))));
    expect(now - oldest).toBeGreaterThan(200 * DAY);
  });

  it('requires start and end', async () => {
    const res = await get(sim, '/v1/history', { ...LOOP, radius_mi: 0.3 }, bearer('pro-key'));
    expect(res.status).toBe(400);
    expect((res.json() as { errors: string[] }).errors.map((m) => m.split(' ')[0])).toEqual(['start', 'end']);
  });
});

describe('/v1/score and /v1/trends', () => {
  it('scores a circle 0–100 with a grade and a breakdown of the last 30 days', async () => {
    const res = await get(sim, '/v1/score', { ...LOOP }, bearer('dev-key'));
    expect(res.status).toBe(200);
    const body = res.json() as {
      score: number;
      grade: string;
      radius_mi: number;
      breakdown: Record<string, number>;
    };
    expect(body.radius_mi).toBe(0.5);
    expect(body.score).toBeGreaterThanOrEqual(0);
    expect(body.score).toBeLessThanOrEqual(100);
    expect(body.grade).toMatch(/^[A-F]$/);
    const total = body.breakdown.violent! + body.breakdown.property! + body.breakdown.quality_of_life!;
    const truth = sim.groundTruth({
      ...LOOP,
      radiusMi: 0.5,
      key: 'dev-key',
      since: Date.parse('2025-11-20T00:00:00Z') - 30 * DAY,
      until: Date.parse('2025-11-20T00:00:00Z'),
    });
    expect(total).toBe(truth.length);
  });

  it('trends count incidents per week by lower-case type, Pro and Enterprise only', async () => {
    const params = { ...LOOP, radius_mi: 0.5, interval: 'week', window: 'P4W' };
    expect((await get(sim, '/v1/trends', params, bearer('dev-key'))).status).toBe(403);
    const res = await get(sim, '/v1/trends', params, bearer('pro-key'));
    expect(res.status).toBe(200);
    const body = res.json() as {
      interval: string;
      buckets: { start: string; end: string; count: number; by_type: Record<string, number> }[];
    };
    expect(body.interval).toBe('week');
    expect(body.buckets).toHaveLength(4);
    for (const b of body.buckets) {
      expect(Object.values(b.by_type).reduce((x, y) => x + y, 0)).toBe(b.count);
      for (const t of Object.keys(b.by_type)) expect(t).toBe(t.toLowerCase());
    }
    expect(body.buckets.reduce((n, b) => n + b.count, 0)).toBeGreaterThan(0);
  });
});

describe('planned endpoints and the switch', () => {
  it.each(['/v1/batch', '/v1/alerts/subscribe', '/v1/executive-risk'])(
    '%s is a 501 with an errors body',
    async (path) => {
      const res = await get(sim, path, {}, bearer('ent-key'));
      expect(res.status).toBe(501);
      expect((res.json() as { errors: string[] }).errors[0]).toMatch(/not implement/);
    },
  );

  it('by default the whole /v1 surface is a 404, as on the real service today; setV1 switches it', async () => {
    const off = await start({ scale: 'tiny' });
    try {
      const ask = async () =>
        (await get(off, '/v1/incidents', { ...LOOP, radius_mi: 1 }, bearer('ent-key'))).status;
      expect(await ask()).toBe(404);
      off.setV1(true);
      expect(await ask()).toBe(200);
      off.setV1(false);
      expect(await ask()).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('a disagreeing variant serves other ids, or occurred_at days after the report', async () => {
    const params = { ...LOOP, radius_mi: 0.3, limit: 5 };
    const faithful = await v1<V1Incident>('/v1/incidents', params);
    const ids = await start({ v1: true, v1Variant: 'other-ids' });
    const late = await start({ v1: true, v1Variant: 'late-times' });
    try {
      const a = (await get(ids, '/v1/incidents', params, bearer('ent-key'))).json() as Page<V1Incident>;
      const b = (await get(late, '/v1/incidents', params, bearer('ent-key'))).json() as Page<V1Incident>;
      expect(a.incidents.map((i) => i.id)).not.toEqual(faithful.incidents.map((i) => i.id));
      expect(a.incidents.map((i) => i.address)).toEqual(faithful.incidents.map((i) => i.address));
      expect(b.incidents.map((i) => i.id)).toEqual(faithful.incidents.map((i) => i.id));
      const shift =
        Date.parse(b.incidents[0]?.occurred_at ?? '') - Date.parse(faithful.incidents[0]?.occurred_at ?? '');
      expect(shift).toBe(3 * DAY);
    } finally {
      await ids.close();
      await late.close();
    }
  });
});
