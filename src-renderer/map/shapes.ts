/** Drawn geometry → AreaShape (src-shared/sync.ts): circles in miles, polygons as [lat, lon] corners. */
import { METRES_PER_MILE } from '../../src-shared/geo';
import type { AreaShape } from '../../src-shared/sync';

export type LatLngLike = { lat: number; lng: number };

const round = (v: number, digits = 6) => Math.round(v * 10 ** digits) / 10 ** digits;

export function circleShape(center: LatLngLike, radiusMetres: number): AreaShape {
  return {
    kind: 'circle',
    lat: round(center.lat),
    lon: round(center.lng),
    radiusMi: round(radiusMetres / METRES_PER_MILE, 4),
  };
}

/** A polygon's corners; a closing corner equal to the first is dropped. */
export function polygonShape(corners: LatLngLike[]): AreaShape {
  const points = corners.map((c) => [round(c.lat), round(c.lng)] as [number, number]);
  const first = points[0];
  const last = points[points.length - 1];
  if (points.length > 3 && first && last && first[0] === last[0] && first[1] === last[1]) points.pop();
  return { kind: 'polygon', points };
}
