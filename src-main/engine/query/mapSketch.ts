/**
 * The map's first paint: the filtered incidents in a coarse grid of ~CELL_PX screen pixels at the
 * zoom asked for (Web Mercator, as the map draws), each cell at its incidents' mean position with
 * its counts per type. Every incident of the filters is in one cell, so the cells add up to the
 * true total; the renderer draws them as clusters until its full cluster index is built.
 *
 * Two sources, the same answer: the snapshot once it is in memory (one loop over the filter's
 * rows), or — while the first read of a file the engine has never seen is still under way — one
 * GROUP BY in SQLite over the day index, for the filters SQL answers simply (dates, types, removed).
 */
import { resolveDateRange, type Filters } from '../../../src-shared/filters';
import type { MapSketch } from '../../../src-shared/incidentQueries';
import type { Db } from '../store/database';
import { foldType } from './matchSet';
import type { Resolved } from './service';

/** A cell's side in screen pixels (about a cluster's reach). */
export const CELL_PX = 64;
/** At most this many cells: a finer grid than that is coarsened (zoomed out) until it fits. */
export const MAX_CELLS = 4000;

const worldPx = (zoom: number) => 256 * 2 ** zoom;
const mercX = (lon: number) => (lon + 180) / 360;
const mercY = (lat: number) => {
  const s = Math.sin((Math.max(-85, Math.min(85, lat)) * Math.PI) / 180);
  return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
};

type Acc = { lat: number; lon: number; count: number; byType: Uint32Array };

/** Cells from (lat, lon, type slot) rows, coarsened until at most MAX_CELLS. */
function grid(
  n: number,
  row: (i: number) => [lat: number, lon: number, type: number, weight: number],
  types: string[],
  zoom: number,
): MapSketch {
  for (let z = zoom; ; z--) {
    const scale = worldPx(Math.max(0, z)) / CELL_PX;
    const cells = new Map<number, Acc>();
    let total = 0;
    let w = Infinity;
    let s = Infinity;
    let e = -Infinity;
    let north = -Infinity;
    let over = false;
    for (let i = 0; i < n; i++) {
      const [lat, lon, t, weight] = row(i);
      const key = Math.floor(mercY(lat) * scale) * 33_554_432 + Math.floor(mercX(lon) * scale);
      let c = cells.get(key);
      if (!c) {
        if (cells.size >= MAX_CELLS && z > 0) {
          over = true;
          break;
        }
        cells.set(key, (c = { lat: 0, lon: 0, count: 0, byType: new Uint32Array(types.length) }));
      }
      c.lat += lat * weight;
      c.lon += lon * weight;
      c.count += weight;
      c.byType[t] = (c.byType[t] as number) + weight;
      total += weight;
      if (lon < w) w = lon;
      if (lon > e) e = lon;
      if (lat < s) s = lat;
      if (lat > north) north = lat;
    }
    if (over) continue;
    const out: MapSketch = {
      total,
      types,
      lat: [],
      lon: [],
      count: [],
      typeCounts: [],
      bounds: total > 0 ? [w, s, e, north] : null,
      updating: false,
    };
    for (const c of cells.values()) {
      out.lat.push(c.lat / c.count);
      out.lon.push(c.lon / c.count);
      out.count.push(c.count);
      for (const k of c.byType) out.typeCounts.push(k);
    }
    return out;
  }
}

/** The sketch of a resolved filter (from the snapshot). */
export function sketchFromSnapshot({ snapshot, set }: Resolved, zoom: number): MapSketch {
  const slot = new Int16Array(Math.max(1, snapshot.types.size)).fill(-1);
  const types: string[] = [];
  for (let j = 0; j < set.count; j++) {
    const t = snapshot.type[set.rows[j] as number] as number;
    if ((slot[t] as number) < 0) {
      slot[t] = types.length;
      types.push(snapshot.types.values[t] as string);
    }
  }
  return grid(
    set.count,
    (j) => {
      const r = set.rows[j] as number;
      return [
        snapshot.lat[r] as number,
        snapshot.lon[r] as number,
        slot[snapshot.type[r] as number] as number,
        1,
      ];
    },
    types,
    zoom,
  );
}

/** Whether SQL answers these filters the way the snapshot does (only dates, types, removed). */
export function storeCanSketch(filters: Filters): boolean {
  return (
    !filters.text &&
    !filters.area &&
    (!filters.hours ||
      filters.hours[0] === filters.hours[1] % 24 ||
      (filters.hours[0] === 0 && filters.hours[1] === 24)) &&
    (!filters.weekdays || filters.weekdays.length === 0 || filters.weekdays.length === 7)
  );
}

/**
 * The sketch read from the store, before the snapshot is in memory: SQLite groups the filter's
 * incidents by a fine grid (cells of CELL_PX at `zoom`) and type; `grid` then coarsens if needed.
 */
export function sketchFromStore(db: Db, filters: Filters, today: string, zoom: number): MapSketch {
  const range = resolveDateRange(filters, today);
  const where: string[] = ['lat IS NOT NULL', 'lon IS NOT NULL'];
  const params: (string | number)[] = [];
  if (range.from) {
    where.push('local_day >= ?');
    params.push(range.from);
  }
  if (range.to) {
    where.push('local_day <= ?');
    params.push(range.to);
  }
  if (!filters.includeRemoved) where.push('removed_at IS NULL');
  if (filters.types && filters.types.length > 0) {
    where.push(`lower(type) IN (${filters.types.map(() => '?').join(', ')})`);
    params.push(...filters.types.map(foldType));
  }
  const scale = worldPx(zoom) / CELL_PX;
  const y = `0.5 - ln((1 + sin(radians(max(-85, min(85, lat))))) / (1 - sin(radians(max(-85, min(85, lat)))))) / (4 * pi())`;
  const rows = db
    .prepare(
      `SELECT CAST(${y} * ${scale} AS INTEGER) AS gy, CAST((lon + 180) / 360 * ${scale} AS INTEGER) AS gx,
         type, count(*) AS n, sum(lat) AS slat, sum(lon) AS slon
       FROM incidents WHERE ${where.join(' AND ')} GROUP BY gy, gx, type`,
    )
    .raw(true)
    .all(...params) as [number, number, string, number, number, number][];
  const types: string[] = [];
  const slot = new Map<string, number>();
  for (const r of rows) {
    if (slot.has(r[2])) continue;
    slot.set(r[2], types.length);
    types.push(r[2]);
  }
  // Each group enters the grid as one weighted point at its mean position.
  return grid(
    rows.length,
    (i) => {
      const r = rows[i] as [number, number, string, number, number, number];
      return [r[4] / r[3], r[5] / r[3], slot.get(r[2]) as number, r[3]];
    },
    types,
    zoom,
  );
}
