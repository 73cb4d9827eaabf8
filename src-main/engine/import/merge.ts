/**
 * Writes an import's rows into the archive in ONE transaction: either every row lands or none
 * does. The rule, per cdid (README.md): a row the archive does not hold is inserted (source
 * 'import'; first/last seen from the file, else now); a copy replaces the one already held — in
 * the archive, or earlier in the same file — only when its last_seen is later (first_seen becomes
 * the earlier of the two); otherwise the held copy stays, and only a description it lacks is taken.
 *
 * Small imports keep the incidents' triggers (each row indexed in the R*Tree and FTS as it lands).
 * An import that adds a large share of the archive sets the triggers (and the query engine's TEMP
 * change-log triggers) and the secondary indexes aside, builds the indexes again from a sort, and
 * rebuilds both text and spatial indexes whole at the end — FTS with its 'rebuild' command, the R*Tree by bulk packing
 * (rtreeBulk.ts, verified with rtreecheck, else rebuilt entry by entry) — then puts the triggers
 * back, all inside the same transaction.
 */
import type { Db } from '../store/database';
import type { ImportRow } from './normalize';
import { rebuildIncidentsRtree, type Points } from './rtreeBulk';

export type MergeCounts = { inserted: number; updated: number };

/** New rows above which the indexes are rebuilt whole rather than row by row... */
const BULK_MIN_ROWS = 20_000;
/** ...when they are at least this share of the archive after the import. */
const BULK_MIN_SHARE = 0.25;

const REMOVED_REASON = 'marked removed in an imported file';
const COLUMNS =
  'cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc, time_flag, local_day, ' +
  'local_hour, local_weekday, description, first_seen, last_seen, removed_at, removed_reason, source';
const REPLACE = `UPDATE incidents SET type = ?, address = ?, lat = ?, lon = ?, link = ?, date_raw = ?,
  occurred_local = ?, timezone = ?, occurred_utc = ?, time_flag = ?, local_day = ?, local_hour = ?, local_weekday = ?,
  description = coalesce(?, description), first_seen = min(first_seen, ?), last_seen = ?, removed_at = ?,
  removed_reason = ?, source = ? WHERE cdid = ? AND ? > last_seen`;
const TRIGGERS = ['incidents_ai', 'incidents_au_geo', 'incidents_au_text'];
/** The name prefix of query/changeLog.ts's TEMP triggers (LIKE pattern, `\` escaping `_`). */
const CHANGE_LOG = String.raw`blotter\_query\_changes\_`;
const BATCH = 40; // rows per INSERT (800 parameters)

export type MergeInput = {
  /** The import's rows, chunk by chunk, read inside the transaction. */
  rows: Iterable<ImportRow[]>;
  /** Whether the archive held a cdid when the import began (its snapshot). */
  heldBefore: (cdid: number) => boolean;
  /** New cdids the import is expected to add (from its preview): picks row-by-row or bulk indexing. */
  expectedNew: number;
  /** Whether a cdid may come more than once in the file (its preview saw repeats). */
  repeats: boolean;
  now: number;
};

export function mergeRows(db: Db, input: MergeInput): MergeCounts {
  const cache = db.pragma('cache_size', { simple: true }) as number;
  db.pragma('cache_size = -262144'); // the indexes' pages stay in memory while a big import lands
  try {
    return db.transaction(() => merge(db, input)).immediate();
  } finally {
    db.pragma(`cache_size = ${cache}`);
  }
}

/** Milliseconds spent per phase of the last merge (reading and writing rows, FTS, R*Tree), for the log. */
export const phases = { rows: 0, indexes: 0, fts: 0, rtree: 0 };

function merge(db: Db, { rows, heldBefore, expectedNew, repeats, now }: MergeInput): MergeCounts {
  const started = performance.now();
  Object.assign(phases, { rows: 0, indexes: 0, fts: 0, rtree: 0 });
  const before = db.prepare('SELECT count(*) FROM incidents').pluck().get() as number;
  const bulk = expectedNew >= BULK_MIN_ROWS && expectedNew >= BULK_MIN_SHARE * (before + expectedNew);
  const triggers = bulk ? setTriggersAside(db) : [];
  const indexes = bulk ? setIndexesAside(db) : [];

  /** The 20 values of a row for INSERT, appended to `out`. */
  const append = (out: unknown[], r: ImportRow): unknown[] => {
    const seen = r[16] ?? now;
    for (let k = 0; k < 15; k++) out.push(r[k]);
    out.push(r[15] ?? seen, seen, r[17] ? seen : null, r[17] ? REMOVED_REASON : null, 'import');
    return out;
  };
  const insertSql = (n: number) =>
    `INSERT ${repeats ? 'OR IGNORE ' : ''}INTO incidents (${COLUMNS}) VALUES ${Array(n)
      .fill(`(${Array(20).fill('?').join(', ')})`)
      .join(', ')}`;
  const insertBatch = db.prepare(insertSql(BATCH));
  const insertOne = db.prepare(insertSql(1));
  const held = db.prepare('SELECT last_seen, description IS NULL AS bare FROM incidents WHERE cdid = ?');
  const replace = db.prepare(REPLACE);
  const describe = db.prepare(
    'UPDATE incidents SET description = ?, description_fetched_at = ? WHERE cdid = ? AND description IS NULL',
  );
  /** A copy of a row already held: replaces it when seen later; else may give it a description. */
  const offer = (v: unknown[], fileSeen: number | null, description: string | null): boolean => {
    if (fileSeen !== null && replace.run(...v.slice(1), v[0], fileSeen).changes > 0) return true;
    return description !== null && describe.run(description, now, v[0]).changes > 0;
  };

  // A bulk import into an empty archive without repeats inserts every row as read: the R*Tree is
  // then packed from these positions rather than the table read back.
  let points: Points | undefined =
    bulk && before === 0 && !repeats
      ? {
          cdid: new Float64Array(expectedNew),
          lat: new Float64Array(expectedNew),
          lon: new Float64Array(expectedNew),
          size: 0,
        }
      : undefined;
  let updated = 0;
  const pending: unknown[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    const n = pending.length / 20;
    (n === BATCH ? insertBatch : db.prepare(insertSql(n))).run(pending);
    pending.length = 0;
  };
  for (const chunk of rows) {
    for (const r of chunk) {
      if (!heldBefore(r[0])) {
        // New to the archive. Files whose preview saw repeated cdids go row by row, so that a
        // later copy meets the earlier one under the same seen-later rule.
        if (!repeats) {
          if (points) {
            if (points.size === points.cdid.length)
              points = undefined; // more rows than the preview saw
            else {
              points.cdid[points.size] = r[0];
              points.lat[points.size] = r[3];
              points.lon[points.size++] = r[4];
            }
          }
          append(pending, r);
          if (pending.length === BATCH * 20) flush();
        } else {
          const v = append([], r);
          if (insertOne.run(v).changes === 0) offer(v, r[16], r[14]);
        }
        continue;
      }
      const stored = held.get(r[0]) as { last_seen: number; bare: number } | undefined;
      if (stored && offer(append([], r), r[16], stored.bare ? r[14] : null)) updated++;
    }
  }
  flush();
  const wrote = performance.now();
  if (bulk) {
    // Each index built whole from a sort, rather than grown row by row in random order.
    for (const sql of indexes) db.exec(sql);
    phases.indexes = Math.round(performance.now() - wrote);
    db.exec(`INSERT INTO incidents_fts (incidents_fts) VALUES ('rebuild')`);
    phases.fts = Math.round(performance.now() - wrote) - phases.indexes;
    db.exec('SAVEPOINT rtree_bulk');
    if (rebuildIncidentsRtree(db, points) === 'ok') db.exec('RELEASE rtree_bulk');
    else {
      db.exec('ROLLBACK TO rtree_bulk');
      db.exec('RELEASE rtree_bulk');
      db.exec(`DELETE FROM incidents_rtree`);
      db.exec(`INSERT INTO incidents_rtree (cdid, min_lat, max_lat, min_lon, max_lon)
        SELECT cdid, lat, lat, lon, lon FROM incidents`);
    }
    for (const sql of triggers) db.exec(sql);
    phases.rtree = Math.round(performance.now() - wrote) - phases.fts - phases.indexes;
  }
  phases.rows = Math.round(wrote - started);
  const after = db.prepare('SELECT count(*) FROM incidents').pluck().get() as number;
  return { inserted: after - before, updated };
}

/** Drops the incidents' own indexes (not the primary key), returning their SQL to build them again. */
function setIndexesAside(db: Db): string[] {
  const found = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'incidents' AND sql IS NOT NULL`,
    )
    .all() as { name: string; sql: string }[];
  for (const i of found) db.exec(`DROP INDEX main."${i.name}"`);
  return found.map((i) => i.sql);
}

/**
 * Drops the per-row index triggers, and the query engine's TEMP change-log triggers
 * (query/changeLog.ts: one row per write into a TEMP table; the caller has the whole store read
 * again instead), returning their SQL to put them back.
 */
function setTriggersAside(db: Db): string[] {
  const found = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'incidents'
        AND name IN (${TRIGGERS.map(() => '?').join(', ')})`,
    )
    .all(...TRIGGERS) as { name: string; sql: string }[];
  for (const t of found) db.exec(`DROP TRIGGER main."${t.name}"`);
  const temp = db
    .prepare(
      `SELECT name, sql FROM sqlite_temp_master WHERE type = 'trigger' AND tbl_name = 'incidents'
        AND name LIKE '${CHANGE_LOG}%' ESCAPE '\\'`,
    )
    .all() as { name: string; sql: string }[];
  for (const t of temp) db.exec(`DROP TRIGGER temp."${t.name}"`);
  // sqlite_temp_master keeps the statement without its TEMP keyword.
  const restore = temp.map((t) => t.sql.replace(/^CREATE\s+TRIGGER\b/i, 'CREATE TEMP TRIGGER'));
  return [...found.map((t) => t.sql), ...restore];
}
