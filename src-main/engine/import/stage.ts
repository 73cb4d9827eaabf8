/**
 * An import's checked rows, kept between the preview and the run in staging SQLite files beside
 * the uploads (`<data>/imports/<import id>.stage-<k>.sqlite`; the archive is not touched). Each
 * preview thread writes its own file (SQLite has one writer per file); a row is keyed by its number
 * in the import file, so the run reads every file together in file order with one merging query
 * (`stagedRowsSql`) and copies the new rows into the archive inside SQLite, with no value passing
 * through JavaScript. The files go when the import is run, discarded or replaced, and any left by
 * a crash go when the next preview starts.
 */
import Database from 'better-sqlite3';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { RECORD_COLUMNS } from '../store/incidents/incidentRow';
import type { ImportRow } from './normalize';

/** The staged columns after `row`, in ImportRow's order (merge.ts maps them onto the archive's). */
export const STAGED_COLUMNS = [
  ...RECORD_COLUMNS,
  'description',
  'first_seen',
  'last_seen',
  'removed',
  'attributes',
  'external_id',
  'subtype',
] as const;

// Declared types give the values the archive's storage classes (and the file its compactness).
const TABLE = `CREATE TABLE rows (row INTEGER PRIMARY KEY, cdid INTEGER, type TEXT, address TEXT, lat REAL,
  lon REAL, link TEXT, date_raw TEXT, occurred_local TEXT, timezone TEXT, occurred_utc INTEGER, time_flag TEXT,
  local_day TEXT, local_hour INTEGER, local_weekday INTEGER, description TEXT, first_seen INTEGER,
  last_seen INTEGER, removed INTEGER, attributes TEXT, external_id TEXT, subtype TEXT)`;
const WIDTH = STAGED_COLUMNS.length + 1;
/**
 * The same rows in cdid order (made only when they were not staged in it): a clustered copy, so
 * the run reads each file's rows by cdid without a sort and SQLite merges the files' runs.
 */
const BY_CDID = `CREATE TABLE by_cdid (row INTEGER, cdid INTEGER PRIMARY KEY, ${STAGED_COLUMNS.slice(1).join(', ')});
  INSERT INTO by_cdid (row, ${STAGED_COLUMNS.join(', ')}) SELECT row, ${STAGED_COLUMNS.join(', ')} FROM rows ORDER BY cdid`;
/**
 * Made when no staged row carries an id in another system or kept columns (a Blotter export, an
 * API archive): the run then writes each row's provenance from the archive's cdids alone, without
 * reading the staged rows a second time (merge.ts).
 */
const PLAIN = `CREATE TABLE plain (yes INTEGER)`;
const BATCH = 40; // rows per INSERT (840 parameters)
/**
 * Staging files are written once, appended in order, copied whole and read through once: with
 * 64 KB pages (SQLite's largest) the `by_cdid` copy costs about a quarter less than with 4 KB (the
 * write and copy of 500k rows on one thread 1.89 s against 2.11 s CPU); about 0.5 s less CPU over a
 * 1M-row mapped import.
 */
const STAGE_PAGE_SIZE = 65536;

export const stageFileOf = (importsDir: string, importId: string, k: number): string =>
  path.join(importsDir, `${importId}.stage-${k}.sqlite`);

/** Deletes the staging files of `importId`, or of every import but `keep`'s when no id is given. */
export function removeStageFiles(importsDir: string, importId?: string, keep?: string): void {
  let names: string[];
  try {
    names = readdirSync(importsDir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^([0-9a-f]+)\.stage-\d+\.sqlite(-journal|-wal|-shm)?$/.exec(name);
    if (!m || (importId !== undefined ? m[1] !== importId : m[1] === keep)) continue;
    rmSync(path.join(importsDir, name), { force: true });
  }
}

/** Writes checked rows into one staging file, in one transaction committed by `close()`. */
export class StageWriter {
  private readonly db: Database.Database;
  private readonly batch: Database.Statement;
  private readonly pending: unknown[] = [];
  private last = -Infinity;
  /** Whether the cdids rose in the order they were added (then no `by_cdid` copy is made). */
  ascending = true;
  /** Whether no row added had an external id or kept columns (then the file gets a `plain` table). */
  plain = true;
  count = 0;

  constructor(
    readonly file: string,
    /**
     * Whether close() makes the `by_cdid` copy of rows that came in random cdid order. A check
     * thread does (in parallel with the others); the engine's own thread does not — the copy of
     * 40k rows held it ~50 ms, 100k over 100 ms, while the run's merge (on the helper thread
     * from a few thousand rows) sorts them itself.
     */
    private readonly sortedCopy = true,
  ) {
    rmSync(file, { force: true });
    this.db = new Database(file);
    this.db.pragma(`page_size = ${STAGE_PAGE_SIZE}`);
    // Scratch data: a crash loses only the preview, which is read again.
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec(TABLE);
    this.batch = this.db.prepare(insertSql(BATCH));
    this.db.exec('BEGIN');
  }

  /** Row `row` (its number in the import file; each number once, rising) as checked. */
  add(row: number, r: ImportRow): void {
    const p = this.pending;
    p.push(row);
    for (let k = 0; k < 18; k++) p.push(r[k]);
    const attributes = r[18] ?? null;
    const externalId = r[19] ?? null;
    p.push(attributes, externalId, r[20] ?? null);
    if (attributes !== null || externalId !== null) this.plain = false;
    const cdid = r[0];
    if (!(cdid > this.last)) this.ascending = false;
    this.last = cdid;
    this.count++;
    if (p.length === BATCH * WIDTH) {
      this.batch.run(p);
      p.length = 0;
    }
  }

  /** Writes what is pending and closes the file, ready for the run. */
  close(): void {
    if (this.pending.length > 0) this.db.prepare(insertSql(this.pending.length / WIDTH)).run(this.pending);
    this.pending.length = 0;
    // Another system's hashed ids come in random order, and the run inserts new rows by cdid:
    // sorted here, on this thread (in parallel with the others), the run merges sorted runs.
    if (!this.ascending && this.sortedCopy) {
      try {
        this.db.exec(BY_CDID);
      } catch (error) {
        // A cdid this file repeats: no copy (the run then sorts, or goes row by row).
        if ((error as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw error;
        this.db.exec('DROP TABLE IF EXISTS by_cdid');
      }
    }
    if (this.plain) this.db.exec(PLAIN);
    this.db.exec('COMMIT');
    this.db.close();
  }

  /** Closes and deletes the file (the preview failed or was replaced). */
  abandon(): void {
    if (this.db.open) this.db.close();
    rmSync(this.file, { force: true });
  }
}

function insertSql(n: number): string {
  const one = `(${Array(WIDTH).fill('?').join(', ')})`;
  return `INSERT INTO rows (row, ${STAGED_COLUMNS.join(', ')}) VALUES ${Array(n).fill(one).join(', ')}`;
}

/**
 * The staged rows of every attached staging schema (those meeting `where`, a condition on one
 * staged row's columns), in file order: `row` and the staged columns. SQLite merges the files'
 * row-ordered tables (MERGE (UNION ALL)) without a sort — also as a FROM subquery, as long as the
 * outer query adds no ORDER BY or WHERE of its own (either makes SQLite sort everything again).
 */
export function stagedRowsSql(schemas: readonly string[], where?: string): string {
  const cols = `row, ${STAGED_COLUMNS.join(', ')}`;
  const arm = (s: string) => `SELECT ${cols} FROM "${s}".rows${where ? ` WHERE ${where}` : ''}`;
  return `${schemas.map(arm).join(' UNION ALL ')} ORDER BY row`;
}

/**
 * The staged rows of every attached staging schema in cdid order (`row` and the staged columns,
 * as `stagedRowsSql`), merged from each file's `by_cdid` copy without a sort — or null when a file
 * has none (its rows were staged in cdid order, or it predates the copy): then sort as before.
 */
export function stagedByCdidSql(
  db: Database.Database,
  schemas: readonly string[],
  where?: string,
): string | null {
  for (const s of schemas) {
    const has = db.prepare(`SELECT count(*) FROM "${s}".sqlite_master WHERE name = 'by_cdid'`).pluck().get();
    if (has !== 1) return null;
  }
  const cols = `row, ${STAGED_COLUMNS.join(', ')}`;
  const arm = (s: string) => `SELECT ${cols} FROM "${s}".by_cdid${where ? ` WHERE ${where}` : ''}`;
  return `${schemas.map(arm).join(' UNION ALL ')} ORDER BY cdid`;
}

/** Whether every attached staging file holds only plain rows (no external id, no kept columns). */
export function stagedPlain(db: Database.Database, schemas: readonly string[]): boolean {
  return schemas.every(
    (s) => db.prepare(`SELECT count(*) FROM "${s}".sqlite_master WHERE name = 'plain'`).pluck().get() === 1,
  );
}
