/**
 * An area's true geometry: a ground circle (centre, radius in miles) or a polygon of [lat, lon]. What
 * is inside, its bounding box, whether it reaches a box, its outline, and validation of user input.
 */
import { boxOfPoints, circleBox, nearestInBox, type Box, type LatLon } from './bbox';
import { milesBetween } from './distance';
import { centroid, insidePolygon, polygonTouchesBox, selfIntersects } from './polygon';
import { isLatitude, isLongitude } from './coordinates';
import { MILES_PER_DEGREE_LAT, MILES_PER_DEGREE_LON_AT_EQUATOR, RAD } from './units';

export type Shape =
  | { kind: 'circle'; lat: number; lon: number; radiusMi: number }
  | { kind: 'polygon'; points: readonly LatLon[] };

/** Largest area radius we accept: a metro area. Larger circles are better drawn as several areas. */
export const MAX_RADIUS_MI = 50;
export const MAX_POLYGON_POINTS = 500;

export function contains(shape: Shape, lat: number, lon: number): boolean {
  if (shape.kind === 'circle') return milesBetween(shape.lat, shape.lon, lat, lon) <= shape.radiusMi;
  return insidePolygon(lat, lon, shape.points);
}

export function shapeBox(shape: Shape): Box {
  return shape.kind === 'polygon'
    ? boxOfPoints(shape.points)
    : circleBox(shape.lat, shape.lon, shape.radiusMi);
}

export function shapeCenter(shape: Shape): LatLon {
  return shape.kind === 'circle' ? [shape.lat, shape.lon] : centroid(shape.points);
}

/** Whether the shape reaches into the box (the box's nearest point to a circle's centre is inside). */
export function touchesBox(shape: Shape, b: Box): boolean {
  if (shape.kind === 'polygon') return polygonTouchesBox(shape.points, b);
  const [lat, lon] = nearestInBox(b, shape.lat, shape.lon);
  return milesBetween(shape.lat, shape.lon, lat, lon) <= shape.radiusMi;
}

/**
 * An outline as a [lat, lon] ring, for drawings without a map library (the report's static map):
 * a polygon as drawn, a circle as `corners` points of an ellipse in the ellipsoid's degree/mile figures.
 */
export function outlineOf(shape: Shape, corners = 72): [number, number][] {
  if (shape.kind === 'polygon') return shape.points.map(([lat, lon]) => [lat, lon]);
  const dLat = shape.radiusMi / MILES_PER_DEGREE_LAT;
  const dLon = shape.radiusMi / (MILES_PER_DEGREE_LON_AT_EQUATOR * Math.max(0.01, Math.cos(shape.lat * RAD)));
  return Array.from({ length: corners }, (_, k) => {
    const a = (k / corners) * 2 * Math.PI;
    return [shape.lat + dLat * Math.cos(a), shape.lon + dLon * Math.sin(a)];
  });
}

/** Plain-words problems with a shape a user drew or typed; empty when it is usable. */
export function shapeProblems(shape: Shape): string[] {
  const problems: string[] = [];
  const checkPoint = (lat: number, lon: number, what: string): void => {
    if (!isLatitude(lat)) problems.push(`${what}: latitude must be between -90 and 90.`);
    if (!isLongitude(lon)) problems.push(`${what}: longitude must be between -180 and 180.`);
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
    const b = boxOfPoints(pts);
    if (b.maxLat - b.minLat > 2 || b.maxLon - b.minLon > 2)
      problems.push('The polygon may span at most 2 degrees each way.');
    if (b.maxLat - b.minLat === 0 || b.maxLon - b.minLon === 0) problems.push('The polygon has no area.');
  }
  return problems;
}
