import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import type { FetchLike } from '../api/source';
import { createAreaStore } from '../areas/areaStore';
import { simOptions, startHarness, storedIn, TEST_KEY, truthIn } from '../sync/testing/harness';
import { staleSince } from '../sync/windowStart';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { officeAreaEdits } from './areaEdits';
import { officeDigest, replicaDigest } from './digest';
import { areaLease } from './leader';
import { currentLeader } from './lease';
import { keyHmac } from './limiter';
import { openDesk, type Desk } from './officeDesk.testing';
import { startTestPostgres, type TestPostgres } from './pgTesting';
import { readOfficeLink } from './replica';

let server: TestPostgres;
let sim: Simulator;
let tmp: TempDir;
const desks: Desk[] = [];
let t0 = 0;
const now = () => sim.clock.nowMs() + (Date.now() - t0);

/** Every search a desk sent, as its URL (the same page asked twice is the same URL). */
const sent: string[] = [];
const recording =
  (hold?: (n: number) => Promise<void>): FetchLike =>
  async (u, i) => {
    const url = String(u);
    if (url.includes('/crimes.json?')) {
      sent.push(url);
      await hold?.(sent.length);
    }
    return fetch(u, i);
  };

async function desk(name: string, extra: { ttlMs?: number; fetch?: FetchLike } = {}): Promise<Desk> {
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
    fetch: extra.fetch ?? recording(),
    ...extra,
  });
  desks.push(d);
  return d;
}

beforeAll(async () => {
  server = await startTestPostgres();
  sim = await startSimulator(simOptions());
  t0 = Date.now();
  tmp = makeTempDir('blotter-office-sync-');
}, 60_000);
afterAll(async () => {
  await Promise.all(desks.map((d) => d.close()));
  await sim?.close();
  server?.stop();
  tmp?.remove();
});

/** The same area synced by a standalone Blotter: its incidents' content digest. */
async function standalone(shape: { kind: 'circle'; lat: number; lon: number; radiusMi: number }) {
  const h = await startHarness(await startSimulator(simOptions()));
  try {
    const area = h.service.areas.create({ name: 'alone', shape }, h.sim.clock.nowMs());
    const [s] = await h.service.syncAreas([area], h.conn);
    expect(s?.state).toBe('done');
    return replicaDigest(h.db, true);
  } finally {
    await h.close();
  }
}

test('one desktop leads an area (pages to PostgreSQL, budget from the office ledger), the other follows by pulling; both replicas equal the office and a standalone sync', async () => {
  const a = await desk('a');
  const b = await desk('b');
  const shape = { kind: 'circle' as const, lat: 40.7549, lon: -73.984, radiusMi: 0.6 };
  // An area drawn in office mode is the office's: created in PostgreSQL, back by the pull.
  const edits = officeAreaEdits(a.db, createAreaStore(a.db), async () => a.pool, a.pull);
  const area = await edits.create({ name: 'Midtown', shape }, now());
  expect((await a.pool.query('SELECT name FROM areas WHERE id = $1', [area.id])).rows).toEqual([
    { name: 'Midtown' },
  ]);
  await b.pull();
  const areaB = b.service.areas.get(area.id)!;
  expect(areaB.name).toBe('Midtown');

  sim.resetStats();
  sent.length = 0;
  const [ra, rb] = await Promise.all([
    a.service.syncAreas([area], a.conn),
    b.service.syncAreas([areaB], b.conn),
  ]);
  const runs = [ra![0]!, rb![0]!];
  expect(runs.map((r) => r.state)).toEqual(['done', 'done']);
  // Exactly one led; the other reports the leader's run.
  expect(runs.filter((r) => r.ledBy === undefined)).toHaveLength(1);
  const follower = runs.find((r) => r.ledBy !== undefined)!;
  expect(['a', 'b']).toContain(follower.ledBy);

  // Every request went through the office ledger, keyed by the key's HMAC (never the key).
  const stats = sim.stats();
  expect(stats.byStatus['429'] ?? 0).toBe(0);
  const officeId = readOfficeLink(a.db)!.office_id;
  const ledger = await a.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM request_ledger WHERE key_hmac = $1',
    [keyHmac(TEST_KEY, officeId)],
  );
  expect(ledger.rows[0]!.n).toBe(stats.total);
  const leaks = await a.pool.query(`SELECT 1 FROM request_ledger WHERE key_hmac = $1 OR holder LIKE $2`, [
    TEST_KEY,
    `%${TEST_KEY}%`,
  ]);
  expect(leaks.rowCount).toBe(0);
  expect(new Set(sent).size).toBe(sent.length); // no page asked twice

  await Promise.all([a.pull(), b.pull()]);
  const office = await officeDigest(a.pool);
  expect(office.rows).toBeGreaterThan(500);
  expect(replicaDigest(a.db)).toEqual(office);
  expect(replicaDigest(b.db)).toEqual(office);
  const truth = truthIn(sim, shape);
  expect([...truth].filter((c) => !storedIn(b.db, shape).has(c))).toEqual([]);
  // The area's sync times came back too (the scheduler reads them on every desktop).
  expect(b.service.areas.get(area.id)!.backfilledAt).not.toBeNull();
  expect(await officeDigest(a.pool, true)).toEqual(await standalone(shape));
}, 120_000);

test('a paused leader that lost its lease cannot commit; the next leader resumes from the office’s job state without loss or duplicates', async () => {
  let release: () => void = () => undefined;
  let blocked: () => void = () => undefined;
  const isBlocked = new Promise<void>((r) => (blocked = r));
  const resumed = new Promise<void>((r) => (release = r));
  const searchesBefore = sent.length;
  let areaId = 0;
  let paused = false;
  let held = '';
  // Desk c is "paused" in the middle of the request after its second page: no heartbeat, no progress.
  // Its lease must outlive a heartbeat delayed by a busy machine until then (a 600 ms TTL, beating
  // every 200 ms, expired under load: c failed over to itself and repeated a page before the pause,
  // d likewise after it — three pages asked twice, each failover rightly repeating one); the test
  // waits one TTL for the pause to cost c the lease. d's lease is never waited for.
  const c: Desk = await desk('c', {
    ttlMs: 4_000,
    fetch: recording(async (n) => {
      if (paused || areaId === 0) return;
      const done = await c.pool.query<{ n: number }>(
        "SELECT (run->>'done')::int AS n FROM sync_state WHERE area_id = $1",
        [areaId],
      );
      if ((done.rows[0]?.n ?? 0) >= 2) {
        paused = true;
        held = sent[n - 1]!;
        blocked();
        await resumed;
      }
    }),
  });
  const d = await desk('d', { ttlMs: 30_000 });
  // Dense enough for many pages (the block where more than 500 incidents share a day).
  const shape = { kind: 'circle' as const, lat: sim.bigBlock.lat, lon: sim.bigBlock.lon, radiusMi: 0.3 };
  const area = await officeAreaEdits(c.db, createAreaStore(c.db), async () => c.pool, c.pull).create(
    { name: 'Big block', shape },
    now(),
  );
  await d.pull();
  areaId = area.id;

  sim.resetStats();
  const first = c.service.syncAreas([area], c.conn);
  await isBlocked;
  c.leader.paused.add(area.id);
  // The lease expires by the server's clock (a heartbeat sent just before the pause may land late).
  while (await currentLeader(c.pool, areaLease(area.id))) await new Promise((r) => setTimeout(r, 25));
  const state = await c.pool.query<{ holder: string; token: number }>(
    'SELECT holder, token FROM sync_state WHERE area_id = $1',
    [area.id],
  );
  // c committed two pages under its first lease (the area's first: token 1), never lost before the pause.
  expect(state.rows[0]).toMatchObject({ holder: 'c', token: 1 });

  const [second] = await d.service.syncAreas([d.service.areas.get(area.id)!], d.conn);
  expect(second?.state).toBe('done');
  expect(second?.resumed).toBe(true);
  release();
  // c's commit after the pause was refused; c then follows the new leader: the area is done, by d.
  const [stale] = await first;
  expect(stale).toMatchObject({ state: 'done', ledBy: 'd' });

  const after = await c.pool.query<{ holder: string; token: number }>(
    'SELECT holder, token FROM sync_state WHERE area_id = $1',
    [area.id],
  );
  expect(after.rows[0]!.holder).toBe('d');
  expect(after.rows[0]!.token).toBeGreaterThan(state.rows[0]!.token);

  // Only the page c held was asked twice (d asked it again after the takeover). Each folder
  // learns once how the server treats a stale since (a probe, not a tile page): not counted.
  const probe = `since=${staleSince(now(), 30)}`;
  const mine = sent.slice(searchesBefore).filter((u) => !u.includes(probe));
  expect(mine.filter((u, i) => mine.indexOf(u) !== i)).toEqual([held]);
  expect(sim.stats().byStatus['429'] ?? 0).toBe(0);

  await Promise.all([c.pull(), d.pull()]);
  const office = await officeDigest(c.pool);
  expect(replicaDigest(c.db)).toEqual(office);
  expect(replicaDigest(d.db)).toEqual(office);
  const officeContent = await officeDigest(c.pool, true);
  const alone = await standalone(shape);
  // The office archive also holds the first test's area: compare this area's rows.
  const inArea = (db: Desk['db']) => storedIn(db, shape);
  expect(inArea(d.db).size).toBeGreaterThan(0);
  expect([...truthIn(sim, shape)].filter((x) => !inArea(d.db).has(x))).toEqual([]);
  expect(officeContent.rows).toBeGreaterThanOrEqual(alone.rows);
}, 120_000);

test('the refresh scheduler in office mode leads the due areas through the office: its pages are in PostgreSQL first, then in every replica by the pull', async () => {
  const [a, b] = desks;
  const before = await a!.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM sync_state WHERE run->>'kind' = 'refresh'",
  );
  expect(before.rows[0]!.n).toBe(0);
  sim.clock.advance(20 * 60_000); // every area is due (refresh every 15 minutes)
  b!.service.startScheduler({ firstCheckMs: 10, checkEveryMs: 3_600_000 });
  const refreshed = async () =>
    (
      await a!.pool.query<{ holder: string }>(
        "SELECT holder FROM sync_state WHERE run->>'kind' = 'refresh' AND run->>'state' = 'done' ORDER BY area_id",
      )
    ).rows.map((r) => r.holder);
  await expect.poll(refreshed, { timeout: 60_000, interval: 250 }).toEqual(['b', 'b']);
  await expect.poll(() => b!.service.isRunning(1) || b!.service.isRunning(2)).toBe(false);
  await Promise.all([a!.pull(), b!.pull()]);
  const office = await officeDigest(a!.pool);
  expect(replicaDigest(b!.db)).toEqual(office);
  expect(replicaDigest(a!.db)).toEqual(office);
}, 90_000);
