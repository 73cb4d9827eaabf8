/**
 * Applying pulled office rows to a replica's connection (replica.ts on the engine thread, the bulk
 * catch-up on its helper thread: pullWorker.ts): each table's write, the skip list (a row Blotter
 * would never write is skipped and named, never applied: pulledRows.ts; a good version of it takes
 * it off the list) and the table's cursor. The caller owns the transaction.
 */
import type { Db } from '../store/database';
import { createIncidentRepo } from '../store/incidents/incidentRepo';
import { ALL_COLUMNS, type IncidentRow } from '../store/incidents/incidentRow';
import { keyOf, problemOf, type PulledTable } from './pulledRows';

/** The area columns the office and a replica share (the pull and the seed). */
export const AREA_COLUMNS = [
  'id',
  'name',
  'kind',
  'center_lat',
  'center_lon',
  'radius_mi',
  'polygon',
  'min_lat',
  'min_lon',
  'max_lat',
  'max_lon',
  'refresh_minutes',
  'paused',
  'created_at',
  'last_synced_at',
  'backfilled_at',
  'deep_refreshed_at',
] as const;
export const COVERAGE_COLUMNS = ['area_id', 'tile', 'day', 'status', 'checked_at'] as const;

export type PulledIncident = Pick<IncidentRow, 'cdid' | 'first_seen' | 'lat' | 'lon'>;

export type PulledApplier = {
  /**
   * Applies one slice of `table`'s pulled rows (in change order) and moves its cursor to the last;
   * `onFresh` hears the incidents this replica did not hold. Returns how many rows were taken.
   */
  apply(
    table: PulledTable,
    rows: Record<string, unknown>[],
    onFresh?: (fresh: readonly PulledIncident[]) => void,
  ): number;
};

export function pulledApplier(db: Db, now: () => number): PulledApplier {
  const repo = createIncidentRepo(db);
  const pick = <C extends readonly string[]>(cols: C, r: Record<string, unknown>) =>
    Object.fromEntries(cols.map((c) => [c, r[c] ?? null]));
  const putArea = db.prepare(
    `INSERT INTO areas (${AREA_COLUMNS.join(', ')}) VALUES (${AREA_COLUMNS.map((c) => `@${c}`).join(', ')})
     ON CONFLICT (id) DO UPDATE SET ${AREA_COLUMNS.filter((c) => c !== 'id')
       .map((c) => `${c} = excluded.${c}`)
       .join(', ')}`,
  );
  const putCoverage = db.prepare(
    `INSERT INTO coverage (${COVERAGE_COLUMNS.join(', ')}) VALUES (${COVERAGE_COLUMNS.map((c) => `@${c}`).join(', ')})
     ON CONFLICT (area_id, tile, day) DO UPDATE SET status = excluded.status, checked_at = excluded.checked_at`,
  );
  const dropArea = db.prepare<[number]>('DELETE FROM areas WHERE id = ?');
  const dropCoverage = db.prepare<[number, string, string]>(
    'DELETE FROM coverage WHERE area_id = ? AND tile = ? AND day = ?',
  );
  const held = db.prepare<[number], number>('SELECT 1 FROM incidents WHERE cdid = ?').pluck();

  const writes: Record<PulledTable, (rows: Record<string, unknown>[]) => void> = {
    areas: (rows) => rows.forEach((r) => putArea.run(pick(AREA_COLUMNS, r))),
    coverage: (rows) => rows.forEach((r) => putCoverage.run(pick(COVERAGE_COLUMNS, r))),
    incidents: (rows) => rows.forEach((r) => repo.putFromOffice(pick(ALL_COLUMNS, r) as IncidentRow)),
    deletions: (rows) =>
      rows.forEach((r) => {
        const key = String(r.key);
        if (r.tbl === 'incidents') repo.delete(Number(key));
        else if (r.tbl === 'areas') dropArea.run(Number(key));
        else if (r.tbl === 'coverage') {
          const [areaId, tile, day] = JSON.parse(key) as [number, string, string];
          dropCoverage.run(areaId, tile, day);
        }
      }),
  };
  const advance = Object.fromEntries(
    (Object.keys(writes) as PulledTable[]).map((t) => [
      t,
      db.prepare<[number]>(`UPDATE office_link SET seq_${t} = ? WHERE id = 1`),
    ]),
  ) as Record<PulledTable, ReturnType<typeof db.prepare<[number]>>>;

  const skip = db.prepare<[string, string, number, string, number]>(
    'INSERT OR REPLACE INTO office_skipped (tbl, key, change_seq, problem, at) VALUES (?, ?, ?, ?, ?)',
  );
  const unskip = db.prepare<[string, string]>('DELETE FROM office_skipped WHERE tbl = ? AND key = ?');
  const areaHeld = db.prepare<[number], number>('SELECT 1 FROM areas WHERE id = ?').pluck();
  let anySkipped = (db.prepare('SELECT count(*) FROM office_skipped').pluck().get() as number) > 0;
  /** A deletion's key as the skipped row's own table names it (keyOf). */
  const deletedKey = (r: Record<string, unknown>): string =>
    r.tbl === 'coverage' ? JSON.stringify(JSON.parse(String(r.key))) : String(r.key);

  return {
    apply(table, rows, onFresh) {
      if (rows.length === 0) return 0;
      const last = rows[rows.length - 1]!.change_seq as number;
      const good: Record<string, unknown>[] = [];
      for (const r of rows) {
        const key = keyOf(table, r);
        const problem =
          problemOf(table, r) ??
          (table === 'coverage' && areaHeld.get(r.area_id as number) === undefined
            ? `area ${String(r.area_id)} is not in this replica (it was skipped)`
            : null);
        if (problem !== null) {
          skip.run(table, key, r.change_seq as number, problem, now());
          anySkipped = true;
          continue;
        }
        if (anySkipped) {
          unskip.run(table, key);
          if (table === 'deletions') unskip.run(r.tbl as string, deletedKey(r));
        }
        good.push(r);
      }
      const fresh =
        table === 'incidents' && onFresh ? good.filter((r) => held.get(r.cdid as number) === undefined) : [];
      writes[table](good);
      if (fresh.length > 0) onFresh!(fresh as PulledIncident[]);
      advance[table].run(last);
      return good.length;
    },
  };
}
