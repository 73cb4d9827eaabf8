/**
 * An office replica's areas (the office side of areas/areaEdits.ts; a standalone folder writes its
 * own area store): a folder joined to an office writes the office database — an area drawn on any
 * desktop is the office's area, synced by whichever desktop leads it — and the edit comes back into
 * this folder by the replica's pull before the call answers. Deleting an office area removes in
 * PostgreSQL the incidents the local rule (areas/areaRemoval.ts, run against the replica and
 * rolled back) would have removed here; every replica then loses them by the pull.
 */
import { shapeBox, shapeCenter } from '../../../src-shared/geo';
import { EngineError } from '../errors';
import type { Db } from '../store/database';
import type { AreaEdits } from '../areas/areaEdits';
import { DEFAULT_REFRESH_MINUTES, type AreaRecord, type AreaStore } from '../areas/areaStore';
import { removeSyncState } from '../areas/areaRemoval';
import { inTransaction, isUnreachable, OfficeUnreachableError, type OfficePool } from './officeDb';
import { OFFICE_DOWN } from './leader';

/** The incidents the local deletion rule would remove with the area (nothing written: rolled back). */
function orphansOf(db: Db, areas: AreaStore, id: number, keepIncidents: boolean): number[] {
  if (keepIncidents) return [];
  const undo = Symbol('undo');
  let cdids: number[] = [];
  try {
    db.transaction(() => {
      const before = db.prepare('SELECT cdid FROM incidents').pluck().all() as number[];
      areas.remove(id, false);
      const after = new Set(db.prepare('SELECT cdid FROM incidents').pluck().all() as number[]);
      cdids = before.filter((c) => !after.has(c));
      throw undo;
    }).immediate();
  } catch (e) {
    if (e !== undo) throw e;
  }
  return cdids;
}

/** The office database's areas, each edit followed by the replica's pull. */
export function officeAreaEdits(
  db: Db,
  areas: AreaStore,
  pool: () => Promise<OfficePool>,
  pull: () => Promise<unknown>,
): AreaEdits {
  const office = async <T>(work: (p: OfficePool) => Promise<T>): Promise<T> => {
    try {
      const out = await work(await pool());
      await pull();
      return out;
    } catch (e) {
      if (e instanceof OfficeUnreachableError || isUnreachable(e))
        throw new EngineError(
          'office_unreachable',
          `${OFFICE_DOWN} Areas are the office's: edit them again when the office database can be reached.`,
        );
      throw e;
    }
  };
  const update = (id: number, column: string, value: unknown) =>
    office(async (p) => {
      const r = await p.query(`UPDATE areas SET ${column} = $2 WHERE id = $1`, [id, value]);
      if (r.rowCount === 0) throw new EngineError('not_found', 'That area no longer exists in the office.');
    });
  const edits: AreaEdits = {
    get: (id) => areas.get(id),
    list: () => areas.list(),
    async create(input, now) {
      const box = shapeBox(input.shape);
      const [lat, lon] = shapeCenter(input.shape);
      const radius = input.shape.kind === 'circle' ? input.shape.radiusMi : null;
      const polygon = input.shape.kind === 'polygon' ? JSON.stringify(input.shape.points) : null;
      const made = await office((p) =>
        inTransaction(p, async (c) => {
          // One area per shape in the office: two desktops drawing (or `sync --area`) the same
          // shape at once meet on this lock, and the second finds the first's.
          await c.query("SELECT pg_advisory_xact_lock(hashtextextended('blotter-office-area-shape', 0))");
          const same = await c.query<{ id: number; name: string }>(
            `SELECT id, name FROM areas
              WHERE kind = $1 AND center_lat = $2 AND center_lon = $3
                AND radius_mi IS NOT DISTINCT FROM $4 AND polygon IS NOT DISTINCT FROM $5
              ORDER BY id LIMIT 1`,
            [input.shape.kind, lat, lon, radius, polygon],
          );
          const existing = same.rows[0];
          if (existing) return { existing, id: null };
          const r = await c.query<{ id: number }>(
            `INSERT INTO areas (name, kind, center_lat, center_lon, radius_mi, polygon, min_lat, min_lon, max_lat, max_lon,
               refresh_minutes, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
            [
              input.name,
              input.shape.kind,
              lat,
              lon,
              radius,
              polygon,
              box.minLat,
              box.minLon,
              box.maxLat,
              box.maxLon,
              input.refreshMinutes ?? DEFAULT_REFRESH_MINUTES,
              now,
            ],
          );
          return { existing: null, id: r.rows[0]!.id };
        }),
      );
      // Refused after the pull, so this replica now holds the office's area of that shape.
      if (made.existing)
        throw new EngineError(
          'conflict',
          `The office already has an area of this shape: area ${made.existing.id} "${made.existing.name}". Use it (blotter areas list) rather than a second copy, which every sync would request again.`,
        );
      const id = made.id!;
      const area = areas.get(id);
      if (!area) throw new Error(`The office's area ${id} did not reach this replica.`);
      return area;
    },
    // One by one: each is the office's area, refused or made on its own (one shape, one area).
    async createAll(inputs, now) {
      const made: AreaRecord[] = [];
      for (const input of inputs) made.push(await edits.create(input, now));
      return made;
    },
    rename: (id, name) => update(id, 'name', name),
    setRefreshMinutes: (id, minutes) => update(id, 'refresh_minutes', minutes),
    setPaused: (id, paused) => update(id, 'paused', paused ? 1 : 0),
    async remove(id, keepIncidents) {
      if (!areas.get(id)) return { deleted: false, incidentsRemoved: 0 };
      const cdids = orphansOf(db, areas, id, keepIncidents);
      const deleted = await office(async (p) => {
        const c = await p.connect();
        try {
          await c.query('BEGIN');
          await c.query('DELETE FROM incidents WHERE cdid = ANY($1::bigint[])', [cdids]);
          await c.query('DELETE FROM sync_state WHERE area_id = $1', [id]);
          const r = await c.query('DELETE FROM areas WHERE id = $1', [id]);
          await c.query('COMMIT');
          return (r.rowCount ?? 0) > 0;
        } catch (e) {
          await c.query('ROLLBACK').catch(() => undefined);
          throw e;
        } finally {
          c.release();
        }
      });
      // This folder's own bookkeeping of the area (its runs and jobs) goes with it.
      db.transaction(() => removeSyncState(db, id)).immediate();
      return { deleted, incidentsRemoved: deleted ? cdids.length : 0 };
    },
  };
  return edits;
}
