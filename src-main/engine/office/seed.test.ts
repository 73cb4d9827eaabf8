import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { SecretStore } from '../secrets/secretStore';
import { openDatabase, type Db } from '../store/database';
import { createIncidentRepo } from '../store/incidents/incidentRepo';
import { createSettingsRepo } from '../store/settingsRepo';
import { createAreaStore } from '../areas/areaStore';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { officeDigest, replicaDigest } from './digest';
import { openOfficePool } from './officeDb';
import { officeRow } from './officeRows.testing';
import { parseOfficeUrl } from './officeUrl';
import { startTestPostgres, type TestPostgres } from './pgTesting';
import { createOfficeService, LocalArchiveNotEmptyError } from './service';

let server: TestPostgres;
let tmp: TempDir;
const dbs: Db[] = [];

beforeAll(async () => {
  server = await startTestPostgres();
  tmp = makeTempDir();
}, 60_000);
afterAll(() => {
  dbs.forEach((d) => d.close());
  tmp?.remove();
  server?.stop();
});

function memorySecrets(): SecretStore {
  const m = new Map<string, string>();
  return {
    get: async (a) => m.get(a) ?? null,
    set: async (a, s) => void m.set(a, s),
    delete: async (a) => m.delete(a),
    probe: async () => ({ available: true }) as Awaited<ReturnType<SecretStore['probe']>>,
  };
}

/** A standalone folder with its own areas, coverage ledger and incidents. */
function standaloneFolder(name: string, rows: number): Db {
  const db = openDatabase(path.join(tmp.path, `${name}.sqlite`));
  dbs.push(db);
  const areas = createAreaStore(db);
  const a = areas.create(
    { name: 'Loop', shape: { kind: 'circle', lat: 41.85, lon: -87.65, radiusMi: 2 } },
    1,
  );
  areas.create({ name: 'River North', shape: { kind: 'circle', lat: 41.89, lon: -87.63, radiusMi: 1 } }, 2);
  areas.markSynced(a.id, 3, { backfill: true, deep: true });
  db.prepare(
    "INSERT INTO coverage (area_id, tile, day, status, checked_at) VALUES (?, 't', '2025-05-01', 'complete', 3)",
  ).run(a.id);
  const repo = createIncidentRepo(db);
  db.transaction(() => {
    // Every tenth row imported from a city's file, keeping its category as the subtype.
    for (let i = 1; i <= rows; i++)
      repo.putFromOffice(officeRow(i, i % 10 === 0 ? { source: 'import', subtype: 'Larceny Theft' } : {}));
  })();
  return db;
}

const service = (db: Db) =>
  createOfficeService({
    db,
    settings: createSettingsRepo(db),
    secrets: memorySecrets(),
    emit: () => undefined,
  });

test('joining an empty office from a standalone folder offers to seed it; --seed uploads the archive, which comes back as the replica unchanged', async () => {
  const db = standaloneFolder('first', 2_000);
  const before = replicaDigest(db);
  const office = service(db);
  const refused = office.join(server.url, server.password, false, false);
  await expect(refused).rejects.toBeInstanceOf(LocalArchiveNotEmptyError);
  await expect(refused).rejects.toThrow(/office is empty: seed it with this archive \(--seed/);
  expect(replicaDigest(db)).toEqual(before); // nothing lost

  const { pulled, status } = await office.join(server.url, server.password, false, true);
  expect(status).toMatchObject({
    joined: true,
    reachable: true,
    behind: 0,
    leaders: [],
    requestsLastMinute: 0,
  });
  expect(pulled.incidents).toBe(2_000);
  const pool = openOfficePool(parseOfficeUrl(server.url), server.password);
  try {
    expect(await officeDigest(pool)).toEqual(before);
    expect(replicaDigest(db)).toEqual(before);
    // The imported rows' subtypes are in the office archive (office migration 003) and came back.
    const subtypes = await pool.query(
      "SELECT count(*)::int AS n FROM incidents WHERE subtype = 'Larceny Theft' AND source = 'import'",
    );
    expect(subtypes.rows[0]).toEqual({ n: 200 });
    expect(db.prepare("SELECT count(*) FROM incidents WHERE subtype = 'Larceny Theft'").pluck().get()).toBe(
      200,
    );
    const areas = await pool.query('SELECT id, name, backfilled_at FROM areas ORDER BY id');
    expect(areas.rows).toEqual([
      { id: 1, name: 'Loop', backfilled_at: 3 },
      { id: 2, name: 'River North', backfilled_at: null },
    ]);
    expect(
      createAreaStore(db)
        .list()
        .map((a) => a.name),
    ).toEqual(['Loop', 'River North']);
    expect(db.prepare('SELECT count(*) FROM coverage').pluck().get()).toBe(1);
    // A new area drawn in the office later takes the next id, not a seeded one.
    const next = await pool.query<{ id: number }>(
      `INSERT INTO areas (name, kind, center_lat, center_lon, radius_mi, min_lat, min_lon, max_lat, max_lon, created_at)
       VALUES ('New', 'circle', 41, -87, 1, 40.9, -87.1, 41.1, -86.9, 4) RETURNING id`,
    );
    expect(next.rows[0]!.id).toBe(3);
  } finally {
    await pool.end();
  }
  await office.close();

  // A second desktop with its own archive cannot seed an office that holds one: it is told to replace.
  const other = standaloneFolder('second', 10);
  const second = service(other);
  await expect(second.join(server.url, server.password, false, true)).rejects.toThrow(
    /office already holds an archive.*--replace-local/,
  );
  expect(other.prepare('SELECT count(*) FROM incidents').pluck().get()).toBe(10);
  await second.close();
}, 60_000);
