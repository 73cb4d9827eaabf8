/**
 * Office leaders on the v1 surface: every run commits through the office sink, so a leader may sync
 * over v1 (its pages reach PostgreSQL and come back by the pull), and what it learned of the server
 * (its profile: v1 verified) is the office's, so the next leader — a desktop that never synced —
 * neither probes v1 again nor asks the live surface for a sample.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import { createJobStore } from '../sync/jobStore';
import { readProfile } from '../sync/serverProfile';
import { missing, simOptions, storedIn, TEST_KEY, truthIn } from '../sync/testing/harness';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { officeAreaEdits } from './areaEdits';
import { createAreaStore } from '../areas/areaStore';
import { openDesk, type Desk } from './officeDesk.testing';
import { startTestPostgres, type TestPostgres } from './pgTesting';

let server: TestPostgres;
let sim: Simulator;
let tmp: TempDir;
const desks: Desk[] = [];
let t0 = 0;
const now = () => sim.clock.nowMs() + (Date.now() - t0);

async function desk(name: string): Promise<Desk> {
  const d = await openDesk({
    dir: path.join(tmp.path, name),
    pgUrl: server.url,
    password: server.password,
    baseUrl: sim.url,
    key: TEST_KEY,
    ratePerMinute: 100_000,
    windowDays: 30,
    now,
    followEveryMs: 100,
    holder: name,
  });
  desks.push(d);
  return d;
}

beforeAll(async () => {
  server = await startTestPostgres();
  sim = await startSimulator(simOptions({ v1: true }));
  t0 = Date.now();
  tmp = makeTempDir('blotter-office-v1-');
}, 60_000);
afterAll(async () => {
  await Promise.all(desks.map((d) => d.close()));
  await sim?.close();
  server?.stop();
  tmp?.remove();
});

test('an office leader syncs over v1 through the office sink; the next leader starts from the office profile and does not probe again', async () => {
  const a = await desk('a');
  const shape = { kind: 'circle' as const, lat: 40.7549, lon: -73.984, radiusMi: 0.6 };
  const edits = officeAreaEdits(a.db, createAreaStore(a.db), async () => a.pool, a.pull);
  const area = await edits.create({ name: 'Midtown', shape }, now());

  const [first] = await a.service.syncAreas([area], a.conn);
  expect(first?.state, first?.error?.message).toBe('done');
  expect(first?.ledBy).toBeUndefined();
  // The first backfill's first page showed more than v1 costs, v1 answered the probe: the rest on v1.
  expect(createJobStore(a.db).surfaceOf(first!.runId)).toBe('v1');
  const office = await a.pool.query<{ surface: string; state: string }>(
    "SELECT run->>'surface' AS surface, run->>'state' AS state FROM sync_state WHERE area_id = $1",
    [area.id],
  );
  expect(office.rows).toEqual([{ surface: 'v1', state: 'done' }]);
  // The pages came back by the pull: the replica holds the area's every incident.
  expect(missing(truthIn(sim, shape), storedIn(a.db, shape))).toEqual([]);
  const kept = await a.pool.query<{ profile: { surface: { state: string } } }>(
    'SELECT profile FROM server_profiles WHERE base_url = $1',
    [sim.url],
  );
  expect(kept.rows[0]?.profile.surface.state).toBe('verified');

  // A desktop that never synced leads the next sync: the office's profile says v1, so no probe.
  const b = await desk('b');
  await b.pull();
  expect(readProfile(b.db, sim.url).surface).toBeNull();
  sim.clock.advance(3_600_000);
  sim.resetStats();
  const [next] = await b.service.syncAreas([b.service.areas.get(area.id)!], b.conn);
  expect(next?.state, next?.error?.message).toBe('done');
  expect(next?.ledBy).toBeUndefined();
  expect(createJobStore(b.db).surfaceOf(next!.runId)).toBe('v1');
  expect(readProfile(b.db, sim.url).surface?.state).toBe('verified');
  // No probe: nothing asked of the live surface (a probe's sample is a live search).
  expect(sim.stats().byRoute.search ?? 0).toBe(0);
  expect(missing(truthIn(sim, shape), storedIn(b.db, shape))).toEqual([]);
}, 120_000);
