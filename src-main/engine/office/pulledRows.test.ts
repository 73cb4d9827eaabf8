/**
 * Rows in the office database that Blotter would never write — a NaN latitude (PostgreSQL takes
 * 'NaN'), hour 99, weekday 42, lat 1e300, a day that does not exist, an area without a shape — are
 * skipped by the pull and named, and never stop it: the good rows before and after them arrive,
 * a fixed row is taken by the next pull, and the office status names what is still skipped.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { SecretStore } from '../secrets/secretStore';
import { openDatabase, type Db } from '../store/database';
import { createSettingsRepo } from '../store/settingsRepo';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { migrateOffice } from './migrate';
import { putOfficeIncidents } from './officeArchive';
import { openOfficePool, type OfficePool } from './officeDb';
import { officeRow } from './officeRows.testing';
import { parseOfficeUrl } from './officeUrl';
import { startTestPostgres, type TestPostgres } from './pgTesting';
import { problemOf } from './pulledRows';
import { linkOffice, pullReplica, skippedRows } from './replica';
import { createOfficeService } from './service';

let server: TestPostgres;
let pool: OfficePool;
let officeId: string;
let tmp: TempDir;
const dbs: Db[] = [];

beforeAll(async () => {
  server = await startTestPostgres();
  pool = openOfficePool(parseOfficeUrl(server.url), server.password);
  officeId = (await migrateOffice(pool)).officeId;
  tmp = makeTempDir();
}, 60_000);
afterAll(async () => {
  dbs.forEach((d) => d.close());
  await pool?.end();
  server?.stop();
  tmp?.remove();
});

function folder(name: string): Db {
  const db = openDatabase(path.join(tmp.path, `${name}.sqlite`));
  dbs.push(db);
  return db;
}

const held = (db: Db, cdid: number) =>
  db.prepare('SELECT count(*) FROM incidents WHERE cdid = ?').pluck().get(cdid) as number;

test('a pulled incident is checked as API data: a good row passes, absurd but typed values are refused naming the field', () => {
  const good = officeRow(5) as unknown as Record<string, unknown>;
  expect(problemOf('incidents', good)).toBeNull();
  const bad = (over: Record<string, unknown>) => problemOf('incidents', { ...good, ...over });
  expect(bad({ lat: 'NaN' })).toMatch(/^lat = "NaN"/);
  // At a bound the schema itself decides.
  expect(bad({ lat: 90, lon: -180 })).toBeNull();
  expect(bad({ lat: 90.000001 })).toMatch(/^lat = 90.000001/);
  expect(bad({ lat: 1e300 })).toMatch(/^lat = 1e\+300/);
  expect(bad({ local_hour: 99 })).toMatch(/^local_hour = 99/);
  expect(bad({ local_weekday: 42 })).toMatch(/^local_weekday = 42/);
  expect(bad({ local_weekday: ((good.local_weekday as number) + 1) % 7 })).toMatch(/weekday of local_day/);
  expect(bad({ local_day: '2025-02-30', occurred_local: '2025-02-30T10:30' })).toMatch(/^local_day/);
  expect(bad({ type: '' })).toMatch(/^type/);
  expect(bad({ date_raw: '2025-05-01 10:30' })).toMatch(/^date_raw/);
  expect(bad({ source: 'elsewhere' })).toMatch(/^source/);
  // An import's namespaced id is negative; the API's never is.
  expect(bad({ cdid: -7, source: 'import' })).toBeNull();
  expect(bad({ cdid: -7 })).toMatch(/^cdid/);
});

test('one bad office row never halts replication: it is skipped and named, the good rows arrive, a fixed row comes back', async () => {
  const db = folder('replica');
  linkOffice(db, server.url, officeId, Date.now());
  await putOfficeIncidents(
    pool,
    Array.from({ length: 120 }, (_, i) => officeRow(i + 1)),
  );
  await pool.query("UPDATE incidents SET lat = 'NaN' WHERE cdid = 101");
  await pool.query('UPDATE incidents SET local_hour = 99 WHERE cdid = 102');
  await pool.query('UPDATE incidents SET local_weekday = 42 WHERE cdid = 103');
  await pool.query('UPDATE incidents SET lat = 1e300 WHERE cdid = 104');
  // Good rows committed after the bad ones.
  await putOfficeIncidents(
    pool,
    Array.from({ length: 10 }, (_, i) => officeRow(200 + i)),
  );
  // An area refreshed every -5 minutes, and a coverage day of it; a good area and its day.
  await pool.query(
    `INSERT INTO areas (id, name, kind, center_lat, center_lon, radius_mi, min_lat, min_lon, max_lat, max_lon, created_at, refresh_minutes)
     VALUES (1, 'Loop', 'circle', 41.85, -87.65, 2, 41.8, -87.7, 41.9, -87.6, 1, 15),
            (2, 'Broken', 'circle', 41.85, -87.65, 2, 41.8, -87.7, 41.9, -87.6, 1, -5)`,
  );
  await pool.query(
    `INSERT INTO coverage (area_id, tile, day, status, checked_at)
     VALUES (1, 't', '2025-05-01', 'complete', 5), (2, 't', '2025-05-01', 'complete', 5)`,
  );

  // Pages of 50: the bad rows sit in the middle page, good rows on both sides of them.
  const first = await pullReplica(pool, db, Date.now, { pageSize: 50 });
  expect(first).toEqual({ areas: 1, coverage: 1, incidents: 126, deletions: 0 });
  for (const cdid of [1, 100, 105, 120, 200, 209]) expect(held(db, cdid)).toBe(1);
  for (const cdid of [101, 102, 103, 104]) expect(held(db, cdid)).toBe(0);
  const skipped = skippedRows(db);
  expect(skipped.count).toBe(6);
  expect(skipped.rows).toEqual([
    { table: 'areas', key: '2', problem: expect.stringMatching(/^refresh_minutes = -5/) },
    {
      table: 'coverage',
      key: '[2,"t","2025-05-01"]',
      problem: expect.stringMatching(/area 2 is not in this replica/),
    },
    { table: 'incidents', key: '101', problem: expect.stringMatching(/^lat = "NaN"/) },
    { table: 'incidents', key: '102', problem: expect.stringMatching(/^local_hour = 99/) },
    { table: 'incidents', key: '103', problem: expect.stringMatching(/^local_weekday = 42/) },
    { table: 'incidents', key: '104', problem: expect.stringMatching(/^lat = 1e\+300/) },
  ]);

  // The pull goes on past them: later rows arrive, the skipped are not asked again.
  await putOfficeIncidents(pool, [officeRow(300)]);
  expect(await pullReplica(pool, db, Date.now)).toEqual({
    areas: 0,
    coverage: 0,
    incidents: 1,
    deletions: 0,
  });

  // Fixed in the office: the next pull takes it and the list forgets it; so does a deletion.
  await putOfficeIncidents(pool, [officeRow(101)]);
  await pool.query('DELETE FROM incidents WHERE cdid = 102');
  expect(await pullReplica(pool, db, Date.now)).toEqual({
    areas: 0,
    coverage: 0,
    incidents: 1,
    deletions: 1,
  });
  expect(held(db, 101)).toBe(1);
  expect(skippedRows(db).rows.map((r) => r.key)).toEqual(['2', '[2,"t","2025-05-01"]', '103', '104']);
}, 60_000);

test('the office status names the skipped rows', async () => {
  const db = folder('status');
  const m = new Map<string, string>();
  const secrets: SecretStore = {
    get: async (a) => m.get(a) ?? null,
    set: async (a, s) => void m.set(a, s),
    delete: async (a) => m.delete(a),
    probe: async () => ({ available: true }) as Awaited<ReturnType<SecretStore['probe']>>,
  };
  const office = createOfficeService({
    db,
    settings: createSettingsRepo(db),
    secrets,
    emit: () => undefined,
  });
  const { status } = await office.join(server.url, server.password, false);
  expect(status.skipped).toMatchObject({ count: 4 });
  expect(status.skipped!.rows).toContainEqual({
    table: 'incidents',
    key: '103',
    problem: expect.stringMatching(/^local_weekday = 42/),
  });
  await office.leave();
  expect(skippedRows(db).count).toBe(0);
  await office.close();
}, 60_000);
