/** An area's shape in a few words: "Circle of 1 mi around 39.7392, -104.9903", "Polygon, 5 corners". */
import type { AreaFilter } from '../../src-shared/filters';
import type { AreaShape } from '../../src-shared/sync';

const coord = (n: number): string => String(Math.round(n * 10_000) / 10_000);
const miles = (mi: number): string => `${Math.round(mi * 100) / 100} mi`;

export function shapeText(shape: AreaShape): string {
  if (shape.kind === 'circle')
    return `Circle of ${miles(shape.radiusMi)} around ${coord(shape.lat)}, ${coord(shape.lon)}`;
  return `Polygon, ${shape.points.length} corners`;
}

/** A drawn (unsaved) filter shape in words; null for a saved area or none. */
export function drawnShapeText(area: AreaFilter | undefined): string | null {
  if (!area || 'areaId' in area) return null;
  if ('circle' in area) return `Drawn circle, ${miles(area.circle.radiusMi)}`;
  return `Drawn polygon, ${area.polygon.length} corners`;
}
