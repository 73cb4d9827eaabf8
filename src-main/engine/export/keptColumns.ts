/**
 * The columns mapped imports kept (`incident_imports.attributes`, JSON objects of texts) as columns
 * of their own in the GIS formats — a GeoPackage column, a Shapefile field, a KML Data — beside
 * the `attributes` JSON text every tabular format holds, so QGIS can filter and style by a kept
 * Beat or Unit. Which columns, and how wide, is asked of the whole archive once per export (like
 * the type, zone and address widths): the same columns for any filter. A kept column's name in the
 * file differs from its own when it must (a name an export column already has, case aside, or a
 * Shapefile's 10 ASCII characters); each such name is unique, and the manifest's `fieldNames`
 * maps it back to `attributes.<kept column>`.
 */
import type { Db } from '../store/database';
import { yieldToEventLoop } from '../eventLoop';
import type { ExportRow } from './rows';

export type KeptColumn = {
  /** The kept column's name in the import (the JSON key). */
  key: string;
  /** Its longest value in UTF-8 bytes (at least 1). */
  bytes: number;
};

/** The manifest's name for a kept column: `attributes.<name>`. */
export const keptLabel = (key: string): string => `attributes.${key}`;

/** The archive's kept columns, in the order the imports first kept them. */
export function keptColumnsOf(db: Pick<Db, 'prepare'>): KeptColumn[] {
  return db
    .prepare(
      // The import wrote (or checked) each as a JSON object of texts. ~1.4 s at a million
      // mapped rows with three kept columns; nothing to read in an archive without imports.
      `SELECT j.key AS key, max(1, max(length(CAST(j.value AS BLOB)))) AS bytes
       FROM incident_imports AS i, json_each(i.attributes) AS j
       WHERE i.attributes IS NOT NULL
       GROUP BY j.key ORDER BY min(i.rowid), min(j.id), j.key`,
    )
    .all() as KeptColumn[];
}

/** Rows of `incident_imports` per slice of a scan on the engine thread. */
const SLICE_ROWS = 15_000;

/**
 * A table's rows `where` holds, as slices of about `rows` rows: (after, last] rowid ranges, each
 * found by a walk of the rowid index, so a slice costs its rows whatever the rowids' spread.
 */
export function* rowidSlices(
  db: Pick<Db, 'prepare'>,
  table: string,
  where: string,
  rows: number,
): Generator<[number, number]> {
  const end = db.prepare(
    `SELECT rowid FROM ${table} WHERE rowid > ? AND ${where} ORDER BY rowid LIMIT 1 OFFSET ${rows - 1}`,
  );
  const lastRow = db.prepare(`SELECT max(rowid) FROM ${table} WHERE ${where}`).pluck();
  let after = -Infinity;
  for (;;) {
    const next = end.pluck().get(after) as number | undefined;
    if (next === undefined) {
      const last = lastRow.get() as number | null;
      if (last !== null && last > after) yield [after, last];
      return;
    }
    yield [after, next];
    after = next;
  }
}

/**
 * keptColumnsOf on the engine thread in slices of the table by cdid, a turn of the event loop
 * between them (the one scan held the thread ~1.4 s at a million mapped rows; issue 31): each
 * slice's keys with their longest value and first row and position, merged — the same columns in
 * the same order. Also the longest `attributes` text (the Shapefile's field width).
 */
export async function keptColumnsInSlices(
  db: Pick<Db, 'prepare'>,
  pause: () => Promise<void> = yieldToEventLoop,
): Promise<{ kept: KeptColumn[]; longestText: number }> {
  const slice = db.prepare(
    `SELECT j.key AS key, max(1, max(length(CAST(j.value AS BLOB)))) AS bytes,
            min(i.rowid) AS firstRow, min(j.id) AS firstId
     FROM incident_imports AS i, json_each(i.attributes) AS j
     WHERE i.attributes IS NOT NULL AND i.rowid > ? AND i.rowid <= ?
     GROUP BY j.key`,
  );
  const longest = db
    .prepare(
      'SELECT max(length(CAST(attributes AS BLOB))) FROM incident_imports WHERE rowid > ? AND rowid <= ?',
    )
    .pluck();
  const keys = new Map<string, { key: string; bytes: number; firstRow: number; firstId: number }>();
  let longestText = 0;
  for (const [after, last] of rowidSlices(db, 'incident_imports', 'attributes IS NOT NULL', SLICE_ROWS)) {
    const rows = slice.all(after, last) as {
      key: string;
      bytes: number;
      firstRow: number;
      firstId: number;
    }[];
    for (const r of rows) {
      const had = keys.get(r.key);
      if (!had) keys.set(r.key, r);
      else {
        had.bytes = Math.max(had.bytes, r.bytes);
        had.firstRow = Math.min(had.firstRow, r.firstRow);
        had.firstId = Math.min(had.firstId, r.firstId);
      }
    }
    longestText = Math.max(longestText, (longest.get(after, last) as number | null) ?? 0);
    await pause();
  }
  // ORDER BY min(i.rowid), min(j.id), j.key — SQLite compares keys as UTF-8 bytes.
  const kept = [...keys.values()]
    .sort(
      (a, b) =>
        a.firstRow - b.firstRow ||
        a.firstId - b.firstId ||
        Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)),
    )
    .map(({ key, bytes }) => ({ key, bytes }));
  return { kept, longestText: longestText || 1 };
}

/**
 * Names for the kept columns beside the `taken` ones, unique without regard to case (SQLite's
 * column names and KML readers' fields): the key itself, or the key with `_2`, `_3`… when taken.
 */
export function keptNames(taken: readonly string[], kept: readonly KeptColumn[]): string[] {
  const used = new Set(taken.map((t) => t.toLowerCase()));
  return kept.map(({ key }) => {
    let name = key.trim() === '' ? '_' : key;
    for (let k = 2; used.has(name.toLowerCase()); k++) name = `${key}_${k}`;
    used.add(name.toLowerCase());
    return name;
  });
}

/** A row's kept values by key (an empty object for API rows). */
export function keptValuesOf(row: ExportRow): Record<string, unknown> {
  if (row.attributes === null) return {};
  try {
    const value: unknown = JSON.parse(row.attributes);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A kept value as a text cell (null when the row has none). */
export const keptCell = (values: Record<string, unknown>, key: string): string | null => {
  const v = values[key];
  return typeof v === 'string' ? v : null;
};
