/**
 * Finding incidents: an area (degree circle, mile circle or polygon) and a filter (what is live now,
 * the window, occurred dates, types) over the store, through the spatial grid.
 */
import {
  boxOfPoints,
  degreeCircleBox,
  degreesBetween,
  insidePolygon,
  looseCircleBox,
  milesBetween,
  type Box,
  type LatLon,
} from '../../src-shared/geo';
import type { Store } from './store';

export type Area =
  | { kind: 'degrees'; lat: number; lon: number; radius: number }
  | { kind: 'miles'; lat: number; lon: number; miles: number }
  | { kind: 'polygon'; points: readonly { lat: number; lon: number }[] };

export type Filter = {
  /** Served at this instant: reported at or before it, not removed. */
  now: number;
  /** Reported at or after this instant (the plan window's start). */
  windowStart: number;
  /** Occurred on a local day strictly after this day number (the live `since`). */
  afterDay?: number;
  /** Occurred within [occurredFrom, occurredTo], instants, inclusive. */
  occurredFrom?: number;
  occurredTo?: number;
  /** Bit i set = type index i included. */
  typeMask: number;
};

export const ALL_TYPES_MASK = 0x1ff;

/** The corners of a polygon area as a [lat, lon] ring. */
const ringOf = (area: Extract<Area, { kind: 'polygon' }>): LatLon[] => area.points.map((p) => [p.lat, p.lon]);

/** A box around the area for the grid lookup (the exact test follows). */
function boxOf(area: Area): Box {
  if (area.kind === 'degrees') return degreeCircleBox(area.lat, area.lon, area.radius);
  if (area.kind === 'miles') return looseCircleBox(area.lat, area.lon, area.miles);
  return boxOfPoints(ringOf(area));
}

/** A test for "inside the area", returning the distance in the area's unit (0 for polygons) or -1. */
function measurer(area: Area): (lat: number, lon: number) => number {
  if (area.kind === 'degrees') {
    return (lat, lon) => {
      const d = degreesBetween(lat, lon, area.lat, area.lon);
      return d <= area.radius ? d : -1;
    };
  }
  if (area.kind === 'miles') {
    return (lat, lon) => {
      const d = milesBetween(area.lat, area.lon, lat, lon);
      return d <= area.miles ? d : -1;
    };
  }
  const ring = ringOf(area);
  return (lat, lon) => (insidePolygon(lat, lon, ring) ? 0 : -1);
}

export type Found = { rows: number[]; distances: number[] };

/** Every row inside the area that passes the filter, in no particular order, with its distance. */
export function findRows(store: Store, area: Area, f: Filter): Found {
  const rows: number[] = [];
  const distances: number[] = [];
  const b = boxOf(area);
  const measure = measurer(area);
  const { lat, lon, type, removed, reportedAt, occurredAt, occurredDay } = store;
  const afterDay = f.afterDay ?? -Infinity;
  const from = f.occurredFrom ?? -Infinity;
  const to = f.occurredTo ?? Infinity;
  for (const list of store.grid.listsInBox(b.minLat, b.maxLat, b.minLon, b.maxLon)) {
    for (let i = 0; i < list.length; i++) {
      const row = list[i] as number;
      const d = measure(lat[row] as number, lon[row] as number);
      if (d < 0 || removed[row] !== 0 || ((f.typeMask >> (type[row] as number)) & 1) === 0) continue;
      const rep = reportedAt[row] as number;
      if (rep > f.now || rep < f.windowStart || (occurredDay[row] as number) <= afterDay) continue;
      const occ = occurredAt[row] as number;
      if (occ < from || occ > to) continue;
      rows.push(row);
      distances.push(d);
    }
  }
  return { rows, distances };
}

const ROW_BITS = 2 ** 24;
const MINUTE = 60_000;

/**
 * Rows ordered by a whole-minute time column, ties by row (rows ascend with cdid), through one native
 * sort of packed keys (minutes × 2^24 + row).
 */
export function orderByTime(rows: readonly number[], column: Float64Array, descending: boolean): number[] {
  const keys = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as number;
    keys[i] = Math.floor((column[r] as number) / MINUTE) * ROW_BITS + r;
  }
  keys.sort();
  const out = new Array<number>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[descending ? keys.length - 1 - i : i] as number;
    out[i] = k - Math.floor(k / ROW_BITS) * ROW_BITS;
  }
  return out;
}

/** The first `limit` rows by distance, ties by row; only rows that can make the cut are fully sorted. */
export function orderByDistance(found: Found, descending: boolean, limit: number): number[] {
  const n = found.rows.length;
  let pick = found.rows.map((_, i) => i);
  if (n > limit * 2) {
    const sorted = Float64Array.from(found.distances).sort();
    const cut = sorted[descending ? n - limit : limit - 1] as number;
    pick = pick.filter((i) =>
      descending ? (found.distances[i] as number) >= cut : (found.distances[i] as number) <= cut,
    );
  }
  const dist = (i: number): number => found.distances[i] as number;
  const row = (i: number): number => found.rows[i] as number;
  pick.sort((a, b) => dist(a) - dist(b) || row(a) - row(b));
  if (descending) pick.reverse();
  return pick.slice(0, limit).map(row);
}
