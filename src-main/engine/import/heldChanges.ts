/**
 * What an import would do to the rows the archive already holds, for the preview (`held` in
 * ImportPreview): each held cdid counted once, in the first group that fits —
 *
 * 1. replace: an imported row the file saw later (its last_seen) is replaced by the file's copy;
 * 2. describe: a row that lacks a description and the file has one gains it (the only change an
 *    import may make to a row from the API: DESIGN.md, "Incident identity");
 * 3. keptApi: a row from the API whose copy in the file differs (type, address, place, time, zone,
 *    link, removal, description) — kept as the API has it;
 * 4. keptHeld: an imported row whose copy in the file differs but was not seen later — kept;
 * 5. unchanged: the file's copy agrees.
 *
 * The same rules as merge.ts's, read from the staging files beside the archive on a read-only
 * connection of its own, a page of rows at a time with a turn of the event loop between pages (the
 * engine answers other calls meanwhile). A file the archive holds nothing of costs nothing here.
 */
import Database from 'better-sqlite3';
import type { ImportPreview } from '../../../src-shared/exports';
import { stagedRowsSql } from './stage';

export type HeldChanges = ImportPreview['held'];

export const NO_HELD_CHANGES: HeldChanges = {
  replace: 0,
  describe: 0,
  keptApi: 0,
  keptHeld: 0,
  unchanged: 0,
};

/** Row numbers read per page. */
const PAGE = 65_536;
const GROUPS = ['unchanged', 'keptHeld', 'keptApi', 'describe', 'replace'] as const;

/** The group (an index in GROUPS, higher first) of staged copy `s` against held row `i`. */
const GROUP = `CASE
  WHEN i.source = 'import' AND s.last_seen IS NOT NULL AND s.last_seen > i.last_seen THEN 4
  WHEN i.description IS NULL AND s.description IS NOT NULL THEN 3
  WHEN s.type IS NOT i.type OR (s.address <> '' AND s.address IS NOT i.address) OR s.lat IS NOT i.lat
    OR s.lon IS NOT i.lon OR s.occurred_utc IS NOT i.occurred_utc OR s.timezone IS NOT i.timezone
    OR (s.link <> '' AND s.link IS NOT i.link) OR (s.removed <> 0) IS NOT (i.removed_at IS NOT NULL)
    OR (s.description IS NOT NULL AND s.description IS NOT i.description)
    THEN CASE WHEN i.source = 'api' THEN 2 ELSE 1 END
  ELSE 0 END`;

export type HeldChangesInput = {
  /** The archive's database file. */
  dbFile: string;
  stageFiles: readonly string[];
  /** The highest row number staged (the preview's rows). */
  rows: number;
  /** Whether a cdid comes more than once in the file (then each cdid's copies are weighed together). */
  repeats: boolean;
};

export async function heldChanges(input: HeldChangesInput): Promise<HeldChanges> {
  const db = new Database(input.dbFile, { readonly: true, fileMustExist: true });
  try {
    const schemas = input.stageFiles.map((file, k) => {
      db.prepare(`ATTACH DATABASE ? AS held_stage_${k}`).run(file);
      return `held_stage_${k}`;
    });
    const joined = `SELECT s.cdid AS cdid, ${GROUP} AS grp
      FROM (${stagedRowsSql(schemas, 'row > @from AND row <= @to')}) s JOIN main.incidents i ON i.cdid = s.cdid`;
    const counts = [0, 0, 0, 0, 0];
    const byCdid = new Map<number, number>();
    const grouped = db.prepare(`SELECT grp, count(*) FROM (${joined}) GROUP BY grp`).raw();
    const each = db.prepare(joined).raw();
    for (let from = 0; from < input.rows; from += PAGE) {
      const page = { from, to: from + PAGE };
      if (!input.repeats)
        for (const [g, n] of grouped.all(page) as [number, number][]) counts[g] = (counts[g] ?? 0) + n;
      else
        for (const [cdid, g] of each.all(page) as [number, number][])
          byCdid.set(cdid, Math.max(g, byCdid.get(cdid) ?? 0));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    for (const g of byCdid.values()) counts[g] = (counts[g] ?? 0) + 1;
    return Object.fromEntries(GROUPS.map((name, g) => [name, counts[g] ?? 0])) as HeldChanges;
  } finally {
    db.close();
  }
}
