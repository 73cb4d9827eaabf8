/** Axis-aligned boxes in degrees: of points, of ground circles, and how boxes meet. */
import { degreeExtents } from './distance';
import { MILES_PER_DEGREE_LON_AT_EQUATOR, MIN_MILES_PER_DEGREE_LAT, RAD } from './units';

export type Box = { minLat: number; maxLat: number; minLon: number; maxLon: number };
/** A point as [lat, lon]. */
export type LatLon = readonly [number, number];

/** The box of the points (a loop, not Math.min(...all): a ring of 250,000 corners overflows the stack). */
export function boxOfPoints(points: readonly LatLon[]): Box {
  let minLat = Infinity;
  let maxLat = -Infinity;
  let minLon = Infinity;
  let maxLon = -Infinity;
  for (const [lat, lon] of points) {
    // Math.min/max of two, as Math.min(...all) was: a NaN makes the box NaN.
    minLat = Math.min(minLat, lat);
    maxLat = Math.max(maxLat, lat);
    minLon = Math.min(minLon, lon);
    maxLon = Math.max(maxLon, lon);
  }
  return { minLat, maxLat, minLon, maxLon };
}

/** The smallest box holding a ground circle (exact on the sphere): what an area stores, and tiles are cut from. */
export function circleBox(lat: number, lon: number, miles: number): Box {
  const { dLat, dLon } = degreeExtents(lat, miles);
  return { minLat: lat - dLat, maxLat: lat + dLat, minLon: lon - dLon, maxLon: lon + dLon };
}

/**
 * A box that surely holds a ground circle, for a quick first test before the exact one: a degree of
 * latitude is ≥ 68.7 mi, a degree of longitude ≥ 69.17·cos(lat) mi at the circle's widest latitude,
 * and 1 % of slack on top, so no point on the edge is lost to rounding.
 */
export function looseCircleBox(lat: number, lon: number, miles: number): Box {
  const dLat = (miles / MIN_MILES_PER_DEGREE_LAT) * 1.01;
  const widest = Math.min(89.9, Math.abs(lat) + dLat);
  const dLon = Math.min(
    180,
    (miles / (MILES_PER_DEGREE_LON_AT_EQUATOR * Math.cos(widest * RAD))) * 1.01 || 180,
  );
  return { minLat: lat - dLat, maxLat: lat + dLat, minLon: lon - dLon, maxLon: lon + dLon };
}

/** The box around a degree-space circle (the live search's). */
export function degreeCircleBox(lat: number, lon: number, radius: number): Box {
  return { minLat: lat - radius, maxLat: lat + radius, minLon: lon - radius, maxLon: lon + radius };
}

export const inBox = (b: Box, lat: number, lon: number): boolean =>
  lat >= b.minLat && lat <= b.maxLat && lon >= b.minLon && lon <= b.maxLon;

/** Whether two boxes share a point (touching edges count). */
export const boxesOverlap = (a: Box, b: Box): boolean =>
  a.minLat <= b.maxLat && b.minLat <= a.maxLat && a.minLon <= b.maxLon && b.minLon <= a.maxLon;

export function unionBox(a: Box, b: Box): Box {
  return {
    minLat: Math.min(a.minLat, b.minLat),
    maxLat: Math.max(a.maxLat, b.maxLat),
    minLon: Math.min(a.minLon, b.minLon),
    maxLon: Math.max(a.maxLon, b.maxLon),
  };
}

/** The point of the box nearest to (lat, lon) in degree space. */
export const nearestInBox = (b: Box, lat: number, lon: number): LatLon => [
  Math.min(b.maxLat, Math.max(b.minLat, lat)),
  Math.min(b.maxLon, Math.max(b.minLon, lon)),
];
