/** The Shape of a filter's area: a saved area from the store, or a circle or polygon drawn now. */
import type { AreaFilter } from '../../../src-shared/filters';
import type { Db } from '../store/database';
import { EngineError } from '../errors';
import { circleShape, polygonShape, type Shape } from './geo';

type AreaRow = {
  kind: 'circle' | 'polygon';
  center_lat: number;
  center_lon: number;
  radius_mi: number | null;
  polygon: string | null;
};

export function shapeOf(db: Db, area: AreaFilter): Shape {
  if ('circle' in area) return circleShape(area.circle.lat, area.circle.lon, area.circle.radiusMi);
  if ('polygon' in area) return polygonShape(area.polygon);
  const row = db
    .prepare('SELECT kind, center_lat, center_lon, radius_mi, polygon FROM areas WHERE id = ?')
    .get(area.areaId) as AreaRow | undefined;
  if (!row) throw new EngineError('not_found', `Area ${area.areaId} no longer exists.`);
  if (row.kind === 'circle') return circleShape(row.center_lat, row.center_lon, row.radius_mi ?? 0);
  const corners = JSON.parse(row.polygon ?? '[]') as [number, number][];
  if (corners.length < 3) throw new EngineError('internal', `Area ${area.areaId} has no usable polygon.`);
  // The saved centre (the sync's centroid) is the one users see on the Areas view.
  return { ...polygonShape(corners), center: { lat: row.center_lat, lon: row.center_lon } };
}
