/**
 * A mapped file's own category kept as the incident's subtype (issue 28, item 3): stored beside the
 * type the value map gave it, on both merge paths; shown by getIncident and the table's rows; found
 * by the text search; exported (CSV, GeoJSON, GeoPackage) and read back from a Blotter CSV.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview, StartExportOutput } from '../../../src-shared/exports';
import type { ColumnMappingInput } from '../../../src-shared/importMapping';
import type { CountResult, IncidentDetail, ListResult } from '../../../src-shared/incidentQueries';
import {
  apiRow,
  exportFinished,
  openTestEngine,
  writeIncidents,
  type TestEngine,
} from '../export/exportTesting';
import { CsvRecordReader } from './csvRecords';
import { namespacedId } from './mapping/apply';

/** San Francisco's columns, as DataSF writes them (a few). */
const SF = [
  'Row ID,Incident Datetime,Incident Category,Intersection,Latitude,Longitude',
  '101,2018/12/01 12:25:00 AM,Larceny Theft,MARKET ST \\ 5TH ST,37.7841,-122.4075',
  '102,2018/12/01 01:40:00 PM,Malicious Mischief,MISSION ST \\ 16TH ST,37.765,-122.4196',
  '103,2018/12/02 09:05:00 PM,Drug Offense,OAK ST \\ DIVISADERO ST,37.7729,-122.4378',
].join('\r\n');
const MAPPING: ColumnMappingInput = {
  name: 'SF',
  id: 'Row ID',
  type: 'Incident Category',
  typeMap: { 'Larceny Theft': 'Theft', 'Malicious Mischief': 'Vandalism' },
  address: 'Intersection',
  date: 'Incident Datetime',
  location: { kind: 'latlon', lat: 'Latitude', lon: 'Longitude' },
};
const id = (rowId: string) => namespacedId('SF', rowId);

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

const call = <T>(name: string, input: unknown): Promise<T> => t.call<T>(name, input);

async function importFile(engine: TestEngine, text: string, mapping?: ColumnMappingInput): Promise<void> {
  const file = path.join(engine.dir.path, `in-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(file, text);
  const pv = await engine.call<ImportPreview>('previewImport', { source: { path: file }, mapping });
  expect(pv.errorCount).toBe(0);
  await engine.call('runImport', { importId: pv.importId });
}

const stored = (engine: TestEngine) =>
  engine.db.prepare('SELECT cdid, type, subtype FROM incidents ORDER BY cdid').all() as {
    cdid: number;
    type: string;
    subtype: string | null;
  }[];

async function exportFile(format: 'csv' | 'geojson' | 'gpkg'): Promise<string> {
  const started = await call<StartExportOutput>('startExport', {
    format,
    filters: { preset: 'all' },
    ...(format === 'gpkg' ? { destination: { path: path.join(t.dir.path, 'out.gpkg') } } : {}),
  });
  const done = await t.waitFor(exportFinished(started.jobId));
  expect(done.state).toBe('done');
  return done.file?.path as string;
}

function csvObjects(text: string): Record<string, string>[] {
  const reader = new CsvRecordReader();
  const [header, ...rows] = [...reader.push(text), ...reader.end()] as string[][];
  return rows.map((r) => Object.fromEntries((header ?? []).map((h, k) => [h, r[k] as string])));
}

describe('the subtype: a mapped file’s own category', () => {
  beforeEach(async () => {
    writeIncidents(t.db, [apiRow(41)]);
    await importFile(t, SF, MAPPING);
  });

  it('is stored beside the mapped type, whether the value map placed it or not; none for the API’s rows', () => {
    expect(stored(t)).toEqual(
      [
        { cdid: id('101'), type: 'Theft', subtype: 'Larceny Theft' },
        { cdid: id('102'), type: 'Vandalism', subtype: 'Malicious Mischief' },
        { cdid: id('103'), type: 'Drug Offense', subtype: 'Drug Offense' },
        { cdid: 41, type: 'Theft', subtype: null },
      ].sort((a, b) => a.cdid - b.cdid),
    );
  });

  it('is in the incident panel’s detail and on the table’s rows', async () => {
    const d = await call<IncidentDetail>('getIncident', { cdid: id('101') });
    expect(d).toMatchObject({ type: 'Theft', subtype: 'Larceny Theft', source: 'import' });
    expect((await call<IncidentDetail>('getIncident', { cdid: 41 })).subtype).toBeNull();
    const list = await call<ListResult>('listIncidents', {
      filters: { preset: 'all' },
      sort: { by: 'date', dir: 'asc' },
      offset: 0,
      limit: 10,
    });
    expect(new Map(list.rows.map((r) => [r.cdid, r.subtype ?? null]))).toEqual(
      new Map<number, string | null>([
        [id('101'), 'Larceny Theft'],
        [id('102'), 'Malicious Mischief'],
        [id('103'), 'Drug Offense'],
        [41, null],
      ]),
    );
  });

  it('is found by the text search (a word of it, and the last word as a prefix)', async () => {
    const count = async (text: string) =>
      (await call<CountResult>('countIncidents', { filters: { preset: 'all', text } })).total;
    expect(await count('larceny')).toBe(1);
    expect(await count('malicious misch')).toBe(1);
    expect(await count('drug')).toBe(1);
  });

  it('is exported: a CSV and GeoJSON column, a GeoPackage column, empty for the API’s rows', async () => {
    const csv = csvObjects(readFileSync(await exportFile('csv'), 'utf8'));
    expect(new Map(csv.map((r) => [Number(r.cdid), r.subtype]))).toEqual(
      new Map([
        [id('101'), 'Larceny Theft'],
        [id('102'), 'Malicious Mischief'],
        [id('103'), 'Drug Offense'],
        [41, ''],
      ]),
    );
    const json = JSON.parse(readFileSync(await exportFile('geojson'), 'utf8')) as {
      features: { properties: Record<string, unknown> }[];
    };
    const props = new Map(json.features.map((f) => [f.properties.cdid as number, f.properties.subtype]));
    expect(props.get(id('101'))).toBe('Larceny Theft');
    expect(props.get(41)).toBeNull();
    const gpkg = await exportFile('gpkg');
    const out = execFileSync('ogr2ogr', [
      '-f',
      'CSV',
      '/vsistdout/',
      gpkg,
      'incidents',
      '-select',
      'cdid,subtype',
    ]);
    const rows = csvObjects(out.toString());
    expect(rows.find((r) => Number(r.cdid) === id('101'))?.subtype).toBe('Larceny Theft');
  });

  it('comes back from a Blotter CSV export, into a new archive', async () => {
    const csv = readFileSync(await exportFile('csv'), 'utf8');
    const other = openTestEngine();
    try {
      await importFile(other, csv);
      expect(stored(other)).toEqual(stored(t));
    } finally {
      await other.close();
    }
  });

  it('goes with the copy a file repeating an id brings (the row-by-row merge)', async () => {
    const repeated = [
      'Row ID,Incident Datetime,Incident Category,Intersection,Latitude,Longitude',
      '201,2018/12/03 10:00:00 AM,Burglary,24TH ST \\ MISSION ST,37.7524,-122.4184',
      '201,2018/12/03 10:00:00 AM,Burglary,24TH ST \\ MISSION ST,37.7524,-122.4184',
      '202,2018/12/03 11:00:00 AM,Larceny Theft,24TH ST \\ MISSION ST,37.7524,-122.4184',
    ].join('\r\n');
    await importFile(t, repeated, MAPPING);
    const byCdid = new Map(stored(t).map((r) => [r.cdid, r]));
    expect(byCdid.get(id('201'))).toMatchObject({ type: 'Burglary', subtype: 'Burglary' });
    expect(byCdid.get(id('202'))).toMatchObject({ type: 'Theft', subtype: 'Larceny Theft' });
  });

  it('is none when one type is given for every row', async () => {
    await importFile(t, SF.replace(/\b10(\d)\b/g, '30$1'), {
      ...MAPPING,
      type: undefined,
      typeMap: undefined,
      constantType: 'Theft',
    });
    expect(stored(t).find((r) => r.cdid === id('301'))).toMatchObject({ type: 'Theft', subtype: null });
  });
});
