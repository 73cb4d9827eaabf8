/**
 * What every analysis runs on: the filtered incidents as columns (lat, lon, local day, type),
 * projected once into the UTM zone of their centroid. Built from the snapshot's typed columns and
 * a list of rows, so a helper thread receives plain typed arrays (transferable) and no snapshot.
 */
import { UtmProjection, utmZoneOf, type UtmZone } from '../../../src-shared/geo';

/** Fewer incidents than this and an analysis refuses: its statistics would say nothing. */
export const MIN_INCIDENTS = 30;

export class AnalysisRefused extends Error {
  override readonly name = 'AnalysisRefused';
}

/** Throws AnalysisRefused when there are fewer than MIN_INCIDENTS incidents. */
export function requireEnough(n: number, what: string): void {
  if (n < MIN_INCIDENTS)
    throw new AnalysisRefused(
      `${what} needs at least ${MIN_INCIDENTS} incidents; the filters match ${n}. Widen the dates, types or area.`,
    );
}

export type IncidentColumns = {
  lat: Float64Array;
  lon: Float64Array;
  /** Local day number (days since 1970-01-01, in the incident's own zone). */
  day: Int32Array;
  /** Type dictionary id (the snapshot's). */
  type: Uint16Array;
  /** The snapshot row of each incident, to map results (a cell, a group) back for a drill-down. */
  rows: Uint32Array;
};

/** The snapshot-shaped source: anything with these columns (the query's Snapshot is one). */
export type ColumnSource = {
  lat: Float64Array;
  lon: Float64Array;
  day: Int32Array;
  type: Uint16Array;
};

/** The columns of the given rows (the filter's match set), copied into new arrays. */
export function pickColumns(source: ColumnSource, rows: ArrayLike<number>): IncidentColumns {
  const steps = pickColumnsInSteps(source, rows);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Rows copied between the steps of pickColumnsInSteps. */
const ROWS_PER_STEP = 65_536;

/** pickColumns as steps: it yields every ROWS_PER_STEP rows (slices.ts `pickColumnsSliced`). */
export function* pickColumnsInSteps(
  source: ColumnSource,
  rows: ArrayLike<number>,
): Generator<void, IncidentColumns, void> {
  const n = rows.length;
  const out: IncidentColumns = {
    lat: new Float64Array(n),
    lon: new Float64Array(n),
    day: new Int32Array(n),
    type: new Uint16Array(n),
    rows: Uint32Array.from(rows),
  };
  for (let k = 0; k < n; k++) {
    const i = rows[k] as number;
    out.lat[k] = source.lat[i] as number;
    out.lon[k] = source.lon[i] as number;
    out.day[k] = source.day[i] as number;
    out.type[k] = source.type[i] as number;
    if (k % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
  }
  return out;
}

/** Incidents in metres: x east, y north, in the UTM zone of their centroid. */
export type Projected = { utm: UtmProjection; x: Float64Array; y: Float64Array };

/** The zone of the points' centroid (mean of lat and lon; a city's incidents never straddle ±180°). */
export function centroidZone(lat: ArrayLike<number>, lon: ArrayLike<number>): UtmZone {
  let sLat = 0;
  let sLon = 0;
  const n = lat.length;
  for (let i = 0; i < n; i++) {
    sLat += lat[i] as number;
    sLon += lon[i] as number;
  }
  return utmZoneOf(n ? sLat / n : 0, n ? sLon / n : 0);
}

export function project(lat: Float64Array, lon: Float64Array, zone?: UtmZone): Projected {
  const utm = new UtmProjection(zone ?? centroidZone(lat, lon));
  const { x, y } = utm.forwardColumns(lat, lon);
  return { utm, x, y };
}

/** The points' bounding box in metres. */
export function extentOf(
  x: Float64Array,
  y: Float64Array,
): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < x.length; i++) {
    const a = x[i] as number;
    const b = y[i] as number;
    if (a < minX) minX = a;
    if (a > maxX) maxX = a;
    if (b < minY) minY = b;
    if (b > maxY) maxY = b;
  }
  return { minX, minY, maxX, maxY };
}
