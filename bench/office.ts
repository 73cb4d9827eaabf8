/**
 * Office replica catch-up: N incidents (default 1M) written to a real PostgreSQL + PostGIS (started
 * here like the tests: engine/office/pgTesting.ts), then pulled into a fresh data folder's SQLite
 * replica by change number (engine/office/replica.ts). Then a 15-minute refresh's worth of changes
 * (2,000 amended or new rows, 50 deletions) pulled again.
 *
 *   npx tsx bench/office.ts [--count 1000000]
 *
 * Prints JSON: rows/s of the catch-up (bound ≥ 50,000), the refresh pull's seconds (bound < 1),
 * the digests equal, the load seconds in PostgreSQL for reference.
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src-main/engine/store/database';
import { officeDigest, replicaDigest } from '../src-main/engine/office/digest';
import { migrateOffice } from '../src-main/engine/office/migrate';
import { putOfficeIncidents } from '../src-main/engine/office/officeArchive';
import { openOfficePool } from '../src-main/engine/office/officeDb';
import { officeRow } from '../src-main/engine/office/officeRows.testing';
import { parseOfficeUrl } from '../src-main/engine/office/officeUrl';
import { startTestPostgres } from '../src-main/engine/office/pgTesting';
import { linkOffice, pullReplica } from '../src-main/engine/office/replica';
import { makeTempDir } from '../src-main/engine/testing/tempDir';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const count = Number(arg('count') ?? 1_000_000);
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

const server = await startTestPostgres();
const tmp = makeTempDir('blotter-bench-office-');
try {
  const pool = openOfficePool(parseOfficeUrl(server.url), server.password);
  const schema = await migrateOffice(pool);
  let t = performance.now();
  for (let i = 0; i < count; i += 50_000) {
    const n = Math.min(50_000, count - i);
    await putOfficeIncidents(
      pool,
      Array.from({ length: n }, (_, k) => officeRow(i + k + 1)),
    );
  }
  const loadSeconds = (performance.now() - t) / 1000;
  // What autovacuum does after a load this size, minutes before any refresh: the planner's
  // statistics (without them a `change_seq > $1` range may be planned as a full scan).
  await pool.query('ANALYZE');

  const db = openDatabase(path.join(tmp.path, 'blotter.sqlite'));
  linkOffice(db, server.url, schema.officeId, Date.now());
  t = performance.now();
  const first = await pullReplica(pool, db, Date.now);
  const catchUpSeconds = (performance.now() - t) / 1000;
  // The engine's background checkpoint folds the catch-up's WAL into the file long before the
  // next refresh 15 minutes later; timed here apart from the refresh.
  t = performance.now();
  db.pragma('wal_checkpoint(TRUNCATE)');
  const checkpointSeconds = (performance.now() - t) / 1000;

  await putOfficeIncidents(pool, [
    ...Array.from({ length: 1_000 }, (_, k) => officeRow(k * 7 + 1, { type: 'Robbery' })),
    ...Array.from({ length: 1_000 }, (_, k) => officeRow(count + k + 1)),
  ]);
  await pool.query('DELETE FROM incidents WHERE cdid BETWEEN 500 AND 549');
  t = performance.now();
  const refresh = await pullReplica(pool, db, Date.now);
  const refreshSeconds = (performance.now() - t) / 1000;

  const same = replicaDigest(db).digest === (await officeDigest(pool)).digest;
  const rowsPerSecond = first.incidents / catchUpSeconds;
  console.log(
    JSON.stringify({
      bench: 'office-replica',
      incidents: first.incidents,
      catchUp: {
        seconds: round(catchUpSeconds),
        rowsPerSecond: Math.round(rowsPerSecond),
        bound: 50_000,
        ok: rowsPerSecond >= 50_000,
      },
      checkpointSeconds: round(checkpointSeconds),
      refresh: { ...refresh, seconds: round(refreshSeconds, 3), bound: 1, ok: refreshSeconds < 1 },
      digestsEqual: same,
      postgresLoadSeconds: round(loadSeconds),
      loadavg: loadavg().map((x) => round(x)),
    }),
  );
  db.close();
  await pool.end();
} finally {
  server.stop();
  tmp.remove();
}
