/** The Region of a filter's area: a saved area from the store, or a circle or polygon drawn now. */
import type { AreaFilter } from '../../../src-shared/filters';
import type { Db } from '../store/database';
import { EngineError } from '../errors';
import { readArea, shapeOfArea } from '../store/areas/areaRow';
import { regionOf, type Region } from '../../../src-shared/geo';

export function shapeOf(db: Db, area: AreaFilter): Region {
  if ('circle' in area) return regionOf({ kind: 'circle', ...area.circle });
  if ('polygon' in area) return regionOf({ kind: 'polygon', points: area.polygon });
  const row = readArea(db, area.areaId);
  if (!row) throw new EngineError('not_found', `Area ${area.areaId} no longer exists.`);
  const shape = shapeOfArea(row);
  if (shape.kind === 'circle') return regionOf(shape);
  if (shape.points.length < 3)
    throw new EngineError('internal', `Area ${area.areaId} has no usable polygon.`);
  // The saved centre (the sync's centroid) is the one users see on the Areas view.
  return {
    ...regionOf(shape),
    center: { lat: row.center_lat, lon: row.center_lon },
  };
}
