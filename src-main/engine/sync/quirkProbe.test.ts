import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import { missing, simOptions, startHarness, storedIn, truthIn, type Harness } from './testing/harness';
import { readQuirk, safeSince } from './windowStart';

let h: Harness<Simulator> | null = null;
const start = async (extra: Record<string, unknown> = {}) =>
  startHarness(await startSimulator(simOptions(extra)));
afterEach(async () => {
  await h?.close();
  h = null;
});

const area = { kind: 'circle' as const, lat: 39.9568, lon: -86.0134, radiusMi: 1 };
const sinces = (): string[] =>
  h!.db
    .prepare<[], { url: string }>(
      "SELECT url FROM request_log WHERE url LIKE '%max_records=500%sort_by=date%' ORDER BY id",
    )
    .all()
    .map((r) => new URL(r.url).searchParams.get('since') ?? '');

/** The run counts every request it sent; the rest the log holds are outside any run (other probes). */
function expectEveryRequestCounted(): void {
  const counted = h!.db.prepare<[], { n: number }>('SELECT requests AS n FROM sync_runs').get()?.n;
  const logged = h!.db
    .prepare<[], { n: number }>('SELECT count(*) AS n FROM request_log WHERE run_id = 1')
    .get()?.n;
  const outside = h!.db
    .prepare<[], { n: number }>('SELECT count(*) AS n FROM request_log WHERE run_id IS NULL')
    .get()?.n;
  expect(counted).toBe(logged);
  expect((counted ?? 0) + (outside ?? 0)).toBe(h!.sim.stats().total);
}

describe('how a server treats a since before the window, learned from the first answers', () => {
  it("a server that serves the window: the first page is the area's, asked from before the window", async () => {
    h = await start();
    const a = h.service.areas.create({ name: 'Fishers', shape: area }, h.sim.clock.nowMs());
    const [r] = await h.service.syncAreas([a], h.conn);
    expect(r?.state).toBe('done');
    expect(readQuirk(h.db, h.conn.baseUrl)).toBe('window');
    const safe = safeSince(h.sim.clock.nowMs(), h.conn.limits.windowDays);
    const [first, ...rest] = sinces();
    expect(first! < safe).toBe(true);
    // No separate probe: no other question went out with a since before the window.
    expect(rest.filter((s) => s < safe)).toEqual([]);
    expect(missing(truthIn(h.sim, area), storedIn(h.db, area))).toEqual([]);
    expectEveryRequestCounted();
  });

  it('a server that answers nothing: asks again inside the window, learns it, and counts both', async () => {
    h = await start({ sinceBeforeWindow: 'empty' });
    const a = h.service.areas.create({ name: 'Fishers', shape: area }, h.sim.clock.nowMs());
    const [r] = await h.service.syncAreas([a], h.conn);
    expect(r?.state).toBe('done');
    expect(readQuirk(h.db, h.conn.baseUrl)).toBe('empty');
    const safe = safeSince(h.sim.clock.nowMs(), h.conn.limits.windowDays);
    const [first, second] = sinces();
    expect(first! < safe).toBe(true);
    expect(second).toBe(safe);
    expectEveryRequestCounted();
  });
});
