/**
 * Area membership in miles on the ground: great-circle (haversine) circles and [lat, lon]
 * polygons (even-odd rule in lat/lon, fine at city scale), each behind a bounding box that the
 * filter loop checks first.
 */
export const EARTH_RADIUS_MI = 3958.8;
const RAD = Math.PI / 180;

export function haversineMi(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MI * Math.asin(Math.min(1, Math.sqrt(a)));
}

export type Box = { minLat: number; maxLat: number; minLon: number; maxLon: number };

export interface Shape {
  readonly box: Box;
  /** The point distances are measured from by default. */
  readonly center: { lat: number; lon: number };
  contains(lat: number, lon: number): boolean;
}

export function circleShape(lat: number, lon: number, radiusMi: number): Shape {
  // A degree of latitude is ≥ 68.7 mi; a degree of longitude ≥ 69.17·cos(lat) mi at the circle's
  // widest latitude. 1 % of slack keeps the box a superset; the exact test follows.
  const dLat = (radiusMi / 68.7) * 1.01;
  const widest = Math.min(89.9, Math.abs(lat) + dLat);
  const dLon = Math.min(180, (radiusMi / (69.17 * Math.cos(widest * RAD))) * 1.01 || 180);
  const cosLat = Math.cos(lat * RAD);
  return {
    box: { minLat: lat - dLat, maxLat: lat + dLat, minLon: lon - dLon, maxLon: lon + dLon },
    center: { lat, lon },
    contains(pLat, pLon) {
      const a =
        Math.sin(((pLat - lat) * RAD) / 2) ** 2 +
        cosLat * Math.cos(pLat * RAD) * Math.sin(((pLon - lon) * RAD) / 2) ** 2;
      // The same arithmetic as the sync's area membership (geo/distance.ts), so counts agree with it.
      return 2 * EARTH_RADIUS_MI * Math.asin(Math.min(1, Math.sqrt(a))) <= radiusMi;
    },
  };
}

/** A polygon of [lat, lon] corners (closed implicitly). Its centre is the area centroid. */
export function polygonShape(corners: readonly (readonly [number, number])[]): Shape {
  const n = corners.length;
  const lats = Float64Array.from(corners, (c) => c[0]);
  const lons = Float64Array.from(corners, (c) => c[1]);
  const box = { minLat: Infinity, maxLat: -Infinity, minLon: Infinity, maxLon: -Infinity };
  for (let i = 0; i < n; i++) {
    box.minLat = Math.min(box.minLat, lats[i] as number);
    box.maxLat = Math.max(box.maxLat, lats[i] as number);
    box.minLon = Math.min(box.minLon, lons[i] as number);
    box.maxLon = Math.max(box.maxLon, lons[i] as number);
  }
  return {
    box,
    center: centroid(lats, lons),
    contains(pLat, pLon) {
      let inside = false;
      for (let i = 0, j = n - 1; i < n; j = i++) {
        const yi = lats[i] as number;
        const yj = lats[j] as number;
        if (yi > pLat !== yj > pLat) {
          const xi = lons[i] as number;
          const xj = lons[j] as number;
          if (pLon < ((xj - xi) * (pLat - yi)) / (yj - yi) + xi) inside = !inside;
        }
      }
      return inside;
    },
  };
}

function centroid(lats: Float64Array, lons: Float64Array): { lat: number; lon: number } {
  let area = 0;
  let cLat = 0;
  let cLon = 0;
  const n = lats.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const cross = (lons[j] as number) * (lats[i] as number) - (lons[i] as number) * (lats[j] as number);
    area += cross;
    cLon += ((lons[j] as number) + (lons[i] as number)) * cross;
    cLat += ((lats[j] as number) + (lats[i] as number)) * cross;
  }
  if (Math.abs(area) < 1e-12) {
    // Degenerate (all corners on a line): the mean of the corners.
    return { lat: lats.reduce((a, b) => a + b, 0) / n, lon: lons.reduce((a, b) => a + b, 0) / n };
  }
  return { lat: cLat / (3 * area), lon: cLon / (3 * area) };
}
