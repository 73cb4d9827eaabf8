/**
 * GeoPackage export (OGC GeoPackage 1.3, a SQLite file): the filtered incidents as the point
 * feature table `incidents` (every export column, geometry `geom`), the saved areas (and the
 * filter's drawn shape) as the polygon table `areas`, and the export manifest as the attributes
 * table `blotter_manifest` (one row, JSON) — all in EPSG:4326. Each geometry table carries the
 * RTree spatial index GDAL gives its own (`gpkgSpatialIndex.ts`), so QGIS draws a part of a
 * million points without reading them all. Written under the job's temporary
 * name a batch per transaction; a cancel or failure removes it. The manifest goes in last
 * (`embedManifest`), its `file.bytes` the file's final size.
 */
import { statSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { EXPORT_COLUMNS } from './rows';
import { keptCell, keptColumnsOf, keptLabel, keptNames, keptValuesOf } from './keptColumns';
import { envelopeOf, pointBlob, polygonBlob } from './geometryBlob';
import { addSpatialIndex, GPKG_EXTENSIONS_TABLE } from './gpkgSpatialIndex';
import { EnvelopeList } from './rtreePacking';
import { areaOutlines, exportRowBatches, runnerOf, type Writer } from './gisRows';
import { partPathOf } from '../files/destination';
import type { Finished } from '../files/fileSink';

const GPKG_APPLICATION_ID = 0x47504b47; // "GPKG"
const GPKG_VERSION = 10300;

const WGS84_WKT =
  'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],' +
  'AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],' +
  'UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],' +
  'AUTHORITY["EPSG","4326"]]';

/**
 * SQLite column types of the export columns (GeoPackage's own type names, §1.1.1.1.3). The
 * instants are DATETIME: their text is already the standard's form (ISO 8601 UTC with
 * milliseconds, `YYYY-MM-DDTHH:MM:SS.SSSZ`), so GDAL and QGIS read them as date-times;
 * occurred_local is the incident's wall time with no offset, so it stays TEXT beside its timezone.
 */
const COLUMN_TYPES: Record<string, string> = {
  cdid: 'INTEGER',
  occurred_utc: 'DATETIME',
  lat: 'DOUBLE',
  lon: 'DOUBLE',
  first_seen: 'DATETIME',
  last_seen: 'DATETIME',
  removed: 'BOOLEAN',
};

export const TABLES = ['incidents', 'areas', 'blotter_manifest'] as const;

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The tables and their columns (the kept columns, keptColumns.ts, after the export's own). */
const schema = (kept: readonly string[]) => `
CREATE TABLE gpkg_spatial_ref_sys (
  srs_name TEXT NOT NULL, srs_id INTEGER NOT NULL PRIMARY KEY, organization TEXT NOT NULL,
  organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
CREATE TABLE gpkg_contents (
  table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
  description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
  CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
CREATE TABLE gpkg_geometry_columns (
  table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
  srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
  CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
  CONSTRAINT uk_gc_table_name UNIQUE (table_name),
  CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
  CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
${GPKG_EXTENSIONS_TABLE}
CREATE TABLE incidents (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom POINT,
  ${[...EXPORT_COLUMNS.map((c) => `"${c}" ${COLUMN_TYPES[c] ?? 'TEXT'}`), ...kept.map((k) => `${quoted(k)} TEXT`)].join(', ')});
CREATE TABLE areas (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom POLYGON, area_id INTEGER, name TEXT, kind TEXT);
CREATE TABLE blotter_manifest (id INTEGER PRIMARY KEY AUTOINCREMENT, manifest TEXT NOT NULL);
`;

export const gpkgRunner = runnerOf(gpkgWriter());

export function gpkgWriter(): Writer {
  return (job, ctx, onWritten) => {
    const partPath = partPathOf(job.dest.path, job.id);
    let db: Database.Database | null = null;
    const close = () => {
      if (db?.open) db.close();
      db = null;
    };
    const cleanup = async () => {
      close();
      await Promise.all(['', '-journal', '-wal'].map((s) => rm(partPath + s, { force: true })));
    };
    const run = async () => {
      // Created private (as every export's file is) before SQLite opens it with its own mode.
      await writeFile(partPath, '', { mode: 0o600, flag: 'wx' });
      const out = new Database(partPath);
      db = out;
      out.pragma('journal_mode = DELETE');
      out.pragma(`application_id = ${GPKG_APPLICATION_ID}`);
      out.pragma(`user_version = ${GPKG_VERSION}`);
      // SQLite allows 2,000 columns a table; kept columns past 1,000 stay in `attributes` only.
      const kept = keptColumnsOf(ctx.db).slice(0, 1000);
      const keptAs = keptNames(['fid', 'geom', ...EXPORT_COLUMNS], kept);
      out.exec(schema(keptAs));
      const srs = out.prepare('INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)');
      srs.run(
        'Undefined cartesian SRS',
        -1,
        'NONE',
        -1,
        'undefined',
        'undefined cartesian coordinate reference system',
      );
      srs.run(
        'Undefined geographic SRS',
        0,
        'NONE',
        0,
        'undefined',
        'undefined geographic coordinate reference system',
      );
      srs.run(
        'WGS 84 geodetic',
        4326,
        'EPSG',
        4326,
        WGS84_WKT,
        'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid',
      );
      const contents = out.prepare(
        'INSERT INTO gpkg_contents (table_name, data_type, identifier, description, min_x, min_y, max_x, max_y, srs_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      const columns = out.prepare('INSERT INTO gpkg_geometry_columns VALUES (?, ?, ?, 4326, 0, 0)');
      const insert = out.prepare(
        `INSERT INTO incidents (geom, ${[...EXPORT_COLUMNS, ...keptAs].map(quoted).join(', ')}) ` +
          `VALUES (?, ${[...EXPORT_COLUMNS, ...keptAs].map(() => '?').join(', ')})`,
      );
      const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
      // Each row's id and point, for the spatial index once every row is in.
      const points = new EnvelopeList();
      let written = 0;
      for await (const rows of exportRowBatches(job, ctx)) {
        if (job.cancelRequested) return null;
        out.transaction(() => {
          for (const r of rows) {
            const values = kept.length === 0 ? {} : keptValuesOf(r);
            const { lastInsertRowid: fid } = insert.run(
              pointBlob(r.lon, r.lat),
              ...EXPORT_COLUMNS.map((c) => cell(r[c])),
              ...kept.map((k) => keptCell(values, k.key)),
            );
            points.push(Number(fid), r.lon, r.lon, r.lat, r.lat);
            if (r.lon < box.minX) box.minX = r.lon;
            if (r.lon > box.maxX) box.maxX = r.lon;
            if (r.lat < box.minY) box.minY = r.lat;
            if (r.lat > box.maxY) box.maxY = r.lat;
          }
        })();
        written += rows.length;
        onWritten(written);
      }
      if (job.cancelRequested) return null;
      const areas = areaOutlines(job, ctx);
      const areaBox = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
      const insertArea = out.prepare('INSERT INTO areas (geom, area_id, name, kind) VALUES (?, ?, ?, ?)');
      const areaEnvelopes = new EnvelopeList();
      out.transaction(() => {
        const empty = written === 0;
        contents.run(
          'incidents',
          'features',
          'incidents',
          'Blotter incidents',
          ...(empty ? [null, null, null, null] : [box.minX, box.minY, box.maxX, box.maxY]),
          4326,
        );
        columns.run('incidents', 'geom', 'POINT');
        for (const a of areas) {
          const { lastInsertRowid: fid } = insertArea.run(polygonBlob(a.rings), a.id, a.name, a.kind);
          const [minX, maxX, minY, maxY] = envelopeOf(a.rings);
          areaEnvelopes.push(Number(fid), minX, maxX, minY, maxY); // none for a polygon without corners
          areaBox.minX = Math.min(areaBox.minX, minX);
          areaBox.maxX = Math.max(areaBox.maxX, maxX);
          areaBox.minY = Math.min(areaBox.minY, minY);
          areaBox.maxY = Math.max(areaBox.maxY, maxY);
        }
        contents.run(
          'areas',
          'features',
          'areas',
          'Blotter areas and the filter shape',
          ...(areas.length === 0
            ? [null, null, null, null]
            : [areaBox.minX, areaBox.minY, areaBox.maxX, areaBox.maxY]),
          4326,
        );
        columns.run('areas', 'geom', 'POLYGON');
        contents.run(
          'blotter_manifest',
          'attributes',
          'blotter_manifest',
          'The export manifest (JSON)',
          null,
          null,
          null,
          null,
          null,
        );
      })();
      if (job.cancelRequested) return null;
      // After the last feature row: the index's triggers call functions only GDAL defines.
      addSpatialIndex(out, 'incidents', 'geom', 'fid', points);
      addSpatialIndex(out, 'areas', 'geom', 'fid', areaEnvelopes);
      out.pragma('optimize');
      const file: Finished = { partPath, path: job.dest.path };
      const embedManifest = async (textFor: (bytes: number) => string): Promise<number> => {
        // The manifest names the file's size, which the manifest itself changes: settle on a size
        // (a page more at most, so two or three rounds).
        const put = out.prepare('INSERT OR REPLACE INTO blotter_manifest (id, manifest) VALUES (1, ?)');
        let size = statSync(partPath).size;
        for (let round = 0; round < 6; round++) {
          put.run(textFor(size));
          const now = statSync(partPath).size;
          if (now === size) break;
          size = now;
        }
        close();
        return statSync(partPath).size;
      };
      return {
        bytes: statSync(partPath).size,
        written,
        file,
        fileInfo: {
          crs: 'EPSG:4326' as const,
          tables: [...TABLES],
          ...(kept.length > 0
            ? { fieldNames: Object.fromEntries(keptAs.map((name, k) => [name, keptLabel(kept[k]!.key)])) }
            : {}),
        },
        embedManifest,
      };
    };
    return { done: run(), cleanup };
  };
}

const cell = (v: unknown): string | number | null =>
  v === null || v === undefined ? null : typeof v === 'boolean' ? (v ? 1 : 0) : (v as string | number);
