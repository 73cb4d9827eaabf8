/**
 * An area's true geometry: a ground circle (centre, radius in miles) or a polygon of [lat, lon]. What
 * is inside, its degree-space bounding box, whether it reaches a box, and validation of user input.
 */
import { degreeExtents, milesBetween } from './distance';
import {
  boxOf,
  centroid,
  insidePolygon,
  polygonTouchesBox,
  selfIntersects,
  type Box,
  type LatLon,
} from './polygon';

export type Shape =
  { kind: 'circle'; lat: number; lon: number; radiusMi: number } | { kind: 'polygon'; points: LatLon[] };

export type { Box, LatLon };

/** Largest area radius we accept: a metro area. Larger circles are better drawn as several areas. */
export const MAX_RADIUS_MI = 50;
export const MAX_POLYGON_POINTS = 500;

export function contains(shape: Shape, lat: number, lon: number): boolean {
  if (shape.kind === 'circle') return milesBetween(shape.lat, shape.lon, lat, lon) <= shape.radiusMi;
  return insidePolygon(lat, lon, shape.points);
}

export function shapeBox(shape: Shape): Box {
  if (shape.kind === 'polygon') return boxOf(shape.points);
  const { dLat, dLon } = degreeExtents(shape.lat, shape.radiusMi);
  return {
    minLat: shape.lat - dLat,
    maxLat: shape.lat + dLat,
    minLon: shape.lon - dLon,
    maxLon: shape.lon + dLon,
  };
}

export function shapeCenter(shape: Shape): LatLon {
  return shape.kind === 'circle' ? [shape.lat, shape.lon] : centroid(shape.points);
}

/** Whether the shape reaches into the box (the box's nearest point to a circle's centre is inside). */
export function touchesBox(shape: Shape, b: Box): boolean {
  if (shape.kind === 'polygon') return polygonTouchesBox(shape.points, b);
  const lat = Math.min(b.maxLat, Math.max(b.minLat, shape.lat));
  const lon = Math.min(b.maxLon, Math.max(b.minLon, shape.lon));
  return milesBetween(shape.lat, shape.lon, lat, lon) <= shape.radiusMi;
}

/** Plain-words problems with a shape a user drew or typed; empty when it is usable. */
export function shapeProblems(shape: Shape): string[] {
  const problems: string[] = [];
  const checkPoint = (lat: number, lon: number, what: string): void => {
    if (!Number.isFinite(lat) || lat < -90 || lat > 90)
      problems.push(`${what}: latitude must be between -90 and 90.`);
    if (!Number.isFinite(lon) || lon < -180 || lon > 180)
      problems.push(`${what}: longitude must be between -180 and 180.`);
  };
  if (shape.kind === 'circle') {
    checkPoint(shape.lat, shape.lon, 'Centre');
    if (!(shape.radiusMi > 0)) problems.push('The radius must be greater than 0 miles.');
    else if (shape.radiusMi > MAX_RADIUS_MI)
      problems.push(`The radius may be at most ${MAX_RADIUS_MI} miles.`);
    return problems;
  }
  const pts = shape.points;
  if (pts.length < 3) problems.push('A polygon needs at least 3 points.');
  if (pts.length > MAX_POLYGON_POINTS)
    problems.push(`A polygon may have at most ${MAX_POLYGON_POINTS} points.`);
  pts.forEach((p, i) => checkPoint(p[0], p[1], `Point ${i + 1}`));
  if (problems.length === 0 && selfIntersects(pts))
    problems.push('The polygon’s edges cross each other; redraw it without crossings.');
  if (problems.length === 0) {
    const b = boxOf(pts);
    if (b.maxLat - b.minLat > 2 || b.maxLon - b.minLon > 2)
      problems.push('The polygon may span at most 2 degrees each way.');
    if (b.maxLat - b.minLat === 0 || b.maxLon - b.minLon === 0) problems.push('The polygon has no area.');
  }
  return problems;
}
