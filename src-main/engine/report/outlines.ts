/** An area's outline as a [lat, lon] ring for the report's static map: a polygon as drawn, a circle as 72 points. */
import type { Shape } from '../geo/shape';

const RAD = Math.PI / 180;

export function outlineOf(shape: Shape): [number, number][] {
  if (shape.kind === 'polygon') return shape.points.map(([lat, lon]) => [lat, lon]);
  const dLat = shape.radiusMi / 69.05;
  const dLon = shape.radiusMi / (69.17 * Math.max(0.01, Math.cos(shape.lat * RAD)));
  return Array.from({ length: 72 }, (_, k) => {
    const a = (k / 72) * 2 * Math.PI;
    return [shape.lat + dLat * Math.cos(a), shape.lon + dLon * Math.sin(a)];
  });
}
