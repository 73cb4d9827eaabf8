/** Web Mercator in [0, 1] (x east, y south), as the cluster index and Leaflet's tiles use it. */

export const lngX = (lng: number): number => lng / 360 + 0.5;

export function latY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return y < 0 ? 0 : y > 1 ? 1 : y;
}

export const xLng = (x: number): number => (x - 0.5) * 360;

export function yLat(y: number): number {
  const y2 = ((180 - y * 360) * Math.PI) / 180;
  return (360 * Math.atan(Math.exp(y2))) / Math.PI - 90;
}

/** [west, south, east, north] in degrees. */
export type BBox = [number, number, number, number];
