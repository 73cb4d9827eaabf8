/**
 * GeoPackage, Shapefile and KML exports read back by readers that are not ours: GDAL (`ogr2ogr`,
 * what QGIS opens them with), SQLite reading the GeoPackage's tables and geometry blobs per the
 * standard, the `shapefile` package on the unzipped parts, and an XML parser on the KML. Each
 * must hold exactly the CSV export's rows and cells.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DOMParser } from '@xmldom/xmldom';
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore -- no types for the reader; it is only the test's independent reader
import * as shapefile from 'shapefile';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXPORT_COLUMN_NAMES, Manifest, type StartExportOutput } from '../../../src-shared/exports';
import { CsvRecordReader } from '../import/csvRecords';
import { createAreaStore } from '../sync/areaStore';
import {
  apiRow,
  exportFinished,
  openTestEngine,
  TRICKY,
  writeIncidents,
  type TestEngine,
} from './exportTesting';

let t: TestEngine;
const LONG = `${'Ünïcödé long text '.repeat(20)}end`; // > 254 bytes

beforeEach(() => {
  t = openTestEngine();
  writeIncidents(t.db, [
    ...TRICKY,
    apiRow(9, { type: 'Burglary & <Break-in>', address: 'A "quoted" <b>tag</b> & co \u0001ctl' }),
    ...Array.from({ length: 2500 }, (_, k) =>
      apiRow(100 + k, { lat: 40.7 + (k % 10) / 100, lon: -74 + k / 1e5 }),
    ),
  ]);
  t.db.prepare('UPDATE incidents SET description = ? WHERE cdid IN (2, 150)').run(LONG);
  createAreaStore(t.db).create(
    { name: 'Downtown', shape: { kind: 'circle', lat: 41.88, lon: -87.63, radiusMi: 1 } },
    1,
  );
  createAreaStore(t.db).create(
    {
      name: 'Midtown',
      shape: {
        kind: 'polygon',
        points: [
          [40.7, -74],
          [40.8, -74],
          [40.8, -73.9],
        ],
      },
    },
    1,
  );
});
afterEach(() => t.close());

async function call<T>(name: string, input: unknown): Promise<T> {
  const result = await t.engine.dispatch(name, input);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

async function exportAs(format: string, filters: Record<string, unknown> = { preset: 'all' }) {
  const started = await call<StartExportOutput>('startExport', { format, filters });
  const done = await t.waitFor(exportFinished(started.jobId), 30_000);
  expect(done.error).toBeUndefined();
  expect(done.state).toBe('done');
  return { file: done.file?.path as string, manifest: Manifest.parse(done.manifest), total: started.total };
}

/** The CSV export's rows by cdid, every cell as text (the reference the other formats must match). */
async function csvByCdid(): Promise<Map<string, Record<string, string>>> {
  const { file } = await exportAs('csv');
  const reader = new CsvRecordReader();
  const [head, ...rows] = [...reader.push(readFileSync(file, 'utf8')), ...reader.end()];
  const unneutralise = (v: string) => (/^'[=+\-@\t\r]/.test(v) ? v.slice(1) : v);
  return new Map(
    rows.map((r) => [
      r[0] as string,
      Object.fromEntries((head as string[]).map((c, k) => [c, unneutralise(r[k] ?? '')])),
    ]),
  );
}

/** Any vector file → GeoJSON features, by GDAL. */
function ogrFeatures(
  source: string,
  layer?: string,
): { properties: Record<string, unknown>; geometry: { type: string; coordinates: unknown } }[] {
  const out = execFileSync('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', source, ...(layer ? [layer] : [])], {
    maxBuffer: 1 << 28,
  });
  return JSON.parse(out.toString('utf8')).features;
}

/** GDAL writes 15 significant digits: the same point to ~1e-12 degrees. */
function expectPoint(coordinates: unknown, want: Record<string, string>): void {
  const [x, y] = coordinates as [number, number];
  expect(x).toBeCloseTo(Number(want.lon), 12);
  expect(y).toBeCloseTo(Number(want.lat), 12);
}

const text = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'boolean' ? String(v) : String(v);

describe('GeoPackage export', () => {
  it('is a GeoPackage GDAL reads: every incident with all columns, the areas, the manifest table, EPSG:4326', async () => {
    const csv = await csvByCdid();
    const { file, manifest, total } = await exportAs('gpkg');
    expect(file.endsWith('.gpkg')).toBe(true);
    expect(manifest.file.crs).toBe('EPSG:4326');
    const info = execFileSync('ogrinfo', ['-so', file, 'incidents']).toString();
    expect(info).toMatch(/Geometry: Point/);
    expect(info).toContain(`Feature Count: ${total}`);
    expect(info).toMatch(/ID\["EPSG",4326\]|AUTHORITY\["EPSG","4326"\]/);
    const features = ogrFeatures(file, 'incidents');
    expect(features).toHaveLength(csv.size);
    for (const f of features) {
      const want = csv.get(String(f.properties.cdid)) as Record<string, string>;
      for (const c of EXPORT_COLUMN_NAMES) {
        const got = f.properties[c];
        if (c === 'removed') expect(Boolean(got)).toBe(want[c] === 'true');
        else if (c === 'lat' || c === 'lon') expect(got).toBeCloseTo(Number(want[c]), 12);
        else expect(text(got)).toBe(want[c]);
      }
      expectPoint(f.geometry.coordinates, want);
    }
    const areas = ogrFeatures(file, 'areas');
    expect(areas.map((a) => a.properties.name)).toEqual(['Downtown', 'Midtown']);
    expect(areas[1]?.geometry.type).toBe('Polygon');

    // SQLite itself, per the standard: the required tables, the header of each geometry blob.
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('application_id', { simple: true })).toBe(0x47504b47);
      const contents = db
        .prepare('SELECT table_name, data_type, srs_id, min_x, max_x FROM gpkg_contents ORDER BY table_name')
        .all();
      expect(contents).toEqual([
        {
          table_name: 'areas',
          data_type: 'features',
          srs_id: 4326,
          min_x: expect.any(Number),
          max_x: expect.any(Number),
        },
        { table_name: 'blotter_manifest', data_type: 'attributes', srs_id: null, min_x: null, max_x: null },
        {
          table_name: 'incidents',
          data_type: 'features',
          srs_id: 4326,
          min_x: -87.7,
          max_x: expect.any(Number),
        },
      ]);
      const blob = (db.prepare('SELECT geom FROM incidents WHERE cdid = 3').get() as { geom: Buffer }).geom;
      expect(blob.subarray(0, 2).toString('ascii')).toBe('GP');
      expect(blob.readInt32LE(4)).toBe(4326);
      const wkb = 8 + [0, 32, 48, 48, 64][(blob.readUInt8(3) >> 1) & 7]!;
      expect(blob.readUInt32LE(wkb + 1)).toBe(1);
      expect([blob.readDoubleLE(wkb + 5), blob.readDoubleLE(wkb + 13)]).toEqual([-87.7, 41.95]);
      const stored = JSON.parse(
        (db.prepare('SELECT manifest FROM blotter_manifest').get() as { manifest: string }).manifest,
      );
      expect(stored).toEqual(manifest);
      expect(manifest.file.bytes).toBe(readFileSync(file).length);
    } finally {
      db.close();
    }
  });
});

describe('Shapefile export', () => {
  it('is a zip of .shp/.shx/.dbf/.prj/.cpg: GDAL and the shapefile package read every row; 10-character names and cut texts are in the manifest', async () => {
    const csv = await csvByCdid();
    const { file, manifest } = await exportAs('shp');
    expect(file.endsWith('.zip')).toBe(true);
    const dir = mkdtempSync(path.join(t.dir.path, 'unzipped-'));
    execFileSync('unzip', ['-q', file, '-d', dir]);
    const parts = readdirSync(dir).sort();
    expect(parts.map((p) => path.extname(p))).toEqual(['.cpg', '.dbf', '.prj', '.shp', '.shx']);
    const base = path.join(dir, path.basename(parts[0] as string, '.cpg'));
    expect(readFileSync(`${base}.cpg`, 'utf8')).toBe('UTF-8');
    expect(readFileSync(`${base}.prj`, 'utf8')).toMatch(/^GEOGCS\["GCS_WGS_1984"/);
    expect(manifest.file.fieldNames).toMatchObject({
      occurred_l: 'occurred_local',
      occurred_u: 'occurred_utc',
      descriptio: 'description',
    });
    expect(manifest.file.truncated).toEqual([{ column: 'description', cells: 2, cdids: [2, 150] }]);
    const full = (short: string) => (manifest.file.fieldNames as Record<string, string>)[short] as string;

    const info = execFileSync('ogrinfo', ['-so', '-al', `/vsizip/${file}`]).toString();
    expect(info).toContain(`Feature Count: ${csv.size}`);
    expect(info).toMatch(/WGS 84|WGS_1984/);
    const check = (
      features: { properties: Record<string, unknown>; geometry: { coordinates: unknown } }[],
    ) => {
      expect(features).toHaveLength(csv.size);
      for (const f of features) {
        const props = Object.fromEntries(Object.entries(f.properties).map(([k, v]) => [full(k), v]));
        const want = csv.get(String(props.cdid)) as Record<string, string>;
        for (const c of EXPORT_COLUMN_NAMES) {
          const got = props[c];
          if (c === 'removed') expect(got === true || got === 'T').toBe(want[c] === 'true');
          else if (c === 'lat' || c === 'lon') expect(got).toBeCloseTo(Number(want[c]), 9);
          else if (c === 'description' && want[c] === LONG) {
            expect(Buffer.byteLength(String(got))).toBeLessThanOrEqual(254);
            expect(LONG.startsWith(String(got))).toBe(true);
            // dBASE pads text with spaces, and readers trim them (the shapefile package both ends).
          } else expect(text(got).trim()).toBe(want[c]?.trim());
        }
        expectPoint(f.geometry.coordinates, want);
      }
    };
    check(ogrFeatures(`/vsizip/${file}`));
    const collection = await shapefile.read(readFileSync(`${base}.shp`), readFileSync(`${base}.dbf`), {
      encoding: 'utf-8',
    });
    check(collection.features);
  });
});

describe('KML export', () => {
  it('is KML 2.2 an XML parser and GDAL read: a placemark per incident styled by type, escaped text, the areas', async () => {
    const csv = await csvByCdid();
    const { file, manifest } = await exportAs('kml');
    expect(manifest.file.crs).toBe('EPSG:4326');
    const xml = readFileSync(file, 'utf8');
    const errors: string[] = [];
    const doc = new DOMParser({
      errorHandler: {
        warning: (msg: string) => void errors.push(`warning: ${msg}`),
        error: (msg: string) => void errors.push(`error: ${msg}`),
        fatalError: (msg: string) => void errors.push(`fatal: ${msg}`),
      },
    }).parseFromString(xml, 'text/xml');
    expect(errors).toEqual([]);
    const styles = new Set(Array.from(doc.getElementsByTagName('Style'), (s) => s.getAttribute('id')));
    const marks = Array.from(doc.getElementsByTagName('Placemark'));
    const incidents = marks.filter((m) => m.getElementsByTagName('Point').length === 1);
    expect(incidents).toHaveLength(csv.size);
    const styleByType = new Map<string, string>();
    for (const m of incidents) {
      const data = Object.fromEntries(
        Array.from(m.getElementsByTagName('Data'), (d) => [
          d.getAttribute('name'),
          d.getElementsByTagName('value')[0]?.textContent ?? '',
        ]),
      );
      const want = csv.get(data.cdid as string) as Record<string, string>;
      for (const c of EXPORT_COLUMN_NAMES)
        expect(data[c]).toBe(c === 'address' ? want[c]?.replace('\u0001', '') : want[c]);
      const style = m.getElementsByTagName('styleUrl')[0]?.textContent?.slice(1) as string;
      expect(styles.has(style)).toBe(true);
      expect(styleByType.get(want.type as string) ?? style).toBe(style);
      styleByType.set(want.type as string, style);
      expect(m.getElementsByTagName('coordinates')[0]?.textContent).toBe(`${want.lon},${want.lat}`);
    }
    expect(new Set(styleByType.values()).size).toBe(styleByType.size);
    expect(xml).toContain('<name>Burglary &amp; &lt;Break-in&gt;</name>');
    const polygons = marks.filter((m) => m.getElementsByTagName('Polygon').length === 1);
    expect(polygons.map((m) => m.getElementsByTagName('name')[0]?.textContent)).toEqual([
      'Downtown',
      'Midtown',
    ]);
    const gdal = ogrFeatures(file, 'Incidents');
    expect(gdal.filter((f) => f.geometry.type === 'Point')).toHaveLength(csv.size);
  });
});

describe('GIS exports and the filter', () => {
  it('write exactly the filtered set (the count shown), and leave no temporary file behind', async () => {
    for (const format of ['gpkg', 'shp', 'kml']) {
      const { file, manifest, total } = await exportAs(format, { preset: 'all', types: ['Assault'] });
      expect(total).toBe(1);
      expect(manifest.counts.written).toBe(1);
      expect(
        readdirSync(path.dirname(file)).filter((n) => n.includes('.part') || n.startsWith('.blotter-shp')),
      ).toEqual([]);
    }
  });

  it('a cancelled job leaves nothing (no data file, no manifest, no parts folder)', async () => {
    for (const format of ['gpkg', 'shp', 'kml']) {
      const started = await call<StartExportOutput>('startExport', { format, filters: { preset: 'all' } });
      await call('cancelExport', { jobId: started.jobId });
      const done = await t.waitFor(exportFinished(started.jobId), 30_000);
      expect(done.state).toBe('cancelled');
    }
    const dir = path.join(t.dir.path, 'exports');
    expect(readdirSync(dir)).toEqual([]);
  });
});
