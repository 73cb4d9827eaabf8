/**
 * An office pull says how far it got and can be cancelled (issue 31): a bulk catch-up's progress
 * rises page by page up to the total PostgreSQL counted; cancelled mid-way, its helper thread is
 * ended and its one transaction rolled back (nothing written, the cursor and digest as before, the
 * write turns free), and a later pull brings the office's digest. A pull in slices stops between
 * slices, keeping those done with their cursor. Through the engine: cancelOfficePull, pullOffice
 * answering `cancelled`, officePullProgress events. A real PostgreSQL.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { EngineEvent } from '../../../src-shared/contract';
import { createEngine } from '../engine';
import { createMemorySecretStore } from '../secrets/memorySecretStore';
import { openDatabase, type Db } from '../store/database';
import { WriteTurns } from '../store/writeTurns';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { officeDigest, replicaDigest } from './digest';
import { migrateOffice } from './migrate';
import { putOfficeIncidents } from './officeArchive';
import { openOfficePool, type OfficePool } from './officeDb';
import { officeRow } from './officeRows.testing';
import { parseOfficeUrl } from './officeUrl';
import { startTestPostgres, type TestPostgres } from './pgTesting';
import { linkOffice, OfficePullCancelled, pullReplica, readOfficeLink } from './replica';
import { officePasswordAccount } from './service';

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

/** A slow index (as bulkCatchUp.test.ts): the catch-up's rebuild of it lasts a second or more. */
const SLOW_INDEX = 'CREATE INDEX slow_rebuild ON incidents (length(hex(zeroblob(40000 + (cdid % 2)))))';

function replica(name: string): Db {
  const db = openDatabase(path.join(tmp.path, `${name}.sqlite`));
  linkOffice(db, server.url, officeId, now());
  db.exec(SLOW_INDEX);
  return db;
}

const held = (db: Db) => db.prepare('SELECT count(*) FROM incidents').pluck().get() as number;

test('a bulk catch-up reports rising progress; cancelled mid-way it writes nothing, and a later pull brings it all', async () => {
  const db = replica('bulk');
  const turns = new WriteTurns(db);
  const before = replicaDigest(db);
  const seen: Array<[number, number]> = [];
  const cancel = new AbortController();
  await expect(
    pullReplica(pool, db, now, {
      pageSize: 2_000,
      bulkMinRows: 5_000,
      writeTurns: turns,
      signal: cancel.signal,
      onProgress: (rows, total) => {
        seen.push([rows, total]);
        if (rows >= 8_000) cancel.abort(); // mid-way: 4 of its 10 pages applied on the thread
      },
    }),
  ).rejects.toBeInstanceOf(OfficePullCancelled);

  expect(seen.map(([, total]) => total)).toEqual(seen.map(() => ROWS));
  expect(seen.map(([rows]) => rows)).toEqual([2_000, 4_000, 6_000, 8_000]);
  // Nothing was written: the rows, the cursor, the digest as before, the indexes back, the turns free.
  expect(turns.busy).toBe(false);
  expect(held(db)).toBe(0);
  expect(readOfficeLink(db)!.seq_incidents).toBe(0);
  expect(replicaDigest(db)).toEqual(before);
  expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'slow_rebuild'").pluck().get()).toBe(1);
  // The engine's connection writes at once (the thread's write lock went with it).
  expect(await turns.take(() => db.prepare('UPDATE office_link SET pulled_at = 1').run().changes)).toBe(1);

  const rows: number[] = [];
  const again = await pullReplica(pool, db, now, {
    pageSize: 2_000,
    bulkMinRows: 5_000,
    writeTurns: turns,
    onProgress: (n) => rows.push(n),
  });
  expect(again.incidents).toBe(ROWS);
  expect(rows.at(-1)).toBe(ROWS);
  expect(replicaDigest(db)).toEqual(await officeDigest(pool));
  db.close();
}, 120_000);

test('a pull in slices stops before its next slice: those done stay with their cursor, the next pull brings the rest', async () => {
  const db = replica('slices');
  const cancel = new AbortController();
  await expect(
    pullReplica(pool, db, now, {
      pageSize: 2_000,
      bulkMinRows: 1_000_000,
      signal: cancel.signal,
      onProgress: (rows) => {
        if (rows >= 3_000) cancel.abort();
      },
    }),
  ).rejects.toBeInstanceOf(OfficePullCancelled);
  expect(held(db)).toBe(3_000);
  const third = await pool.query<{ s: number }>(
    'SELECT change_seq::float8 AS s FROM incidents ORDER BY change_seq OFFSET 2999 LIMIT 1',
  );
  expect(readOfficeLink(db)!.seq_incidents).toBe(third.rows[0]!.s);
  const rest = await pullReplica(pool, db, now, { pageSize: 2_000, bulkMinRows: 1_000_000 });
  expect(rest.incidents).toBe(ROWS - 3_000);
  expect(replicaDigest(db)).toEqual(await officeDigest(pool));
  db.close();
}, 120_000);

test('through the engine: officePullProgress events while a join catch-up runs, cancelOfficePull stops it, pullOffice answers cancelled', async () => {
  const dir = makeTempDir();
  const secrets = createMemorySecretStore();
  const events: EngineEvent[] = [];
  const engine = createEngine({
    dataDir: dir.path,
    secrets,
    host: 'cli',
    version: '1',
    emit: (e) => events.push(e),
  });
  const progress = () => events.flatMap((e) => (e.type === 'officePullProgress' ? [e] : []));
  try {
    expect(await engine.dispatch('cancelOfficePull', {})).toEqual({ ok: true, value: { cancelled: false } });
    await secrets.set(officePasswordAccount(engine.context.settings.profileId()), server.password);
    const db = engine.context.db;
    linkOffice(db, server.url, officeId, now());
    db.exec(SLOW_INDEX);
    const before = replicaDigest(db);

    const pulling = engine.dispatch('pullOffice', {});
    while (!progress().some((e) => e.state === 'running')) await new Promise((r) => setTimeout(r, 5));
    expect(await engine.dispatch('cancelOfficePull', {})).toEqual({ ok: true, value: { cancelled: true } });
    const answer = await pulling;
    expect(answer.ok).toBe(false);
    if (!answer.ok) {
      expect(answer.error.code).toBe('cancelled');
      expect(answer.error.message).toMatch(/office pull was cancelled/);
    }
    expect(progress().at(-1)).toMatchObject({ state: 'cancelled', total: ROWS });
    expect(progress()[0]!.rows).toBeGreaterThan(0);
    expect(progress()[0]!.rows).toBeLessThan(ROWS);
    expect(held(db)).toBe(0);
    expect(readOfficeLink(db)!.seq_incidents).toBe(0);
    expect(replicaDigest(db)).toEqual(before);

    events.length = 0;
    const done = await engine.dispatch('pullOffice', {});
    expect(done).toMatchObject({ ok: true, value: { incidents: ROWS } });
    const counts = progress().map((e) => e.rows);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(progress().at(-1)).toEqual({ type: 'officePullProgress', state: 'done', rows: ROWS, total: ROWS });
    expect(replicaDigest(db)).toEqual(await officeDigest(pool));
    expect(await engine.dispatch('cancelOfficePull', {})).toEqual({ ok: true, value: { cancelled: false } });
  } finally {
    await engine.close();
    dir.remove();
  }
}, 120_000);
