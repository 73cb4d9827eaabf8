import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { openDatabase, type Db } from '../store/database';
import { officeDigest, replicaDigest } from './digest';
import { migrateOffice } from './migrate';
import { putOfficeIncidents } from './officeArchive';
import { openOfficePool, type OfficePool } from './officeDb';
import { officeRow } from './officeRows.testing';
import { parseOfficeUrl } from './officeUrl';
import { startTestPostgres, type TestPostgres } from './pgTesting';
import { linkOffice, pullReplica, readOfficeLink, unlinkOffice } from './replica';

let server: TestPostgres;
let pool: OfficePool;
let tmp: TempDir;
let db: Db;
let officeId: string;
const now = () => Date.now();

beforeAll(async () => {
  server = await startTestPostgres();
  pool = openOfficePool(parseOfficeUrl(server.url), server.password);
  const schema = await migrateOffice(pool);
  tmp = makeTempDir();
  db = openDatabase(path.join(tmp.path, 'blotter.sqlite'));
  officeId = schema.officeId;
  linkOffice(db, server.url, officeId, now());
}, 60_000);
afterAll(async () => {
  db?.close();
  tmp?.remove();
  await pool?.end();
  server?.stop();
});

const localCount = (sql: string) => (db.prepare(sql).pluck().get() as number) ?? 0;

test('a replica pulls new rows, areas and the coverage ledger, then only what changed: amended, removed, deleted', async () => {
  await pool.query(
    `INSERT INTO areas (id, name, kind, center_lat, center_lon, radius_mi, polygon, min_lat, min_lon, max_lat, max_lon, created_at)
     VALUES (1, 'Loop', 'circle', 41.85, -87.65, 2, NULL, 41.8, -87.7, 41.9, -87.6, 1),
            (2, 'Yard', 'polygon', 41.81, -87.69, NULL, '[[41.8,-87.7],[41.82,-87.7],[41.82,-87.68]]', 41.8, -87.7, 41.82, -87.68, 2)`,
  );
  await pool.query(
    `INSERT INTO coverage (area_id, tile, day, status, checked_at)
     SELECT 1, 't' || g, '2025-05-' || lpad(g::text, 2, '0'), 'complete', 5 FROM generate_series(1, 20) g`,
  );
  await putOfficeIncidents(
    pool,
    Array.from({ length: 12_345 }, (_, i) => officeRow(i + 1)),
  );

  const indexes = () =>
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE tbl_name = 'incidents' AND type IN ('index', 'trigger') ORDER BY name",
      )
      .pluck()
      .all();
  const schemaBefore = indexes();
  // A first catch-up this large goes in bulk (indexes set aside and rebuilt, one transaction).
  const first = await pullReplica(pool, db, now, { pageSize: 1_000, bulkMinRows: 5_000 });
  expect(indexes()).toEqual(schemaBefore);
  expect(first).toEqual({ areas: 2, coverage: 20, incidents: 12_345, deletions: 0 });
  expect(replicaDigest(db)).toEqual(await officeDigest(pool));
  expect(localCount('SELECT count(*) FROM areas')).toBe(2);
  expect(localCount('SELECT count(*) FROM coverage')).toBe(20);
  // The local indexes follow: the spatial index and full-text search find pulled rows.
  expect(localCount('SELECT count(*) FROM incidents INDEXED BY incidents_by_lon_cell WHERE lat > -90')).toBe(
    12_345,
  );
  expect(localCount("SELECT count(*) FROM incidents_fts WHERE incidents_fts MATCH 'Report'")).toBe(4_115);

  // The office amends, soft-removes, deletes and adds; an area and a day of coverage go.
  await putOfficeIncidents(pool, [
    officeRow(7, { type: 'Robbery', description: 'Amended' }),
    officeRow(20_000),
  ]);
  await pool.query(
    "UPDATE incidents SET removed_at = 99, removed_reason = 'gone from the API' WHERE cdid = 8",
  );
  await pool.query('DELETE FROM incidents WHERE cdid BETWEEN 100 AND 149');
  await pool.query("DELETE FROM coverage WHERE area_id = 1 AND day = '2025-05-01'");
  await pool.query('DELETE FROM areas WHERE id = 2');
  // A deleted cdid that comes back is a row again, not a deletion.
  await putOfficeIncidents(pool, [officeRow(120, { address: 'Back again' })]);

  const second = await pullReplica(pool, db, now, { pageSize: 1_000, bulkMinRows: 5_000 });
  expect(second).toEqual({ areas: 0, coverage: 0, incidents: 4, deletions: 49 + 1 + 1 });
  expect(replicaDigest(db)).toEqual(await officeDigest(pool));
  expect(db.prepare('SELECT type, description FROM incidents WHERE cdid = 7').get()).toEqual({
    type: 'Robbery',
    description: 'Amended',
  });
  expect(localCount("SELECT count(*) FROM incidents_fts WHERE incidents_fts MATCH 'Amended'")).toBe(1);
  expect(db.prepare('SELECT removed_reason FROM incidents WHERE cdid = 8').pluck().get()).toBe(
    'gone from the API',
  );
  expect(db.prepare('SELECT address FROM incidents WHERE cdid = 120').pluck().get()).toBe('Back again');
  expect(localCount('SELECT count(*) FROM incidents WHERE cdid BETWEEN 100 AND 149')).toBe(1);
  expect(localCount('SELECT count(*) FROM areas')).toBe(1);
  expect(localCount('SELECT count(*) FROM coverage')).toBe(19);
  expect(localCount('SELECT count(*) FROM incidents INDEXED BY incidents_by_lon_cell WHERE lat > -90')).toBe(
    12_345 + 1 - 49,
  );

  // Nothing new: nothing pulled.
  expect(await pullReplica(pool, db, now)).toEqual({ areas: 0, coverage: 0, incidents: 0, deletions: 0 });
  expect(readOfficeLink(db)?.pulled_at).toBeGreaterThan(0);

  // Leaving keeps the replica as a standalone archive.
  const before = replicaDigest(db);
  expect(unlinkOffice(db)).toBe(true);
  expect(readOfficeLink(db)).toBeUndefined();
  expect(replicaDigest(db)).toEqual(before);
}, 60_000);

test('a page is applied 1,000 rows at a time, each with its cursor, the engine thread free between (issue 31)', async () => {
  // Joined again and pulled once, new incidents are news (onIncidents).
  if (!readOfficeLink(db)) linkOffice(db, server.url, officeId, now());
  await pullReplica(pool, db, now);
  const held = localCount('SELECT count(*) FROM incidents');
  expect(held).toBeGreaterThan(0);
  await putOfficeIncidents(
    pool,
    Array.from({ length: 3_500 }, (_, i) => officeRow(50_000 + i)),
  );
  const marks: string[] = [];
  const cursors: number[] = [];
  const pulled = await pullReplica(pool, db, now, {
    pageSize: 5_000,
    bulkMinRows: 1_000_000,
    onIncidents: (fresh) => {
      // Inside the slice's own transaction: its cursor is not yet moved; a turn of the event loop
      // comes before the next slice.
      marks.push(`slice ${fresh.length}`);
      cursors.push(readOfficeLink(db)!.seq_incidents);
      setImmediate(() => marks.push('turn'));
    },
  });
  expect(pulled.incidents).toBe(3_500);
  // One 5,000-row page held the thread for its whole transaction; now four slices with turns between.
  expect(marks.slice(0, 7)).toEqual([
    'slice 1000',
    'turn',
    'slice 1000',
    'turn',
    'slice 1000',
    'turn',
    'slice 500',
  ]);
  // Each slice committed with its cursor: the next one starts past it.
  expect(new Set(cursors).size).toBe(4);
  expect(replicaDigest(db)).toEqual(await officeDigest(pool));
  expect(localCount('SELECT count(*) FROM incidents')).toBe(held + 3_500);
}, 60_000);
