/**
 * The office holds one area per shape: a desktop whose replica has not pulled another's area yet
 * (or two drawing it at once) is refused a second copy, told which area it is, and holds it after.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { EngineError } from '../errors';
import { openDatabase, type Db } from '../store/database';
import { createAreaStore } from '../areas/areaStore';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { officeAreaEdits } from './areaEdits';
import { migrateOffice } from './migrate';
import { openOfficePool, type OfficePool } from './officeDb';
import { parseOfficeUrl } from './officeUrl';
import { startTestPostgres, type TestPostgres } from './pgTesting';
import { linkOffice, pullReplica } from './replica';

let server: TestPostgres;
let pool: OfficePool;
let tmp: TempDir;
const dbs: Db[] = [];

beforeAll(async () => {
  server = await startTestPostgres();
  pool = openOfficePool(parseOfficeUrl(server.url), server.password);
  await migrateOffice(pool);
  tmp = makeTempDir();
}, 60_000);
afterAll(async () => {
  dbs.forEach((d) => d.close());
  await pool?.end();
  server?.stop();
  tmp?.remove();
});

async function desk(name: string) {
  const db = openDatabase(path.join(tmp.path, `${name}.sqlite`));
  dbs.push(db);
  const officeId = (await pool.query<{ office_id: string }>('SELECT office_id FROM office_schema')).rows[0]!
    .office_id;
  linkOffice(db, server.url, officeId, Date.now());
  await pullReplica(pool, db, Date.now);
  const areas = createAreaStore(db);
  return {
    db,
    areas,
    edits: officeAreaEdits(
      db,
      areas,
      async () => pool,
      () => pullReplica(pool, db, Date.now),
    ),
  };
}

const officeAreas = async () =>
  (await pool.query<{ id: number; name: string }>('SELECT id, name FROM areas ORDER BY id')).rows;

test('a second area of the same shape is refused by the office, naming the first; another shape is not', async () => {
  const a = await desk('a');
  const b = await desk('b'); // joined before A draws: its replica does not hold A's area
  const circle = { kind: 'circle' as const, lat: 41.8837, lon: -87.6289, radiusMi: 0.5 };
  const loop = await a.edits.create({ name: 'Loop', shape: circle }, 1);
  expect(b.areas.list()).toEqual([]);

  const refused = b.edits.create({ name: '41.8837,-87.6289,0.5', shape: { ...circle } }, 2);
  await expect(refused).rejects.toBeInstanceOf(EngineError);
  await expect(refused).rejects.toMatchObject({ code: 'conflict' });
  await expect(refused).rejects.toThrow(`area ${loop.id} "Loop"`);
  expect(await officeAreas()).toEqual([{ id: loop.id, name: 'Loop' }]);
  // B pulled on the way: it now holds the office's area.
  expect(b.areas.list().map((x) => x.id)).toEqual([loop.id]);

  // Polygons too; a different radius or ring is a different area.
  const ring: [number, number][] = [
    [41.86, -87.66],
    [41.86, -87.64],
    [41.88, -87.64],
  ];
  await a.edits.create({ name: 'Beat', shape: { kind: 'polygon', points: ring } }, 3);
  await expect(
    b.edits.create({ name: 'Beat again', shape: { kind: 'polygon', points: ring } }, 4),
  ).rejects.toMatchObject({
    code: 'conflict',
  });
  await b.edits.create({ name: 'Wider', shape: { ...circle, radiusMi: 1 } }, 5);
  await b.edits.create(
    { name: 'Other beat', shape: { kind: 'polygon', points: [...ring, [41.87, -87.67]] } },
    6,
  );

  // Two desktops drawing one shape at once: one area.
  const twice = { kind: 'circle' as const, lat: 41.9, lon: -87.7, radiusMi: 0.25 };
  const both = await Promise.allSettled([
    a.edits.create({ name: 'A', shape: twice }, 7),
    b.edits.create({ name: 'B', shape: twice }, 7),
  ]);
  expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  expect((await officeAreas()).map((x) => x.name)).toEqual([
    'Loop',
    'Beat',
    'Wider',
    'Other beat',
    expect.stringMatching(/^[AB]$/),
  ]);
}, 60_000);
