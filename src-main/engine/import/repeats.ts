/**
 * The ids an import file gives to more than one row, for the preview (`repeats` in ImportPreview):
 * each repeated id's rows, the row whose copy the run keeps, and whether the other copies are the
 * same record as Blotter reads it or differ — a differing copy's data is not imported (at most a
 * description the kept copy lacks), which is how two victims of one case number, or the offences of
 * one incident number, vanished into one row without a word.
 *
 * The run's rule (merge.ts, row by row in file order): the first copy is inserted; a later copy
 * replaces it only when the file saw it later (its last_seen is later than the kept copy's; a copy
 * without last_seen keeps what it met). Read from the staging files on a connection of its own; a
 * file without repeated ids costs nothing here.
 */
import Database from 'better-sqlite3';
import type { ImportPreview } from '../../../src-shared/exports';
import { STAGED_COLUMNS, stagedRowsSql } from './stage';

export type Repeats = ImportPreview['repeats'];

export const NO_REPEATS: Repeats = { ids: 0, differing: 0, listed: [] };

/** Repeated ids listed at most (differing ones first), and rows listed per id. */
const LISTED = 100;
const ROWS_LISTED = 20;

// Positions in a staged row read as [row, ...STAGED_COLUMNS].
const CDID = 1;
const LAST_SEEN = 1 + STAGED_COLUMNS.indexOf('last_seen');
const EXTERNAL_ID = 1 + STAGED_COLUMNS.indexOf('external_id');

type Listed = Repeats['listed'][number];

/** `repeated`: the cdids staged more than once. */
export function repeatedIds(stageFiles: readonly string[], repeated: readonly number[]): Repeats {
  if (repeated.length === 0) return NO_REPEATS;
  const db = new Database(':memory:');
  try {
    const schemas = stageFiles.map((file, k) => {
      db.prepare(`ATTACH DATABASE ? AS repeat_stage_${k}`).run(file);
      return `repeat_stage_${k}`;
    });
    db.exec('CREATE TEMP TABLE repeated (cdid INTEGER PRIMARY KEY)');
    const add = db.prepare('INSERT OR IGNORE INTO temp.repeated (cdid) VALUES (?)');
    db.transaction(() => {
      for (const cdid of repeated) add.run(cdid);
    })();
    const rows = db
      .prepare(
        `SELECT * FROM (${stagedRowsSql(schemas, 'cdid IN (SELECT cdid FROM temp.repeated)')}) ORDER BY cdid, row`,
      )
      .raw()
      .iterate() as IterableIterator<unknown[]>;
    const differing: Listed[] = [];
    const same: Listed[] = [];
    let ids = 0;
    let lost = 0;
    let group: unknown[][] = [];
    const close = () => {
      if (group.length < 2) return;
      ids++;
      // The first copy is kept unless a later one was seen later (merge.ts's rule).
      let kept = group[0] as unknown[];
      for (const r of group.slice(1)) {
        const seen = r[LAST_SEEN] as number | null;
        const keptSeen = kept[LAST_SEEN] as number | null;
        if (seen !== null && keptSeen !== null && seen > keptSeen) kept = r;
      }
      const content = (r: unknown[]) => JSON.stringify(r.slice(1));
      const keptContent = content(kept);
      const differ = group.filter((r) => content(r) !== keptContent).length;
      lost += differ;
      const entry: Listed = {
        id: String(kept[EXTERNAL_ID] ?? kept[CDID]),
        rows: group.slice(0, ROWS_LISTED).map((r) => r[0] as number),
        count: group.length,
        kept: kept[0] as number,
        same: differ === 0,
      };
      if (differ > 0 && differing.length < LISTED) differing.push(entry);
      else if (differ === 0 && same.length < LISTED) same.push(entry);
    };
    for (const r of rows) {
      if (group.length > 0 && (group[0] as unknown[])[CDID] !== r[CDID]) {
        close();
        group = [];
      }
      group.push(r);
    }
    close();
    const listed = [...differing, ...same]
      .slice(0, LISTED)
      .sort((a, b) => Number(a.same) - Number(b.same) || (a.rows[0] as number) - (b.rows[0] as number));
    return { ids, differing: lost, listed };
  } finally {
    db.close();
  }
}
