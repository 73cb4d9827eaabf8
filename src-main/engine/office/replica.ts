/**
 * A desktop's SQLite archive as a replica of the office archive, pulled incrementally by change
 * number: areas, the coverage ledger, incidents (new, amended, soft-removed: whole rows) and
 * deletions, each table from where this folder's cursor (`office_link`) left it. The pull reads
 * one REPEATABLE READ snapshot of the office database, and applies it 1,000 rows at a time, each
 * slice and its cursor in one local transaction with a turn of the event loop between (the views
 * keep answering; issue 31), so an interrupted pull resumes without loss or double application. Incidents are written only through the incident repository's `putFromOffice` and
 * `delete`: in office mode nothing else writes incidents here.
 *
 * Change numbers commit in order on the office side (migrations/001-office.ts: writers take one
 * advisory lock in the trigger), so "everything after my cursor" never skips a row committed late.
 */
import type pg from 'pg';
import type { Db } from '../store/database';
import { yieldToEventLoop } from '../eventLoop';
import { createIncidentRepo } from '../store/incidents/incidentRepo';
import { ALL_COLUMNS, type IncidentRow } from '../store/incidents/incidentRow';
import { rebuildFts, setIndexesAside, setTriggersAside } from '../import/merge';
import type { OfficePool } from './officeDb';
import { keyOf, problemOf, type PulledTable } from './pulledRows';

/** A catch-up of at least this many incidents, and a quarter of the archive, is applied in bulk. */
const BULK_MIN_ROWS = 20_000;

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
const COVERAGE_COLUMNS = ['area_id', 'tile', 'day', 'status', 'checked_at'] as const;

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

type Step = {
  table: PulledTable;
  select: string;
  apply: (rows: Record<string, unknown>[]) => void;
};

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
};

export type PulledIncident = Pick<IncidentRow, 'cdid' | 'first_seen' | 'lat' | 'lon'>;

export async function pullReplica(
  pool: OfficePool,
  db: Db,
  now: () => number,
  { pageSize = 5_000, bulkMinRows = BULK_MIN_ROWS, onIncidents }: PullOptions = {},
): Promise<PullCounts> {
  const link = readOfficeLink(db);
  if (!link) throw new Error('This data folder is not joined to an office database.');
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
  const held = db.prepare<[number], number>('SELECT 1 FROM incidents WHERE cdid = ?').pluck();
  const news = link.pulled_at !== null ? onIncidents : undefined;
  let bulkNow = false;
  const dropCoverage = db.prepare<[number, string, string]>(
    'DELETE FROM coverage WHERE area_id = ? AND tile = ? AND day = ?',
  );

  const steps: Step[] = [
    {
      table: 'areas',
      select: `SELECT ${AREA_COLUMNS.join(', ')}, change_seq FROM areas`,
      apply: (rows) => rows.forEach((r) => putArea.run(pick(AREA_COLUMNS, r))),
    },
    {
      table: 'coverage',
      select: `SELECT ${COVERAGE_COLUMNS.join(', ')}, change_seq FROM coverage`,
      apply: (rows) => rows.forEach((r) => putCoverage.run(pick(COVERAGE_COLUMNS, r))),
    },
    {
      table: 'incidents',
      select: `SELECT ${ALL_COLUMNS.join(', ')}, change_seq FROM incidents`,
      apply: (rows) => {
        const fresh = news && !bulkNow ? rows.filter((r) => held.get(r.cdid as number) === undefined) : [];
        rows.forEach((r) => repo.putFromOffice(pick(ALL_COLUMNS, r) as IncidentRow));
        if (fresh.length > 0) news!(fresh as PulledIncident[]);
      },
    },
    {
      table: 'deletions',
      select: 'SELECT tbl, key, change_seq FROM deletions',
      apply: (rows) =>
        rows.forEach((r) => {
          const key = String(r.key);
          if (r.tbl === 'incidents') repo.delete(Number(key));
          else if (r.tbl === 'areas') dropArea.run(Number(key));
          else if (r.tbl === 'coverage') {
            const [areaId, tile, day] = JSON.parse(key) as [number, string, string];
            dropCoverage.run(areaId, tile, day);
          }
        }),
    },
  ];

  const skip = db.prepare<[string, string, number, string, number]>(
    'INSERT OR REPLACE INTO office_skipped (tbl, key, change_seq, problem, at) VALUES (?, ?, ?, ?, ?)',
  );
  const unskip = db.prepare<[string, string]>('DELETE FROM office_skipped WHERE tbl = ? AND key = ?');
  const areaHeld = db.prepare<[number], number>('SELECT 1 FROM areas WHERE id = ?').pluck();
  let anySkipped = (db.prepare('SELECT count(*) FROM office_skipped').pluck().get() as number) > 0;
  /** A deletion's key as the skipped row's own table names it (keyOf). */
  const deletedKey = (r: Record<string, unknown>): string =>
    r.tbl === 'coverage' ? JSON.stringify(JSON.parse(String(r.key))) : String(r.key);

  const counts: PullCounts = { areas: 0, coverage: 0, incidents: 0, deletions: 0 };
  const client: pg.PoolClient = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    for (const step of steps) {
      const cursorColumn = `seq_${step.table}`;
      let cursor = link[cursorColumn as keyof OfficeLink] as number;
      const advance = db.prepare<[number]>(`UPDATE office_link SET ${cursorColumn} = ? WHERE id = 1`);
      const bulk = step.table === 'incidents' && (await isBulk(client, db, cursor, bulkMinRows));
      bulkNow = bulk;
      // A bulk catch-up is one local transaction: the per-row index triggers and the secondary
      // indexes are set aside, the rows written, the indexes built from a sort and the text index
      // rebuilt whole (as the import does: import/merge.ts), with the cursor — all or nothing.
      let restore: string[] = [];
      if (bulk) {
        db.exec('BEGIN IMMEDIATE');
        restore = [...setTriggersAside(db), ...setIndexesAside(db)];
      }
      try {
        for (;;) {
          // A page comes as one JSON text (JSON.parse is much cheaper than the driver's per-field
          // parsing); float8 and bigint values keep every digit.
          const { rows: pageRows } = await client.query<{ page: string }>(
            `SELECT coalesce(json_agg(t ORDER BY t.change_seq), '[]')::text AS page
               FROM (${step.select} WHERE change_seq > $1 ORDER BY change_seq LIMIT $2) t`,
            [cursor, pageSize],
          );
          const pulled = JSON.parse(pageRows[0]!.page) as Record<string, unknown>[];
          if (pulled.length === 0) break;
          const apply = (rows: Record<string, unknown>[]) => {
            const last = rows[rows.length - 1]!.change_seq as number;
            // A row Blotter would never write is skipped and named, never applied: one bad row
            // must not stop replication (pulledRows.ts). A good version of it takes it off the list.
            const good: Record<string, unknown>[] = [];
            for (const r of rows) {
              const key = keyOf(step.table, r);
              const problem =
                problemOf(step.table, r) ??
                (step.table === 'coverage' && areaHeld.get(r.area_id as number) === undefined
                  ? `area ${String(r.area_id)} is not in this replica (it was skipped)`
                  : null);
              if (problem !== null) {
                skip.run(step.table, key, r.change_seq as number, problem, now());
                anySkipped = true;
                continue;
              }
              if (anySkipped) {
                unskip.run(step.table, key);
                if (step.table === 'deletions') unskip.run(r.tbl as string, deletedKey(r));
              }
              good.push(r);
            }
            step.apply(good);
            advance.run(last);
            counts[step.table] += good.length;
          };
          // The page applied a slice at a time, a turn of the event loop between (issue 31: a
          // 5,000-row page held the engine thread ~0.1–0.3 s): outside a bulk catch-up each slice
          // and its cursor are one local transaction, so an interrupted pull still resumes
          // without loss or double; in bulk, the slices are parts of its one transaction.
          for (let at = 0; at < pulled.length; at += APPLY_ROWS) {
            const slice = pulled.slice(at, at + APPLY_ROWS);
            if (bulk) apply(slice);
            else db.transaction(apply).immediate(slice);
            await yieldToEventLoop();
          }
          cursor = pulled[pulled.length - 1]!.change_seq as number;
          if (pulled.length < pageSize) break;
        }
        if (bulk) {
          for (const sql of restore.filter((s) => /^CREATE\s+(UNIQUE\s+)?INDEX/i.test(s))) db.exec(sql);
          rebuildFts(db);
          for (const sql of restore.filter((s) => !/^CREATE\s+(UNIQUE\s+)?INDEX/i.test(s))) db.exec(sql);
          db.exec('COMMIT');
        }
      } catch (e) {
        if (bulk && db.inTransaction) db.exec('ROLLBACK');
        throw e;
      }
    }
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
  db.prepare('UPDATE office_link SET pulled_at = ? WHERE id = 1').run(now());
  return counts;
}
