/** Distances on the ground (great circle, miles) and the degree-space measure the live search uses. */
export const EARTH_RADIUS_MI = 3958.8;
const RAD = Math.PI / 180;

export function milesBetween(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const a =
    Math.sin(((lat2 - lat1) * RAD) / 2) ** 2 +
    Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(((lon2 - lon1) * RAD) / 2) ** 2;
  return 2 * EARTH_RADIUS_MI * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Euclidean distance in degree space: the live search's `radius` is in these units. */
export const degreesBetween = (lat1: number, lon1: number, lat2: number, lon2: number): number =>
  Math.hypot(lat1 - lat2, lon1 - lon2);

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
