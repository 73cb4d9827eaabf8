/**
 * The statements on the `incidents` table that more than one part of the engine needs: an API
 * row's upsert (the identity rule for rows from the API), an imported row's insert, replacement
 * and description fill (the row-by-row half of the import rule: import/merge.ts), descriptions,
 * soft removal, deletion and reads by cdid. Each statement is prepared on its first use and kept
 * for the repository's life (a repository for one read costs one statement); each call runs inside
 * the caller's transaction, if any.
 *
 * The identity rule (DESIGN.md, "Incident identity"): a cdid the API serves is source 'api'; the
 * API's copy wins — a changed type, address, place, link or date amends the row and revives it if
 * it was marked removed. An import never changes an API row except to fill an empty description;
 * an imported copy replaces an imported one only when it was seen later.
 */
import type { Db } from '../database';
import {
  ALL_COLUMNS,
  columnList,
  INSERT_COLUMNS,
  RECORD_COLUMNS,
  type IncidentColumn,
  type IncidentRecord,
  type IncidentRow,
  type IncidentTuple,
} from './incidentRow';

/** What an upsert of an API row did. */
export type Upserted = 'new' | 'amended' | 'seen';

/** The stored fields an API answer is compared with. */
type Held = Pick<IncidentRow, 'type' | 'address' | 'lat' | 'lon' | 'link' | 'date_raw' | 'removed_at'>;

/** The record's columns but cdid, each set to its parameter (`type = @type, …`). */
const SET_RECORD = RECORD_COLUMNS.filter((c) => c !== 'cdid')
  .map((c) => `${c} = @${c}`)
  .join(', ');

/** Positional parameters for the import's row-by-row replace: the record's columns but cdid. */
const REPLACE_RECORD = RECORD_COLUMNS.filter((c) => c !== 'cdid')
  .map((c) => `${c} = ?`)
  .join(', ');

export function createIncidentRepo(db: Db) {
  /** A statement prepared when first used. */
  const lazy = <S>(prepare: () => S): (() => S) => {
    let stmt: S | undefined;
    return () => (stmt ??= prepare());
  };
  const one = lazy(() => db.prepare<[number], IncidentRow>('SELECT * FROM incidents WHERE cdid = ?'));
  const held = lazy(() =>
    db.prepare<[number], Held>(
      'SELECT type, address, lat, lon, link, date_raw, removed_at FROM incidents WHERE cdid = ?',
    ),
  );
  const insertApi = lazy(() =>
    db.prepare(
      `INSERT INTO incidents (${columnList(RECORD_COLUMNS)}, first_seen, last_seen)
       VALUES (${RECORD_COLUMNS.map((c) => `@${c}`).join(', ')}, @now, @now)`,
    ),
  );
  const amendApi = lazy(() =>
    db.prepare(
      `UPDATE incidents SET ${SET_RECORD}, last_seen = @now, removed_at = NULL, removed_reason = NULL
       WHERE cdid = @cdid`,
    ),
  );
  const seen = lazy(() => db.prepare<[number, number]>('UPDATE incidents SET last_seen = ? WHERE cdid = ?'));
  const describe = lazy(() =>
    db.prepare<[string | null, number, number]>(
      'UPDATE incidents SET description = ?, description_fetched_at = ? WHERE cdid = ?',
    ),
  );
  const fill = lazy(() =>
    db.prepare<[string, number, number]>(
      'UPDATE incidents SET description = ?, description_fetched_at = ? WHERE cdid = ? AND description IS NULL',
    ),
  );
  const insertNew = lazy(() =>
    db.prepare(
      `INSERT OR IGNORE INTO incidents (${columnList(INSERT_COLUMNS)})
       VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')})`,
    ),
  );
  const replaceImported = lazy(() =>
    db.prepare(
      `UPDATE incidents SET ${REPLACE_RECORD}, description = coalesce(?, description),
         first_seen = min(first_seen, ?), last_seen = ?, removed_at = ?, removed_reason = ?, source = ?
       WHERE cdid = ? AND ? > last_seen AND source = 'import'`,
    ),
  );
  const remove = lazy(() =>
    db.prepare<[number, string, number]>(
      'UPDATE incidents SET removed_at = ?, removed_reason = ? WHERE cdid = ?',
    ),
  );
  const drop = lazy(() => db.prepare<[number]>('DELETE FROM incidents WHERE cdid = ?'));
  const replica = lazy(() =>
    db.prepare(
      `INSERT INTO incidents (${columnList(ALL_COLUMNS)}) VALUES (${ALL_COLUMNS.map((c) => `@${c}`).join(', ')})
       ON CONFLICT (cdid) DO UPDATE SET ${ALL_COLUMNS.filter((c) => c !== 'cdid')
         .map((c) => `${c} = excluded.${c}`)
         .join(', ')}`,
    ),
  );

  return {
    /** Every column of one incident, or undefined when the archive does not hold it. */
    get: (cdid: number): IncidentRow | undefined => one().get(cdid),

    /**
     * An incident as the API serves it now: inserted when new; amended (and revived) when its
     * type, address, place, link or date changed or it was marked removed; else only seen.
     */
    upsertFromApi(record: IncidentRecord, now: number): Upserted {
      const old = held().get(record.cdid);
      const values = { ...record, now };
      if (!old) {
        insertApi().run(values);
        return 'new';
      }
      if (
        old.type !== record.type ||
        old.address !== record.address ||
        old.lat !== record.lat ||
        old.lon !== record.lon ||
        old.link !== record.link ||
        old.date_raw !== record.date_raw ||
        old.removed_at !== null
      ) {
        amendApi().run(values);
        return 'amended';
      }
      seen().run(now, record.cdid);
      return 'seen';
    },

    /** The description fetched from the API (null: it has none), whatever was held. */
    setDescription(cdid: number, description: string | null, now: number): void {
      describe().run(description, now, cdid);
    },

    /** A description from elsewhere (an import), taken only when the row has none; true if taken. */
    fillDescription(cdid: number, description: string, now: number): boolean {
      return fill().run(description, now, cdid).changes > 0;
    },

    /** A whole row (INSERT_COLUMNS' order) unless its cdid is held; true if inserted. */
    insertIfNew(values: readonly unknown[]): boolean {
      return insertNew().run(values).changes > 0;
    },

    /**
     * An imported copy (INSERT_COLUMNS' order) over an imported row seen before `seenAt`: its
     * fields, its description if it has one, the earlier first_seen. True if replaced.
     */
    replaceImportedIfLater(values: readonly unknown[], seenAt: number): boolean {
      return replaceImported().run(...values.slice(1), values[0], seenAt).changes > 0;
    },

    /** Soft removal: the row stays, marked removed at `at` for `reason`. */
    markRemoved(cdid: number, at: number, reason: string): void {
      remove().run(at, reason, cdid);
    },

    /**
     * The office archive's copy of a row, whole, over whatever was held: the one way an office
     * replica (engine/office/replica.ts) writes incidents.
     */
    putFromOffice(row: IncidentRow): void {
      replica().run(row);
    },

    /** The row leaves the archive (its area went and nothing else covers it). */
    delete(cdid: number): void {
      drop().run(cdid);
    },
  };
}

export type IncidentRepo = ReturnType<typeof createIncidentRepo>;

/**
 * Reads of some columns by cdid, ascending: a cdid range, or a list of cdids (JSON array text).
 * Rows come as tuples in the columns' order (`.raw()`), for the export and snapshot loops.
 */
export function incidentsByCdid<C extends readonly IncidentColumn[]>(db: Db, columns: C) {
  const list = columnList(columns);
  const range = db
    .prepare<[number, number], IncidentTuple<C>>(
      `SELECT ${list} FROM incidents WHERE cdid BETWEEN ? AND ? ORDER BY cdid`,
    )
    .raw(true);
  const among = db
    .prepare<[string], IncidentTuple<C>>(
      `SELECT ${list} FROM incidents WHERE cdid IN (SELECT value FROM json_each(?)) ORDER BY cdid`,
    )
    .raw(true);
  return {
    between: (from: number, to: number): IncidentTuple<C>[] => range.all(from, to),
    among: (cdids: readonly number[]): IncidentTuple<C>[] => among.all(JSON.stringify(cdids)),
  };
}
