/**
 * The `attributes` export column: the columns a mapped import kept travel into CSV (one cell of
 * JSON text, empty for API rows) and GeoJSON (an object in the properties, null for API rows), and
 * a Blotter CSV holding them imports back with them — same rows (the namespaced cdids), same kept
 * columns, the other system's ids still in provenance.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  EXPORT_COLUMN_NAMES,
  Manifest,
  type ImportPreview,
  type StartExportOutput,
} from '../../../src-shared/exports';
import type { ColumnMappingInput } from '../../../src-shared/importMapping';
import { CsvRecordReader } from '../import/csvRecords';
import { namespacedId } from '../import/mapping/apply';
import { apiRow, exportFinished, openTestEngine, writeIncidents, type TestEngine } from './exportTesting';

const RMS = [
  'Incident Number,Offense,Block Address,Date Reported,Time Reported,X Coordinate,Y Coordinate,Beat,Unit',
  '25-000123,23F,1200 BLK MAIN ST,05/10/2025,1330,2484000,6965000,114,"3B, ""north"""',
  '25-000124,13A,400 BLK ELM ST,05/11/2025,0005,2486500,6967250,115,',
].join('\r\n');
const MAPPING: ColumnMappingInput = {
  name: 'Dallas RMS',
  id: 'Incident Number',
  type: 'Offense',
  typeMap: { '23F': 'Theft', '13A': 'Assault' },
  address: 'Block Address',
  date: 'Date Reported',
  time: 'Time Reported',
  location: { kind: 'xy', x: 'X Coordinate', y: 'Y Coordinate', epsg: 2276 },
  keep: ['Beat', 'Unit'],
};
const FIRST = namespacedId('Dallas RMS', '25-000123');
const SECOND = namespacedId('Dallas RMS', '25-000124');

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

async function call<T>(engine: TestEngine, name: string, input: unknown): Promise<T> {
  const result = await engine.engine.dispatch(name, input);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

async function importFile(engine: TestEngine, file: string, mapping?: ColumnMappingInput): Promise<void> {
  const pv = await call<ImportPreview>(engine, 'previewImport', { source: { path: file }, mapping });
  expect(pv.errorCount).toBe(0);
  await call(engine, 'runImport', { importId: pv.importId });
}

async function exportFile(engine: TestEngine, format: 'csv' | 'geojson' | 'gpkg' | 'shp'): Promise<string> {
  const started = await call<StartExportOutput>(engine, 'startExport', {
    format,
    filters: { preset: 'all' },
    ...(format === 'gpkg' || format === 'shp'
      ? { destination: { path: path.join(engine.dir.path, `out.${format === 'shp' ? 'zip' : format}`) } }
      : {}),
  });
  const done = await engine.waitFor(exportFinished(started.jobId));
  expect(done.state).toBe('done');
  return done.file?.path as string;
}
const exportAll = async (engine: TestEngine, format: 'csv' | 'geojson'): Promise<string> =>
  readFileSync(await exportFile(engine, format), 'utf8');

/** CSV rows as objects by the header's names. */
function csvObjects(text: string): Record<string, string>[] {
  const reader = new CsvRecordReader();
  const [header, ...rows] = [...reader.push(text), ...reader.end()] as string[][];
  expect(header).toEqual([...EXPORT_COLUMN_NAMES]);
  return rows.map((r) => Object.fromEntries((header ?? []).map((h, k) => [h, r[k] as string])));
}

const kept = (engine: TestEngine) =>
  engine.db.prepare('SELECT cdid, external_id, attributes FROM incident_imports ORDER BY cdid').all() as {
    cdid: number;
    external_id: string | null;
    attributes: string | null;
  }[];

describe('a mapped import’s kept columns in exports', () => {
  beforeEach(async () => {
    writeIncidents(t.db, [apiRow(41)]);
    const file = path.join(t.dir.path, 'rms.csv');
    writeFileSync(file, RMS);
    await importFile(t, file, MAPPING);
  });

  it('CSV: one attributes cell of JSON text per mapped row, empty for the API row', async () => {
    const rows = csvObjects(await exportAll(t, 'csv'));
    const byCdid = new Map(rows.map((r) => [Number(r.cdid), r]));
    expect(byCdid.get(41)?.attributes).toBe('');
    expect(JSON.parse(byCdid.get(FIRST)?.attributes ?? '')).toEqual({ Beat: '114', Unit: '3B, "north"' });
    expect(JSON.parse(byCdid.get(SECOND)?.attributes ?? '')).toEqual({ Beat: '115' });
  });

  it('GeoJSON: an attributes object in the properties, null for the API row', async () => {
    const json = JSON.parse(await exportAll(t, 'geojson')) as {
      features: { properties: Record<string, unknown> }[];
    };
    const byCdid = new Map(json.features.map((f) => [f.properties.cdid as number, f.properties]));
    expect(byCdid.get(41)?.attributes).toBeNull();
    expect(byCdid.get(FIRST)?.attributes).toEqual({ Beat: '114', Unit: '3B, "north"' });
    expect(Object.keys(byCdid.get(FIRST) ?? {}).sort()).toEqual([...EXPORT_COLUMN_NAMES].sort());
  });

  it('GeoPackage and Shapefile: the same JSON text (GDAL reads it), and the manifest says so', async () => {
    for (const format of ['gpkg', 'shp'] as const) {
      const file = await exportFile(t, format);
      const source = format === 'shp' ? `/vsizip/${file}` : file;
      const out = execFileSync('ogr2ogr', [
        '-f',
        'GeoJSON',
        '/vsistdout/',
        source,
        ...(format === 'gpkg' ? ['incidents'] : []),
      ]).toString();
      const props = (JSON.parse(out) as { features: { properties: Record<string, unknown> }[] }).features.map(
        (f) => f.properties,
      );
      const byCdid = new Map(props.map((p) => [Number(p.cdid), p.attributes]));
      expect([...byCdid.keys()].sort()).toEqual([FIRST, SECOND, 41].sort());
      // The cell is JSON text (GDAL's GeoJSON writer may turn such text back into an object).
      const first = byCdid.get(FIRST);
      expect(typeof first === 'string' ? JSON.parse(first) : first).toEqual({
        Beat: '114',
        Unit: '3B, "north"',
      });
      expect(byCdid.get(41) ?? '').toBe('');
      const manifest = Manifest.parse(
        JSON.parse(readFileSync(file.replace(/\.[a-z]+$/, '.manifest.json'), 'utf8')),
      );
      expect(manifest.file.jsonText).toEqual(['attributes']);
    }
  });

  it('a Blotter CSV with attributes imports back keeping them: the same rows, here and in a new archive', async () => {
    const csv = await exportAll(t, 'csv');
    const file = path.join(t.dir.path, 'blotter.csv');
    writeFileSync(file, csv);
    const before = kept(t);
    expect(before.find((r) => r.cdid === FIRST)).toMatchObject({ external_id: '25-000123' });

    // Into the same archive: the same three rows; the kept columns and the other system's ids stay.
    await importFile(t, file);
    expect(t.db.prepare('SELECT count(*) FROM incidents').pluck().get()).toBe(3);
    const again = kept(t).filter((r) => r.cdid < 0);
    expect(again).toEqual(before.filter((r) => r.cdid < 0));

    // Into a new archive: the namespaced cdids and kept columns arrive, and export the same cells.
    const other = openTestEngine();
    try {
      await importFile(other, file);
      const rows = kept(other);
      const attributesOf = new Map(rows.map((r) => [r.cdid, r.attributes && JSON.parse(r.attributes)]));
      expect(attributesOf).toEqual(
        new Map<number, unknown>([
          [FIRST, { Beat: '114', Unit: '3B, "north"' }],
          [SECOND, { Beat: '115' }],
          [41, null],
        ]),
      );
      const cells = (text: string) => csvObjects(text).map((r) => [r.cdid, r.attributes]);
      expect(cells(await exportAll(other, 'csv'))).toEqual(cells(csv));
    } finally {
      await other.close();
    }
  });

  it('refuses an attributes cell that is not a JSON object of texts, naming the row and column', async () => {
    const lines = (await exportAll(t, 'csv')).split('\r\n');
    const at = lines.findIndex((l) => l.startsWith('41,'));
    lines[at] = `${lines[at]}"{""Beat"":114}"`; // its attributes cell was empty: a number is not a text
    const file = path.join(t.dir.path, 'broken.csv');
    writeFileSync(file, lines.join('\r\n'));
    const pv = await call<ImportPreview>(t, 'previewImport', { source: { path: file } });
    expect(pv.errors).toEqual([
      { row: at, field: 'attributes', message: expect.stringMatching(/JSON object of texts/) as unknown },
    ]);
  });
});

describe('kept columns as GIS columns of their own', () => {
  const NOTES = `${'Ünïcödé 北京 '.repeat(30)}end`; // > 254 bytes
  const FILE = [
    'Case,Offense,Location,Reported,Lat,Lon,Reporting Officer Name,Reporting Officer Badge,type,Beat/Zone,Notes',
    `C-1,Theft,1 Main St,2025-05-10 13:30,41.9,-87.6,Émile 😀,B&<1>,shoplifting,114,${NOTES}`,
    'C-2,Theft,2 Main St,2025-05-11 08:00,41.91,-87.61,,,,115,',
  ].join('\r\n');
  const KEEP = ['Reporting Officer Name', 'Reporting Officer Badge', 'type', 'Beat/Zone', 'Notes'];
  const ID = (id: string) => namespacedId('Cases', id);

  beforeEach(async () => {
    writeIncidents(t.db, [apiRow(41)]);
    const file = path.join(t.dir.path, 'cases.csv');
    writeFileSync(file, FILE);
    await importFile(t, file, {
      name: 'Cases',
      id: 'Case',
      type: 'Offense',
      address: 'Location',
      date: 'Reported',
      location: { kind: 'latlon', lat: 'Lat', lon: 'Lon' },
      keep: KEEP,
    });
  });

  /** GDAL's reading of a file: properties by cdid. */
  const gdalRows = (source: string, layer?: string) =>
    new Map(
      (
        JSON.parse(
          execFileSync('ogr2ogr', [
            '-f',
            'GeoJSON',
            '/vsistdout/',
            source,
            ...(layer ? [layer] : []),
          ]).toString(),
        ) as { features: { properties: Record<string, unknown> }[] }
      ).features.map((f) => [Number(f.properties.cdid), f.properties]),
    );
  const manifestOf = (file: string) =>
    Manifest.parse(JSON.parse(readFileSync(file.replace(/\.[a-z]+$/, '.manifest.json'), 'utf8')));

  it('GeoPackage: a TEXT column per kept column, a name an export column has renamed, the manifest mapping it back', async () => {
    const file = await exportFile(t, 'gpkg');
    const rows = gdalRows(file, 'incidents');
    expect(rows.get(ID('C-1'))).toMatchObject({
      'Reporting Officer Name': 'Émile 😀',
      'Reporting Officer Badge': 'B&<1>',
      type: 'Theft',
      type_2: 'shoplifting',
      'Beat/Zone': '114',
      Notes: NOTES,
    });
    expect(rows.get(ID('C-2'))).toMatchObject({ 'Beat/Zone': '115', 'Reporting Officer Name': null });
    expect(rows.get(41)).toMatchObject({ 'Beat/Zone': null, type_2: null });
    expect(manifestOf(file).file.fieldNames).toEqual({
      'Reporting Officer Name': 'attributes.Reporting Officer Name',
      'Reporting Officer Badge': 'attributes.Reporting Officer Badge',
      type_2: 'attributes.type',
      'Beat/Zone': 'attributes.Beat/Zone',
      Notes: 'attributes.Notes',
    });
  });

  it('Shapefile: 10-character ASCII names, unique after the cut, mapped in the manifest; a long kept text cut and noted', async () => {
    const file = await exportFile(t, 'shp');
    const manifest = manifestOf(file);
    const names = manifest.file.fieldNames as Record<string, string>;
    const kept = Object.fromEntries(
      Object.entries(names)
        .filter(([, column]) => column.startsWith('attributes.'))
        .map(([short, column]) => [column, short]),
    );
    expect(kept).toEqual({
      'attributes.Reporting Officer Name': 'Reporting_',
      'attributes.Reporting Officer Badge': 'Reporting1',
      'attributes.type': 'type1',
      'attributes.Beat/Zone': 'Beat_Zone',
      'attributes.Notes': 'Notes',
    });
    expect(new Set(Object.keys(names).map((n) => n.toLowerCase())).size).toBe(Object.keys(names).length);
    const info = execFileSync('ogrinfo', ['-ro', '-al', `/vsizip/${file}`], { encoding: 'utf8' });
    expect(info.split('\n').filter((l) => /warning|error/i.test(l))).toEqual([]);
    const first = gdalRows(`/vsizip/${file}`).get(ID('C-1')) as Record<string, unknown>;
    expect(first).toMatchObject({
      Reporting_: 'Émile 😀',
      Reporting1: 'B&<1>',
      type: 'Theft',
      type1: 'shoplifting',
      Beat_Zone: '114',
    });
    expect(Buffer.byteLength(first.Notes as string)).toBeLessThanOrEqual(254);
    expect(NOTES.startsWith(first.Notes as string)).toBe(true);
    expect(manifest.file.truncated).toEqual(
      expect.arrayContaining([{ column: 'attributes.Notes', cells: 1, cdids: [ID('C-1')] }]),
    );
  });

  it('KML: a Data per kept value, GDAL reading each as a field', async () => {
    const started = await call<StartExportOutput>(t, 'startExport', {
      format: 'kml',
      filters: { preset: 'all' },
    });
    const done = await t.waitFor(exportFinished(started.jobId));
    const file = done.file?.path as string;
    const rows = gdalRows(file, 'Incidents');
    // The file names each Data as the kept column is named; GDAL's reader launders spaces and '/'.
    expect(rows.get(ID('C-1'))).toMatchObject({
      Reporting_Officer_Name: 'Émile 😀',
      Reporting_Officer_Badge: 'B&<1>',
      type: 'Theft',
      type_2: 'shoplifting',
      Beat_Zone: '114',
      Notes: NOTES,
    });
    expect(rows.get(41)).not.toHaveProperty('Beat_Zone', '114');
    const xml = readFileSync(file, 'utf8');
    expect(xml).toContain('<Data name="Beat/Zone"><value>114</value></Data>');
    expect(xml).toContain('<Data name="Reporting Officer Badge"><value>B&amp;&lt;1&gt;</value></Data>');
    expect(manifestOf(file).file.fieldNames).toMatchObject({ type_2: 'attributes.type' });
  });
});
