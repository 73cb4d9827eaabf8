/**
 * A shape prepared for many membership tests (a filter over the whole archive): a box to check
 * first, the centre distances are measured from, and the exact test. The same answers as
 * `contains` in shapes.ts; the box is the loose one, so rounding never drops a point on the edge.
 */
import { boxOfPoints, looseCircleBox, type Box } from './bbox';
import { milesFrom } from './distance';
import { centroid, insidePolygon } from './polygon';
import type { Shape } from './shapes';

export interface Region {
  readonly box: Box;
  /** The point distances are measured from by default (a polygon's: its area centroid). */
  readonly center: { lat: number; lon: number };
  contains(lat: number, lon: number): boolean;
}

export function regionOf(shape: Shape): Region {
  if (shape.kind === 'circle') {
    const { lat, lon, radiusMi } = shape;
    const miles = milesFrom(lat, lon);
    return {
      box: looseCircleBox(lat, lon, radiusMi),
      center: { lat, lon },
      contains: (pLat, pLon) => miles(pLat, pLon) <= radiusMi,
    };
  }
  const ring = shape.points;
  const [cLat, cLon] = centroid(ring);
  return {
    box: boxOfPoints(ring),
    center: { lat: cLat, lon: cLon },
    contains: (pLat, pLon) => insidePolygon(pLat, pLon, ring),
  };
}
