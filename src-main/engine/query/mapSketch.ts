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

const grow = (a: Float64Array): Float64Array => {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
};

/** Rows to grid: position, type slot and weight of row `index[j]` (all rows when index is null). */
type Rows = {
  n: number;
  index: ArrayLike<number> | null;
  lat: ArrayLike<number>;
  lon: ArrayLike<number>;
  /** The type slot of a row (an id into `types`). */
  slot: (row: number) => number;
  weight: ArrayLike<number> | null;
};

/** Cells from rows, coarsened (zoom by zoom) until at most MAX_CELLS. No allocation per row. */
function grid(rows: Rows, types: string[], zoom: number): MapSketch {
  const T = types.length;
  for (let z = zoom; ; z--) {
    const scale = worldPx(Math.max(0, z)) / CELL_PX;
    const cellOf = new Map<number, number>();
    let sumLat: Float64Array = new Float64Array(256);
    let sumLon: Float64Array = new Float64Array(256);
    let count: Float64Array = new Float64Array(256);
    let byType: Float64Array = new Float64Array(256 * T);
    let cells = 0;
    let total = 0;
    let w = Infinity;
    let s = Infinity;
    let e = -Infinity;
    let north = -Infinity;
    let over = false;
    for (let j = 0; j < rows.n; j++) {
      const r = rows.index ? (rows.index[j] as number) : j;
      const lat = rows.lat[r] as number;
      const lon = rows.lon[r] as number;
      const weight = rows.weight ? (rows.weight[r] as number) : 1;
      const key = Math.floor(mercY(lat) * scale) * 33_554_432 + Math.floor(mercX(lon) * scale);
      let c = cellOf.get(key);
      if (c === undefined) {
        if (cells >= MAX_CELLS && z > 0) {
          over = true;
          break;
        }
        c = cells++;
        cellOf.set(key, c);
        if (c >= count.length) {
          sumLat = grow(sumLat);
          sumLon = grow(sumLon);
          count = grow(count);
          byType = grow(byType);
        }
      }
      sumLat[c] = (sumLat[c] as number) + lat * weight;
      sumLon[c] = (sumLon[c] as number) + lon * weight;
      count[c] = (count[c] as number) + weight;
      const t = c * T + rows.slot(r);
      byType[t] = (byType[t] as number) + weight;
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
      lat: new Array<number>(cells),
      lon: new Array<number>(cells),
      count: new Array<number>(cells),
      typeCounts: Array.from(byType.subarray(0, cells * T)),
      bounds: total > 0 ? [w, s, e, north] : null,
      updating: false,
    };
    for (let c = 0; c < cells; c++) {
      const k = count[c] as number;
      out.lat[c] = (sumLat[c] as number) / k;
      out.lon[c] = (sumLon[c] as number) / k;
      out.count[c] = k;
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
  const type = snapshot.type;
  return grid(
    {
      n: set.count,
      index: set.rows,
      lat: snapshot.lat,
      lon: snapshot.lon,
      slot: (r) => slot[type[r] as number] as number,
      weight: null,
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
    !filters.feature &&
    !filters.cdids &&
    !filters.focus &&
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
  const n = rows.length;
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  const weight = new Float64Array(n);
  const slots = new Int32Array(n);
  rows.forEach((r, i) => {
    lat[i] = r[4] / r[3];
    lon[i] = r[5] / r[3];
    weight[i] = r[3];
    slots[i] = slot.get(r[2]) as number;
  });
  return grid({ n, index: null, lat, lon, slot: (r) => slots[r] as number, weight }, types, zoom);
}
