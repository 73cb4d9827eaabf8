/** Every area's bounding box, as stored with the area (the extract grows each by its margin). */
import type { Box } from '../../../src-shared/geo/bbox';
import type { Db } from '../store/database';

export function areaBoxes(db: Db): Box[] {
  return db
    .prepare<[], Box>(
      'SELECT min_lat AS minLat, max_lat AS maxLat, min_lon AS minLon, max_lon AS maxLon FROM areas ORDER BY id',
    )
    .all();
}
