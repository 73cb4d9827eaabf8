/**
 * Writes an import's staged rows (stage.ts) into the archive in ONE transaction: either every row
 * lands or none does. The rule, per cdid (README.md): a row the archive does not hold is inserted
 * (source 'import'; first/last seen from the file, else now); a copy replaces an imported one
 * already held — in the archive, or earlier in the same file — only when its last_seen is later
 * (first_seen becomes the earlier of the two); otherwise the held copy stays, and only a
 * description it lacks is taken. A row from the API (source 'api') is never replaced: the API
 * serves it again, so an import may only fill its missing description (DESIGN.md, "Incident
 * identity").
 *
 * Files whose cdids are distinct (what the preview saw) are merged by a few set-wise statements
 * inside SQLite: replace, describe, then insert the rest in file order. Files that repeat a cdid go
 * row by row in file order, so that a later copy meets the earlier one under the same rule.
 *
 * Small imports keep the incidents' triggers and indexes (each row indexed in FTS and the B-tree
 * indexes, the spatial one included, as it lands). An import that adds a large share of the archive
 * sets the triggers (and the query engine's TEMP change-log triggers) and the secondary indexes
 * aside — the spatial index (store/incidents/boxQuery.ts) is one of them — builds the indexes again
 * from a sort and rebuilds the text index whole with FTS's 'rebuild' command, then puts the
 * triggers back, all inside the same transaction. Merged set-wise, it also sets the change counter's
 * per-row triggers aside (store migration 006) and adds the rows it inserted and changed at once.
 */
import type { Db } from '../store/database';
import { createIncidentRepo } from '../store/incidents/incidentRepo';
import { columnList, INSERT_COLUMNS, RECORD_COLUMNS } from '../store/incidents/incidentRow';
import { recordImportRun, type ImportOrigin } from '../store/imports/importProvenance';
import { stagedByCdidSql, stagedPlain, stagedRowsSql } from './stage';
import { refuseOnReplica } from '../store/standalone';

export type MergeCounts = { inserted: number; updated: number };

/** New rows above which the indexes are rebuilt whole rather than row by row... */
const BULK_MIN_ROWS = 20_000;
/** ...when they are at least this share of the archive after the import. */
const BULK_MIN_SHARE = 0.25;

const REMOVED_REASON = 'marked removed in an imported file';
/** The archive's columns an import writes: a row's, and the file's own category (store migration 017). */
const COLUMNS = `${columnList(INSERT_COLUMNS)}, subtype`;
/** A staged row `s` as the archive's COLUMNS (@now: the import's time). */
const AS_ARCHIVE_ROW = `${columnList(RECORD_COLUMNS, 's')}, s.description,
  coalesce(s.first_seen, s.last_seen, @now), coalesce(s.last_seen, @now),
  CASE WHEN s.removed THEN coalesce(s.last_seen, @now) END, CASE WHEN s.removed THEN @reason END, 'import',
  s.subtype`;
/**
 * Replaces a held copy `i` (an imported one: an API row is never replaced) that the staged copy `s`
 * saw later (the row's archive values as AS_ARCHIVE_ROW). Every column of the target is named
 * through its alias: in UPDATE … FROM a bare name that both tables have is ambiguous.
 */
const REPLACE_SET = `${RECORD_COLUMNS.filter((c) => c !== 'cdid')
  .map((c) => `${c} = s.${c}`)
  .join(', ')},
  description = coalesce(s.description, i.description),
  first_seen = min(i.first_seen, coalesce(s.first_seen, s.last_seen)),
  last_seen = s.last_seen, removed_at = CASE WHEN s.removed THEN s.last_seen END,
  removed_reason = CASE WHEN s.removed THEN @reason END, source = 'import', subtype = s.subtype`;
const TRIGGERS = ['incidents_ai', 'incidents_au_text'];
/** The change counter's triggers on insert and update (store migration 006). */
const COUNTER_TRIGGERS = ['incident_changes_ai', 'incident_changes_au'];
/** The name prefix of query/changeLog.ts's TEMP triggers (LIKE pattern, `\` escaping `_`). */
const CHANGE_LOG = String.raw`blotter\_query\_changes\_`;
/** Staged rows read at a time by the row-by-row path. */
const PAGE = 4096;
/**
 * Staged rows per statement of the rows step (all inside the one transaction), with the merge's
 * progress between them: one statement for a million rows left the import silent for 5–19 s.
 */
const CHUNK_ROWS = 50_000;
/** The share of the merge's progress the rows step takes (the indexes and text index follow). */
const ROWS_SHARE = 0.4;
/** The indexes' share, reported after each one is built (the largest took 2.8 s at 1M). */
const INDEXES_SHARE = 0.15;

export type MergeInput = {
  /** The staging files of the import (stage.ts), attached for the merge. */
  stageFiles: readonly string[];
  /** New cdids the import is expected to add (from its preview): picks row-by-row or bulk indexing. */
  expectedNew: number;
  /** Whether a cdid may come more than once in the file (its preview saw repeats). */
  repeats: boolean;
  /**
   * Whether the file's cdids rise in file order (an export, an API archive). Another system's ids
   * are hashed into their namespace (mapping/apply.ts), so they come in random order: new rows then
   * go in sorted by cdid, since inserting a million rows into the table's B-tree at random places
   * costs about twice the sort.
   */
  ascending?: boolean;
  /** The file and mapping the rows came from: kept with every row this import writes. */
  origin?: ImportOrigin;
  now: number;
  /** How far the merge is, 0..1 (it moves in steps). */
  onProgress?: (fraction: number) => void;
  /** Staged rows per statement of the rows step (default CHUNK_ROWS; tests use fewer). */
  chunkRows?: number;
};

export function mergeRows(db: Db, input: MergeInput): MergeCounts {
  refuseOnReplica(db, 'import files'); // office mode: incidents come only through the replica's pull
  const schemas = input.stageFiles.map((_, k) => `import_stage_${k}`);
  const attached: string[] = [];
  const cache = db.pragma('cache_size', { simple: true }) as number;
  try {
    input.stageFiles.forEach((file, k) => {
      db.prepare(`ATTACH DATABASE ? AS ${schemas[k]}`).run(file);
      attached.push(schemas[k] as string);
    });
    db.pragma('cache_size = -262144'); // the indexes' pages stay in memory while a big import lands
    const counts = db.transaction(() => merge(db, schemas, input)).immediate();
    phases.commit = Math.round(performance.now() - mergedAt);
    return counts;
  } finally {
    db.pragma(`cache_size = ${cache}`);
    for (const s of attached) db.exec(`DETACH DATABASE ${s}`);
  }
}

/**
 * Milliseconds spent per phase of the last merge (writing rows — of which `provenance` the import's
 * side table — the indexes from a sort, FTS, the commit), for the log.
 */
export const phases = { rows: 0, provenance: 0, indexes: 0, fts: 0, commit: 0 };
/** When the last merge's statements were done (the commit follows). */
let mergedAt = 0;

function merge(db: Db, schemas: string[], input: MergeInput): MergeCounts {
  const { expectedNew, repeats, now, onProgress = () => undefined } = input;
  const started = performance.now();
  Object.assign(phases, { rows: 0, provenance: 0, indexes: 0, fts: 0, commit: 0 });
  const before = db.prepare('SELECT count(*) FROM incidents').pluck().get() as number;
  const bulk = expectedNew >= BULK_MIN_ROWS && expectedNew >= BULK_MIN_SHARE * (before + expectedNew);
  const triggers = bulk ? setTriggersAside(db) : [];
  // Set-wise merges know how many rows they insert and change: the change counter is bumped once.
  const counter = bulk && !repeats ? setCounterAside(db) : [];
  const indexes = bulk ? setIndexesAside(db) : [];
  const params = { now, reason: REMOVED_REASON };

  const sorted = input.ascending === false;
  const size = input.chunkRows ?? CHUNK_ROWS;
  /** The rows step's progress from `from` to `to` of its share. */
  const share = (from: number, to: number) => (f: number) =>
    onProgress(ROWS_SHARE * (from + (to - from) * f));
  const updated = repeats
    ? mergeRowByRow(db, schemas, params, chunksOf(db, schemas, false, size, share(0, 1)))
    : before === 0
      ? insertAll(db, schemas, params, sorted, chunksOf(db, schemas, sorted, size, share(0, 1)))
      : mergeSetwise(db, schemas, params, sorted, {
          held: chunksOf(db, schemas, false, size, share(0, 0.25)),
          size,
          updated: share(0.25, 0.5),
          inserted: chunksOf(db, schemas, sorted, size, share(0.5, 1)),
        });
  if (input.origin) {
    const t = performance.now();
    // Where each row this import wrote came from, and its kept columns (../provenance).
    const run = recordImportRun(db, input.origin, now);
    db.prepare(
      before === 0 && !repeats && stagedPlain(db, schemas)
        ? // An empty archive and rows with no external id or kept columns (a Blotter export):
          // every row the archive holds now is this import's, named by its cdid alone — read from
          // the archive's own key rather than the staged rows a second time (0.3 s against 0.5 s
          // a million rows).
          `INSERT INTO incident_imports (cdid, run_id) SELECT cdid, @run FROM main.incidents`
        : before === 0 && !repeats
          ? // An empty archive: every staged row was inserted, in the order insertAll read them —
            // cdid order (the table's own) for a file whose cdids rise or come sorted, so the rows
            // are appended rather than placed at random, without a sort of their own.
            `INSERT INTO incident_imports (cdid, run_id, external_id, attributes)
           SELECT s.cdid, @run, s.external_id, s.attributes FROM ${staged(db, schemas, sorted)}`
          : // Rows inserted or replaced now carry this import's last_seen (AS_ARCHIVE_ROW, REPLACE_SET).
            `INSERT OR REPLACE INTO incident_imports (cdid, run_id, external_id, attributes)
           SELECT s.cdid, @run,
                  -- a Blotter export carries no external id: the row keeps the one it had
                  coalesce(s.external_id, (SELECT x.external_id FROM incident_imports x WHERE x.cdid = s.cdid)),
                  s.attributes
           FROM (${stagedRowsSql(schemas)}) s
           JOIN main.incidents i ON i.cdid = s.cdid
           WHERE i.source = 'import' AND i.last_seen = coalesce(s.last_seen, @now)`,
    ).run({ run, now });
    phases.provenance = Math.round(performance.now() - t);
  }
  onProgress(ROWS_SHARE);
  const wrote = performance.now();
  if (bulk) {
    // Each index built whole from a sort, rather than grown row by row in random order (the
    // spatial index too: by cell, lat and lon).
    buildIndexes(db, indexes, sorted, (k) => onProgress(ROWS_SHARE + (INDEXES_SHARE * k) / indexes.length));
    phases.indexes = Math.round(performance.now() - wrote);
    onProgress(ROWS_SHARE + INDEXES_SHARE);
    rebuildFts(db);
    phases.fts = Math.round(performance.now() - wrote) - phases.indexes;
    for (const sql of triggers) db.exec(sql);
  }
  phases.rows = Math.round(wrote - started);
  const after = db.prepare('SELECT count(*) FROM incidents').pluck().get() as number;
  if (counter.length > 0) {
    // What the counter's triggers would have added: one per row inserted, one per row updated.
    db.prepare('UPDATE incident_changes SET n = n + ? WHERE id = 1').run(after - before + updated);
    for (const sql of counter) db.exec(sql);
  }
  mergedAt = performance.now();
  return { inserted: after - before, updated };
}

type Params = { now: number; reason: string };

/**
 * The rows step's staged rows cut into chunks of about `size` rows, each a condition on a staging
 * table's key — `row` in file order, `cdid` in cdid order (each file's `by_cdid` copy; cdids that
 * came in random order are hashed, so even cdid ranges hold about even shares) — the first without
 * a lower bound and the last without an upper one, so together they hold every row once, in
 * order. Without the sorted copies, one chunk (each would sort the whole file again).
 */
type Chunks = {
  count: number;
  /** Chunk k's condition (SQL on a staged row's own columns). */
  where(k: number): string;
  /** Chunk k is written: the merge's progress. */
  done(k: number): void;
  /** The rows up to this key are written (the row-by-row path, a page at a time). */
  passed(key: number): void;
};

function chunksOf(
  db: Db,
  schemas: string[],
  sorted: boolean,
  size: number,
  /** How far, 0..1. */
  onProgress: (fraction: number) => void,
): Chunks {
  const key = sorted ? 'cdid' : 'row';
  const table = sorted ? 'by_cdid' : 'rows';
  const one = sorted && stagedByCdidSql(db, schemas) === null;
  const bounds = one
    ? []
    : schemas.map(
        (s) => db.prepare(`SELECT min(${key}) AS lo, max(${key}) AS hi FROM "${s}".${table}`).get() as Bound,
      );
  const lo = Math.min(...bounds.map((b) => b.lo ?? Infinity));
  const hi = Math.max(...bounds.map((b) => b.hi ?? -Infinity));
  // Rows are numbered across the staging files (file order): their span is the file's rows.
  const spans = schemas.map(
    (s) => db.prepare(`SELECT min(row) AS lo, max(row) AS hi FROM "${s}".rows`).get() as Bound,
  );
  const rows = Math.max(...spans.map((b) => b.hi ?? 0)) - Math.min(...spans.map((b) => b.lo ?? Infinity)) + 1;
  const count = one || !(hi >= lo) ? 1 : Math.max(1, Math.ceil(rows / size));
  const step = count > 1 ? Math.ceil((hi - lo + 1) / count) : 0;
  let reported = 0;
  return {
    count,
    where: (k) =>
      count === 1
        ? '1'
        : [k > 0 ? `${key} >= ${lo + k * step}` : '', k < count - 1 ? `${key} < ${lo + (k + 1) * step}` : '']
            .filter(Boolean)
            .join(' AND '),
    // The last chunk's end is the rows step's (the merge reports it).
    done: (k) => k < count - 1 && onProgress((k + 1) / count),
    passed(at) {
      const k = step > 0 ? Math.floor((at - lo + 1) / step) : 0;
      if (k > reported && k < count) onProgress((reported = k) / count);
    },
  };
}
type Bound = { lo: number | null; hi: number | null };

/**
 * The staged rows (meeting `where`) as a FROM subquery `s`: in file order, or in cdid order when the
 * file's come in random order (MergeInput.ascending) — merged from the staging files' sorted copies
 * (stage.ts `by_cdid`, sorted by the preview's threads), else sorted here.
 */
function staged(db: Db, schemas: string[], sorted: boolean, where?: string): string {
  if (!sorted) return `(${stagedRowsSql(schemas, where)}) s`;
  const merged = stagedByCdidSql(db, schemas, where);
  return merged ? `(${merged}) s` : `(${stagedRowsSql(schemas, where)}) s ORDER BY s.cdid`;
}

/** An empty archive: every staged row goes in, in file order (or cdid order), a chunk a statement. */
function insertAll(db: Db, schemas: string[], params: Params, sorted: boolean, chunks: Chunks): number {
  for (let k = 0; k < chunks.count; k++) {
    db.prepare(
      `INSERT INTO incidents (${COLUMNS}) SELECT ${AS_ARCHIVE_ROW} FROM ${staged(db, schemas, sorted, chunks.where(k))}`,
    ).run(params);
    chunks.done(k);
  }
  return 0;
}

/** Distinct cdids: replace what the file saw later, take missing descriptions, insert the rest. */
function mergeSetwise(
  db: Db,
  schemas: string[],
  params: Params,
  sorted: boolean,
  steps: { held: Chunks; size: number; updated: (fraction: number) => void; inserted: Chunks },
): number {
  // The staged copies of incidents the archive holds, a chunk of the file's rows at a time.
  db.exec(`DROP TABLE IF EXISTS temp.import_held`);
  db.exec(`CREATE TEMP TABLE import_held AS SELECT * FROM (${stagedRowsSql(schemas, '0')})`);
  try {
    const { held, inserted } = steps;
    for (let k = 0; k < held.count; k++) {
      db.exec(`INSERT INTO temp.import_held SELECT * FROM
        (${stagedRowsSql(schemas, `(${held.where(k)}) AND cdid IN (SELECT cdid FROM main.incidents)`)})`);
      held.done(k);
    }
    let updated = 0;
    const n = db.prepare('SELECT count(*) FROM temp.import_held').pluck().get() as number;
    if (n > 0) {
      db.exec(`CREATE UNIQUE INDEX temp.import_held_cdid ON import_held (cdid)`);
      const replace = db.prepare(
        `UPDATE main.incidents AS i SET ${REPLACE_SET} FROM temp.import_held AS s
         WHERE s.rowid >= @lo AND s.rowid < @hi
           AND i.cdid = s.cdid AND i.source = 'import' AND s.last_seen IS NOT NULL AND s.last_seen > i.last_seen`,
      );
      // A replaced row already took the newcomer's description when it had one.
      const describe = db.prepare(
        `UPDATE main.incidents AS i SET description = s.description, description_fetched_at = @now
         FROM temp.import_held AS s WHERE s.rowid >= @lo AND s.rowid < @hi
           AND i.cdid = s.cdid AND i.description IS NULL AND s.description IS NOT NULL`,
      );
      // In chunks of the held rows (rowids 1..n, as inserted), with progress between them.
      for (let lo = 1; lo <= n; lo += steps.size) {
        const range = { lo, hi: lo + steps.size };
        updated += replace.run({ ...params, ...range }).changes;
        updated += describe.run({ now: params.now, ...range }).changes;
        steps.updated(Math.min(1, (lo - 1 + steps.size) / n));
      }
    }
    for (let k = 0; k < inserted.count; k++) {
      db.prepare(
        `INSERT INTO incidents (${COLUMNS}) SELECT ${AS_ARCHIVE_ROW}
         FROM ${staged(db, schemas, sorted, `(${inserted.where(k)}) AND cdid NOT IN (SELECT cdid FROM temp.import_held)`)}`,
      ).run(params);
      inserted.done(k);
    }
    return updated;
  } finally {
    db.exec(`DROP TABLE IF EXISTS temp.import_held`);
  }
}

/**
 * Repeated cdids: each staged row in file order — inserted when new; else it replaces the held copy
 * (the archive's, or an earlier one of this file) when seen later, or gives it a missing description.
 * Counts as updated only copies the archive held before the import.
 */
function mergeRowByRow(db: Db, schemas: string[], params: Params, chunks: Chunks): number {
  const page = db.prepare(`${stagedRowsSql(schemas, 'row > @after')} LIMIT ${PAGE}`).raw();
  const repo = createIncidentRepo(db);
  // The cdids the archive held before the import began (the rest are new, or repeats of new ones).
  db.exec(`DROP TABLE IF EXISTS temp.import_held`);
  db.exec(`CREATE TEMP TABLE import_held (cdid INTEGER PRIMARY KEY)`);
  db.exec(`INSERT OR IGNORE INTO temp.import_held (cdid)
    SELECT cdid FROM (${stagedRowsSql(schemas, 'cdid IN (SELECT cdid FROM main.incidents)')})`);
  const heldBefore = db.prepare('SELECT 1 FROM temp.import_held WHERE cdid = ?').pluck();
  // The file's own category goes with the copy it came on (inserted, or replacing the held one).
  const setSubtype = db.prepare('UPDATE main.incidents SET subtype = ? WHERE cdid = ?');
  let updated = 0;
  try {
    for (let after = 0; ;) {
      const rows = page.all({ after }) as unknown[][];
      if (rows.length === 0) return updated;
      for (const r of rows) {
        // [row, the staged columns (ImportRow's order)] → the archive's COLUMNS.
        const fileSeen = r[17] as number | null;
        const seen = fileSeen ?? params.now;
        const removed = r[18] ? seen : null;
        const v = [
          ...r.slice(1, 16),
          r[16] ?? seen,
          seen,
          removed,
          removed === null ? null : params.reason,
          'import',
        ];
        const cdid = v[0] as number;
        const subtype = (r[21] ?? null) as string | null;
        if (repo.insertIfNew(v)) {
          if (subtype !== null) setSubtype.run(subtype, cdid);
          continue;
        }
        const description = v[14] as string | null;
        const replaced = fileSeen !== null && repo.replaceImportedIfLater(v, fileSeen);
        if (replaced) setSubtype.run(subtype, cdid);
        const taken =
          replaced || (description !== null && repo.fillDescription(cdid, description, params.now));
        if (taken && heldBefore.get(cdid) !== undefined) updated++;
      }
      after = rows[rows.length - 1]?.[0] as number;
      chunks.passed(after);
    }
  } finally {
    db.exec(`DROP TABLE IF EXISTS temp.import_held`);
  }
}

/**
 * Rebuilds the text index whole. FTS5's automatic merging is off meanwhile (a third less time; the
 * segments it leaves cost a millisecond or two a query) and then back at what it was. The index
 * keeps no per-row column sizes (migration 014): 0.65–0.7 s a million rows against 1.0–1.1 s.
 * Tried and left: a 64 MB pending-terms hash ('hashsize', 1 MB by default) — the rebuild itself
 * 0.43 s against 0.64 s, but the terms are then written at the commit: the merge took as long
 * (paired runs, wall ratio 1.02).
 */
export function rebuildFts(db: Db): void {
  const automerge = (db.prepare(`SELECT v FROM incidents_fts_config WHERE k = 'automerge'`).pluck().get() ??
    4) as number;
  db.exec(`INSERT INTO incidents_fts (incidents_fts, rank) VALUES ('automerge', 0)`);
  db.exec(`INSERT INTO incidents_fts (incidents_fts) VALUES ('rebuild')`);
  // A literal: FTS5 takes the setting only as an integer value, and bound numbers arrive as reals.
  db.exec(`INSERT INTO incidents_fts (incidents_fts, rank) VALUES ('automerge', ${Math.trunc(automerge)})`);
}

/** The page cache (KiB) while the indexes of rows that came in random cdid order are built. */
const RANDOM_ORDER_SORT_KIB = 4096;

/**
 * Builds the indexes set aside (their CREATE statements). SQLite's sorter sorts runs as large as
 * the page cache. With the merge's 256 MB cache a million keys are one run: fine when the table's
 * cdid order already follows time and place (a Blotter export: the keys come nearly sorted), but
 * for hashed ids (`randomOrder`) that one run's sort works far outside the CPU's caches — a 4 MB
 * cache sorts small runs and merges them: the two indexes of 1M mapped rows in 1.1–1.2 s instead of
 * 1.8–2.2 s. (For nearly sorted keys the small runs cost more than they save: 0.2–0.4 s.)
 *
 * Tried and left: the small cache for the spatial index alone of a Blotter export (its keys do not
 * follow cdid order; built after a commit, 1.0–1.3 s against 1.7–2.2 s) — inside the import the
 * smaller cache spills the transaction's dirty pages to the log and reads them back, so the merge
 * took as long (paired runs, wall ratio 0.99; 10 % less user CPU, 0.4 s more system). SQLite's
 * sorter threads (`PRAGMA threads = 2`) on two busy cores: slower (the local days 0.7–1.0 s
 * against 0.45–0.6 s, the spatial index 1.6–2.7 s).
 */
function buildIndexes(db: Db, indexes: string[], randomOrder: boolean, built: (count: number) => void): void {
  const cache = db.pragma('cache_size', { simple: true }) as number;
  if (randomOrder) db.pragma(`cache_size = -${RANDOM_ORDER_SORT_KIB}`);
  try {
    indexes.forEach((sql, k) => {
      db.exec(sql);
      if (k < indexes.length - 1) built(k + 1);
    });
  } finally {
    db.pragma(`cache_size = ${cache}`);
  }
}

/**
 * Drops the incidents' change-counter triggers (migration 006: one UPDATE of the counter per row
 * written — 0.8–1 s of a million-row insert), returning their SQL to put them back; the caller adds
 * what they would have.
 */
function setCounterAside(db: Db): string[] {
  const found = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'incidents'
        AND name IN (${COUNTER_TRIGGERS.map(() => '?').join(', ')})`,
    )
    .all(...COUNTER_TRIGGERS) as { name: string; sql: string }[];
  for (const t of found) db.exec(`DROP TRIGGER main."${t.name}"`);
  return found.map((t) => t.sql);
}

/** Drops the incidents' own indexes (not the primary key), returning their SQL to build them again. */
export function setIndexesAside(db: Db): string[] {
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
export function setTriggersAside(db: Db): string[] {
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
