/**
 * GeoPackage, Shapefile and KML exports read back by readers that are not ours: GDAL (`ogr2ogr`,
 * what QGIS opens them with), SQLite reading the GeoPackage's tables and geometry blobs per the
 * standard, the `shapefile` package on the unzipped parts, and an XML parser on the KML. Each
 * must hold exactly the CSV export's rows and cells.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DOMParser } from '@xmldom/xmldom';
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore -- no types for the reader; it is only the test's independent reader
import * as shapefile from 'shapefile';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXPORT_COLUMN_NAMES, Manifest, type StartExportOutput } from '../../../src-shared/exports';
import { CsvRecordReader } from '../import/csvRecords';
import { createLayerStore } from '../boundaries/layerStore';
import { createAreaStore } from '../areas/areaStore';
import { exportFailureOf } from './exportFailure';
import {
  apiRow,
  exportFinished,
  openTestEngine,
  TRICKY,
  writeIncidents,
  type TestEngine,
} from './exportTesting';
import { expectValidGeoPackage } from './gpkgTesting';

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

const DATETIME: readonly string[] = ['occurred_utc', 'first_seen', 'last_seen'];

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
        // GDAL reads the DATETIME columns as instants (and writes whole seconds without .000).
        else if (DATETIME.includes(c)) expect(Date.parse(text(got))).toBe(Date.parse(want[c] as string));
        else expect(text(got)).toBe(want[c]);
      }
      expectPoint(f.geometry.coordinates, want);
    }
    // Each column has the type a GIS reader shows: instants as DateTime, numbers as numbers.
    const fields = Object.fromEntries(
      [...info.matchAll(/^(\w+): (\S+)/gm)].map((m) => [m[1], m[2]]).filter(([k]) => k !== 'Geometry'),
    );
    expect(fields).toMatchObject({
      cdid: 'Integer64',
      type: 'String',
      occurred_local: 'String',
      occurred_utc: 'DateTime',
      lat: 'Real',
      lon: 'Real',
      description: 'String',
      first_seen: 'DateTime',
      last_seen: 'DateTime',
      removed: 'Integer(Boolean)',
      attributes: 'String',
    });
    expectValidGeoPackage(file);
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

describe('Shapefile names', () => {
  it('the parts (the layer QGIS shows) are named after the file in plain ASCII, accents dropped', async () => {
    const started = await call<StartExportOutput>('startExport', {
      format: 'shp',
      filters: { preset: 'all' },
      destination: { path: path.join(t.dir.path, 'Überfälle 北京 2025.zip') },
    });
    const done = await t.waitFor(exportFinished(started.jobId), 30_000);
    const listing = execFileSync('unzip', ['-Z1', done.file?.path as string], { encoding: 'utf8' });
    expect(listing.trim().split('\n').sort()).toEqual(
      ['.cpg', '.dbf', '.prj', '.shp', '.shx'].map((e) => `Uberfalle __ 2025${e}`),
    );
    expect(execFileSync('ogrinfo', ['-ro', '-so', '-al', `/vsizip/${done.file?.path}`]).toString()).toContain(
      'Layer name: Uberfalle __ 2025',
    );
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
    // Each placemark's TimeStamp is its instant: GDAL reads it as a date-time.
    for (const f of gdal) {
      const want = csv.get(String(f.properties.cdid)) as Record<string, string>;
      expect(Date.parse(String(f.properties.timestamp))).toBe(Date.parse(want.occurred_utc as string));
    }
    expect(execFileSync('ogrinfo', ['-so', file, 'Incidents']).toString()).toMatch(/^timestamp: DateTime/m);
  });
});

describe('KML styles', () => {
  it('thirty types (imports add their own): thirty styles, each its own colour, each placemark its type’s', async () => {
    writeIncidents(
      t.db,
      Array.from({ length: 30 }, (_, k) => apiRow(5000 + k, { type: `Imported type ${k}` })),
    );
    const { file } = await exportAs('kml', {
      preset: 'all',
      types: Array.from({ length: 30 }, (_, k) => `Imported type ${k}`),
    });
    const doc = new DOMParser().parseFromString(readFileSync(file, 'utf8'), 'text/xml');
    const colourOfStyle = new Map(
      Array.from(doc.getElementsByTagName('Style'), (s): [string | null, string | null | undefined] => [
        s.getAttribute('id'),
        s.getElementsByTagName('IconStyle')[0]?.getElementsByTagName('color')[0]?.textContent,
      ]).filter(([, c]) => c !== undefined),
    );
    const colourByType = new Map<string, string>();
    for (const m of Array.from(doc.getElementsByTagName('Placemark'))) {
      if (m.getElementsByTagName('Point').length === 0) continue; // the areas
      const style = m.getElementsByTagName('styleUrl')[0]?.textContent?.slice(1) as string;
      colourByType.set(
        m.getElementsByTagName('name')[0]?.textContent as string,
        colourOfStyle.get(style) as string,
      );
    }
    expect(colourByType.size).toBe(30);
    expect(new Set(colourByType.values()).size).toBe(30);
    for (const c of colourByType.values()) expect(c).toMatch(/^ff[0-9a-f]{6}$/);
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

describe('an export this computer cannot write', () => {
  it('a folder Blotter may not write in (/sys, refused even to root) fails every format in local words, leaving nothing', async () => {
    for (const [format, ext] of [
      ['csv', 'csv'],
      ['geojson', 'geojson'],
      ['gpkg', 'gpkg'],
      ['shp', 'zip'],
      ['kml', 'kml'],
    ] as const) {
      const before = readdirSync('/sys');
      const started = await call<StartExportOutput>('startExport', {
        format,
        filters: { preset: 'all' },
        destination: { path: `/sys/blotter-test.${ext}` },
      });
      const done = await t.waitFor(exportFinished(started.jobId), 30_000);
      expect(done.state, format).toBe('failed');
      expect(done.error?.code, format).toBe('disk_error');
      expect(done.error?.message, format).toMatch(/^Blotter cannot write in \/sys on this computer/);
      expect(readdirSync('/sys')).toEqual(before);
    }
  });

  it('a full disk or a read-only one is named as this computer’s, with the folder', () => {
    const file = path.join(t.dir.path, 'out.gpkg');
    const full = exportFailureOf(
      Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
      file,
    );
    expect(full?.code).toBe('disk_full');
    expect(full?.message).toContain(`The disk is full: the export could not be written to ${t.dir.path}`);
    const nospace = exportFailureOf(new Error('write', { cause: { code: 'ENOSPC' } }), file);
    expect(nospace?.code).toBe('disk_full');
    const readOnly = exportFailureOf(Object.assign(new Error('EROFS'), { code: 'EROFS' }), file);
    expect(readOnly?.message).toMatch(/cannot write in .* on this computer \(it is read-only\)/);
    expect(exportFailureOf(new Error('something else'), file)).toBeNull();
  });
});

describe('areas in the GeoPackage and KML', () => {
  type P = [number, number]; // [lat, lon]
  /** Twice the signed area with longitude as x: positive when counter-clockwise (the test's own). */
  const shoelace = (ring: readonly (readonly [number, number])[]): number =>
    ring.reduce((a, [x1, y1], k) => {
      const [x2, y2] = ring[(k + 1) % ring.length] as [number, number];
      return a + x1 * y2 - x2 * y1;
    }, 0);
  // A beat of two parts, drawn against the rules: the first part's outer ring clockwise with a
  // counter-clockwise hole, the second counter-clockwise.
  const outer: P[] = [
    [41.8, -87.7],
    [41.9, -87.7],
    [41.9, -87.6],
    [41.8, -87.6],
  ];
  const hole: P[] = [
    [41.83, -87.67],
    [41.83, -87.63],
    [41.87, -87.63],
    [41.87, -87.67],
  ];
  const island: P[] = [
    [41.95, -87.7],
    [41.95, -87.65],
    [41.98, -87.65],
  ];

  async function exportByBeat(format: 'gpkg' | 'kml') {
    const layer = createLayerStore(t.db).create(
      {
        format: 'geojson',
        features: [
          {
            index: 1,
            properties: { BEAT: 'Beat 1 & <2>' },
            geometry: { kind: 'polygons', polygons: [[outer, hole], [island]] },
          },
        ],
        fields: ['BEAT'],
        crs: 'EPSG:4326',
        skipped: [],
      },
      { name: 'Beats', nameField: 'BEAT', sourceName: 'beats.geojson' },
      1,
    );
    const feature = createLayerStore(t.db).features(layer.id)[0]!;
    return exportAs(format, { preset: 'all', feature: { layerId: layer.id, featureId: feature.id } });
  }

  it('GeoPackage: outer rings counter-clockwise, holes clockwise; the filter’s beat with its hole and both parts; envelopes per the standard', async () => {
    const { file } = await exportByBeat('gpkg');
    expectValidGeoPackage(file);
    const areas = ogrFeatures(file, 'areas') as unknown as {
      properties: { name: string; kind: string };
      geometry: { type: string; coordinates: [number, number][][] };
    }[];
    expect(areas.map((a) => [a.properties.name, a.properties.kind])).toEqual([
      ['Downtown', 'circle'],
      ['Midtown', 'polygon'],
      ['Beat 1 & <2> (Beats), part 1 of 2', 'filter feature'],
      ['Beat 1 & <2> (Beats), part 2 of 2', 'filter feature'],
    ]);
    for (const a of areas) {
      expect(a.geometry.type).toBe('Polygon');
      const [first, ...holes] = a.geometry.coordinates;
      expect(shoelace(first!), a.properties.name).toBeGreaterThan(0);
      for (const h of holes) expect(shoelace(h), a.properties.name).toBeLessThan(0);
    }
    expect(areas[2]?.geometry.coordinates).toHaveLength(2);
    expect(areas[3]?.geometry.coordinates).toHaveLength(1);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('user_version', { simple: true })).toBe(10300);
      expect(db.prepare('SELECT srs_id FROM gpkg_spatial_ref_sys ORDER BY srs_id').pluck().all()).toEqual([
        -1, 0, 4326,
      ]);
      // Each polygon blob: "GP", version 0, flags little-endian with an [minx, maxx, miny, maxy]
      // envelope, SRS 4326, then WKB whose corners the envelope holds exactly.
      const xs: number[] = [];
      const ys: number[] = [];
      for (const blob of db.prepare('SELECT geom FROM areas ORDER BY fid').pluck().all() as Buffer[]) {
        expect(blob.subarray(0, 3)).toEqual(Buffer.from([0x47, 0x50, 0]));
        expect(blob.readUInt8(3)).toBe(0b011);
        expect(blob.readInt32LE(4)).toBe(4326);
        const envelope = [0, 1, 2, 3].map((k) => blob.readDoubleLE(8 + k * 8));
        let o = 40;
        expect([blob.readUInt8(o), blob.readUInt32LE(o + 1)]).toEqual([1, 3]);
        const rings = blob.readUInt32LE(o + 5);
        o += 9;
        const corners: [number, number][] = [];
        for (let r = 0; r < rings; r++) {
          const n = blob.readUInt32LE(o);
          o += 4;
          for (let k = 0; k < n; k++, o += 16) corners.push([blob.readDoubleLE(o), blob.readDoubleLE(o + 8)]);
        }
        expect(o).toBe(blob.length);
        const cx = corners.map((c) => c[0]);
        const cy = corners.map((c) => c[1]);
        expect(envelope).toEqual([Math.min(...cx), Math.max(...cx), Math.min(...cy), Math.max(...cy)]);
        xs.push(...cx);
        ys.push(...cy);
      }
      const extent = db
        .prepare("SELECT min_x, min_y, max_x, max_y FROM gpkg_contents WHERE table_name = 'areas'")
        .get();
      expect(extent).toEqual({
        min_x: Math.min(...xs),
        min_y: Math.min(...ys),
        max_x: Math.max(...xs),
        max_y: Math.max(...ys),
      });
    } finally {
      db.close();
    }
  });

  it('KML: the beat as outerBoundaryIs and innerBoundaryIs, outer rings counter-clockwise, holes clockwise', async () => {
    const { file } = await exportByBeat('kml');
    const doc = new DOMParser().parseFromString(readFileSync(file, 'utf8'), 'text/xml');
    const polygons = Array.from(doc.getElementsByTagName('Polygon'));
    const ringsOf = (el: Element, tag: string) =>
      Array.from(el.getElementsByTagName(tag), (b) =>
        (b.getElementsByTagName('coordinates')[0]?.textContent ?? '')
          .trim()
          .split(/\s+/)
          .map((c) => c.split(',').map(Number) as [number, number]),
      );
    expect(polygons).toHaveLength(4);
    const beat = polygons[2] as Element;
    expect(ringsOf(beat, 'outerBoundaryIs')).toHaveLength(1);
    expect(ringsOf(beat, 'innerBoundaryIs')).toHaveLength(1);
    for (const p of polygons) {
      for (const r of ringsOf(p, 'outerBoundaryIs')) expect(shoelace(r)).toBeGreaterThan(0);
      for (const r of ringsOf(p, 'innerBoundaryIs')) expect(shoelace(r)).toBeLessThan(0);
    }
    const gdal = ogrFeatures(file, 'Areas');
    expect(gdal.map((f) => f.properties.Name)).toEqual([
      'Downtown',
      'Midtown',
      'Beat 1 & <2> (Beats), part 1 of 2',
      'Beat 1 & <2> (Beats), part 2 of 2',
    ]);
  });
});

describe('every format as GDAL reads it, empty or full', () => {
  const FORMATS = [
    ['csv', ''],
    ['geojson', ''],
    ['gpkg', 'incidents'],
    ['shp', ''],
    ['kml', 'Incidents'],
  ] as const;

  /** `ogrinfo -al` over the whole file: every feature read, and not one warning or error. */
  function ogrinfoClean(source: string, layer: string): number {
    const run = spawnSync('ogrinfo', ['-ro', '-al', source, ...(layer ? [layer] : [])], {
      maxBuffer: 1 << 28,
    });
    const said = `${run.stdout}${run.stderr}`;
    expect(said.split('\n').filter((l) => /warning|error/i.test(l))).toEqual([]);
    expect(run.status).toBe(0);
    return Number(/Feature Count: (\d+)/.exec(said)?.[1]);
  }

  /** The .dbf's record count and lengths, and the .shp/.shx lengths, against the files' sizes. */
  function expectExactShapefile(zip: string, records: number): void {
    const dir = mkdtempSync(path.join(t.dir.path, 'unzipped-'));
    execFileSync('unzip', ['-q', zip, '-d', dir]);
    const part = (ext: string) =>
      readFileSync(path.join(dir, readdirSync(dir).find((n) => n.endsWith(ext)) as string));
    const dbf = part('.dbf');
    const [n, headerLength, recordLength] = [dbf.readUInt32LE(4), dbf.readUInt16LE(8), dbf.readUInt16LE(10)];
    expect(n).toBe(records);
    expect(dbf.length).toBe(headerLength + n * recordLength + 1);
    expect(dbf[dbf.length - 1]).toBe(0x1a);
    let fields = 0;
    let widths = 1;
    for (let o = 32; dbf[o] !== 0x0d; o += 32, fields++) widths += dbf.readUInt8(o + 16);
    expect(headerLength).toBe(32 + fields * 32 + 1);
    expect(widths).toBe(recordLength);
    for (const [ext, size] of [
      ['.shp', 100 + 28 * records],
      ['.shx', 100 + 8 * records],
    ] as const) {
      const b = part(ext);
      expect(b.length).toBe(size);
      expect(b.readInt32BE(24) * 2).toBe(size);
    }
  }

  it('the filtered set of 0 rows, 1 row and all rows: each file read through without a warning, private to the user', async () => {
    for (const filters of [
      { preset: 'all', types: ['No such type'] },
      { preset: 'all', types: ['Arrest'] },
      { preset: 'all' },
    ]) {
      for (const [format, layer] of FORMATS) {
        const { file, total } = await exportAs(format, filters);
        const source = format === 'shp' ? `/vsizip/${file}` : file;
        expect(ogrinfoClean(source, layer), `${format} ${JSON.stringify(filters)}`).toBe(total);
        expect(statSync(file).mode & 0o777).toBe(0o600);
        if (format === 'gpkg') expectValidGeoPackage(file);
        if (format === 'shp') expectExactShapefile(file, total);
      }
    }
  });
});
