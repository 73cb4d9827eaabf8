/** The Region of a filter's area: a saved area from the store, or a circle or polygon drawn now. */
import type { AreaFilter } from '../../../src-shared/filters';
import type { Db } from '../store/database';
import { EngineError } from '../errors';
import { regionOf, type Region } from '../../../src-shared/geo';

type AreaRow = {
  kind: 'circle' | 'polygon';
  center_lat: number;
  center_lon: number;
  radius_mi: number | null;
  polygon: string | null;
};

export function shapeOf(db: Db, area: AreaFilter): Region {
  if ('circle' in area) return regionOf({ kind: 'circle', ...area.circle });
  if ('polygon' in area) return regionOf({ kind: 'polygon', points: area.polygon });
  const row = db
    .prepare('SELECT kind, center_lat, center_lon, radius_mi, polygon FROM areas WHERE id = ?')
    .get(area.areaId) as AreaRow | undefined;
  if (!row) throw new EngineError('not_found', `Area ${area.areaId} no longer exists.`);
  if (row.kind === 'circle')
    return regionOf({
      kind: 'circle',
      lat: row.center_lat,
      lon: row.center_lon,
      radiusMi: row.radius_mi ?? 0,
    });
  const corners = JSON.parse(row.polygon ?? '[]') as [number, number][];
  if (corners.length < 3) throw new EngineError('internal', `Area ${area.areaId} has no usable polygon.`);
  // The saved centre (the sync's centroid) is the one users see on the Areas view.
  return {
    ...regionOf({ kind: 'polygon', points: corners }),
    center: { lat: row.center_lat, lon: row.center_lon },
  };
}
