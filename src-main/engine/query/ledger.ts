/**
 * One area's days from the sync's coverage ledger: complete, saturated (complete through split
 * tiles), provisional or missing.
 *
 * The ledger says, per tile (a degree-space circle, key "lat,lon,radius") and local day, whether
 * an unsaturated answer covered it (complete), recent reports may still arrive (provisional), or
 * the tile was saturated and finished by smaller tiles (saturated: its children prove the day, not
 * itself). Tilings change between runs and splits go deep, so the rule is geometric: a day is
 * complete when every sample point of the area (a grid, plus every tile centre inside the area)
 * lies in a tile the ledger has complete for that day; provisional when provisional tiles are
 * needed to cover them; missing otherwise. Keys that are not "lat,lon,radius" fall back to the
 * weakest status of the day's rows.
 */
import { dayNumber } from '../../../src-shared/filters';
import { readArea, shapeOfArea, type AreaRow } from '../store/areas/areaRow';
import type { Db } from '../store/database';
import { regionOf } from '../../../src-shared/geo';

export const MISSING = 0;
export const PROVISIONAL = 1;
/** Complete, but only through split tiles: a single day saturated a response somewhere in the area. */
export const SATURATED = 2;
export const COMPLETE = 3;
/** A tile's own ledger status 'saturated' (it proves nothing by itself; its children do). */
const TILE_SATURATED = 4;

type Tile = { lat: number; lon: number; radius: number };

const GRID = 16;

export function parseTileKey(key: string): Tile | null {
  const parts = key.split(',');
  if (parts.length !== 3) return null;
  const [lat, lon, radius] = parts.map(Number) as [number, number, number];
  return Number.isFinite(lat) && Number.isFinite(lon) && radius > 0 ? { lat, lon, radius } : null;
}

type Cached = { key: string; from: number; statuses: Uint8Array };
const cache = new WeakMap<Db, Map<number, Cached>>();

/**
 * Statuses of days [from, to] (index = day − from) for one area. The area's whole ledger is
 * evaluated once and kept until the ledger or the area changes (checked with one indexed query).
 */
export function areaDayStatuses(db: Db, areaId: number, from: number, to: number): Uint8Array {
  const out = new Uint8Array(Math.max(0, to - from + 1)); // all MISSING
  const area = readArea(db, areaId);
  if (!area || out.length === 0) return out;
  const stamp = db
    .prepare(
      'SELECT count(*) AS n, max(checked_at) AS at, min(day) AS first, max(day) AS last FROM coverage WHERE area_id = ?',
    )
    .get(areaId) as { n: number; at: number | null; first: string | null; last: string | null };
  if (!stamp.first || !stamp.last) return out;
  const key = JSON.stringify([stamp, area]);
  let areas = cache.get(db);
  if (!areas) cache.set(db, (areas = new Map()));
  let hit = areas.get(areaId);
  if (hit?.key !== key) {
    const first = dayNumber(stamp.first);
    hit = { key, from: first, statuses: evaluateLedger(db, areaId, area, first, dayNumber(stamp.last)) };
    areas.set(areaId, hit);
  }
  for (let k = 0; k < out.length; k++) {
    const j = from + k - hit.from;
    if (j >= 0 && j < hit.statuses.length) out[k] = hit.statuses[j] as number;
  }
  return out;
}

function evaluateLedger(db: Db, areaId: number, area: AreaRow, from: number, to: number): Uint8Array {
  const days = to - from + 1;
  const out = new Uint8Array(days);
  // Per tile (through the ledger's primary key), days and statuses as numbers: no strings per row.
  const keys = db
    .prepare('SELECT DISTINCT tile FROM coverage WHERE area_id = ?')
    .pluck()
    .all(areaId) as string[];
  const perTile = db
    .prepare(
      `SELECT CAST(julianday(day) - 2440587.5 AS INTEGER),
         CASE status WHEN 'complete' THEN ${COMPLETE} WHEN 'provisional' THEN ${PROVISIONAL} ELSE ${TILE_SATURATED} END
       FROM coverage WHERE area_id = ? AND tile = ?`,
    )
    .raw(true);
  const t = keys.length;
  const grid = new Uint8Array(days * t); // grid[day * t + tile]: 0 = no entry
  keys.forEach((key, tile) => {
    for (const [day, status] of perTile.all(areaId, key) as [number, number][]) {
      const k = day - from;
      if (k >= 0 && k < days) grid[k * t + tile] = status;
    }
  });
  const tiles = keys.map(parseTileKey);
  if (tiles.some((tile) => tile === null)) {
    // Keys we cannot place: the weakest status of each day's entries (saturated counts as done).
    for (let k = 0; k < days; k++) {
      let day = -1;
      for (let j = 0; j < t; j++) {
        const st = grid[k * t + j] as number;
        if (st === 0) continue;
        const v = st === PROVISIONAL ? PROVISIONAL : st === TILE_SATURATED ? SATURATED : COMPLETE;
        day = day < 0 ? v : Math.min(day, v);
      }
      out[k] = day < 0 ? MISSING : day;
    }
    return out;
  }

  // Sample points and, for each, the tiles that contain it.
  const shape = regionOf(shapeOfArea(area));
  const points: [number, number][] = [];
  for (let i = 0; i <= GRID; i++) {
    for (let j = 0; j <= GRID; j++) {
      const lat = area.min_lat + ((area.max_lat - area.min_lat) * i) / GRID;
      const lon = area.min_lon + ((area.max_lon - area.min_lon) * j) / GRID;
      if (shape.contains(lat, lon)) points.push([lat, lon]);
    }
  }
  points.push([shape.center.lat, shape.center.lon]);
  for (const tile of tiles as Tile[])
    if (shape.contains(tile.lat, tile.lon)) points.push([tile.lat, tile.lon]);
  const covering = points.map(([lat, lon]) =>
    (tiles as Tile[]).flatMap((tile, id) =>
      Math.hypot(lat - tile.lat, lon - tile.lon) <= tile.radius ? [id] : [],
    ),
  );

  for (let k = 0; k < days; k++) {
    const base = k * t;
    let day = COMPLETE;
    let split = false;
    for (const ids of covering) {
      let best = MISSING;
      for (const id of ids) {
        const st = grid[base + id] as number;
        if (st === TILE_SATURATED)
          split = true; // proves nothing by itself, but says the day was dense
        else if (st > best) best = st;
      }
      if (best < day) day = best;
      if (day === MISSING) break;
    }
    out[k] = day === COMPLETE && split ? SATURATED : day;
  }
  return out;
}
