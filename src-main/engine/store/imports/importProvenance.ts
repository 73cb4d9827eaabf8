/**
 * Where an imported incident came from: the import run that last wrote it (the file's name, the
 * column mapping's name and a hash of that mapping, when), its id in the other system and the
 * columns of the file kept with it (migration 012). Written by the import's merge in its own
 * transaction (import/merge.ts), read for the incident panel (query/incident.ts).
 */
import { createHash } from 'node:crypto';
import type { ColumnMapping } from '../../../../src-shared/importMapping';
import type { ImportedFrom } from '../../../../src-shared/incidentQueries';
import type { Db } from '../database';

export type ImportOrigin = { fileName: string; mappingName: string | null; mappingHash: string | null };

/** A mapping's fingerprint: sha-256 of its JSON with the keys in order, first 16 hex digits. */
export function mappingHash(mapping: ColumnMapping): string {
  const sorted = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;
  return createHash('sha256')
    .update(JSON.stringify(sorted(mapping)))
    .digest('hex')
    .slice(0, 16);
}

export function originOf(fileName: string, mapping: ColumnMapping | undefined): ImportOrigin {
  return {
    fileName,
    mappingName: mapping?.name ?? null,
    mappingHash: mapping ? mappingHash(mapping) : null,
  };
}

/** A new import run; its id goes with every row the import writes. */
export function recordImportRun(db: Db, origin: ImportOrigin, now: number): number {
  const info = db
    .prepare(
      'INSERT INTO import_runs (file_name, mapping_name, mapping_hash, imported_at) VALUES (?, ?, ?, ?)',
    )
    .run(origin.fileName, origin.mappingName, origin.mappingHash, now);
  return Number(info.lastInsertRowid);
}

/** Where an incident an import wrote came from, or null (an API row, or imported before this was kept). */
export function importedFrom(db: Db, cdid: number): ImportedFrom | null {
  const row = db
    .prepare(
      `SELECT r.file_name, r.mapping_name, r.mapping_hash, r.imported_at, x.external_id, x.attributes
       FROM incident_imports x JOIN import_runs r ON r.id = x.run_id
       JOIN incidents i ON i.cdid = x.cdid AND i.source = 'import' WHERE x.cdid = ?`,
    )
    .get(cdid) as
    | {
        file_name: string;
        mapping_name: string | null;
        mapping_hash: string | null;
        imported_at: number;
        external_id: string | null;
        attributes: string | null;
      }
    | undefined;
  if (!row) return null;
  let attributes: Record<string, string> = {};
  try {
    attributes = row.attributes ? (JSON.parse(row.attributes) as Record<string, string>) : {};
  } catch {
    attributes = {};
  }
  return {
    fileName: row.file_name,
    mappingName: row.mapping_name,
    mappingHash: row.mapping_hash,
    importedAt: row.imported_at,
    externalId: row.external_id,
    attributes,
  };
}

/** A table row's origin: the API, or the file an import read it from and the columns it kept. */
export type RowOrigin = {
  source: 'api' | 'import';
  importFile?: string;
  attributes?: Record<string, string>;
};

/** The origins of a page of table rows, by cdid (one query for the page). */
export function rowOrigins(db: Db, cdids: readonly number[]): Map<number, RowOrigin> {
  const out = new Map<number, RowOrigin>();
  if (cdids.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT i.cdid, i.source, r.file_name, x.attributes
       FROM incidents i
       LEFT JOIN incident_imports x ON x.cdid = i.cdid AND i.source = 'import'
       LEFT JOIN import_runs r ON r.id = x.run_id
       WHERE i.cdid IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(cdids)) as {
    cdid: number;
    source: 'api' | 'import';
    file_name: string | null;
    attributes: string | null;
  }[];
  for (const row of rows) {
    const origin: RowOrigin = { source: row.source };
    if (row.file_name !== null) origin.importFile = row.file_name;
    if (row.attributes) {
      try {
        origin.attributes = JSON.parse(row.attributes) as Record<string, string>;
      } catch {
        // A damaged JSON cell: the row shows no kept columns.
      }
    }
    out.set(row.cdid, origin);
  }
  return out;
}
