/** Every area's stored bounding box, with its id (the extract grows each by its margin). */
import type { Box } from '../../../src-shared/geo/bbox';
import type { Db } from '../store/database';

/** An area's box; `id` names the area in the coverage answer. */
export type AreaBox = Box & { id?: number };

export function areaBoxes(db: Db): (Box & { id: number })[] {
  return db
    .prepare<[], Box & { id: number }>(
      'SELECT id, min_lat AS minLat, max_lat AS maxLat, min_lon AS minLon, max_lon AS maxLon FROM areas ORDER BY id',
    )
    .all();
}
