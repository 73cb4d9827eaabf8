/**
 * A reference layer's feature geometry (beats, districts, schools, parks): polygons with holes and
 * several parts, or points. What is inside, the box, the problems a file's geometry may have, and a
 * buffer of a given distance in metres (measured in the UTM zone of the feature, utm.ts) as a Region
 * for the one filter loop. Lat/lon polygons are planar, like `insidePolygon`'s.
 */
import { boxOfPoints, unionBox, type Box, type LatLon } from './bbox';
import { EdgeGrid, RingBands, type EdgeGridParts, type RingBandsParts } from './edgeIndex';
import { insidePolygon, selfIntersects } from './polygon';
import type { Region } from './region';
import { MILES_PER_DEGREE_LON_AT_EQUATOR, MIN_MILES_PER_DEGREE_LAT, METRES_PER_MILE, RAD } from './units';
import { UtmProjection, utmZoneOf } from './utm';

/** A polygon: its outer ring first, then its holes; rings closed implicitly. */
export type PolygonRings = readonly (readonly LatLon[])[];

export type FeatureGeometry =
  { kind: 'polygons'; polygons: readonly PolygonRings[] } | { kind: 'points'; points: readonly LatLon[] };

/** Inside one of the polygons: inside its outer ring and in none of its holes. */
export function insidePolygons(lat: number, lon: number, polygons: readonly PolygonRings[]): boolean {
  for (const rings of polygons) {
    const outer = rings[0];
    if (!outer || !insidePolygon(lat, lon, outer)) continue;
    let inHole = false;
    for (let h = 1; h < rings.length && !inHole; h++) inHole = insidePolygon(lat, lon, rings[h] as LatLon[]);
    if (!inHole) return true;
  }
  return false;
}

export function geometryBox(g: FeatureGeometry): Box {
  if (g.kind === 'points') return boxOfPoints(g.points);
  let box: Box | null = null;
  for (const rings of g.polygons) {
    const b = boxOfPoints(rings[0] ?? []);
    box = box ? unionBox(box, b) : b;
  }
  return box ?? { minLat: 0, maxLat: 0, minLon: 0, maxLon: 0 };
}

export const vertexCount = (g: FeatureGeometry): number =>
  g.kind === 'points'
    ? g.points.length
    : g.polygons.reduce((n, rings) => n + rings.reduce((m, r) => m + r.length, 0), 0);

/** Twice the signed area of a ring in degree space (positive: counter-clockwise with lon as x). */
export function ringArea2(ring: readonly LatLon[]): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const p = ring[j] as LatLon;
    const q = ring[i] as LatLon;
    a += p[1] * q[0] - q[1] * p[0];
  }
  return a;
}

/** Plain-words problems of a feature's geometry (after reprojection to lat/lon); empty when usable. */
export function geometryProblems(g: FeatureGeometry): string[] {
  const out: string[] = [];
  const bad = (p: LatLon) =>
    !Number.isFinite(p[0]) || !Number.isFinite(p[1]) || Math.abs(p[0]) > 90 || Math.abs(p[1]) > 180;
  if (g.kind === 'points') {
    if (g.points.length === 0) out.push('it has no points');
    else if (g.points.some(bad))
      out.push('a point is not a latitude/longitude on Earth (a projected file without its .prj?)');
    return out;
  }
  if (g.polygons.length === 0) return ['it has no polygon'];
  g.polygons.forEach((rings, p) => {
    const part = g.polygons.length > 1 ? `part ${p + 1}: ` : '';
    rings.forEach((ring, r) => {
      const which = `${part}${r === 0 ? 'the outer ring' : `hole ${r}`}`;
      if (ring.length < 3) return void out.push(`${which} has fewer than 3 corners`);
      if (ring.some(bad))
        return void out.push(
          `${which} has a corner that is not a latitude/longitude on Earth (a projected file without its .prj?)`,
        );
      if (selfIntersects(ring)) return void out.push(`${which} crosses itself`);
      if (Math.abs(ringArea2(ring)) < 1e-18) out.push(`${which} has no area`);
    });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Buffers, in metres on the feature's UTM zone.

/** The smallest ground metres in a degree of latitude (at the equator), for boxes that are never short. */
const MIN_METRES_PER_DEGREE_LAT = MIN_MILES_PER_DEGREE_LAT * METRES_PER_MILE;

/** A box grown by `metres` on every side, with 1 % of slack (a superset, like looseCircleBox). */
export function growBox(b: Box, metres: number): Box {
  if (metres <= 0) return b;
  const dLat = (metres / MIN_METRES_PER_DEGREE_LAT) * 1.01;
  const widest = Math.min(89.9, Math.max(Math.abs(b.minLat), Math.abs(b.maxLat)) + dLat);
  const dLon = Math.min(
    180,
    (metres / (MILES_PER_DEGREE_LON_AT_EQUATOR * METRES_PER_MILE * Math.cos(widest * RAD))) * 1.02,
  );
  return {
    minLat: b.minLat - dLat,
    maxLat: b.maxLat + dLat,
    minLon: b.minLon - dLon,
    maxLon: b.maxLon + dLon,
  };
}

/** A ring's (or a feature's points') corners in UTM metres. */
export type ProjectedRing = { x: Float64Array; y: Float64Array };

/** The UTM zone a feature's distances are measured in: its box centre's. */
const projectionOf = (base: Box): UtmProjection =>
  new UtmProjection(utmZoneOf((base.minLat + base.maxLat) / 2, (base.minLon + base.maxLon) / 2));

/**
 * What `bufferedRegion` measures distances to, in its UTM zone: each polygon ring, or all the
 * points as one column pair. The costly part of a big feature's buffer (a helper thread may make
 * it and hand it over as typed arrays).
 */
export function projectedRings(g: FeatureGeometry): ProjectedRing[] {
  const utm = projectionOf(geometryBox(g));
  const columns = (corners: readonly LatLon[]) =>
    utm.forwardColumns(
      corners.map((p) => p[0]),
      corners.map((p) => p[1]),
    );
  return g.kind === 'points' ? [columns(g.points)] : g.polygons.flatMap((parts) => parts.map(columns));
}

/**
 * What a buffered region is made of, as typed arrays and numbers (the costly part of a big
 * feature's region: a helper thread may make it and hand it over): the feature's box, its points
 * in UTM metres, or its rings' edges indexed (edgeIndex.ts).
 */
export type RegionParts = {
  kind: FeatureGeometry['kind'];
  base: Box;
  metres: number;
  /** Points: their columns in UTM metres (with a distance). */
  points: ProjectedRing | null;
  /** Polygons: each polygon's rings (outer first) for the even–odd test. */
  inside: RingBandsParts[][];
  /** Polygons: each ring's edges for the distance (with a distance). */
  near: EdgeGridParts[];
};

export function regionParts(g: FeatureGeometry, metres: number): RegionParts {
  const base = geometryBox(g);
  const projected = metres > 0 ? projectedRings(g) : [];
  if (g.kind === 'points')
    return { kind: 'points', base, metres, points: projected[0] ?? null, inside: [], near: [] };
  return {
    kind: 'polygons',
    base,
    metres,
    points: null,
    inside: g.polygons.map((rings) =>
      rings.map(
        (ring) =>
          RingBands.build(
            Float64Array.from(ring, (p) => p[0]),
            Float64Array.from(ring, (p) => p[1]),
          ).parts,
      ),
    ),
    near: projected.map(({ x, y }) => EdgeGrid.build(x, y, metres).parts),
  };
}

/**
 * The feature grown by `metres` as a Region: a polygon's inside plus every point within `metres`
 * of its edges, or every point within `metres` of one of its points (a school's). Distances are in
 * the UTM zone of the feature's box centre (utm.ts), exact to the projection's scale (≤ 0.1 %
 * inside a zone). `metres` 0 keeps a polygon as it is (points then hold nothing).
 */
export const bufferedRegion = (g: FeatureGeometry, metres: number): Region =>
  regionOfParts(regionParts(g, metres));

/** The Region of its parts (no work in proportion to the feature's corners). */
export function regionOfParts(parts: RegionParts): Region {
  const { base, metres } = parts;
  const box = growBox(base, metres);
  const center = { lat: (base.minLat + base.maxLat) / 2, lon: (base.minLon + base.maxLon) / 2 };
  const utm = projectionOf(base);
  const d2 = metres * metres;
  if (parts.kind === 'points') {
    const { x, y } = parts.points ?? { x: new Float64Array(0), y: new Float64Array(0) };
    return {
      box,
      center,
      contains(lat, lon) {
        if (metres <= 0) return false;
        const [px, py] = utm.forward(lat, lon);
        for (let i = 0; i < x.length; i++) {
          const dx = (x[i] as number) - px;
          const dy = (y[i] as number) - py;
          if (dx * dx + dy * dy <= d2) return true;
        }
        return false;
      },
    };
  }
  // Every ring's edges indexed (edgeIndex.ts): the plain loops' answers, from the edges near a point.
  const inside = parts.inside.map((rings) => rings.map((r) => new RingBands(r)));
  const near = parts.near.map((r) => new EdgeGrid(r));
  return {
    box,
    center,
    contains(lat, lon) {
      for (const [outer, ...holes] of inside)
        if (outer?.contains(lat, lon) && !holes.some((h) => h.contains(lat, lon))) return true;
      if (metres <= 0) return false;
      const [px, py] = utm.forward(lat, lon);
      return near.some((grid) => grid.near(px, py));
    },
  };
}

/** A ground circle of `metres` around a point as a ring of `corners` [lat, lon] (drawing a point's buffer). */
export function circleRing(lat: number, lon: number, metres: number, corners = 64): LatLon[] {
  const utm = new UtmProjection(utmZoneOf(lat, lon));
  const [x, y] = utm.forward(lat, lon);
  return Array.from({ length: corners }, (_, k) => {
    const a = (k / corners) * 2 * Math.PI;
    return utm.inverse(x + metres * Math.cos(a), y + metres * Math.sin(a));
  });
}

export const FEET_PER_METRE = 1 / 0.3048;
