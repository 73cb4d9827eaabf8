/**
 * Areas in the store: a ground circle or a polygon, a refresh interval and a pause switch. Deleting
 * an area drops its ledger, runs and jobs, and the incidents it brought in that no remaining area
 * covers (areaRemoval.ts has the rule), unless `keepIncidents` is set; imported incidents stay.
 */
import { shapeBox, shapeCenter, type Shape } from '../../../src-shared/geo';
import { shapeOfArea, type AreaRow } from '../store/areas/areaRow';
import type { Db } from '../store/database';
import { removeOrphanedIncidents, removeSyncState } from './areaRemoval';

export type AreaRecord = {
  id: number;
  name: string;
  shape: Shape;
  refreshMinutes: number;
  paused: boolean;
  createdAt: number;
  lastSyncedAt: number | null;
  backfilledAt: number | null;
  deepRefreshedAt: number | null;
};

export const DEFAULT_REFRESH_MINUTES = 15;

function toRecord(r: AreaRow): AreaRecord {
  return {
    id: r.id,
    name: r.name,
    shape: shapeOfArea(r),
    refreshMinutes: r.refresh_minutes,
    paused: r.paused !== 0,
    createdAt: r.created_at,
    lastSyncedAt: r.last_synced_at,
    backfilledAt: r.backfilled_at,
    deepRefreshedAt: r.deep_refreshed_at,
  };
}

export function createAreaStore(db: Db) {
  const one = db.prepare<[number], AreaRow>('SELECT * FROM areas WHERE id = ?');
  const all = db.prepare<[], AreaRow>('SELECT * FROM areas ORDER BY id');
  const insert = db.prepare(
    `INSERT INTO areas (name, kind, center_lat, center_lon, radius_mi, polygon, min_lat, min_lon, max_lat, max_lon,
       refresh_minutes, created_at)
     VALUES (@name, @kind, @lat, @lon, @radius, @polygon, @minLat, @minLon, @maxLat, @maxLon, @refresh, @now)`,
  );

  const get = (id: number): AreaRecord | undefined => {
    const r = one.get(id);
    return r ? toRecord(r) : undefined;
  };

  return {
    get,
    list: (): AreaRecord[] => all.all().map(toRecord),
    create(input: { name: string; shape: Shape; refreshMinutes?: number }, now: number): AreaRecord {
      const box = shapeBox(input.shape);
      const [lat, lon] = shapeCenter(input.shape);
      const id = Number(
        insert.run({
          name: input.name,
          kind: input.shape.kind,
          lat,
          lon,
          radius: input.shape.kind === 'circle' ? input.shape.radiusMi : null,
          polygon: input.shape.kind === 'polygon' ? JSON.stringify(input.shape.points) : null,
          ...box,
          refresh: input.refreshMinutes ?? DEFAULT_REFRESH_MINUTES,
          now,
        }).lastInsertRowid,
      );
      return get(id) as AreaRecord;
    },
    /** An existing circle area with exactly this centre and radius (the CLI's --area reuses it). */
    findCircle(lat: number, lon: number, radiusMi: number): AreaRecord | undefined {
      const r = db
        .prepare<[number, number, number], AreaRow>(
          "SELECT * FROM areas WHERE kind = 'circle' AND center_lat = ? AND center_lon = ? AND radius_mi = ? ORDER BY id LIMIT 1",
        )
        .get(lat, lon, radiusMi);
      return r ? toRecord(r) : undefined;
    },
    rename(id: number, name: string): void {
      db.prepare('UPDATE areas SET name = ? WHERE id = ?').run(name, id);
    },
    setPaused(id: number, paused: boolean): void {
      db.prepare('UPDATE areas SET paused = ? WHERE id = ?').run(paused ? 1 : 0, id);
    },
    setRefreshMinutes(id: number, minutes: number): void {
      db.prepare('UPDATE areas SET refresh_minutes = ? WHERE id = ?').run(minutes, id);
    },
    markSynced(id: number, now: number, what: { backfill: boolean; deep: boolean }): void {
      db.prepare(
        `UPDATE areas SET last_synced_at = @now,
           backfilled_at = CASE WHEN @backfill THEN @now ELSE backfilled_at END,
           deep_refreshed_at = CASE WHEN @deep THEN @now ELSE deep_refreshed_at END
         WHERE id = @id`,
      ).run({ id, now, backfill: what.backfill ? 1 : 0, deep: what.deep ? 1 : 0 });
    },
    /** Deletes the area and its sync state; returns how many incidents left the local file with it. */
    remove(id: number, keepIncidents: boolean): { deleted: boolean; incidentsRemoved: number } {
      return db
        .transaction(() => {
          const area = get(id);
          if (!area) return { deleted: false, incidentsRemoved: 0 };
          const remaining = all
            .all()
            .filter((r) => r.id !== id)
            .map((r) => toRecord(r).shape);
          const incidentsRemoved = keepIncidents ? 0 : removeOrphanedIncidents(db, area, remaining);
          removeSyncState(db, id);
          db.prepare('DELETE FROM areas WHERE id = ?').run(id);
          return { deleted: true, incidentsRemoved };
        })
        .immediate();
    },
  };
}

export type AreaStore = ReturnType<typeof createAreaStore>;
