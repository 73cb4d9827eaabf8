/**
 * Builds the incidents' R*Tree again through SQLite itself, for an import that adds a large share
 * of the archive with the per-row triggers set aside (import/merge.ts). The tree is dropped and
 * created again from its own CREATE statement (emptying an rtree row by row costs as much as
 * filling it), then every incident is inserted by one INSERT … SELECT in the Hilbert order of its
 * point: consecutive inserts land in the same few nodes, which stay in SQLite's cache, whatever
 * order the rows were written in (a file sorted by date, an API's cdids). No knowledge of the
 * module's storage: only its SQL.
 *
 * Runs inside the caller's transaction.
 */
import type { Db } from '../database';

const TABLE = 'incidents_rtree';
/** Cells a side of the Hilbert grid over the points' bounding box (2^16). */
const SIDE = 65536;

/**
 * The position of cell (x, y) along the Hilbert curve over a SIDE × SIDE grid (0 ≤ x, y < SIDE):
 * cells near each other on the curve are near each other on the ground.
 */
export function hilbertIndex(x: number, y: number): number {
  let d = 0;
  for (let s = SIDE / 2; s >= 1; s /= 2) {
    const rx = x >= s ? 1 : 0;
    const ry = y >= s ? 1 : 0;
    if (rx) x -= s;
    if (ry) y -= s;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      const t = x;
      x = y;
      y = t;
    }
  }
  return d;
}

/** A point's cell along one axis of [min, max] (a zero-width axis is all cell 0). */
const cell = (v: number, min: number, max: number): number =>
  max > min ? Math.min(SIDE - 1, Math.floor(((v - min) / (max - min)) * SIDE)) : 0;

export function rebuildIncidentsRtree(db: Db): void {
  const create = db
    .prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`)
    .pluck()
    .get(TABLE) as string | undefined;
  if (!create) throw new Error(`${TABLE} is missing`);
  db.exec(`DROP TABLE ${TABLE}`);
  db.exec(create);
  const box = db.prepare('SELECT min(lat), max(lat), min(lon), max(lon) FROM incidents').raw().get() as
    [number, number, number, number] | [null, null, null, null];
  if (box[0] === null) return;
  const [minLat, maxLat, minLon, maxLon] = box;
  db.function('blotter_hilbert', { deterministic: true }, (lat, lon) =>
    hilbertIndex(cell(lon as number, minLon, maxLon), cell(lat as number, minLat, maxLat)),
  );
  db.exec(`INSERT INTO ${TABLE} (cdid, min_lat, max_lat, min_lon, max_lon)
    SELECT cdid, lat, lat, lon, lon FROM incidents ORDER BY blotter_hilbert(lat, lon)`);
}
