/**
 * A desktop's SQLite archive as a replica of the office archive, pulled incrementally by change
 * number: areas, the coverage ledger, incidents (new, amended, soft-removed: whole rows) and
 * deletions, each table from where this folder's cursor (`office_link`) left it. The pull reads
 * one REPEATABLE READ snapshot of the office database, and applies it 1,000 rows at a time, each
 * slice and its cursor in one local transaction in the engine's write turn with a turn of the event
 * loop between (the views keep answering; issue 31), so an interrupted pull resumes without loss or
 * double application; a bulk catch-up is one transaction on a helper thread (bulkCatchUp.ts).
 * Incidents are written only through the incident repository's `putFromOffice` and `delete`: in
 * office mode nothing else writes incidents here.
 *
 * Change numbers commit in order on the office side (migrations/001-office.ts: writers take one
 * advisory lock in the trigger), so "everything after my cursor" never skips a row committed late.
 */
import type pg from 'pg';
import type { Db } from '../store/database';
import { yieldToEventLoop } from '../eventLoop';
import { ALL_COLUMNS } from '../store/incidents/incidentRow';
import { WriteTurns } from '../store/writeTurns';
import type { OfficePool } from './officeDb';
import type { PulledTable } from './pulledRows';
import { AREA_COLUMNS, COVERAGE_COLUMNS, pulledApplier, type PulledIncident } from './pulledApply';
import { bulkCatchUp, OfficePullCancelled } from './bulkCatchUp';

export { OfficePullCancelled } from './bulkCatchUp';

/** A catch-up of at least this many incidents, and a quarter of the archive, is applied in bulk. */
const BULK_MIN_ROWS = 20_000;

export { AREA_COLUMNS, type PulledIncident } from './pulledApply';

export type OfficeLink = {
  url: string;
  office_id: string;
  joined_at: number;
  pulled_at: number | null;
  seq_areas: number;
  seq_coverage: number;
  seq_incidents: number;
  seq_deletions: number;
};

/** Rows taken per table (a skipped row is not counted: see `skippedRows`). */
export type PullCounts = { areas: number; coverage: number; incidents: number; deletions: number };

export function readOfficeLink(db: Db): OfficeLink | undefined {
  return db.prepare<[], OfficeLink>('SELECT * FROM office_link WHERE id = 1').get();
}

/**
 * Links the folder to an office (no pull yet). The folder's own incidents, areas and coverage
 * give way to the office's: they are cleared in the same transaction (the caller has the user's
 * consent for a non-empty folder).
 */
export function linkOffice(db: Db, url: string, officeId: string, now: number): void {
  const repoLess = db.transaction(() => {
    db.prepare('DELETE FROM office_link').run();
    db.prepare('DELETE FROM office_skipped').run();
    db.prepare('DELETE FROM coverage').run();
    db.prepare('DELETE FROM areas').run();
    db.prepare('DELETE FROM incidents').run();
    db.prepare('INSERT INTO office_link (id, url, office_id, joined_at) VALUES (1, ?, ?, ?)').run(
      url,
      officeId,
      now,
    );
  });
  repoLess.immediate();
}

/** Leaves office mode: the replica stays as this folder's standalone archive. */
export function unlinkOffice(db: Db): boolean {
  db.prepare('DELETE FROM office_skipped').run();
  return db.prepare('DELETE FROM office_link').run().changes > 0;
}

/** An office row the pull skipped (pulledRows.ts): its table, key and what was wrong. */
export type SkippedRow = { table: PulledTable; key: string; problem: string };

/** How many office rows this replica skipped, and the first `limit` of them by table and key. */
export function skippedRows(db: Db, limit = 20): { count: number; rows: SkippedRow[] } {
  const count = db.prepare('SELECT count(*) FROM office_skipped').pluck().get() as number;
  const rows = db
    .prepare<[number], SkippedRow>(
      'SELECT tbl AS "table", key, problem FROM office_skipped ORDER BY tbl, change_seq LIMIT ?',
    )
    .all(limit);
  return { count, rows };
}

/** Whether the incidents still to pull are many, and a large share of what the replica will hold. */
async function isBulk(client: pg.PoolClient, db: Db, cursor: number, bulkMinRows: number): Promise<boolean> {
  const pending = async (limit: number) =>
    (
      await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM (SELECT 1 FROM incidents WHERE change_seq > $1 LIMIT $2) t',
        [cursor, limit],
      )
    ).rows[0]!.n;
  // A refresh's few rows decide at once; a share of a quarter means pending >= held / 3.
  if ((await pending(bulkMinRows)) < bulkMinRows) return false;
  const held = db.prepare('SELECT count(*) FROM incidents').pluck().get() as number;
  const n = await pending(Math.max(bulkMinRows, Math.ceil(held / 3)));
  return n >= 0.25 * (held + n);
}

/** Rows applied between turns of the event loop (and per local transaction, but in bulk). */
const APPLY_ROWS = 1_000;

export type PullOptions = {
  /** Rows per read from PostgreSQL (applied APPLY_ROWS at a time). */
  pageSize?: number;
  /** Incidents to pull (and a quarter of the replica after) from which the pull goes in bulk. */
  bulkMinRows?: number;
  /**
   * Hears, inside each page's local transaction, the incidents the page brought that this replica
   * did not hold (the office service's pull hook, which services.ts wires to the alerts). Not called for the first pull after
   * joining nor a bulk catch-up: a whole archive arriving is not news.
   */
  onIncidents?: (fresh: readonly PulledIncident[]) => void;
  /**
   * The engine's write turns: each slice's transaction waits for its turn (an import's merge, a
   * boundary layer's keep: after its commit, never "database is locked"), and a bulk catch-up
   * holds them while its helper thread writes (bulkCatchUp.ts). Absent: turns of its own.
   */
  writeTurns?: WriteTurns;
  /**
   * Rows taken so far (every table) of about `total` (counted in the pull's snapshot, each table's
   * as the pull reaches it), after each slice or catch-up page. Unthrottled: the service throttles
   * its events.
   */
  onProgress?: (rows: number, total: number) => void;
  /**
   * Cancel: a pull in slices stops before its next slice (those done stay, with their cursor); a
   * bulk catch-up's thread is ended and its one transaction rolled back. Rejects OfficePullCancelled.
   */
  signal?: AbortSignal;
};

/**
 * Rows of `table` the office holds after this replica's cursor: one index range count, read as the
 * pull reaches the table (a table locked meanwhile holds up only its own step).
 */
async function pendingIn(client: pg.PoolClient, table: PulledTable, cursor: number): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE change_seq > $1`,
    [cursor],
  );
  return rows[0]!.n;
}

const COLUMNS: Record<PulledTable, string> = {
  areas: `${AREA_COLUMNS.join(', ')}, change_seq`,
  coverage: `${COVERAGE_COLUMNS.join(', ')}, change_seq`,
  incidents: `${ALL_COLUMNS.join(', ')}, change_seq`,
  deletions: 'tbl, key, change_seq',
};
const TABLES: PulledTable[] = ['areas', 'coverage', 'incidents', 'deletions'];

export async function pullReplica(
  pool: OfficePool,
  db: Db,
  now: () => number,
  {
    pageSize = 5_000,
    bulkMinRows = BULK_MIN_ROWS,
    onIncidents,
    writeTurns,
    onProgress,
    signal,
  }: PullOptions = {},
): Promise<PullCounts> {
  const link = readOfficeLink(db);
  if (!link) throw new Error('This data folder is not joined to an office database.');
  const turns = writeTurns ?? new WriteTurns();
  let applier = pulledApplier(db, now);
  const news = link.pulled_at !== null ? onIncidents : undefined;

  const counts: PullCounts = { areas: 0, coverage: 0, incidents: 0, deletions: 0 };
  const client: pg.PoolClient = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    let total = 0;
    let taken = 0;
    const tookRows = (n: number) => {
      taken += n;
      onProgress?.(taken, Math.max(total, taken));
    };
    const stopIfCancelled = () => {
      if (signal?.aborted) throw new OfficePullCancelled();
    };
    for (const table of TABLES) {
      let cursor = link[`seq_${table}`];
      const select = `SELECT ${COLUMNS[table]} FROM ${table}`;
      if (onProgress) total += await pendingIn(client, table, cursor);
      if (table === 'incidents' && (await isBulk(client, db, cursor, bulkMinRows))) {
        // Not news either: a whole archive arriving (see onIncidents).
        counts.incidents += await bulkCatchUp({
          client,
          db,
          turns,
          select,
          cursor,
          pageSize,
          onApplied: tookRows,
          ...(signal ? { signal } : {}),
        });
        stopIfCancelled();
        applier = pulledApplier(db, now); // what the thread skipped is on the list now
        continue;
      }
      for (;;) {
        // A page comes as one JSON text (JSON.parse is much cheaper than the driver's per-field
        // parsing); float8 and bigint values keep every digit.
        const { rows: pageRows } = await client.query<{ page: string }>(
          `SELECT coalesce(json_agg(t ORDER BY t.change_seq), '[]')::text AS page
             FROM (${select} WHERE change_seq > $1 ORDER BY change_seq LIMIT $2) t`,
          [cursor, pageSize],
        );
        stopIfCancelled();
        const pulled = JSON.parse(pageRows[0]!.page) as Record<string, unknown>[];
        if (pulled.length === 0) break;
        // The page applied a slice at a time, a turn of the event loop between (issue 31: a
        // 5,000-row page held the engine thread ~0.1–0.3 s): each slice and its cursor are one
        // local transaction in the engine's write turn, so an interrupted pull still resumes
        // without loss or double.
        for (let at = 0; at < pulled.length; at += APPLY_ROWS) {
          const slice = pulled.slice(at, at + APPLY_ROWS);
          stopIfCancelled();
          const n = await turns.take(() =>
            db.transaction(() => applier.apply(table, slice, news)).immediate(),
          );
          counts[table] += n;
          tookRows(slice.length);
          await yieldToEventLoop();
        }
        cursor = pulled[pulled.length - 1]!.change_seq as number;
        if (pulled.length < pageSize) break;
      }
    }
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
  await turns.take(() => db.prepare('UPDATE office_link SET pulled_at = ? WHERE id = 1').run(now()));
  return counts;
}
