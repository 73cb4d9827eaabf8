import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dayNumber, dayString } from '../../../src-shared/filters';
import { openDatabase, type Db } from '../store/database';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { incidentCalls } from './calls';
import { areaDayStatuses, COMPLETE, MISSING, parseTileKey, PROVISIONAL, SATURATED } from './ledger';
import { QueryService } from './service';

type Cell = { minLat: number; maxLat: number; minLon: number; maxLon: number };
/** The sync's tile key of the degree circle around a cell. */
const keyOf = (c: Cell): string =>
  `${((c.minLat + c.maxLat) / 2).toFixed(6)},${((c.minLon + c.maxLon) / 2).toFixed(6)},${(
    Math.hypot(c.maxLat - c.minLat, c.maxLon - c.minLon) / 2 +
    1e-6
  ).toFixed(6)}`;
const split = (c: Cell): Cell[] => {
  const mLat = (c.minLat + c.maxLat) / 2;
  const mLon = (c.minLon + c.maxLon) / 2;
  return [
    { minLat: c.minLat, maxLat: mLat, minLon: c.minLon, maxLon: mLon },
    { minLat: c.minLat, maxLat: mLat, minLon: mLon, maxLon: c.maxLon },
    { minLat: mLat, maxLat: c.maxLat, minLon: c.minLon, maxLon: mLon },
    { minLat: mLat, maxLat: c.maxLat, minLon: mLon, maxLon: c.maxLon },
  ];
};

const BOX: Cell = { minLat: 41.85, maxLat: 41.91, minLon: -87.67, maxLon: -87.59 };
const QUADS = split(BOX);
const TODAY = '2025-06-20';

describe('coverage from the ledger', () => {
  let dir: TempDir;
  let db: Db;
  let areaId: number;
  const ledger = (tile: string, day: string, status: string, area = areaId) =>
    db
      .prepare('INSERT INTO coverage (area_id, tile, day, status, checked_at) VALUES (?, ?, ?, ?, 0)')
      .run(area, tile, day, status);
  const addArea = (name: string) =>
    Number(
      db
        .prepare(
          `INSERT INTO areas (name, kind, center_lat, center_lon, radius_mi, min_lat, min_lon, max_lat, max_lon, created_at)
           VALUES (?, 'circle', 41.88, -87.63, 2, ?, ?, ?, ?, 0)`,
        )
        .run(name, BOX.minLat, BOX.minLon, BOX.maxLat, BOX.maxLon).lastInsertRowid,
    );
  const statuses = (from: string, to: string, id = areaId) =>
    Array.from(areaDayStatuses(db, id, dayNumber(from), dayNumber(to)));

  beforeEach(() => {
    dir = makeTempDir('blotter-coverage-');
    db = openDatabase(path.join(dir.path, 'c.sqlite'));
    areaId = addArea('Loop');
  });
  afterEach(() => {
    db.close();
    dir.remove();
  });

  it('reads tile keys the way the sync writes them', () => {
    expect(parseTileKey('41.880000,-87.630000,0.010001')).toEqual({
      lat: 41.88,
      lon: -87.63,
      radius: 0.010001,
    });
    expect(parseTileKey('41.88,-87.63')).toBeNull();
    expect(parseTileKey('a,b,c')).toBeNull();
  });

  it('rates each day by the tiles that cover the area', () => {
    const days = [
      '2025-06-01',
      '2025-06-02',
      '2025-06-03',
      '2025-06-04',
      '2025-06-05',
      '2025-06-06',
      '2025-06-07',
    ];
    const all = (day: string, status = 'complete') => QUADS.forEach((q) => ledger(keyOf(q), day, status));
    all(days[0] as string); // every tile complete
    QUADS.slice(1).forEach((q) => ledger(keyOf(q), days[1] as string, 'complete')); // one tile missing
    all(days[2] as string);
    db.prepare("UPDATE coverage SET status = 'provisional' WHERE day = ? AND tile = ?").run(
      days[2],
      keyOf(QUADS[3] as Cell),
    );
    // A saturated tile finished by its four quadrant tiles …
    ledger(keyOf(QUADS[0] as Cell), days[3] as string, 'saturated');
    split(QUADS[0] as Cell).forEach((c) => ledger(keyOf(c), days[3] as string, 'complete'));
    QUADS.slice(1).forEach((q) => ledger(keyOf(q), days[3] as string, 'complete'));
    // … and one that was not.
    ledger(keyOf(QUADS[0] as Cell), days[4] as string, 'saturated');
    QUADS.slice(1).forEach((q) => ledger(keyOf(q), days[4] as string, 'complete'));
    // Another run tiled the area with one big tile.
    ledger(keyOf(BOX), days[5] as string, 'complete');
    // days[6]: nothing
    expect(statuses(days[0] as string, days[6] as string)).toEqual([
      COMPLETE,
      MISSING,
      PROVISIONAL,
      SATURATED, // complete, through the split tiles
      MISSING,
      COMPLETE,
      MISSING,
    ]);
  });

  it('sees ledger changes (cached until the ledger changes)', () => {
    QUADS.slice(1).forEach((q) => ledger(keyOf(q), '2025-06-01', 'complete'));
    expect(statuses('2025-06-01', '2025-06-01')).toEqual([MISSING]);
    ledger(keyOf(QUADS[0] as Cell), '2025-06-01', 'complete');
    expect(statuses('2025-06-01', '2025-06-01')).toEqual([COMPLETE]);
  });

  it('falls back to the weakest entry of the day for keys it cannot place', () => {
    ledger('tile-a', '2025-06-01', 'complete');
    ledger('tile-b', '2025-06-01', 'saturated');
    ledger('tile-a', '2025-06-02', 'provisional');
    expect(statuses('2025-05-31', '2025-06-03')).toEqual([MISSING, SATURATED, PROVISIONAL, MISSING]);
  });

  it('bands runs of days: provisional for the last days, missing after today; several areas, the weakest', async () => {
    for (let d = dayNumber('2025-06-10'); d <= dayNumber(TODAY); d++) {
      QUADS.forEach((q) => ledger(keyOf(q), dayString(d), 'complete'));
    }
    const service = new QueryService(db, {
      now: () => Date.parse(`${TODAY}T12:00:00`),
      provisionalDays: 2,
      cacheFile: null,
    });
    const band = await incidentCalls.coverageBand(service, { areaId, from: '2025-06-08', to: '2025-06-25' });
    expect(band).toEqual({
      basis: 'ledger',
      from: '2025-06-08',
      to: TODAY,
      runs: [
        { from: '2025-06-08', to: '2025-06-09', status: 'missing' },
        { from: '2025-06-10', to: '2025-06-18', status: 'complete' },
        { from: '2025-06-19', to: '2025-06-20', status: 'provisional' },
      ],
      totals: { complete: 9, saturated: 0, provisional: 2, missing: 2 },
    });
    const other = addArea('Other');
    ledger(keyOf(BOX), '2025-06-15', 'complete', other);
    const both = await incidentCalls.coverageBand(service, { from: '2025-06-14', to: '2025-06-16' });
    expect(both.runs).toEqual([
      { from: '2025-06-14', to: '2025-06-14', status: 'missing' },
      { from: '2025-06-15', to: '2025-06-15', status: 'complete' },
      { from: '2025-06-16', to: '2025-06-16', status: 'missing' },
    ]);
    const whole = await incidentCalls.coverageBand(service, { areaId });
    expect(whole.from).toBe('2025-06-10'); // the ledger's first day
    await service.close();
  });

  it('without any ledger, uses the span of the incidents held and says so', async () => {
    db.prepare('DELETE FROM areas').run();
    const insert = db.prepare(
      `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc,
         local_day, local_hour, local_weekday, first_seen, last_seen, source)
       VALUES (?, 'Theft', 'X', 41.88, -87.63, 'l', 'd', ?, 'America/Chicago', 0, ?, 10, 0, 0, 0, 'import')`,
    );
    insert.run(1, '2025-06-05T10:00', '2025-06-05');
    insert.run(2, '2025-06-12T10:00', '2025-06-12');
    const service = new QueryService(db, {
      now: () => Date.parse(`${TODAY}T12:00:00`),
      provisionalDays: 2,
      cacheFile: null,
    });
    const band = await incidentCalls.coverageBand(service, {});
    expect(band).toMatchObject({
      basis: 'archive',
      from: '2025-06-05',
      to: TODAY,
      runs: [
        { from: '2025-06-05', to: '2025-06-12', status: 'complete' },
        { from: '2025-06-13', to: TODAY, status: 'missing' },
      ],
    });
    await service.close();
  });
});
