/**
 * The `areas` table's row as stored (migrations/001-initial.ts) and the one decoder of its shape:
 * a ground circle (centre and radius in miles) or a polygon (its corners as JSON [lat, lon] pairs).
 * The sync's area store, the query's area filters and the coverage ledger all read areas through it.
 */
import type { Shape } from '../../../../src-shared/geo';
import type { Db } from '../database';

export type AreaRow = {
  id: number;
  name: string;
  kind: 'circle' | 'polygon';
  center_lat: number;
  center_lon: number;
  radius_mi: number | null;
  /** JSON [[lat, lon], …], for polygons. */
  polygon: string | null;
  min_lat: number;
  min_lon: number;
  max_lat: number;
  max_lon: number;
  refresh_minutes: number;
  paused: number;
  created_at: number;
  last_synced_at: number | null;
  backfilled_at: number | null;
  deep_refreshed_at: number | null;
};

/** The columns shapeOfArea reads. */
export type AreaShapeColumns = Pick<AreaRow, 'kind' | 'center_lat' | 'center_lon' | 'radius_mi' | 'polygon'>;

/** The area's shape as drawn: its circle, or its polygon's corners. */
export function shapeOfArea(row: AreaShapeColumns): Shape {
  return row.kind === 'circle'
    ? { kind: 'circle', lat: row.center_lat, lon: row.center_lon, radiusMi: row.radius_mi ?? 0 }
    : { kind: 'polygon', points: JSON.parse(row.polygon ?? '[]') as [number, number][] };
}

/** One area's stored row, or undefined when there is no such area. */
export function readArea(db: Db, id: number): AreaRow | undefined {
  return db.prepare<[number], AreaRow>('SELECT * FROM areas WHERE id = ?').get(id);
}
