/**
 * An office bulk catch-up is written on its helper thread's own connection (bulkCatchUp.ts,
 * pullWorker.ts), off the engine's call path (issue 31): calls asked while it runs — its index
 * rebuild included — are answered before it ends; a sync page's write asked meanwhile waits for
 * its turn and lands after; the replica equals the office afterwards. A real PostgreSQL.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { openDatabase, type Db } from '../store/database';
import { WriteTurns } from '../store/writeTurns';
import { officeDigest, replicaDigest } from './digest';
import { migrateOffice } from './migrate';
import { putOfficeIncidents } from './officeArchive';
import { openOfficePool, type OfficePool } from './officeDb';
import { officeRow } from './officeRows.testing';
import { parseOfficeUrl } from './officeUrl';
import { startTestPostgres, type TestPostgres } from './pgTesting';
import { linkOffice, pullReplica, readOfficeLink } from './replica';

const ROWS = 20_000;

let server: TestPostgres;
let pool: OfficePool;
let tmp: TempDir;
let officeId: string;
const now = () => Date.now();

beforeAll(async () => {
  server = await startTestPostgres();
  pool = openOfficePool(parseOfficeUrl(server.url), server.password);
  officeId = (await migrateOffice(pool)).officeId;
  tmp = makeTempDir();
  await putOfficeIncidents(
    pool,
    Array.from({ length: ROWS }, (_, i) => officeRow(i + 1)),
  );
}, 120_000);
afterAll(async () => {
  tmp?.remove();
  await pool?.end();
  server?.stop();
});

function replica(name: string): Db {
  const db = openDatabase(path.join(tmp.path, `${name}.sqlite`));
  linkOffice(db, server.url, officeId, now());
  // A slow index of the incidents (each key a long string's length): the catch-up sets it aside
  // and builds it again from the rows, for a second or more — on whichever thread does the writing.
  db.exec('CREATE INDEX slow_rebuild ON incidents (length(hex(zeroblob(40000 + (cdid % 2)))))');
  return db;
}

test('calls asked during a bulk catch-up are answered before it ends; a page write waits its turn', async () => {
  const db = replica('calls');
  const turns = new WriteTurns(db);
  db.exec('CREATE TABLE page_probe (at INTEGER)');
  // The engine thread's calls, one every 5 ms while the pull runs: the longest wait between answers.
  let pulling = true;
  let longest = 0;
  let answers = 0;
  let last = performance.now();
  let pageWrite: Promise<number> | null = null;
  const ask = (): void => {
    if (!pulling) return;
    const at = performance.now();
    longest = Math.max(longest, at - last);
    last = at;
    db.prepare('SELECT count(*) FROM areas').get(); // a call on the engine's connection
    answers += 1;
    // A sync page arriving mid-catch-up asks for its turn (as syncService's sink does).
    if (!pageWrite && turns.busy)
      pageWrite = turns.take(() => {
        db.prepare('INSERT INTO page_probe VALUES (?)').run(Date.now());
        return db.prepare('SELECT count(*) FROM incidents').pluck().get() as number;
      });
    setTimeout(ask, 5);
  };
  const started = performance.now();
  setTimeout(ask, 5);
  const pulled = await pullReplica(pool, db, now, { pageSize: 2_000, bulkMinRows: 5_000, writeTurns: turns });
  const ms = performance.now() - started;
  pulling = false;

  expect(pulled.incidents).toBe(ROWS);
  // The catch-up lasted (the slow index alone is over a second) while the calls went on being
  // answered: on the engine thread, its rebuild held every call until the commit.
  expect(ms).toBeGreaterThan(1_000);
  expect(answers).toBeGreaterThan(20);
  expect(longest).toBeLessThan(400);
  // The page's write waited for the catch-up's commit: it saw every row, and it is kept.
  expect(pageWrite).not.toBeNull();
  expect(await pageWrite).toBe(ROWS);
  expect(db.prepare('SELECT count(*) FROM page_probe').pluck().get()).toBe(1);

  expect(replicaDigest(db)).toEqual(await officeDigest(pool));
  expect(readOfficeLink(db)!.seq_incidents).toBeGreaterThan(0);
  // The indexes are all back and used: the slow one included, the text index rebuilt.
  const indexes = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE tbl_name = 'incidents' AND type = 'index' AND sql IS NOT NULL",
    )
    .pluck()
    .all();
  expect(indexes).toContain('slow_rebuild');
  expect(
    db.prepare("SELECT count(*) FROM incidents_fts WHERE incidents_fts MATCH 'Report'").pluck().get(),
  ).toBe(Math.floor(ROWS / 3));
  db.close();
}, 120_000);

test('a catch-up cut off by PostgreSQL writes nothing: the replica and its cursor as before, the turns free', async () => {
  const db = replica('cut');
  const turns = new WriteTurns(db);
  const admin = await server.admin();
  try {
    // Once the catch-up holds the turns, its PostgreSQL session ends under it.
    const cut = (async () => {
      while (!turns.busy) await new Promise((r) => setTimeout(r, 5));
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      );
    })();
    await expect(
      pullReplica(pool, db, now, { pageSize: 500, bulkMinRows: 5_000, writeTurns: turns }),
    ).rejects.toThrow();
    await cut;
  } finally {
    await admin.end();
  }
  expect(turns.busy).toBe(false);
  expect(db.prepare('SELECT count(*) FROM incidents').pluck().get()).toBe(0);
  expect(readOfficeLink(db)!.seq_incidents).toBe(0);
  // The indexes set aside on the thread's connection came back with the rollback.
  expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'slow_rebuild'").pluck().get()).toBe(1);
  // The engine's connection writes again, and a later pull brings it all.
  expect(await turns.take(() => db.prepare('UPDATE office_link SET pulled_at = 1').run().changes)).toBe(1);
  const pool2 = openOfficePool(parseOfficeUrl(server.url), server.password);
  try {
    expect((await pullReplica(pool2, db, now, { bulkMinRows: 5_000, writeTurns: turns })).incidents).toBe(
      ROWS,
    );
    expect(replicaDigest(db)).toEqual(await officeDigest(pool2));
  } finally {
    await pool2.end();
  }
  db.close();
}, 120_000);
