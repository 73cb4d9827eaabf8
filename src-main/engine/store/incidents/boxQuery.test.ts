import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Box } from '../../../../src-shared/geo';
import { makeTempDir, type TempDir } from '../../testing/tempDir';
import { openDatabase, type Db } from '../database';
import { migrations } from '../migrations';
import { boxParams, inBoxSql, lonCell } from './boxQuery';

let tmp: TempDir;
let db: Db;
beforeEach(() => {
  tmp = makeTempDir();
});
afterEach(() => {
  db?.close();
  tmp.remove();
});

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Point = { cdid: number; lat: number; lon: number };

function insert(d: Db, points: readonly Point[]): void {
  const stmt = d.prepare(
    `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone,
       occurred_utc, local_day, local_hour, local_weekday, first_seen, last_seen)
     VALUES (?, 'Theft', 'A St', ?, ?, 'https://x/i', '01/02/25 03:04 PM', '2025-01-02T15:04',
       'America/Chicago', 0, '2025-01-02', 15, 4, 0, 0)`,
  );
  d.transaction(() => points.forEach((p) => stmt.run(p.cdid, p.lat, p.lon)))();
}

/**
 * Points around Chicago and around the prime meridian (cells on both sides of 0, where the
 * truncated cell is two columns wide), many of them on a cell boundary, and several sharing a
 * coordinate (so boxes cut from them have points exactly on their edges).
 */
function points(n: number, rnd: () => number): Point[] {
  const out: Point[] = [];
  for (let k = 1; k <= n; k++) {
    const nearZero = k % 5 === 0;
    let lat = nearZero ? 51.45 + rnd() * 0.1 : 41.6 + rnd() * 0.4;
    let lon = nearZero ? -0.05 + rnd() * 0.1 : -87.95 + rnd() * 0.4;
    if (k % 7 === 0) lon = Math.round(lon * 100) / 100; // on a cell boundary
    if (k % 11 === 0 && out.length > 0) lat = out[Math.floor(rnd() * out.length)]!.lat;
    if (k % 13 === 0 && out.length > 0) lon = out[Math.floor(rnd() * out.length)]!.lon;
    out.push({ cdid: k, lat, lon });
  }
  return out;
}

/** Boxes from a fraction of a cell to many cells wide, most with their edges on stored points. */
function boxes(n: number, pts: readonly Point[], rnd: () => number): Box[] {
  const pick = () => pts[Math.floor(rnd() * pts.length)]!;
  return Array.from({ length: n }, (_, k) => {
    const a = pick();
    const b = k % 3 === 0 ? pick() : { lat: a.lat + (rnd() - 0.5) * 0.03, lon: a.lon + (rnd() - 0.5) * 0.03 };
    if (k % 4 === 0) return { minLat: a.lat - 0.001, maxLat: a.lat + 0.001, minLon: a.lon, maxLon: a.lon };
    return {
      minLat: Math.min(a.lat, b.lat),
      maxLat: Math.max(a.lat, b.lat),
      minLon: Math.min(a.lon, b.lon),
      maxLon: Math.max(a.lon, b.lon),
    };
  });
}

const bruteForce = (pts: readonly Point[], b: Box): number[] =>
  pts
    .filter((p) => p.lat >= b.minLat && p.lat <= b.maxLat && p.lon >= b.minLon && p.lon <= b.maxLon)
    .map((p) => p.cdid)
    .sort((x, y) => x - y);

const query = (d: Db) => {
  const stmt = d.prepare(`SELECT i.cdid FROM incidents i WHERE ${inBoxSql('i')} ORDER BY i.cdid`).pluck();
  return (b: Box) => stmt.all(boxParams(b)) as number[];
};

describe('the box query', () => {
  it('finds exactly the incidents a scan of every row finds, edges included', () => {
    db = openDatabase(path.join(tmp.path, 'blotter.sqlite'));
    const rnd = prng(12);
    const pts = points(4000, rnd);
    insert(db, pts);
    const inBox = query(db);
    let found = 0;
    for (const b of boxes(600, pts, rnd)) {
      const expected = bruteForce(pts, b);
      expect(inBox(b)).toEqual(expected);
      found += expected.length;
    }
    expect(found).toBeGreaterThan(5000); // the boxes are not all empty
    // A box whose edges are the stored points: both corners found.
    const [p, q] = [pts[6]!, pts[7]!];
    const box = {
      minLat: Math.min(p.lat, q.lat),
      maxLat: Math.max(p.lat, q.lat),
      minLon: Math.min(p.lon, q.lon),
      maxLon: Math.max(p.lon, q.lon),
    };
    expect(inBox(box)).toEqual(expect.arrayContaining([p.cdid, q.cdid]));
  });

  it('follows inserts, moves and deletes (the index is SQLite’s own)', () => {
    db = openDatabase(path.join(tmp.path, 'blotter.sqlite'));
    insert(db, [{ cdid: 1, lat: 41.8, lon: -87.65 }]);
    const inBox = query(db);
    const box = { minLat: 41.79, maxLat: 41.81, minLon: -87.66, maxLon: -87.64 };
    expect(inBox(box)).toEqual([1]);
    db.prepare('UPDATE incidents SET lon = -87.7 WHERE cdid = 1').run();
    expect(inBox(box)).toEqual([]);
    expect(inBox({ ...box, minLon: -87.71 })).toEqual([1]);
    db.prepare('DELETE FROM incidents WHERE cdid = 1').run();
    expect(inBox({ ...box, minLon: -87.71 })).toEqual([]);
  });

  it('seeks the index one column at a time, reading only the box’s latitudes, whatever else the query asks', () => {
    db = openDatabase(path.join(tmp.path, 'blotter.sqlite'));
    const plans = [
      `SELECT i.cdid FROM incidents i WHERE ${inBoxSql('i')} AND i.description_fetched_at IS NULL ORDER BY i.cdid`,
      `SELECT count(*) FROM incidents i WHERE ${inBoxSql('i')} AND i.occurred_utc >= 0 AND i.removed_at IS NULL`,
      `SELECT i.cdid FROM incidents i WHERE ${inBoxSql('i')} AND i.source = 'api'`,
    ].map((sql) =>
      (
        db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all(boxParams({ minLat: 0, maxLat: 1, minLon: 0, maxLon: 1 })) as {
          detail: string;
        }[]
      ).map((r) => r.detail),
    );
    for (const plan of plans)
      expect(plan).toContain('SEARCH i USING INDEX incidents_by_lon_cell (<expr>=? AND lat>? AND lat<?)');
  });

  it('numbers cells as the index does', () => {
    db = openDatabase(path.join(tmp.path, 'blotter.sqlite'));
    const cell = db.prepare('SELECT CAST(? * 100 AS INTEGER)').pluck();
    for (const lon of [-87.65, -87.6500001, -0.005, 0, 0.004, 12.34, -179.99, 179.99])
      expect(cell.get(lon)).toBe(lonCell(lon));
  });
});

describe('migration 009 (box-index)', () => {
  it('replaces the R*Tree of a file with rows by the index, and its queries find what the R*Tree found', () => {
    const file = path.join(tmp.path, 'old.sqlite');
    const old = openDatabase(file, migrations.slice(0, 8));
    const rnd = prng(9);
    const pts = points(3000, rnd);
    insert(old, pts);
    const tests = boxes(300, pts, rnd);
    const rtree = old
      .prepare(
        `SELECT cdid FROM incidents_rtree WHERE min_lat >= @minLat AND max_lat <= @maxLat
         AND min_lon >= @minLon AND max_lon <= @maxLon ORDER BY cdid`,
      )
      .pluck();
    const before = tests.map((b) => rtree.all(b) as number[]);
    old.close();

    db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    const schema = db.prepare(`SELECT name FROM sqlite_master WHERE name LIKE 'incidents_rtree%'`).all();
    expect(schema).toEqual([]);
    expect(
      db
        .prepare(`SELECT count(*) FROM incidents INDEXED BY incidents_by_lon_cell WHERE lat > -90`)
        .pluck()
        .get(),
    ).toBe(3000);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const inBox = query(db);
    tests.forEach((b, k) => {
      const now = inBox(b);
      expect(now).toEqual(bruteForce(pts, b));
      // What the R*Tree found is found; it missed only points within its 32-bit rounding of an edge.
      expect(now).toEqual(expect.arrayContaining(before[k]!));
      for (const cdid of now.filter((c) => !before[k]!.includes(c))) {
        const p = pts[cdid - 1]!;
        const nearEdge = Math.min(
          Math.abs(p.lat - b.minLat),
          Math.abs(p.lat - b.maxLat),
          Math.abs(p.lon - b.minLon),
          Math.abs(p.lon - b.maxLon),
        );
        expect(nearEdge).toBeLessThan(1e-5);
      }
    });
    // The triggers left keep full-text search in step; no trigger names the R*Tree.
    insert(db, [{ cdid: 5000, lat: 41.7, lon: -87.7 }]);
    expect(
      db
        .prepare(`SELECT rowid FROM incidents_fts WHERE incidents_fts MATCH 'St' AND rowid = 5000`)
        .pluck()
        .get(),
    ).toBe(5000);
    expect(
      db
        .prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%rtree%'`)
        .pluck()
        .get(),
    ).toBe(0);
  });
});
