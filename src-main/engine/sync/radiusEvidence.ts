/**
 * Whether a page's own rows prove the server searched the part of the area its circle is asked for,
 * so the radius check (radiusGuard.ts) is not needed for it.
 *
 * A server that answered a row at distance d from the centre, in its own measure, searched its
 * circle at least that far: a silent clamp at c < d cannot return it. The measure is either degree
 * space or great-circle degrees of arc (the spec's two readings); not knowing which, the page is
 * believed only when, in *both* measures, the farthest row it returned is at least as far as the
 * farthest point of the area inside the job's circle. Full page or not: a date-sorted page is spread
 * over the whole circle it was drawn from, so its rows show how far that reached; a page whose
 * rows all lie closer (a clamp, or too few rows to tell) is left to the check.
 *
 * The proof is for the area's part of the circle — what a job promises (finalize.ts removes only
 * inside the area) — and the radius it shows searched in full is the smaller of the two farthest
 * distances, capped at the asked radius.
 */
import {
  degreesBetween,
  EARTH_RADIUS_MI,
  MILES_PER_DEGREE,
  RAD,
  milesBetween,
  type Shape,
} from '../../../src-shared/geo';
import type { Tile } from '../geo/tiles';

/** Coordinates are sent and answered to 6 decimals: a row must be farther than the area by this. */
const ROUNDING = 2e-6;
/** Ground distance from a polygon's vertices or a cell's corners: an edge may bulge this little farther. */
const ARC_MARGIN = 1.005;

export type Reach = { degrees: number; arc: number };

/** Degrees of arc between two points (great-circle). */
const arcBetween = (lat1: number, lon1: number, lat2: number, lon2: number): number =>
  milesBetween(lat1, lon1, lat2, lon2) / MILES_PER_DEGREE;

/**
 * How far from the tile's centre the area's part of the tile's cell reaches, in degree space and in
 * degrees of arc (upper bounds, never more than `radius`). The cell is what a job must cover: cells
 * of the finished jobs cover the area, and finalize.ts removes only inside a job's cell and the area.
 */
export function areaReach(tile: Pick<Tile, 'lat' | 'lon' | 'radius' | 'cell'>, shape: Shape): Reach {
  let degrees: number;
  let arc: number;
  if (shape.kind === 'circle') {
    const centreArc = arcBetween(tile.lat, tile.lon, shape.lat, shape.lon);
    arc = centreArc + shape.radiusMi / MILES_PER_DEGREE;
    // The ground circle's outline on the sphere, finely: the farthest point in degree space.
    degrees = 0;
    const n = 720;
    const d = shape.radiusMi / EARTH_RADIUS_MI;
    const p1 = shape.lat * RAD;
    for (let k = 0; k < n; k++) {
      const b = (k / n) * 2 * Math.PI;
      const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(b));
      const l2 = Math.atan2(
        Math.sin(b) * Math.sin(d) * Math.cos(p1),
        Math.cos(d) - Math.sin(p1) * Math.sin(p2),
      );
      degrees = Math.max(degrees, degreesBetween(tile.lat, tile.lon, p2 / RAD, shape.lon + l2 / RAD));
    }
    // Between two samples the outline reaches a sliver farther.
    degrees *= 1.0002;
  } else {
    degrees = Math.max(...shape.points.map(([lat, lon]) => degreesBetween(tile.lat, tile.lon, lat, lon)));
    arc =
      ARC_MARGIN * Math.max(...shape.points.map(([lat, lon]) => arcBetween(tile.lat, tile.lon, lat, lon)));
  }
  const { minLat, maxLat, minLon, maxLon } = tile.cell;
  const corners: [number, number][] = [
    [minLat, minLon],
    [minLat, maxLon],
    [maxLat, minLon],
    [maxLat, maxLon],
  ];
  const cellDegrees = Math.max(...corners.map(([lat, lon]) => degreesBetween(tile.lat, tile.lon, lat, lon)));
  const cellArc = Math.max(...corners.map(([lat, lon]) => arcBetween(tile.lat, tile.lon, lat, lon)));
  return {
    degrees: Math.min(degrees, cellDegrees, tile.radius),
    arc: Math.min(arc, cellArc * ARC_MARGIN, tile.radius),
  };
}

/** The farthest row of a page from the tile's centre, in each measure. */
export function rowsReach(
  tile: Pick<Tile, 'lat' | 'lon'>,
  rows: readonly { lat: number; lon: number }[],
): Reach {
  let degrees = 0;
  let arc = 0;
  for (const r of rows) {
    degrees = Math.max(degrees, degreesBetween(tile.lat, tile.lon, r.lat, r.lon));
    arc = Math.max(arc, arcBetween(tile.lat, tile.lon, r.lat, r.lon));
  }
  return { degrees, arc };
}

/**
 * The radius the rows prove the server searches in full when they reach past the area's part of the
 * tile in both measures; null when they do not (the radius check decides).
 */
export function provenRadius(
  tile: Pick<Tile, 'lat' | 'lon' | 'radius' | 'cell'>,
  shape: Shape,
  rows: readonly { lat: number; lon: number }[],
): number | null {
  if (rows.length === 0) return null;
  const need = areaReach(tile, shape);
  const got = rowsReach(tile, rows);
  if (got.degrees < need.degrees + ROUNDING || got.arc < need.arc + ROUNDING) return null;
  return Math.min(tile.radius, got.degrees, got.arc);
}

/** Rows beyond the degree circle it takes to believe the server measures great-circle distance. */
const READING_ROWS = 3;

/**
 * 'great-circle' when a page asked at `radius` holds rows beyond its degree circle (at least
 * READING_ROWS, each more than 1 % beyond) and none beyond its great circle: a server measuring
 * degree space cannot answer them. Else null (degree space, or not enough to tell).
 */
export function readingOf(
  circle: Pick<Tile, 'lat' | 'lon' | 'radius'>,
  rows: readonly { lat: number; lon: number }[],
): 'great-circle' | null {
  let beyond = 0;
  for (const r of rows) {
    if (arcBetween(circle.lat, circle.lon, r.lat, r.lon) > circle.radius * 1.001 + ROUNDING) return null;
    if (degreesBetween(circle.lat, circle.lon, r.lat, r.lon) > circle.radius * 1.01 + ROUNDING) beyond++;
  }
  return beyond >= READING_ROWS ? 'great-circle' : null;
}

/** Ground circles are asked this much wider than the area's part of the cell reaches (earth models differ). */
const GROUND_MARGIN = 1.02;

/**
 * The radius to send for a tile. Degree space (the reading not known): the tile's circle, which
 * covers its cell under either reading. A great-circle server: the ground circle around the tile's
 * centre that reaches the farthest point of the area inside the tile's cell (a degree circle's
 * east–west reach is 1/cos(latitude) times the ground distance, so this is the smaller circle).
 * Either way every point of the area in the cell is searched: finalize.ts removes only there.
 */
export function sentRadius(tile: Tile, shape: Shape, reading: 'great-circle' | null | undefined): number {
  if (reading !== 'great-circle') return tile.radius;
  const arc = areaReach({ ...tile, radius: Infinity }, shape).arc;
  return Math.min(tile.radius, Math.ceil(arc * GROUND_MARGIN * 1e6) / 1e6);
}
