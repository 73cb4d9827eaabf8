/**
 * The GeoPackage RTree Spatial Index extension (OGC GeoPackage 1.3, Annex F.3, `gpkg_rtree_index`)
 * for one geometry column: the `rtree_<table>_<column>` virtual table holding each non-empty
 * geometry's envelope by its row id, the extension's row in `gpkg_extensions`, and the spec's
 * triggers that keep it in step when a reader edits the table (they call ST_IsEmpty, ST_MinX…,
 * which GDAL and QGIS provide; the export itself writes no feature row after making them).
 *
 * The index is filled as GDAL fills a new layer's: packed at once (`rtreePacking.ts`) and written
 * straight into the rtree module's own tables, since SQLite's one-by-one insert takes 6–10 s for a
 * million points. Writing those tables needs SQLite's defensive mode off for the moment
 * (better-sqlite3's `unsafeMode`), on this export's private connection only.
 */
import type Database from 'better-sqlite3';
import { nodeSizeFor, packRtree, type EnvelopeList } from './rtreePacking';

export const RTREE_EXTENSION = {
  name: 'gpkg_rtree_index',
  definition: 'http://www.geopackage.org/spec120/#extension_rtree',
  scope: 'write-only',
} as const;

/** The core `gpkg_extensions` table (GeoPackage 1.3, §2.5.2.1.1), as GDAL declares it. */
export const GPKG_EXTENSIONS_TABLE = `
CREATE TABLE gpkg_extensions (
  table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL, definition TEXT NOT NULL,
  scope TEXT NOT NULL, CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
`;

export const rtreeNameOf = (table: string, column: string): string => `rtree_${table}_${column}`;

const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Annex F.3's triggers, word for word but for the quoted names (GDAL writes the same): t the
 * feature table, c its geometry column, i its primary key.
 */
export function rtreeTriggers(table: string, column: string, id: string): string {
  const [t, c, i, r] = [q(table), q(column), q(id), q(rtreeNameOf(table, column))];
  const name = (suffix: string) => q(`${rtreeNameOf(table, column)}_${suffix}`);
  const insert = `INSERT OR REPLACE INTO ${r} VALUES (NEW.${i},ST_MinX(NEW.${c}), ST_MaxX(NEW.${c}),ST_MinY(NEW.${c}), ST_MaxY(NEW.${c}));`;
  return `
CREATE TRIGGER ${name('insert')} AFTER INSERT ON ${t} WHEN (new.${c} NOT NULL AND NOT ST_IsEmpty(NEW.${c})) BEGIN ${insert} END;
CREATE TRIGGER ${name('update1')} AFTER UPDATE OF ${c} ON ${t} WHEN OLD.${i} = NEW.${i} AND (NEW.${c} NOTNULL AND NOT ST_IsEmpty(NEW.${c})) BEGIN ${insert} END;
CREATE TRIGGER ${name('update2')} AFTER UPDATE OF ${c} ON ${t} WHEN OLD.${i} = NEW.${i} AND (NEW.${c} ISNULL OR ST_IsEmpty(NEW.${c})) BEGIN DELETE FROM ${r} WHERE id = OLD.${i}; END;
CREATE TRIGGER ${name('update3')} AFTER UPDATE ON ${t} WHEN OLD.${i} != NEW.${i} AND (NEW.${c} NOTNULL AND NOT ST_IsEmpty(NEW.${c})) BEGIN DELETE FROM ${r} WHERE id = OLD.${i}; ${insert} END;
CREATE TRIGGER ${name('update4')} AFTER UPDATE ON ${t} WHEN OLD.${i} != NEW.${i} AND (NEW.${c} ISNULL OR ST_IsEmpty(NEW.${c})) BEGIN DELETE FROM ${r} WHERE id IN (OLD.${i}, NEW.${i}); END;
CREATE TRIGGER ${name('delete')} AFTER DELETE ON ${t} WHEN old.${c} NOT NULL BEGIN DELETE FROM ${r} WHERE id = OLD.${i}; END;
`;
}

const ROWID_CHUNK = 50_000;

/**
 * Adds the spatial index of `table`.`column` (primary key `id`), filled with `envelopes` (the row
 * ids and envelopes of its non-empty geometries), in one transaction. Call it once the table's rows
 * are all written: the triggers it makes need GDAL's functions.
 */
export function addSpatialIndex(
  db: Database.Database,
  table: string,
  column: string,
  id: string,
  envelopes: EnvelopeList,
): void {
  const rtree = rtreeNameOf(table, column);
  db.transaction(() => {
    db.exec(`CREATE VIRTUAL TABLE ${q(rtree)} USING rtree(id, minx, maxx, miny, maxy)`);
    if (envelopes.count > 0) {
      const { nodes, leafOf } = packRtree(
        envelopes,
        nodeSizeFor(db.pragma('page_size', { simple: true }) as number),
      );
      db.unsafeMode(true);
      try {
        db.exec(`DELETE FROM ${q(`${rtree}_node`)}`); // the empty root the module made
        const node = db.prepare(
          `INSERT INTO ${q(`${rtree}_node`)} (nodeno, data) VALUES (CAST(? AS INTEGER), ?)`,
        );
        const parent = db.prepare(
          `INSERT INTO ${q(`${rtree}_parent`)} (nodeno, parentnode) VALUES (CAST(? AS INTEGER), CAST(? AS INTEGER))`,
        );
        for (const n of nodes) {
          node.run(n.nodeno, n.blob);
          if (n.parent !== 0) parent.run(n.nodeno, n.parent);
        }
        // Each entry's leaf. Ids that run on by one (a new table's fids) go as JSON arrays of
        // leaves, 50,000 a statement (~0.3 s a million, half the time of a statement a row).
        const ids = envelopes.ids.subarray(0, envelopes.count);
        if (ids.every((id, k) => id === ids[0]! + k)) {
          const rowids = db.prepare(
            `INSERT INTO ${q(`${rtree}_rowid`)} (rowid, nodeno) SELECT ? + key, value FROM json_each(?)`,
          );
          for (let from = 0; from < ids.length; from += ROWID_CHUNK)
            rowids.run(ids[from], `[${leafOf.subarray(from, from + ROWID_CHUNK).join(',')}]`);
        } else {
          const rowid = db.prepare(
            `INSERT INTO ${q(`${rtree}_rowid`)} (rowid, nodeno) VALUES (CAST(? AS INTEGER), CAST(? AS INTEGER))`,
          );
          for (let k = 0; k < ids.length; k++) rowid.run(ids[k], leafOf[k]);
        }
      } finally {
        db.unsafeMode(false);
      }
    }
    db.exec(rtreeTriggers(table, column, id));
    db.prepare(
      'INSERT INTO gpkg_extensions (table_name, column_name, extension_name, definition, scope) VALUES (?, ?, ?, ?, ?)',
    ).run(table, column, RTREE_EXTENSION.name, RTREE_EXTENSION.definition, RTREE_EXTENSION.scope);
  })();
}
