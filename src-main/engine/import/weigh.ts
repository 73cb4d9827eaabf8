/**
 * The preview's account of what the staged rows would do, once the file is read: whether the cdids
 * rise in file order, how many are distinct, how many the archive holds, which come more than once
 * (repeats.ts) and what the run would change in the held rows (heldChanges.ts). At a million rows
 * that is a sort (0.1–0.25 s) and a join (1–2 s), so it runs on the import's helper thread
 * (mergeThread.ts) on read-only connections of its own, never on the engine's call path.
 */
import Database from 'better-sqlite3';
import { heldChanges, NO_HELD_CHANGES, type HeldChanges } from './heldChanges';
import { repeatedIds, type Repeats } from './repeats';

export type WeighInput = {
  /** The archive's database file. */
  dbFile: string;
  stageFiles: readonly string[];
  /** The highest row number staged (the preview's rows). */
  rows: number;
  /** The valid rows' cdids, in file order. */
  cdids: Float64Array;
};

export type Weighed = {
  /** The cdids rise in file order (merge.ts inserts hashed ids sorted otherwise). */
  ascending: boolean;
  distinct: number;
  /** Distinct cdids the archive holds. */
  existing: number;
  repeats: Repeats;
  held: HeldChanges;
};

/** Below this many distinct cdids the archive is asked for each; above, read in order beside them. */
const LOOKUPS_MAX = 50_000;

export async function weighStaged(input: WeighInput): Promise<Weighed> {
  const { cdids } = input;
  let ascending = true;
  for (let k = 1; k < cdids.length && ascending; k++)
    ascending = (cdids[k] as number) > (cdids[k - 1] as number);
  const sorted = cdids.slice().sort();
  const distinctIds: number[] = [];
  const repeated: number[] = [];
  for (let k = 0; k < sorted.length; k++) {
    const cdid = sorted[k] as number;
    if (k > 0 && cdid === sorted[k - 1]) {
      if (repeated.at(-1) !== cdid) repeated.push(cdid);
      continue;
    }
    distinctIds.push(cdid);
  }
  const existing = heldCount(input.dbFile, distinctIds);
  const held =
    existing === 0
      ? NO_HELD_CHANGES
      : await heldChanges({
          dbFile: input.dbFile,
          stageFiles: input.stageFiles,
          rows: input.rows,
          repeats: repeated.length > 0,
        });
  return {
    ascending,
    distinct: distinctIds.length,
    existing,
    repeats: repeatedIds(input.stageFiles, repeated),
    held,
  };
}

/** How many of `ids` (distinct, ascending) the archive holds. */
function heldCount(dbFile: string, ids: readonly number[]): number {
  if (ids.length === 0) return 0;
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    let found = 0;
    if (ids.length <= LOOKUPS_MAX) {
      const one = db.prepare('SELECT 1 FROM incidents WHERE cdid = ?').pluck();
      for (const cdid of ids) if (one.get(cdid) !== undefined) found++;
      return found;
    }
    // A merge of two ascending lists: the archive's cdids within the file's range, and the file's.
    const held = db
      .prepare('SELECT cdid FROM incidents WHERE cdid BETWEEN ? AND ? ORDER BY cdid')
      .pluck()
      .iterate(ids[0], ids[ids.length - 1]) as IterableIterator<number>;
    let k = 0;
    for (const cdid of held) {
      while (k < ids.length && (ids[k] as number) < cdid) k++;
      if (k === ids.length) break;
      if (ids[k] === cdid) found++;
    }
    return found;
  } finally {
    db.close();
  }
}
