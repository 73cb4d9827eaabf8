/**
 * The GeoPackage export's spatial indexes (the RTree extension GDAL and QGIS use to read only the
 * part of a layer on screen): one entry per geometry with its envelope, a box query through the
 * index finds exactly the incidents in the box, GDAL sees and uses the index and keeps it in step
 * when it edits the file, and GDAL's validator passes — for 0, 1 and many rows, incidents and areas.
 * The packed tree itself is compared with the one SQLite's own inserts build.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Manifest, type StartExportOutput } from '../../../src-shared/exports';
import { createAreaStore } from '../areas/areaStore';
import { apiRow, exportFinished, openTestEngine, writeIncidents, type TestEngine } from './exportTesting';
import { addSpatialIndex, GPKG_EXTENSIONS_TABLE, RTREE_EXTENSION } from './gpkgSpatialIndex';
import { expectValidGeoPackage, gdalCountInBox, gdalSqlValue } from './gpkgTesting';
import { EnvelopeList, floatDown, floatUp } from './rtreePacking';

type Entry = { id: number; minx: number; maxx: number; miny: number; maxy: number };

describe('the packed R-tree', () => {
  /** A seeded generator (the test's own), so a failure repeats. */
  const random = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };

  /** A table of `n` envelopes (points and boxes, either side of 0) indexed by the bulk path and by SQLite's own inserts. */
  function bothWays(n: number, seed: number, idOf = (k: number) => 3 * k + 7) {
    const db = new Database(':memory:');
    db.exec(`${GPKG_EXTENSIONS_TABLE} CREATE TABLE t (fid INTEGER PRIMARY KEY, geom BLOB)`);
    db.exec('CREATE VIRTUAL TABLE reference USING rtree(id, minx, maxx, miny, maxy)');
    const next = random(seed);
    const list = new EnvelopeList();
    const reference = db.prepare('INSERT INTO reference VALUES (?, ?, ?, ?, ?)');
    for (let k = 0; k < n; k++) {
      const id = idOf(k); // ids need not run on by one
      const x = (next() - 0.5) * 360;
      const y = (next() - 0.5) * 180;
      const [w, h] = k % 3 === 0 ? [next() * 0.5, next() * 0.5] : [0, 0];
      db.prepare('INSERT INTO t VALUES (?, NULL)').run(id);
      list.push(id, x, x + w, y, y + h);
      reference.run(id, x, x + w, y, y + h);
    }
    list.push(99_999_999, 1, 0, 1, 1); // an empty envelope gets no entry
    list.push(99_999_999, NaN, NaN, NaN, NaN);
    addSpatialIndex(db, 't', 'geom', 'fid', list);
    return db;
  }

  it('holds exactly the entries SQLite’s own inserts store (floats rounded outward), passes rtreecheck, and answers box queries alike', () => {
    const cases = [0, 1, 50, 51, 52, 51 * 51, 51 * 51 + 1, 20_000].flatMap((n) => [
      { n, idOf: undefined },
      { n, idOf: (k: number) => 1 + k }, // a new table's fids: the other way of writing _rowid
    ]);
    for (const { n, idOf } of [...cases, { n: 60_000, idOf: (k: number) => 5 + k }]) {
      const db = bothWays(n, n + 1, idOf);
      try {
        const all = (table: string) => db.prepare(`SELECT * FROM ${table} ORDER BY id`).all() as Entry[];
        expect(all('rtree_t_geom'), `n = ${n}`).toEqual(all('reference'));
        expect(db.prepare("SELECT rtreecheck('rtree_t_geom')").pluck().get(), `n = ${n}`).toBe('ok');
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const next = random(n);
        for (let q = 0; q < 20; q++) {
          const [x, y] = [(next() - 0.5) * 360, (next() - 0.5) * 180];
          const [maxX, maxY] = [x + next() * 60, y + next() * 30];
          const ids = (table: string) =>
            db
              .prepare(
                `SELECT id FROM ${table} WHERE minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ? ORDER BY id`,
              )
              .pluck()
              .all(maxX, x, maxY, y);
          expect(ids('rtree_t_geom')).toEqual(ids('reference'));
        }
      } finally {
        db.close();
      }
    }
  });

  it('stays a working R-tree when a reader edits it afterwards (inserts that split nodes, deletes)', () => {
    const db = bothWays(5_000, 42);
    try {
      const add = db.prepare('INSERT INTO rtree_t_geom VALUES (?, ?, ?, ?, ?)');
      for (let k = 0; k < 3_000; k++) add.run(1_000_000 + k, k / 100, k / 100, -k / 200, -k / 200);
      db.prepare('DELETE FROM rtree_t_geom WHERE id % 2 = 1').run();
      expect(db.prepare("SELECT rtreecheck('rtree_t_geom')").pluck().get()).toBe('ok');
      expect(db.prepare('SELECT count(*) FROM rtree_t_geom').pluck().get()).toBe(
        (db.prepare('SELECT count(*) FROM reference WHERE id % 2 = 0').pluck().get() as number) + 1_500,
      );
      const inBox = db
        .prepare('SELECT id FROM rtree_t_geom WHERE minx <= 10 AND maxx >= 10 AND miny <= -5 AND maxy >= -5')
        .pluck()
        .all();
      expect(inBox).toContain(1_001_000);
    } finally {
      db.close();
    }
  });

  it('rounds as SQLite does: down for a minimum, up for a maximum, exact floats unchanged', () => {
    for (const v of [-87.63, 41.88, 0.1, -0.1, 1e-30, -1e-30, 179.99999999]) {
      expect(floatDown(v)).toBeLessThanOrEqual(v);
      expect(floatUp(v)).toBeGreaterThanOrEqual(v);
      expect(floatUp(v) - floatDown(v)).toBeLessThanOrEqual(Math.abs(v) * 2 ** -22);
    }
    expect([floatDown(0.5), floatUp(0.5), floatDown(-2), floatUp(0)]).toEqual([0.5, 0.5, -2, 0]);
  });
});

describe('the GeoPackage export’s spatial indexes', () => {
  let t: TestEngine;
  // A 20 × 20 grid of incidents 0.01° apart (41.80–41.99 N, 87.80–87.61 W): a box with edges
  // between grid lines holds a known set, whatever the index's float rounding.
  const grid = Array.from({ length: 400 }, (_, k) => ({
    cdid: 1 + k,
    lat: Math.round((41.8 + Math.floor(k / 20) / 100) * 100) / 100,
    lon: Math.round((-87.8 + (k % 20) / 100) * 100) / 100,
  }));

  beforeEach(() => {
    t = openTestEngine();
    writeIncidents(
      t.db,
      grid.map((g) => apiRow(g.cdid, { lat: g.lat, lon: g.lon, type: g.cdid === 7 ? 'Arrest' : 'Theft' })),
    );
    const areas = createAreaStore(t.db);
    areas.create({ name: 'Downtown', shape: { kind: 'circle', lat: 41.88, lon: -87.63, radiusMi: 1 } }, 1);
    areas.create(
      {
        name: 'Triangle',
        shape: {
          kind: 'polygon',
          points: [
            [41.81, -87.79],
            [41.85, -87.79],
            [41.85, -87.72],
          ],
        },
      },
      1,
    );
  });
  afterEach(() => t.close());

  async function exportGpkg(filters: Record<string, unknown>) {
    const result = await t.engine.dispatch('startExport', { format: 'gpkg', filters });
    if (!result.ok) throw new Error(result.error.message);
    const started = result.value as StartExportOutput;
    const done = await t.waitFor(exportFinished(started.jobId), 30_000);
    expect(done.state).toBe('done');
    return { file: done.file?.path as string, manifest: Manifest.parse(done.manifest), total: started.total };
  }

  /** Reads the file (read-only) with SQLite. */
  function withFile<T>(file: string, read: (db: Database.Database) => T): T {
    const db = new Database(file, { readonly: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  }

  const rtreeOf = (db: Database.Database, table: string) =>
    db.prepare(`SELECT * FROM rtree_${table}_geom ORDER BY id`).all() as Entry[];

  it('indexes every incident at its point and every area by its envelope; a box through the index finds exactly the incidents in it', async () => {
    const { file, total } = await exportGpkg({ preset: 'all' });
    expect(total).toBe(400);
    expectValidGeoPackage(file);
    withFile(file, (db) => {
      const points = db.prepare('SELECT fid, lon, lat FROM incidents ORDER BY fid').all() as {
        fid: number;
        lon: number;
        lat: number;
      }[];
      expect(points).toHaveLength(400);
      // One entry per incident, by its fid, holding its point within a float's rounding.
      expect(rtreeOf(db, 'incidents')).toEqual(
        points.map((p) => ({
          id: p.fid,
          minx: floatDown(p.lon),
          maxx: floatUp(p.lon),
          miny: floatDown(p.lat),
          maxy: floatUp(p.lat),
        })),
      );
      // A 32-bit float's box around each point: under 2e-5° (2 m) wide, the point inside.
      rtreeOf(db, 'incidents').forEach((e, k) => {
        const p = points[k]!;
        expect(e.minx <= p.lon && p.lon <= e.maxx && e.miny <= p.lat && p.lat <= e.maxy).toBe(true);
        expect(e.maxx - e.minx).toBeLessThan(2e-5);
        expect(e.maxy - e.miny).toBeLessThan(2e-5);
      });
      // The box 41.835–41.875 N, 87.745–87.665 W: four rows of eight incidents.
      const box = { minx: -87.745, maxx: -87.665, miny: 41.835, maxy: 41.875 };
      const viaIndex = db
        .prepare(
          'SELECT id FROM rtree_incidents_geom WHERE minx <= :maxx AND maxx >= :minx AND miny <= :maxy AND maxy >= :miny ORDER BY id',
        )
        .pluck()
        .all(box);
      const inBox = points
        .filter((p) => p.lon >= box.minx && p.lon <= box.maxx && p.lat >= box.miny && p.lat <= box.maxy)
        .map((p) => p.fid);
      expect(inBox).toHaveLength(32);
      expect(viaIndex).toEqual(inBox);

      // Areas: each by its envelope — the one its geometry blob's header states.
      const areas = db.prepare('SELECT fid, name, geom FROM areas ORDER BY fid').all() as {
        fid: number;
        name: string;
        geom: Buffer;
      }[];
      expect(areas.map((a) => a.name)).toEqual(['Downtown', 'Triangle']);
      expect(rtreeOf(db, 'areas')).toEqual(
        areas.map((a) => {
          const [minx, maxx, miny, maxy] = [0, 1, 2, 3].map((k) =>
            a.geom.readDoubleLE(8 + 8 * k),
          ) as number[];
          return {
            id: a.fid,
            minx: floatDown(minx!),
            maxx: floatUp(maxx!),
            miny: floatDown(miny!),
            maxy: floatUp(maxy!),
          };
        }),
      );
      expect(
        db
          .prepare(
            'SELECT table_name, column_name, extension_name, definition, scope FROM gpkg_extensions ORDER BY table_name',
          )
          .all(),
      ).toEqual(
        ['areas', 'incidents'].map((table) => ({
          table_name: table,
          column_name: 'geom',
          extension_name: 'gpkg_rtree_index',
          definition: RTREE_EXTENSION.definition,
          scope: 'write-only',
        })),
      );
      expect(db.prepare("SELECT rtreecheck('rtree_incidents_geom')").pluck().get()).toBe('ok');
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    });
    // GDAL sees both indexes, and its spatial filter through them counts the box's incidents.
    expect(gdalSqlValue(file, "SELECT HasSpatialIndex('incidents', 'geom')")).toBe('1');
    expect(gdalSqlValue(file, "SELECT HasSpatialIndex('areas', 'geom')")).toBe('1');
    expect(
      gdalCountInBox(file, 'incidents', { minLon: -87.745, minLat: 41.835, maxLon: -87.665, maxLat: 41.875 }),
    ).toBe(32);
  });

  it('is kept in step by the spec’s triggers when GDAL edits the file (an appended incident, a deleted one)', async () => {
    const { file } = await exportGpkg({ preset: 'all' });
    const names = withFile(file, (db) =>
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").pluck().all(),
    );
    expect(names).toEqual(
      ['areas', 'incidents'].flatMap((table) =>
        ['delete', 'insert', 'update1', 'update2', 'update3', 'update4'].map(
          (s) => `rtree_${table}_geom_${s}`,
        ),
      ),
    );
    const extra = path.join(t.dir.path, 'extra.geojson');
    writeFileSync(
      extra,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: { cdid: 9001 },
            geometry: { type: 'Point', coordinates: [-70.5, 42.25] },
          },
        ],
      }),
    );
    execFileSync('ogr2ogr', ['-update', '-append', file, extra, '-nln', 'incidents']);
    execFileSync('ogrinfo', [file, '-q', '-sql', 'DELETE FROM incidents WHERE cdid = 1']);
    withFile(file, (db) => {
      const added = db.prepare('SELECT fid FROM incidents WHERE cdid = 9001').pluck().get() as number;
      const entry = db.prepare('SELECT * FROM rtree_incidents_geom WHERE id = ?').get(added) as Entry;
      expect(entry).toEqual({ id: added, minx: -70.5, maxx: -70.5, miny: 42.25, maxy: 42.25 });
      expect(db.prepare('SELECT count(*) FROM rtree_incidents_geom').pluck().get()).toBe(400);
      expect(db.prepare('SELECT count(*) FROM rtree_incidents_geom WHERE id = 1').pluck().get()).toBe(0);
      expect(db.prepare("SELECT rtreecheck('rtree_incidents_geom')").pluck().get()).toBe('ok');
    });
    expectValidGeoPackage(file);
  });

  it('a GeoPackage of 1 row and one of 0 rows and no areas: each index holds what its table holds, GDAL sees it, the validator passes', async () => {
    for (const [filters, want, areas] of [
      [{ preset: 'all', types: ['Arrest'] }, [grid[6]!], 2],
      [{ preset: 'all', types: ['No such type'] }, [], 0],
    ] as const) {
      if (areas === 0) for (const a of createAreaStore(t.db).list()) createAreaStore(t.db).remove(a.id, true);
      const { file, total } = await exportGpkg(filters);
      expect(total).toBe(want.length);
      expectValidGeoPackage(file);
      withFile(file, (db) => {
        expect(rtreeOf(db, 'incidents')).toEqual(
          want.map((g) => ({
            id: 1,
            minx: floatDown(g.lon),
            maxx: floatUp(g.lon),
            miny: floatDown(g.lat),
            maxy: floatUp(g.lat),
          })),
        );
        expect(rtreeOf(db, 'areas')).toHaveLength(areas);
        expect(db.prepare('SELECT count(*) FROM areas').pluck().get()).toBe(areas);
        expect(db.prepare("SELECT rtreecheck('rtree_incidents_geom')").pluck().get()).toBe('ok');
      });
      expect(gdalSqlValue(file, "SELECT HasSpatialIndex('incidents', 'geom')")).toBe('1');
      expect(gdalSqlValue(file, "SELECT HasSpatialIndex('areas', 'geom')")).toBe('1');
      expect(gdalCountInBox(file, 'incidents', { minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 })).toBe(
        want.length,
      );
    }
  });
});
