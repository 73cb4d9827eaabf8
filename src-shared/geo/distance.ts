/**
 * Distances: great-circle miles on the sphere (haversine), the degree-space measure the live search
 * uses, and the degree extents of a ground circle.
 */
import { EARTH_RADIUS_MI, RAD } from './units';

/** The haversine term of two points, given the cosine of the first one's latitude. */
const haversine = (lat1: number, lon1: number, lat2: number, lon2: number, cosLat1: number): number =>
  Math.sin(((lat2 - lat1) * RAD) / 2) ** 2 +
  cosLat1 * Math.cos(lat2 * RAD) * Math.sin(((lon2 - lon1) * RAD) / 2) ** 2;

const arcMiles = (h: number): number => 2 * EARTH_RADIUS_MI * Math.asin(Math.min(1, Math.sqrt(h)));

/** Great-circle distance in miles (the v1 surface's measure, and an area's). */
export function milesBetween(lat1: number, lon1: number, lat2: number, lon2: number): number {
  return arcMiles(haversine(lat1, lon1, lat2, lon2, Math.cos(lat1 * RAD)));
}

/** `milesBetween(lat, lon, ·, ·)` for many points from one place: the same numbers, one cosine fewer a call. */
export function milesFrom(lat: number, lon: number): (lat2: number, lon2: number) => number {
  const cosLat = Math.cos(lat * RAD);
  return (lat2, lon2) => arcMiles(haversine(lat, lon, lat2, lon2, cosLat));
}

/**
 * Euclidean distance in degree space, `sqrt(Δlat² + Δlon²)`: the live search's `radius` is in these
 * units (the spec's formula, written out as the simulator has always computed it; `Math.hypot` can
 * differ in the last bit).
 */
export function degreesBetween(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dy = lat1 - lat2;
  const dx = lon1 - lon2;
  return Math.sqrt(dx * dx + dy * dy);
}

/**
 * Half-extents in degrees of a ground circle of `miles` around a latitude: north–south and east–west.
 * Exact on the sphere (the east–west extent is the widest longitude the circle reaches).
 */
export function degreeExtents(lat: number, miles: number): { dLat: number; dLon: number } {
  const angle = miles / EARTH_RADIUS_MI; // radians of arc
  const dLat = angle / RAD;
  const s = Math.sin(angle) / Math.cos(lat * RAD);
  const dLon = s >= 1 ? 180 : Math.asin(s) / RAD;
  return { dLat, dLon };
}
