/**
 * Which incidents this connection wrote since the last look, without any writer's help: TEMP
 * triggers (they live in this connection only and fire for its writes, inside the writer's own
 * transaction, so a rollback takes its entries back too) record the cdids of inserted, deleted
 * and changed incidents in a TEMP table. Writes by other connections or processes are not seen
 * here; `PRAGMA data_version` catches those (snapshotKeeper.ts).
 *
 * Only the columns the snapshot or the text index read count as a change (not last_seen, which a
 * sync touches for every incident it sees again).
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/database';

const WATCHED = [
  'cdid',
  'type',
  'address',
  'lat',
  'lon',
  'occurred_utc',
  'occurred_local',
  'local_day',
  'timezone',
  'removed_at',
  'description',
];

let instances = 0;

export class ChangeLog {
  private readonly table: string;
  private readonly triggers: string[];
  private readonly read: Statement;
  private readonly clear: Statement;
  private open = true;

  constructor(private readonly db: Db) {
    const id = `blotter_query_changes_${process.pid}_${++instances}`;
    this.table = `temp.${id}`;
    this.triggers = ['insert', 'update', 'delete'].map((t) => `temp.${id}_${t}`);
    const [onInsert, onUpdate, onDelete] = this.triggers as [string, string, string];
    // Not INSERT OR IGNORE: a trigger fired by an upsert (INSERT … ON CONFLICT DO UPDATE) takes the
    // outer statement's conflict policy, and the duplicate cdid would then abort the writer.
    const remember = (cdid: string) =>
      `INSERT INTO ${this.table} (cdid) SELECT ${cdid} WHERE NOT EXISTS (SELECT 1 FROM ${this.table} WHERE cdid = ${cdid});`;
    db.exec(`
      CREATE TEMP TABLE IF NOT EXISTS ${id} (cdid INTEGER PRIMARY KEY);
      CREATE TEMP TRIGGER IF NOT EXISTS ${onInsert.slice(5)} AFTER INSERT ON main.incidents BEGIN
        ${remember('new.cdid')}
      END;
      CREATE TEMP TRIGGER IF NOT EXISTS ${onUpdate.slice(5)} AFTER UPDATE OF ${WATCHED.join(', ')} ON main.incidents BEGIN
        ${remember('old.cdid')}
        ${remember('new.cdid')}
      END;
      CREATE TEMP TRIGGER IF NOT EXISTS ${onDelete.slice(5)} AFTER DELETE ON main.incidents BEGIN
        ${remember('old.cdid')}
      END;`);
    this.read = db.prepare(`SELECT cdid FROM ${this.table}`).pluck();
    this.clear = db.prepare(`DELETE FROM ${this.table}`);
  }

  /** The cdids written since the last call (each once), and forgets them. */
  drain(): number[] {
    if (!this.open || !this.db.open) return [];
    const cdids = this.read.all() as number[];
    if (cdids.length > 0) this.clear.run();
    return cdids;
  }

  /** Forgets what was recorded so far (a full read is about to see it). */
  reset(): void {
    if (this.open && this.db.open) this.clear.run();
  }

  /** Removes the triggers and the table (while the connection is still open). */
  close(): void {
    if (!this.open) return;
    this.open = false;
    if (!this.db.open) return;
    for (const trigger of this.triggers) this.db.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
    this.db.exec(`DROP TABLE IF EXISTS ${this.table}`);
  }
}

/**
 * The file's incident change counter (store migration 006: permanent triggers add one for every
 * incident inserted, deleted or changed in a watched column, by any connection or process), as
 * "<file id>:<count>"; null when the file has none (older schema). A saved snapshot that records
 * another value than the file's is behind it.
 */
export function changeCounter(db: Db): string | null {
  try {
    const row = db.prepare('SELECT file_id, n FROM incident_changes WHERE id = 1').get() as
      { file_id: string; n: number } | undefined;
    return row ? `${row.file_id}:${row.n}` : null;
  } catch {
    return null; // no such table
  }
}
