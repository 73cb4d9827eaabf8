import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import { localDayOf } from '../time/localDay';
import { missing, simOptions, startHarness, storedIn, truthIn, type Harness } from './testing/harness';
import { safeSince } from './windowStart';

let h: Harness<Simulator> | null = null;
const start = async (extra: Record<string, unknown> = {}) =>
  startHarness(await startSimulator(simOptions(extra)));
afterEach(async () => {
  await h?.close();
  h = null;
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const midtown = { kind: 'circle' as const, lat: 40.7549, lon: -73.984, radiusMi: 0.6 };
const fishers = { kind: 'circle' as const, lat: 39.9568, lon: -86.0134, radiusMi: 1 };

/** The since of every tile page (not radius checks or cap checks), in order; '' when none was sent. */
const sinces = (): string[] =>
  h!.db
    .prepare<[], { url: string }>(
      "SELECT url FROM request_log WHERE url LIKE '%max_records=500%sort_by=date%' ORDER BY id",
    )
    .all()
    .map((r) => new URL(r.url).searchParams.get('since') ?? '');

/** The run counts every request it sent; the rest the log holds are outside any run (other probes). */
function expectEveryRequestCounted(): void {
  const counted = h!.db.prepare<[], { n: number }>('SELECT sum(requests) AS n FROM sync_runs').get()?.n;
  const logged = h!.db
    .prepare<[], { n: number }>('SELECT count(*) AS n FROM request_log WHERE run_id IS NOT NULL')
    .get()?.n;
  const outside = h!.db
    .prepare<[], { n: number }>('SELECT count(*) AS n FROM request_log WHERE run_id IS NULL')
    .get()?.n;
  expect(counted).toBe(logged);
  expect((counted ?? 0) + (outside ?? 0)).toBe(h!.sim.stats().total);
}

/** Incidents the window serves in the shape, reported within its first `hours` hours. */
function firstHours(shape: typeof midtown, hours: number): number[] {
  const windowStart = h!.sim.clock.nowMs() - h!.conn.limits.windowDays * DAY;
  const truth = truthIn(h!.sim, shape);
  return h!.sim
    .groundTruth({
      lat: shape.lat,
      lon: shape.lon,
      radiusMi: shape.radiusMi,
      windowDays: h!.conn.limits.windowDays,
    })
    .filter((t) => truth.has(t.cdid) && Date.parse(t.reportedAt) < windowStart + hours * HOUR)
    .map((t) => t.cdid);
}

describe("a first backfill asks each tile's oldest part with no since (the window's own start)", () => {
  it('on a server that answers nothing for a since older than the window, fetches the first day too', async () => {
    h = await start({ sinceBeforeWindow: 'empty' });
    const a = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    const [r] = await h.service.syncAreas([a], h.conn);
    expect(r?.state).toBe('done');
    const got = storedIn(h.db, midtown);
    // Incidents lie in the window's first hours, and every one of its first day is fetched.
    const first = firstHours(midtown, 6);
    expect(first.length).toBeGreaterThan(5);
    expect(missing(new Set(firstHours(midtown, 24)), got)).toEqual([]);
    expect(missing(truthIn(h.sim, midtown), got)).toEqual([]);
    // No since older than the window was ever sent (it would have answered nothing).
    const safe = safeSince(h.sim.clock.nowMs(), h.conn.limits.windowDays);
    const sent = sinces();
    expect(sent[0]).toBe('');
    expect(sent.filter((s) => s !== '' && s < safe)).toEqual([]);
    expectEveryRequestCounted();
  });

  it('the ledger covers the window from the oldest day returned, that day marked provisional (partial)', async () => {
    h = await start({ sinceBeforeWindow: 'empty' });
    const a = h.service.areas.create({ name: 'Fishers', shape: fishers }, h.sim.clock.nowMs());
    const [r] = await h.service.syncAreas([a], h.conn);
    expect(r?.state).toBe('done');
    expect(missing(truthIn(h.sim, fishers), storedIn(h.db, fishers))).toEqual([]);
    const rows = h.db
      .prepare<[], { tile: string; day: string; status: string }>(
        'SELECT tile, day, status FROM coverage ORDER BY tile, day',
      )
      .all();
    expect(rows.length).toBeGreaterThan(0);
    const zone = 'America/Indiana/Indianapolis';
    const windowDay = localDayOf(h.sim.clock.nowMs() - h.conn.limits.windowDays * DAY, zone);
    for (const tile of new Set(rows.map((x) => x.tile))) {
      const days = rows.filter((x) => x.tile === tile);
      const [oldest, next] = days;
      // The first day may be partial: provisional, never complete; the next is complete.
      expect(oldest?.status).toBe('provisional');
      expect(oldest!.day >= windowDay).toBe(true);
      expect(
        oldest!.day <= localDayOf(h.sim.clock.nowMs() - (h.conn.limits.windowDays - 2) * DAY, zone),
      ).toBe(true);
      expect(next?.status).toBe('complete');
    }
  });

  it('on a server that serves the window for an old since, the same: no since, everything', async () => {
    h = await start();
    const a = h.service.areas.create({ name: 'Fishers', shape: fishers }, h.sim.clock.nowMs());
    const [r] = await h.service.syncAreas([a], h.conn);
    expect(r?.state).toBe('done');
    expect(sinces()[0]).toBe('');
    expect(missing(truthIn(h.sim, fishers), storedIn(h.db, fishers))).toEqual([]);
    expectEveryRequestCounted();
  });
});
