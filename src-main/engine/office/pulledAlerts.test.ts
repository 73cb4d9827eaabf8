import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { evaluatePulled } from '../alerts/pulled';
import { listAlerts } from '../alerts/inbox';
import { createRuleStore } from '../alerts/rules';
import { openDatabase, type Db } from '../store/database';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { migrateOffice } from './migrate';
import { putOfficeIncidents } from './officeArchive';
import { openOfficePool, type OfficePool } from './officeDb';
import { officeRow } from './officeRows.testing';
import { parseOfficeUrl } from './officeUrl';
import { startTestPostgres, type TestPostgres } from './pgTesting';
import { linkOffice, pullReplica } from './replica';
import { createEngine } from '../engine';
import { createMemorySecretStore } from '../secrets/memorySecretStore';
import { officePasswordAccount } from './service';

let server: TestPostgres;
let pool: OfficePool;
let tmp: TempDir;
let db: Db;
const pull = () => pullReplica(pool, db, Date.now, { onIncidents: (fresh) => evaluatePulled(db, fresh) });

beforeAll(async () => {
  server = await startTestPostgres();
  pool = openOfficePool(parseOfficeUrl(server.url), server.password);
  const schema = await migrateOffice(pool);
  tmp = makeTempDir();
  db = openDatabase(path.join(tmp.path, 'blotter.sqlite'));
  linkOffice(db, server.url, schema.officeId, Date.now());
}, 60_000);
afterAll(async () => {
  db?.close();
  tmp?.remove();
  await pool?.end();
  server?.stop();
});

const T = 1_700_000_000_000;
/** A leader's commit at time `at`: rows first seen then (the office archive's whole rows). */
const leaderCommit = (cdids: number[], at: number) =>
  putOfficeIncidents(
    pool,
    cdids.map((c) => officeRow(c, { first_seen: at, last_seen: at, lat: 41.85, lon: -87.65 })),
  );

test('incidents a pull brings are evaluated once per incident by the alert rules, and a pulled backfill raises nothing', async () => {
  // The office's area, its first backfill still running; the join's whole-archive pull is not news.
  await pool.query(
    `INSERT INTO areas (id, name, kind, center_lat, center_lon, radius_mi, min_lat, min_lon, max_lat, max_lon, created_at)
     VALUES (1, 'Loop', 'circle', 41.85, -87.65, 2, 41.8, -87.7, 41.9, -87.6, $1)`,
    [T],
  );
  await leaderCommit([1, 2, 3], T + 1_000);
  await pull();
  createRuleStore(db).add(
    { name: 'Anything in the Loop', areaId: 1, filter: {}, condition: { kind: 'any' } },
    T + 1_500,
  );

  // Backfill pages pulled later (the area not yet backfilled): old incidents, no alert.
  await leaderCommit([4, 5], T + 2_000);
  await pull();
  expect(listAlerts(db)).toEqual([]);

  // The backfill ends (the leader's finalize) and a refresh brings new incidents: alerts carry
  // exactly them; rows seen again (3) and the backfill's (4, 5) raise nothing.
  await pool.query('UPDATE areas SET backfilled_at = $1, last_synced_at = $1 WHERE id = 1', [T + 3_000]);
  await leaderCommit([3], T + 4_000 - 1); // seen again: an existing row
  await leaderCommit([6, 7], T + 4_000);
  await pull();
  const fired = () =>
    listAlerts(db)
      .flatMap((a) => a.cdids)
      .sort((x, y) => x - y);
  expect(fired()).toEqual([6, 7]);

  // The same rows pulled again (amended in the office): no second alert.
  await leaderCommit([6, 7], T + 5_000);
  await pull();
  expect(fired()).toEqual([6, 7]);
}, 60_000);

test('the engine evaluates what its office pull brings by its alert rules (the pull hook services.ts wires) and announces them', async () => {
  // Its own area, north of the first test's, already backfilled when these commits come.
  await pool.query(
    `INSERT INTO areas (id, name, kind, center_lat, center_lon, radius_mi, min_lat, min_lon, max_lat, max_lon,
       created_at, backfilled_at, last_synced_at)
     VALUES (2, 'Uptown', 'circle', 41.96, -87.65, 1, 41.94, -87.68, 41.98, -87.62, $1, $1, $1)`,
    [T],
  );
  const officeId = (await pool.query<{ office_id: string }>('SELECT office_id FROM office_schema')).rows[0]!
    .office_id;
  const dir = makeTempDir();
  const secrets = createMemorySecretStore();
  const events: string[] = [];
  const engine = createEngine({
    dataDir: dir.path,
    secrets,
    host: 'cli',
    version: '1',
    emit: (e) => events.push(e.type),
  });
  try {
    await secrets.set(officePasswordAccount(engine.context.settings.profileId()), server.password);
    linkOffice(engine.context.db, server.url, officeId, Date.now());
    const pullOffice = async () => {
      const r = await engine.dispatch('pullOffice', {});
      expect(r.ok, JSON.stringify(r)).toBe(true);
    };
    await pullOffice(); // the join's whole-archive pull: not news
    createRuleStore(engine.context.db).add(
      { name: 'Anything in Uptown', areaId: 2, filter: {}, condition: { kind: 'any' } },
      T + 5_500,
    );
    const uptown = (cdids: number[], at: number) =>
      putOfficeIncidents(
        pool,
        cdids.map((c) => officeRow(c, { first_seen: at, last_seen: at, lat: 41.96, lon: -87.65 })),
      );
    await uptown([101, 102], T + 6_000);
    await pullOffice();
    expect(listAlerts(engine.context.db).flatMap((a) => a.cdids)).toEqual([101, 102]);
    expect(events).toContain('alertsChanged');
  } finally {
    await engine.close();
    dir.remove();
  }
}, 60_000);
