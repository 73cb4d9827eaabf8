/**
 * One GeoPackage being written (see gpkgExport.ts for what it holds): the tables and reference
 * rows at open, the incident rows a batch per transaction, then the areas, the contents rows and
 * both spatial indexes, then the manifest row. The same code writes it on the GeoPackage thread
 * (gpkgWorker.ts, the usual way) and on the engine thread (an archive with no file of its own).
 */
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { EXPORT_COLUMNS, type ExportRow } from './rows';
import { keptCell, keptValuesOf, type KeptColumn } from './keptColumns';
import { envelopeOf, pointBlob, polygonBlob } from './geometryBlob';
import { addSpatialIndex, GPKG_EXTENSIONS_TABLE } from './gpkgSpatialIndex';
import { EnvelopeList } from './rtreePacking';
import type { AreaOutline } from './gisRows';

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

/** The incident table's own column names, which a kept column's name must not take (keptNames). */
export const GPKG_TAKEN_NAMES: readonly string[] = ['fid', 'geom', ...EXPORT_COLUMNS];

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

export class GeoPackageFile {
  private readonly out: Database.Database;
  private readonly insert: Database.Statement;
  private readonly box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  /** Each row's id and point, for the spatial index once every row is in. */
  private readonly points = new EnvelopeList();
  written = 0;

  /** Opens the (empty, private) file at `path` and makes its tables; `keptAs` names the kept columns. */
  constructor(
    private readonly path: string,
    private readonly kept: readonly KeptColumn[],
    keptAs: readonly string[],
  ) {
    const out = new Database(path);
    this.out = out;
    out.pragma('journal_mode = DELETE');
    out.pragma(`application_id = ${GPKG_APPLICATION_ID}`);
    out.pragma(`user_version = ${GPKG_VERSION}`);
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
    this.insert = out.prepare(
      `INSERT INTO incidents (geom, ${[...EXPORT_COLUMNS, ...keptAs].map(quoted).join(', ')}) ` +
        `VALUES (?, ${[...EXPORT_COLUMNS, ...keptAs].map(() => '?').join(', ')})`,
    );
  }

  /** One batch of incident rows, in one transaction. */
  addRows(rows: readonly ExportRow[]): void {
    const { kept, insert, points, box } = this;
    this.out.transaction(() => {
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
    this.written += rows.length;
  }

  /** After the last row: the areas, the contents and geometry-column rows, both spatial indexes. */
  finish(areas: readonly AreaOutline[]): void {
    const { out, box } = this;
    const contents = out.prepare(
      'INSERT INTO gpkg_contents (table_name, data_type, identifier, description, min_x, min_y, max_x, max_y, srs_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const columns = out.prepare('INSERT INTO gpkg_geometry_columns VALUES (?, ?, ?, 4326, 0, 0)');
    const areaBox = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
    const insertArea = out.prepare('INSERT INTO areas (geom, area_id, name, kind) VALUES (?, ?, ?, ?)');
    const areaEnvelopes = new EnvelopeList();
    out.transaction(() => {
      const empty = this.written === 0;
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
    // After the last feature row: the index's triggers call functions only GDAL defines.
    addSpatialIndex(out, 'incidents', 'geom', 'fid', this.points);
    addSpatialIndex(out, 'areas', 'geom', 'fid', areaEnvelopes);
    out.pragma('optimize');
  }

  /** The file's size now. */
  size(): number {
    return statSync(this.path).size;
  }

  /** Puts (or replaces) the manifest row; the file's size after it. */
  putManifest(text: string): number {
    this.out.prepare('INSERT OR REPLACE INTO blotter_manifest (id, manifest) VALUES (1, ?)').run(text);
    return this.size();
  }

  close(): void {
    if (this.out.open) this.out.close();
  }
}

const cell = (v: unknown): string | number | null =>
  v === null || v === undefined ? null : typeof v === 'boolean' ? (v ? 1 : 0) : (v as string | number);
