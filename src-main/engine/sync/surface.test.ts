/**
 * The v1 surface in the sync, against the simulator: the verification (a v1 whose ids or times
 * disagree keeps Blotter on live, saying why), the same archive over v1 as over live in fewer
 * requests, the switch-over in the middle of a session (a run in progress stays on its surface),
 * and a kill -9 in the middle of a v1 run.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import { contains, type Shape } from '../../../src-shared/geo';
import type { Db } from '../store/database';
import { MAX_RECORDS } from './constants';
import { consistentTimes } from './surfaceApply';
import { createJobStore } from './jobStore';
import { PROBE_EVERY_MS, readProfile } from './serverProfile';
import {
  missing,
  simOptions,
  startHarness,
  storedIn,
  TEST_KEY,
  truthIn,
  type Harness,
} from './testing/harness';

const harnesses: Harness<Simulator>[] = [];
const start = async (
  extra: Record<string, unknown> = {},
  wiring: Parameters<typeof startHarness>[1] = {},
) => {
  const h = await startHarness(await startSimulator(simOptions(extra)), wiring);
  harnesses.push(h);
  return h;
};
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

const midtown = { kind: 'circle' as const, lat: 40.7549, lon: -73.984, radiusMi: 0.6 };

type Row = {
  cdid: number;
  type: string;
  address: string;
  lat: number;
  lon: number;
  link: string;
  occurred_utc: number;
};
function rowsIn(db: Db, shape: Shape): Row[] {
  return db
    .prepare<[], Row>(
      'SELECT cdid, type, address, lat, lon, link, occurred_utc FROM incidents WHERE removed_at IS NULL ORDER BY cdid',
    )
    .all()
    .filter((r) => contains(shape, r.lat, r.lon));
}
/** A digest of what both surfaces give: identity, type, address, place, link. */
const digest = (rows: Row[]): string =>
  createHash('sha256')
    .update(JSON.stringify(rows.map((r) => [r.cdid, r.type, r.address, r.lat, r.lon, r.link])))
    .digest('hex');

const latestRun = (h: Harness<Simulator>, areaId: number) => h.service.jobs.latestRun(areaId)!;

describe('verification', () => {
  it.each([
    ['other-ids', /v1 ids are not the live cdids/],
    ['late-times', /occurred_at does not fit the live date/],
  ])('a v1 whose %s disagree keeps the sync on live, saying why', async (variant, why) => {
    const h = await start({ v1: true, v1Variant: variant });
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [summary] = await h.service.syncAreas([area], h.conn);
    expect(summary?.state).toBe('done');
    const rec = readProfile(h.db, h.sim.url).surface;
    expect(rec?.state).toBe('mismatch');
    expect(rec?.reason).toMatch(why);
    expect(rec?.reason).toMatch(/syncing on the live surface/);
    expect(createJobStore(h.db).surfaceOf(summary!.runId)).toBe('live');
    expect(missing(truthIn(h.sim, midtown), storedIn(h.db, midtown))).toEqual([]);
  });

  it('costs one request a day while the service has no v1, and no live sample', async () => {
    const h = await start({ v1: false });
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [summary] = await h.service.syncAreas([area], h.conn);
    expect(summary?.state).toBe('done');
    expect(readProfile(h.db, h.sim.url).surface?.state).toBe('absent');
    const seen = h.sim.stats();
    // A service without v1 answers its routes as unknown (404): one such request, the probe.
    expect(seen.total - (seen.byRoute.search ?? 0)).toBe(1);
    // Every live search is the run's own work: nothing spent on a sample for v1. The probe waited
    // for the first backfill's first page (which showed more to come) and is the run's request too.
    expect(seen.byRoute.search).toBe(latestRun(h, area.id).requests - 1);
  });

  it('spends no probe on a first backfill its first page shows small; the next run probes and uses v1', async () => {
    const h = await start({ v1: true });
    const corner = { kind: 'circle' as const, lat: 40.7549, lon: -73.984, radiusMi: 0.05 };
    const area = h.service.areas.create({ name: 'Corner', shape: corner }, h.sim.clock.nowMs());
    const [first] = await h.service.syncAreas([area], h.conn);
    expect(first?.state).toBe('done');
    expect(createJobStore(h.db).surfaceOf(first!.runId)).toBe('live');
    // One live page answered it all: v1 could not have been cheaper, so nothing was asked of it.
    expect(readProfile(h.db, h.sim.url).surface).toBeNull();
    expect(h.sim.stats().total).toBe(h.sim.stats().byRoute.search);
    expect(missing(truthIn(h.sim, corner), storedIn(h.db, corner))).toEqual([]);
    h.sim.clock.advance(3_600_000);
    const [second] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn);
    expect(second?.state).toBe('done');
    expect(readProfile(h.db, h.sim.url).surface?.state).toBe('verified');
    expect(createJobStore(h.db).surfaceOf(second!.runId)).toBe('v1');
  });

  it('a faithful v1 is verified on a sample and used', async () => {
    const h = await start({ v1: true });
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [summary] = await h.service.syncAreas([area], h.conn);
    const rec = readProfile(h.db, h.sim.url).surface;
    expect(rec?.state, rec?.reason).toBe('verified');
    expect(rec?.reason).toMatch(/^v1 verified: (\d+) of \1 sample incidents/);
    expect(createJobStore(h.db).surfaceOf(summary!.runId)).toBe('v1');
    // The area's view: the surface in use, and v1's score and trends as the service sent them.
    const view = h.service.surfaceViews(area.id, summary!.runId);
    expect(view.runSurface).toBe('v1');
    expect(view.surface?.using).toBe('v1');
    expect(view.score?.score?.grade).toMatch(/^[A-F]$/);
    expect(view.score?.trends?.interval).toBe('week');
    expect(view.score?.trends?.buckets).toHaveLength(12);
  });
});

describe('a sync over v1', () => {
  it('mirrors the same incidents as over live, with consistent times, in fewer requests', async () => {
    const live = await start();
    const v1 = await start({ v1: true });
    const shape = { ...midtown, radiusMi: 1.2 };
    const results = [];
    for (const h of [live, v1]) {
      const area = h.service.areas.create({ name: 'Midtown', shape }, h.sim.clock.nowMs());
      const [backfill] = await h.service.syncAreas([area], h.conn);
      expect(backfill?.state).toBe('done');
      // Every request the server saw: the v1 probe and the live quirk probe included.
      const backfillRequests = h.sim.stats().total;
      // The run's own requests (without the one-time probes, and v1's score and trends calls).
      const backfillRun = latestRun(h, area.id).requests;
      h.sim.clock.advance(3 * 3_600_000);
      h.sim.evolve({
        add: 20,
        amend: 5,
        remove: 3,
        area: { lat: shape.lat, lon: shape.lon, radiusDeg: 0.012 },
      });
      h.sim.resetStats();
      const [refresh] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn, { depth: 'deep' });
      expect(refresh?.state).toBe('done');
      results.push({
        backfillRequests,
        backfillRun,
        refreshRequests: h.sim.stats().total,
        surface: createJobStore(h.db).surfaceOf(refresh!.runId),
      });
    }
    expect(results.map((r) => r.surface)).toEqual(['live', 'v1']);
    const a = rowsIn(live.db, shape);
    const b = rowsIn(v1.db, shape);
    expect(missing(truthIn(v1.sim, shape), storedIn(v1.db, shape))).toEqual([]);
    expect(digest(b)).toBe(digest(a));
    // v1 gives occurred_at, the live surface the report time: each fits the other.
    const liveTime = new Map(a.map((r) => [r.cdid, r.occurred_utc]));
    const misfits = b.filter((r) => !consistentTimes(liveTime.get(r.cdid) ?? NaN, r.occurred_utc));
    expect(misfits).toEqual([]);
    const [l, v] = results;
    console.log(JSON.stringify({ incidents: a.length, live: l, v1: v }));
    expect(v!.backfillRun).toBeLessThan(l!.backfillRun);
    expect(v!.refreshRequests).toBeLessThan(l!.refreshRequests);
    // The cursor needs no overlap: a backfill costs its pages (a circle a little wider than the area).
    expect(v!.backfillRun).toBeLessThanOrEqual(Math.ceil((a.length * 1.1) / MAX_RECORDS));
  });
});

describe('switching surfaces in the middle of a session', () => {
  it('uses live until v1 answers and the daily probe is due, then v1; a run in progress stays on its surface', async () => {
    const h = await start();
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [first] = await h.service.syncAreas([area], h.conn);
    expect(createJobStore(h.db).surfaceOf(first!.runId)).toBe('live');
    expect(readProfile(h.db, h.sim.url).surface?.state).toBe('absent');
    expect(readProfile(h.db, h.sim.url).surface?.reason).toMatch(/no v1 surface/);

    // The service turns v1 on; the probe is not due yet: still live.
    h.sim.setV1(true);
    h.sim.clock.advance(3_600_000);
    const [second] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn);
    expect(createJobStore(h.db).surfaceOf(second!.runId)).toBe('live');

    // A run started on live and stopped half-way, then the probe falls due.
    const stop = new AbortController();
    let pages = 0;
    h.conn.fetch = (u, i) => {
      if (u.includes('/crimes.json') && ++pages === 2) stop.abort();
      return fetch(u, i);
    };
    const big = { ...midtown, radiusMi: 1.2 };
    const other = h.service.areas.create({ name: 'Bigger', shape: big }, h.sim.clock.nowMs());
    const [stopped] = await h.service.syncAreas([other], h.conn, { signal: stop.signal });
    expect(stopped?.state).toBe('cancelled');
    h.conn.fetch = (u, i) => fetch(u, i);
    h.sim.clock.advance(PROBE_EVERY_MS);

    // The run in progress finishes on live; Midtown's next run probes and goes to v1.
    const [resumed] = await h.service.syncAreas([h.service.areas.get(other.id)!], h.conn);
    expect(resumed?.resumed).toBe(true);
    expect(createJobStore(h.db).surfaceOf(resumed!.runId)).toBe('live');
    expect(missing(truthIn(h.sim, big), storedIn(h.db, big))).toEqual([]);
    const [third] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn);
    expect(readProfile(h.db, h.sim.url).surface?.state).toBe('verified');
    expect(createJobStore(h.db).surfaceOf(third!.runId)).toBe('v1');
    expect(missing(truthIn(h.sim, midtown), storedIn(h.db, midtown))).toEqual([]);

    // v1 goes away again: the run says so and the next one is on live.
    h.sim.setV1(false);
    const [gone] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn);
    expect(gone?.state).toBe('failed');
    expect(readProfile(h.db, h.sim.url).surface?.state).toBe('absent');
    const [back] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn);
    expect(back?.state).toBe('done');
    expect(createJobStore(h.db).surfaceOf(back!.runId)).toBe('live');
  });
});

describe('a v1 server whose cursor never ends', () => {
  it.each([
    ['sends back a cursor it sent before', (_n: number) => 'same-cursor', /went round in a circle/, 2],
    [
      'sends fresh cursors with the same incidents',
      (n: number) => `fresh-${n}`,
      /brought no new incident 3 times/,
      4,
    ],
  ])(
    '%s: the run stops, failed as the service’s fault, not requests for ever',
    async (_what, next, why, pages) => {
      const h = await start({ v1: true });
      const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
      const [first] = await h.service.syncAreas([area], h.conn);
      expect(createJobStore(h.db).surfaceOf(first!.runId)).toBe('v1');
      let served = 0;
      h.conn.fetch = async (u, i) => {
        if (!u.includes('/v1/incidents')) return fetch(u, i);
        // Whatever cursor came back, the server is asked for the first page again.
        const url = new URL(u);
        url.searchParams.delete('cursor');
        const answer = await fetch(url.toString(), i);
        if (answer.status !== 200) return answer;
        const body = (await answer.json()) as { incidents: unknown[]; next_cursor: string | null };
        // The same first page every time, with a cursor onwards (given up after 60, so a run without the guard ends).
        served++;
        const cursor = served < 60 ? next(served) : null;
        return new Response(JSON.stringify({ ...body, next_cursor: cursor }), { status: 200 });
      };
      h.sim.clock.advance(3_600_000);
      const [run] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn, { depth: 'deep' });
      expect(run?.state).toBe('failed');
      expect(run?.error?.message).toMatch(why);
      expect(served).toBe(pages);
    },
  );
});

describe('a v1 server whose occurred_at lies outside what was asked', () => {
  const DAY_MS = 86_400_000;
  it.each([
    [
      '1970, before the start asked (once stored as 2069)',
      '/v1/incidents',
      () => '1970-01-01T00:00:00Z',
      /outside what was asked/,
    ],
    [
      '1999, before the start asked (once stored as 2099)',
      '/v1/incidents',
      () => '1999-12-31T12:00:00Z',
      /outside what was asked/,
    ],
    [
      '2150, in the future (once stored as 2050)',
      '/v1/incidents',
      () => '2150-01-01T00:00:00Z',
      /in the future/,
    ],
    [
      'a day after the history end asked',
      '/v1/history',
      (now: number) => new Date(now - DAY_MS).toISOString(),
      /outside what was asked/,
    ],
  ])('%s: the page is refused and the run fails saying why', async (_what, endpoint, at, why) => {
    const h = await start({ v1: true });
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [first] = await h.service.syncAreas([area], h.conn);
    expect(createJobStore(h.db).surfaceOf(first!.runId)).toBe('v1');
    let bent = 0;
    h.conn.fetch = async (u, i) => {
      const answer = await fetch(u, i);
      if (!u.includes(endpoint) || answer.status !== 200) return answer;
      const body = (await answer.json()) as { incidents: { occurred_at: string }[] };
      if (body.incidents[0]) {
        body.incidents[0].occurred_at = at(h.sim.clock.nowMs());
        bent++;
      }
      return new Response(JSON.stringify(body), { status: 200 });
    };
    h.sim.clock.advance(3_600_000);
    const before = rowsIn(h.db, midtown);
    const history = endpoint === '/v1/history';
    const [run] = await h.service.syncAreas(
      [h.service.areas.get(area.id)!],
      h.conn,
      history ? { history: true } : { depth: 'deep' },
    );
    expect(bent).toBeGreaterThan(0);
    expect(run?.state).toBe('failed');
    expect(run?.error?.code).toBe('bad_response');
    expect(run?.error?.message).toMatch(why);
    // Nothing of the refused page was kept: no date moved to another century, no removal marked.
    const after = rowsIn(h.db, midtown);
    expect(
      after.filter((r) => r.occurred_utc < Date.UTC(2000, 0, 1) || r.occurred_utc > Date.UTC(2030, 0, 1)),
    ).toEqual([]);
    expect(after.length).toBeGreaterThanOrEqual(before.length);
  });
});

describe('a v1 server whose chain brings new incidents for ever', () => {
  it('fails the run past what the area can plausibly hold, and marks nothing removed', async () => {
    const h = await start({ v1: true });
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [first] = await h.service.syncAreas([area], h.conn);
    expect(createJobStore(h.db).surfaceOf(first!.runId)).toBe('v1');
    const held = rowsIn(h.db, midtown).length;
    let served = 0;
    h.conn.fetch = async (u, i) => {
      if (!u.includes('/v1/incidents')) return fetch(u, i);
      const url = new URL(u);
      url.searchParams.delete('cursor');
      const answer = await fetch(url.toString(), i);
      if (answer.status !== 200) return answer;
      const body = (await answer.json()) as { incidents: { id: string }[] };
      served++;
      // 500 incidents never seen before on every page, in the area, with a cursor onwards (given up
      // after 60 pages — 30,000 incidents in a 0.6-mile circle — so a run without the bound ends "done").
      const incidents = Array.from({ length: MAX_RECORDS }, (_, k) => ({
        ...body.incidents[k % body.incidents.length],
        id: String(2_000_000_000 + served * 1000 + k),
      }));
      const next_cursor = served < 60 ? `more-${served}` : null;
      return new Response(JSON.stringify({ incidents, next_cursor }), { status: 200 });
    };
    h.sim.clock.advance(3_600_000);
    const [run] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn, { depth: 'deep' });
    expect(run?.state).toBe('failed');
    expect(run?.error?.code).toBe('bad_response');
    expect(run?.error?.message).toMatch(/more than the area can plausibly hold/);
    expect(served).toBeLessThan(60);
    expect(run?.removed).toBe(0);
    const removed = h.db
      .prepare<[], { n: number }>('SELECT count(*) AS n FROM incidents WHERE removed_at IS NOT NULL')
      .get()?.n;
    expect(removed).toBe(0);
    expect(held).toBeGreaterThan(0);
  });
});

describe('kill -9 in the middle of a v1 run', () => {
  it('resumes from the stored cursor and ends with the whole set, each page asked once more at most', async () => {
    const h = await start({ v1: true });
    const small = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    await h.service.syncAreas([small], h.conn); // verifies v1
    expect(readProfile(h.db, h.sim.url).surface?.state).toBe('verified');
    const big = { ...midtown, radiusMi: 1.5 };
    const area = h.service.areas.create({ name: 'Bigger', shape: big }, h.sim.clock.nowMs());
    const truth = truthIn(h.sim, big);
    const pages = Math.ceil(truth.size / MAX_RECORDS);
    expect(pages).toBeGreaterThanOrEqual(4);

    h.db.close();
    const child = await runChild({
      BLOTTER_TEST_DB: `${h.dir.path}/blotter.sqlite`,
      BLOTTER_TEST_SIM: h.sim.url,
      BLOTTER_TEST_KEY: TEST_KEY,
      BLOTTER_TEST_NOW: String(h.sim.clock.nowMs()),
      BLOTTER_TEST_AREA: String(area.id),
      BLOTTER_TEST_KILL_AT: '3',
    });
    expect(child.signal, child.out).toBe('SIGKILL');
    h.reopen();
    const killed = latestRun(h, area.id);
    expect(killed.state).toBe('running');
    expect(killed.requests).toBe(2);

    const [resumed] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn);
    expect(resumed?.resumed).toBe(true);
    expect(resumed?.state).toBe('done');
    expect(createJobStore(h.db).surfaceOf(resumed!.runId)).toBe('v1');
    const got = storedIn(h.db, big);
    expect(missing(truth, got)).toEqual([]);
    // Pages after the kill: only those not yet committed (the in-flight one asked again).
    expect(latestRun(h, area.id).requests).toBeLessThanOrEqual(pages + 1);
  });
});

function runChild(env: Record<string, string>): Promise<{ signal: NodeJS.Signals | null; out: string }> {
  const script = path.join(__dirname, 'testing', 'surfaceChild.ts');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (_code, signal) => resolve({ signal, out }));
  });
}

describe('the 36-month history backfill', () => {
  it('is offered with its request count once v1 is verified, and brings the months before the window', async () => {
    // The runs whose pages the page hook (the engine's alerts) heard: a history backfill's are not news.
    const heard = new Set<number>();
    const h = await start({ v1: true }, { onPageCommitted: (_tx, w) => heard.add(w.runId) });
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const limits = h.conn.limits;
    const before = h.service.planHistory([area.id], h.sim.url, 'enterprise', limits);
    expect(before.available).toBe(false);
    expect(before.reason).toMatch(/not been probed/);
    await h.service.syncAreas([area], h.conn);
    expect(h.service.planHistory([area.id], h.sim.url, 'developer', limits).reason).toMatch(
      /Pro and Enterprise/,
    );
    const plan = h.service.planHistory([area.id], h.sim.url, 'enterprise', limits);
    expect(plan.available, plan.reason).toBe(true);
    expect(plan.requests).toBeGreaterThan(0);

    const windowFrom = h.sim.clock.nowMs() - limits.windowDays * 86_400_000;
    const older = () =>
      rowsIn(h.db, midtown).filter((r) => r.occurred_utc < windowFrom - 2 * 86_400_000).length;
    expect(older()).toBe(0);
    h.sim.resetStats();
    const [history] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn, { history: true });
    expect(history?.state).toBe('done');
    expect(createJobStore(h.db).surfaceOf(history!.runId)).toBe('v1-history');
    const truth = h.sim
      .groundTruth({ ...midtown, radiusMi: midtown.radiusMi, windowDays: 1096, until: windowFrom } as never)
      .map((t) => t.cdid);
    expect(truth.length).toBeGreaterThan(100);
    expect(missing(new Set(truth), storedIn(h.db, midtown))).toEqual([]);
    expect(older()).toBeGreaterThan(100);
    console.log(
      JSON.stringify({ historyIncidents: truth.length, estimated: plan.requests, sent: h.sim.stats().total }),
    );
    // The ledger holds days before the plan window now, and the area's next run is a plain v1 refresh.
    const first = h.db
      .prepare<[number], { d: string }>(
        "SELECT min(day) AS d FROM coverage WHERE area_id = ? AND status = 'complete'",
      )
      .get(area.id)?.d;
    expect(Date.parse(`${first}T00:00:00Z`)).toBeLessThan(windowFrom - 5 * 86_400_000);
    const [next] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn);
    expect(createJobStore(h.db).surfaceOf(next!.runId)).toBe('v1');
    expect(heard.has(history!.runId)).toBe(false);
    expect(heard.has(next!.runId)).toBe(true);
  });
});
