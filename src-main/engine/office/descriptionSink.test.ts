import path from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import type { Logger } from '../log';
import type { IncidentRow } from '../store/incidents/incidentRow';
import { createAreaStore, type AreaRecord } from '../areas/areaStore';
import { simOptions, TEST_KEY } from '../sync/testing/harness';
import { createSyncService } from '../sync/syncService';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { officeAreaEdits } from './areaEdits';
import { officeDigest, replicaDigest } from './digest';
import { officeDescriptions } from './descriptionSink';
import { putOfficeIncidents } from './officeArchive';
import { OfficeUnreachableError } from './officeDb';
import { openDesk, type Desk } from './officeDesk.testing';
import { startTestPostgres, type TestPostgres } from './pgTesting';
import type * as Replica from './replica';

// How many replica pulls are under way: a write to a replica's incidents table outside one is a
// local-only write (the replica would differ from the office for good).
const pulls = vi.hoisted(() => ({ active: 0 }));
vi.mock('./replica', async (original) => {
  const m = await original<typeof Replica>();
  return {
    ...m,
    pullReplica: async (...args: Parameters<typeof m.pullReplica>) => {
      pulls.active++;
      try {
        return await m.pullReplica(...args);
      } finally {
        pulls.active--;
      }
    },
  };
});

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

/**
 * Every description written into the desk's incidents table from now on, and whether a pull was
 * under way. (A leader's commit also writes the replica, in a dry run that is always rolled back
 * — leader.ts — but it never changes a description: a record's upsert keeps the one held.)
 */
function watchWrites(d: Desk): { cdid: number; inPull: boolean }[] {
  const seen: { cdid: number; inPull: boolean }[] = [];
  d.db.function('note_incident_write', (cdid: number) => {
    seen.push({ cdid, inPull: pulls.active > 0 });
    return null;
  });
  d.db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS note_incident_update AFTER UPDATE ON main.incidents
    WHEN NEW.description IS NOT OLD.description OR NEW.description_fetched_at IS NOT OLD.description_fetched_at
    BEGIN SELECT note_incident_write(NEW.cdid); END`);
  d.db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS note_incident_insert AFTER INSERT ON main.incidents
    WHEN NEW.description_fetched_at IS NOT NULL
    BEGIN SELECT note_incident_write(NEW.cdid); END`);
  return seen;
}

type Described = { description: string | null; description_fetched_at: number | null };
const localRow = (d: Desk, cdid: number) =>
  d.db
    .prepare<[number], Described>('SELECT description, description_fetched_at FROM incidents WHERE cdid = ?')
    .get(cdid);
const officeRow = async (d: Desk, cdid: number) =>
  (
    await d.pool.query<Described & { change_seq: number }>(
      'SELECT description, description_fetched_at, change_seq FROM incidents WHERE cdid = $1',
      [cdid],
    )
  ).rows[0];

let a: Desk;
let b: Desk;
let undescribed: number[] = [];
let area: AreaRecord;

beforeAll(async () => {
  server = await startTestPostgres();
  sim = await startSimulator(simOptions());
  t0 = Date.now();
  tmp = makeTempDir('blotter-office-descriptions-');
  a = await desk('a');
  b = await desk('b');
  const shape = { kind: 'circle' as const, lat: 40.7549, lon: -73.984, radiusMi: 0.3 };
  area = await officeAreaEdits(a.db, createAreaStore(a.db), async () => a.pool, a.pull).create(
    { name: 'Midtown', shape },
    now(),
  );
  const [run] = await a.service.syncAreas([area], a.conn);
  expect(run?.state).toBe('done');
  await b.pull();
  undescribed = (
    await a.pool.query<{ cdid: number }>(
      'SELECT cdid FROM incidents WHERE description_fetched_at IS NULL AND cdid > 0 ORDER BY cdid LIMIT 2',
    )
  ).rows.map((r) => r.cdid);
  expect(undescribed).toHaveLength(2);
}, 120_000);
afterAll(async () => {
  await Promise.all(desks.map((d) => d.close()));
  await sim?.close();
  server?.stop();
  tmp?.remove();
});

test('a description fetched on demand in office mode goes to the office row; both replicas get it by the pull, none by a local write', async () => {
  const cdid = undescribed[0]!;
  const writes = watchWrites(a);
  const before = (await officeRow(a, cdid))!;
  expect(localRow(a, cdid)?.description_fetched_at).toBeNull();

  const shown = await a.service.detail(cdid);
  expect(typeof shown.description).toBe('string');
  expect(shown.description!.length).toBeGreaterThan(0);

  // The office's row holds it, renumbered so every replica's pull brings it.
  const office = (await officeRow(a, cdid))!;
  expect(office.description).toBe(shown.description);
  expect(office.description_fetched_at).not.toBeNull();
  expect(office.change_seq).toBeGreaterThan(before.change_seq);

  // Desktop A shows it at once, and its replica row was written only by the pull.
  expect(localRow(a, cdid)).toEqual({
    description: shown.description,
    description_fetched_at: office.description_fetched_at,
  });
  expect(writes.filter((w) => w.cdid === cdid).length).toBeGreaterThan(0);
  expect(writes.filter((w) => !w.inPull)).toEqual([]);

  // Desktop B gets it by its pull.
  expect(localRow(b, cdid)?.description_fetched_at).toBeNull();
  await b.pull();
  expect(localRow(b, cdid)).toEqual({
    description: shown.description,
    description_fetched_at: office.description_fetched_at,
  });
}, 60_000);

test('a leader page carrying an older copy of the row (its replica had not pulled yet) does not undo a kept description', async () => {
  const cdid = undescribed[0]!;
  const kept = (await officeRow(a, cdid))!;
  expect(kept.description).not.toBeNull();
  // What a leader's replica held before its pull: the same incident, seen again, no description.
  const stale = b.db.prepare<[number], IncidentRow>('SELECT * FROM incidents WHERE cdid = ?').get(cdid)!;
  await putOfficeIncidents(a.pool, [
    { ...stale, description: null, description_fetched_at: null, last_seen: stale.last_seen + 1 },
  ]);
  const after = (await officeRow(a, cdid))!;
  expect(after.description).toBe(kept.description);
  expect(after.description_fetched_at).toBe(kept.description_fetched_at);
  await b.pull();
  expect(localRow(b, cdid)?.description).toBe(kept.description);
}, 60_000);

test('PostgreSQL unreachable: the fetched description is shown, kept nowhere, and the log says so', async () => {
  const cdid = undescribed[1]!;
  const warned: { message: string; fields: unknown }[] = [];
  const log: Logger = {
    name: 'test',
    debug: () => undefined,
    info: () => undefined,
    warn: (message, fields) => warned.push({ message, fields }),
    error: () => undefined,
  };
  const down = async (): Promise<never> => {
    throw new OfficeUnreachableError('The office database at 127.0.0.1:1 cannot be reached.');
  };
  const writes = watchWrites(a);
  const service = createSyncService({
    db: a.db,
    log,
    emit: () => undefined,
    connect: async () => a.conn,
    now,
    office: () => ({ ...a.leader, descriptions: officeDescriptions(down, a.pull, log) }),
  });
  try {
    const shown = await service.detail(cdid);
    expect(shown.description!.length).toBeGreaterThan(0);
  } finally {
    await service.close();
  }
  expect(localRow(a, cdid)).toEqual({ description: null, description_fetched_at: null });
  expect((await officeRow(a, cdid))?.description_fetched_at).toBeNull();
  expect(writes.filter((w) => w.cdid === cdid)).toEqual([]);
  expect(warned.map((w) => w.message)).toContainEqual(
    expect.stringMatching(/not kept: PostgreSQL unreachable/),
  );
}, 60_000);

test("a leader's background descriptions (details) go to the office and come back by the pull, never into its replica alone", async () => {
  const writes = watchWrites(a);
  const [run] = await a.service.syncAreas([area], a.conn, { details: true });
  expect(run?.state).toBe('done');
  expect(run?.ledBy).toBeUndefined(); // desktop A led
  const office = (await officeRow(a, undescribed[1]!))!;
  expect(office.description).not.toBeNull();
  expect(localRow(a, undescribed[1]!)?.description).toBe(office.description);
  const described = await a.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM incidents WHERE description IS NOT NULL',
  );
  expect(described.rows[0]!.n).toBeGreaterThan(2);
  expect(writes.filter((w) => !w.inPull)).toEqual([]);
  await Promise.all([a.pull(), b.pull()]);
  const digest = await officeDigest(a.pool);
  expect(replicaDigest(a.db)).toEqual(digest);
  expect(replicaDigest(b.db)).toEqual(digest);
}, 120_000);
